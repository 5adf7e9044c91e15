#!/usr/bin/env bats
# Archives you can trust (issue 19, the reading half): every reader of
# an archive checks each member's SHA-256 against the SHA256SUMS
# manifest, its last member (tensorsuite(5) A1), and the checksums of
# the compression; ts-validate --checksums checks bundles on disk; one
# thousand single-bit flips of an archive are each either reported by
# both ts-validate and ts-pack -x, or change nothing that is unpacked.
#
# The archives are made by $MAKE_ARCHIVE: GNU tar, sha256sum and zstd
# --check, gzip -n or xz (gnu_archive below), the way a user without the
# suite makes one.  Every test runs in its own $BATS_TEST_TMPDIR.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
	# A text-only bundle and a binary one.
	mkbundle "$SHARE/example-element" a >/dev/null
	rm a/a.tnsb
	jq --indent 2 'del(.files.binary) | .endianness = "none"' \
	    a/a_metadata.json >m && mv m a/a_metadata.json
	mkbundle "$SHARE/example-binary" b >/dev/null
	MAKE_ARCHIVE=${MAKE_ARCHIVE:-gnu_archive}
}

# ts_pack_archive OUT BUNDLE...: the bundles packed by ts-pack.
ts_pack_archive() {
	local out=$1
	shift
	rm -f "$out"
	ts-pack -q -o "$out" "$@"
}

# gnu_archive OUT BUNDLE...: the bundles (folders of the current
# directory) packed by GNU tools, each bundle's members in the order of
# its reading (folder, metadata, README, data files), then SHA256SUMS,
# which lists every file as stored (NAME/FILE), sorted bytewise; tar,
# then zstd --check, gzip -n or xz by OUT's name.  $SUMS_EDIT, when set,
# runs in the staging folder between the manifest and the tar (to damage
# one or the other); $SUMS_ORDER, when set, is the tar's member list.
gnu_archive() {
	local out=$1 st b f list=()
	shift
	st=$(mktemp -d "$BATS_TEST_TMPDIR/st.XXXXXX")
	for b; do
		cp -r "$b" "$st/"
		list+=("$b" "$b/${b}_metadata.json" "$b/README.md")
		for f in "$b"/*; do
			case $f in */README.md | */*_metadata.json) ;;
			*) list+=("$f") ;;
			esac
		done
	done
	(cd "$st" && find "$@" -type f | LC_ALL=C sort | xargs sha256sum \
	    >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
	if [ -n "${SUMS_EDIT:-}" ]; then
		(cd "$st" && eval "$SUMS_EDIT")
	fi
	[ -n "${SUMS_ORDER:-}" ] && read -ra list <<<"$SUMS_ORDER" ||
	    list+=(SHA256SUMS)
	(cd "$st" && tar --no-recursion --hard-dereference --owner=0 --group=0 -cf - \
	    "${list[@]}") | compressor "$out" >"$out"
	rm -rf "$st"
}

# compressor NAME: the filter that compresses as NAME's end says.
compressor() {
	case $1 in
	*.tar.zst) zstd -q -3 --check ;;
	*.tar.gz) gzip -n ;;
	*.tar.xz) xz ;;
	*) cat ;;
	esac
}

# ---- an archive whose manifest agrees ----

@test "checksums: an archive with SHA256SUMS last is verified by every reader, with no note; the manifest is no member of a bundle" {
	local x
	for x in x.tar.zst x.tar.gz x.tar.xz x.tar; do
		$MAKE_ARCHIVE $x a b
		run -0 ts-validate $x
		assert_output "$x:a: valid (0 errors, 0 warnings)
$x:b: valid (0 errors, 0 warnings)
$x: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
		run -0 ts-validate - <$x
		assert_output "<stdin>:a: valid (0 errors, 0 warnings)
<stdin>:b: valid (0 errors, 0 warnings)
-: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
		run -0 ts-pack -t $x --check --require-checksums
		assert_output "a	3	4x3x2	6	valid
b	2	5x4	4	valid"
		rm -rf u && mkdir u
		run -0 ts-pack -x $x -C u --require-checksums
		assert_output ""
		diff -r a u/a
		diff -r b u/b
		tar -xOf $x SHA256SUMS | cmp - u/SHA256SUMS
		assert_equal "$(ls -A u)" "SHA256SUMS
a
b"
		run -0 ts-convert $x --member b --require-checksums -o c.tns
		assert_output ""
		run -0 ts-stat --require-checksums $x
		refute_output --partial "SHA256SUMS"
		rm -f c.tns
	done
}

# ---- what differs from the manifest ----

# fifo_of FILE: a FIFO f.SUFFIX that a background cat fills with FILE
# once, as a download piped into a named pipe would.
fifo_of() {
	rm -f "f$2"
	mkfifo "f$2"
	cat "$1" >"f$2" 3>&- &
}

@test "checksums: an archive read from a FIFO is opened once and verified, every compression, by every reader" {
	local x
	for x in .tar.zst .tar.gz .tar.xz .tar; do
		ts_pack_archive "x$x" a b
		fifo_of "x$x" "$x"
		run -0 timeout 20 ts-validate "f$x"
		assert_line "f$x:a: valid (0 errors, 0 warnings)"
		assert_line "f$x: valid (0 errors, 0 warnings)"
		fifo_of "x$x" "$x"
		run -0 timeout 20 ts-pack -t "f$x" --check --require-checksums
		assert_line --partial "valid"
		rm -rf u && mkdir u
		fifo_of "x$x" "$x"
		run -0 timeout 20 ts-pack -x "f$x" -C u --require-checksums
		assert_equal "$(ls -A u)" "SHA256SUMS
a
b"
		fifo_of "x$x" "$x"
		run -0 timeout 20 ts-convert "f$x" --member b -o "c$x.tns"
	done
}

@test "checksums: a member whose data differs from SHA256SUMS is an error naming it in every reader, in the record of its bundle; ts-pack -x leaves nothing (issue 30.7)" {
	SUMS_EDIT="sed -i 's/^1 1 1 2.5\$/1 1 1 2.75/' a/a.tns" \
	    $MAKE_ARCHIVE x.tar.zst a b
	local want="x.tar.zst:a/a.tns: error: SHA-256 differs from SHA256SUMS [A1]"
	run -1 ts-validate x.tar.zst
	assert_line "$want"
	assert_line "x.tar.zst:a: invalid (1 error, 0 warnings)"
	assert_line "x.tar.zst:b: valid (0 errors, 0 warnings)"
	assert_line "x.tar.zst: valid (0 errors, 0 warnings)"
	run -1 ts-validate - <x.tar.zst
	assert_line "<stdin>:a/a.tns: error: SHA-256 differs from SHA256SUMS [A1]"
	assert_line "<stdin>:a: invalid (1 error, 0 warnings)"
	# Every report format carries it, in the bundle's record.
	run -1 ts-validate --json x.tar.zst
	assert_output --partial '{"severity": "error", "file": "x.tar.zst:a/a.tns", "line": null, "column": null, "offset": null, "rule": "A1", "message": "SHA-256 differs from SHA256SUMS"}'
	run -0 jq -r '[.path, .valid, .status] | @tsv' <<<"$output"
	assert_output "x.tar.zst:a	false	1
x.tar.zst:b	true	0
x.tar.zst	true	0"
	run -1 ts-validate --format github x.tar.zst
	assert_line "::error file=x.tar.zst%3Aa/a.tns,title=A1::SHA-256 differs from SHA256SUMS"
	run -1 ts-validate --format junit x.tar.zst
	assert_output --partial '<testcase classname="tensorsuite" name="x.tar.zst:a" time="'
	assert_output --partial '<failure type="invalid" message="1 error">x.tar.zst:a/a.tns: error: SHA-256 differs from SHA256SUMS [A1]'
	run -1 ts-pack -t x.tar.zst
	assert_line "$want"
	run -1 ts-pack -t x.tar.zst --check
	assert_line "$want"
	assert_line "a	3	4x3x2	6	invalid"
	assert_line "b	2	5x4	4	valid"
	run --separate-stderr ts-pack -t x.tar.zst --check --json
	assert_failure 1
	run -0 jq -r '[.name, .valid, .errors] | @tsv' <<<"$output"
	assert_output "a	false	1
b	true	0"
	run --separate-stderr ts-stat --json x.tar.zst
	assert_failure 1
	run -0 jq -r '[.name, .valid, .status, (.broken_rules | join(","))] | @tsv' <<<"$output"
	assert_output "a	false	1	A1
b	true	0	"
	run --separate-stderr ts-stat --csv x.tar.zst
	assert_failure 1
	run -0 cut -d, -f2,7,8 <<<"$output"
	assert_output "name,valid,broken_rules
a,false,A1
b,true,"
	mkdir u
	run -1 ts-pack -x x.tar.zst -C u
	assert_line "$want"
	assert_equal "$(ls -A u)" ""
	# The tools that read a bundle from an archive SRC write nothing.
	run -1 ts-convert x.tar.zst --member a -o c.tns
	assert_line "$want"
	[ ! -e c.tns ]
	run -1 ts-convert x.tar.zst --member a -o c
	[ ! -e c ]
	run -1 ts-sort x.tar.zst --member a -o s.tns
	assert_line "$want"
	[ ! -e s.tns ]
	run -1 ts-sort -c x.tar.zst --member a
	assert_line "$want"
	run -1 ts-gen-values --replace --member a --seed 1 -f x.tar.zst -o g
	assert_line "$want"
	[ ! -e g ]
	run -1 ts-stat x.tar.zst
	assert_line --partial "$want"
	# A member the caller does not read is hashed all the same.
	run -1 ts-convert x.tar.zst --member b -o c.tns
	assert_line "$want"
	[ ! -e c.tns ]
	# The lone bundle of an archive, whose end is read to see that no
	# other follows: its error, said then, still stops the output.
	mkbundle "$SHARE/example-element" c >/dev/null
	SUMS_EDIT="sed -i 's/^1 1 1 2.5\$/1 1 1 2.75/' c/c.tns" \
	    $MAKE_ARCHIVE y.tar.zst c
	run -1 ts-convert y.tar.zst -o c.tns
	assert_line "y.tar.zst:c/c.tns: error: SHA-256 differs from SHA256SUMS [A1]"
	[ ! -e c.tns ]
}

@test "checksums: a listed file the archive lacks, a bundle's file the manifest does not list, a manifest not last are errors" {
	mkdir u
	# Listed, not held.
	SUMS_EDIT="echo '$(printf '%064d' 0)  a/gone.tns' >>SHA256SUMS" \
	    $MAKE_ARCHIVE x.tar.gz a b
	run -1 ts-validate x.tar.gz
	assert_line "x.tar.gz:SHA256SUMS:7: error: 'a/gone.tns' is listed, but the archive holds no such file [A1]"
	assert_line "x.tar.gz:a: invalid (1 error, 0 warnings)"
	assert_line "x.tar.gz: valid (0 errors, 0 warnings)"
	run -1 ts-pack -x x.tar.gz -C u
	assert_line "x.tar.gz:SHA256SUMS:7: error: 'a/gone.tns' is listed, but the archive holds no such file [A1]"
	assert_equal "$(ls -A u)" ""
	# Held, not listed.
	SUMS_EDIT="sed -i '/ b.README.md\$/d' SHA256SUMS" $MAKE_ARCHIVE x.tar.xz a b
	run -1 ts-validate x.tar.xz
	assert_line "x.tar.xz:b/README.md: error: it is not listed in SHA256SUMS: its data cannot be verified [A1]"
	assert_line "x.tar.xz:b: invalid (1 error, 0 warnings)"
	run -1 ts-pack -x x.tar.xz -C u
	assert_equal "$(ls -A u)" ""
	# Not the last member.
	SUMS_ORDER="a a/a_metadata.json a/README.md a/a.tns SHA256SUMS b b/b_metadata.json b/README.md b/b.tnsb" \
	    $MAKE_ARCHIVE x.tar.zst a b
	run -1 ts-validate x.tar.zst
	assert_line "x.tar.zst:SHA256SUMS: error: it is not the archive's last member: 'b/' comes after it [A1]"
	assert_line "x.tar.zst: invalid (1 error, 0 warnings)"
	run -1 ts-pack -x x.tar.zst -C u
	assert_line "x.tar.zst:SHA256SUMS: error: it is not the archive's last member: 'b/' comes after it [A1]"
	assert_equal "$(ls -A u)" ""
	# Two manifests.
	SUMS_ORDER="a a/a_metadata.json a/README.md a/a.tns b b/b_metadata.json b/README.md b/b.tnsb SHA256SUMS SHA256SUMS" \
	    $MAKE_ARCHIVE x.tar a b
	run -1 ts-validate x.tar
	assert_line "x.tar:SHA256SUMS: error: the archive holds a second manifest: only the first is read [A1]"
}

@test "checksums: a malformed line of SHA256SUMS is an error located ARCHIVE:SHA256SUMS:LINE:COL" {
	local x=x.tar.zst
	mkdir u
	# One space where two go; an upper-case digit; a short digest; an
	# empty line; a bad escape; a path listed twice.
	SUMS_EDIT="sed -i '2s/  / /; 3s/^./A/; 4s/^\\(.\\{10\\}\\).\\{54\\}/\\1/' SHA256SUMS
	    printf '\\n\\\\%s  a/x\\\\t\\n' \$(printf '%064d' 1) >>SHA256SUMS
	    sed -n 1p SHA256SUMS >>SHA256SUMS" $MAKE_ARCHIVE $x a b
	run -1 ts-validate $x
	assert_line "$x:SHA256SUMS:2:66: error: expected two spaces (or ' *') between the digest and the path [A1]"
	assert_line "$x:SHA256SUMS:3:1: error: expected the 64 lower-case hex digits of a SHA-256 [A1]"
	assert_line "$x:SHA256SUMS:4:11: error: expected the 64 lower-case hex digits of a SHA-256 [A1]"
	assert_line "$x:SHA256SUMS:7:1: error: an empty line; each line is a SHA-256 in hex, two spaces and a path [A1]"
	assert_line "$x:SHA256SUMS:8:71: error: an escape other than '\\\\', '\\n' or '\\r' in the path [A1]"
	assert_line --regexp "^$x:SHA256SUMS:9:67: error: '(a|b)/[^']*' is listed twice \\(first on line 1\\) \\[A1\\]\$"
	# The files of the bad lines are not listed.
	assert_line "$x:a/a_metadata.json: error: it is not listed in SHA256SUMS: its data cannot be verified [A1]"
	run -1 ts-pack -x $x -C u
	assert_line "$x:SHA256SUMS:2:66: error: expected two spaces (or ' *') between the digest and the path [A1]"
	assert_equal "$(ls -A u)" ""
	# What sha256sum also reads: ' *' (binary), comments, "./", escapes
	# of the paths it escapes.
	SUMS_EDIT="sed -i '1s/  / */; 2s|  |  ./|' SHA256SUMS; sed -i '1i# made by hand' SHA256SUMS" \
	    $MAKE_ARCHIVE $x a b
	run -0 ts-validate $x
	assert_line "$x: valid (0 errors, 0 warnings)"
	assert_line "2 bundles and 1 archive: 3 valid, 0 invalid"
}

# ---- an archive without a manifest ----

@test "checksums: an archive without SHA256SUMS is read with one note; --require-checksums makes it an error in every reader" {
	local note="x.tar.zst: note: it holds no SHA256SUMS manifest: its members could not be verified [A1]"
	local err="x.tar.zst: error: it holds no SHA256SUMS manifest: its members cannot be verified (--require-checksums) [A1]"
	tar -cf - a b | zstd -q --check >x.tar.zst
	run -0 ts-validate x.tar.zst
	assert_output "x.tar.zst:a: valid (0 errors, 0 warnings)
x.tar.zst:b: valid (0 errors, 0 warnings)
$note
x.tar.zst: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
	run -0 ts-validate --json x.tar.zst
	assert_output --partial '"valid": true, "errors": 0, "warnings": 0, "notes": 1'
	run -0 ts-validate --format github x.tar.zst
	assert_line "::notice file=x.tar.zst,title=A1::it holds no SHA256SUMS manifest: its members could not be verified"
	run -1 ts-validate --require-checksums x.tar.zst
	assert_output "x.tar.zst:a: valid (0 errors, 0 warnings)
x.tar.zst:b: valid (0 errors, 0 warnings)
$err
x.tar.zst: invalid (1 error, 0 warnings)
2 bundles and 1 archive: 2 valid, 1 invalid"
	run -1 ts-validate --require-checksums --format junit x.tar.zst
	assert_output --partial "<failure type=\"invalid\" message=\"1 error\">$err"
	run -0 ts-pack -t x.tar.zst
	assert_line "$note"
	run -0 ts-pack -q -t x.tar.zst
	refute_output --partial "note"
	run -1 ts-pack -t x.tar.zst --check --require-checksums
	assert_line "$err"
	mkdir u
	run -0 ts-pack -x x.tar.zst -C u
	assert_output "$note"
	rm -rf u/* && run -1 ts-pack -x x.tar.zst -C u --require-checksums
	assert_output "$err"
	assert_equal "$(ls -A u)" ""
	run -2 ts-pack --require-checksums -o y.tar.zst a
	assert_output --partial "--require-checksums does not go with packing"
	run -1 ts-convert --require-checksums x.tar.zst --member a -o c.tns
	assert_line "$err"
	[ ! -e c.tns ]
	run -1 ts-sort --require-checksums x.tar.zst --member a -o s.tns
	assert_line "$err"
	run -1 ts-sort -c --require-checksums x.tar.zst --member a
	assert_line "$err"
	run -1 ts-gen-values --require-checksums --replace --member a -f x.tar.zst -o g
	assert_line "$err"
	run -1 ts-stat --require-checksums x.tar.zst
	assert_line --partial "$err"
}

# ---- the checksums of the compression ----

# flip FILE OFFSET [MASK]: xor the byte at OFFSET (negative: from the
# end) with MASK (default 1).
flip() {
	python3 -c 'import sys
p, off, mask = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
b = bytearray(open(p, "rb").read())
b[off] ^= mask
open(p, "wb").write(b)' "$1" "$2" "${3:-1}"
}

# damaged ARCHIVE MESSAGE: both readers reject ARCHIVE, saying MESSAGE,
# and ts-pack -x leaves nothing.
damaged() {
	run -1 ts-validate "$1"
	assert_line --partial "$2"
	rm -rf u && mkdir u
	run -1 ts-pack -x "$1" -C u
	assert_line --partial "$2"
	assert_equal "$(ls -A u)" ""
}

@test "checksums: zstd's content checksum and xz's CRC64 are verified; a flipped byte of either is an error, located" {
	# Without a manifest, so that the compression's check alone stands.
	tar -cf x.tar a b
	zstd -q --check -c x.tar >x.tar.zst
	run zstd -lv x.tar.zst
	assert_output --partial "Check: XXH64"
	# The XXH64 checksum, the frame's last four bytes.
	flip x.tar.zst -1
	damaged x.tar.zst "x.tar.zst: error: zstd decompression failed: Restored data doesn't match checksum [B5]"
	# A literal of the data, undone to another byte: only the checksum
	# can tell.  Literals not compressed keep the README's words as
	# they are; the 'o' of "order-3 tensor" made an 'n'.
	zstd -q --check -1 --no-compress-literals -c x.tar >y.tar.zst
	off=$(python3 -c 'print(open("y.tar.zst", "rb").read().index(b"order-3 tensor"))')
	flip y.tar.zst "$off"
	damaged y.tar.zst "zstd decompression failed"
	# xz: the CRC64 of the block, the eight bytes before the index.
	xz -c x.tar >x.tar.xz
	off=$(python3 -c 'import struct
b = open("x.tar.xz", "rb").read()
back = (struct.unpack("<I", b[-8:-4])[0] + 1) * 4
print(len(b) - 12 - back - 1)')
	flip x.tar.xz "$off"
	damaged x.tar.xz "x.tar.xz: error: lzma library error: Corrupted input data [B5]"
}

# ---- one thousand single-bit flips (issue 19, "Done when") ----

# Each flip of a bit of the archive is reported by ts-validate and
# ts-pack -x both (and -x leaves nothing), or changes nothing that is
# unpacked; never changed data with exit 0, never two verdicts
# (tests/flips.py).  Under the sanitizers, fewer flips: they are there
# for the memory errors, and each run is ten times slower.
# ts-pack -x writes the manifest beside the bundles: what it unpacks
# from an undamaged archive is the bundles and that manifest, which GNU
# tar takes out of the archive for the comparison.
flips() {
	local maker=$1 x n=$2
	shift 2
	[ -n "${TS_SANITIZE:-}" ] && n=100
	for x in "$@"; do
		rm -rf orig && mkdir orig && cp -r a b orig/
		$maker $x a b
		tar -xOf $x SHA256SUMS >orig/SHA256SUMS
		run python3 "$TS_TOP/tests/flips.py" --count $n --seed 19 \
		    --jobs 2 $x orig w
		assert_success
		assert_line --regexp "^$x: $n flips: [0-9]+ reported by both, [0-9]+ harmless, 0 wrong\$"
	done
}

# Issue 19 asks a thousand flips of the archives ts-pack writes; those
# GNU tools made (what a reader checks there is the same code, short of
# the zstd frame's writer) take 300 each, to keep the suite's time.
@test "checksums: 300 single-bit flips of each of a .tar.zst, .tar.gz, .tar.xz and .tar made by GNU tools: reported by both readers, or harmless" {
	flips $MAKE_ARCHIVE 300 x.tar.zst x.tar.gz x.tar.xz x.tar
}

@test "checksums: 1,000 single-bit flips of each of a .tar.zst, .tar.gz and .tar.xz packed by ts-pack: reported by both readers, or harmless" {
	flips ts_pack_archive 1000 x.tar.zst x.tar.gz x.tar.xz
}
@test "checksums: gzip's CRC32 and length are verified; a flipped byte of either is an error, located" {
	tar -cf x.tar a b
	gzip -n -c x.tar >x.tar.gz
	cp x.tar.gz y.tar.gz
	flip x.tar.gz -8
	damaged x.tar.gz "x.tar.gz: error: the gzip data's CRC32 differs from the one stored [B5]"
	flip y.tar.gz -2
	damaged y.tar.gz "y.tar.gz: error: the gzip data's length differs from the one stored [B5]"
	# On standard input too.
	run -1 ts-validate - <x.tar.gz
	assert_line "<stdin>: error: the gzip data's CRC32 differs from the one stored [B5]"
	# And a compressed data file, as every tool reads one.
	gzip -n -c a/a.tns >t.tns.gz
	flip t.tns.gz -8
	run -1 ts-validate t.tns.gz
	assert_line "t.tns.gz: error: the gzip data's CRC32 differs from the one stored"
	run -1 ts-convert t.tns.gz c.tns
	assert_line "t.tns.gz: error: the gzip data's CRC32 differs from the one stored"
	[ ! -e c.tns ]
}

# ---- ts-validate --checksums: bundles on disk ----

@test "checksums: ts-validate --checksums FILE checks the files it lists, from the current directory, then the bundles they are in" {
	sha256sum a/* b/* >SHA256SUMS
	run -0 ts-validate --checksums SHA256SUMS
	assert_output "SHA256SUMS: valid (0 errors, 0 warnings)
a: valid (0 errors, 0 warnings)
b: valid (0 errors, 0 warnings)
3 operands: 3 valid, 0 invalid"
	# What an archive unpacked by GNU tar holds, as sha256sum -c reads it.
	$MAKE_ARCHIVE x.tar.xz a b
	mkdir m && tar -xf x.tar.xz -C m
	(cd m && sha256sum -c --quiet SHA256SUMS)
	run -0 sh -c 'cd m && ts-validate --checksums SHA256SUMS'
	assert_line "SHA256SUMS: valid (0 errors, 0 warnings)"
	# Given PATHs, those are checked, not the listed bundles.
	run -0 ts-validate --checksums SHA256SUMS b
	assert_output "SHA256SUMS: valid (0 errors, 0 warnings)
b: valid (0 errors, 0 warnings)
2 operands: 2 valid, 0 invalid"
	# A file that differs, one missing, one not listed, a bad line.
	sed -i 's/^1 1 1 2.5$/1 1 1 2.75/' a/a.tns
	rm b/README.md
	echo x >a/extra.txt
	echo "nonsense" >>SHA256SUMS
	run -1 ts-validate --checksums SHA256SUMS
	assert_line "SHA256SUMS:7:1: error: expected the 64 lower-case hex digits of a SHA-256 [A1]"
	assert_line "SHA256SUMS:2: error: 'a/a.tns': its SHA-256 differs from the one listed [A1]"
	assert_line "SHA256SUMS:4: error: 'b/README.md' is listed, but there is no such file [A1]"
	assert_line "a/extra.txt: error: it is not listed in the checksums: its data cannot be verified [A1]"
	assert_line "SHA256SUMS: invalid (4 errors, 0 warnings)"
	# Every report format carries them.
	run -1 ts-validate --checksums SHA256SUMS --format github
	assert_line "::error file=SHA256SUMS,line=2,title=A1::'a/a.tns': its SHA-256 differs from the one listed"
	run -1 ts-validate --checksums SHA256SUMS --json
	assert_line --index 0 --partial '{"path": "SHA256SUMS", "name": null, "valid": false, "errors": 4,'
	run -1 ts-validate --checksums SHA256SUMS --format junit
	assert_output --partial '<testcase classname="tensorsuite" name="SHA256SUMS"'
	assert_output --partial "SHA256SUMS:2: error: 'a/a.tns': its SHA-256 differs from the one listed [A1]"
	# A FILE that is not there is an I/O error (3), as a PATH is.
	run -3 ts-validate --checksums nosuch
	assert_line "ts-validate: nosuch: No such file or directory"
}

@test "checksums: ts-validate --checksums opens listed files as every reader does: regular files only, never blocking, nothing outside its directory (issue 30.18)" {
	local z=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
	sha256sum a/* >SHA256SUMS
	mkfifo a/fifo
	printf '%s  %s\n' "$z" a/fifo "$z" /dev/zero "$z" ../x "$z" a/../b/b.tns \
	    >>SHA256SUMS
	run -1 timeout 20 ts-validate --checksums SHA256SUMS
	assert_line "SHA256SUMS:4: error: 'a/fifo' is listed, but it is not a regular file [A1]"
	assert_line "SHA256SUMS:5: error: '/dev/zero' is listed, but a listed path must lie below the directory it is taken from: it is absolute [A1]"
	assert_line "SHA256SUMS:6: error: '../x' is listed, but a listed path must lie below the directory it is taken from: it climbs out with '..' [A1]"
	assert_line "SHA256SUMS:7: error: 'a/../b/b.tns' is listed, but a listed path must lie below the directory it is taken from: it climbs out with '..' [A1]"
	assert_line "SHA256SUMS: invalid (4 errors, 0 warnings)"
	# Only the folder of the files it could check is a bundle checked.
	assert_line "a: valid (0 errors, 0 warnings)"
	refute_output --partial "/dev"$'\n'
	refute_line --partial "/dev:"
	refute_line --partial "b: "
}
