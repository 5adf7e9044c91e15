build-fuzz2/lib/format/cutensor.o: src/lib/format/cutensor.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/util/strbuf.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/util/strbuf.h:

src/lib/util/xalloc.h:
