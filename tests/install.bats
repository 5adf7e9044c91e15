#!/usr/bin/env bats
# make install and make uninstall as a distribution packager runs them:
# staged (DESTDIR) under PREFIX=/usr, with the directories moved where a
# distribution wants them (DATADIR, ZSHCOMPDIR), into a tree that already
# holds other packages' files.  What is installed names the paths it was
# installed under, whatever the build said before; what uninstall removes
# is exactly what install wrote.
#
# The tools and the library installed are the ones the other suites test:
# BUILD is the parent of $TS_BIN, as in lib.bats.

bats_require_minimum_version 1.5.0

load test_helper

# build_dir: BUILD for make, relative to the top of the tree as `make
# check` gives it.
build_dir() {
	local b=${TS_BIN%/bin}
	case $b in
	"$TS_TOP"/*) b=${b#"$TS_TOP"/} ;;
	esac
	echo "$b"
}

# mk TARGET VAR=VALUE...: make TARGET quietly in the top of the tree.
mk() {
	make -s -C "$TS_TOP" BUILD="$(build_dir)" "$@"
}

# The variables of the Debian install README.md shows, but DESTDIR.
read -r -a DEBIAN < <(sed -n 's/^    make install DESTDIR="[^"]*" //p' \
    "$TS_TOP/README.md")

# tree ROOT: every file and directory below ROOT with the checksum of
# each file, sorted; what a test compares before and after.
tree() {
	(cd "$1" && find . -mindepth 1 \( -type d -printf 'd %p\n' \) -o \
	    \( -type f -printf 'f %p ' -exec md5sum {} \; \) | \
	    sed 's/ \([0-9a-f]*\)  .*$/ \1/' | sort)
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

@test "make install DESTDIR=... PREFIX=/usr: tensorsuite.pc says /usr, and ts-summary from the installed examples builds against the stage and runs" {
	local s=$BATS_TEST_TMPDIR/stage
	assert_equal "${DEBIAN[*]}" \
	    "PREFIX=/usr ZSHCOMPDIR=/usr/share/zsh/vendor-completions"
	# A build made for /usr/local first, as `make && make install
	# PREFIX=/usr` does.
	mk install DESTDIR="$BATS_TEST_TMPDIR/first" >/dev/null
	run mk install DESTDIR="$s" "${DEBIAN[@]}"
	assert_success
	[ -f "$s/usr/lib/pkgconfig/tensorsuite.pc" ]
	run grep '^prefix=' "$s/usr/lib/pkgconfig/tensorsuite.pc"
	assert_output "prefix=/usr"
	[ -f "$s/usr/share/zsh/vendor-completions/_ts-sort" ]
	[ -f "$s/usr/share/doc/tensorsuite/examples/ts-summary.c" ]
	sysroot_deps "$s"
	export PKG_CONFIG_SYSROOT_DIR=$s
	export PKG_CONFIG_PATH=$s/usr/lib/pkgconfig
	unset PKG_CONFIG_LIBDIR
	local cc=${CC:-cc}
	[ "${TS_SANITIZE:-0}" = 1 ] && cc="$cc -fsanitize=address,undefined"
	run $cc -std=c11 -Wall -Wextra -pedantic -Werror \
	    $(pkg-config --cflags tensorsuite) -o ts-summary \
	    "$s/usr/share/doc/tensorsuite/examples/ts-summary.c" \
	    $(pkg-config --libs tensorsuite)
	assert_success
	assert_output ""
	run ./ts-summary "$SHARE/example-element"
	assert_success
	assert_line --index 0 "order 3"
	# What the installed library defines for a program to see is the
	# functions of libtensorsuite(3) and nothing else: a program may
	# name its own function as an internal one of the library is named.
	run diff <(nm -g --defined-only "$s/usr/lib/libtensorsuite.a" | \
	    awk 'NF == 3 { print $3 }' | sort) \
	    <(sed -n 's/^\.F[no] \(ts_[a-z0-9_]*\).*/\1/p' \
	    "$TS_TOP/man/libtensorsuite.3" | sort -u)
	assert_success
	printf '#include <tensorsuite.h>\nvoid *ts_xcalloc(size_t, size_t);\n%s\n%s\n%s\n' \
	    'void *ts_xcalloc(size_t n, size_t m) { (void)n; (void)m; return 0; }' \
	    'int main(void) { struct ts_diags *d = ts_diags_new(1, 0);' \
	    'ts_diags_free(d); return d == 0 || ts_xcalloc(1, 1) != 0; }' \
	    >own.c
	run $cc -std=c11 $(pkg-config --cflags tensorsuite) -o own own.c \
	    $(pkg-config --libs tensorsuite)
	assert_success
	./own
}

@test "make install PREFIX=/usr: no installed file names /usr/local, and libtensorsuite(3) and tensorsuite(5) name the paths installed" {
	local s=$BATS_TEST_TMPDIR/stage
	mk install DESTDIR="$BATS_TEST_TMPDIR/first" >/dev/null
	mk install DESTDIR="$s" PREFIX=/usr DATADIR=/usr/share/ts \
	    INCDIR=/usr/include/ts LIBDIR=/usr/lib/x86_64-linux-gnu \
	    DOCDIR=/usr/share/doc/libtensorsuite-dev >/dev/null
	run grep -rl /usr/local "$s"
	assert_output ""
	local p3=$s/usr/share/man/man3/libtensorsuite.3
	grep -qx '\.It Pa /usr/include/ts/tensorsuite\.h' "$p3"
	grep -qx '\.It Pa /usr/lib/x86_64-linux-gnu/libtensorsuite\.a' "$p3"
	grep -qx '\.It Pa /usr/lib/x86_64-linux-gnu/pkgconfig/tensorsuite\.pc' "$p3"
	grep -qx '\.It Pa /usr/share/ts/tensorsuite-metadata\.schema\.json' "$p3"
	grep -qx '\.It Pa /usr/share/doc/libtensorsuite-dev/examples/ts-summary\.c' "$p3"
	grep -qx '\.It Pa /usr/share/ts/tensorsuite-metadata\.schema\.json' \
	    "$s/usr/share/man/man5/tensorsuite.5"
	# Each of those paths is one that install wrote.
	for f in /usr/include/ts/tensorsuite.h /usr/include/ts/tsnum.h \
	    /usr/lib/x86_64-linux-gnu/libtensorsuite.a \
	    /usr/lib/x86_64-linux-gnu/pkgconfig/tensorsuite.pc \
	    /usr/share/ts/tensorsuite-metadata.schema.json \
	    /usr/share/doc/libtensorsuite-dev/examples/ts-summary.c; do
		[ -f "$s$f" ] || { echo "$f not installed"; return 1; }
	done
	run grep -x 'includedir=/usr/include/ts' \
	    "$s/usr/lib/x86_64-linux-gnu/pkgconfig/tensorsuite.pc"
	assert_success
	# The default install says /usr/local, as the pages in man/ do.
	mk install DESTDIR="$BATS_TEST_TMPDIR/again" >/dev/null
	cmp "$TS_TOP/man/libtensorsuite.3" \
	    "$BATS_TEST_TMPDIR/again/usr/local/share/man/man3/libtensorsuite.3"
	cmp "$TS_TOP/man/tensorsuite.5" \
	    "$BATS_TEST_TMPDIR/again/usr/local/share/man/man5/tensorsuite.5"
}

@test "make PREFIX=/usr after make remakes tensorsuite.pc; the same PREFIX again leaves it be" {
	local b=$BATS_TEST_TMPDIR/b
	make -s -C "$TS_TOP" BUILD="$b" "$b/tensorsuite.pc"
	run grep '^prefix=' "$b/tensorsuite.pc"
	assert_output "prefix=/usr/local"
	make -s -C "$TS_TOP" BUILD="$b" PREFIX=/usr "$b/tensorsuite.pc"
	run grep '^prefix=' "$b/tensorsuite.pc"
	assert_output "prefix=/usr"
	run make --no-print-directory -C "$TS_TOP" BUILD="$b" PREFIX=/usr \
	    "$b/tensorsuite.pc"
	assert_success
	# Nothing remade: the recipe of tensorsuite.pc would show.
	assert_output ""
}

# The directories install writes to, each already holding a file of
# another package (and share/ holding other packages' directories):
# uninstall takes away what install wrote and nothing else, with
# DATADIR=/usr/share too, where uninstall once ran rm -rf on it.
@test "make uninstall removes exactly what make install wrote from a tree that holds other packages' files" {
	local a=$BATS_TEST_TMPDIR/probe r=$BATS_TEST_TMPDIR/root d before
	local vars=("${DEBIAN[@]}" DATADIR=/usr/share)
	mk install DESTDIR="$a" "${vars[@]}" >/dev/null
	mkdir -p "$r/usr/share/other" "$r/usr/share/doc/other"
	echo other >"$r/usr/share/other/file"
	(cd "$a" && find . -mindepth 1 -type d) | while read -r d; do
		mkdir -p "$r/$d"
		echo "not tensorsuite's" >"$r/$d/other-package-file"
	done
	before=$(tree "$r")
	run mk install DESTDIR="$r" "${vars[@]}"
	assert_success
	[ -x "$r/usr/bin/ts-sort" ]
	[ -f "$r/usr/share/tensorsuite-metadata.schema.json" ]
	run mk uninstall DESTDIR="$r" "${vars[@]}"
	assert_success
	assert_equal "$(tree "$r")" "$before"
}

@test "make uninstall after make install into an empty tree leaves no file, and none of the suite's own directories" {
	local r=$BATS_TEST_TMPDIR/root
	mk install DESTDIR="$r" "${DEBIAN[@]}" >/dev/null
	[ -n "$(find "$r" -type f)" ]
	run mk uninstall DESTDIR="$r" "${DEBIAN[@]}"
	assert_success
	run find "$r" -type f
	assert_output ""
	run find "$r" -name '*tensorsuite*'
	assert_output ""
	# Shared directories stay: another package may want them.
	[ -d "$r/usr/bin" ]
	# And uninstall of a tree with nothing installed is no error.
	run mk uninstall DESTDIR="$r" "${DEBIAN[@]}"
	assert_success
}
