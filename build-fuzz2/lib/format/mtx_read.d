build-fuzz2/lib/format/mtx_read.o: src/lib/format/mtx_read.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/format/mtx.h src/lib/num/digits.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/format/mtx.h:

src/lib/num/digits.h:

src/lib/util/xalloc.h:
