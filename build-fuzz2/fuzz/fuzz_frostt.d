build-fuzz2/fuzz/fuzz_frostt: tests/fuzz/fuzz_frostt.c tests/fuzz/fuzz.h \
  src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
