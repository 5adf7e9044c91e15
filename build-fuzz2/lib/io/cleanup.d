build-fuzz2/lib/io/cleanup.o: src/lib/io/cleanup.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/io/io.h src/lib/util/path.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
