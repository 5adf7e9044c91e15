build-fuzz2/lib/stage/flow.o: src/lib/stage/flow.c src/lib/tensorsuite.h \
  src/lib/tsnum.h src/lib/format/format.h src/lib/format/lines.h \
  src/lib/util/progress.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/util/progress.h:

src/lib/util/xalloc.h:
