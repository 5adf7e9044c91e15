build-fuzz2/lib/io/bundle_out.o: src/lib/io/bundle_out.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/io/io.h \
  src/lib/util/path.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
