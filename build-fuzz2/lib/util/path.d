build-fuzz2/lib/util/path.o: src/lib/util/path.c src/lib/util/path.h \
  src/lib/util/xalloc.h

src/lib/util/path.h:

src/lib/util/xalloc.h:
