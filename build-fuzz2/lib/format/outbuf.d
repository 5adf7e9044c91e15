build-fuzz2/lib/format/outbuf.o: src/lib/format/outbuf.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/num/digits.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/num/digits.h:

src/lib/util/xalloc.h:
