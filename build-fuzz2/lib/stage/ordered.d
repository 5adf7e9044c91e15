build-fuzz2/lib/stage/ordered.o: src/lib/stage/ordered.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/ordered.h \
  src/lib/stage/stage.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/ordered.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
