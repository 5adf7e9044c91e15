build-fuzz2/lib/stage/sort/radix.o: src/lib/stage/sort/radix.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/bigmem.h \
  src/lib/stage/sort/sort_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/bigmem.h:

src/lib/stage/sort/sort_int.h:

src/lib/util/xalloc.h:
