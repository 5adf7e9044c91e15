build-fuzz2/lib/stage/sort/keys.o: src/lib/stage/sort/keys.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/bigmem.h \
  src/lib/stage/sort/sort_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/bigmem.h:

src/lib/stage/sort/sort_int.h:

src/lib/util/xalloc.h:
