build-fuzz2/lib/stage/sort_stage.o: src/lib/stage/sort_stage.c \
  src/lib/tensorsuite.h src/lib/tsnum.h src/lib/format/format.h \
  src/lib/format/lines.h src/lib/stage/stage.h src/lib/util/xalloc.h

src/lib/tensorsuite.h:

src/lib/tsnum.h:

src/lib/format/format.h:

src/lib/format/lines.h:

src/lib/stage/stage.h:

src/lib/util/xalloc.h:
