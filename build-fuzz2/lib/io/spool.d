build-fuzz2/lib/io/spool.o: src/lib/io/spool.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/io/io.h src/lib/util/path.h \
  src/lib/util/progress.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/progress.h:

src/lib/util/xalloc.h:
