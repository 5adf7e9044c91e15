build-fuzz2/lib/util/strbuf.o: src/lib/util/strbuf.c \
  src/lib/util/strbuf.h src/lib/util/xalloc.h

src/lib/util/strbuf.h:

src/lib/util/xalloc.h:
