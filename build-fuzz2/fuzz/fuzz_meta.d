build-fuzz2/fuzz/fuzz_meta: tests/fuzz/fuzz_meta.c tests/fuzz/fuzz.h \
  src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
