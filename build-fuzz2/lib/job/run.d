build-fuzz2/lib/job/run.o: src/lib/job/run.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/job/job_int.h src/lib/job/job.h \
  src/lib/util/progress.h src/lib/util/path.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/job/job_int.h:

src/lib/job/job.h:

src/lib/util/progress.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
