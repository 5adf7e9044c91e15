build-fuzz2/lib/stage/sort/merge.o: src/lib/stage/sort/merge.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/sort/sort_int.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/sort/sort_int.h:

src/lib/util/xalloc.h:
