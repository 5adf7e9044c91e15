build-fuzz2/lib/io/compress.o: src/lib/io/compress.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/io/io.h \
  src/lib/util/path.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
