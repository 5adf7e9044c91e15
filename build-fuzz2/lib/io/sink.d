build-fuzz2/lib/io/sink.o: src/lib/io/sink.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/io/io.h src/lib/util/path.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
