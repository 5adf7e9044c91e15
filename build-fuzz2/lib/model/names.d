build-fuzz2/lib/model/names.o: src/lib/model/names.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/model/model.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/model/model.h:
