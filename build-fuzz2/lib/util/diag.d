build-fuzz2/lib/util/diag.o: src/lib/util/diag.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/util/diag_int.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/diag_int.h:

src/lib/util/xalloc.h:
