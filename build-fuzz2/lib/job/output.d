build-fuzz2/lib/job/output.o: src/lib/job/output.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/job/job_int.h src/lib/job/job.h \
  src/lib/model/model.h src/lib/util/path.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/job/job_int.h:

src/lib/job/job.h:

src/lib/model/model.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
