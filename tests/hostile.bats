#!/usr/bin/env bats
# Hostile inputs: what a careless or malicious file, path or neighbour
# gives the tools.  Each runs under a memory cap (ulimit -v; not under
# the sanitizers or valgrind, whose own memory the cap would refuse) and
# a time limit (a hang is status 124), and must end with its exit status, a
# message that says where the problem is, and nothing left behind.
# Issue 12 lists the defects some of these once found; they are named.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# guarded CMD...: `run CMD...` under a memory cap of $CAP KiB (2 GiB)
# and a time limit of 30 seconds.
guarded() {
	local cap=${CAP:-2097152}
	if [ -n "${TS_SANITIZE:-}${TS_VALGRIND:-}" ]; then
		run timeout -k 5 300 "$@"
	else
		run timeout -k 5 30 bash -c 'ulimit -v "$0" && exec "$@"' \
		    "$cap" "$@"
	fi
}

# only NAME...: the working directory holds exactly these names (and
# what bats keeps), so that a refused run left nothing behind.
only() {
	assert_equal "$(ls -A | grep -v '^separate-stderr-' | sort |
	    tr '\n' ' ')" "$(printf '%s\n' "$@" | sort | tr '\n' ' ')"
}

# unprivileged CMD...: `run CMD...` as a user that file modes bind
# (nobody, when we are root, who reads anything).
unprivileged() {
	if [ "$(id -u)" -eq 0 ]; then
		chmod 755 "$BATS_TEST_TMPDIR"
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
		    env PATH="$PATH" "$@"
	else
		run "$@"
	fi
}

# tns NAME ORDER DIMS... NNZ: the header of a TensorSuite text file.
tns() {
	local name=$1
	shift
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n%s\n' \
	    "$name" "$*"
}

# bundle NAME: a copy of share/example-element named NAME.
bundle() {
	mkbundle "$SHARE/example-element" "$1" >/dev/null
}

# =====================================================================
# Bytes that once hung or blew up (issue 12, defects 1 and 2)
# =====================================================================

@test "hostile: a carriage return not followed by a newline never hangs a reader (defect 1)" {
	printf '1\r1\n' >cr.frostt
	guarded ts-convert --from frostt cr.frostt -o out.tns
	assert_failure 1
	assert_output --regexp "cr\.frostt:1:[0-9]+: error: "
	bundle t
	printf '1 2 1 1.5\r\r\n' >>t/t.tns
	guarded ts-validate t
	assert_failure 1
	assert_output --regexp "t/t\.tns:11:[0-9]+: error: "
	guarded ts-sort t -o s.tns
	assert_failure 1
	assert_output --regexp "t/t\.tns:11:[0-9]+: error: "
	only cr.frostt t
}

@test "hostile: value-less text output reads no uninitialised value length (defect 2)" {
	# Poisoned fresh memory made a value's length huge: gigabytes asked
	# for four entries.
	export MALLOC_PERTURB_=165
	CAP=1048576 guarded ts-convert "$SHARE/example-block" -o b
	assert_success
	printf '1 1 1\n2 2 2\n' >v.frostt
	CAP=1048576 guarded ts-convert --from frostt --no-values v.frostt \
	    -o nv.tns
	assert_success
	CAP=1048576 guarded ts-sort --no-values --input-base 1 nv.tns -o s.tns
	assert_success
	run ts-validate b
	assert_success
}

# =====================================================================
# Sizes: declared, and real
# =====================================================================

@test "hostile: a declared count of 10^18 entries (and dimensions of 10^18) read as what the file holds" {
	{ tns t 3 10 10 10 1000000000000000000; echo '1 1 1 1.5'; } >n.tns
	guarded ts-convert n.tns -o out.tns
	assert_failure 1
	assert_output --partial "n.tns: error: 1 entries read; its header says 1000000000000000000 [X7]"
	guarded ts-sort n.tns -o out.tns
	assert_failure 1
	assert_output --partial "[X7]"
	{ tns t 3 1000000000000000000 1000000000000000000 1000000000000000000 1
	    echo '1 1 1 1.5'; } >d.tns
	guarded ts-convert d.tns -o d
	assert_success
	run ts-validate d
	assert_success
	rm -r d
	only n.tns d.tns
}

@test "hostile: orders 0, 65 and 10,000 are refused at the size line" {
	local n
	for n in 0 65 10000; do
		{ tns t "$n" $(yes 2 | head -n "$n") 1; yes 1 | head -n "$n" |
		    tr '\n' ' '; echo 1.5; } >o.tns
		guarded ts-convert o.tns -o out.tns
		assert_failure 1
		assert_output --partial "o.tns:4:1: error: the size line must be"
		guarded ts-sort o.tns -o out.tns
		assert_failure 1
		assert_output --partial "[H3]"
	done
	only o.tns
}

@test "hostile: a 10 MB line, a row of 5 million fields, 10,000-digit numbers" {
	head -c 10000000 /dev/zero | tr '\0' 7 >long.frostt
	echo >>long.frostt
	guarded ts-convert --from frostt long.frostt -o out.tns
	assert_failure 1
	assert_output --regexp "long\.frostt:1:1: error: "
	yes 1 | head -n 5000000 | tr '\n' ' ' >wide.frostt
	echo >>wide.frostt
	guarded ts-convert --from frostt wide.frostt -o out.tns
	assert_failure 1
	assert_output --partial "wide.frostt:1:1: error: the first row has 5000000 fields"
	{ printf '1 1 '; head -c 10000 /dev/zero | tr '\0' 9; echo; } >v.frostt
	guarded ts-convert --from frostt v.frostt -o out.tns
	assert_failure 1
	assert_output --partial "v.frostt:1:5: error: value '99999"
	assert_output --partial "overflows float64 [S5]"
	{ printf '1 '; head -c 10000 /dev/zero | tr '\0' 1; echo ' 1.5'; } >c.frostt
	guarded ts-convert --from frostt c.frostt -o out.tns
	assert_failure 1
	assert_output --partial "c.frostt:1:3: error: coordinate '1111"
	# Many digits after the point are a number, read exactly.
	{ printf '1 1 1.'; head -c 10000 /dev/zero | tr '\0' 1; echo; } >f.frostt
	guarded ts-convert --from frostt f.frostt -o f.tns
	assert_success
	only long.frostt wide.frostt v.frostt c.frostt f.frostt f.tns
}

@test "hostile: dimensions beyond 2^63-1, which metadata cannot state, are refused where the input says them (defect 9)" {
	echo '18446744073709551615 1 1.5' >c.frostt
	guarded ts-convert --from frostt c.frostt -o b
	assert_failure 1
	assert_output --regexp "c\.frostt:1:1: error: .*2\^63"
	refute_output --partial "metadata:"
	{ tns t 2 18446744073709551615 3 1; echo '1 1 1.5'; } >d.tns
	guarded ts-convert d.tns -o b
	assert_failure 1
	assert_output --regexp "d\.tns:4:[0-9]+: error: .*2\^63"
	printf '%s\n' '%%MatrixMarket matrix coordinate real general' \
	    '9223372036854775808 2 1' '1 1 1.5' >m.mtx
	guarded ts-convert m.mtx -o b
	assert_failure 1
	assert_output --regexp "m\.mtx:2:[0-9]+: error: .*2\^63"
	# 2^63-1 itself is a dimension like another.
	echo '9223372036854775807 1 1.5' >e.frostt
	guarded ts-convert --from frostt e.frostt -o b
	assert_success
	run ts-validate b
	assert_success
	rm -r b
	only c.frostt d.tns m.mtx e.frostt
}

# =====================================================================
# Bytes that are not text
# =====================================================================

@test "hostile: NUL bytes, CR-only and CRLF files" {
	printf '1 1 1.5\n2 2\0 2.5\n' >nul.frostt
	guarded ts-convert --from frostt nul.frostt -o out.tns
	assert_failure 1
	assert_output --partial "nul.frostt:2:3: error: coordinate '2?' is not an unsigned integer [E1]"
	bundle t
	printf '\0\0\0\0' >>t/t.tns
	guarded ts-validate t
	assert_failure 1
	assert_output --regexp "t/t\.tns:11:1: error: "
	printf '1 1 1.5\r2 2 2.5\r' >cr.frostt
	guarded ts-convert --from frostt cr.frostt -o out.tns
	assert_failure 1
	assert_output --regexp "cr\.frostt:1:[0-9]+: error: "
	printf '1 1 1.5\r\n2 2 2.5\r\n' >crlf.frostt
	guarded ts-convert --from frostt crlf.frostt -o crlf.tns
	assert_success
	assert_equal "$(tail -n 2 crlf.tns)" "$(printf '1 1 1.5\n2 2 2.5')"
	head -c 4096 /dev/urandom >noise.tnsb
	guarded ts-convert --from tnsb \
	    --meta "$SHARE/example-binary/example-binary_metadata.json" \
	    noise.tnsb -o out.tns
	assert_failure 1
	assert_output --regexp "noise\.tnsb:1:1: error: .*\[H1\]"
	only nul.frostt t cr.frostt crlf.frostt crlf.tns noise.tnsb
}

# =====================================================================
# Paths that are not files
# =====================================================================

@test "hostile: a directory, a symlink loop, an unreadable and a missing file as input are I/O errors (3)" {
	mkdir d
	ln -s loop loop
	echo '1 1 1.5' >r.tns
	chmod 0 r.tns
	unprivileged ts-convert r.tns -o -
	assert_failure 3
	assert_output --partial "ts-convert: r.tns: Permission denied"
	guarded ts-convert d -o out.tns
	assert_failure
	guarded ts-convert --from frostt d -o out.tns
	assert_failure 3
	assert_output --partial "ts-convert: d: Is a directory"
	guarded ts-convert loop -o out.tns
	assert_failure 3
	assert_output --partial "ts-convert: loop: Too many levels of symbolic links"
	guarded ts-validate loop
	assert_failure 3
	guarded ts-sort missing.tns
	assert_failure 3
	assert_output --partial "ts-sort: missing.tns: No such file or directory"
	only d loop r.tns
}

@test "hostile: a metadata file that is a symlink loop, and a bundle directory that cannot be read, are I/O errors (3), not B1 (defect 9)" {
	bundle t
	rm t/t_metadata.json
	ln -s t_metadata.json t/t_metadata.json
	guarded ts-validate t
	assert_failure 3
	assert_output --partial "t/t_metadata.json: Too many levels of symbolic links"
	refute_output --partial "[B1]"
	guarded ts-sort -i t
	assert_failure 3
	refute_output --partial "[B1]"
	bundle u
	chmod 0 u
	unprivileged ts-validate u
	chmod 755 u
	assert_failure 3
	assert_output --partial "u/u_metadata.json: Permission denied"
	refute_output --partial "[B1]"
}

@test "hostile: FIFOs: a bundle's metadata or --meta is refused unread; a data FIFO or <(...) is read once (defects 3, 4)" {
	bundle t
	rm t/t_metadata.json
	mkfifo t/t_metadata.json
	guarded ts-validate t
	assert_failure 3
	assert_output --partial "t/t_metadata.json: not a regular file"
	guarded ts-sort -i t
	assert_failure 3
	mkfifo m.json
	guarded ts-convert --meta m.json "$SHARE/example-element/example-element.tns" -o out.tns
	assert_failure 3
	assert_output --partial "m.json: not a regular file"
	guarded ts-sort --meta m.json "$SHARE/example-element/example-element.tns"
	assert_failure 3
	# A data file through a pipe or a FIFO with a writer: read once,
	# even when two passes need it.
	tail -n +5 "$SHARE/example-element/example-element.tns" >g.frostt
	guarded bash -c 'ts-sort -q --input-base 1 <(cat "$1") -o g2.tns' _ \
	    "$SHARE/example-element/example-element.tns"
	assert_success
	cmp g2.tns "$SHARE/example-element/example-element.tns"
	mkfifo f.tns
	(cat "$SHARE/example-element/example-element.tns" >f.tns &)
	guarded ts-sort -q f.tns -o g3.tns
	assert_success
	cmp g3.tns "$SHARE/example-element/example-element.tns"
	mkfifo f.mtx
	(cat "$DATA/mtx/karate.mtx" >f.mtx &)
	guarded ts-sort -q f.mtx -o k.tns
	assert_success
	(cat "$DATA/mtx/karate.mtx" >f.mtx &)
	guarded ts-convert -q f.mtx -o k
	assert_success
	run ts-validate k
	assert_success
	(gzip -c <"$DATA/mtx/karate.mtx" >f.mtx &)
	guarded ts-convert -q f.mtx -o k2.tns
	assert_success
	only t m.json g.frostt g2.tns f.tns g3.tns f.mtx k.tns k k2.tns
}

# =====================================================================
# Outputs refused before anything is read (defect 9)
# =====================================================================

@test "hostile: an existing or unwritable DST is refused before SRC is read" {
	local t
	mkfifo in.tns
	# A writer that never writes: a tool that reads waits forever.
	exec 5<>in.tns
	touch exists.tns
	# A directory that is not a bundle (an empty one would be taken).
	mkdir b
	touch b/keep
	for t in ts-convert ts-sort; do
		guarded "$t" in.tns -o exists.tns
		assert_failure 2
		assert_output --partial "'exists.tns' exists (-f replaces it)"
		guarded "$t" - -o exists.tns <in.tns
		assert_failure 2
		guarded "$t" in.tns -o b
		assert_failure 2
		guarded "$t" in.tns -o nodir/x.tns
		assert_failure 3
		assert_output --partial "nodir/x.tns: No such file or directory"
		guarded "$t" in.tns -o nodir/x
		assert_failure 3
	done
	exec 5>&-
	only in.tns exists.tns b
}

@test "hostile: --help and --version into a full device exit 3 (defect 9)" {
	local t
	for t in ts-convert ts-sort ts-validate; do
		run bash -c "$t --help >/dev/full"
		assert_failure 3
		run bash -c "$t --version >/dev/full"
		assert_failure 3
		run bash -c "$t -h >/dev/full"
		assert_failure 3
	done
}

# =====================================================================
# Metadata (issue 12, defect 5)
# =====================================================================

@test "hostile: an unknown key nested 2,046 deep is kept, compact, by ts-sort -i and ts-convert (defect 5)" {
	local deep m
	bundle t
	m=t/t_metadata.json
	deep=$(printf '%*s' 2046 '' | tr ' ' '[')$(printf '%*s' 2046 '' | tr ' ' ']')
	{ sed '$d' "$m" | sed '$s/$/,/'
	    printf '  "x_a": %s,\n  "x_b": %s,\n  "x_c": %s\n}\n' \
	    "$deep" "$deep" "$deep"; } >m.json
	mv m.json "$m"
	run ts-validate t
	assert_success
	guarded ts-sort -i -k 3,2,1 t
	assert_success
	[ "$(stat -c %s "$m")" -lt 20000 ]
	run ts-validate t
	assert_success
	assert_output --partial "unknown key 'x_c'"
	grep -qxF "  \"x_b\": $deep," "$m"
	guarded ts-convert t -o u
	assert_success
	[ "$(stat -c %s u/u_metadata.json)" -lt 20000 ]
	run ts-validate u
	assert_success
}

@test "hostile: 500,000 unknown keys cost linear time, located, in a reader and a rewriter (issue 30, point 19)" {
	local m k l
	bundle t
	m=t/t_metadata.json
	# 6 MB of keys, under the 16 MiB cap: each warning used to look for
	# its key's place among all the others (486 s).
	{ sed '$d' "$m" | sed '$s/$/,/'
	    awk 'BEGIN { for (i = 0; i < 500000; i++)
		printf "  \"k%06d\": %d,\n", i, i
		print "  \"zz\": 0\n}" }'; } >m.json
	mv m.json "$m"
	# Linear, it takes seconds; quadratic, minutes.
	run timeout -k 5 180 bash -c 'ts-validate -m 0 t >out 2>&1'
	assert_success
	for k in k000500 zz; do
		l=$(grep -n "\"$k\"" "$m" | cut -d: -f1)
		grep -qxF "$m:$l:3: warning: unknown key '$k' [M1]" out
	done
	run timeout -k 5 180 ts-convert -q t -o u
	assert_success
	[ "$(grep -c '"k' u/u_metadata.json)" = 500000 ]
}

@test "hostile: metadata a rewrite would make larger than a reader takes is refused, the bundle left alone (defect 5)" {
	local m before
	bundle t
	m=t/t_metadata.json
	# 1e9 is rewritten 1000000000.0: 3.6 MB of them grow past 16 MiB.
	{ sed '$d' "$m" | sed '$s/$/,/'
	    printf '  "x_big": ['
	    yes 1e9, | head -n 1200000 | tr -d '\n'
	    printf '1]\n}\n'; } >m.json
	mv m.json "$m"
	run ts-validate t
	assert_success
	before=$(md5sum t/*)
	guarded ts-sort -i t
	assert_failure 1
	assert_output --partial "16 MiB"
	assert_equal "$(md5sum t/*)" "$before"
	only t
}

# =====================================================================
# Names a terminal would obey (issue 22.15)
# =====================================================================

# raw_free: $output holds no ESC, BEL or \x01.
raw_free() {
	[[ $output != *[$'\e\a\x01']* ]] || {
		echo "a control byte in: $output"; return 1; }
}

@test "hostile: a name with control bytes reaches no terminal raw: diagnostics quote it as ls does, other messages show '?' (issue 22.15)" {
	local n=$'e\e]0;pwned\a.tns' b=$'b\e[1m' q
	{ tns e 2 3 3 3; printf '1 1 1.5\n2 9 2\n3 3 1\n'; } >"$n"
	mkdir "$b"
	q=$(ls --quoting-style=shell-escape -d -- "$n")
	# The progress line too, drawn at once.
	export TS_PROGRESS=always
	guarded ts-convert "$n" o.tns
	assert_failure 1
	raw_free
	assert_line --partial "$q:6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	guarded ts-sort "$n" -o o.tns
	assert_failure 1
	raw_free
	guarded ts-gen-values "$n" -o o.tns
	assert_failure
	raw_free
	guarded ts-validate "$n"
	assert_failure 1
	raw_free
	guarded ts-pack -o x.tar "$b"
	assert_failure
	raw_free
	assert_line "ts-pack: 'b?[1m' is invalid: not packed"
}

# A manifest (tensorsuite(5) A1) from anyone: a link named SHA256SUMS is
# no manifest but a member refused, as any link is; one that declares
# more than a manifest may hold is refused unread; a control byte in a
# listed path reaches no terminal raw.
@test "hostile: SHA256SUMS as a link, declared 10 GB, or listing a name with control bytes" {
	local mk="$TS_TOP/tests/mktar.py"
	mkdir u
	/usr/bin/python3 "$mk" l.tar "sym:SHA256SUMS=/etc/passwd"
	run -1 ts-pack -x l.tar -C u
	assert_output --partial "member 'SHA256SUMS' is refused: it is a symbolic link [B5]"
	run -1 ts-validate l.tar
	assert_line "l.tar: error: member 'SHA256SUMS' is left out: it is a symbolic link [B5]"
	/usr/bin/python3 "$mk" b.tar "big:SHA256SUMS=10000000000"
	# Not read into memory: passed, to where the archive ends.
	run -1 ts-validate b.tar
	assert_line "b.tar: error: the archive is truncated: it ends in the middle of the header after member 'SHA256SUMS' [B5]"
	run -1 ts-pack -x b.tar -C u
	assert_equal "$(ls -A u)" ""
	truncate -s 65M z
	/usr/bin/python3 "$mk" z.tar "file:SHA256SUMS=@z"
	run -1 ts-validate z.tar
	assert_line "z.tar:SHA256SUMS: error: it is larger than 64 MiB: no manifest is [A1]"
	rm z z.tar
	printf '%064d  e/\033[2Je.tns\n' 0 >sums
	/usr/bin/python3 "$mk" c.tar "file:SHA256SUMS=@sums"
	run -1 ts-validate c.tar
	assert_line "c.tar:SHA256SUMS:1: error: 'e/\\033[2Je.tns' is listed, but the archive holds no such file [A1]"
	refute_output --partial $'\033'
	assert_equal "$(ls -A u)" ""
}

# =====================================================================
# Libraries loaded at their first use
# =====================================================================

# unloadable NAME: a library of pkg-config's NAME, by its SONAME, that
# cannot be loaded, found first (LD_LIBRARY_PATH).
unloadable() {
	mkdir -p lib
	echo "not a library" >"lib/$("$TS_TOP/scripts/soname.sh" "$1")"
	export LD_LIBRARY_PATH=$PWD/lib
}

@test "hostile: libarchive that cannot be loaded (the tools load it when first needed, link it not): a bundle of plain files is read and written; compressed streams, archives and zips are I/O errors (3) that name it, and nothing is written" {
	local t so
	so=$("$TS_TOP/scripts/soname.sh" libarchive)
	for t in ts-convert ts-gen ts-gen-values ts-pack ts-sort ts-stat ts-validate; do
		run objdump -p "$(command -v "$t")"
		assert_success
		refute_output --partial libarchive
		refute_output --partial libcrypto
	done
	bundle b
	ts-convert -q b b.tns.xz
	ts-pack -q b -o b.tar.zst
	ts-convert -q b b.npz
	unloadable libarchive
	run -0 ts-validate -q b
	run -0 ts-convert -q b c.tns
	run -0 ts-sort -q b -o d.tnsb
	run -3 ts-validate b.tns.xz
	assert_line --regexp "^ts-validate: b\.tns\.xz: cannot decompress: .*: .*lib/$so: "
	run -3 ts-validate b.tar.zst
	assert_line --regexp "^ts-validate: b\.tar\.zst: .*lib/$so: "
	run -3 ts-convert b.npz e.tns
	assert_output --regexp "^ts-convert: b\.npz: reading a zip archive: .*lib/$so: "
	run -3 ts-convert b e.npz
	assert_output --regexp "^ts-convert: e\.npz: .*lib/$so: "
	run -3 ts-convert b e.tns.xz
	run -3 ts-pack -q b -o e.tar.gz
	assert_output --regexp "^ts-pack: e\.tar\.gz: .*lib/$so: "
	only b b.tns.xz b.tar.zst b.npz c.tns d.tnsb lib
}

@test "hostile: libcrypto that cannot be loaded (loaded when a digest is first made): a bundle is validated and converted; what needs SHA-256 (an archive's manifest, packing) is an I/O error (3) that names it, and nothing is written" {
	local so
	so=$("$TS_TOP/scripts/soname.sh" libcrypto)
	bundle b
	ts-pack -q b -o b.tar.zst
	unloadable libcrypto
	run -0 ts-validate -q b
	run -0 ts-convert -q b c.tns.zst
	run -3 ts-validate b.tar.zst
	assert_line --regexp "^ts-validate: b\.tar\.zst: cannot compute the SHA-256 of its members: .*lib/$so: "
	run -3 ts-pack -q b -o e.tar.zst
	assert_output --regexp "^ts-pack: e\.tar\.zst: .*lib/$so: "
	only b b.tar.zst c.tns.zst lib
}
