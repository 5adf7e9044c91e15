build-fuzz2/lib/stage/genvalues.o: src/lib/stage/genvalues.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/model/model.h \
  src/lib/stage/genvalues.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/model/model.h:

src/lib/stage/genvalues.h:

src/lib/util/xalloc.h:
