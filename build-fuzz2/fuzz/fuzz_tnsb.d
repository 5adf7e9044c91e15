build-fuzz2/fuzz/fuzz_tnsb: tests/fuzz/fuzz_tnsb.c tests/fuzz/fuzz.h \
  src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
