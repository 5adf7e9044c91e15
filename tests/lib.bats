#!/usr/bin/env bats
# libtensorsuite(3): what `make install` puts in place, and programs built
# on the installed library the way the man page says, with pkg-config:
# the example program share/examples/ts-summary.c, a C++ program (the
# header's extern "C"), and the page's own EXAMPLES, its commands and its
# C fragment.
#
# The library installed is the one the other suites test: BUILD is the
# parent of $TS_BIN.  setup_file installs it once into a temporary root,
# which PKG_CONFIG_SYSROOT_DIR and PKG_CONFIG_PATH point pkg-config at.
# Under `make check SANITIZE=1` (TS_SANITIZE=1, set by tests/run.sh) the
# library is built with -fsanitize=address,undefined, and so must be every
# program linked with it: $CC and $CXX carry the flag, and the man page's
# example compiles with ${CC:-cc}.

bats_require_minimum_version 1.5.0

# build_dir: BUILD for make, relative to the top of the tree as `make
# check` gives it, so that make finds the objects it made and their
# dependency files.
build_dir() {
	local b=${TS_BIN%/bin}
	case $b in
	"$TS_TOP"/*) b=${b#"$TS_TOP"/} ;;
	esac
	echo "$b"
}

# install_into ROOT: make install DESTDIR=ROOT, quietly.
install_into() {
	make -s -C "$TS_TOP" install DESTDIR="$1" BUILD="$(build_dir)"
}

# prefix_in ROOT: the prefix the library was installed under in ROOT
# (PREFIX of config.mk, /usr/local unless make was told otherwise), found
# by its tensorsuite.pc.
prefix_in() {
	local pc
	pc=$(cd "$1" && find . -path '*/lib/pkgconfig/tensorsuite.pc')
	pc=${pc#.}
	echo "${pc%/lib/pkgconfig/tensorsuite.pc}"
}

setup_file() {
	load test_helper
	export ROOT="$BATS_FILE_TMPDIR/root"
	install_into "$ROOT" >/dev/null
	PFX=$(prefix_in "$ROOT")
	export PFX
	sysroot_deps "$ROOT"
}

setup() {
	load test_helper
	export PKG_CONFIG_SYSROOT_DIR="$ROOT"
	export PKG_CONFIG_PATH="$ROOT$PFX/lib/pkgconfig"
	unset PKG_CONFIG_LIBDIR
	CC=${CC:-cc}
	CXX=${CXX:-g++}
	if [ "${TS_SANITIZE:-0}" = 1 ]; then
		CC="$CC -fsanitize=address,undefined"
		CXX="$CXX -fsanitize=address,undefined"
	fi
	export CC CXX
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "no folder of the library, the front end or a tool includes from or calls into one above it" {
	# The order is the 'Layers:' line of src/lib/README, then the front
	# end's floors (stats, its base, the engine) and the tools; the
	# objects are those of the library this suite tests.
	run "$TS_TOP/tests/layers.py" "$TS_TOP" "${TS_BIN%/bin}"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# The front end's base does not depend on the engine (issue 31).
	mkdir -p t
	cp -R "$TS_TOP/src" t/
	sed -i 's|^#include "tensorsuite.h"$|&\n#include "job/job.h"|' t/src/fe/fe.h
	run "$TS_TOP/tests/layers.py" t
	assert_failure 1
	assert_output --regexp 'src/fe/fe.h:[0-9]+: the fe floor includes "job/job.h", of the job floor above it'
}

@test "libtensorsuite(3) documents every function of the installed headers, and no other" {
	run "$TS_TOP/tests/man-functions.py" "$TS_TOP"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the installed header holds no tool glue: no exit statuses, umask, option or tool's form" {
	local h="$TS_TOP/src/lib/tensorsuite.h"
	run grep -n -e 'TS_EXIT_' -e 'ts_umask' -e 'ts_cutensor_json' \
	    -e 'ts_genvalues' -e 'TS_GEN_' -e '--[a-z]' "$h"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
}

@test "make install DESTDIR=... puts the library, both headers, tensorsuite.pc and libtensorsuite.3 in place" {
	local r=$BATS_TEST_TMPDIR/root
	run install_into "$r"
	assert_success
	[ "$(prefix_in "$r")" = "$PFX" ]
	[ -n "$PFX" ]
	cmp "$TS_TOP/src/lib/tensorsuite.h" "$r$PFX/include/tensorsuite.h"
	cmp "$TS_TOP/src/lib/tsnum.h" "$r$PFX/include/tsnum.h"
	cmp "$TS_TOP/man/libtensorsuite.3" \
	    "$r$PFX/share/man/man3/libtensorsuite.3"
	[ -f "$r$PFX/lib/libtensorsuite.a" ]
	[ -f "$r$PFX/lib/pkgconfig/tensorsuite.pc" ]
	# The .pc file describes this tree.
	PKG_CONFIG_SYSROOT_DIR=$r PKG_CONFIG_PATH=$r$PFX/lib/pkgconfig \
	    run pkg-config --modversion tensorsuite
	assert_success
	assert_output "$(sed -n 's/^VERSION *= *//p' "$TS_TOP/config.mk")"
	PKG_CONFIG_SYSROOT_DIR=$r PKG_CONFIG_PATH=$r$PFX/lib/pkgconfig \
	    run pkg-config --cflags --libs tensorsuite
	assert_success
	assert_output --partial "-I$r$PFX/include"
	assert_output --partial "-L$r$PFX/lib -ltensorsuite"
}

@test "make uninstall DESTDIR=... removes the library, the headers, tensorsuite.pc and libtensorsuite.3" {
	local r=$BATS_TEST_TMPDIR/root f
	install_into "$r" >/dev/null
	run make -s -C "$TS_TOP" uninstall DESTDIR="$r" BUILD="$(build_dir)"
	assert_success
	for f in lib/libtensorsuite.a include/tensorsuite.h include/tsnum.h \
	    lib/pkgconfig/tensorsuite.pc share/man/man3/libtensorsuite.3; do
		if [ -e "$r$PFX/$f" ]; then
			echo "$f is still there"
			return 1
		fi
	done
}

@test "ts-summary builds against the installed tree with pkg-config and runs on every example bundle" {
	local b m want n=0
	# Only the installed header can be found: no -I into the sources.
	run pkg-config --cflags tensorsuite
	assert_output --partial "-I$ROOT$PFX/include"
	refute_output --partial "$TS_TOP"
	run $CC -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o ts-summary \
	    "$SHARE/examples/ts-summary.c" $(pkg-config --libs tensorsuite)
	assert_success
	assert_output ""
	for b in "$SHARE"/example-*/; do
		b=${b%/}
		m="$b/${b##*/}_metadata.json"
		# The entries of a block-sparse bundle are its blocks.
		want=$(jq -r '"order \(.order)",
		    "dimensions \(.dimensions | map(tostring) | join(" "))",
		    "nnz \(.nnz_block // .nnz)"' "$m")
		run ./ts-summary "$b"
		assert_success
		if [ "$(printf '%s\n' "$output" | head -n 3)" != "$want" ]; then
			printf '%s: wanted\n%s\ngot\n%s\n' "$b" "$want" "$output"
			return 1
		fi
		assert_line --index 3 --regexp '^values -?[0-9.e+-]+ \.\. -?[0-9.e+-]+$'
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
}

@test "ts-summary, the reading loop of the page, is stopped at a coordinate out of range, located (issue 30, point 9)" {
	local t
	$CC -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o ts-summary \
	    "$SHARE/examples/ts-summary.c" $(pkg-config --libs tensorsuite)
	t=$(mkbundle "$SHARE/example-element" t)
	# Coordinate 9 in mode 2, of dimension 4 (line 6 of t.tns).
	sed -i '6s/^\([0-9]*\) [0-9]*/\1 9/' "$t/t.tns"
	rm "$t/t.tnsb"
	jq --indent 2 '.endianness = "none" | del(.files.binary)' \
	    "$t/t_metadata.json" >m && mv m "$t/t_metadata.json"
	run ./ts-summary "$t"
	assert_failure 1
	assert_output --regexp "t/t\.tns:6:[0-9]+: error: coordinate 9 exceeds dimension [0-9]+ of mode 2 \[S1\]"
	refute_output --partial "nnz"
}

@test "ts-summary reads a data file, a compressed one, an archive and a pipe as it reads the bundle, with no stat() of its own" {
	local b="$SHARE/example-element" want
	# What a path is, the library tells (ts_input_open).
	run grep -n 'stat *(' "$SHARE/examples/ts-summary.c"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	$CC -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o ts-summary \
	    "$SHARE/examples/ts-summary.c" $(pkg-config --libs tensorsuite)
	want=$(./ts-summary "$b")
	gzip -c "$b/example-element.tns" >e.tns.gz
	tar -cf e.tar -C "$SHARE" example-element
	for f in "$b/example-element.tns" e.tns.gz e.tar \
	    "$b/example-element_metadata.json"; do
		# (GNU tar's archive gets a note: no manifest to check.)
		run --separate-stderr ./ts-summary "$f"
		assert_success
		[ "$output" = "$want" ] || { echo "$f: $output"; false; }
	done
	run --separate-stderr sh -c './ts-summary - <e.tar'
	assert_success
	[ "$output" = "$want" ]
}

@test "ts-summary checks an archive's members against its SHA256SUMS (ts_input_finish): a changed digit is an error, no manifest a note" {
	local b="$SHARE/example-element" want st
	$CC -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o ts-summary \
	    "$SHARE/examples/ts-summary.c" $(pkg-config --libs tensorsuite)
	want=$(./ts-summary "$b")
	"$TS_BIN/ts-pack" -q -o good.tar.zst "$b"
	run ./ts-summary good.tar.zst
	assert_success
	[ "$output" = "$want" ] || { echo "$output"; false; }
	# The same archive with one digit of the data changed after its
	# manifest was made (GNU tar, zstd with its checksum).
	st=$(mktemp -d "$BATS_TEST_TMPDIR/st.XXXXXX")
	tar -C "$st" -xf good.tar.zst
	sed -i '5s/[0-8]\([^0-9]*\)$/9\1/' "$st/example-element/example-element.tns"
	(cd "$st" && tar --owner=0 --group=0 -cf - example-element \
	    SHA256SUMS) | zstd -q --check >bad.tar.zst
	run ./ts-summary bad.tar.zst
	assert_failure 1
	assert_output --partial "bad.tar.zst:example-element/example-element.tns: error: SHA-256 differs from SHA256SUMS [A1]"
	# Without a manifest: read, with a note.
	tar -C "$SHARE" -cf - example-element | zstd -q >plain.tar.zst
	run --separate-stderr ./ts-summary plain.tar.zst
	assert_success
	[ "$output" = "$want" ] || { echo "$output"; false; }
	[[ $stderr == *"plain.tar.zst: note: it holds no SHA256SUMS manifest: its members could not be verified [A1]"* ]] ||
	    { echo "$stderr"; false; }
}

@test "the public header compiles as C++" {
	cat >prog.cc <<'EOF'
#include <cstdio>
#include <cstring>

#include <tensorsuite.h>

int
main()
{
	struct ts_diags *d = ts_diags_new(0, false);
	const char *s = "0.1 ", *end = s + std::strlen(s);
	char buf[TS_NUMBUF];
	double v;
	uint64_t r;

	ts_diag(d, TS_SEV_ERROR, "x.tns", 3, 1, TS_RULE_E1, "bad %s", "row");
	if (ts_diags_errors(d) != 1 || ts_diags_status(d) != TS_STATUS_DATA ||
	    ts_parse_double(s, end, &v) != s + 3 ||
	    ts_fmt_double(buf, v) != 3 || !ts_valid_name("example") ||
	    ts_mul_u64(UINT64_MAX, 2, &r))
		return 1;
	std::printf("%s %s %s\n", TS_VERSION, buf, ts_vtype_name(TS_VTYPE_INT32));
	ts_diags_print(d, stdout, "prog");
	ts_diags_free(d);
	return 0;
}
EOF
	run $CXX -std=c++11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o prog prog.cc \
	    $(pkg-config --libs tensorsuite)
	assert_success
	assert_output ""
	run ./prog
	assert_success
	assert_line --index 0 "$(sed -n 's/^VERSION *= *//p' "$TS_TOP/config.mk") 0.1 int32"
	assert_line --index 1 "x.tns:3:1: error: bad row [E1]"
}

@test "the EXAMPLES of libtensorsuite(3) run and print what they show" {
	# The commands run from the top of a source tree; here, a tree of
	# links to the one data the examples read.
	ln -s "$TS_TOP/share" share
	ln -s "$TS_TOP/tests" tests
	run /usr/bin/python3 "$TS_TOP/tests/man-examples.py" \
	    "$TS_TOP/man/libtensorsuite.3"
	assert_success
	assert_output ""
	[ -x ts-summary ]
}

# The C fragment of the EXAMPLES, copy_entries(), as the page shows it,
# driven by a main() that takes the layouts from a bundle's metadata:
# text becomes binary and binary text, as ts-convert writes them.
@test "the conversion loop of libtensorsuite(3) compiles and writes what ts-convert writes" {
	local b n ext
	awk '/^\.Sh / { ex = $2 == "EXAMPLES" }
	    ex && /^\.Bd/ { d = 1; buf = ""; next }
	    ex && /^\.Ed/ { if (buf ~ /copy_entries\(/) printf "%s", buf; d = 0 }
	    d { buf = buf $0 "\n" }' "$TS_TOP/man/libtensorsuite.3" |
	    sed -e 's/\\e/\\/g' -e 's/\\&//g' >copy_entries.c
	grep -q '^copy_entries(' copy_entries.c
	cat >main.c <<'EOF'
/* copy BUNDLE OUT: the bundle's data file, text if it has one, to OUT of
 * the other kind, by copy_entries(); the layouts come from the metadata. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <tensorsuite.h>

int	 copy_entries(struct ts_source *, const struct ts_layout *,
	    struct ts_sink *, const struct ts_layout *, struct ts_diags *);

int
main(int argc, char *argv[])
{
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_bundle *bd;
	struct ts_source *src = NULL;
	struct ts_sink *k;
	const struct ts_meta *m;
	struct ts_layout in, out;
	const char *f;
	int rv = 1;

	if (argc != 3)
		return 2;
	if ((bd = ts_bundle_open(argv[1], d)) == NULL ||
	    (m = ts_bundle_meta(bd)) == NULL)
		goto done;
	in.kind = TS_KIND_TEXT;
	if ((f = ts_bundle_data_file(bd, TS_KIND_TEXT)) == NULL) {
		in.kind = TS_KIND_BINARY;
		f = ts_bundle_data_file(bd, TS_KIND_BINARY);
	}
	in.block = m->sparsity == TS_SPARSITY_BLOCK;
	in.values = m->values_provided;
	in.vtype = m->value_type;
	in.itype = m->index_type;
	in.endian = m->endianness == TS_ENDIAN_BIG ? TS_ENDIAN_BIG :
	    TS_ENDIAN_LITTLE;
	in.base = m->index_base;
	out = in;
	out.kind = in.kind == TS_KIND_TEXT ? TS_KIND_BINARY : TS_KIND_TEXT;
	/* A data file without its metadata beside it is 1-based (P1). */
	out.base = 1;
	if (f == NULL || (src = ts_bundle_open_file(bd, f)) == NULL) {
		ts_diag_io(d, argv[1], "no data file");
		goto done;
	}
	if ((k = ts_sink_open(argv[2], 0)) == NULL) {
		ts_diag_io(d, argv[2], "%s", strerror(errno));
		goto done;
	}
	if (copy_entries(src, &in, k, &out, d) != 0)
		ts_sink_abort(k);
	else if (ts_sink_commit(k) != 0)
		ts_diag_io(d, argv[2], "%s", strerror(errno));
	else
		rv = 0;
done:
	ts_diags_print(d, stderr, "copy");
	if (rv != 0 && ts_diags_status(d) != TS_STATUS_OK)
		rv = ts_diags_status(d);
	ts_source_close(src);
	ts_bundle_free(bd);
	ts_diags_free(d);
	return rv;
}
EOF
	run $CC -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o copy copy_entries.c main.c \
	    $(pkg-config --libs tensorsuite)
	assert_success
	assert_output ""
	mkdir out ref
	for b in "$SHARE"/example-*/; do
		b=${b%/}
		n=${b##*/}
		ext=tns
		[ -f "$b/$n.tns" ] && ext=tnsb
		run ./copy "$b" "out/$n.$ext"
		assert_success
		run ts-convert "$b" -o "ref/$n.$ext"
		assert_success
		cmp "out/$n.$ext" "ref/$n.$ext"
	done
	# A malformed row is reported and skipped: the copy fails and
	# leaves nothing behind.
	mkbundle "$SHARE/example-element" t >/dev/null
	sed -i '6s/^1 3 2/1 x 2/' t/t.tns
	run ./copy t out/t.tnsb
	assert_failure 1
	assert_output --partial "t/t.tns:6:3: error:"
	[ ! -e out/t.tnsb ]
	[ -z "$(find out -name '.t*')" ]
}
