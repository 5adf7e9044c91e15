build-fuzz2/lib/io/archive_read.o: src/lib/io/archive_read.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/io/archive.h \
  src/lib/util/path.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/archive.h:

src/lib/util/path.h:

src/lib/util/xalloc.h:
