build-fuzz2/lib/stage/genvalues_stage.o: src/lib/stage/genvalues_stage.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/stage/genvalues.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/stage/genvalues.h:

src/lib/util/xalloc.h:
