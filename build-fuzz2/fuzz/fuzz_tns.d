build-fuzz2/fuzz/fuzz_tns: tests/fuzz/fuzz_tns.c tests/fuzz/fuzz.h \
  src/lib/tensorsuite.h src/lib/tsnum.h

tests/fuzz/fuzz.h:

src/lib/tensorsuite.h:

src/lib/tsnum.h:
