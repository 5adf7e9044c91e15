build-fuzz2/lib/model/meta.o: src/lib/model/meta.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/model/model.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/model/model.h:

src/lib/util/xalloc.h:
