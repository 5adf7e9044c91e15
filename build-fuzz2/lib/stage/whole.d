build-fuzz2/lib/stage/whole.o: src/lib/stage/whole.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/whole.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/whole.h:

src/lib/util/xalloc.h:
