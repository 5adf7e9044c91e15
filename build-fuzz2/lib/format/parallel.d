build-fuzz2/lib/format/parallel.o: src/lib/format/parallel.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/util/diag_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/util/diag_int.h:

src/lib/util/xalloc.h:
