build-fuzz2/lib/stage/convert.o: src/lib/stage/convert.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/stage.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
