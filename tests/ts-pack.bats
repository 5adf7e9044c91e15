#!/usr/bin/env bats
# ts-pack(1): the command line, then the man page in its order: packing
# (layout, compression, reproducible bytes, validation first, the index,
# one archive per bundle), unpacking (hostile archives refused, caps,
# nothing left behind), listing; then the bundles of share/ and
# tests/data/reference/ through all of it, and ts-validate on archives.
#
# Each test runs in its own $BATS_TEST_TMPDIR, so that "nothing left
# behind" is `ls -A` of a directory there.  Hostile archives are built
# member by member with tests/mktar.py (python3's tarfile).  A larger
# bundle (big, 300000 entries, text and binary, about 12 MB) is made once
# per file (setup_file), so that zstd cuts it into several jobs.

bats_require_minimum_version 1.5.0

setup_file() {
	load test_helper
	export GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	awk 'BEGIN { srand(11); for (i = 0; i < 300000; i++)
	    printf "%d %d %d %.6f\n", 1 + int(rand() * 300),
	    1 + int(rand() * 200), 1 + int(rand() * 100), rand() + 0.5 }' |
	    sort -u -n -k1,1 -k2,2 -k3,3 >"$GEN/big.rows"
	ts-convert -q "$GEN/big.rows" -o "$GEN/big" --dims 300,200,100 \
	    --text --binary --time 2026-11-30
}

setup() {
	load test_helper
	EL=$SHARE/example-element
	BL=$SHARE/example-block
	BI=$SHARE/example-binary
	REF=$DATA/reference
	BIG=$GEN/big
	MKTAR="$TS_TOP/tests/mktar.py"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# members ARCHIVE: the member names, as GNU tar lists them.
members() {
	tar -tf "$1"
}

# hostile ARCHIVE-SPEC...: build an archive with mktar.py, then unpack
# it into a fresh directory u/ and expect a refusal naming the member
# given as $WANT, with nothing left in u/.
hostile() {
	rm -rf u && mkdir u
	/usr/bin/python3 "$MKTAR" h.tar "$@"
	run ts-pack -x h.tar -C u
	assert_failure 1
	assert_output --partial "member '$WANT' is refused"
	assert_equal "$(ls -A u)" ""
}

# =====================================================================
# The command line
# =====================================================================

@test "ts-pack: -h, --help, -V and --version print to stdout and exit 0" {
	run --separate-stderr ts-pack -h
	assert_success
	assert_line --index 0 --partial "usage: ts-pack"
	[ -z "$stderr" ]
	run -0 ts-pack --help
	assert_output --partial "--max-size SIZE"
	run -0 ts-pack -V
	assert_output "ts-pack (TensorSuite) 0.1.0"
	run -0 ts-pack --version
	assert_output "ts-pack (TensorSuite) 0.1.0"
}

@test "ts-pack: usage errors exit 2 and write nothing" {
	run ts-pack "$EL"
	assert_failure 2
	assert_output --partial "say what to do"
	run ts-pack -o a.tar.zst -t a.tar.zst "$EL"
	assert_failure 2
	assert_output --partial "exclude one another"
	run ts-pack -o a.tar.zst
	assert_failure 2
	assert_output --partial "no bundle given"
	run ts-pack -t x.tar.zst "$EL"
	assert_failure 2
	assert_output --partial "take no operand"
	run ts-pack -o a.zip "$EL"
	assert_failure 2
	assert_output --partial "name the archive .tar.zst, .tar.gz, .tar.xz or .tar"
	run ts-pack -o a.tar --level 3 "$EL"
	assert_failure 2
	assert_output --partial "a .tar is not compressed"
	run ts-pack -o a.tar.zst --level 25 "$EL"
	assert_failure 2
	run ts-pack -o a.tar.zst -j 0 "$EL"
	assert_failure 2
	assert_output --partial "-j: '0' is not a number from 1 to 256"
	run ts-pack -o a.tar.zst --check "$EL"
	assert_failure 2
	assert_output --partial "--check does not go with packing"
	run ts-pack -t a.tar.zst --index i.json
	assert_failure 2
	run ts-pack -x a.tar.zst --json
	assert_failure 2
	run ts-pack --bogus
	assert_failure 2
	assert_equal "$(ls -A)" ""
}

# =====================================================================
# Packing: layout
# =====================================================================

@test "ts-pack: -o - with --index - is a usage error (2): standard output is written only once" {
	run --separate-stderr ts-pack -o - --index - "$SHARE/example-element"
	assert_failure 2
	assert_equal "$output" ""
	[[ $stderr == *"'-' (standard output) is given twice; it can be written only once"* ]]
}

@test "ts-pack: each bundle is NAME/, its metadata first, README, text, binary, then the rest by name" {
	run -0 ts-pack -o a.tar.zst "$REF/random_tiny" "$EL"
	run -0 members a.tar.zst
	assert_output "example-element/
example-element/example-element_metadata.json
example-element/README.md
example-element/example-element.tns
example-element/example-element.tnsb
random_tiny/
random_tiny/random_tiny_metadata.json
random_tiny/README.md
random_tiny/random_tiny.tns
random_tiny/random_tiny.tnsb
random_tiny/config.yaml
SHA256SUMS"
}

@test "ts-pack: owner 0/0 with no names, modes 0644 and 0755, dated the metadata's time at midnight UTC" {
	run -0 ts-pack -o a.tar "$EL"
	run -0 env TZ=UTC tar --numeric-owner -tvf a.tar
	assert_line --index 0 --regexp '^drwxr-xr-x 0/0 +0 2026-12-01 00:00 example-element/$'
	assert_line --index 1 --regexp '^-rw-r--r-- 0/0 +811 2026-12-01 00:00 example-element/example-element_metadata.json$'
	run -0 tar -tvf a.tar
	refute_output --partial "root"
	# random_tiny says 2025-06-05.
	run -0 ts-pack -o b.tar "$REF/random_tiny"
	run -0 env TZ=UTC tar -tvf b.tar
	assert_line --index 1 --partial " 2025-06-05 00:00 random_tiny/random_tiny_metadata.json"
}

@test "ts-pack: the compression follows the name; GNU tar, zstd, gzip and xz read every kind" {
	local a
	for a in a.tar.zst a.tzst a.tar.gz a.tgz a.tar.xz a.txz a.tar; do
		run -0 ts-pack -o "$a" "$EL" "$BL"
		mkdir "x-$a"
		tar -xf "$a" -C "x-$a"
		diff -r "$EL" "x-$a/example-element"
		diff -r "$BL" "x-$a/example-block"
	done
	[ "$(head -c 4 a.tar.zst | od -An -tx1 | tr -d ' ')" = 28b52ffd ]
	zstd -t -q a.tar.zst
	[ "$(head -c 2 a.tar.gz | od -An -tx1 | tr -d ' ')" = 1f8b ]
	gzip -t a.tar.gz
	xz -t a.tar.xz
	zstd -dc a.tar.zst | cmp - a.tar
	gzip -dc a.tar.gz | cmp - a.tar
	xz -dc a.tar.xz | cmp - a.tar
	# Nothing after the tar stream: two zero blocks end it.
	[ "$(stat -c %s a.tar)" -eq $(( ($(stat -c %s a.tar) / 512) * 512 )) ]
}

# zcheck FILE: zstd lists FILE's frames with their content checksum.
zcheck() {
	zstd -lv "$1" | grep -q 'Check: XXH64' ||
	    { echo "# $1: $(zstd -lv "$1" 2>&1)" >&3; return 1; }
}

# flip FILE OFFSET: FILE with the byte at OFFSET inverted, into FILE.bad.
flip() {
	cp "$1" "$1.bad"
	printf "$(printf '\\%03o' $(( 0x$(od -An -tx1 -j "$2" -N1 "$1" |
	    tr -d ' ') ^ 0xff )))" |
	    dd of="$1.bad" bs=1 seek="$2" conv=notrunc status=none
}

@test "ts-pack: a .tar.zst carries zstd's content checksum, which finds a flipped byte" {
	ts-pack -o a.tar.zst "$EL"
	zcheck a.tar.zst
	mkdir e
	ts-pack --each e "$EL" "$BIG"
	zcheck e/example-element.tar.zst
	zcheck e/big.tar.zst
	ts-pack -o - "$EL" >s.tar.zst
	zcheck s.tar.zst
	# A byte in the middle of the compressed data of the frames.
	flip e/big.tar.zst $(( $(stat -c %s e/big.tar.zst) / 2 ))
	run zstd -t -q e/big.tar.zst.bad
	assert_failure
	flip a.tar.zst $(( $(stat -c %s a.tar.zst) / 2 ))
	run zstd -t -q a.tar.zst.bad
	assert_failure
}

# sums ARCHIVE FLAG: ARCHIVE unpacked by GNU tar FLAG (--zstd, -z, -J or
# none) ends with SHA256SUMS, which sha256sum -c passes, and which is
# sha256sum's own lines for every regular file, sorted by path.
sums() {
	rm -rf x && mkdir x
	[ "$(tar -tf "$1" | tail -1)" = SHA256SUMS ] ||
	    { echo "# $1: $(tar -tf "$1" | tail -1) last" >&3; return 1; }
	tar $2 -xf "$1" -C x
	(cd x && sha256sum --strict -c SHA256SUMS >/dev/null)
	(cd x && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
	    LC_ALL=C sort | xargs sha256sum) | diff -u - x/SHA256SUMS
}

@test "ts-pack: every archive ends with SHA256SUMS, which sha256sum -c checks once GNU tar unpacked it" {
	mkdir e
	ts-pack -o a.tar.zst "$EL" "$BL" "$BI" "$REF/random_tiny" "$BIG"
	ts-pack -o a.tar.gz "$EL" "$BL" "$BI" "$REF/random_tiny"
	ts-pack -o a.tar.xz "$EL" "$BL" "$BI" "$REF/random_tiny"
	ts-pack -o a.tar "$EL" "$BL" "$BI" "$REF/random_tiny"
	ts-pack --each e "$EL" "$REF/random_tiny"
	ts-pack -o - "$EL" "$BI" >s.tar.zst
	sums a.tar.zst --zstd
	sums a.tar.gz -z
	sums a.tar.xz -J
	sums a.tar ""
	sums e/example-element.tar.zst --zstd
	sums e/random_tiny.tar.zst --zstd
	sums s.tar.zst --zstd
	# Its header is as the others': 0/0, 0644, dated the newest bundle.
	run -0 env TZ=UTC tar --numeric-owner -tvf a.tar
	assert_line --regexp '^-rw-r--r-- 0/0 +[0-9]+ 2026-12-01 00:00 SHA256SUMS$'
}

@test "ts-pack: the manifest is no stray member: -t, --check, ts-validate and the tools read past it, -x writes it beside the bundles, merged" {
	ts-pack -o a.tar.zst "$EL" "$BL"
	ts-pack -o one.tar.zst "$EL"
	run -0 ts-pack -t a.tar.zst
	assert_equal "${#lines[@]}" 2
	refute_output --partial SHA256SUMS
	run -0 ts-pack -t a.tar.zst --check
	refute_output --partial SHA256SUMS
	run -0 ts-validate a.tar.zst
	assert_output "a.tar.zst:example-block: valid (0 errors, 0 warnings)
a.tar.zst:example-element: valid (0 errors, 0 warnings)
a.tar.zst: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
	run -0 ts-convert one.tar.zst o.tns
	assert_output ""
	mkdir u
	run -0 ts-pack -x a.tar.zst -C u
	assert_output ""
	assert_equal "$(ls -A u)" "SHA256SUMS
example-block
example-element"
	(cd u && sha256sum --strict -c SHA256SUMS >/dev/null)
	# Another archive unpacked there: one manifest of all the bundles.
	ts-pack -o b.tar.zst "$BI"
	run -0 ts-pack -x b.tar.zst -C u
	assert_output ""
	assert_equal "$(ls -A u)" "SHA256SUMS
example-binary
example-block
example-element"
	(cd u && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
	    LC_ALL=C sort | xargs sha256sum) | diff -u - u/SHA256SUMS
	# A bundle replaced (-f) takes its lines along.
	cp -r "$EL" example-element
	echo more >>example-element/README.md
	ts-pack -o c.tar.zst example-element
	run -0 ts-pack -f -x c.tar.zst -C u
	(cd u && sha256sum --strict -c SHA256SUMS >/dev/null)
	(cd u && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
	    LC_ALL=C sort | xargs sha256sum) | diff -u - u/SHA256SUMS
	# A SHA256SUMS there that is no manifest is replaced only with -f.
	mkdir w
	echo old >w/SHA256SUMS
	run ts-pack -x a.tar.zst -C w
	assert_failure 2
	assert_output --partial "'w/SHA256SUMS' exists and is not a manifest of SHA-256 digests (-f replaces it)"
	assert_equal "$(ls -A w)" SHA256SUMS
	assert_equal "$(cat w/SHA256SUMS)" old
	run -0 ts-pack -f -x a.tar.zst -C w
	(cd w && sha256sum --strict -c SHA256SUMS >/dev/null)
	assert_equal "$(wc -l <w/SHA256SUMS)" "$(tar -xOf a.tar.zst SHA256SUMS | wc -l)"
}

# canonical DIR: DIR/SHA256SUMS is the manifest ts-pack writes of the
# files below DIR: a line a file, paths without './', sorted bytewise.
canonical() {
	(cd "$1" && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
	    LC_ALL=C sort | xargs sha256sum) | diff -u - "$1/SHA256SUMS"
}

@test "ts-pack: -x reads every manifest rule A1 allows (comments, './' paths) and writes a canonical one, without stale lines (issue 30.13)" {
	mkdir u w st
	# A manifest made by hand beside a bundle: a comment, './' paths.
	cp -r "$EL" u/
	(cd u && { echo '# checked by hand'; sha256sum ./example-element/*; } \
	    >SHA256SUMS && sha256sum --strict -c SHA256SUMS >/dev/null)
	ts-pack -o b.tar.zst "$BI"
	run -0 ts-pack -x b.tar.zst -C u
	assert_output ""
	(cd u && sha256sum --strict -c SHA256SUMS >/dev/null)
	canonical u
	# So with -f: the other bundle's lines stay.
	(cd u && { echo '# again'; cat SHA256SUMS; } >S && mv S SHA256SUMS)
	run -0 ts-pack -f -x b.tar.zst -C u
	canonical u
	# A bundle replaced drops its './' lines, which no longer hold.
	(cd u && { sha256sum ./example-element/*; grep -v '^[0-9a-f]*  example-element/' SHA256SUMS; } >S &&
	    mv S SHA256SUMS)
	cp -r "$EL" st/
	echo more >>st/example-element/README.md
	# An archive whose own manifest has a comment and './' paths.
	(cd st && { echo '# by hand'; sha256sum ./example-element/*; } >SHA256SUMS &&
	    tar --owner=0 --group=0 -cf ../c.tar example-element SHA256SUMS)
	run -0 ts-pack -q -f -x c.tar -C u
	(cd u && sha256sum --strict -c SHA256SUMS >/dev/null)
	canonical u
	run -0 ts-pack -q -x c.tar -C w
	canonical w
}

@test "ts-pack: archives unpacked into one directory at the same time make one manifest of all their bundles" {
	local i k
	for k in 1 2 3 4; do
		ts-convert -q "$EL" -o "t$k"
		ts-pack -q -o "t$k.tar.zst" "t$k"
	done
	for i in $(seq 1 15); do
		rm -rf u; mkdir u
		for k in 1 2 3 4; do
			ts-pack -x "t$k.tar.zst" -C u &
		done
		wait
		assert_equal "$(ls -A u)" "SHA256SUMS
t1
t2
t3
t4"
		(cd u && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
		    LC_ALL=C sort | xargs sha256sum) | diff -u - u/SHA256SUMS ||
		    { echo "round $i"; false; }
	done
}

@test "ts-pack: -o - writes the archive to standard output" {
	ts-pack -o - "$EL" >out.tar.zst
	zstd -dc out.tar.zst | tar -tf - >list
	assert_equal "$(head -2 list)" "example-element/
example-element/example-element_metadata.json"
	ts-pack -o a.tar.zst "$EL"
	cmp a.tar.zst out.tar.zst
}

@test "ts-pack: a failed write is an error: -o - >/dev/full exits 3" {
	run bash -c "ts-pack -o - '$EL' >/dev/full"
	assert_failure 3
	run ts-pack -o /dev/full "$EL"
	assert_failure 3
}

@test "ts-pack: an existing archive is replaced only with -f" {
	echo old >a.tar.zst
	run ts-pack -o a.tar.zst "$EL"
	assert_failure 2
	assert_output --partial "'a.tar.zst' exists (-f replaces it)"
	assert_equal "$(cat a.tar.zst)" old
	run -0 ts-pack -f -o a.tar.zst "$EL"
	zstd -t -q a.tar.zst
	assert_equal "$(ls -A)" "a.tar.zst"
}

# =====================================================================
# Reproducible bytes
# =====================================================================

@test "ts-pack: the same bytes after touch, chmod, reordered operands, another TZ or locale, and any -j" {
	cp -r "$EL" "$BL" "$REF/random_tiny" .
	ts-pack -o ref.tar.zst example-element example-block random_tiny
	touch -d '2001-02-03 04:05' example-element/* random_tiny/config.yaml
	chmod 600 example-block/* random_tiny/README.md
	chmod 700 example-element
	ts-pack -o 1.tar.zst random_tiny example-block example-element
	cmp ref.tar.zst 1.tar.zst
	TZ=Asia/Kolkata LC_ALL=C.UTF-8 ts-pack -o 2.tar.zst example-block/example-block_metadata.json random_tiny example-element
	cmp ref.tar.zst 2.tar.zst
	TZ=America/St_Johns ts-pack -j 1 -o 3.tar.zst example-*/ random_tiny
	cmp ref.tar.zst 3.tar.zst
	# Bundles given from elsewhere.
	(cd / && ts-pack -o "$BATS_TEST_TMPDIR/4.tar.zst" "$EL" "$BL" "$REF/random_tiny")
	cmp ref.tar.zst 4.tar.zst
	# The manifest is among those bytes, and the same too.
	assert_equal "$(tar -tf ref.tar.zst | tail -1)" SHA256SUMS
	tar -xOf ref.tar.zst SHA256SUMS >ref.sums
	(cd / && ts-pack -o "$BATS_TEST_TMPDIR/5.tar.zst" "$REF/random_tiny" "$BL" "$EL")
	tar -xOf 5.tar.zst SHA256SUMS | cmp - ref.sums
}

@test "ts-pack: zstd's bytes do not depend on -j, even for a bundle cut into several jobs" {
	ts-pack -j 1 -o 1.tar.zst "$BIG"
	ts-pack -j 2 -o 2.tar.zst "$BIG"
	ts-pack -j 4 -o 4.tar.zst "$BIG"
	cmp 1.tar.zst 2.tar.zst
	cmp 1.tar.zst 4.tar.zst
	# Several zstd blocks at least: an archive bigger than one job.
	[ "$(stat -c %s 1.tar.zst)" -gt 1000000 ]
	ts-pack -o 1.tar.gz "$BIG"
	sleep 1
	ts-pack -o 2.tar.gz "$BIG"
	cmp 1.tar.gz 2.tar.gz
	# gzip: no time stamp in the header (bytes 4 to 7).
	[ "$(head -c 8 1.tar.gz | tail -c 4 | od -An -tx1 | tr -d ' ')" = 00000000 ]
}

@test "ts-pack: --level changes the bytes, and still reads back" {
	ts-pack -o 3.tar.zst "$BIG"
	ts-pack --level 9 -o 9.tar.zst "$BIG"
	ts-pack --level 1 -o 1.tar.gz "$BIG"
	! cmp -s 3.tar.zst 9.tar.zst
	zstd -dc 9.tar.zst | cmp - <(zstd -dc 3.tar.zst)
	[ "$(stat -c %s 9.tar.zst)" -lt "$(stat -c %s 3.tar.zst)" ]
	gzip -t 1.tar.gz
}

# =====================================================================
# Validation before packing
# =====================================================================

@test "ts-pack: an invalid bundle is refused with its diagnostics, and no archive is left" {
	mkbundle "$EL" t >/dev/null
	# The headers are read first: a wrong count is caught before
	# anything is packed.
	sed -i 's/^3 4 3 2 6$/3 4 3 2 7/' t/t.tns
	run ts-pack -o a.tar.zst "$BL" t
	assert_failure 1
	assert_output --partial "t/t.tns: error: the size line gives nnz 7; the metadata says 6 [X4]"
	assert_output --partial "'t' is invalid: not packed"
	assert_equal "$(ls -A)" "t"
	rm t/README.md
	run ts-pack --quick -o a.tar.zst t
	assert_failure 1
	assert_output --partial "[B3]"
	assert_equal "$(ls -A)" "t"
	# Unchecked, it goes in, and nothing is said.
	run -0 ts-pack --no-validate -o a.tar.zst t
	assert_output ""
	assert_equal "$(ls -A)" "a.tar.zst
t"
}

@test "ts-pack: every entry is checked as it is packed: out of range, out of order, a bad value, a wrong count refuse the bundle; --quick reads headers only, --deep sorts too (issue 30.5)" {
	local edit want
	mkdir e
	# Each defect of the entries, in the text file and in the binary
	# one, is found by default, and nothing is written.
	for edit in "s/^1 1 1 /1 1 9 /|t/t.tns:5:5: error: coordinate 9 exceeds dimension 2 of mode 3 [S1]" \
	    "5{h;d};6{G}|t/t.tns:6:1: error: entry (1, 1, 1) is out of order: it follows (1, 3, 2) [S2]" \
	    "\$a 4 3 2 7|t/t.tns: error: the file holds 7 entries; the metadata says 6 [X7]" \
	    "s/^2 2 1 1e-300/2 2 1 -1e-300/|t/t.tns:7:7: error: value -1e-300 is not nonnegative [S5]"; do
		rm -rf t
		mkbundle "$EL" t >/dev/null
		sed -i "${edit%%|*}" t/t.tns
		[[ $edit == *S5* ]] && setmeta t value_domain '"nonnegative"'
		want=${edit#*|}
		run ts-pack -o a.tar.zst t
		assert_failure 1
		assert_line "$want"
		assert_line "ts-pack: 't' is invalid: not packed"
		[ ! -e a.tar.zst ]
		run ts-pack --each e t
		assert_failure 1
		assert_line "$want"
		[ ! -e e/t.tar.zst ]
		run ts-pack --sums-only t
		assert_failure 1
		assert_line "$want"
		# Headers only: it goes in.
		run -0 ts-pack -q --quick -o q.tar.zst t
		rm q.tar.zst
	done
	# A binary file's entries too (the text file aside, on its own).
	rm -rf t && mkbundle "$BI" t >/dev/null
	# Record 3 (big-endian uint32 coordinates and an int32 value):
	# its second coordinate 3 becomes 9.
	/usr/bin/python3 -c 'import sys
p = sys.argv[1]; d = bytearray(open(p, "rb").read())
h = d.index(b"\n2 5 4 4\n") + 9
d[h + 2 * 12 + 4:h + 2 * 12 + 8] = (9).to_bytes(4, "big")
open(p, "wb").write(d)' t/t.tnsb
	run ts-pack -o a.tar.zst t
	assert_failure 1
	assert_output --partial "error: coordinate 9 exceeds dimension 4 of mode 2 [S1]"
	[ ! -e a.tar.zst ]
	# What needs the entries sorted stays with --deep: a repeat in
	# an unsorted bundle.
	rm -rf t && mkbundle "$EL" t >/dev/null
	rm t/t.tnsb
	jq --indent 2 '.sorted = "none" | .sort_order = [] | .endianness = "none" |
	    del(.files.binary) | .nnz = 7' t/t_metadata.json >m && mv m t/t_metadata.json
	sed -i 's/^3 4 3 2 6$/3 4 3 2 7/; $a 1 1 1 2.5' t/t.tns
	run -0 ts-pack -o a.tar.zst t
	assert_output ""
	run ts-pack --deep -o d.tar.zst t
	assert_failure 1
	assert_output --partial "[S3]"
	[ ! -e d.tar.zst ]
	# What the headers say is said once, though they are read twice.
	rm -rf t && mkbundle "$EL" t >/dev/null
	sed -i '3a % a comment' t/t.tns
	run -0 ts-pack -o c.tar.zst t
	[ "$(grep -c "t/t.tns:4" <<<"$output")" -eq 1 ]
}

@test "ts-pack: two bundles of one name cannot share an archive" {
	mkdir a b
	cp -r "$EL" a/
	cp -r "$EL" b/
	run ts-pack -o x.tar.zst a/example-element b/example-element
	assert_failure 2
	assert_output --partial "'a/example-element' and 'b/example-element' are both bundle 'example-element'"
	[ ! -e x.tar.zst ]
}

@test "ts-pack: a bundle path that does not exist is an I/O error" {
	run ts-pack -o x.tar.zst nosuch
	assert_failure 3
	[ ! -e x.tar.zst ]
}

# =====================================================================
# The index, one archive per bundle
# =====================================================================

@test "ts-pack: --index writes a JSON index: name, group, id, shape, nnz, density, types, file sizes" {
	run -0 ts-pack -o a.tar.zst --index idx.json "$EL" "$BL"
	run -0 jq -c '.[0] | [.name, .group, .id, .archive, .order,
	    .dimensions, .nnz, .density, .sparsity_type, .value_type]' idx.json
	assert_output '["example-block","examples","0001","a.tar.zst",2,[6,4],12,0.5,"block","float64"]'
	run -0 jq -c '.[1] | [.name, .dimensions, .nnz, .density, .value_type,
	    .files["example-element.tnsb"], .files["README.md"], .bytes]' idx.json
	assert_output "[\"example-element\",[4,3,2],6,0.25,\"float64\",260,211,$((811 + 211 + 132 + 260))]"
	# The same bundles, the same index.
	ts-pack -o b.tar.zst --index idx2.json "$BL" "$EL"
	sed 's/b\.tar\.zst/a.tar.zst/' idx2.json | cmp - idx.json
}

@test "ts-pack: --index FILE.csv writes CSV, one row per bundle, with sizes per kind of file" {
	run -0 ts-pack -o a.tar.zst --index idx.csv "$EL" "$REF/random_tiny"
	run -0 cat idx.csv
	assert_line --index 0 --regexp "^name,group,id,archive,order,dimensions,nnz,density,sparsity_type,value_type,metadata_bytes,readme_bytes,text_bytes,binary_bytes,other_bytes,bytes,metadata_sha256,readme_sha256,text_sha256,binary_sha256,valid,"
	assert_line --index 1 --regexp "^example-element,examples,0001,a.tar.zst,3,4x3x2,6,0.25,element,float64,811,211,132,260,0,1414(,[0-9a-f]{64}){4},true,"
	assert_line --index 2 --regexp '^random_tiny,[^,]*,[0-9]{4},a.tar.zst,3,64x64x64,4096,0.015625,element,float64,874,523,129293,131142,653,262485(,[0-9a-f]{64}){4},true,'
}

@test "ts-pack: --index FILE.csv writes a text cell that starts as a formula with a quote before it, quoted, and a control in its text form, as ts-stat does" {
	local b c
	b=$(mkbundle "$EL" f)
	setmeta "$b" group '"=HYPERLINK(\"http://x.invalid\",\"y\")"'
	c=$(mkbundle "$EL" g)
	setmeta "$c" group '"a\u0007b"'
	setmeta "$c" id '"0002"'
	ts-pack -q -o a.tar.zst --index idx.csv f g
	grep -qF "f,\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"y\"\")\",0001," idx.csv
	run -0 /usr/bin/python3 -c '
import csv
for r in csv.DictReader(open("idx.csv", encoding="utf-8")):
    print(r["name"], r["group"], r["value_min"])'
	assert_line --index 0 "f '=HYPERLINK(\"http://x.invalid\",\"y\") -1.25"
	assert_line --index 1 "g 'a'\$'\\a''b' -1.25"
	run -1 grep -q "$(printf '\a')" idx.csv
	# A number is not text: the negative minimum stays a number.
	grep -q ',-1\.25,' idx.csv
}

@test "ts-pack: the index's density is the nearest double to nnz over the positions, printed shortest, in JSON and CSV, as ts-stat prints it" {
	# 1557 / (313 x 176) to 17 digits, 0.028263868719140285, reads
	# back as the neighbour of the nearest double.
	ts-convert -q "$DATA/mtx/abb313.mtx" -o abb313
	ts-pack -q -o a.tar.zst --index idx.json abb313
	ts-pack -q -o b.tar.zst --index idx.csv abb313
	grep -q '"density": 0.028263868719140283,' idx.json
	run -0 /usr/bin/python3 -c '
import csv
print(next(csv.DictReader(open("idx.csv")))["density"])'
	assert_output 0.028263868719140283
	run -0 ts-stat -q --json abb313
	assert_output --partial '"density": 0.028263868719140283,'
}

@test "ts-pack: --index gives each file's size and SHA-256, the digests of the archive's SHA256SUMS, in JSON and CSV" {
	local name f
	mkdir e
	ts-pack -o a.tar.zst --index idx.json "$EL" "$REF/random_tiny"
	ts-pack -o a.tar.gz --index idx.csv "$EL" "$REF/random_tiny"
	ts-pack --each e --index e/idx.json "$EL" "$REF/random_tiny"
	tar -xOf a.tar.zst SHA256SUMS >sums
	# JSON: "sha256" beside "files", one digest a file, as the manifest.
	jq -r '.[] | .name as $n | .sha256 | to_entries[] |
	    "\(.value)  \($n)/\(.key)"' idx.json | LC_ALL=C sort -t ' ' -k3 | diff -u sums -
	jq -r '.[] | .name as $n | .sha256 | to_entries[] |
	    "\(.value)  \($n)/\(.key)"' e/idx.json | LC_ALL=C sort -t ' ' -k3 | diff -u sums -
	run -0 jq -c '(.[0].sha256 | keys) == (.[0].files | keys)' idx.json
	assert_output true
	# CSV: the digest of the metadata, README, text and binary files.
	for name in example-element random_tiny; do
		d=$( [ $name = example-element ] && echo "$EL" || echo "$REF/random_tiny")
		run -0 /usr/bin/python3 -c '
import csv, sys
for r in csv.DictReader(open("idx.csv")):
    if r["name"] == sys.argv[1]:
        print(r["metadata_sha256"], r["readme_sha256"], r["text_sha256"], r["binary_sha256"])' "$name"
		assert_output "$(cd "$d" && sha256sum ${name}_metadata.json README.md $name.tns $name.tnsb | cut -c1-64 | tr '\n' ' ' | sed 's/ $//')"
	done
}

@test "ts-pack: --sums-only writes the SHA256SUMS an archive of the bundles would hold, for bundles on disk" {
	cp -r "$EL" "$BL" "$REF/random_tiny" .
	echo hidden >random_tiny/.notes
	run --separate-stderr -0 ts-pack --sums-only random_tiny example-element example-block
	assert_equal "$stderr" "random_tiny/.notes: warning: a hidden file: left out of the archive [B5]"
	echo "$output" >s1
	ts-pack -q -o a.tar.zst example-block example-element random_tiny
	tar -xOf a.tar.zst SHA256SUMS | diff -u - s1
	sha256sum --strict -c s1 >/dev/null
	# -o FILE, from elsewhere: the same paths, NAME/FILE.
	(cd / && ts-pack -q --sums-only -o "$BATS_TEST_TMPDIR/s2" "$BATS_TEST_TMPDIR/example-element" "$BATS_TEST_TMPDIR/example-block" "$BATS_TEST_TMPDIR/random_tiny")
	cmp s1 s2
	run ts-pack --sums-only -o s2 example-element
	assert_failure 2
	assert_output --partial "'s2' exists (-f replaces it)"
	run -0 ts-pack -f --sums-only -o s2 example-element
	assert_equal "$(cut -c67- s2 | tr '\n' ' ')" "example-element/README.md example-element/example-element.tns example-element/example-element.tnsb example-element/example-element_metadata.json "
	# A mirror that changed is found by sha256sum.
	echo more >>example-block/README.md
	run sha256sum --quiet -c s1
	assert_failure
	assert_line "example-block/README.md: FAILED"
	# An invalid bundle is refused, and nothing written.
	sed -i 's/"nnz": 6/"nnz": 7/' example-element/example-element_metadata.json
	run ts-pack --sums-only -o s3 example-element
	assert_failure 1
	[ ! -e s3 ]
	run -0 ts-pack --no-validate --sums-only -o s3 example-element
	# Only with -o or standard output, and bundles.
	for a in "--each d" "-x a.tar.zst" "-t a.tar.zst" "--index i.json -o s4" "--level 3"; do
		run ts-pack --sums-only $a example-block
		assert_failure 2
	done
	run ts-pack --sums-only
	assert_failure 2
	assert_output --partial "no bundle given"
}

# ts-stat --csv and the index agree: every column of ts-stat's is the
# index's too (the files' sizes and the path aside), with the same cells.
@test "ts-pack: --index carries ts-stat's columns for every packed bundle, with its cells" {
	run -0 ts-pack -o a.tar.zst --index idx.csv "$EL" "$BL" "$REF/demo_A"
	ts-stat -q --csv "$REF/demo_A" "$BL" "$EL" >stat.csv
	/usr/bin/python3 - idx.csv stat.csv <<-'PY'
	import csv, sys
	ix = list(csv.DictReader(open(sys.argv[1])))
	st = list(csv.DictReader(open(sys.argv[2])))
	skip = {"path", "name", "text_bytes", "binary_bytes", "metadata_bytes", "readme_bytes"}
	for a, b in zip(ix, st):
	    assert a["name"] == b["name"], (a["name"], b["name"])
	    for k in b:
	        if k not in skip:
	            assert k in a, k
	            assert a[k] == b[k], (a["name"], k, a[k], b[k])
	PY
	run -0 ts-pack -o b.tar.zst --index idx.json "$EL"
	run -0 jq -c '.[0].statistics | [.valid, .sorted, .modes[0].nonempty, .values.distinct]' idx.json
	assert_output '[true,[1,2,3],4,6]'
}

@test "ts-pack: an existing index is refused before anything is written" {
	echo old >idx.json
	run ts-pack -o a.tar.zst --index idx.json "$EL"
	assert_failure 2
	[ ! -e a.tar.zst ]
}

@test "ts-pack: --each DIR writes one archive per bundle, DIR/NAME.tar.zst" {
	mkdir out
	run -0 ts-pack --each out --index out/index.json "$EL" "$BL" "$BI"
	run -0 ls out
	assert_output "example-binary.tar.zst
example-block.tar.zst
example-element.tar.zst
index.json"
	run -0 members out/example-block.tar.zst
	assert_line --index 0 "example-block/"
	refute_output --partial "example-element"
	run -0 jq -r '.[].archive' out/index.json
	assert_output "out/example-binary.tar.zst
out/example-block.tar.zst
out/example-element.tar.zst"
}

# =====================================================================
# Unpacking
# =====================================================================

@test "ts-pack: -x unpacks into -C DIR, byte for byte, dated as in the archive" {
	ts-pack -o a.tar.zst "$EL" "$BL" "$BIG"
	mkdir u
	run -0 ts-pack -x a.tar.zst -C u
	sans_a1_note
	assert_output ""
	diff -r "$EL" u/example-element
	diff -r "$BL" u/example-block
	diff -r "$BIG" u/big
	assert_equal "$(TZ=UTC stat -c %y u/big/big.tns)" "2026-11-30 00:00:00.000000000 +0000"
	# From standard input, into the current directory.
	mkdir v && cd v
	run -0 ts-pack -x - <../a.tar.zst
	diff -r "$EL" example-element
	assert_equal "$(ls -A)" "SHA256SUMS
big
example-block
example-element"
}

@test "ts-pack: -x takes each bundle's lock, as every writer of a bundle does, and waits for another writer" {
	ts-pack -o a.tar.zst "$EL" "$BL"
	mkdir u
	ts-pack -x a.tar.zst -C u
	# Another writer holds example-block's lock for a second.
	flock u/.example-block.lock sleep 1 &
	sleep 0.2
	local t0 t1
	t0=$(date +%s%N)
	run -0 ts-pack -f -x a.tar.zst -C u
	t1=$(date +%s%N)
	wait
	[ $(( (t1 - t0) / 1000000 )) -ge 600 ] ||
	    { echo "did not wait: $(( (t1 - t0) / 1000000 )) ms"; false; }
	diff -r "$EL" u/example-element
	diff -r "$BL" u/example-block
	assert_equal "$(ls -A u)" "SHA256SUMS
example-block
example-element"
}

@test "ts-pack: an existing bundle is replaced only with -f; what is not a bundle never is" {
	ts-pack -o a.tar.zst "$EL" "$BL"
	mkdir u
	cp -r "$BL" u/
	echo changed >u/example-block/README.md
	run ts-pack -x a.tar.zst -C u
	assert_failure 2
	assert_output --partial "exists (-f replaces it)"
	[ ! -e u/example-element ]
	run -0 ts-pack -f -x a.tar.zst -C u
	diff -r "$BL" u/example-block
	diff -r "$EL" u/example-element
	rm -r u/example-element && mkdir u/example-element && touch u/example-element/keep
	run ts-pack -f -x a.tar.zst -C u
	assert_failure 2
	assert_output --partial "exists and is not a bundle"
	[ -e u/example-element/keep ]
	assert_equal "$(ls -A u)" "SHA256SUMS
example-block
example-element"
}

@test "ts-pack: every unpacked bundle is checked; an invalid one stops the unpacking, nothing is left" {
	mkbundle "$EL" t >/dev/null
	sed -i 's/^3 4 3 2 6$/3 4 3 2 7/' t/t.tns
	ts-pack --no-validate -o a.tar.zst "$BL" t
	mkdir u
	run ts-pack -x a.tar.zst -C u
	assert_failure 1
	assert_output --partial "a.tar.zst:t/t.tns: error: the size line gives nnz 7; the metadata says 6 [X4]"
	assert_output --partial "bundle 't' is invalid: nothing unpacked"
	assert_equal "$(ls -A u)" ""
	# --deep reads the entries too.
	mkbundle "$EL" s >/dev/null
	sed -i 's/^1 1 1 /1 1 9 /' s/s.tns
	ts-pack --no-validate -o b.tar.zst s
	run -0 ts-pack -x b.tar.zst -C u
	rm -r u/s u/SHA256SUMS
	run ts-pack --deep -x b.tar.zst -C u
	assert_failure 1
	assert_output --partial "[S1]"
	assert_equal "$(ls -A u)" ""
	run -0 ts-pack --no-validate -x a.tar.zst -C u
	[ -d u/t ]
}

@test "ts-pack: hostile archives are refused, naming the member, and nothing is written" {
	printf 'x\n' >x
	WANT=/etc/evil hostile file:/etc/evil=@x
	WANT=../evil hostile file:../evil=@x
	WANT=a/../../evil hostile dir:a/ file:a/../../evil=@x
	WANT=a/link hostile dir:a/ sym:a/link=/tmp
	# A member escaping through a symbolic link to a directory.
	WANT=a/up hostile dir:a/ sym:a/up=.. file:a/up/evil=@x
	WANT=a/h hostile dir:a/ file:a/x=@x hard:a/h=a/x
	WANT=a/null hostile dir:a/ chr:a/null
	WANT=a/fifo hostile dir:a/ fifo:a/fifo
	WANT=a/x hostile dir:a/ file:a/x=one file:a/x=two
	WANT=a/deep/x hostile dir:a/ file:a/deep/x=@x
	WANT=loose hostile file:loose=@x
	WANT=a/.hidden hostile file:a/.hidden=@x
	WANT='-a/x' hostile file:-a/x=@x
	WANT='a/b\012c' hostile file:a/b$'\n'c=@x
	# The manifest is a regular file at the root, once.
	rm -rf u && mkdir u
	/usr/bin/python3 "$MKTAR" h.tar file:SHA256SUMS=@x file:SHA256SUMS=@x
	run ts-pack -x h.tar -C u
	assert_failure 1
	assert_output --partial "holds a second manifest"
	assert_equal "$(ls -A u)" ""
	WANT=SHA256SUMS hostile sym:SHA256SUMS=/etc/passwd
	# Nothing escaped either.
	[ ! -e ../evil ] && [ ! -e /tmp/evil ] && [ ! -e "$BATS_TEST_TMPDIR/evil" ]
}

@test "ts-pack: a member that declares 10 GB is refused at its header, by the default cap" {
	WANT=a/big hostile dir:a/ file:a/x=@/dev/null big:a/big=10000000000
	assert_output --partial "pass 8589934592 bytes (--max-size)"
}

@test "ts-pack: --max-size and --max-members cap what an archive may hold" {
	ts-pack -o a.tar.zst "$EL" "$BL"
	mkdir u
	run ts-pack -x a.tar.zst -C u --max-size 1K
	assert_failure 1
	assert_output --partial "pass 1024 bytes (--max-size)"
	assert_equal "$(ls -A u)" ""
	run ts-pack -x a.tar.zst -C u --max-members 5
	assert_failure 1
	assert_output --partial "more than 5 members (--max-members)"
	assert_equal "$(ls -A u)" ""
	# The manifest is a member, and its bytes are data.
	run ts-pack -x a.tar.zst -C u --max-size 3K --max-members 9
	assert_failure 1
	assert_output --partial "member 'SHA256SUMS' is refused: the archive holds more than 9 members"
	run -0 ts-pack -x a.tar.zst -C u --max-size 4K --max-members 10
	assert_equal "$(ls -A u)" "SHA256SUMS
example-block
example-element"
}

@test "ts-pack: a damaged or truncated archive stops the unpacking; not a tar archive at all, too" {
	ts-pack -o a.tar.zst "$BIG"
	head -c 200000 a.tar.zst >cut.tar.zst
	mkdir u
	run ts-pack -x cut.tar.zst -C u
	assert_failure 1
	assert_equal "$(ls -A u)" ""
	printf 'hello\n' >h.tar
	run ts-pack -x h.tar -C u
	assert_failure 1
	assert_output --partial "h.tar: error:"
	run ts-pack -x nosuch.tar -C u
	assert_failure 3
	run ts-pack -x a.tar.zst -C nosuch
	assert_failure 3
	assert_equal "$(ls -A u)" ""
}

@test "ts-pack: a truncated archive, a header smaller than its data and a sparse member are said to be what they are" {
	local z cut
	mkdir u
	ts-pack -o a.tar "$EL"
	for z in zst gz xz bz2; do
		if [ $z = bz2 ]; then bzip2 -c a.tar >a.tar.bz2
		else ts-pack -o "a.tar.$z" "$EL"; fi
		# Cut early (nothing whole) and late (inside the data).
		for cut in 40 $(($(stat -c %s "a.tar.$z") - 30)); do
			head -c "$cut" "a.tar.$z" >"c.tar.$z"
			run ts-pack -x "c.tar.$z" -C u
			assert_failure 1
			assert_output --partial "the archive is truncated"
			refute_output --partial "not a tar archive"
			run -1 ts-validate "c.tar.$z"
			assert_output --partial "the archive is truncated"
			refute_output --partial "not a tar archive"
			assert_equal "$(ls -A u)" ""
		done
	done
	# A tar cut inside a member's data, or inside a header.
	for cut in 700 2000; do
		head -c "$cut" a.tar >c.tar
		run ts-pack -x c.tar -C u
		assert_failure 1
		assert_output --partial "the archive is truncated"
		run -1 ts-validate c.tar
		assert_output --partial "the archive is truncated"
	done
	# A header that says less than the data that follows: the rest of
	# the data is read as the next header, whose checksum is wrong.
	/usr/bin/python3 "$MKTAR" s.tar dir:a/ "short:a/a.tns=@$DATA/real/splatt_med.tns"
	run ts-pack -x s.tar -C u
	assert_failure 1
	assert_output --partial "s.tar: error: the header after member 'a/a.tns' is damaged (its checksum is wrong): the member's data may be longer than its header says [B5]"
	refute_output --partial "it has no name"
	run -1 ts-validate s.tar
	assert_output --partial "the header after member 'a/a.tns' is damaged"
	refute_output --partial "no name"
	# A sparse member (GNU tar -S).
	mkbundle "$EL" sp >/dev/null
	printf 'data\n' >sp/big.bin
	truncate -s 1M sp/big.bin
	tar -S -cf sp.tar sp
	run ts-pack -x sp.tar -C u
	assert_failure 1
	assert_output --partial "member 'sp/big.bin' is refused: it is a sparse file; sparse members are not supported"
	refute_output --partial "not as long as its header says"
	run -1 ts-validate sp.tar
	assert_output --partial "member 'sp/big.bin' is left out: it is a sparse file"
	assert_equal "$(ls -A u)" ""
}

@test "ts-pack: an unpack stopped by a signal leaves nothing behind" {
	ts-pack -o a.tar.zst "$BIG"
	mkdir u
	# The archive's first part, then a pause: ts-pack waits for more.
	( head -c 300000 a.tar.zst; sleep 4 ) | ts-pack -x - -C u &
	local pid=$!
	sleep 1.5
	# The temporary directory is there, and the bundle is not.
	run ls -A u
	assert_output --regexp '^\.ts-pack\.'
	kill -TERM "$pid"
	local st=0
	wait "$pid" || st=$?
	assert_equal "$st" 143
	assert_equal "$(ls -A u)" ""
}

# =====================================================================
# Listing
# =====================================================================

@test "ts-pack: -t lists one line per bundle: name, order, dimensions, nnz" {
	ts-pack -o a.tar.zst "$EL" "$BI" "$BIG"
	run -0 ts-pack -t a.tar.zst
	sans_a1_note
	assert_output "big	3	300x200x100	$(jq .nnz "$BIG/big_metadata.json")
example-binary	2	5x4	4
example-element	3	4x3x2	6"
	run -0 ts-pack -t - <a.tar.zst
	assert_line --index 2 "example-element	3	4x3x2	6"
}

@test "ts-pack: -t --check says valid or invalid, every entry checked as it streams by, with the diagnostics; --json too (issue 30.5)" {
	mkbundle "$EL" t >/dev/null
	sed -i 's/^1 1 1 /1 1 9 /' t/t.tns
	ts-pack --no-validate -o a.tar.zst "$BL" t
	# Every entry, as it streams by (issue 30.5).
	run ts-pack -t a.tar.zst --check
	assert_failure 1
	assert_line "a.tar.zst:t/t.tns:5:5: error: coordinate 9 exceeds dimension 2 of mode 3 [S1]"
	assert_line "example-block	2	6x4	12	valid"
	assert_line "t	3	4x3x2	6	invalid"
	# Headers only: never a bare "valid".
	run -0 ts-pack -t a.tar.zst --check --quick
	assert_output "example-block	2	6x4	12	metadata and headers valid
t	3	4x3x2	6	metadata and headers valid"
	run -0 ts-pack -t a.tar.zst --check --quick --json
	assert_line --index 1 '{"path": "a.tar.zst:t", "name": "t", "order": 3, "dimensions": [4, 3, 2], "nnz": 6, "valid": true, "checks": "quick", "errors": 0, "warnings": 0}'
	# Everything, X6 too.
	run ts-pack -t a.tar.zst --check --deep
	assert_failure 1
	assert_line "a.tar.zst:t/t.tns:5:5: error: coordinate 9 exceeds dimension 2 of mode 3 [S1]"
	assert_line "t	3	4x3x2	6	invalid"
	run -1 --separate-stderr ts-pack -t a.tar.zst --check --deep --json
	assert_line --index 1 '{"path": "a.tar.zst:t", "name": "t", "order": 3, "dimensions": [4, 3, 2], "nnz": 6, "valid": false, "checks": "deep", "errors": 2, "warnings": 0}'
	run -1 --separate-stderr ts-pack -t a.tar.zst --check --json
	assert_line --index 1 '{"path": "a.tar.zst:t", "name": "t", "order": 3, "dimensions": [4, 3, 2], "nnz": 6, "valid": false, "checks": "stream", "errors": 1, "warnings": 0}'
	run -0 ts-pack -t a.tar.zst --json
	assert_line --index 0 '{"path": "a.tar.zst:example-block", "name": "example-block", "order": 2, "dimensions": [6, 4], "nnz": 12}'
}

# =====================================================================
# Every bundle of share/ and tests/data/reference/
# =====================================================================

@test "ts-pack: every bundle of share/ and the reference set packs, lists, validates inside the archive and unpacks identical" {
	local b n want got opt
	for b in "$SHARE"/example-* "$REF"/random_tiny "$REF"/demo_A "$REF"/demo_B "$REF"/legacy/random_tiny; do
		n=${b##*/}
		rm -rf a.tar.zst u && mkdir u
		# The legacy bundle is invalid: packed and unpacked unchecked.
		opt=
		[[ $b == */legacy/* ]] && opt=--no-validate
		run -0 ts-pack $opt -o a.tar.zst "$b"
		run -0 ts-pack -t a.tar.zst
		sans_a1_note
		assert_output --regexp "^$n	"
		# The same verdict and diagnostics inside the archive as in
		# the directory, located ARCHIVE:NAME/FILE.
		want=$(cd "${b%/*}" && ts-validate "$n" 2>&1 |
		    sed "s|^$n/|a.tar.zst:$n/|; s|^$n: |a.tar.zst:$n: |")
		got=$(ts-validate a.tar.zst 2>&1 | grep -vF -- "$A1_NOTE" |
		    grep -v -e '^a.tar.zst: valid (0 errors, 0 warnings)$' \
		    -e '^1 bundle and 1 archive: ' | sort)
		assert_equal "$got" "$(echo "$want" | sort)"
		run -0 ts-pack $opt -x a.tar.zst -C u
		diff -r "$b" "u/$n"
	done
}

# =====================================================================
# ts-validate on archives
# =====================================================================

@test "ts-validate: an archive's bundles are checked as they stream by, each its own report ARCHIVE:NAME, the archive's own problems another, in every format (issue 30.6)" {
	local check="$TS_TOP/tests/report-check.py"
	mkbundle "$EL" t >/dev/null
	sed -i 's/^1 1 1 /1 1 9 /' t/t.tns
	ts-pack -q --no-validate -o a.tar.zst "$EL" "$BL" t
	run --separate-stderr ts-validate a.tar.zst
	assert_failure 1
	assert_output "a.tar.zst:example-block: valid (0 errors, 0 warnings)
a.tar.zst:example-element: valid (0 errors, 0 warnings)
a.tar.zst:t: invalid (2 errors, 0 warnings)
a.tar.zst: valid (0 errors, 0 warnings)
3 bundles and 1 archive: 3 valid, 1 invalid"
	run -0 "$check" text <<<"$output"
	assert_line "b'a.tar.zst:t' invalid"
	run -1 ts-validate --json a.tar.zst
	run -0 jq -r '[.path, .name, .archive, .bundles, .valid, .errors] | @tsv' <<<"$output"
	assert_output "a.tar.zst:example-block	example-block	a.tar.zst		true	0
a.tar.zst:example-element	example-element	a.tar.zst		true	0
a.tar.zst:t	t	a.tar.zst		false	2
a.tar.zst		a.tar.zst	3	true	0"
	ts-validate --json a.tar.zst >out.jsonl || true
	run -0 "$check" json "$TS_TOP/man/ts-validate.1" <out.jsonl
	assert_line "  b'a.tar.zst:t/t.tns' coordinate 9 exceeds dimension 2 of mode 3"
	ts-validate --format junit a.tar.zst >report.xml || true
	run -0 "$check" junit report.xml
	assert_line --index 0 "4 tests, 1 failures, 0 errors"
	assert_line --index 3 "b'a.tar.zst:t' failure a.tar.zst:t/t.tns:5:5: error: coordinate 9 exceeds dimension 2 of mode 3 [S1]"
	assert_line --index 4 "b'a.tar.zst' pass "
	run -0 bash -c 'ts-validate --format github a.tar.zst | "$1" github' _ "$check"
	assert_line --index 0 "error b'a.tar.zst:t/t.tns' coordinate 9 exceeds dimension 2 of mode 3"
	run -1 ts-validate --format github a.tar.zst
	assert_line "a.tar.zst:t: invalid (2 errors, 0 warnings)"
	assert_line "a.tar.zst: valid (0 errors, 0 warnings)"
	# The archive's own problems are its report's: no manifest, a
	# member no bundle holds; its bundles' reports stay theirs.
	tar -xf a.tar.zst
	/usr/bin/python3 "$MKTAR" b.tar dir:t/ file:t/t_metadata.json=@t/t_metadata.json \
	    file:t/README.md=@t/README.md file:t/t.tns=@t/t.tns \
	    file:t/t.tnsb=@t/t.tnsb file:loose=@t/README.md
	run -1 ts-validate --json b.tar
	run -0 jq -r '[.path, .valid, .errors, .notes, ([.diagnostics[].rule] | join(","))] | @tsv' <<<"$output"
	assert_output "b.tar:t	false	2	0	S1,X6
b.tar	false	1	1	B5,A1"
	# An archive that holds no bundle is one report, of the archive.
	/usr/bin/python3 "$MKTAR" e.tar
	run -1 ts-validate --format junit e.tar
	assert_output --partial '<testsuites name="ts-validate" tests="1" failures="1" errors="0"'
	# An archive without a telling name, by its first bytes.
	ts-pack -q -o v.tar.zst "$EL"
	cp v.tar.zst archive
	run -0 ts-validate archive
	assert_output "archive:example-element: valid (0 errors, 0 warnings)
archive: valid (0 errors, 0 warnings)
1 bundle and 1 archive: 2 valid, 0 invalid"
	# A compressed data file is no archive.
	zstd -q -c "$EL/example-element.tns" >x.tns.zst
	run -0 ts-validate x.tns.zst
	refute_output --partial "tar"
}

@test "ts-validate: diagnostics inside an archive are located ARCHIVE:NAME/NAME.tns:LINE:COL, as in the directory" {
	mkbundle "$EL" t >/dev/null
	sed -i 's/^1 1 1 /1 1 9 /' t/t.tns
	rm t/README.md
	ts-pack --no-validate -o a.tar.gz t
	run -1 ts-validate t
	local want=$output
	run -1 ts-validate a.tar.gz
	assert_line "a.tar.gz:t/t.tns:5:5: error: coordinate 9 exceeds dimension 2 of mode 3 [S1]"
	assert_line "a.tar.gz:t/t.tns:5:1: error: entry (1, 1, 9) differs from record 1 of the binary file (offset 54) [X6]"
	assert_line "a.tar.gz:t/t_metadata.json: error: 'files.readme' names 'README.md', which does not exist [B3]"
	sans_a1_note
	assert_line "a.tar.gz: valid (0 errors, 0 warnings)"
	assert_equal "$(echo "$output" | sed 's|^a\.tar\.gz:t/|t/|; s|^a\.tar\.gz:t:|t:|' |
	    grep -v -e '^a.tar.gz: ' -e '^1 bundle and 1 archive: ' | sort)" \
	    "$(echo "$want" | sort)"
}

@test "ts-validate: members in another order still work, kept aside with a note" {
	mkdir o && cp -r "$BIG" o/
	# Data files before the metadata, as a directory listing may give.
	(cd o && tar -cf ../r.tar big/big.tnsb big/big.tns big/README.md big/big_metadata.json)
	run -0 ts-validate r.tar
	assert_line "r.tar: valid (0 errors, 0 warnings)"
	assert_output --partial "r.tar: note: the members of 'big' do not come in the order of a bundle's reading"
	# Nothing kept is left in TMPDIR.
	mkdir tmp
	run -0 env TMPDIR="$PWD/tmp" ts-validate r.tar
	assert_equal "$(ls -A tmp)" ""
}

@test "ts-validate: a large binary file before the text one is summed first, not kept aside" {
	mkdir o && cp -r "$BIG" o/
	sed -i '1000s/ [0-9.]*$/ 0.75/' o/big/big.tns
	(cd o && tar -cf ../b.tar big/big_metadata.json big/README.md big/big.tnsb big/big.tns)
	run -1 ts-validate o/big
	local want=$output
	mkdir tmp
	run -1 env TMPDIR="$PWD/tmp" ts-validate b.tar
	# GNU tar wrote no manifest: the one note says so.
	assert_line "b.tar: note: it holds no SHA256SUMS manifest: its members could not be verified [A1]"
	sans_a1_note
	assert_output "$(echo "$want" | sed 's|^o/big/|b.tar:big/|; s|^o/big:|b.tar:big:|')
b.tar: valid (0 errors, 0 warnings)
1 bundle and 1 archive: 1 valid, 1 invalid"
	refute_output --partial "note:"
	assert_equal "$(ls -A tmp)" ""
}

@test "ts-validate: text and binary that differ, in an archive on a pipe, are named by chunk" {
	mkbundle "$EL" t >/dev/null
	sed -i 's/^1 3 2 -1.25$/1 3 2 -1.5/' t/t.tns
	ts-pack --no-validate -o a.tar.zst t
	run -1 ts-validate t
	assert_line --index 0 --regexp '^t/t.tns:6:1: error: entry \(1, 3, 2\) differs from record 2 of the binary file \(offset [0-9]+\) \[X6\]$'
	local want=$output
	run -1 ts-validate a.tar.zst
	sans_a1_note
	assert_output "$(echo "$want" | sed 's|^t/|a.tar.zst:t/|; s|^t:|a.tar.zst:t:|')
a.tar.zst: valid (0 errors, 0 warnings)
1 bundle and 1 archive: 1 valid, 1 invalid"
	run -1 ts-pack -t - --check --deep <a.tar.zst
	assert_line "<stdin>:t/t.tns: error: entries 1 to 6 differ from the same records of the binary file (which entries, the archive cannot be read again to tell) [X6]"
}

@test "ts-validate: what an archive holds besides bundles is said, under B5" {
	printf 'x\n' >x
	/usr/bin/python3 "$MKTAR" m.tar "file:loose=@x" "sym:l=/etc" \
	    "file:example-element/example-element_metadata.json=@$EL/example-element_metadata.json" \
	    "file:example-element/README.md=@$EL/README.md" \
	    "file:example-element/example-element.tns=@$EL/example-element.tns" \
	    "file:example-element/example-element.tnsb=@$EL/example-element.tnsb" \
	    "file:example-element/README.md=@$EL/README.md"
	run -1 ts-validate m.tar
	assert_line "m.tar: error: member 'loose' is left out: it is not in a bundle's folder [B5]"
	assert_line "m.tar: error: member 'l' is left out: it is a symbolic link [B5]"
	assert_line "m.tar: error: member 'example-element/README.md' is left out: it comes twice [B5]"
	assert_line "m.tar: invalid (3 errors, 0 warnings)"
	printf 'hello\n' >h.tar
	run -1 ts-validate h.tar
	assert_line "h.tar: error: not a tar archive [B5]"
	/usr/bin/python3 "$MKTAR" e.tar
	run -1 ts-validate e.tar
	assert_line "e.tar: error: the archive holds no bundle [B5]"
}

@test "ts-pack: one verdict on a member no bundle holds, in every reader: an empty folder, a folder named SHA256SUMS, a loose file (issue 30.12)" {
	local m name spec why
	ts-pack -q -o e.tar "$EL"
	mkdir x && tar -xf e.tar -C x
	for spec in "dir:zz/|zz/|its folder holds no file of a bundle" \
	    "dir:SHA256SUMS/|SHA256SUMS/|its folder has the name of the archive's manifest" \
	    "file:SHA256SUMS/x=@x/SHA256SUMS|SHA256SUMS/x|its folder has the name of the archive's manifest" \
	    "file:loose=@x/SHA256SUMS|loose|it is not in a bundle's folder"; do
		IFS='|' read -r m name why <<<"$spec"
		/usr/bin/python3 "$MKTAR" y.tar dir:example-element/ \
		    "file:example-element/example-element_metadata.json=@x/example-element/example-element_metadata.json" \
		    "file:example-element/README.md=@x/example-element/README.md" \
		    "file:example-element/example-element.tns=@x/example-element/example-element.tns" \
		    "file:example-element/example-element.tnsb=@x/example-element/example-element.tnsb" \
		    "$m" "file:SHA256SUMS=@x/SHA256SUMS"
		run -1 ts-validate y.tar
		assert_line --partial "member '$name' is left out: $why [B5]"
		run -1 ts-pack -t y.tar --check
		assert_line --partial "member '$name' is left out: $why [B5]"
		run -1 ts-stat y.tar
		assert_line --partial "member '$name' is left out: $why [B5]"
		run -1 ts-convert y.tar -o c.tns
		[ ! -e c.tns ]
		assert_line --partial "member '$name' is left out: $why [B5]"
		rm -rf u && mkdir u
		run -1 ts-pack -x y.tar -C u
		assert_line --partial "member '$name' is refused: $why [B5]"
		assert_equal "$(ls -A u)" ""
	done
}

@test "ts-pack: -x -f and -o through a symbolic link write what it points to, the link kept" {
	mkdir store d
	ts-convert -q "$EL" -o store/t
	ts-pack -q -o t.tar.zst store/t
	ln -s ../store/t d/t
	run ts-pack -q -f -C d -x t.tar.zst
	assert_success
	[ -L d/t ]
	[ -d store/t ]
	run ts-validate store/t
	assert_success
	ln -s store/p.tar.zst p.tar.zst
	run ts-pack -q -o p.tar.zst store/t
	assert_success
	[ -L p.tar.zst ]
	[ -f store/p.tar.zst ]
	[ "$(ls -A store | tr '\n' ' ')" = "p.tar.zst t " ]
	[ "$(ls -A d | tr '\n' ' ')" = "SHA256SUMS t " ]
}

@test "ts-pack: a link, a folder, a hidden file in a bundle are left out, each with a warning; what a link points to is never packed" {
	local b=x/example-element
	mkdir x
	cp -r "$EL" x/
	ln -s /etc/passwd "$b/extra.txt"
	mkdir "$b/sub"
	echo deep >"$b/sub/deep.txt"
	echo hidden >"$b/.notes"
	run ts-pack -o a.tar.zst --index idx.json "$b"
	assert_success
	assert_line "$b/.notes: warning: a hidden file: left out of the archive [B5]"
	assert_line "$b/extra.txt: warning: a symbolic link: left out of the archive, which holds no link and never what one points to [B5]"
	assert_line "$b/sub: warning: a folder: left out of the archive (a bundle's files are at its top) [B5]"
	run -0 bash -c 'zstd -dc a.tar.zst | tar -t'
	assert_output "example-element/
example-element/example-element_metadata.json
example-element/README.md
example-element/example-element.tns
example-element/example-element.tnsb
SHA256SUMS"
	! zstd -dc a.tar.zst | grep -a -q 'root:'
	run -0 jq -c '.[0].files | keys' idx.json
	assert_output '["README.md","example-element.tns","example-element.tnsb","example-element_metadata.json"]'
	# A file the metadata names that would be left out: the bundle
	# is not packed.
	mv "$b/example-element.tnsb" x/b.tnsb
	ln -s ../b.tnsb "$b/example-element.tnsb"
	run ts-pack -o b.tar.zst "$b"
	assert_failure 1
	assert_output --partial "$b/example-element.tnsb: error: a symbolic link, which the metadata names: an archive holds no link and never what one points to [B5]"
	[ ! -e b.tar.zst ]
}

@test "ts-pack: a file whose name every reader refuses (a TAB, a newline, hidden) is left out with a warning, and the archive reads everywhere (issue 30.11)" {
	local b=x/example-element
	mkdir x u
	cp -r "$EL" x/
	echo t >"$b/a"$'\t'"b.txt"
	echo n >"$b/c"$'\n'"d.txt"
	run --separate-stderr ts-pack -o a.tar.zst "$b"
	assert_success
	assert_equal "$stderr" "'$b/a'\$'\\t''b.txt': warning: a file whose name holds a control character: left out of the archive [B5]
'$b/c'\$'\\n''d.txt': warning: a file whose name holds a control character: left out of the archive [B5]"
	run -0 ts-validate a.tar.zst
	run -0 ts-pack -t a.tar.zst --check
	run -0 ts-pack -x a.tar.zst -C u
	[ "$(ls u/example-element | wc -l)" -eq 4 ]
	# The readers' verdict on such a member is the packer's words.
	/usr/bin/python3 "$MKTAR" h.tar dir:e/ file:e/e_metadata.json=@"$b/example-element_metadata.json" \
	    file:e/a$'\t'b=x
	run -1 ts-validate h.tar
	assert_output --partial "member 'e/a\\011b' is left out: a file whose name holds a control character [B5]"
}
