build-fuzz2/lib/job/gen.o: src/lib/job/gen.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/job/job_int.h src/lib/job/job.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/job/job_int.h:

src/lib/job/job.h:

src/lib/util/xalloc.h:
