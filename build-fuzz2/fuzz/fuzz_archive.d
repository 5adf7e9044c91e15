build-fuzz2/fuzz/fuzz_archive: tests/fuzz/fuzz_archive.c \
  tests/fuzz/fuzz.h src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
