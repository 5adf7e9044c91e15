build-fuzz2/lib/model/batch.o: src/lib/model/batch.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/util/xalloc.h:
