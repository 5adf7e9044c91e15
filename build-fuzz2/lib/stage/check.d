build-fuzz2/lib/stage/check.o: src/lib/stage/check.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/stage.h \
  src/lib/stage/ordered.h src/lib/util/progress.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/stage.h:

src/lib/stage/ordered.h:

src/lib/util/progress.h:

src/lib/util/xalloc.h:
