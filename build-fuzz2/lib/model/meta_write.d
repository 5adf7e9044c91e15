build-fuzz2/lib/model/meta_write.o: src/lib/model/meta_write.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/model/model.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/model/model.h:

src/lib/util/xalloc.h:
