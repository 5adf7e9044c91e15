build-fuzz2/lib/stage/order.o: src/lib/stage/order.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/stage.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
