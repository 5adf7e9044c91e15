build-fuzz2/lib/format/lines.o: src/lib/format/lines.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/lines.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/lines.h:

src/lib/util/xalloc.h:
