build-fuzz2/lib/stage/expand.o: src/lib/stage/expand.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/stage.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
