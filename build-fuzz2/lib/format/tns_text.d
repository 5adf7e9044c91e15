build-fuzz2/lib/format/tns_text.o: src/lib/format/tns_text.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/num/digits.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/num/digits.h:

src/lib/util/xalloc.h:
