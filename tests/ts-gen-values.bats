#!/usr/bin/env bats
# ts-gen-values(1): the command line, then the man page in its order: the
# values as a pure function of the coordinates (the same from every copy
# of a tensor, and the same as share/tsgen1.py, the second implementation
# of GENERATOR), the constraints of the metadata, symmetry, block-sparse
# tensors, outputs, streams, exit status.
#
# Each test runs in its own $BATS_TEST_TMPDIR.  One value-less tensor is
# generated once per file (setup_file) with a seeded awk:
#
#   vl    a bundle (text and binary), 1-based, 12000 distinct entries of
#         order 3, 60 x 50 x 40, sorted 1,2,3, no values

bats_require_minimum_version 1.5.0

setup_file() {
	export GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	awk 'BEGIN { srand(9); while (n < 12000) {
	    k = sprintf("%d %d %d", 1 + int(rand() * 60), 1 + int(rand() * 50),
	    1 + int(rand() * 40)); if (!(k in s)) { s[k] = 1; n++; print k } } }' |
	    sort -n -k1,1 -k2,2 -k3,3 >"$GEN/vl.rows"
	# Both files asked for: a value-less import gets only its text file
	# by default.
	PATH="$TS_BIN:$PATH" ts-convert -q --no-values --dims 60,50,40 \
	    --text --binary --index-type uint64 "$GEN/vl.rows" -o "$GEN/vl"
}

setup() {
	load test_helper
	REAL=$DATA/real
	REF=$DATA/reference
	EL=$SHARE/example-element
	BLK=$SHARE/example-block
	T=$GEN/vl
	PY="/usr/bin/python3 $SHARE/tsgen1.py"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# body FILE: the entries of a TensorSuite text file of an element tensor.
body() {
	tail -n +5 "$1"
}

# meta BUNDLE FILTER: the bundle's metadata through a jq filter, compact.
meta() {
	jq -c "$2" "$1/${1##*/}_metadata.json"
}

# valid BUNDLE: ts-validate finds no error and no warning in it.
valid() {
	run ts-validate "$1"
	assert_success
	assert_line "$1: valid (0 errors, 0 warnings)"
}

# zrows BASE: rows of a text stream (header skipped) with their
# coordinates made 0-based from BASE, sorted: what is compared.
zrows() {
	awk -v b="$1" 'NR > 4 { for (k = 1; k < NF; k++) $k -= b; print }' |
	    sort
}

# shuffle: the lines of stdin in a seeded random order.
shuffle() {
	awk 'BEGIN { srand(11) } { printf "%.12f\t%s\n", rand(), $0 }' |
	    sort -k1,1 | cut -f2-
}

# setsym BUNDLE PSYM NSYM: claim pattern and numerical symmetry.
setsym() {
	local m="$1/${1##*/}_metadata.json"
	jq --indent 2 ".pattern_symmetry = \"$2\" |
	    .numerical_symmetry = \"$3\"" "$m" >"$m.t" && mv "$m.t" "$m"
}

# The rows of a pattern closed under every permutation of 3 modes, and
# of one closed under swapping modes 1 and 2 only (6 x 6 x 4).
fullrows() {
	awk 'BEGIN { srand(3); while (n < 25) { a = 1 + int(rand() * 6)
	    b = 1 + int(rand() * 6); c = 1 + int(rand() * 6); n++
	    print a, b, c; print a, c, b; print b, a, c; print b, c, a
	    print c, a, b; print c, b, a } }' | sort -u -n -k1,1 -k2,2 -k3,3
}
partrows() {
	awk 'BEGIN { srand(4); while (n < 40) { a = 1 + int(rand() * 6)
	    b = 1 + int(rand() * 6); c = 1 + int(rand() * 4); n++
	    print a, b, c; print b, a, c } }' | sort -u -n -k1,1 -k2,2 -k3,3
}

# =====================================================================
# Command line
# =====================================================================

@test "ts-gen-values: -h, --help, -V and --version print to stdout and exit 0" {
	local o
	run --separate-stderr ts-gen-values -h
	assert_success
	assert_output --partial "usage: ts-gen-values"
	[ -z "$stderr" ]
	run -0 ts-gen-values --help
	for o in --dist --range --mean --std --value --seed --binary-zeros \
	    --symmetric-modes --value-type --value-domain --explicit-zeros \
	    --replace --expand --blocks-out --jobs --output --to --force \
	    --meta --no-values --quiet --version; do
		assert_output --partial -- "$o"
	done
	run -0 ts-gen-values -V
	assert_output "ts-gen-values (TensorSuite) 0.1.0"
	run -0 ts-gen-values --version
	assert_output "ts-gen-values (TensorSuite) 0.1.0"
}

@test "ts-gen-values: malformed options exit 2 and write nothing" {
	local a
	for a in "--no-such-option" "--dist poisson" "--seed -1" \
	    "--seed 18446744073709551616" "--seed 1x" "--range 1" \
	    "--range a:b" "--range 1:" "--mean x" "--std 1,5" \
	    "--value-domain real" "--explicit-zeros maybe" "--to foo" \
	    "-j 0" "-j 257" "-j 2x" "--symmetric-modes 1" \
	    "--symmetric-modes 1,1" "--symmetric-modes 0,1" \
	    "--symmetric-modes 1,2/" "--symmetric-modes 1,2/2,3" \
	    "--symmetric-modes 1,2/3"; do
		run ts-gen-values $a "$T" -o out
		[ "$status" -eq 2 ] ||
		    { echo "'$a': status $status, not 2"; false; }
	done
	run ts-gen-values "$T" "$T" -o out
	assert_failure 2
	assert_output --partial "usage: ts-gen-values"
	run ts-gen-values --symmetric-modes 1,2/2,3 "$T"
	assert_output --partial "'1,2/2,3'"
	[ -z "$(ls -A)" ]
}

@test "ts-gen-values: '-' twice, as SRC and --meta or as -o and --blocks-out, is a usage error (2)" {
	{ ts-gen-values --meta - - 2>err && echo rc=0 || echo "rc=$?"; cat; } <"$T/vl_metadata.json" >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat "$T/vl_metadata.json")"
	grep -q "^ts-gen-values: '-' (standard input) is given twice; it can be read only once$" err
	run --separate-stderr ts-gen-values --expand --blocks-out - -o - "$BLK"
	assert_failure 2
	assert_equal "$output" ""
	[[ $stderr == *"'-' (standard output) is given twice; it can be written only once"* ]]
}

@test "ts-gen-values: options the metadata does not allow exit 2, naming why, and write nothing" {
	local nn
	nn=$(mkbundle "$T" nn)
	setmeta "$nn" value_domain '"nonnegative"'
	run ts-gen-values --range=-1:1 "$nn" -o out
	assert_failure 2
	assert_output --partial "nonnegative"
	run ts-gen-values --dist constant --value -2 "$nn" -o out
	assert_failure 2
	run ts-gen-values --dist constant --value 0 "$T" -o out
	assert_failure 2
	assert_output --partial "explicit_zeros"
	# 1e-50 is 0 in float32.
	run ts-gen-values --value-type float32 --dist constant --value 1e-50 \
	    "$T" -o out
	assert_failure 2
	assert_output --partial "rounds to"
	run ts-gen-values --value-type float32 --range 0:1e-50 "$T" -o out
	assert_failure 2
	assert_output --partial "no float32 value but 0"
	run ts-gen-values --dist integers --range 0:0 "$T" -o out
	assert_failure 2
	run ts-gen-values --mean 1 "$T" -o out
	assert_failure 2
	assert_output --partial "--dist normal"
	run ts-gen-values --value 3 "$T" -o out
	assert_failure 2
	run ts-gen-values --dist constant --range 1:2 "$T" -o out
	assert_failure 2
	run ts-gen-values --dist normal --std 0 "$T" -o out
	assert_failure 2
	run ts-gen-values --range 2:1 "$T" -o out
	assert_failure 2
	run ts-gen-values --value-type int32 --range 0:3000000000 "$T" -o out
	assert_failure 2
	assert_output --partial "int32"
	run ts-gen-values --value-type int32 --range 0.5:2 "$T" -o out
	assert_failure 2
	run ts-gen-values --value-type int64 --dist constant --value 2.5 \
	    "$T" -o out
	assert_failure 2
	run ts-gen-values --value-domain binary --dist uniform "$T" -o out
	assert_failure 2
	assert_output --partial "binary"
	run ts-gen-values --value-domain binary --binary-zeros 0.5 "$T" -o out
	assert_failure 2
	assert_output --partial "--binary-zeros"
	run ts-gen-values --binary-zeros 0.5 "$T" -o out
	assert_failure 2
	run ts-gen-values --value-domain binary --explicit-zeros allowed \
	    --binary-zeros 1.5 "$T" -o out
	assert_failure 2
	# Modes 1 and 3 differ in size (60 and 40); mode 4 is not there.
	run ts-gen-values --symmetric-modes 1,3 "$T" -o out
	assert_failure 2
	assert_output --partial "different dimensions"
	run ts-gen-values --symmetric-modes 1,4 "$T" -o out
	assert_failure 2
	assert_output --partial "no mode 4"
	[ "$(ls -A)" = nn ]
}

@test "ts-gen-values: an input that holds values, or the wrong kind for --expand and --blocks-out, exits 2" {
	run ts-gen-values "$EL" -o out
	assert_failure 2
	assert_output --partial "holds values already (--replace"
	# A FROSTT file's last column is its value unless --no-values.
	run ts-gen-values "$REAL/KG_JF17K_3_ids_1based.tns" -o out.tns
	assert_failure 2
	assert_output --partial "--no-values"
	run ts-gen-values "$BLK" -o out
	assert_failure 2
	assert_output --partial "--expand"
	run ts-gen-values --expand "$T" -o out
	assert_failure 2
	assert_output --partial "not block-sparse"
	run ts-gen-values --blocks-out b.bin "$T"
	assert_failure 2
	[ -z "$(ls -A)" ]
}

# =====================================================================
# A pure function of the coordinates
# =====================================================================

@test "ts-gen-values: the same values from a file and its shuffled, sorted, binary and 0-based copies, with -j 1 and -j 2" {
	local d j args
	ts-convert -q "$T" --index-base 0 --binary -o z
	ts-sort -q -k 3,1,2 "$T" -o s
	{ head -n 4 "$T/vl.tns"; body "$T/vl.tns" | shuffle; } >sh.tns
	# Uniform floats and integers (made inline), normal numbers (made by
	# threads with -j 2).
	for d in "" "--value-type int32 --seed 99" \
	    "--value-type float32 --dist normal --mean 3 --std 2"; do
		for j in 1 2; do
			args="-q -j $j $d"
			ts-gen-values $args "$T" | zrows 1 >want
			[ "$(wc -l <want)" -eq 12000 ]
			ts-gen-values $args "$T/vl.tnsb" --to tns | zrows 1 |
			    cmp want -
			# To a stream, 1-based whatever the base (P1).
			ts-gen-values $args z --to tns | zrows 1 | cmp want -
			ts-gen-values $args s | zrows 1 | cmp want -
			ts-gen-values $args --meta "$T/vl_metadata.json" - \
			    <sh.tns | zrows 1 | cmp want -
			# The bundle made from the 0-based binary one.
			ts-gen-values $args z -o "zv$j"
			[ "$(jq .index_base "zv$j/zv${j}_metadata.json")" = 0 ]
			ts-convert -q "zv$j" --to tns -o - | zrows 1 | cmp want -
			cp want "want$j"
		done
		cmp want1 want2
		# Another seed makes other values.
		ts-gen-values -q $d --seed 12345 "$T" | zrows 1 >other
		if cmp -s want other; then echo "seed ignored: $d"; false; fi
		rm -r zv1 zv2
	done
}

@test "ts-gen-values: values drawn by the threads that parse (a text file cut in small chunks) are those of one thread" {
	local d j
	ts-gen-values -q "$T" -o v1
	for d in "" "--value-type int32 --seed 99" \
	    "--value-type float32 --dist normal --mean 3 --std 2"; do
		ts-gen-values -q -j 1 $d "$T/vl.tns" --to tns | zrows 1 >want
		for j in 2 3; do
			TS_CHUNK=4096 ts-gen-values -q -j $j $d "$T/vl.tns" \
			    --to tns | zrows 1 | cmp want -
			# Values there already, replaced.
			TS_CHUNK=4096 ts-gen-values -q -j $j --replace $d \
			    v1/v1.tns --to tns | zrows 1 | cmp want -
		done
	done
	# Kept, and refused, whichever thread sees them first.
	TS_CHUNK=4096 run ts-gen-values -j 3 v1/v1.tns -o out
	assert_failure 2
	assert_output --partial "holds values already (--replace"
	[ ! -e out ]
}

@test "ts-gen-values: the values are those of share/tsgen1.py, the GENERATOR of the man page" {
	local a n=0
	# 40 x 40 x 40, so that modes can be symmetric.
	body "$T/vl.tns" | head -n 1500 |
	    awk '{ print $1 % 40 + 1, $2 % 40 + 1, $3 }' | sort -u >rows
	ts-convert -q --no-values --dims 40,40,40 rows -o c
	while read -r a; do
		ts-gen-values -q $a c | body /dev/stdin >tool
		$PY $a <rows >py
		cmp tool py || { echo "differ: $a"; diff tool py | head; false; }
		n=$((n + 1))
	done <<-'EOF'
		--seed 0
		--seed 18446744073709551615
		--value-type float32
		--dist normal
		--dist normal --mean 3 --std 0.5 --value-type float32
		--dist normal --range=-1:1 --std 3
		--dist normal --value-domain nonnegative
		--value-domain nonnegative
		--value-type int32
		--value-type int32 --dist uniform --range=-3:3
		--value-type int64 --dist normal --std 1000
		--value-type int32 --dist normal --std 0.2
		--value-type int64 --dist integers --range=-9223372036854775808:9223372036854775807
		--dist integers --range=-5:5
		--dist integers --range=-5:5 --explicit-zeros allowed
		--dist integers --range=-5:5 --value-type float32
		--dist integers --range -5:5
		--dist normal --mean -1e3 --std 10 --range -2e3:0
		--value-type float32 --dist normal --std 1e300
		--value-type float32 --dist normal --mean -3e38 --std 1e38
		--value-type float32 --range 0:1e-44
		--dist constant --value 2.5
		--dist constant --value 0.1 --value-type float32
		--value-domain binary
		--value-domain binary --explicit-zeros allowed --binary-zeros 0.3
		--symmetric-modes 1,2 --seed 5
		--symmetric-modes 3,1 --dist normal
		--symmetric-modes 1,2,3 --value-type int32
	EOF
	[ "$n" -eq 28 ]
	# numerical_symmetry full is all modes one group.
	$PY --symmetric-modes 1,2,3 --seed 3 <rows >py
	setmeta c numerical_symmetry '"full"'
	setmeta c pattern_symmetry '"full"'
	ts-gen-values -q --seed 3 c | body /dev/stdin | cmp py -
	# Symmetric values are not the others.
	$PY --seed 3 <rows >plain
	if cmp -s py plain; then echo "not symmetric: the same"; false; fi
}

# =====================================================================
# The constraints of the metadata
# =====================================================================

@test "ts-gen-values: int32 and int64 values are integers in range; the whole int32 range is usable" {
	run -0 ts-gen-values -q --value-type int32 \
	    --range=-2147483648:2147483647 "$T" -o i32
	valid i32
	run meta i32 '[.values_provided, .value_type]'
	assert_output '[true,"int32"]'
	body i32/i32.tns | awk '$4 !~ /^-?[0-9]+$/ || $4 < -2147483648 ||
	    $4 > 2147483647 { bad++ } $4 < -1e9 { lo++ } $4 > 1e9 { hi++ }
	    END { exit !(bad == 0 && lo > 1000 && hi > 1000) }'
	# A normal of int64 clipped to a small range reaches both ends.
	ts-gen-values -q --value-type int64 --dist normal --std 100 \
	    --range=-3:3 "$T" -o i64
	valid i64
	[ "$(body i64/i64.tns | cut -d' ' -f4 | sort -un | tr '\n' ' ')" = \
	    "-3 -2 -1 1 2 3 " ]
}

@test "ts-gen-values: an integer --value or --range out of the range of its type says so, in any notation" {
	local t v
	for t in int32 int64; do
		for v in 1e20 -1e20 inf -inf 99999999999999999999; do
			run ts-gen-values --value-type $t --dist constant --value "$v" "$T" -o out
			assert_failure 2
			assert_output --partial "is out of the range of $t"
			refute_output --partial "values are integers"
			refute_output --partial "beyond int64"
			run ts-gen-values --value-type $t --range "0:$v" "$T" -o out
			assert_failure 2
			assert_output --partial "is out of the range of $t"
		done
	done
	run ts-gen-values --value-type int32 --dist constant --value 3000000000 "$T" -o out
	assert_failure 2
	assert_output --partial "--value: 3000000000 is out of the range of int32 (-2147483648 to 2147483647)"
	run ts-gen-values --value-type int32 --dist constant --value 1e20 "$T" -o out
	assert_output --partial "--value: 1e+20 is out of the range of int32 (-2147483648 to 2147483647)"
	run ts-gen-values --value-type int32 --range 0:3000000000 "$T" -o out
	assert_output --partial "--range: 3000000000 is out of the range of int32 (-2147483648 to 2147483647)"
	# Not an integer: said so.
	for v in 2.5 nan; do
		run ts-gen-values --value-type int64 --dist constant --value "$v" "$T" -o out
		assert_failure 2
		assert_output --partial "is not an integer, and int64 values are integers"
	done
	# An integer written as 1e3 or 7.0 is the integer.
	run -0 ts-gen-values -q --value-type int32 --dist constant --value 1e3 "$T" -o - --to tns
	[ "$(tail -n +5 <<<"$output" | cut -d' ' -f4 | sort -u)" = 1000 ]
	run -0 ts-gen-values -q --value-type int64 --range 7.0:7e0 --dist integers "$T" -o - --to tns
	[ "$(tail -n +5 <<<"$output" | cut -d' ' -f4 | sort -u)" = 7 ]
	[ ! -e out ]
}

@test "ts-gen-values: float32 values are float32 numbers, written shortest" {
	ts-gen-values -q --value-type float32 --dist normal --std 1e30 "$T" \
	    -o f
	valid f
	# Each text is the shortest that reads back (as float32) to the
	# value of the binary file.
	ts-gen-values -q --value-type float32 --dist normal --std 1e30 "$T" \
	    --to tnsb -o f.tnsb
	[ $(($(stat -c %s f.tnsb) - $(head -n 4 f.tnsb | wc -c))) -eq \
	    $((12000 * (3 * 8 + 4))) ]
	body f/f.tns | cut -d' ' -f4 | /usr/bin/python3 -c '
import struct, sys
data = open(sys.argv[1], "rb").read().split(b"\n", 4)[4]
bits = [data[i + 24:i + 28] for i in range(0, len(data), 28)]
n = 0
for s, b in zip(sys.stdin, bits):
    s = s.strip()
    f = struct.unpack("<f", b)[0]
    assert struct.pack("<f", float(s)) == b, s
    m, e = s.split("e") if "e" in s else (s, "0")
    digits = len(m.lstrip("-").replace(".", "").strip("0"))
    for p in range(1, digits):
        assert struct.pack("<f", float("%.*e" % (p - 1, f))) != b, s
    n += 1
assert n == len(bits) == 12000
' f.tnsb
}

@test "ts-gen-values: no value is 0 when explicit zeros are disallowed, even after rounding" {
	local a
	for a in "--dist integers --range=-1:1" \
	    "--value-type int32 --dist normal --std 0.1" \
	    "--value-type int64 --dist uniform --range=-1:1" \
	    "--value-type float32 --range 0:1e-44" \
	    "--value-type float32 --dist normal --std 1e-46" \
	    "--value-domain nonnegative --dist normal --mean -1"; do
		rm -rf z
		ts-gen-values -q $a "$T" -o z
		valid z
		run meta z '.explicit_zeros'
		assert_output '"disallowed"'
		body z/z.tns | awk '$4 + 0 == 0 { print; bad = 1 }
		    END { exit bad }'
	done
	# Only -1 and 1 remain of -1:1.
	[ "$(body z/z.tns | head -0; ts-gen-values -q --dist integers \
	    --range=-1:1 "$T" | body /dev/stdin | cut -d' ' -f4 | sort -u |
	    tr '\n' ' ')" = "-1 1 " ]
	# With zeros allowed, 0 comes, and the metadata says so.
	ts-gen-values -q --explicit-zeros allowed --dist integers --range=-1:1 \
	    "$T" -o za
	valid za
	run meta za '.explicit_zeros'
	assert_output '"allowed"'
	body za/za.tns | awk '$4 == 0 { z++ } END { exit !(z > 1000) }'
}

@test "ts-gen-values: the binary domain gets 1, or 0 and 1 with --binary-zeros; nonnegative gets no negative" {
	ts-gen-values -q --value-domain binary "$T" -o b1
	valid b1
	[ "$(body b1/b1.tns | cut -d' ' -f4 | sort -u)" = 1 ]
	ts-gen-values -q --value-domain binary --explicit-zeros allowed \
	    --binary-zeros 0.25 --value-type int32 "$T" -o b2
	valid b2
	run meta b2 '[.value_domain, .value_type, .explicit_zeros]'
	assert_output '["binary","int32","allowed"]'
	body b2/b2.tns | awk '$4 == 0 { z++ } $4 != 0 && $4 != 1 { bad++ }
	    END { exit !(bad == 0 && z > 2700 && z < 3300) }'
	ts-gen-values -q --value-domain nonnegative --dist normal "$T" -o nn
	valid nn
	body nn/nn.tns | awk '$4 < 0 { bad++ } END { exit bad }'
}

# =====================================================================
# Symmetry
# =====================================================================

@test "ts-gen-values: numerical_symmetry full gets equal values for every permutation, and validates" {
	fullrows >rows
	ts-convert -q --no-values --dims 6,6,6 rows -o f
	run meta f '.pattern_symmetry'
	assert_output '"full"'
	setsym f full full
	ts-gen-values -q --dist normal f -o v
	valid v
	# Every entry's value is that of its sorted coordinates.
	body v/v.tns | awk '{ a[0] = $1; a[1] = $2; a[2] = $3
	    for (i = 0; i < 3; i++) for (j = i + 1; j < 3; j++)
	        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	    k = a[0] " " a[1] " " a[2]
	    if (k in v && v[k] != $4) bad = 1; v[k] = $4 }
	    END { exit bad }'
	# Without the claim the values differ between mirrors, and the
	# validator would see it.
	setsym f full no
	ts-gen-values -q f -o n
	setmeta n numerical_symmetry '"full"'
	run ts-validate n
	assert_failure 1
	assert_output --partial "[S8]"
}

@test "ts-gen-values: numerical_symmetry partial: modes from the pattern or --symmetric-modes, and validates" {
	partrows >rows
	ts-convert -q --no-values --dims 6,6,4 rows -o p
	run meta p '.pattern_symmetry'
	assert_output '"partial"'
	setsym p partial partial
	run -0 ts-gen-values p -o v1
	valid v1
	grep -q 'symmetric modes.*: 1,2 (found from the pattern)' v1/README.md
	ts-gen-values -q --symmetric-modes 1,2 p -o v2
	valid v2
	grep -q '1,2 (--symmetric-modes)' v2/README.md
	diff <(body v1/v1.tns) <(body v2/v2.tns)
	# A fully symmetric pattern: one pair only, so not full.
	fullrows >frows
	ts-convert -q --no-values --dims 6,6,6 frows -o f
	setsym f full partial
	ts-gen-values -q f -o v3
	valid v3
	grep -q '1,2 (the first pair of a fully symmetric pattern)' \
	    v3/README.md
	# ... which constant values cannot be (exit 1, S8).
	run ts-gen-values --dist constant f -o v4
	assert_failure 1
	assert_output --partial "[S8]"
	# A pattern that no swap keeps is refused (exit 1, S7).
	ts-convert -q --no-values --dims 6,6,6 <(printf '1 2 3\n4 5 6\n') \
	    -o n
	setsym n partial partial
	run ts-gen-values n -o v5
	assert_failure 1
	assert_output --partial "[S7]"
	[ ! -e v4 ] && [ ! -e v5 ]
}

@test "ts-gen-values: every symmetry claim and --symmetric-modes give values that validate, or are refused (1) with nothing written" {
	# Swappable in modes 1 and 2 only, 6 x 6 x 6.
	awk 'BEGIN { srand(4); while (n < 40) { a = 1 + int(rand() * 6)
	    b = 1 + int(rand() * 6); c = 1 + int(rand() * 6); n++
	    print a, b, c; print b, a, c } }' | sort -u -n -k1,1 -k2,2 -k3,3 >rows
	ts-convert -q --no-values --dims 6,6,6 rows -o p
	setsym p partial partial
	run ts-gen-values --symmetric-modes 2,3 p -o v1
	assert_failure 1
	assert_output --partial "[S8]"
	assert_output --partial "2,3"
	run -0 ts-gen-values -q --symmetric-modes 1,2 p -o v2
	valid v2
	# A group of three holds the swappable pair: partial, valid.
	run -0 ts-gen-values -q --symmetric-modes 1,2,3 p -o v3
	valid v3
	# A fully symmetric pattern: values symmetric in every mode are
	# 'full', and so are constant ones.
	fullrows >frows
	ts-convert -q --no-values --dims 6,6,6 frows -o f
	setsym f full partial
	run ts-gen-values --symmetric-modes 1,2,3 f -o v4
	assert_failure 1
	assert_output --partial "[S8]"
	run ts-gen-values --symmetric-modes 1,2 --dist constant f -o v5
	assert_failure 1
	assert_output --partial "[S8]"
	run ts-gen-values --symmetric-modes 2,3 --value-domain binary f -o v6
	assert_failure 1
	assert_output --partial "[S8]"
	run -0 ts-gen-values -q --symmetric-modes 2,3 f -o v7
	valid v7
	# Entries on the diagonal only: any values are fully symmetric.
	ts-convert -q --no-values --dims 6,6,6 <(printf '1 1 1\n4 4 4\n') -o d
	setsym d full partial
	run ts-gen-values d -o v8
	assert_failure 1
	assert_output --partial "[S8]"
	run ts-gen-values --symmetric-modes 1,2 d -o v9
	assert_failure 1
	assert_output --partial "[S8]"
	[ ! -e v1 ] && [ ! -e v4 ] && [ ! -e v5 ] && [ ! -e v6 ] &&
	    [ ! -e v8 ] && [ ! -e v9 ]
	# 'no' claims nothing: any groups will do.
	setsym p partial no
	run -0 ts-gen-values -q --symmetric-modes 2,3 p -o v10
	valid v10
	# An empty pattern holds every claim, with or without groups.
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: e\n3 6 6 6 0\n' >e.tns
	ts-convert -q --no-values e.tns -o e
	local ps ns
	for ps in full partial; do
		for ns in "$ps" no; do
			setsym e "$ps" "$ns"
			rm -rf ve
			run -0 ts-gen-values -q e -o ve
			valid ve
		done
	done
	setsym e partial partial
	rm -rf ve
	run -0 ts-gen-values -q --symmetric-modes 2,3 e -o ve
	valid ve
}

@test "ts-gen-values: values made symmetric where no symmetry was claimed get the numerical_symmetry they hold (issue 30, point 8)" {
	ts-convert -q "$DATA/mtx/karate.mtx" -o k
	run -0 ts-gen-values -q --symmetric-modes 1,2 k -o k2
	run meta k2 '[.pattern_symmetry, .numerical_symmetry]'
	assert_output '["full","full"]'
	valid k2
	# Without the option: 'no', and a note says why, once.
	run -0 --separate-stderr ts-gen-values k -o k3
	assert_equal "$stderr" "k: note: the pattern is fully symmetric, the values will not be: numerical_symmetry stays 'no' (--symmetric-modes 1,2 gives mirrored entries equal values) [S8]"
	run meta k3 '.numerical_symmetry'
	assert_output '"no"'
	# Order 3, fully symmetric pattern: a pair is partial, all three
	# (or constant values) full.
	fullrows >frows
	ts-convert -q --no-values --dims 6,6,6 frows -o f
	setsym f full no
	local g want
	for g in "1,2 partial" "2,3 partial" "1,2,3 full" "1,3 full --dist constant"; do
		want=${g#* }
		want=${want%% *}
		rm -rf v
		# shellcheck disable=SC2086
		run -0 ts-gen-values -q --symmetric-modes ${g%% *} ${g#* $want} f -o v
		run meta v '.numerical_symmetry'
		assert_output "\"$want\""
		valid v
	done
	# A partially symmetric pattern (modes 1 and 2 of 6 x 6 x 6): the
	# group that can be swapped gives 'partial'; one that cannot, 'no'.
	awk 'BEGIN { srand(4); while (n < 40) { a = 1 + int(rand() * 6)
	    b = 1 + int(rand() * 6); c = 1 + int(rand() * 6); n++
	    print a, b, c; print b, a, c } }' | sort -u -n -k1,1 -k2,2 -k3,3 >rows
	ts-convert -q --no-values --dims 6,6,6 rows -o p
	setsym p partial no
	for g in "1,2 partial" "2,3 no" "1,2,3 partial"; do
		rm -rf v
		run -0 ts-gen-values -q --symmetric-modes ${g%% *} p -o v
		run meta v '.numerical_symmetry'
		assert_output "\"${g#* }\""
		valid v
	done
}

# =====================================================================
# Block-sparse tensors
# =====================================================================

@test "ts-gen-values: every value-less bundle in share/ and the reference set gets values and validates" {
	local b n=0 name
	for b in "$SHARE"/example-* "$REF"/*/ "$REF"/legacy/*/; do
		b=${b%/}
		name=${b##*/}
		[ -f "$b/${name}_metadata.json" ] || continue
		[ "$(meta "$b" .values_provided)" = false ] || continue
		if [ "$(meta "$b" .sparsity_type)" = '"block"' ]; then
			run -0 ts-gen-values -q --expand "$b" -o "v-$name"
		else
			run -0 ts-gen-values -q "$b" -o "v-$name"
		fi
		valid "v-$name"
		run meta "v-$name" '[.values_provided, .nnz == '"$(meta "$b" .nnz)"']'
		assert_output '[true,true]'
		n=$((n + 1))
	done
	# example-block, demo_A, demo_B
	[ "$n" -eq 3 ]
}

@test "ts-gen-values: blocks that do not hold nnz elements (K3) are refused (exit 1), naming the real bound, writing nothing" {
	local b
	for b in k o; do
		mkdir "$b"
		jq --indent 2 ".name = \"$b\"" "$BLK/example-block_metadata.json" \
		    >"$b/${b}_metadata.json"
		: >"$b/README.md"
	done
	# 12 elements, nnz 13.
	jq --indent 2 '.nnz = 13 | .files = { text: "k.tns", readme: "README.md" }' \
	    k/k_metadata.json >m && mv m k/k_metadata.json
	sed '3s/.*/% name: k/; 4s/.*/2 6 4 13/' "$BLK/example-block.tns" >k/k.tns
	# One block of 2^32 x 2^32 elements.
	jq --indent 2 '.nnz = 1 | .nnz_block = 1 | .block_partitions = [2, 2] |
	    .dimensions = [8589934592, 8589934592] |
	    .files = { text: "o.tns", readme: "README.md" }' \
	    o/o_metadata.json >m && mv m o/o_metadata.json
	printf '%s\n' '%%TensorSuite-TNS' '% version: 0.1' '% name: o' \
	    '2 8589934592 8589934592 1' '2 2 1' '4294967296 4294967296' \
	    '4294967296 4294967296' '1 1' >o/o.tns
	run ts-gen-values --expand k -o k1
	assert_failure 1
	assert_output --partial "[K3]"
	run ts-gen-values --blocks-out k2.bin k
	assert_failure 1
	assert_output --partial "the non-zero blocks hold 12 elements; 'nnz' is 13 [K3]"
	run ts-gen-values --expand o -o o1
	assert_failure 1
	assert_output --partial "more than 18446744073709551615 (2^64 - 1) elements"
	refute_output --partial "hold 18446744073709551615"
	run ts-gen-values --blocks-out o2.bin o
	assert_failure 1
	assert_output --partial "more than 18446744073709551615 (2^64 - 1) elements"
	[ ! -e k1 ] && [ ! -e k2.bin ] && [ ! -e o1 ] && [ ! -e o2.bin ]
}

@test "ts-gen-values: --expand writes every element of the blocks, sorted as the blocks were, whatever their order" {
	ts-gen-values -q --expand "$REF/demo_A" -o a
	valid a
	run meta a '[.sparsity_type, .nnz, .block_partitions, .nnz_block, .sort_order]'
	assert_output '["element",120384,null,null,[1,2,3]]'
	body a/a.tns | sort -c -n -k1,1 -k2,2 -k3,3
	body a/a.tns | sort >want
	# Blocks sorted in another priority: elements in that one.
	ts-sort -q -k 3,1,2 "$REF/demo_A" -o s
	ts-gen-values -q --expand s -o as
	valid as
	run meta as '.sort_order'
	assert_output '[3,1,2]'
	body as/as.tns | sort -c -s -n -k3,3 -k1,1 -k2,2
	body as/as.tns | sort | cmp want -
	# Blocks in no order: block by block, the same elements and values.
	u=$(mkbundle "$REF/demo_A" u)
	{ head -n 8 "$u/u.tns"; tail -n +9 "$u/u.tns" | shuffle; } >x
	mv x "$u/u.tns"
	setmeta "$u" sorted '"none"'
	setmeta "$u" sort_order '[]'
	valid u
	ts-gen-values -q --expand u -o au
	valid au
	body au/au.tns | sort | cmp want -
	# Blocks out of the order the metadata claims: exit 1 (S2).
	setmeta "$u" sorted '"lexicographic"'
	setmeta "$u" sort_order '[1,2,3]'
	run ts-gen-values --expand u -o bad
	assert_failure 1
	assert_output --partial "[S2]"
	[ ! -e bad ]
}

@test "ts-gen-values: --blocks-out holds nnz values, block by block, first mode fastest, the values of --expand" {
	local t
	ts-gen-values -q --expand "$REF/demo_B" --blocks-out b.bin -o e
	valid e
	[ "$(stat -c %s b.bin)" -eq $((120384 * 8)) ]
	# Every value of the dense file is that of its element in e.
	/usr/bin/python3 - "$REF/demo_B/demo_B.tns" b.bin e/e.tns <<-'EOF'
	import itertools, struct, sys
	blk, dense, el = sys.argv[1:]
	lines = open(blk).read().split("\n")
	order = int(lines[3].split()[0])
	ext = [list(map(int, lines[5 + k].split())) for k in range(order)]
	start = [[sum(e[:i]) for i in range(len(e))] for e in ext]
	rows = [list(map(int, l.split())) for l in lines[5 + order:] if l]
	want = {}
	for l in open(el).read().split("\n")[4:]:
	    if l:
	        f = l.split()
	        want[tuple(map(int, f[:order]))] = float(f[order])
	data = open(dense, "rb").read()
	vals = struct.unpack("<%dd" % (len(data) // 8), data)
	i = 0
	for b in rows:
	    # first mode fastest: itertools varies the last fastest
	    rng = [range(ext[k][b[k]]) for k in reversed(range(order))]
	    for x in itertools.product(*rng):
	        c = tuple(start[k][b[k]] + x[order - 1 - k] for k in range(order))
	        assert vals[i] == want[c], (c, vals[i], want[c])
	        i += 1
	assert i == len(vals) == len(want)
	EOF
	# Other value types: their size, little-endian.
	for t in float32:4 int32:4 int64:8; do
		ts-gen-values --value-type "${t%:*}" "$BLK" --blocks-out "b-$t"
		[ "$(stat -c %s "b-$t")" -eq $((12 * ${t#*:})) ]
	done
	ts-gen-values -q --value-type int32 --expand "$BLK" | body /dev/stdin |
	    awk '$1 == 2 && $2 == 1 { print $3 }' >v10
	[ "$(od -A n -t d4 -j 4 -N 4 b-int32:4 | tr -d ' ')" = "$(cat v10)" ]
	# Alone, nothing else is written; an existing file needs -f.
	[ "$(ls -A | sort | tr '\n' ' ')" = "b-float32:4 b-int32:4 b-int64:8 b.bin e v10 " ]
	run ts-gen-values "$BLK" --blocks-out b.bin
	assert_failure 2
	assert_output --partial "exists (-f replaces it)"
	run -0 ts-gen-values -f "$BLK" --blocks-out b.bin
	[ "$(stat -c %s b.bin)" -eq 96 ]
	# With -o but not --expand, or partial symmetry to find: exit 2.
	run ts-gen-values "$BLK" --blocks-out c.bin -o x
	assert_failure 2
	[ ! -e c.bin ] && [ ! -e x ]
}

# =====================================================================
# Output
# =====================================================================

@test "ts-gen-values: a bundle keeps its files, order and other files; its README says how the values were made" {
	local r
	r=$(mkbundle "$REF/random_tiny" r)
	# Make it value-less: the rows lose their values.
	ts-convert -q "$r" -o - --to tns --index-base 0 2>/dev/null |
	    awk 'NR <= 4 { print; next }
	    { NF = 3; print }' >r.tns
	ts-convert -q --meta "$r/r_metadata.json" --no-values r.tns -o x.tnsb \
	    2>/dev/null || true
	cp r.tns "$r/r.tns"
	rm "$r/r.tnsb"
	jq --indent 2 '.values_provided = false | .value_domain = "general" |
	    .endianness = "none" | del(.files.binary)' "$r/r_metadata.json" \
	    >m && mv m "$r/r_metadata.json"
	valid r
	run -0 ts-gen-values --seed 31 --dist normal --std 2 r -o v
	valid v
	[ -f v/config.yaml ] && [ ! -e v/v.tnsb ] && [ -f v/v.tns ]
	run meta v '[.values_provided, .sorted, .sort_order, .duplicates, .files.config]'
	assert_output '[true,"lexicographic",[1,2,3],"allowed","config.yaml"]'
	grep -q '^## README of the source bundle' v/README.md
	grep -q '^## Values' v/README.md
	grep -q -- '- seed: 31' v/README.md
	grep -q -- '- distribution: normal, mean 0, standard deviation 2' \
	    v/README.md
	grep -q -- '--seed 31 --dist normal --std 2 r -o v' v/README.md
	# The command of the README makes the same values again.
	ts-gen-values -q --seed 31 --dist normal --std 2 r -o w
	diff <(body v/v.tns) <(body w/w.tns)
	# Both data files when the input has both; --value-type changes the
	# type of both.
	ts-gen-values -q --value-type int64 "$T" -o both
	valid both
	[ -f both/both.tns ] && [ -f both/both.tnsb ]
	run meta both '[.value_type, .endianness]'
	assert_output '["int64","little"]'
}

@test "ts-gen-values: --replace gives a bundle with values new ones" {
	run -0 ts-gen-values --replace --value-type int32 --range 1:9 "$EL" -o r
	valid r
	run meta r '[.value_type, .values_provided]'
	assert_output '["int32",true]'
	body r/r.tns | awk '$4 < 1 || $4 > 9 || $4 != int($4) { exit 1 }'
	[ "$(body r/r.tns | cut -d' ' -f1-3)" = \
	    "$(body "$EL/example-element.tns" | cut -d' ' -f1-3)" ]
}

@test "ts-gen-values: --replace leaves ts-stat's Statistics section of the old values, and its links to pictures, out of the new README, and its pictures out of the bundle, and says so" {
	cp -r "$EL" .
	chmod -R u+w example-element
	ts-stat -q --readme --plot example-element >/dev/null
	grep -q '^| values | 6: min -1.25, max 1e+16' example-element/README.md
	[ -f example-element/pictures/example-element_values.png ]
	run -0 --separate-stderr ts-gen-values --replace --range 1:9 example-element -o r
	[[ "$stderr" == *"r/README.md: note: the Statistics section ts-stat wrote of the entries before this rewrite is left out, with its links to pictures: 'ts-stat --readme' writes it anew"* ]]
	[[ "$stderr" == *"r/pictures: note: the pictures ts-stat drew of the entries before this rewrite are left out: 'ts-stat --plot' draws them anew"* ]]
	[ ! -e r/pictures ]
	run -1 grep -q -e '^## Statistics' -e '^!\[' -e 'max 1e+16' r/README.md
	grep -q '^## README of the source bundle' r/README.md
	grep -q '^## Values' r/README.md
	valid r
}

# =====================================================================
# Streams and pipes
# =====================================================================

@test "ts-gen-values: a filter between ts-convert and ts-sort; binary stays binary" {
	ts-convert "$REAL/KG_JF17K_3_ids_1based.tns" --no-values -q --to tns \
	    -o - | ts-gen-values -q - -o - | ts-sort -q -k 2,1,3,4 - -o kg
	valid kg
	run meta kg '[.values_provided, .nnz, .sort_order]'
	assert_output '[true,34544,[2,1,3,4]]'
	# Binary in, binary out, with --meta.
	ts-gen-values -q "$T/vl.tnsb" --meta "$T/vl_metadata.json" -o - >o.tnsb
	head -n 1 o.tnsb | grep -qx '%%TensorSuite-TNSB'
	# A bare binary stream needs its layout.
	run ts-gen-values - <"$T/vl.tnsb"
	assert_failure 2
	assert_output --partial "--input-index-type"
	ts-gen-values -q --input-index-type uint64 --input-endian little \
	    --input-base 1 --no-values - <"$T/vl.tnsb" | cmp o.tnsb -
	# A compressed file read without metadata is decompressed twice,
	# never copied to $TMPDIR.
	zstd -q -c "$GEN/vl.rows" >rows.tns.zst
	TMPDIR=$PWD/none ts-gen-values --no-values rows.tns.zst -o - >z.tns 2>err
	[ "$(tail -n +5 z.tns | wc -l)" -eq 12000 ]
	! grep -q temporary err
}

@test "ts-gen-values: an archive as SRC (--member picks one) and DST NAME.tar.zst; every output kind of ts-convert" {
	ts-pack -q -o two.tar.zst "$T" "$BLK"
	run ts-gen-values -q --expand two.tar.zst -o out
	assert_failure 2
	assert_output --partial "--member"
	[ ! -e out ]
	ts-gen-values -q --member vl two.tar.zst -o vl.tar.zst
	run -0 ts-validate vl.tar.zst
	# An archive on standard input, told by its first bytes.
	ts-pack -q -o one.tar.gz "$T"
	ts-gen-values -q - -o piped.tns <one.tar.gz
	ts-gen-values -q "$T" -o direct.tns
	diff <(tail -n +4 piped.tns) <(tail -n +4 direct.tns)
	# The same values as from the directory.
	ts-gen-values -q "$T" -o dir.tns
	ts-convert -q vl.tar.zst -o arc.tns
	diff <(tail -n +4 dir.tns) <(tail -n +4 arc.tns)
	# Matrix Market, FROSTT and compressed text, as ts-convert writes them.
	ts-gen-values -q --expand "$BLK" -o blk.mtx
	head -n 1 blk.mtx | grep -q '^%%MatrixMarket matrix coordinate real general'
	ts-gen-values -q --expand "$BLK" --to frostt -o - >blk.frostt
	[ "$(wc -l <blk.frostt)" -eq "$(meta "$BLK" .nnz)" ]
	ts-gen-values -q "$T" -o vl.tns.zst
	zstd -dc vl.tns.zst | cmp - dir.tns
	run ts-gen-values -q "$T" -o vl.txt
	assert_failure 2
	assert_output --partial "cannot tell the kind of output"
	[ ! -e vl.txt ]
}

# =====================================================================
# Exit status
# =====================================================================

@test "ts-gen-values: a malformed or missing input exits 1 or 3 and writes nothing; an existing DST needs -f" {
	run ts-gen-values no-such -o out
	assert_failure 3
	printf '1 2 3\n2 x 1\n' >bad.tns
	run ts-gen-values -q --no-values bad.tns -o out
	assert_failure 1
	# A coordinate beyond its dimension (S1).
	cp "$T/vl_metadata.json" oob_metadata.json
	sed '5s/^[0-9]* /61 /' "$T/vl.tns" >oob.tns
	run ts-gen-values -q oob.tns -o out
	assert_failure 1
	assert_output --partial "[S1]"
	[ ! -e out ]
	# A directory that is not a bundle is never replaced; an empty one
	# holds nothing to lose.
	mkdir out
	touch out/keep
	run ts-gen-values -q "$T" -o out
	assert_failure 2
	assert_output --partial "not a bundle"
	rm out/keep
	ts-gen-values -q "$T" -o out
	run ts-gen-values -q "$T" -o out
	assert_failure 2
	assert_output --partial "exists"
	run -0 ts-gen-values -q -f --seed 1 "$T" -o out
	valid out
}

@test "ts-gen-values: a full output device or standard output is an I/O error (exit 3)" {
	run ts-gen-values -q "$T" -o /dev/full --to tns
	assert_failure 3
	run bash -c "ts-gen-values -q '$T' >/dev/full"
	assert_failure 3
	run ts-gen-values -q "$BLK" --blocks-out /dev/full
	assert_failure 3
	run bash -c "ts-gen-values -q '$T' | head -c 10 >/dev/null"
	assert_success
}

@test "ts-gen-values: a DST that is a symbolic link is written through, the link kept" {
	mkdir store
	ts-gen-values -q --seed 1 "$T" -o store/v
	ln -s store/v v
	run ts-gen-values -q -f --seed 2 "$T" -o v
	assert_success
	[ -L v ]
	[ "$(readlink v)" = store/v ]
	valid store/v
	run jq -r '.id' store/v/v_metadata.json
	assert_success
	[ "$(ls -A store)" = v ]
}
