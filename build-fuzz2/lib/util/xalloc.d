build-fuzz2/lib/util/xalloc.o: src/lib/util/xalloc.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/xalloc.h:
