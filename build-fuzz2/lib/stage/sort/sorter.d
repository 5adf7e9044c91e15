build-fuzz2/lib/stage/sort/sorter.o: src/lib/stage/sort/sorter.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/bigmem.h \
  src/lib/stage/sort/sort_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/bigmem.h:

src/lib/stage/sort/sort_int.h:

src/lib/util/xalloc.h:
