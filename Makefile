# TensorSuite toolkit.  See README.md; configuration lives in config.mk.

include config.mk

TOOLS   = ts-convert ts-gen ts-gen-values ts-pack ts-sort ts-stat ts-validate
# The library is every .c file below src/lib, one folder a role, in the
# order src/lib/README declares (num util io model archive format stage
# sort validate; tests/layers.py checks it); the tools' own static
# library, not installed, is src/fe: the front end, the tools' engine
# (fe/job), the statistics (fe/stats) and the generated values
# (fe/values).
LIBSRC  = $(sort $(wildcard src/lib/*/*.c src/lib/*/*/*.c))
FESRC   = $(sort $(wildcard src/fe/*.c src/fe/*/*.c))
UNITS   = test_num test_lib test_mtx test_npy test_sort test_gen test_util test_stats \
          test_cleanup

LIBOBJ  = $(LIBSRC:src/lib/%.c=$(BUILD)/lib/%.o)
FEOBJ   = $(FESRC:src/fe/%.c=$(BUILD)/fe/%.o)
LIB     = $(BUILD)/libtensorsuite.a
DISTLIB = $(BUILD)/dist/libtensorsuite.a
FELIB   = $(BUILD)/libtsfe.a
BINS    = $(TOOLS:%=$(BUILD)/bin/%)
UNITBIN = $(UNITS:%=$(BUILD)/tests/%)

DEP_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPLIBS) $(DLLIBS) 2>/dev/null)
DEP_LIBS   := $(shell $(PKG_CONFIG) --libs $(DEPLIBS) 2>/dev/null || \
              echo -ljansson -lzstd -lz)
SONAME      = $(shell PKG_CONFIG=$(PKG_CONFIG) CC=$(CC) scripts/soname.sh $(1))
HDF5_SONAME := $(call SONAME,hdf5)
LIBARCHIVE_SONAME := $(call SONAME,libarchive)
LIBCRYPTO_SONAME := $(call SONAME,libcrypto)
ALL_CFLAGS  = $(WARN) $(CFLAGS) $(CPPFLAGS) $(DEP_CFLAGS) -Isrc/lib -Isrc/fe -MMD -MP

.PHONY: all check check-unit check-bats demo deps bench lint install \
        uninstall clean fuzz fuzz-build check-valgrind FORCE

all: $(BINS) $(LIB) $(DISTLIB) $(BUILD)/tensorsuite.pc

$(BUILD)/lib/%.o: src/lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/lib/format/h5lib.o: CPPFLAGS += -DTS_HDF5_SONAME='"$(HDF5_SONAME)"'
$(BUILD)/lib/util/lalib.o: CPPFLAGS += -DTS_LIBARCHIVE_SONAME='"$(LIBARCHIVE_SONAME)"'
$(BUILD)/lib/util/sha256.o: CPPFLAGS += -DTS_LIBCRYPTO_SONAME='"$(LIBCRYPTO_SONAME)"'

$(LIB): $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

# The library installed: its objects linked into one, every symbol made
# local but the functions the installed headers declare, so a program
# that links it sees the API of libtensorsuite(3) and nothing else
# (tests/install.bats checks nm -g).  The tools link $(LIB), the whole
# library, as zstd's programs/ do lib/'s internals.
$(BUILD)/api.syms: src/lib/tensorsuite.h src/lib/tsnum.h scripts/api-symbols.py
	scripts/api-symbols.py src/lib >$@.tmp && mv $@.tmp $@

$(DISTLIB): $(LIBOBJ) $(BUILD)/api.syms
	@mkdir -p $(@D)
	@rm -f $@ $(@D)/tensorsuite.o
	$(LD) -r -o $(@D)/tensorsuite.o $(LIBOBJ)
	$(OBJCOPY) --keep-global-symbols=$(BUILD)/api.syms $(@D)/tensorsuite.o
	$(AR) rcs $@ $(@D)/tensorsuite.o

$(BUILD)/fe/%.o: src/fe/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(FELIB): $(FEOBJ)
	@rm -f $@
	$(AR) rcs $@ $(FEOBJ)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# ts-stat draws its pictures with libpng, which only it links.
