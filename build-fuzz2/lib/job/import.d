build-fuzz2/lib/job/import.o: src/lib/job/import.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/job/job_int.h src/lib/job/job.h \
  src/lib/stage/stage.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/job/job_int.h:

src/lib/job/job.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
