#!/usr/bin/env bats
# ts-stat: its figures checked against numpy (tests/stats-check.py) on
# the real tensors and the reference bundles, every kind of input, the
# JSON keys and CSV columns, bad input, the pictures (size, the same
# bytes twice, their shape, captions, axes and bars read back from the
# pixels, a diagonal tensor's diagonal spy plot), --readme and the
# pictures in a bundle, a second run that changes nothing.

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
		assert_equal "$(echo "$output" | jq -c '[.sparsity_type, .blocks.grid, .blocks.count, .nnz]')" \
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
	# 2 / 55340232221128654848, the nearest double, shortest
	assert_output --partial '"density": 3.614007241618348e-20'
	run -0 ts-stat big.tns
	assert_line --partial "2 of 55340232221128654848 positions: density 3.614007241618348e-20"
}

@test "ts-stat: the density, the fill, each share and mean of counts is the nearest double, printed shortest, the same in JSON, CSV and text" {
	# abb313: 1557 / (313 x 176) to 17 digits is 0.028263868719140285,
	# which reads back as the neighbour of the nearest double.
	run -0 ts-stat -q --json "$DATA/mtx/abb313.mtx" "$REF/demo_A"
	echo "$output" >j
	run -0 ts-stat -q --csv "$DATA/mtx/abb313.mtx" "$REF/demo_A"
	echo "$output" >c
	/usr/bin/python3 - j c <<'PY'
import csv, decimal, json, sys
rows = list(csv.DictReader(open(sys.argv[2])))
def nearest(what, text, n, p):
    want = n / p   # Python divides integers to the nearest double
    got = decimal.Decimal(text).normalize().as_tuple().digits
    assert float(text) == want and got == decimal.Decimal(repr(want)).normalize().as_tuple().digits, (what, text, repr(want))
for line, row in zip(open(sys.argv[1]), rows):
    raw = json.loads(line, parse_float=str, parse_int=str)
    nearest("density", raw["density"], int(raw["nnz"]), int(raw["positions"]))
    assert row["density"] == raw["density"], (row["density"], raw["density"])
    blocks = raw["blocks"]
    n = int(blocks["count"]) if blocks else int(raw["nnz"])
    shares, means = [], []
    for m in raw["modes"]:
        nearest("share", m["share"], int(m["nonempty"]), int(m["dimension"]))
        nearest("mean", m["mean"], n, int(m["nonempty"]))
        shares.append(m["share"]); means.append(m["mean"])
    assert row["mode_share"] == ";".join(shares), row["mode_share"]
    assert row["mode_nnz_mean"] == ";".join(means), row["mode_nnz_mean"]
    if blocks:
        nearest("fill", blocks["fill"], n, int(blocks["grid_positions"]))
        nearest("size mean", blocks["size_mean"], int(blocks["elements"]), n)
        assert row["block_fill"] == blocks["fill"]
        assert row["block_size_mean"] == blocks["size_mean"]
PY
	grep -q '"density": 0.028263868719140283,' j
	run -0 ts-stat "$DATA/mtx/abb313.mtx"
	assert_line --partial "1557 of 55088 positions: density 0.028263868719140283"
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

@test "ts-stat: an estimate of non-empty slices is never below the bins that counted an entry" {
	# 22,000 entries, each in a bin of 2^15 slices of its own: the
	# sketch alone says 21915.
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: b\n2 1099511627776 2 22000"
	    for (i = 0; i < 22000; i++) print i * 32768 + 1, 1 }' >b.tns
	run -0 ts-stat -q --json b.tns
	assert_equal "$(echo "$output" | jq -c '.modes[0] | [.nonempty, .estimated]')" "[22000,true]"
}

@test "ts-stat: 'sorted' is the metadata's sort_order when it holds; else the modes that never decrease first, in mode order" {
	# Sorted in mode order 1,2,3,4, mode 4 of dimension 1: 1,4,2,3
	# holds too.
	tns q "3 3 3 1" 4 "1 1 2 1 0.5" "1 2 1 1 1" "2 1 3 1 2" "3 3 1 1 4"
	ts-convert -q q.tns -o qb
	grep -q '"sort_order": \[1, 2, 3, 4\]' qb/qb_metadata.json
	run -0 ts-stat -q --json qb
	assert_equal "$(echo "$output" | jq -c .sorted)" "[1,2,3,4]"
	run -0 ts-stat -q qb
	assert_line "  sorted      in mode order 1,2,3,4"
	run -0 ts-stat -q --csv qb
	[[ "${lines[1]}" == *,1\;2\;3\;4,* ]]
	# No metadata: the greedy choice, as the man page says.
	run -0 ts-stat -q --json q.tns
	assert_equal "$(echo "$output" | jq -c .sorted)" "[1,4,2,3]"
	# matmul_2-2-2, sorted 3,2,1 by ts-convert's metadata; 3,1,2 holds
	# too.
	ts-convert -q "$REAL/matmul_2-2-2.tns" -o mm
	grep -q '"sort_order": \[3, 2, 1\]' mm/mm_metadata.json
	run -0 ts-stat -q --json mm
	assert_equal "$(echo "$output" | jq -c .sorted)" "[3,2,1]"
	run -0 ts-stat -q --json "$REAL/matmul_2-2-2.tns"
	assert_equal "$(echo "$output" | jq -c .sorted)" "[3,1,2]"
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

@test "ts-stat: the distinct values past 4096 are estimated within what is certain: more than 4096, no more than the values" {
	# 4200 distinct values, which the sketch alone takes for 4231;
	# 4097, for 4052.
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: d\n1 4200 4200"
	    for (i = 1; i <= 4200; i++) print i, -i }' >d.tns
	run -0 ts-stat -q --json d.tns
	assert_equal "$(echo "$output" | jq -c '.values | [.count, .distinct, .distinct_exact]')" "[4200,4200,false]"
	run -0 ts-stat d.tns
	assert_line --partial "; about 4200 distinct"
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: e\n1 4097 4097"
	    for (i = 1; i <= 4097; i++) print i, i }' >e.tns
	run -0 ts-stat -q --json e.tns
	assert_equal "$(echo "$output" | jq -c '.values | [.count, .distinct, .distinct_exact]')" "[4097,4097,true]"
}

@test "ts-stat: --json has every documented key, one object a line; --csv one header and one row a tensor, of the same columns" {
	local keys
	run -0 ts-stat -q --json "$SHARE"/example-*
	assert_equal "${#lines[@]}" 3
	keys=$(echo "${lines[0]}" | jq -r 'keys_unsorted | join(" ")')
	assert_equal "$keys" "$(ts-stat --csv /dev/null 2>/dev/null | head -n 1 | tr ',' ' ') readable status errors warnings files pictures dimensions_inferred index_base_inferred values modes fibers blocks"
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

@test "ts-stat: --csv cells of text that start as a formula get a quote and are quoted, names not printable UTF-8 are in their text form, numbers stay numbers" {
	local f
	for f in '=1+2' '+x' '-y' '@z' "$(printf '\tt')" "$(printf 'b\377')" "$(printf 'n\nl')" plain; do
		printf '1 1 -2.5\n2 2 3\n' >"./$f.tns"
	done
	run -0 ts-stat -q --csv -- *.tns
	echo "$output" >out.csv
	/usr/bin/python3 - out.csv <<'PY'
import csv, sys
data = open(sys.argv[1], "rb").read()
rows = list(csv.DictReader(data.decode("utf-8").splitlines()))
got = {r["path"]: r["name"] for r in rows}
want = {"'=1+2.tns": "'=1+2", "'+x.tns": "'+x", "'-y.tns": "'-y",
        "'@z.tns": "'@z", "''$'\\t''t.tns'": "''$'\\t''t'",
        "'b'$'\\377''.tns'": "'b'$'\\377'",
        "'n'$'\\n''l.tns'": "'n'$'\\n''l'", "plain.tns": "plain"}
assert got == want, got
assert all(r["value_min"] == "-2.5" and r["value_max"] == "3" for r in rows)
PY
	# A neutralised cell is quoted; a negative number is not.
	grep -qF '"'"'"'=1+2",,,"'"'"'=1+2.tns",' out.csv
	grep -q ',-2\.5,3,' out.csv
	# One line a row: no raw line break, no byte a terminal acts on.
	[ "$(wc -l <out.csv)" -eq 9 ]
	tr -d '\n' <out.csv >flat
	run -1 grep -q '[[:cntrl:]]' flat
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

@test "ts-stat: --plot=DIR writes into DIR/NAME a card, a spy plot per pair of modes, a histogram per mode and one of the values, named by modes and dimensions; the same bytes again are left alone" {
	run -0 ts-stat -q --plot=p "$REAL/splatt_med.tns"
	assert_line "  picture: p/splatt_med/splatt_med_card.png (the spy plots of the pairs of modes, side by side)"
	assert_line "  picture: p/splatt_med/splatt_med_spy_1-2_2425x10816.png (spy plot of modes 1 (rows) and 2 (columns))"
	assert_line "  picture: p/splatt_med/splatt_med_slices_3_29567.png (histogram of the entries per slice of mode 3, log-log)"
	assert_line "  picture: p/splatt_med/splatt_med_values.png (histogram of the values by sign and magnitude, log-scaled counts)"
	[ "$(ls p/splatt_med | wc -l)" -eq 8 ]
	# A FROSTT file's dimensions come at its end: bins a power of two
	# wide, the larger side between half the size and the size.
	run -0 $PNG frame p/splatt_med/splatt_med_spy_1-2_2425x10816.png
	assert_output "p/splatt_med/splatt_med_spy_1-2_2425x10816.png: 339 76"
	run -0 $PNG p/splatt_med/splatt_med_spy_1-2_2425x10816.png
	refute_line tIME
	assert_line "Modes=1 2"
	assert_line "Dimensions=2425 10816"
	assert_line "Description=splatt_med: 2425 x 10816 x 29567, nnz 100000"
	# The card: every pair, each mode's number on its axes.
	run -0 $PNG labels p/splatt_med/splatt_med_card.png
	assert_output --partial "p/splatt_med/splatt_med_card.png: splatt_med: 2425 x 10816 x 29567, nnz 100000 mode 2 mode 3 mode 3 "
	run -0 $PNG labels-up p/splatt_med/splatt_med_card.png
	assert_output "p/splatt_med/splatt_med_card.png: mode 1 mode 1 mode 2"
	# Again: the same bytes are left alone, and the run is good.
	cp -r p q
	touch -d @946684800 p/splatt_med/*.png
	run -0 ts-stat -q --plot=p "$REAL/splatt_med.tns"
	diff -r p q
	[ -z "$(find p -type f -newermt @946684801)" ]
	# Another picture in a picture's place is replaced only with -f.
	cp p/splatt_med/splatt_med_values.png p/splatt_med/splatt_med_card.png
	run -2 --separate-stderr ts-stat -q --plot=p "$REAL/splatt_med.tns"
	assert_equal "$stderr" "ts-stat: 'p/splatt_med/splatt_med_card.png' exists, another picture (-f replaces it)"
	run -0 ts-stat -q -f --plot=p "$REAL/splatt_med.tns"
	diff -r p q
	# Dimensions known: the larger side binned to the size exactly,
	# the other alike.
	ts-convert -q "$REAL/splatt_med.tns" -o sp
	run -0 ts-stat -q --plot=s --size 64 sp
	run -0 $PNG frame s/sp/sp_spy_2-3_10816x29567.png s/sp/sp_spy_1-3_2425x29567.png
	assert_line "s/sp/sp_spy_2-3_10816x29567.png: 64 24"
	assert_line "s/sp/sp_spy_1-3_2425x29567.png: 64 6"
	run -2 ts-stat --plot= sp
	assert_output --partial "--plot=: a directory, or none for each bundle's own"
}

@test "ts-stat: a spy plot keeps the tensor's shape, each bin a square: a 5 x 201 tensor is drawn wide; its caption says what it is, its axes the modes, ticks at round coordinates" {
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: w\n2 5 201 1005"
	    for (i = 1; i <= 5; i++) for (j = 1; j <= 201; j++) print i, j, 1 }' >w.tns
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: t\n2 201 5 1005"
	    for (i = 1; i <= 201; i++) for (j = 1; j <= 5; j++) print i, j, 1 }' >t.tns
	run -0 ts-stat -q --plot=p w.tns t.tns
	# Two pixels a bin each way (512 / 201): 402 x 10, and 10 x 402.
	run -0 $PNG frame p/w/w_spy_1-2_5x201.png p/t/t_spy_1-2_201x5.png
	assert_line "p/w/w_spy_1-2_5x201.png: 402 10"
	assert_line "p/t/t_spy_1-2_201x5.png: 10 402"
	run -0 $PNG labels p/w/w_spy_1-2_5x201.png p/t/t_spy_1-2_201x5.png
	assert_line "p/w/w_spy_1-2_5x201.png: w: 5 x 201, nnz 1005 mode 2 1 20 40 60 80 100 120 140 160 180 200 1"
	assert_line "p/t/t_spy_1-2_201x5.png: t: 201 x 5, nnz 1005 mode 2 1 1 20 40 60 80 100 120 140 160 180 200"
	run -0 $PNG labels-up p/w/w_spy_1-2_5x201.png
	assert_output "p/w/w_spy_1-2_5x201.png: mode 1"
	# Binned: 76 x 1320 elements of a block tensor, 512 bins across
	# and 30 down (76 * 512 / 1320 = 29.5); 0-based, ticks from 0.
	run -0 ts-stat -q --plot=b "$REF/demo_A"
	run -0 $PNG frame b/demo_A/demo_A_spy_1-2_76x1320.png
	assert_output "b/demo_A/demo_A_spy_1-2_76x1320.png: 512 30"
	run -0 $PNG labels b/demo_A/demo_A_spy_1-2_76x1320.png
	assert_output "b/demo_A/demo_A_spy_1-2_76x1320.png: demo_A: 76 x 1320 x 60, nnz 120384 in 836 blocks mode 2 0 200 400 600 800 1000 1200 0"
}

@test "ts-stat: a histogram's counts rise from a true zero baseline, a bar of one as high as the tick of 1; the largest count in full however wide, the buckets' powers of two; its axes titled" {
	# Mode 1: a slice of 1 entry, one of 2, ten of 4.
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: h\n2 12 4 43"
	    print 1, 1; print 2, 1; print 2, 2
	    for (i = 3; i <= 12; i++) for (j = 1; j <= 4; j++) print i, j }' >h.tns
	# Mode 2: 1,234,567 slices of one entry (the label was cut to
	# "34567"); mode 1: one slice of them all, in bucket 2^20.
	awk 'BEGIN { for (i = 1; i <= 1234567; i++) print "1 " i " 1" }' >wide.tns
	# A round count is not shortened: 3072 is not "3K".
	awk 'BEGIN { for (i = 1; i <= 3072; i++) print "1 " i " 1" }' >r.tns
	run -0 ts-stat -q --plot=p h.tns wide.tns r.tns
	# 180 pixels for 10 slices: log(1 + n) / log(11) of it; 1 at 52.
	run -0 $PNG axis p/h/h_slices_1_12.png
	assert_output "base 211
10 180
1 52
0 0
bars 52 52 180"
	run -0 $PNG labels p/h/h_slices_1_12.png
	assert_output "p/h/h_slices_1_12.png: h: 12 x 4, nnz 43 10 1 0 1 2 4 entries per slice"
	run -0 $PNG labels-up p/h/h_slices_1_12.png
	assert_output "p/h/h_slices_1_12.png: slices"
	run -0 $PNG axis p/wide/wide_slices_2_1234567.png
	assert_line "1234567 180"
	assert_line "0 0"
	run -0 $PNG labels p/wide/wide_slices_1_1.png p/r/r_slices_2_3072.png
	assert_line "p/wide/wide_slices_1_1.png: wide: 1 x 1234567, nnz 1234567 1 0 1 16 256 4K 64K 1M entries per slice"
	assert_line "p/r/r_slices_2_3072.png: r: 1 x 3072, nnz 3072 3072 1000 100 10 1 0 1 entries per slice"
}

@test "ts-stat: the histogram of the values: by sign and magnitude, zeros at 0, counts log-scaled from zero, NaN and infinities counted beside" {
	tns v "4 4" 16 "1 1 -100" "1 2 -1" "1 3 -1" "1 4 0" "2 1 0.5" "2 2 0.5" \
	    "2 3 0.5" "2 4 1" "3 1 1" "3 2 1" "3 3 1" "3 4 10" "4 1 nan" \
	    "4 2 nan" "4 3 inf" "4 4 -inf"
	run -0 ts-stat -q --plot=p v.tns
	run -0 $PNG labels p/v/v_values.png
	assert_output "p/v/v_values.png: v: 4 x 4, nnz 16 4 2 2 1 0 -100 -10 0 1 10 NaN inf value"
	# A bar a power of two: -100, -1, the zero, 0.5, 1 and 10; then
	# the NaNs and the infinities.
	run -0 $PNG axis p/v/v_values.png
	assert_output "base 211
4 180
1 78
0 0
bars 78 123 78 155 180 78 123 123"
	run -0 $PNG labels-up p/v/v_values.png
	assert_output "p/v/v_values.png: entries"
	# Integers: no NaN nor infinity to count; 1 to 15, a bar each
	# (eight buckets a power of two).
	awk 'BEGIN { print "%%TensorSuite-TNS\n% version: 0.1\n% name: n\n1 15 15"
	    for (i = 1; i <= 15; i++) print i, i }' >n.tns
	ts-convert -q n.tns --value-type int32 -o n
	run -0 ts-stat -q --plot=p n
	run -0 $PNG labels p/n/n_values.png
	assert_output "p/n/n_values.png: n: 15, nnz 15 1 0 1 10 value"
	run -0 $PNG axis p/n/n_values.png
	assert_line "bars 180 180 180 180 180 180 180 180 180 180 180 180 180 180 180"
}

@test "ts-stat: a diagonal tensor's spy plots are diagonal, rows going down the first mode" {
	local i rows=()
	for i in $(seq 1 10); do rows+=("$i $i $i 1"); done
	tns diag "10 10 10" 10 "${rows[@]}"
	run -0 ts-stat -q --plot=p diag.tns
	for f in p/diag/diag_spy_1-2_10x10.png p/diag/diag_spy_1-3_10x10.png p/diag/diag_spy_2-3_10x10.png; do
		run -0 $PNG "$f" diag 10
		assert_output diagonal
	done
	# An anti-diagonal one is not.
	rows=()
	for i in $(seq 1 10); do rows+=("$i $((11 - i)) 1 1"); done
	tns anti "10 10 10" 10 "${rows[@]}"
	run -0 ts-stat -q --plot=p anti.tns
	run -1 $PNG p/anti/anti_spy_1-2_10x10.png diag 10
	# Large: binned to 512, still diagonal.
	awk 'BEGIN { for (i = 1; i <= 5000; i++) print i, i, 2 }' >rows.txt
	{ printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: d2\n2 5000 5000 5000\n'; cat rows.txt; } >d2.tns
	run -0 ts-stat -q --plot=p d2.tns
	run -0 $PNG p/d2/d2_spy_1-2_5000x5000.png diag 512
	assert_output diagonal
}

@test "ts-stat: the README's picture of share/example-block is what its command makes" {
	run -0 ts-stat -q --plot=p "$SHARE/example-block"
	diff -r -x "demo-*" p "$SHARE/pictures"
	grep -qF 'ts-stat -q -f --plot=share/pictures share/example-block' "$TS_TOP/README.md"
	grep -qF '(share/pictures/example-block/example-block_spy_1-2_6x4.png)' "$TS_TOP/README.md"
}

@test "ts-stat: a block bundle's pictures draw its block pattern" {
	run -0 ts-stat -q --plot=p "$REF/demo_A"
	run -0 $PNG frame p/demo_A/demo_A_spy_1-3_76x60.png
	assert_output "p/demo_A/demo_A_spy_1-3_76x60.png: 360 456"
	run -0 ts-stat -q --json --plot=p -f "$REF/demo_A"
	assert_equal "$(echo "$output" | jq '.pictures | length')" 7
}

@test "ts-stat: --readme --plot puts the pictures into the bundle's folder pictures/ and links them from a Statistics section, which a next run replaces; --readme alone keeps the links to the pictures there" {
	local b
	b=$(mkbundle "$SHARE/example-element" r)
	run -0 ts-stat -q --readme --plot "$b"
	assert_line "  picture: $b/pictures/r_card.png (the spy plots of the pairs of modes, side by side)"
	run -0 cat "$b/README.md"
	assert_line "## Statistics"
	assert_line "| nnz | 6 of 24 positions: density 0.25 |"
	assert_line "![the spy plots of the pairs of modes, side by side](pictures/r_card.png)"
	assert_line "![spy plot of modes 1 (rows) and 2 (columns)](pictures/r_spy_1-2_4x3.png)"
	assert_line "![histogram of the values by sign and magnitude, log-scaled counts](pictures/r_values.png)"
	[ "$(grep -c '^!\[' "$b/README.md")" -eq 8 ]
	[ "$(ls "$b/pictures" | wc -l)" -eq 8 ]
	head -n 3 "$SHARE/example-element/README.md" >want
	head -n 3 "$b/README.md" | diff want -
	cp "$b/README.md" first
	# Without --plot, the links to the pictures there.
	run -0 ts-stat -q --readme "$b"
	diff first "$b/README.md"
	[ "$(grep -c '^## Statistics' "$b/README.md")" -eq 1 ]
	rm "$b/pictures/r_card.png"
	run -0 ts-stat -q --readme "$b"
	[ "$(grep -c '^!\[' "$b/README.md")" -eq 7 ]
	run -1 grep -q r_card "$b/README.md"
	run -0 ts-validate "$b"
	assert_output "$b: valid (0 errors, 0 warnings)"
	# Not a bundle directory: nothing written, a note.
	run -0 ts-stat --readme "$REAL/matmul_2-2-2.tns"
	assert_output --partial "--readme: not a bundle directory"
	run -0 --separate-stderr ts-stat --plot "$REAL/matmul_2-2-2.tns"
	[[ "$stderr" == *"note: --plot: not a bundle directory; nothing written into it (--plot=DIR writes its pictures into DIR)"* ]]
}

@test "ts-stat: --readme --plot -r over a collection, run again, changes nothing: the same bytes, exit 0, no 'exists'; a picture gone or one too many, and the folder is written anew" {
	mkdir coll
	ts-convert -q "$REAL/matmul_2-2-2.tns" -o coll/matmul
	ts-convert -q "$DATA/mtx/abb313.mtx" -o coll/abb313
	cp -r "$REF/demo_A" "$SHARE/example-element" coll/
	chmod -R u+w coll
	run -0 ts-stat -q --readme --plot -r coll
	sums() { (cd coll && find ./*/ -type f | sort | xargs sha256sum); }
	sums >first
	[ "$(find coll -path '*/pictures/*.png' | wc -l)" -eq 26 ]
	# Again: nothing is written; every file, every folder as it was.
	find coll/*/ -exec touch -h -d @946684800 {} +
	run -0 --separate-stderr ts-stat --readme --plot -r coll
	refute_output --partial "exists"
	[ -z "$stderr" ]
	sums | diff first -
	[ -z "$(find coll/*/ -newermt @946684801)" ]
	# --readme alone keeps the links to the pictures there.
	run -0 ts-stat -q --readme -r coll
	sums | diff first -
	# A picture gone, a file of nobody's there: the folder anew.
	rm coll/matmul/pictures/matmul_card.png
	echo old >coll/matmul/pictures/old.png
	run -0 ts-stat -q --readme --plot -r coll
	sums | diff first -
	[ -z "$(find coll/abb313/ coll/demo_A/ -newermt @946684801)" ]
	# A folder of pictures that is no folder: said, nothing written.
	rm -r coll/abb313/pictures
	ln -s ../matmul/pictures coll/abb313/pictures
	cp coll/abb313/README.md before
	run -3 --separate-stderr ts-stat -q --readme --plot coll/abb313
	[[ "$stderr" == *"ts-stat: coll/abb313/pictures: a symbolic link: the pictures of a bundle go into a folder of it; none written"* ]]
	cmp before coll/abb313/README.md
}

