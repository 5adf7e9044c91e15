build-fuzz2/lib/util/progress.o: src/lib/util/progress.c \
  src/lib/util/progress.h

src/lib/util/progress.h:
