#!/usr/bin/env bats
# ts-sort(1): the command line, then the man page in its order: the sort
# key and its stability, duplicates, outputs and their metadata, block
# bundles, sorting in place, memory (runs spilled and merged) and
# threads, streams, exit status.
#
# Each test runs in its own $BATS_TEST_TMPDIR, so that "nothing left
# behind" is `ls -A` of that directory.  Orders are checked against GNU
# sort(1) (-s: stable, -n: numeric) on the same rows, multisets against
# `sort` of the rows before and after.  Large inputs are generated once
# per file (setup_file) with a seeded awk:
#
#   big.tns   900000 FROSTT rows, order 3, 500 x 400 x 300, "%.6f" values,
#             a few thousand repeated coordinates: at -S 1M, more runs
#             than one merge can take (merged in two levels)
#   dups.tns  300000 rows over 50 x 40 x 30 positions: every coordinate
#             repeats, about five times; at -S 1M, more than ten runs
#   big.sorted  big.tns through GNU sort -s -n -k1,1 -k2,2 -k3,3

bats_require_minimum_version 1.5.0

setup_file() {
	export GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	awk 'BEGIN { srand(42); for (i = 0; i < 900000; i++)
	    printf "%d %d %d %.6f\n", 1 + int(rand() * 500),
	    1 + int(rand() * 400), 1 + int(rand() * 300), rand() * 10 - 5 }' \
	    >"$GEN/big.tns"
	awk 'BEGIN { srand(7); for (i = 0; i < 300000; i++)
	    printf "%d %d %d %.3f\n", 1 + int(rand() * 50),
	    1 + int(rand() * 40), 1 + int(rand() * 30), rand() * 10 - 5 }' \
	    >"$GEN/dups.tns"
	LC_ALL=C sort -s -n -k1,1 -k2,2 -k3,3 "$GEN/big.tns" >"$GEN/big.sorted"
}

setup() {
	load test_helper
	REAL=$DATA/real
	EL=$SHARE/example-element
	BIG=$GEN/big.tns
	BIGSORTED=$GEN/big.sorted
	DUPS=$GEN/dups.tns
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# body FILE: the entries of a TensorSuite text file of an element tensor
# (what follows its four header lines).
body() {
	tail -n +5 "$1"
}

# meta BUNDLE FILTER: the bundle's metadata through a jq filter, compact.
meta() {
	jq -c "$2" "$1/${1##*/}_metadata.json"
}

# valid BUNDLE: ts-validate finds no error and no warning in it (notes,
# such as the one on binary files without values, do not count).
valid() {
	run ts-validate "$1"
	assert_success
	assert_line "$1: valid (0 errors, 0 warnings)"
}

# only NAME...: the working directory holds exactly these names (and the
# files bats keeps for `run --separate-stderr`), so that a refused sort
# left neither its output nor a temporary behind.
only() {
	local want=
	if [ $# -gt 0 ]; then
		want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	fi
	assert_equal "$(ls -A | grep -v '^separate-stderr-' | sort |
	    tr '\n' ' ')" "$want"
}

# snap DIR: the inodes, names and checksums of DIR and everything in it;
# equal before and after means nothing was touched or replaced.
snap() {
	(cd "$1" && ls -id . && find . -mindepth 1 -exec ls -id {} + | sort -k2 &&
	    find . -type f -exec md5sum {} + | sort -k2)
}

# shuffle: the lines of stdin in a seeded random order.
shuffle() {
	awk 'BEGIN { srand(11) } { printf "%.12f\t%s\n", rand(), $0 }' |
	    sort -k1,1 | cut -f2-
}

# The rows of a small tensor with repeated coordinates of different
# values, in the order given; a 3 x 3 bundle of it is made by dupbundle.
dup_rows='2 1 1.5
1 2 4
2 1 -1.5
1 1 7
1 2 0.25
2 1 2'

# dupbundle NAME: the bundle NAME (text and binary) of $dup_rows.
dupbundle() {
	printf '%s\n' "$dup_rows" >"$1.in"
	ts-convert -q --dims 3,3 "$1.in" -o "$1"
	rm "$1.in"
}

# =====================================================================
# Command line
# =====================================================================

@test "ts-sort: -h, --help, -V and --version print to stdout and exit 0" {
	local o
	run --separate-stderr ts-sort -h
	assert_success
	assert_output --partial "usage: ts-sort"
	[ -z "$stderr" ]
	run -0 ts-sort --help
	for o in --key --duplicates --output --to --in-place --force \
	    --buffer-size --temporary-directory --jobs --meta --input-base \
	    --no-values --quiet --version; do
		assert_output --partial -- "$o"
	done
	run -0 ts-sort -V
	assert_output "ts-sort (TensorSuite) 0.1.0"
	run -0 ts-sort --version
	assert_output "ts-sort (TensorSuite) 0.1.0"
}

@test "ts-sort: usage errors exit 2 and write nothing" {
	mkbundle "$EL" t >/dev/null
	run ts-sort --no-such-option t -o out
	assert_failure 2
	assert_output --partial "usage: ts-sort"
	run ts-sort t t -o out
	assert_failure 2
	run ts-sort -i t -o out
	assert_failure 2
	assert_output --partial "-i"
	run ts-sort -i - <"$EL/example-element.tns"
	assert_failure 2
	run ts-sort -i
	assert_failure 2
	run ts-sort --duplicates often t -o out
	assert_failure 2
	assert_output --partial "'often'"
	run ts-sort --to xml t -o out
	assert_failure 2
	# The formats' table in its order (more may follow).
	assert_line --index 0 --regexp "^ts-sort: --to: 'xml': expected one of bundle, tns, tnsb, frostt, mtx, cutensor(, [a-z0-9-]+)*\$"
	assert_line --index 1 "Try 'ts-sort --help'."
	assert_equal "${#lines[@]}" 2
	run ts-sort --input-base 2 - -o out.tns <"$EL/example-element.tns"
	assert_failure 2
	local j
	for j in 0 257 2x ''; do
		run ts-sort -j "$j" t -o out
		assert_failure 2
		assert_output --partial "-j"
	done
	only t
}

@test "ts-sort: '-' twice, as SRC and --meta, is a usage error (2), before anything is read" {
	{ ts-sort --meta - - 2>err && echo rc=0 || echo "rc=$?"; cat; } <"$EL/example-element_metadata.json" >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat "$EL/example-element_metadata.json")"
	grep -q "^ts-sort: '-' (standard input) is given twice; it can be read only once$" err
	run ts-sort -c --meta - - </dev/null
	assert_failure 2
}

@test "ts-sort: a bad -k (0, a repeated mode, a mode beyond the order, the wrong count) exits 2" {
	local k
	for k in 0 1,1 2,2,1 4,1,2 1,5,2 1,2 1,2,3,4 3 a 1,,2 -1 ''; do
		run ts-sort -k "$k" "$EL" -o out
		[ "$status" -eq 2 ] ||
		    { echo "-k '$k': status $status, not 2"; false; }
		assert_output --partial -- "-k"
	done
	# Each of those names what is wrong.
	run ts-sort -k 4,1,2 "$EL" -o out
	assert_output --partial "no mode 4"
	run ts-sort -k 1,2 "$EL" -o out
	assert_output --partial "order 3"
	run ts-sort --key 1,1,2 "$EL" -o out
	assert_output --partial "'1,1,2'"
	only
}

@test "ts-sort: a bad -S exits 2; sizes take K, M, G, T or % and are at least 1M" {
	local s
	for s in 0 abc 512K 1023K 1X -5M 200% 0% 2MB '' nan NaN inf; do
		run ts-sort -S "$s" "$EL" -o out.tns
		[ "$status" -eq 2 ] ||
		    { echo "-S '$s': status $status, not 2"; false; }
		assert_output --partial -- "-S"
	done
	only
	for s in 1M 1048576 1.5M 1G 2g 1T 50% 100%; do
		run ts-sort -q -S "$s" "$EL" -o out.tns
		[ "$status" -eq 0 ] ||
		    { echo "-S '$s': status $status, not 0"; false; }
		rm out.tns
	done
	run -0 ts-sort -q --buffer-size 256M "$EL"
}

# =====================================================================
# Sorting real data
# =====================================================================

@test "ts-sort: an unsorted real bundle (JF17K, no values) comes out valid, lexicographic, in order, with the same rows" {
	ts-convert -q "$REAL/KG_JF17K_3_ids_1based.tns" --no-values --text \
	    --binary -o kg
	run meta kg '[.sorted, .sort_order, .nnz]'
	assert_output '["none",[],34544]'
	# Not in order to begin with.
	run sort -c -n -k1,1 -k2,2 -k3,3 -k4,4 <(body kg/kg.tns)
	assert_failure
	run -0 ts-sort kg -o kgs
	valid kgs
	run meta kgs '[.sorted, .sort_order, .duplicates, .nnz, .values_provided]'
	assert_output '["lexicographic",[1,2,3,4],"disallowed",34544,false]'
	# The same multiset of rows, now strictly increasing.
	diff -u <(body kg/kg.tns | sort) <(body kgs/kgs.tns | sort)
	body kgs/kgs.tns | sort -c -u -n -k1,1 -k2,2 -k3,3 -k4,4
	# Both data files were written, and hold the same entries (valid
	# checks X6); the input bundle is untouched.
	[ -f kgs/kgs.tns ] && [ -f kgs/kgs.tnsb ]
	run meta kg '.sorted'
	assert_output '"none"'
}

@test "ts-sort: -k 3,1,2 sorts in that priority, stably, as GNU sort -s -k3,3n -k1,1n -k2,2n does" {
	# splatt_med, and 30000 of its coordinates again with other values,
	# shuffled: repeated tuples whose input order shows in the values.
	{
		cat "$REAL/splatt_med.tns"
		head -n 30000 "$REAL/splatt_med.tns" |
		    awk '{ $4 = sprintf("%.1f", $4 + 0.5 + NR % 7); print }'
	} | shuffle >in.tns
	[ "$(cut -d' ' -f1-3 in.tns | sort -u | wc -l)" -eq 100000 ]
	ts-convert -q in.tns -o t
	run meta t '[.duplicates, .nnz]'
	assert_output '["allowed",130000]'
	run -0 ts-sort -k 3,1,2 t -o s
	valid s
	run meta s '[.sorted, .sort_order, .duplicates, .nnz]'
	assert_output '["lexicographic",[3,1,2],"allowed",130000]'
	body t/t.tns | sort -s -k3,3n -k1,1n -k2,2n >want
	body s/s.tns | cmp want -
	# The same from the bundle's text file, and from a text stream.
	ts-sort --key 3,1,2 t/t.tns | body /dev/stdin | cmp want -
	ts-sort -q -k 3,1,2 - <t/t.tns | body /dev/stdin | cmp want -
}

@test "ts-sort: GNU sort's field ranges, key flags, -r, -n, -u, -s and -t are refused with what to use instead (issue 30, point 24)" {
	local k o
	for k in 1,1 3,3; do
		run -2 ts-sort -k "$k" "$EL"
		assert_output --partial "-k: '$k' is a field range of GNU sort; here -k lists every mode once, most significant first"
	done
	for k in 2n 1,1n 1.2 3,1,2r; do
		run -2 ts-sort -k "$k" "$EL"
		assert_output --partial "coordinates always compare as numbers, in increasing order (no field ranges, columns or flags as in GNU sort)"
	done
	for o in r n u s t; do
		run -2 ts-sort -$o "$EL"
		assert_output --partial "ts-sort: -$o is an option of GNU sort: "
	done
	run -2 ts-sort -u "$EL"
	assert_output --partial "--duplicates first"
}

@test "ts-sort: without -k, the metadata's sort_order is the key" {
	# A bundle sorted 3,1,2 whose rows were shuffled since.
	ts-sort -q -k 3,1,2 "$REAL/splatt_med.tns" -o s
	{ head -n 4 s/s.tns; body s/s.tns | shuffle; } >x && mv x s/s.tns
	rm s/s.tnsb
	jq --indent 2 '.endianness = "none" | del(.files.binary)' \
	    s/s_metadata.json >m && mv m s/s_metadata.json
	run -0 ts-sort s -o r
	run meta r '.sort_order'
	assert_output '[3,1,2]'
	sort -s -k3,3n -k1,1n -k2,2n "$REAL/splatt_med.tns" | cmp - <(body r/r.tns)
	valid r
}

@test "ts-sort: a file without metadata is sorted 1..N, whatever DST is" {
	# matmul_2-2-2.tns happens to be in 3,2,1 order.
	sort -s -n -k1,1 -k2,2 -k3,3 "$REAL/matmul_2-2-2.tns" >want
	ts-sort -q "$REAL/matmul_2-2-2.tns" | body /dev/stdin | cmp want -
	ts-sort -q "$REAL/matmul_2-2-2.tns" -o mm.tns
	body mm.tns | cmp want -
	ts-sort -q "$REAL/matmul_2-2-2.tns" -o mm
	run meta mm '.sort_order'
	assert_output '[1,2,3]'
	body mm/mm.tns | cmp want -
}

@test "ts-sort: text in, text out keeps each value's bytes; a real 0-based file sorts like GNU sort" {
	printf '%s\n' '3 1 1.0000000000000000e+00' '1 2 0.858000' '2 2 -.27' \
	    '1 1 +3.' '2 1 1E5' '1 3 .5e-3' '2 3 -0.0e0' '3 2 4.000000' \
	    '3 3 2.5000000000000000e-01' >v.tns
	sort -n -k1,1 -k2,2 v.tns >want
	ts-sort -q v.tns | body /dev/stdin | cmp want -
	ts-sort -q v.tns -o s.tns
	body s.tns | cmp want -
	ts-sort -q v.tns -o b
	body b/b.tns | cmp want -
	valid b
	# Non-finite values, spelled as the reader accepts them.
	printf '%s\n' '2 1 NaN' '1 1 INF' '1 2 -inf' >n.tns
	run -0 bash -c "ts-sort -q n.tns | tail -n +5"
	assert_output "$(printf '%s\n' '1 1 INF' '1 2 -inf' '2 1 NaN')"
	# aminoacid.tns: 0-based, values like 0.858000, sorted 3,2,1.
	sort -s -n -k3,3 -k2,2 -k1,1 "$REAL/aminoacid.tns" >want
	ts-sort -q -k 3,2,1 "$REAL/aminoacid.tns" -o am
	body am/am.tns | cmp want -
	run meta am '[.index_base, .sort_order]'
	assert_output '[0,[3,2,1]]'
	valid am
}

@test "ts-sort: every spelling of a value survives, in memory and spilled; to binary, the values are the text's" {
	# 200000 rows, values spelled every way the reader takes: signs,
	# leading and trailing zeros, no integer part, a bare point, E and
	# e, signed and zero-padded exponents, 17 and more digits, inf, nan.
	awk 'BEGIN { srand(5)
	    split("0 -0 +0 00.50 .5 5. -.25e-3 1E+5 1e-0007 2.5E012 " \
	    "12345678901234567 123456789012345678 0.1000000000000000055511 " \
	    "-1.7976931348623157e308 4.9e-324 1e000000099 inf -Infinity nan " \
	    "+NaN 0.000000 123456789.000000001", w, " ")
	    for (i = 0; i < 200000; i++) {
	        if (rand() < 0.5) v = w[1 + int(rand() * 22)]
	        else v = sprintf("%.*f", int(rand() * 19), rand() * 1000 - 500)
	        printf "%d %d %s\n", 1 + int(rand() * 1000), 1 + int(rand() * 1000), v
	    } }' >v.tns
	LC_ALL=C sort -s -n -k2,2 -k1,1 v.tns >want
	ts-sort -q -k 2,1 v.tns -o m.tns
	body m.tns | cmp want -
	ts-sort -q -k 2,1 -S 1M v.tns -o s.tns
	body s.tns | cmp want -
	# Parsed by threads, in small chunks.
	TS_CHUNK=65536 ts-sort -q -j 3 -k 2,1 v.tns -o p.tns
	body p.tns | cmp want -
	# Text to binary: the values are what the reader makes of the text
	# (the same bytes as a binary bundle made by ts-convert, sorted).
	ts-convert -q v.tns --binary -o vb
	[ ! -e vb/vb.tns ]
	ts-sort -q -k 2,1 vb -o sb.tnsb
	ts-sort -q -k 2,1 v.tns -o b.tnsb
	tail -n +5 sb.tnsb | cmp - <(tail -n +5 b.tnsb)
}

@test "ts-sort: a value that is not a number is refused where it is, text to text, whatever the threads" {
	local v j
	awk 'BEGIN { for (i = 1; i <= 40000; i++) printf "%d %d 0.%d\n", i % 97 + 1, i, i }' >g.tns
	for v in "1..5" "." "0.5." "..5" "5.x" "0.1.0"; do
		{ cat g.tns; echo "3 3 $v"; cat g.tns; } >b.tns
		for j in 1 3; do
			TS_CHUNK=65536 run --separate-stderr ts-sort -j $j -k 2,1 \
			    b.tns -o out.tns
			assert_failure 1
			[ "$stderr" = "b.tns:40001:5: error: value '$v' is not a number [E2]" ] ||
			    { echo "$v, -j $j: $stderr"; false; }
			[ ! -e out.tns ]
		done
	done
}

@test "ts-sort: random tensors, keys and value spellings sort as GNU sort -s does, in memory and spilled" {
	local seed order key gkeys k
	for seed in 1 2 3 4; do
		order=$((1 + seed % 4))
		awk -v seed="$seed" -v o="$order" 'BEGIN { srand(seed)
		    split("0 -0 +0 00.50 .5 5. -.25e-3 1E+5 1e-0007 " \
		    "12345678901234567 123456789012345678 inf nan 7", w, " ")
		    for (i = 0; i < 150000; i++) {
		        line = ""
		        for (k = 0; k < o; k++)
		            line = line (1 + int(rand() * (rand() < 0.1 ? 3 : 2500))) " "
		        r = rand()
		        if (r < 0.3) v = w[1 + int(rand() * 14)]
		        else if (r < 0.6) v = sprintf("%.17g", rand() * 2 - 1)
		        else v = sprintf("%.*f", int(rand() * 12), rand() * 100)
		        print line v
		    } }' >in.tns
		key=$(seq "$order" -1 1 | paste -sd, -)
		gkeys=
		for k in ${key//,/ }; do gkeys="$gkeys -k$k,${k}n"; done
		# shellcheck disable=SC2086
		LC_ALL=C sort -s -t' ' $gkeys in.tns >want
		ts-sort -q -k "$key" in.tns -o m.tns
		body m.tns | cmp want -
		ts-sort -q -S 1M -j 1 -k "$key" in.tns -o s.tns
		body s.tns | cmp want -
		rm -f m.tns s.tns
	done
}

# =====================================================================
# Duplicates
# =====================================================================

@test "ts-sort: --duplicates keep, sum, first, last: the rows and the metadata each gives" {
	dupbundle t
	run meta t '[.duplicates, .explicit_zeros, .nnz]'
	assert_output '["allowed","disallowed",6]'

	run -0 ts-sort t -o keep
	assert_equal "$(body keep/keep.tns)" "$(printf '%s\n' '1 1 7' '1 2 4' \
	    '1 2 0.25' '2 1 1.5' '2 1 -1.5' '2 1 2')"
	run meta keep '[.duplicates, .nnz, .sorted, .sort_order]'
	assert_output '["allowed",6,"lexicographic",[1,2]]'
	valid keep
	run -0 ts-sort --duplicates keep t -o keep2
	sed 's/keep2$/keep/' keep2/keep2.tns | cmp keep/keep.tns -

	run -0 ts-sort --duplicates sum t -o sum
	assert_equal "$(body sum/sum.tns)" "$(printf '%s\n' '1 1 7' '1 2 4.25' '2 1 2')"
	run meta sum '[.duplicates, .nnz, .explicit_zeros, .sorted, .sort_order]'
	assert_output '["disallowed",3,"disallowed","lexicographic",[1,2]]'
	valid sum

	run -0 ts-sort --duplicates first t -o first
	assert_equal "$(body first/first.tns)" "$(printf '%s\n' '1 1 7' '1 2 4' '2 1 1.5')"
	run meta first '[.duplicates, .nnz]'
	assert_output '["disallowed",3]'
	valid first

	run -0 ts-sort --duplicates last t -o last
	assert_equal "$(body last/last.tns)" "$(printf '%s\n' '1 1 7' '1 2 0.25' '2 1 2')"
	run meta last '[.duplicates, .nnz]'
	assert_output '["disallowed",3]'
	valid last

	# The header of a stream counts what is written.
	run -0 ts-sort -q --duplicates first t
	assert_line --index 3 "2 3 3 3"
}

@test "ts-sort: --duplicates error exits 1 naming the repeated coordinates, and writes nothing" {
	dupbundle t
	run ts-sort --duplicates error t -o out
	assert_failure 1
	assert_output --partial "(1, 2)"
	assert_output --partial "repeats"
	run --separate-stderr ts-sort --duplicates error t
	assert_failure 1
	assert_output ""
	run ts-sort --duplicates error t -o out.tns
	assert_failure 1
	# In the index base of the tensor: 0-based here.
	printf '%s\n' '0 3 1' '2 2 1' '0 3 5' >z.tns
	run ts-sort --input-base 0 --duplicates error z.tns -o z.out.tns
	assert_failure 1
	assert_output --partial "(0, 3)"
	# Without repeats it is a sort like any other.
	run -0 ts-sort --duplicates error "$EL" -o el
	run meta el '[.duplicates, .nnz]'
	assert_output '["disallowed",6]'
	only t z.tns el
}

@test "ts-sort: a sum that makes 0 allows explicit zeros; one that leaves {0, 1} makes the domain general" {
	printf '%s\n' '2 1 1.5' '1 2 0.1' '2 1 -1.5' '1 1 7' '1 2 0.2' >z.tns
	ts-convert -q --dims 3,3 z.tns -o z
	run meta z '.explicit_zeros'
	assert_output '"disallowed"'
	run -0 ts-sort --duplicates sum z -o zs
	assert_equal "$(body zs/zs.tns)" "$(printf '%s\n' '1 1 7' '1 2 0.30000000000000004' '2 1 0')"
	run meta zs '[.explicit_zeros, .duplicates, .nnz]'
	assert_output '["allowed","disallowed",3]'
	valid zs

	printf '%s\n' '1 1 1' '2 2 1' '1 1 1' >b.tns
	ts-convert -q --dims 3,3 b.tns -o b
	run meta b '.value_domain'
	assert_output '"binary"'
	run -0 ts-sort --duplicates sum b -o bs
	assert_equal "$(body bs/bs.tns)" "$(printf '%s\n' '1 1 2' '2 2 1')"
	run meta bs '[.value_domain, .explicit_zeros]'
	assert_output '["general","disallowed"]'
	valid bs
	# first keeps the values as they are, and so the domain.
	run -0 ts-sort --duplicates first b -o bf
	run meta bf '.value_domain'
	assert_output '"binary"'
	valid bf
}

@test "ts-sort: --duplicates on a tensor without values keeps one of each coordinate tuple" {
	ts-convert -q "$REAL/matmul_2-2-2.tns" --no-values -o once
	{ cat "$REAL/matmul_2-2-2.tns" "$REAL/matmul_2-2-2.tns"; } |
	    cut -d' ' -f1-3 | shuffle >twice.tns
	ts-convert -q --dims 4,4,4 --no-values twice.tns -o t
	local p
	for p in sum first last; do
		run -0 ts-sort --duplicates "$p" t -o "$p"
		cut -d' ' -f1-3 "$REAL/matmul_2-2-2.tns" | sort -n -k1,1 -k2,2 -k3,3 |
		    cmp - <(body "$p/$p.tns")
		run meta "$p" '[.nnz, .duplicates, .values_provided]'
		assert_output '[8,"disallowed",false]'
		valid "$p"
	done
	run ts-sort --duplicates error t -o e
	assert_failure 1
	[ ! -e e ]
}

@test "ts-sort: --duplicates first, last and sum agree with awk on 300000 rows, in memory and spilled" {
	local p
	awk '{ k = $1 " " $2 " " $3 } !(k in f) { f[k] = $0 }
	    END { for (k in f) print f[k] }' "$DUPS" |
	    sort -n -k1,1 -k2,2 -k3,3 >want.first
	awk '{ l[$1 " " $2 " " $3] = $0 } END { for (k in l) print l[k] }' "$DUPS" |
	    sort -n -k1,1 -k2,2 -k3,3 >want.last
	# Sums in input order, which is the order ts-sort adds them in.
	awk '{ s[$1 " " $2 " " $3] += $4 }
	    END { for (k in s) printf "%s %.17g\n", k, s[k] }' "$DUPS" |
	    sort -n -k1,1 -k2,2 -k3,3 >want.sum
	for p in first last sum; do
		ts-sort -q --duplicates "$p" "$DUPS" >"mem.$p"
		ts-sort -q -S 1M -j 1 --duplicates "$p" "$DUPS" | cmp "mem.$p" -
		[ "$(sed -n 4p "mem.$p")" = "3 50 40 30 $(wc -l <want.first)" ]
	done
	body mem.first | cmp want.first -
	body mem.last | cmp want.last -
	# Compare the sums as numbers: ts-sort writes the shortest text.
	paste -d' ' <(body mem.sum) want.sum |
	    awk '$1 != $5 || $2 != $6 || $3 != $7 || $4 != $8 { bad++ }
	    END { exit bad > 0 }'
	run ts-sort -q -S 1M --duplicates error "$DUPS"
	assert_failure 1
	assert_output --partial "(1, 1, 1)"
}

@test "ts-sort: a sum that overflows an integer value type is refused (exit 1), nothing written" {
	printf '%s\n' '1 1 2147483647' '2 2 5' '1 1 1' >i.tns
	ts-convert -q --dims 2,2 --input-value-type int32 i.tns -o i32
	run meta i32 '.value_type'
	assert_output '"int32"'
	run ts-sort --duplicates sum i32 -o s32
	assert_failure 1
	printf '%s\n' '1 1 9223372036854775807' '2 2 5' '1 1 1' >j.tns
	ts-convert -q --dims 2,2 --input-value-type int64 j.tns -o i64
	run ts-sort --duplicates sum i64 -o s64
	assert_failure 1
	only i.tns i32 j.tns i64
	# Within range, the sum is exact.
	printf '%s\n' '1 1 2147483646' '2 2 5' '1 1 1' >k.tns
	ts-convert -q --dims 2,2 --input-value-type int32 k.tns -o k
	run -0 ts-sort --duplicates sum k -o ks
	assert_equal "$(body ks/ks.tns)" "$(printf '%s\n' '1 1 2147483647' '2 2 5')"
	valid ks
}

@test "ts-sort: a float32 sum is a float32: the text and the binary file agree" {
	printf '%s\n' '1 1 0.1' '2 2 5' '1 1 0.2' >f.tns
	ts-convert -q --dims 2,2 --input-value-type float32 f.tns -o f
	run -0 ts-sort --duplicates sum f -o s
	valid s
	# 0.1f + 0.2f rounds to 0.3f, whose shortest float32 text is 0.3.
	assert_equal "$(body s/s.tns)" "$(printf '%s\n' '1 1 0.3' '2 2 5')"
	ts-convert -q s/s.tnsb -o - --to frostt | cmp - <(body s/s.tns)
}

# =====================================================================
# Outputs: kinds, binary, streams
# =====================================================================

@test "ts-sort: binary in, binary out: a binary bundle, a .tnsb DST, --to tnsb and stdout keep the layout" {
	mkbundle "$SHARE/example-binary" eb >/dev/null
	want=$(printf '%s\n' '2 1 7' '1 2 7' '3 3 -4' '5 4 12')
	run -0 ts-sort -k 2,1 eb -o s
	[ -f s/s.tnsb ] && [ ! -e s/s.tns ]
	run meta s '[.index_type, .value_type, .endianness, .sorted, .sort_order]'
	assert_output '["uint32","int32","big","lexicographic",[2,1]]'
	valid s
	run -0 ts-convert s -o - --to frostt
	assert_output "$want"
	# A data file, and standard output, which keeps the input's kind.
	run -0 ts-sort -k 2,1 eb -o s.tnsb
	ts-sort -k 2,1 eb >stdout.tnsb
	cmp s.tnsb stdout.tnsb
	ts-sort -k 2,1 --to tnsb eb -o - | cmp s.tnsb -
	[ "$(head -n 1 s.tnsb)" = "%%TensorSuite-TNSB" ]
	run -0 ts-convert --meta eb/eb_metadata.json s.tnsb -o - --to frostt
	assert_output "$want"
	# The same records, reordered: the same size.
	[ "$(stat -c %s s.tnsb)" -eq "$(stat -c %s eb/eb.tnsb)" ]
	# Binary on standard input, described by --meta.
	ts-sort -k 2,1 --meta eb/eb_metadata.json - <eb/eb.tnsb | cmp s.tnsb -
	# From text to binary: --to tnsb, or a .tnsb DST.
	ts-sort -k 3,1,2 "$EL" --to tnsb |
	    ts-convert --meta "$EL/example-element_metadata.json" - -o - --to tns |
	    cmp - <(ts-sort -k 3,1,2 "$EL")
	ts-sort -k 3,1,2 "$EL" -o el.tnsb
	ts-sort -k 3,1,2 "$EL" --to tnsb | cmp el.tnsb -
}

@test "ts-sort: --to frostt, mtx and cutensor, and compressed DSTs, as ts-convert writes them" {
	run -0 ts-sort -k 2,1 "$SHARE/example-binary" --to frostt
	assert_output "$(printf '%s\n' '2 1 7' '1 2 7' '3 3 -4' '5 4 12')"
	run -0 ts-sort -k 2,1 "$SHARE/example-binary" -o s.mtx
	run -0 ts-convert s.mtx - --to frostt
	assert_output "$(printf '%s\n' '2 1 7' '1 2 7' '3 3 -4' '5 4 12')"
	assert_equal "$(head -n 1 s.mtx)" "%%MatrixMarket matrix coordinate integer general"
	# Order 3 is no matrix: refused (1), nothing written.
	run -1 ts-sort "$EL" -o s3.mtx
	[ ! -e s3.mtx ]
	run -0 ts-sort -k 2,1 "$SHARE/example-block" --to cutensor
	assert_output --partial '"nonZeroCoordinates": [
    0, 0, 2, 0, 1, 1
  ]'
	run -0 ts-sort -q -k 3,1,2 "$BIG" -o big.tns.zst
	cmp <(zstd -qdc big.tns.zst | tail -n +5) \
	    <(LC_ALL=C sort -s -n -k3,3 -k1,1 -k2,2 "$BIG")
	run -2 ts-sort "$EL" -o s.txt
	assert_output --regexp "give --to bundle, tns, tnsb, frostt, mtx,? (or )?cutensor"
	# A compressed SRC without metadata is decompressed twice, never
	# copied to $TMPDIR.
	run -0 env TMPDIR=$PWD/none ts-sort -q -k 3,1,2 big.tns.zst -o again.tns
	cmp <(tail -n +5 again.tns) <(zstd -qdc big.tns.zst | tail -n +5)
}

@test "ts-sort: -c tells whether SRC is sorted (0) or not (1), naming the first entry out of order" {
	mkbundle "$EL" t >/dev/null
	# The metadata's key (1,2,3 here), then -k.
	run --separate-stderr ts-sort -c t
	assert_success
	assert_output ""
	assert_equal "$stderr" ""
	run --separate-stderr ts-sort -c -k 3,1,2 t
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "t/t.tns:7:1: error: entry (2, 2, 1) is out of order in key 3,1,2: it follows (1, 3, 2)"
	ts-sort -k 3,1,2 t -o s
	run -0 ts-sort -c s
	run -1 ts-sort -c -k 1,2,3 s
	# Without metadata, 1..N; what ts-sort writes passes, in any key,
	# as GNU sort -c says of the same rows.
	local line
	line=$(LC_ALL=C sort -c -s -n -k1,1 -k2,2 -k3,3 "$BIG" 2>&1 |
	    sed -n 's/^sort: [^:]*:\([0-9]*\): disorder.*/\1/p')
	[ -n "$line" ]
	run -1 ts-sort -c -q "$BIG"
	assert_output --partial "$BIG:$line:1: error: entry "
	local k
	for k in 1,2,3 3,1,2 2,3,1; do
		ts-sort -q -k "$k" "$BIG" | ts-sort -c -k "$k"
	done
	run -0 ts-sort -c "$BIGSORTED"
	# Binary, located by byte offset; on standard input.
	local ebm=$SHARE/example-binary/example-binary_metadata.json
	run -1 ts-sort -c -k 2,1 "$SHARE/example-binary/example-binary.tnsb"
	assert_output --regexp 'example-binary\.tnsb:\+[0-9]+: error: entry \(2, 1\) is out of order in key 2,1: it follows \(1, 2\)$'
	run -1 bash -c "ts-sort -c -k 2,1 --meta '$ebm' - <'$SHARE/example-binary/example-binary.tnsb'"
	assert_output --regexp '^<stdin>:\+[0-9]+: error: entry \(2, 1\) is out'
	ts-sort -q -k 2,1 "$SHARE/example-binary" --to tnsb |
	    ts-sort -c -k 2,1 --meta "$ebm"
	# A 0 is no coordinate below the base here: the order is the same.
	printf '0 1 1\n0 0 1\n' >z.tns
	run -1 ts-sort -c z.tns
	assert_output "z.tns:2:1: error: entry (0, 0) is out of order in key 1,2: it follows (0, 1)"
	# Repeats are in order; with --duplicates error they are not.
	printf '1 1 1\n1 2 1\n1 2 5\n' >d.tns
	run -0 ts-sort -c d.tns
	run -1 ts-sort -c --duplicates error d.tns
	assert_output "d.tns:3:1: error: entry (1, 2) repeats the one before it"
	# It reads: -o, -i and --to are refused; a bad -k too.
	for bad in "-o x" "-i" "--to tns" "-k 1,2,3"; do
		run ts-sort -c $bad d.tns
		assert_failure 2
	done
	only t s z.tns d.tns
}

@test "ts-sort: -c runs in bounded memory, whatever the size of SRC" {
	local small mid big
	[ -n "${TS_SANITIZE:-}${TS_VALGRIND:-}" ] &&
	    skip "peak memory means nothing under ASan or valgrind"
	rss() {
		/usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
	}
	printf '1 1 1\n' >one.tns
	awk 'BEGIN { for (i = 0; i < 1000000; i++)
	    printf "%d %d 1\n", 1 + int(i / 1000), 1 + i % 1000 }' >mid.tns
	awk 'BEGIN { for (i = 0; i < 4000000; i++)
	    printf "%d %d 1\n", 1 + int(i / 1000), 1 + i % 1000 }' >many.tns
	small=$(rss ts-sort -c -q -j 2 one.tns)
	mid=$(rss ts-sort -c -q -j 2 mid.tns)
	big=$(rss ts-sort -c -q -j 2 many.tns)
	# 4 million entries would take 64 MB as the sort's records, 48 MB
	# more than 1 million; what -c holds is the parser's chunks in flight
	# (three of 1 MiB, parsed, with two threads), the same for 1 and 4
	# million entries.  The threads' malloc arenas vary by a MiB or two
	# from run to run (measured: 34.6-35.6 MB for 1 million, 35.4-36.8
	# for 4 million): the bound leaves them room.
	echo "max RSS: $small KiB for one entry, $mid KiB for 1000000, $big KiB for 4000000"
	[ "$big" -lt $((mid + 8192)) ]
	[ "$big" -lt $((small + 32768)) ]
}

@test "ts-sort: a large binary bundle sorts as its text does, in memory and spilled" {
	ts-convert -q --dims 100,100,100 "$DUPS" --binary -o bb
	[ ! -e bb/bb.tns ]
	ts-sort bb -o s1.tnsb
	ts-sort -S 1M bb -o s2.tnsb
	cmp s1.tnsb s2.tnsb
	# The entries, as numbers, are those of the stable sort of the text.
	sort -s -n -k1,1 -k2,2 -k3,3 "$DUPS" >want
	ts-convert --meta bb/bb_metadata.json s1.tnsb -o - --to frostt |
	    paste -d' ' - want |
	    awk '$1 != $5 || $2 != $6 || $3 != $7 || $4 != $8 { bad++ }
	    END { exit bad > 0 }'
}

@test "ts-sort: a binary stream needs --meta or the --input flags; without them it is refused, naming them (exit 2)" {
	ts-convert "$SHARE/example-binary" -o - --to tnsb >eb.tnsb
	run ts-sort - -o out.tns <eb.tnsb
	assert_failure 2
	local f
	for f in --input-index-type --input-value-type --input-endian --input-base; do
		assert_output --partial -- "$f"
	done
	run ts-sort --input-index-type uint32 --input-value-type int32 - <eb.tnsb
	assert_failure 2
	refute_output --partial -- "--input-index-type"
	assert_output --partial -- "--input-endian"
	assert_output --partial -- "--input-base"
	only eb.tnsb
}

@test "ts-sort: a binary stream described by the --input flags comes out in the same layout" {
	local flags='--input-index-type uint32 --input-value-type int32 --input-endian big --input-base 1'
	ts-convert "$SHARE/example-binary" -o - --to tnsb >eb.tnsb
	# shellcheck disable=SC2086
	ts-sort -k 2,1 $flags - <eb.tnsb >s.tnsb
	[ "$(head -n 1 s.tnsb)" = "%%TensorSuite-TNSB" ]
	[ "$(stat -c %s s.tnsb)" -eq "$(stat -c %s eb.tnsb)" ]
	# shellcheck disable=SC2086
	run -0 ts-convert $flags s.tnsb -o - --to frostt
	assert_output "$(printf '%s\n' '2 1 7' '1 2 7' '3 3 -4' '5 4 12')"
	# Without values: --no-values.
	cut -d' ' -f1-3 "$REAL/matmul_2-2-2.tns" >mm.tns
	ts-convert -q --no-values mm.tns -o mm.tnsb
	# (An import's index type is uint32 when the coordinates fit.)
	ts-sort -k 1,2,3 --no-values --input-index-type uint32 --input-endian little \
	    --input-base 1 - <mm.tnsb >s.tnsb
	[ "$(stat -c %s s.tnsb)" -eq "$(stat -c %s mm.tnsb)" ]
	ts-convert --no-values --input-index-type uint32 --input-endian little \
	    --input-base 1 s.tnsb -o - --to frostt --index-base 1 | cut -d' ' -f1-3 |
	    cmp - <(sort -n -k1,1 -k2,2 -k3,3 mm.tns)
}

@test "ts-sort: a text stream needs only its index base; without it, a note that -q silences" {
	ts-convert "$EL" -o - --to tns >el.tns
	run --separate-stderr ts-sort -k 3,1,2 - <el.tns
	assert_success
	[[ $stderr == *"1-based"* ]]
	assert_line --index 4 "1 1 1 2.5"
	run --separate-stderr ts-sort -q -k 3,1,2 - <el.tns
	assert_success
	[ -z "$stderr" ]
	run --separate-stderr ts-sort --input-base 1 -k 3,1,2 - <el.tns
	[ -z "$stderr" ]
	# The pipe of the man page.
	run -0 bash -c "ts-convert '$EL' -o - --to tns | ts-sort -k 3,1,2 --input-base 1 -q | head -6"
	assert_output "$(printf '%s\n' '%%TensorSuite-TNS' '% version: 0.1' \
	    '% name: example-element' '3 4 3 2 6' '1 1 1 2.5' '2 2 1 1e-300')"
	# Read 0-based, the same rows less one sort the same, keeping text,
	# and a stream is written 1-based (P1 of tensorsuite(5)).
	awk 'NR > 4 { $1--; $2--; $3-- } { print }' el.tns >z.tns
	run -0 ts-sort -q --input-base 0 -k 3,1,2 - <z.tns
	assert_line --index 4 "1 1 1 2.5"
	assert_line --index 5 "2 2 1 1e-300"
	# A data file inside its bundle takes that bundle's metadata.
	run --separate-stderr ts-sort -k 3,1,2 "$EL/example-element.tns"
	assert_success
	[ -z "$stderr" ]
}

# =====================================================================
# Block bundles
# =====================================================================

@test "ts-sort: a block bundle sorts its block coordinates and stays valid" {
	mkbundle "$SHARE/example-block" t >/dev/null
	# Entries follow the size, block size and two partition lines.
	{ head -n 7 t/t.tns; printf '%s\n' '2 0' '1 1' '0 0'; } >x && mv x t/t.tns
	setmeta t sorted '"none"'
	setmeta t sort_order '[]'
	valid t
	run -0 ts-sort t -o s
	valid s
	run meta s '[.sorted, .sort_order, .nnz, .nnz_block, .block_partitions]'
	assert_output '["lexicographic",[1,2],12,3,[3,2]]'
	head -n 7 t/t.tns | sed 's/^% name: t$/% name: s/' | cmp - <(head -n 7 s/s.tns)
	assert_equal "$(tail -n +8 s/s.tns)" "$(printf '%s\n' '0 0' '1 1' '2 0')"
	run -0 ts-sort -k 2,1 t -o s21
	assert_equal "$(tail -n +8 s21/s21.tns)" "$(printf '%s\n' '0 0' '2 0' '1 1')"
	valid s21
	# A binary block bundle, the same.
	ts-convert -q t --binary -o tb
	run -0 ts-sort -k 2,1 tb -o sb
	valid sb
	run -0 bash -c "ts-convert -q sb -o - --to tns | tail -n +8"
	assert_output "$(printf '%s\n' '1 1' '3 1' '2 2')"
}

@test "ts-sort: block bundles: --duplicates error finds a repeated block (1); sum, first and last are refused (2)" {
	mkbundle "$SHARE/example-block" t >/dev/null
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: t\n'
		printf '%s\n' '2 6 4 16' '3 2 4' '2 2 2' '2 2' '1 1' '0 0' '1 1' '2 0'
	} >t/t.tns
	jq --indent 2 '.nnz = 16 | .nnz_block = 4 | .duplicates = "allowed" |
	    .sorted = "none" | .sort_order = []' t/t_metadata.json >m &&
	    mv m t/t_metadata.json
	valid t
	run ts-sort --duplicates error t -o s
	assert_failure 1
	assert_output --partial "(1, 1)"
	local p
	for p in sum first last; do
		run ts-sort --duplicates "$p" t -o s
		assert_failure 2
	done
	run -0 ts-sort t -o s
	assert_equal "$(tail -n +8 s/s.tns)" "$(printf '%s\n' '0 0' '1 1' '1 1' '2 0')"
	valid s
}

# =====================================================================
# In place
# =====================================================================

@test "ts-sort: -i rewrites a bundle in place, keeping its README, other files and unknown keys" {
	dupbundle t
	echo "notes" >t/notes.txt
	jq --indent 2 '.x_note = "kept"' t/t_metadata.json >m && mv m t/t_metadata.json
	cp t/README.md readme.before
	run -0 ts-sort -i -k 2,1 t
	assert_equal "$(body t/t.tns)" "$(printf '%s\n' '1 1 7' '2 1 1.5' '2 1 -1.5' \
	    '2 1 2' '1 2 4' '1 2 0.25')"
	run meta t '[.sorted, .sort_order, .x_note, .files]'
	assert_output '["lexicographic",[2,1],"kept",{"text":"t.tns","binary":"t.tnsb","readme":"README.md"}]'
	cmp readme.before t/README.md
	assert_equal "$(cat t/notes.txt)" notes
	run ts-validate t
	assert_line "t: valid (0 errors, 1 warning)"
	# Nothing beside it: no temporary, no old copy.
	rm readme.before
	only t
	# --in-place, and --duplicates with it.
	run -0 ts-sort --in-place --duplicates last t
	assert_equal "$(body t/t.tns)" "$(printf '%s\n' '1 1 7' '2 1 2' '1 2 0.25')"
	run meta t '[.nnz, .duplicates, .sort_order]'
	assert_output '[3,"disallowed",[2,1]]'
	only t
}

@test "ts-sort: -i keeps a subdirectory of the bundle and leaves nothing beside it" {
	dupbundle t
	mkdir t/extra
	echo deep >t/extra/notes.txt
	run -0 ts-sort -i t
	assert_equal "$(cat t/extra/notes.txt 2>/dev/null)" deep
	only t
}

@test "ts-sort: -i leaves a bundle untouched when it fails: repeats with --duplicates error, bad rows, bad metadata" {
	local before
	dupbundle t
	before=$(snap t)
	run ts-sort -i --duplicates error t
	assert_failure 1
	assert_output --partial "(1, 2)"
	assert_equal "$(snap t)" "$before"
	only t
	# A malformed row (E1), a missing row (X7).
	sed -i '6s/.*/1 x 3/' t/t.tns
	before=$(snap t)
	run ts-sort -i t
	assert_failure 1
	assert_output --partial "[E1]"
	assert_equal "$(snap t)" "$before"
	dupbundle u
	sed -i '6d' u/u.tns
	before=$(snap u)
	run ts-sort -i u
	assert_failure 1
	assert_equal "$(snap u)" "$before"
	# Metadata that cannot be read (M1), a data file that is gone (B3).
	dupbundle v
	sed -i 's/"nnz": 6/"nnz": "6"/' v/v_metadata.json
	before=$(snap v)
	run ts-sort -i v
	assert_failure 1
	assert_equal "$(snap v)" "$before"
	dupbundle w
	rm w/w.tns
	before=$(snap w)
	run ts-sort -i w
	assert_failure 1
	assert_equal "$(snap w)" "$before"
	only t u v w
}

@test "ts-sort: -i takes the bundle as its metadata file too" {
	dupbundle t
	run -0 ts-sort -i t/t_metadata.json
	run meta t '.sorted'
	assert_output '"lexicographic"'
	valid t
	only t
}

@test "ts-sort: -i on a data file is a usage error (exit 2), and the file is left alone" {
	printf '%s\n' '2 2 1' '1 1 2' >x.tns
	cp x.tns x.orig
	run ts-sort -i x.tns
	assert_failure 2
	cmp x.tns x.orig
	only x.tns x.orig
}

# =====================================================================
# Memory, temporary files, threads
# =====================================================================

@test "ts-sort: -S 1M spills runs and merges them: the same bytes as in memory, and as GNU sort -s" {
	ts-sort -q "$BIG" >mem.tns
	ts-sort -q -S 1M "$BIG" >ext.tns
	cmp mem.tns ext.tns
	body ext.tns | cmp "$BIGSORTED" -
	# Another key, spilled, and a bundle.
	sort -s -k3,3n -k1,1n -k2,2n "$DUPS" >want
	ts-sort -q -S 1M -k 3,1,2 "$DUPS" | body /dev/stdin | cmp want -
	ts-convert -q --dims 100,100,100 "$DUPS" -o d
	ts-sort -S 1M d -o ds
	ts-sort d -o dm
	cmp ds/ds.tns <(sed 's/^% name: dm$/% name: ds/' dm/dm.tns)
	valid ds
}

@test "ts-sort: -T is where runs spill, and it is left empty; without -T, TMPDIR" {
	mkdir runs tmpd
	ts-sort -q -S 1M -T runs "$DUPS" >ext.tns
	assert_equal "$(ls -A runs)" ""
	ts-sort -q --temporary-directory runs -S 1M --duplicates sum "$DUPS" >/dev/null
	assert_equal "$(ls -A runs)" ""
	# The runs do go there: a directory that is not there fails (3)
	# when they spill, and does not matter when they do not.
	run ts-sort -q -S 1M -T no-such-dir "$DUPS" -o out.tns
	assert_failure 3
	run -0 ts-sort -q -T no-such-dir "$EL" -o el.tns
	TMPDIR=$PWD/tmpd ts-sort -q -S 1M "$DUPS" | cmp ext.tns -
	assert_equal "$(ls -A tmpd)" ""
	# (valgrind keeps its own files in $TMPDIR, and fails first.)
	if [ -z "${TS_VALGRIND:-}" ]; then
		TMPDIR=$PWD/no-such-dir run ts-sort -q -S 1M "$DUPS" -o out.tns
		assert_failure 3
		# An empty -T is TMPDIR, where the runs went and the message
		# says (it named /tmp).
		TMPDIR=$PWD/no-such-dir run ts-sort -q -S 1M -T "" "$DUPS" -o out.tns
		assert_failure 3
		assert_output "ts-sort: sorting (temporary directory '$PWD/no-such-dir'): No such file or directory"
	fi
	only runs tmpd ext.tns el.tns
}

@test "ts-sort: -j 1, 2 and 4 give identical output, in memory and spilled" {
	ts-sort -q -j 1 "$BIG" >j1
	ts-sort -q -j 2 "$BIG" | cmp j1 -
	ts-sort -q --jobs 4 -S 1M "$BIG" | cmp j1 -
	ts-sort -q -j 1 -k 2,3,1 "$DUPS" >k1
	ts-sort -q -j 2 -k 2,3,1 "$DUPS" | cmp k1 -
	ts-sort -q -j 2 -S 1M -k 2,3,1 "$DUPS" | cmp k1 -
}

# =====================================================================
# Exit status, inputs and outputs
# =====================================================================

@test "ts-sort: an existing DST is refused without -f (exit 2) and left alone; -f replaces it" {
	run -0 ts-sort -k 3,1,2 "$EL" -o s
	local before
	before=$(snap s)
	run ts-sort "$EL" -o s
	assert_failure 2
	assert_output --partial "'s' exists"
	assert_equal "$(snap s)" "$before"
	echo keep >s.tns
	run ts-sort "$EL" -o s.tns
	assert_failure 2
	assert_equal "$(cat s.tns)" keep
	run -0 ts-sort -f "$EL" -o s
	run meta s '.sort_order'
	assert_output '[1,2,3]'
	run -0 ts-sort --force "$EL" -o s.tns
	body s.tns | cmp - <(body "$EL/example-element.tns")
	only s s.tns
}

@test "ts-sort: -o /dev/full exits 3: a device is written to, not replaced" {
	run ts-sort -q "$EL" -o /dev/full --to tns
	assert_failure 3
	[ -c /dev/full ]
}

@test "ts-sort: a full standard output is an I/O error (exit 3); a closed pipe ends quietly" {
	run bash -c "ts-sort -q '$EL' >/dev/full"
	assert_failure 3
	run bash -c "ts-sort -q -S 1M '$BIG' >/dev/full"
	assert_failure 3
	run bash -c "ts-sort -q '$DUPS' 2>err | head -n 1; cat err"
	assert_success
	assert_output "%%TensorSuite-TNS"
}

@test "ts-sort: a coordinate outside its dimension is refused (exit 1), never sorted or written" {
	dupbundle t
	sed -i '6s/.*/9 9 1/' t/t.tns
	local before
	before=$(snap t)
	run ts-sort t -o out
	assert_failure 1
	run ts-sort -i t
	assert_failure 1
	assert_equal "$(snap t)" "$before"
	# 0 in a 1-based file is below the base: it must not wrap around.
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: r\n2 3 3 2\n0 1 1\n1 1 2\n' >r.tns
	run --separate-stderr ts-sort --input-base 1 r.tns
	assert_failure 1
	assert_output ""
	only t r.tns
}

@test "ts-sort: messages name what they are about: <stdin>, the temporary directory" {
	# STYLE.md: standard input is called <stdin> in messages.
	run ts-sort --duplicates error - <<<$'2 1 1.5\n1 2 4\n2 1 -1.5'
	assert_failure 1
	assert_output --partial "<stdin>"
	refute_output --partial "'-'"
	run ts-sort - <"$EL/example-element.tns"
	assert_success
	assert_output --partial "<stdin>"
	refute_output --partial "'-'"
	# A -T that cannot be used is named.
	run ts-sort -q -S 1M -T no-such-dir "$DUPS" -o out.tns
	assert_failure 3
	assert_output --partial "no-such-dir"
}

@test "ts-sort: a rewrite of the entries takes ts-stat's Statistics section, and its links to pictures, out of the README, and its folder of pictures out of the bundle, and says so" {
	ts-convert -q "$REAL/KG_JF17K_3_ids_1based.tns" -o k
	echo notes >k/notes.txt
	ts-stat -q --readme --plot k >/dev/null
	grep -q '^| sorted | in no mode order |$' k/README.md
	[ -f k/pictures/k_card.png ]
	head -n 8 k/README.md >before
	# In place: the README kept, less the section; the other files
	# kept, but the pictures.
	run -0 --separate-stderr ts-sort -i k
	[[ "$stderr" == *"k/README.md: note: the Statistics section ts-stat wrote of the entries before this rewrite is left out, with its links to pictures: 'ts-stat --readme' writes it anew"* ]]
	[[ "$stderr" == *"k/pictures: note: the pictures ts-stat drew of the entries before this rewrite are left out: 'ts-stat --plot' draws them anew"* ]]
	run -1 grep -q -e '^## Statistics' -e '^!\[' k/README.md
	diff before k/README.md
	[ ! -e k/pictures ]
	[ -f k/notes.txt ]
	valid k
	# A new bundle: the README of the source, less the section, and
	# no pictures.
	ts-stat -q --readme --plot k >/dev/null
	run -0 --separate-stderr ts-sort k -o s
	[[ "$stderr" == *"s/pictures: note: the pictures ts-stat drew of the entries before this rewrite are left out"* ]]
	grep -q '^## README of the source bundle' s/README.md
	run -1 grep -q -e '^## Statistics' -e '^!\[' s/README.md
	[ ! -e s/pictures ]
	[ -f s/notes.txt ]
	# Written anew, it says what the entries are.
	ts-stat -q --readme k >/dev/null
	grep -q '^| sorted | in mode order 1,2,3 |$' k/README.md
}

@test "ts-sort: the README of a new bundle says that ts-sort made it, and how" {
	run -0 ts-sort -k 3,1,2 "$EL" -o s
	run -0 cat s/README.md
	assert_output --partial "ts-sort"
	assert_output --partial "-k 3,1,2"
	refute_output --partial "Written by ts-convert"
	# The README of the source bundle follows.
	assert_output --partial "$(head -n 1 "$EL/README.md")"
}

@test "ts-sort: a missing SRC (3), a directory without metadata (1), a truncated binary file (1)" {
	run ts-sort no-such -o out
	assert_failure 3
	assert_output --partial "no-such"
	mkdir empty
	run ts-sort empty -o out
	assert_failure 1
	assert_output --partial "[B1]"
	mkbundle "$SHARE/example-binary" b >/dev/null
	truncate -s -3 b/b.tnsb
	run ts-sort b -o out
	assert_failure 1
	assert_output --partial "b/b.tnsb:+"
	only empty b
}

@test "ts-sort: a progress line only on a terminal or with TS_PROGRESS=always, cleared, never with -q" {
	ts-sort -k 2,1,3 "$BIG" -o want.tns 2>/dev/null
	# Not a terminal (here): nothing but the note on the index base.
	run --separate-stderr ts-sort -k 2,1,3 "$BIG" -o s1.tns
	assert_success
	[[ "$stderr" != *$'\r'* ]]
	# Always, into a file: whole lines (tests/progress.bats), and the
	# same output.
	TS_PROGRESS=always ts-sort -q -k 2,1,3 "$BIG" -o s2.tns 2>err || true
	[ ! -s err ]
	TS_PROGRESS=always ts-sort -k 2,1,3 "$EL" -o s3 2>err
	grep -q '^ts-sort: reading ' err
	grep -q '^ts-sort: writing s3: ' err
	[ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ]
	[ "$(tr -cd '\r' <err | wc -c)" -eq 0 ]
	TS_PROGRESS=always ts-sort -k 2,1,3 "$BIG" -o s4.tns 2>/dev/null
	body s4.tns | cmp - <(body want.tns)
	# A terminal (script(1) gives one): work under a second shows no
	# line; with TS_PROGRESS=always it does, from the start.
	script -qec "ts-sort -k 2,1,3 '$EL' -o s5" /dev/null >tty.out
	run grep -c 'reading' tty.out
	assert_output 0
	TS_PROGRESS=always script -qec "ts-sort -k 2,1,3 '$EL' -o s6" \
	    /dev/null >tty.out
	grep -q 'ts-sort: reading' tty.out
}

@test "ts-sort: inputs are never modified" {
	mkdir in
	cp -r "$EL" in/
	dupbundle d
	mv d in/
	cp "$REAL/matmul_2-2-2.tns" in/
	local before
	before=$(snap in)
	ts-sort -q in/example-element -k 3,1,2 -o o1
	ts-sort -q in/d --duplicates sum -o o2
	ts-sort -q in/matmul_2-2-2.tns -o o3
	ts-sort -q in/example-element/example-element.tnsb -o o4.tns
	run ts-sort -q in/d --duplicates error -o o5
	assert_failure 1
	assert_equal "$(snap in)" "$before"
}

# =====================================================================
# Archives (ts-pack(1))
# =====================================================================

@test "ts-sort: SRC may be an archive, DST a .tar.zst; -i refuses an archive" {
	ts-pack -o el.tar.zst "$EL"
	run -0 ts-sort -k 3,1,2 el.tar.zst -o s.tar.zst
	run -0 ts-validate s.tar.zst
	sans_a1_note
	assert_output "s.tar.zst:s: valid (0 errors, 0 warnings)
s.tar.zst: valid (0 errors, 0 warnings)
1 bundle and 1 archive: 2 valid, 0 invalid"
	mkdir u && ts-pack -x s.tar.zst -C u
	run -0 meta u/s '[.sorted, .sort_order]'
	assert_output '["lexicographic",[3,1,2]]'
	assert_equal "$(body u/s/s.tns)" "$(ts-sort -k 3,1,2 "$EL" -o - | body /dev/stdin)"
	run ts-sort -i el.tar.zst
	assert_failure 2
	assert_output --partial "but an archive"
	# An archive on standard input is one too.
	run -0 ts-sort -k 3,1,2 - -o - <el.tar.zst
	sans_a1_note
	assert_equal "$(body /dev/stdin <<<"$output")" "$(ts-sort -k 3,1,2 "$EL" -o - | body /dev/stdin)"
	run -0 ts-sort -c -k 1,2,3 - <el.tar.zst
}

@test "ts-sort: -i and -o through a symbolic link write what it points to, the link kept" {
	mkdir store
	ts-convert -q "$EL" -o store/t
	ln -s store/t t
	run ts-sort -q -i -k 2,1,3 t
	assert_success
	[ -L t ]
	run jq -c .sort_order store/t/t_metadata.json
	assert_output '[2,1,3]'
	ln -s store/s.tns s.tns
	run ts-sort -q -k 3,2,1 t -o s.tns
	assert_success
	[ -L s.tns ]
	[ -f store/s.tns ]
	[ "$(ls -A store | tr '\n' ' ')" = "s.tns t " ]
}
