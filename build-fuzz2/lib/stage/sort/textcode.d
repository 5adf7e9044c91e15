build-fuzz2/lib/stage/sort/textcode.o: src/lib/stage/sort/textcode.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/num/digits.h \
  src/lib/format/lines.h src/lib/util/bigmem.h \
  src/lib/stage/sort/sort_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/num/digits.h:

src/lib/format/lines.h:

src/lib/util/bigmem.h:

src/lib/stage/sort/sort_int.h:

src/lib/util/xalloc.h:
