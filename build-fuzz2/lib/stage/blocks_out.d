build-fuzz2/lib/stage/blocks_out.o: src/lib/stage/blocks_out.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/genvalues.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/genvalues.h:

src/lib/util/xalloc.h:
