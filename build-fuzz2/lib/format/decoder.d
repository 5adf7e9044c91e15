build-fuzz2/lib/format/decoder.o: src/lib/format/decoder.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/util/xalloc.h:
