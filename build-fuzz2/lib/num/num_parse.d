build-fuzz2/lib/num/num_parse.o: src/lib/num/num_parse.c src/lib/tsnum.h \
  src/lib/num/num_bits.h src/lib/num/digits.h

src/lib/tsnum.h:

src/lib/num/num_bits.h:

src/lib/num/digits.h:
