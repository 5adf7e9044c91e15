build-fuzz2/lib/stage/infer.o: src/lib/stage/infer.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/whole.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/whole.h:

src/lib/util/xalloc.h:
