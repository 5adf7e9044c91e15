build-fuzz2/lib/format/tns_header.o: src/lib/format/tns_header.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/util/xalloc.h:
