#!/usr/bin/env bats
# ts-stat: its figures checked against numpy (tests/stats-check.py) on
# the real tensors and the reference bundles, every kind of input, the
# JSON keys and CSV columns, bad input, the pictures (size, the same
# bytes twice, a diagonal tensor's diagonal spy plot), --readme.

bats_require_minimum_version 1.5.0

load test_helper

REAL="$DATA/real"
REF="$DATA/reference"
CHECK="/usr/bin/python3 $TS_TOP/tests/stats-check.py"
PNG="/usr/bin/python3 $TS_TOP/tests/png-check.py"

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# tns NAME DIMS NNZ ROWS...: a TensorSuite text file NAME.tns.
tns() {
	local name=$1 dims=$2 nnz=$3 order
	shift 3
	order=$(echo "$dims" | wc -w)
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n' "$name"
		echo "$order $dims $nnz"
		printf '%s\n' "$@"
	} >"$name.tns"
}

@test "ts-stat: --help, -V, and usage errors exit 2" {
	run -0 ts-stat --help
	assert_line --partial "usage: ts-stat"
	run -0 ts-stat -V
	assert_output --partial "ts-stat (TensorSuite)"
	run -2 ts-stat
	assert_line --partial "no tensor given"
	run -2 ts-stat --size 3 x
	assert_line --partial "--size: '3' is not a number from 16"
	run -2 ts-stat --bogus x
}

@test "ts-stat: '-' twice, as PATH or --meta, is a usage error (2), before anything is read" {
	local el=$SHARE/example-element
	{ ts-stat --meta "$el/example-element_metadata.json" - - 2>err &&
	    echo rc=0 || echo "rc=$?"; cat; } <"$el/example-element.tns" >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat "$el/example-element.tns")"
	grep -q "^ts-stat: '-' (standard input) is given twice; it can be read only once$" err
	run -2 ts-stat --meta - - <"$el/example-element_metadata.json"
	run -0 ts-stat -q --meta "$el/example-element_metadata.json" - <"$el/example-element.tns"
}

@test "ts-stat: the figures of every real tensor of tests/data agree with numpy, fibers per slice and power laws too" {
	local f
	for f in "$REAL"/*.tns; do
		run -0 ts-stat -q --json --fibers --fit "$f"
		echo "$output" | $CHECK "$f" 0
	done
}

@test "ts-stat: the repeats of an unsorted file are counted through the sorter with --exact, and agree with numpy" {
	local f="$REAL/KG_JF17K_3_ids_1based.tns"
	run -0 ts-stat -q --json "$f"
	assert_equal "$(echo "$output" | jq -c '[.repeats, .sorted]')" "[null,false]"
	run -0 ts-stat -q --json --exact "$f"
	assert_equal "$(echo "$output" | jq .repeats)" 18981
	echo "$output" | $CHECK "$f" 0
}

@test "ts-stat: the reference bundles' figures agree with numpy, block bundles' grids and blocks too" {
	run -0 ts-stat -q --json --fibers "$REF/random_tiny"
	echo "$output" | $CHECK "$REF/random_tiny/random_tiny.tns" 4
	local b
	for b in demo_A demo_B; do
		run -0 ts-stat -q --json --fibers "$REF/$b"
		echo "$output" | $CHECK "$REF/$b/$b.tns" 8
		assert_equal "$(echo "$output" | jq -c '[.sparsity, .blocks.grid, .blocks.count, .nnz]')" \
		    '["block",[19,110,20],836,120384]'
	done
}

@test "ts-stat: the text table of a bundle" {
	run -0 ts-stat "$SHARE/example-element"
	assert_line "$SHARE/example-element: valid"
	assert_line "  tensor      element-wise, order 3"
	assert_line "  dimensions  4 x 3 x 2, index base 1"
	assert_line "  nnz         6 of 24 positions: density 0.25"
	assert_line "  sorted      in mode order 1,2,3"
	assert_line "  repeats     0"
	assert_line "  file        example-element.tns, 132 bytes"
	assert_line "  mode  dimension  non-empty  share  min nnz  median  mean  max  std  used"
	assert_line "     1          4          4   100%        1     1.5   1.5    2  0.5  1..4"
	# Too few slices for a power law: a dash in each column.
	run -0 ts-stat --fit "$SHARE/example-element"
	assert_line "   power law of  alpha  x_min  slices in tail  KS distance"
	assert_line "  mode 1 slices      -      -               -            -"
}

@test "ts-stat: density is exact when the product of the dimensions overflows 64 bits" {
	tns big "4294967296 4294967296 3" 2 "1 1 1 2.5" "4294967296 4294967296 3 1"
	run -0 ts-stat -q --json big.tns
	assert_equal "$(echo "$output" | jq -r .positions)" 55340232221128654848
	# 2 / 55340232221128654848, to 17 digits, half to even
	assert_output --partial '"density": 3.6140072416183481e-20'
	run -0 ts-stat big.tns
	assert_line --partial "2 of 55340232221128654848 positions: density 3.6140072416183481e-20"
}

@test "ts-stat: a mode past 2^26 slices is counted in bins and estimated, in bounded memory; --exact counts it" {
	tns huge "1099511627776 3" 4 "1 1 1" "5 2 1" "1099511627776 3 2" "5 3 1"
	run -0 --separate-stderr /usr/bin/time -f '%M' ts-stat -q --json huge.tns
	assert_equal "$(echo "$output" | jq -c '.modes[0] | [.nonempty, .estimated, .median]')" "[3,true,null]"
	assert_equal "$(echo "$output" | jq -c '.modes[1] | [.nonempty, .estimated, .median]')" "[3,false,1]"
	[ -n "${TS_SANITIZE:-}" ] || [ "${stderr_lines[0]}" -lt 400000 ]
	run -0 ts-stat -q --json --exact huge.tns
	assert_equal "$(echo "$output" | jq -c '.modes[0] | [.nonempty, .estimated, .min, .median, .max]')" "[3,false,1,1,2]"
	run -0 ts-stat huge.tns
	assert_line --partial "~3"
	assert_line --partial "--exact counts them"
}

@test "ts-stat: repeats in unsorted entries come from the checks' sort when duplicates are disallowed" {
	local b
	b=$(mkbundle "$SHARE/example-element" u)
	rm -f "$b/u.tnsb"
	setmeta "$b" files '{"text": "u.tns", "readme": "README.md"}'
	setmeta "$b" endianness '"none"'
	setmeta "$b" sorted '"none"'
	setmeta "$b" sort_order '[]'
	# Rows 5-10 are the entries: swap two, repeat one.
	sed -i '5{h;d};6{G}' "$b/u.tns"
	sed -i '$p' "$b/u.tns"
	sed -i '4s/ 6$/ 7/' "$b/u.tns"
	setmeta "$b" nnz 7
	run -1 --separate-stderr ts-stat --json "$b"
	assert_equal "$(echo "$output" | jq -c '[.repeats, .sorted, .valid, .broken_rules]')" '[1,false,false,["S3"]]'
}

@test "ts-stat: every input the other tools take: a lone .tns, compressed, standard input, .mtx, a metadata file, an archive, -r" {
	run -0 ts-stat -q --csv "$SHARE/example-element/example-element.tns"
	assert_equal "${#lines[@]}" 2
	zstd -q -o e.tns.zst "$SHARE/example-element/example-element.tns"
	run -0 ts-stat -q --json e.tns.zst
	assert_equal "$(echo "$output" | jq -c '[.name, .nnz]')" '["e",6]'
	run -0 bash -c "ts-stat -q --json - < '$REAL/matmul_2-2-2.tns'"
	assert_equal "$(echo "$output" | jq -c '[.path, .nnz, .dimensions]')" '["-",8,[4,4,4]]'
	run -0 ts-stat -q --json "$DATA/mtx/LFAT5.mtx"
	assert_equal "$(echo "$output" | jq -c '[.order, .index_base]')" '[2,1]'
	run -0 ts-stat -q --json "$SHARE/example-binary/example-binary_metadata.json"
	assert_equal "$(echo "$output" | jq -r .name)" example-binary
	ts-pack -q -o ex.tar.zst "$SHARE"/example-*
	run -0 ts-stat -q --json ex.tar.zst
	assert_equal "${#lines[@]}" 3
	assert_equal "$(echo "${lines[1]}" | jq -r .path)" "ex.tar.zst:example-block"
	run -0 ts-stat -q --json -r "$SHARE"
	assert_equal "${#lines[@]}" 3
}

@test "ts-stat: a lone data file's values are counted when its rows hold them, text, FROSTT, compressed or on a pipe; none when they do not" {
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: v\n2 3 3 3\n1 1 2.5\n2 2 -1\n3 3 0\n' >v.tns
	run -0 ts-stat -q --json v.tns
	assert_equal "$(echo "$output" | jq -c '.values | [.count, .min, .max, .zeros, .negatives]')" '[3,-1,2.5,1,1]'
	# Parsed on threads, in chunks of a row or two.
	run -0 env TS_CHUNK=16 ts-stat -q --json v.tns
	assert_equal "$(echo "$output" | jq -c '.values | [.count, .min, .max, .zeros, .negatives]')" '[3,-1,2.5,1,1]'
	zstd -q -o v.tns.zst v.tns
	run -0 ts-stat -q --json v.tns.zst
	assert_equal "$(echo "$output" | jq -c '.values.count')" 3
	run -0 bash -c "ts-stat -q --json - < '$REAL/matmul_2-2-2.tns'"
	assert_equal "$(echo "$output" | jq -c '.values.count')" 8
	run -0 ts-stat v.tns
	assert_line --regexp '^  values +3: min -1, max 2.5'
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: p\n2 3 3 2\n1 1\n2 2\n' >p.tns
	run -0 ts-stat -q --json p.tns
	assert_equal "$(echo "$output" | jq -c '.values')" null
}

@test "ts-stat: --json has every documented key, one object a line; --csv one header and one row a tensor, of the same columns" {
	local keys
	run -0 ts-stat -q --json "$SHARE"/example-*
	assert_equal "${#lines[@]}" 3
	keys=$(echo "${lines[0]}" | jq -r 'keys_unsorted | join(" ")')
	assert_equal "$keys" "path name readable status errors warnings files pictures valid broken_rules sparsity order dimensions dimensions_inferred index_base index_base_inferred nnz positions density out_of_range sorted repeats values modes fibers blocks"
	# Every key is in the man page.
	for k in $keys; do grep -q -- "$k" "$TS_TOP/man/ts-stat.1"; done
	assert_equal "$(echo "${lines[0]}" | jq -r '.modes[0] | keys_unsorted | join(" ")')" \
	    "mode dimension nonempty share estimated min median mean max std used fit"
	assert_equal "$(echo "${lines[0]}" | jq -r '.values | keys_unsorted | join(" ")')" \
	    "count min max mean zeros negatives nan inf distinct distinct_exact"
	run -0 ts-stat -q --csv --fibers "$SHARE"/example-* "$REF/demo_A"
	assert_equal "${#lines[@]}" 5
	/usr/bin/python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
h = rows[0]
assert rows[4][h.index("block_grid")] == "19x110x20", rows[4]
assert rows[3][h.index("mode_nonempty")] == "4;3;2", rows[3]
' <(echo "$output")
	for k in $(echo "${lines[0]}" | tr ',' ' '); do grep -q -- "$k" "$TS_TOP/man/ts-stat.1"; done
}

@test "ts-stat: a tensor that cannot be read exits 1 with its first error located, as ts-validate says it" {
	tns bad "4 3" 1 "1 1"
	sed -i '4s/.*/3 x 4/' bad.tns
	run -1 --separate-stderr ts-stat bad.tns
	assert_output ""
	run -1 ts-validate bad.tns
	local first=${lines[0]}
	run -1 --separate-stderr ts-stat bad.tns
	assert_equal "${stderr_lines[0]}" "$first"
	run -3 ts-stat no/such/bundle
	assert_output --partial "no/such/bundle"
}

@test "ts-stat: a readable tensor that breaks a rule has its statistics printed with a warning naming the rule" {
	local b
	b=$(mkbundle "$SHARE/example-element" o)
	rm -f "$b/o.tnsb"
	setmeta "$b" files '{"text": "o.tns", "readme": "README.md"}'
	setmeta "$b" endianness '"none"'
	sed -i '5s/^1 /9 /' "$b/o.tns"
	run -1 --separate-stderr ts-stat "$b"
	assert_line "$b: invalid"
	assert_line --partial "out of range  1 entries, left out of the counts"
	[[ "$stderr" == *"error: coordinate 9 exceeds dimension 4 of mode 1 [S1]"* ]]
	[[ "$stderr" == *"ts-stat: warning: '$b' breaks rules S1 S2: its statistics are of its entries as read"* ]]
	run -1 --separate-stderr ts-stat -q --json "$b"
	assert_equal "$(echo "$output" | jq -c '[.valid, .broken_rules, .out_of_range]')" '[false,["S1","S2"],1]'
}

@test "ts-stat: --plot writes a spy plot per pair of modes and a histogram per mode, named by modes and dimensions, the same bytes twice" {
	run -0 ts-stat -q --plot p "$REAL/splatt_med.tns"
	assert_line "  picture: p/splatt_med_spy_1-2_2425x10816.png (spy plot of modes 1 (rows) and 2 (columns))"
	assert_line "  picture: p/splatt_med_slices_3_29567.png (histogram of the entries per slice of mode 3, log-log)"
	[ "$(ls p | wc -l)" -eq 6 ]
	# A FROSTT file's dimensions come at its end: bins a power of two
	# wide, between half the size and the size (and a frame).
	run -0 $PNG p/splatt_med_spy_1-2_2425x10816.png
	assert_line --index 0 "341 306"
	refute_line tIME
	assert_line "Modes=1 2"
	assert_line "Dimensions=2425 10816"
	run -0 $PNG p/splatt_med_slices_1_2425.png
	assert_line --index 0 "420 260"
	# Pictures are not replaced without -f; with it, the same bytes.
	cp -r p q
	run -2 ts-stat -q --plot p "$REAL/splatt_med.tns"
	assert_output --partial "exists (-f replaces it)"
	run -0 ts-stat -q -f --plot p "$REAL/splatt_med.tns"
	diff -r p q
	# Dimensions known: each side binned to the size exactly.
	ts-convert -q "$REAL/splatt_med.tns" -o sp
	run -0 ts-stat -q --plot s --size 64 sp
	run -0 $PNG s/sp_spy_2-3_10816x29567.png
	assert_line --index 0 "66 66"
	run -0 ts-stat -q --plot t sp
	run -0 $PNG t/sp_spy_1-2_2425x10816.png
	assert_line --index 0 "514 514"
}

@test "ts-stat: a diagonal tensor's spy plots are diagonal, rows going down the first mode" {
	local i rows=()
	for i in $(seq 1 10); do rows+=("$i $i $i 1"); done
	tns diag "10 10 10" 10 "${rows[@]}"
	run -0 ts-stat -q --plot p diag.tns
	for f in p/diag_spy_1-2_10x10.png p/diag_spy_1-3_10x10.png p/diag_spy_2-3_10x10.png; do
		run -0 $PNG "$f" diag 10
		assert_output diagonal
	done
	# An anti-diagonal one is not.
	rows=()
	for i in $(seq 1 10); do rows+=("$i $((11 - i)) 1 1"); done
	tns anti "10 10 10" 10 "${rows[@]}"
	run -0 ts-stat -q --plot p anti.tns
	run -1 $PNG p/anti_spy_1-2_10x10.png diag 10
	# Large: binned to 512, still diagonal.
	awk 'BEGIN { for (i = 1; i <= 5000; i++) print i, i, 2 }' >rows.txt
	{ printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: d2\n2 5000 5000 5000\n'; cat rows.txt; } >d2.tns
	run -0 ts-stat -q --plot p d2.tns
	run -0 $PNG p/d2_spy_1-2_5000x5000.png diag 512
	assert_output diagonal
}

@test "ts-stat: the README's picture of share/example-block is what its command makes" {
	run -0 ts-stat -q --plot p "$SHARE/example-block"
	diff -r -x "demo-*" p "$SHARE/pictures"
	grep -qF 'ts-stat -q -f --plot share/pictures share/example-block' "$TS_TOP/README.md"
	grep -qF '(share/pictures/example-block_spy_1-2_6x4.png)' "$TS_TOP/README.md"
}

@test "ts-stat: a block bundle's pictures draw its block pattern" {
	run -0 ts-stat -q --plot p "$REF/demo_A"
	run -0 $PNG p/demo_A_spy_1-3_76x60.png
	assert_line --index 0 "482 458"
	run -0 ts-stat -q --json --plot p -f "$REF/demo_A"
	assert_equal "$(echo "$output" | jq '.pictures | length')" 6
}

@test "ts-stat: --readme adds a Statistics section with the tables and the pictures' links, and replaces it on the next run" {
	local b
	b=$(mkbundle "$SHARE/example-element" r)
	run -0 ts-stat -q --readme --plot "$b/plots" "$b"
	run -0 cat "$b/README.md"
	assert_line "## Statistics"
	assert_line "| nnz | 6 of 24 positions: density 0.25 |"
	assert_line "![spy plot of modes 1 (rows) and 2 (columns)](plots/r_spy_1-2_4x3.png)"
	head -n 3 "$SHARE/example-element/README.md" >want
	head -n 3 "$b/README.md" | diff want -
	cp "$b/README.md" first
	run -0 ts-stat -q -f --readme --plot "$b/plots" "$b"
	diff first "$b/README.md"
	[ "$(grep -c '^## Statistics' "$b/README.md")" -eq 1 ]
	run -0 ts-validate "$b"
	# Not a bundle directory: nothing written, a note.
	run -0 ts-stat --readme "$REAL/matmul_2-2-2.tns"
	assert_output --partial "--readme: not a bundle directory"
}

@test "ts-stat: a write error on standard output is an I/O error" {
	run -3 bash -c "ts-stat '$SHARE/example-element' >/dev/full"
	assert_output --partial "ts-stat:"
}

# spread NAME SWAP SIGN ITYPE: a bundle NAME of 6000 entries of 60 x 50 x
# 40 sorted in mode order 3,2,1 with repeats, zeros of both signs and
# NaN among its values (SIGN +: none negative, and no zero in the first
# half, where -0 comes first; integers when ITYPE is int64), two
# neighbours swapped at line SWAP (0: none).
spread() {
	local b
	b=$(mkbundle "$SHARE/example-element" "$1")
	rm -f "$b/$1.tnsb"
	setmeta "$b" files "{\"text\": \"$1.tns\", \"readme\": \"README.md\"}"
	setmeta "$b" endianness '"none"'
	setmeta "$b" sorted '"none"'
	setmeta "$b" sort_order '[]'
	setmeta "$b" duplicates '"allowed"'
	setmeta "$b" explicit_zeros '"allowed"'
	setmeta "$b" dimensions '[60, 50, 40]'
	setmeta "$b" nnz 6000
	[ "$4" = int64 ] && setmeta "$b" value_type '"int64"'
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n' "$1"
		echo "3 60 50 40 6000"
		awk -v sign="$3" -v vt="$4" 'BEGIN {
			for (i = 0; i < 6000; i++) {
				c = int(i / 150) + 1; a = int((i % 150) / 3) + 1
				b = (i % 3) * 20 + c % 20 + 1
				if (vt == "int64")
					v = (i % 11 == 3) ? 0 : (i % 7 == 0) ? -i : i * 3
				else if (i % 97 == 5 && (sign == "-" || i > 3000))
					v = sign == "+" ? "-0" : "0"
				else if (i % 89 == 7 && (sign == "-" || i > 3000))
					v = sign == "+" ? "0" : "-0"
				else if (i % 13 == 0)
					v = "nan"
				else if (i % 17 == 0 && sign != "+")
					v = "-" (i / 7)
				else
					v = i * 0.1
				print b, a, c, v
				if (i % 500 == 250)
					print b, a, c, v
			}
		}' | head -n 6000
	} >"$b/$1.tns"
	if [ "$2" -gt 0 ]; then
		sed -i "$2{h;d};$(($2 + 1)){G}" "$b/$1.tns"
	fi
	echo "$b"
}

@test "ts-stat: the same figures, to the byte, counted by one thread or by the threads that parse, the file cut in chunks of any size" {
	local b fmt cut
	[ "$(nproc)" -ge 2 ] || skip "one CPU: no threads to count on"
	spread sorted 0 - float64 >/dev/null
	spread swapped 4000 - float64 >/dev/null
	spread zeros 0 + float64 >/dev/null
	spread ints 2500 - int64 >/dev/null
	spread bad 2500 - int64 >/dev/null
	sed -i '3000s/^[0-9]* /61 /' bad/bad.tns
	# Every mode decreases within the first rows (they are reversed),
	# the rest in order with its repeats: a thread stops looking at
	# pairs once no order can hold, wherever its batches begin.
	spread reversed 0 - float64 >/dev/null
	{ head -n 4 reversed/reversed.tns; sed -n '5,404p' reversed/reversed.tns |
	    tac; tail -n +405 reversed/reversed.tns; } >rev.tns
	mv rev.tns reversed/reversed.tns
	run -0 ts-stat -q sorted swapped zeros
	assert_line "  sorted      in mode order 3,2,1"
	assert_line "  sorted      in no mode order"
	assert_line --partial "values      6000: min -0, max "
	assert_line "  repeats     12"
	run -0 ts-stat -q --json reversed
	assert_equal "$(echo "$output" | jq -c '.sorted')" false
	# Modes 1 and 2 decrease all along, mode 3 only in the last pair.
	spread lastdown 0 - float64 >/dev/null
	sed -i '$s/^\([0-9]*\) \([0-9]*\) [0-9]* /\1 \2 1 /' lastdown/lastdown.tns
	run -0 ts-stat -q --json lastdown
	assert_equal "$(echo "$output" | jq -c '.sorted')" false
	for b in sorted swapped zeros ints bad reversed lastdown; do
		for fmt in "" --json --csv; do
			rm -rf pic one
			taskset -c 0 ts-stat -q $fmt --plot pic --size 16 "$b" \
			    >one.out || [ "$b" = bad ]
			mv pic one
			for cut in 64 300 4096; do
				TS_CHUNK=$cut ts-stat -q $fmt --plot pic --size 16 \
				    "$b" >par.out || [ "$b" = bad ]
				cmp one.out par.out
				diff -r one pic
				rm -rf pic
			done
		done
	done
	run -1 --separate-stderr ts-stat -q --json bad
	assert_equal "$(echo "$output" | jq -c '.out_of_range')" 1
}
