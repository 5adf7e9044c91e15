build-fuzz2/lib/util/bigmem.o: src/lib/util/bigmem.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/bigmem.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/bigmem.h:

src/lib/util/xalloc.h:
