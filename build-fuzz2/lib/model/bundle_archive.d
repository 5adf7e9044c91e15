build-fuzz2/lib/model/bundle_archive.o: src/lib/model/bundle_archive.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/io/archive.h \
  src/lib/io/io.h src/lib/util/path.h src/lib/util/progress.h \
  src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/io/archive.h:

src/lib/io/io.h:

src/lib/util/path.h:

src/lib/util/progress.h:

src/lib/util/xalloc.h:
