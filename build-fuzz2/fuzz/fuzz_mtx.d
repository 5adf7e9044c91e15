build-fuzz2/fuzz/fuzz_mtx: tests/fuzz/fuzz_mtx.c tests/fuzz/fuzz.h \
  src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
