build-fuzz2/lib/stage/bounds.o: src/lib/stage/bounds.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/stage.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