PNG_CFLAGS    := $(shell $(PKG_CONFIG) --cflags libpng 2>/dev/null)
ts-stat_LIBS  := $(shell $(PKG_CONFIG) --libs libpng 2>/dev/null || echo -lpng)
$(BUILD)/obj/ts-stat/%.o: ALL_CFLAGS += $(PNG_CFLAGS)
# ts-gen reads the reference generators' YAML configurations with
# libyaml, which only it links.
YAML_CFLAGS   := $(shell $(PKG_CONFIG) --cflags yaml-0.1 2>/dev/null)
ts-gen_LIBS   := $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null || echo -lyaml)
$(BUILD)/obj/ts-gen/%.o: ALL_CFLAGS += $(YAML_CFLAGS)

# A tool is every .c file in its folder, linked with the library.
TOOLOBJ = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(wildcard src/$(1)/*.c))
define tool_rule
$(BUILD)/bin/$(1): $(call TOOLOBJ,$(1)) $(FELIB) $(LIB)
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS) -o $$@ $(call TOOLOBJ,$(1)) $$(FELIB) $$(LIB) $$($(1)_LIBS) $$(DEP_LIBS) $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

$(BUILD)/tests/%: tests/unit/%.c tests/unit/tap.h $(FELIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(FELIB) $(LIB) $(DEP_LIBS) $(LDLIBS)

# The install paths, as the sed script that writes them into the files
# installed: tensorsuite.pc's @VARIABLES@, and in the FILES of the man
# pages the default /usr/local paths they show (one substitution a line).
# The script is rewritten only when a path changes, so that `make
# PREFIX=/usr` after `make` remakes those files, and only then.
$(BUILD)/paths.sed: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' 's|@PREFIX@|$(PREFIX)|' 's|@LIBDIR@|$(LIBDIR)|' \
	    's|@INCDIR@|$(INCDIR)|' 's|@VERSION@|$(VERSION)|' \
	    's|^\(\.It Pa \)/usr/local/include/|\1$(INCDIR)/|;t' \
	    's|^\(\.It Pa \)/usr/local/lib/pkgconfig/|\1$(PCDIR)/|;t' \
	    's|^\(\.It Pa \)/usr/local/lib/|\1$(LIBDIR)/|;t' \
	    's|^\(\.It Pa \)/usr/local/share/tensorsuite/|\1$(DATADIR)/|;t' \
	    's|^\(\.It Pa \)/usr/local/share/doc/tensorsuite/|\1$(DOCDIR)/|;t' \
	    >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/tensorsuite.pc: tensorsuite.pc.in $(BUILD)/paths.sed
	sed -f $(BUILD)/paths.sed tensorsuite.pc.in >$@

$(BUILD)/man/%: man/% $(BUILD)/paths.sed
	@mkdir -p $(@D)
	sed -f $(BUILD)/paths.sed $< >$@

# Set up (packages), build, and run every test; ends with "N passed, N failed".
check: deps
	$(MAKE) all $(UNITBIN)
	$(MAKE) fuzz-build
	BUILD=$(BUILD) tests/run.sh $(BUILD)

# libFuzzer harnesses (tests/fuzz/fuzz_*.c) over the library built by
# clang with ASan, UBSan and the fuzzer's coverage, in build-fuzz.
# "make fuzz FUZZ_SECONDS=N" runs each for N seconds on its corpus;
# make check runs each for a few (tests/fuzz.bats).
FUZZ_BUILD   = build-fuzz
FUZZ_CC      = clang
FUZZ_SECONDS = 60
FUZZ_CFLAGS  = -O1 -g -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZERS = $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

fuzz-build:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SANITIZE= \
	    CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
	    LDFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer" \
	    $(FUZZERS:%=$(FUZZ_BUILD)/fuzz/%)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(DEP_LIBS) $(LDLIBS)

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZERS)

# The conversions of the bats suites with the tools under valgrind, which
# sees the reads of uninitialised memory that ASan does not (slow: not in
# check).  VALGRIND_SUITES picks the suites (tests/NAME.bats).
VALGRIND_SUITES = ts-convert ts-sort hostile
check-valgrind: deps
	$(MAKE) all
	tests/valgrind.sh $(BUILD) $(VALGRIND_SUITES)

deps:
	@scripts/deps.sh

demo: deps
	$(MAKE) all
	@echo '$$ ts-validate share/example-*'
	@$(BUILD)/bin/ts-validate share/example-*
	@echo '$$ ts-pack -f -o $(BUILD)/examples.tar.zst share/example-*'
	@$(BUILD)/bin/ts-pack -q -f -o $(BUILD)/examples.tar.zst share/example-*
	@echo '$$ ts-validate $(BUILD)/examples.tar.zst'
	@$(BUILD)/bin/ts-validate $(BUILD)/examples.tar.zst
	@echo '$$ ts-gen-values --expand share/example-block -o - | head -n 6'
	@$(BUILD)/bin/ts-gen-values --expand share/example-block -o - | head -n 6
	@echo '$$ ts-gen --model kronecker --levels 9 --nnz 20000 --duplicates unique --input-base 0 tests/data/syntensorgen/seeds/tiny_2d_seed.tns -f -o $(BUILD)/demo-kron'
	@$(BUILD)/bin/ts-gen -q --model kronecker --levels 9 --nnz 20000 \
	    --duplicates unique --input-base 0 \
	    tests/data/syntensorgen/seeds/tiny_2d_seed.tns -f -o $(BUILD)/demo-kron
	@echo '$$ ts-stat --fit --plot=$(BUILD)/demo-pictures -f $(BUILD)/demo-kron'
	@$(BUILD)/bin/ts-stat -q --fit --plot=$(BUILD)/demo-pictures -f $(BUILD)/demo-kron

bench: deps
	@scripts/deps.sh --bench
	$(MAKE) all
	scripts/bench.sh $(BUILD)

lint:
	mandoc -T lint -W warning man/*.[0-9]
	tests/lint.sh
	tests/layers.py .
	tests/rules-check.py .

# Every file install writes (below $(DESTDIR)): uninstall removes these
# and nothing else, then those of the suite's own directories that are
# left empty; bin/, share/man/man1/ and the like are shared with other
# packages and stay.
INSTALLED = $(TOOLS:%=$(BINDIR)/%) $(LIBDIR)/libtensorsuite.a \
	$(INCDIR)/tensorsuite.h $(INCDIR)/tsnum.h $(PCDIR)/tensorsuite.pc \
	$(TOOLS:%=$(MANDIR)/man1/%.1) $(MANDIR)/man3/libtensorsuite.3 \
	$(MANDIR)/man5/tensorsuite.5 \
	$(DATADIR)/tensorsuite-metadata.schema.json \
	$(DOCDIR)/examples/ts-summary.c \
	$(TOOLS:%=$(BASHCOMPDIR)/%) $(TOOLS:%=$(ZSHCOMPDIR)/_%) \
	$(TOOLS:%=$(FISHCOMPDIR)/%.fish)
INSTALLDIRS = $(BINDIR) $(LIBDIR) $(INCDIR) $(PCDIR) $(MANDIR)/man1 \
	$(MANDIR)/man3 $(MANDIR)/man5 $(DATADIR) $(DOCDIR)/examples \
	$(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
OWNDIRS = $(DOCDIR)/examples $(DOCDIR) $(DATADIR)

install: all $(BUILD)/man/libtensorsuite.3 $(BUILD)/man/tensorsuite.5
	install -d $(INSTALLDIRS:%=$(DESTDIR)%)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(DISTLIB) $(DESTDIR)$(LIBDIR)
	install -m 644 src/lib/tensorsuite.h src/lib/tsnum.h $(DESTDIR)$(INCDIR)
	install -m 644 $(BUILD)/tensorsuite.pc $(DESTDIR)$(PCDIR)
	install -m 644 $(TOOLS:%=man/%.1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(BUILD)/man/libtensorsuite.3 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(BUILD)/man/tensorsuite.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 share/tensorsuite-metadata.schema.json $(DESTDIR)$(DATADIR)
	install -m 644 share/examples/ts-summary.c $(DESTDIR)$(DOCDIR)/examples
	for t in $(TOOLS); do \
	    install -m 644 completions/bash/$$t $(DESTDIR)$(BASHCOMPDIR)/$$t; \
	    install -m 644 completions/zsh/_$$t $(DESTDIR)$(ZSHCOMPDIR)/_$$t; \
	    install -m 644 completions/fish/$$t.fish $(DESTDIR)$(FISHCOMPDIR)/$$t.fish; \
	done

uninstall:
	rm -f $(INSTALLED:%=$(DESTDIR)%)
	for d in $(OWNDIRS:%=$(DESTDIR)%); do \
	    if [ -d "$$d" ] && [ -z "$$(ls -A "$$d")" ]; then rmdir "$$d"; fi; \
	done

clean:
	rm -rf build build-san $(FUZZ_BUILD)

# The headers each object and each unit test was built from (-MMD).
-include $(LIBOBJ:.o=.d) $(FEOBJ:.o=.d) $(patsubst %.o,%.d,$(foreach t,$(TOOLS),$(call TOOLOBJ,$(t)))) \
    $(UNITBIN:=.d)