@test "ts-stat: a name from the metadata reaches the text report in its text form, as ts-validate prints it" {
	local b r
	b=$(mkbundle "$SHARE/example-element" n)
	r=$(printf 'R\033[31m.md')
	mv "$b/README.md" "$b/$r"
	setmeta "$b" files '{"text": "n.tns", "binary": "n.tnsb", "readme": "R\u001b[31m.md"}'
	run -0 ts-stat "$b"
	assert_line "  file        'R'\$'\\033''[31m.md', 211 bytes"
	run -1 grep -q "$(printf '\033')" <<<"$output"
}

@test "ts-stat: --readme links pictures by their paths percent-encoded: no name starts a line, markup or HTML in the README" {
	local b d
	b=$(mkbundle "$SHARE/example-element" m)
	d=$(printf '%s/p\n## Injected <img src=x onerror=alert(1)>' "$b")
	run -0 ts-stat -q --readme --plot="$d" "$b"
	run -1 grep -q '^## Injected' "$b/README.md"
	run -1 grep -q '<img' "$b/README.md"
	assert_equal "$(grep -c '^!\[' "$b/README.md")" 8
	grep -qxF '![spy plot of modes 1 (rows) and 2 (columns)](p%0A%23%23%20Injected%20%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E/m/m_spy_1-2_4x3.png)' "$b/README.md"
	# Each link, decoded, is a picture that is there.
	cd "$b"
	sed -n 's/^!\[[^]]*](\(.*\))$/\1/p' README.md | /usr/bin/python3 -c '
import os, sys, urllib.parse
for u in sys.stdin.read().split():
    assert os.path.isfile(urllib.parse.unquote(u)), u'
}

@test "ts-stat: --readme --plot writes nothing into an invalid bundle" {
	local b
	b=$(mkbundle "$SHARE/example-element" v)
	rm -f "$b/v.tnsb"
	setmeta "$b" files '{"text": "v.tns", "readme": "README.md"}'
	setmeta "$b" endianness '"none"'
	sed -i '5s/^1 /9 /' "$b/v.tns"
	cp "$b/README.md" before
	run -1 --separate-stderr ts-stat --readme --plot "$b"
	cmp before "$b/README.md"
	[ ! -e "$b/pictures" ]
	[[ "$stderr" == *"note: --readme: the bundle is not valid: nothing is written into it"* ]]
}

@test "ts-stat: --readme never reads through a link nor from a FIFO or a device, and writes nothing then" {
	local b
	b=$(mkbundle "$SHARE/example-element" l)
	echo secret >secret
	chmod 600 secret
	rm "$b/README.md"
	ln -s "$BATS_TEST_TMPDIR/secret" "$b/README.md"
	run -3 --separate-stderr ts-stat -q --readme "$b"
	[[ "$stderr" == *"ts-stat: $b/README.md: a symbolic link: a README is written into a regular file of the bundle only; nothing written"* ]]
	[ -L "$b/README.md" ]
	run -1 grep -rq secret "$b"
	# A link to a device that never ends, a FIFO: no wait.
	ln -sf /dev/zero "$b/README.md"
	run -3 timeout 10 ts-stat -q --readme "$b"
	rm "$b/README.md"
	mkfifo "$b/README.md"
	run -3 --separate-stderr timeout 10 ts-stat -q --readme "$b"
	[[ "$stderr" == *"ts-stat: $b/README.md: not a regular file: a README is written into a regular file of the bundle only; nothing written"* ]]
	[ -p "$b/README.md" ]
}

@test "ts-stat: --readme never writes into the data or the metadata that files.readme names (B3)" {
	local b f
	b=$(mkbundle "$SHARE/example-element" d)
	cp -r "$b" saved
	for f in d.tns d_metadata.json; do
		setmeta "$b" files.readme "\"$f\""
		cp "$b/d_metadata.json" saved/
		run -1 --separate-stderr ts-stat --readme "$b"
		[[ "$stderr" == *"[B3]"* ]]
		diff -r saved "$b"
	done
}

@test "ts-stat: --readme reads the entries under the bundle's lock: a rewrite waits, or is waited for, and the section says what the bundle holds" {
	local b fd pid i
	b=$(mkbundle "$SHARE/example-element" w)
	mkdir new
	ts-convert -q "$REAL/matmul_2-2-2.tns" -o new/w
	# Hold the lock as a writer of w would, and let ts-stat wait for
	# it; meanwhile, the writer replaces the bundle (8 entries for 6).
	exec {fd}>"$BATS_TEST_TMPDIR/.w.lock"
	flock -x "$fd"
	ts-stat -q --readme "$b" >/dev/null {fd}>&- &
	pid=$!
	for i in $(seq 200); do
		grep -q "^[0-9]*: -> FLOCK *ADVISORY *WRITE $pid " /proc/locks && break
		sleep 0.05
	done
	grep -q "^[0-9]*: -> FLOCK *ADVISORY *WRITE $pid " /proc/locks
	mv "$b" old
	mv new/w "$b"
	exec {fd}>&-
	wait "$pid"
	grep -qxF '| nnz | 8 of 64 positions: density 0.125 |' "$b/README.md"
	run -0 ts-validate "$b"
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
			taskset -c 0 ts-stat -q $fmt --plot=pic --size 16 "$b" \
			    >one.out || [ "$b" = bad ]
			mv pic one
			for cut in 64 300 4096; do
				TS_CHUNK=$cut ts-stat -q $fmt --plot=pic --size 16 \
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
