#!/usr/bin/env bats
# ts-convert(1): the command line, then the man page in its order: what
# SRC is, where the attributes of a bare data file or stream come from,
# FROSTT import and export, Matrix Market, output bundles, changes of
# attributes, exit status and the promises about outputs and inputs.
#
# Each test runs in its own $BATS_TEST_TMPDIR, so that paths in messages
# read "t/t.tns" and "nothing left behind" is `ls -A` of that directory.
# Real data: tests/data/real (FROSTT), tests/data/mtx (Matrix Market);
# golden metadata: tests/data/convert (see its README.md).

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	REAL=$DATA/real
	MTX=$DATA/mtx
	EL=$SHARE/example-element
	ELMETA=$EL/example-element_metadata.json
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# meta BUNDLE FILTER: the bundle's metadata through a jq filter, compact.
meta() {
	jq -c "$2" "$1/${1##*/}_metadata.json"
}

# rows FILE ROW...: write a FROSTT file, one argument per row.
rows() {
	local f=$1
	shift
	printf '%s\n' "$@" >"$f"
}

# only NAME...: the working directory holds exactly these names (and the
# files bats keeps for `run --separate-stderr`), so that a refused
# conversion left neither its output nor a temporary behind.
only() {
	local want=
	if [ $# -gt 0 ]; then
		want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	fi
	assert_equal "$(ls -A | grep -v '^separate-stderr-' | sort |
	    tr '\n' ' ')" "$want"
}

# valid BUNDLE: ts-validate finds no error and no warning in it (notes,
# such as the one on binary files without values, do not count).
valid() {
	run ts-validate "$1"
	assert_success
	assert_line "$1: valid (0 errors, 0 warnings)"
}

# The entries of share/example-element and share/example-binary.
el_rows='1 1 1 2.5
1 3 2 -1.25
2 2 1 1e-300
3 1 2 0.1
4 2 2 3
4 3 1 1e+16'
bin_rows='1 2 7
2 1 7
3 3 -4
5 4 12'

# =====================================================================
# Command line
# =====================================================================

@test "ts-convert: -h, --help, -V and --version print to stdout and exit 0" {
	for o in -h --help; do
		run --separate-stderr ts-convert "$o"
		assert_success
		assert_line --index 0 "usage: ts-convert [options] SRC DST"
		assert_line --index 1 "       ts-convert [options] SRC -o DST"
		assert_output --partial "--input-index-type"
		assert_output --partial "Exit status: 0 done, 1 the input was rejected, 2 usage error, 3 I/O error."
		assert_equal "$stderr" ""
	done
	for o in -V --version; do
		run --separate-stderr ts-convert "$o"
		assert_success
		assert_output "ts-convert (TensorSuite) 0.1.0"
	done
}

@test "ts-convert: usage errors exit 2 and write nothing" {
	run --separate-stderr ts-convert "$EL"
	assert_failure 2
	[[ $stderr == *"give DST after SRC, or with -o"* ]]
	[[ $stderr == *"usage: ts-convert"* ]]
	run ts-convert -o out
	assert_failure 2
	assert_output --partial "give SRC and DST"
	run ts-convert "$EL" "$SHARE/example-binary" -o out
	assert_failure 2
	assert_output --partial "give DST once: after SRC or with -o"
	run ts-convert "$EL" "$SHARE/example-binary" out
	assert_failure 2
	assert_output --partial "give one SRC and one DST"
	run ts-convert --no-such-option "$EL" -o out
	assert_failure 2
	assert_output --partial "usage: ts-convert"
	for bad in "--from tnsx" "--value-type float16" "--index-type uint16" \
	    "--endian none" "--input-endian middle" "--index-base 2" \
	    "--input-base -1" "--input-index-type int32" \
	    "--input-value-type double" "--source-type fake" \
	    "--dims 3,0" "--dims 3,x" "--dims 3,,4" "--dims -3" \
	    "--from cutensor"; do
		run ts-convert $bad "$EL" -o out
		[ "$status" -eq 2 ] || { echo "$bad: status $status"; false; }
	done
	run ts-convert --dims '' "$EL" -o out
	assert_failure 2
	assert_output --partial "is not a list of positive integers"
	only
}

@test "ts-convert: '-' twice, as SRC and --meta, is a usage error (2), before anything is read" {
	{ ts-convert --meta - - -o - 2>err && echo rc=0 || echo "rc=$?"; cat; } <"$ELMETA" >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat "$ELMETA")"
	grep -q "^ts-convert: '-' (standard input) is given twice; it can be read only once$" err
	rm err out
	run ts-convert --meta - - -o x.tnsb </dev/null
	assert_failure 2
	only
	# --meta from standard input, SRC a file: fine.
	run -0 ts-convert --meta - "$EL/example-element.tns" -o x.tnsb <"$ELMETA"
	only x.tnsb
}

@test "ts-convert: a value not in an option's list names the allowed ones, and every usage error ends with Try --help" {
	run --separate-stderr ts-convert --to xml "$EL" -o out
	assert_failure 2
	assert_output ""
	# The formats' table in its order (more may follow).
	assert_equal "${stderr%%, cutensor*}" "ts-convert: --to: 'xml': expected one of bundle, tns, tnsb, frostt, mtx"
	assert_equal "${stderr##*$'\n'}" "Try 'ts-convert --help'."
	run -2 ts-convert --from auto "$EL" -o out
	# cutensor is written, not read.
	assert_line --index 0 --regexp "^ts-convert: --from: 'auto': expected one of bundle, tns, tnsb, frostt, mtx(, [a-z0-9-]+)*\$"
	refute_line --partial cutensor
	# none is no byte order of a binary output.
	run -2 ts-convert --endian none "$EL" -o out.tnsb
	assert_line --index 0 "ts-convert: --endian: 'none': expected one of little, big"
	run -2 ts-convert --input-value-type double "$EL" -o out
	assert_line --index 0 "ts-convert: --input-value-type: 'double': expected one of float32, float64, int32, int64"
	local bad
	for bad in "--no-such-option" "--to xml" "--from cutensor" \
	    "--source-type fake" "--dims 3,x" "$EL" "-o out" \
	    "$EL out -o out2" "$EL out out2"; do
		run ts-convert $bad
		[ "$status" -eq 2 ] || { echo "$bad: status $status"; false; }
		assert_equal "${lines[-1]}" "Try 'ts-convert --help'."
	done
	only
}

@test "ts-convert: SRC DST works as SRC -o DST, as cp takes them" {
	run -0 ts-convert "$EL" out
	valid out
	run -0 ts-convert "$SHARE/example-binary" out.tns
	assert_equal "$(sed -n 4p out.tns)" "2 5 4 4"
	run -0 ts-convert "$EL" -
	assert_output "$(cat "$EL/example-element.tns")"
	run -0 ts-convert - out.mtx <"$MTX/LFAT5.mtx"
	run -0 ts-convert out.mtx - --to frostt
	assert_equal "${#lines[@]}" 46
	# The same promises as -o: an existing DST is refused without -f.
	run -2 ts-convert "$EL" out.tns
	assert_output "ts-convert: 'out.tns' exists (-f replaces it)"
	only out out.tns out.mtx
}

# =====================================================================
# Input: what SRC is
# =====================================================================

@test "ts-convert: the kind of a data file comes from its first bytes, not its name" {
	cp "$EL/example-element.tns" text.dat
	run -0 ts-convert -q text.dat -o - --to frostt
	assert_output "$el_rows"
	rows frostt.tns '1 1 2.5' '2 3 -1'
	run -0 ts-convert -q frostt.tns -o -
	assert_line --index 3 "2 2 3 2"
	cp "$EL/example-element.tnsb" binary.tns
	run ts-convert binary.tns -o -
	assert_failure 2
	assert_output --partial "--input-index-type"
	cp "$MTX/LFAT5.mtx" matrix.txt
	run -0 ts-convert -q matrix.txt -o -
	assert_line --index 3 "2 14 14 46"
}

@test "ts-convert: DST '-' is a TensorSuite text stream; --to picks another kind" {
	run -0 ts-convert "$SHARE/example-binary" -o -
	assert_line --index 0 "%%TensorSuite-TNS"
	run -0 ts-convert "$SHARE/example-binary" -o - --to tnsb
	assert_line --index 0 "%%TensorSuite-TNSB"
	run -0 ts-convert "$SHARE/example-binary" -o - --to frostt
	assert_output "$bin_rows"
	run -0 ts-convert "$SHARE/example-binary" -o - --to mtx
	assert_line --index 0 "%%MatrixMarket matrix coordinate integer general"
	only
}

@test "ts-convert: SRC is a bundle directory, its metadata file, or a data file inside it" {
	run -0 ts-convert "$EL" -o -
	assert_output "$(cat "$EL/example-element.tns")"
	run -0 ts-convert "$ELMETA" -o -
	assert_output "$(cat "$EL/example-element.tns")"
	run -0 ts-convert --from bundle "$SHARE/example-binary" -o - --to frostt
	assert_output "$bin_rows"
	# A data file inside its bundle is read with the bundle's metadata.
	run --separate-stderr ts-convert "$SHARE/example-binary/example-binary.tnsb" -o -
	assert_success
	assert_equal "$stderr" ""
	assert_output "$(printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: example-binary\n2 5 4 4\n%s' "$bin_rows")"
	# With both data files, the text one is read: same value, other bytes.
	mkbundle "$EL" t >/dev/null
	sed -i 's/^1 1 1 2\.5$/1 1 1 2.50/' t/t.tns
	run -0 ts-convert t -o - --to frostt
	assert_line --index 0 "1 1 1 2.50"
}

# =====================================================================
# Streams and bare data files (SPEC section 8)
# =====================================================================

@test "ts-convert: bundle -> tnsb -> tns through pipes, with --meta, gives the same bytes" {
	set -o pipefail
	ts-convert "$EL" -o - --to tnsb |
	    ts-convert --meta "$ELMETA" - -o - --to tns >back.tns
	cmp back.tns "$EL/example-element.tns"
	ts-convert "$EL" -o - --to tns |
	    ts-convert --meta "$ELMETA" - -o - --to tnsb >back.tnsb
	cmp back.tnsb "$EL/example-element.tnsb"
	# Big-endian uint32 / int32, binary only.
	local bm=$SHARE/example-binary/example-binary_metadata.json
	ts-convert "$SHARE/example-binary" -o - --to tnsb |
	    ts-convert --meta "$bm" - -o - --to tns |
	    ts-convert --meta "$bm" - -o - --to tnsb >back2.tnsb
	cmp back2.tnsb "$SHARE/example-binary/example-binary.tnsb"
}

@test "ts-convert: a binary stream needs --meta or flags; without them it is refused, naming them (exit 2)" {
	ts-convert "$EL" -o el.tnsb
	run --separate-stderr ts-convert el.tnsb -o out.tns
	assert_failure 2
	[[ $stderr == *"'el.tnsb': a binary data file does not describe itself"* ]]
	for f in --meta --input-index-type --input-value-type --no-values \
	    --input-endian --input-base; do
		[[ $stderr == *"$f"* ]] || { echo "missing $f"; false; }
	done
	# Only what is still missing is named.
	run --separate-stderr ts-convert --input-base 1 --input-endian little \
	    el.tnsb -o out.tns
	assert_failure 2
	[[ $stderr == *"--input-index-type"* ]]
	[[ $stderr == *"--input-value-type"* ]]
	[[ $stderr != *"--input-endian"* ]]
	[[ $stderr != *"--input-base"* ]]
	run ts-convert - -o out.tns <el.tnsb
	assert_failure 2
	only el.tnsb
	# Described by flags, it is read.
	run --separate-stderr ts-convert --input-index-type uint64 \
	    --input-value-type float64 --input-endian little --input-base 1 \
	    - -o - --to frostt <el.tnsb
	assert_success
	assert_output "$el_rows"
	set -o pipefail
	ts-convert "$SHARE/example-binary" -o - --to tnsb |
	    ts-convert --input-index-type uint32 --input-value-type int32 \
	    --input-endian big --input-base 1 - -o - --to frostt >got
	assert_equal "$(cat got)" "$bin_rows"
}

@test "ts-convert: a text stream without metadata is 1-based, with a note that -q silences" {
	run --separate-stderr ts-convert - -o - <"$EL/example-element.tns"
	assert_success
	assert_output "$(cat "$EL/example-element.tns")"
	[[ $stderr == *"no metadata; assuming 1-based coordinates (--input-base to change)"* ]]
	run --separate-stderr ts-convert -q - -o - --to frostt <"$EL/example-element.tns"
	assert_success
	assert_output "$el_rows"
	assert_equal "$stderr" ""
	run -0 --separate-stderr ts-convert -q - -o - --to frostt --index-base 0 <"$EL/example-element.tns"
	assert_line --index 0 "0 0 0 2.5"
	[[ $stderr == *"its reader needs --input-base 0 [P1]"* ]]
}

@test "ts-convert: input that is no tensor says what was read and what the tools read (issue 30, point 22)" {
	run -1 ts-sort </dev/null
	assert_output --partial "<stdin>: error: empty: no tensor to read (a bundle, a .tns or .tnsb file, FROSTT rows or Matrix Market)"
	printf '# a comment\n\n' >c.tns
	run -1 ts-convert c.tns -o c
	assert_output "c.tns: error: no rows, only 2 blank or comment lines: a FROSTT file gives its order by its first row, coordinates then a value"
	run -1 ts-convert -q - -o x <<<"hello world"
	assert_output "<stdin>:1:1: error: the first line, 'hello world', is not a row of coordinates and a value (FROSTT), nor the first line of a TensorSuite file (%%TensorSuite-TNS) or of Matrix Market (%%MatrixMarket): not a tensor file these tools read"
	printf '\177ELF\002\001\001\000\000\000' >b.dat
	run -1 ts-validate -q b.dat
	run -1 ts-convert b.dat -o b
	assert_output "b.dat:1:1: error: binary data, and not TensorSuite binary (which starts with the line %%TensorSuite-TNSB): not a tensor file these tools read"
	run -1 ts-convert -q - -o x <<<"7"
	assert_output "<stdin>:1:1: error: the first row has 1 field: a FROSTT row holds 1 to 64 coordinates, then a value (--no-values: coordinates only)"
	[ ! -e c ] && [ ! -e x ] && [ ! -e b ]
}

@test "ts-convert: standard input is detected as FROSTT, TensorSuite text or Matrix Market" {
	mkdir tmp
	run -0 env TMPDIR="$PWD/tmp" ts-convert -q - -o - --to frostt <"$REAL/matmul_2-2-2.tns"
	assert_output "$(cat "$REAL/matmul_2-2-2.tns")"
	run -0 env TMPDIR="$PWD/tmp" ts-convert -q - -o - --to frostt <"$EL/example-element.tns"
	assert_output "$el_rows"
	run -0 env TMPDIR="$PWD/tmp" ts-convert -q - -o - <"$MTX/LFAT5.mtx"
	assert_line --index 3 "2 14 14 46"
	# The copy of standard input is gone.
	assert_equal "$(ls -A tmp)" ""
}

@test "ts-convert: the copy of standard input is removed even when a closed pipe ends ts-convert" {
	mkdir tmp
	run bash -c "TMPDIR='$PWD/tmp' ts-convert -q - -o - --to frostt \
	    <'$REAL/splatt_med.tns' | head -c 10"
	assert_output "1 201 1143"
	assert_equal "$(ls -A tmp)" ""
}

# =====================================================================
# FROSTT import and export, on real files
# =====================================================================

@test "ts-convert: FROSTT -> bundle -> FROSTT gives back splatt_med.tns byte for byte" {
	run -0 ts-convert -q "$REAL/splatt_med.tns" -o splatt
	valid splatt
	run meta splatt '[.order, .dimensions, .nnz, .index_base, .index_type,
	    .sorted, .sort_order, .duplicates, .explicit_zeros, .value_domain,
	    .value_type, .values_provided]'
	assert_output '[3,[2425,10816,29567],100000,1,"uint32","lexicographic",[1,2,3],"disallowed","disallowed","nonnegative","float64",true]'
	ts-convert splatt -o - --to frostt >back.tns
	cmp back.tns "$REAL/splatt_med.tns"
}

@test "ts-convert: aminoacid.tns is found 0-based, with a note, and comes back with --index-base 0" {
	run --separate-stderr ts-convert "$REAL/aminoacid.tns" -o amino
	assert_success
	[[ $stderr == *"$REAL/aminoacid.tns: note: a coordinate is 0, so the file is read as 0-based (--input-base to change)"* ]]
	valid amino
	run meta amino '[.index_base, .dimensions, .nnz, .sorted, .duplicates,
	    .explicit_zeros, .value_domain]'
	assert_output '[0,[5,201,61],61305,"lexicographic","disallowed","allowed","general"]'
	ts-convert amino -o - --to frostt --index-base 0 >back.tns
	cmp back.tns "$REAL/aminoacid.tns"
	# FROSTT is 1-based unless asked.
	run -0 ts-convert amino -o - --to frostt
	assert_line --index 0 "1 1 1 0.858000"
}

@test "ts-convert: matmul_2-2-2.tns gets the expected metadata and comes back byte for byte" {
	run -0 ts-convert --time 2026-12-01 "$REAL/matmul_2-2-2.tns" -o matmul_2-2-2
	diff -u "$DATA/convert/matmul_2-2-2_metadata.json" \
	    matmul_2-2-2/matmul_2-2-2_metadata.json
	valid matmul_2-2-2
	ts-convert matmul_2-2-2 -o - --to frostt >back.tns
	cmp back.tns "$REAL/matmul_2-2-2.tns"
}

@test "ts-convert: KG_JF17K is a pattern with --no-values, and FROSTT export appends value 1 to each row" {
	local kg=$REAL/KG_JF17K_3_ids_1based.tns
	run -0 ts-convert -q --no-values "$kg" -o kg
	run meta kg '[.order, .dimensions, .nnz, .values_provided, .sorted,
	    .duplicates, .value_domain]'
	assert_output '[4,[104,11540,11541,11539],34544,false,"none","disallowed","general"]'
	valid kg
	ts-convert kg -o - --to frostt >back.tns
	awk 'NR == FNR { row[FNR] = $0; n = FNR; next }
	    $0 != row[FNR] " 1" { bad++ }
	    END { exit bad > 0 || FNR != n }' "$kg" back.tns
	# Without --no-values the last column is a value: order 3, and
	# coordinates repeat.
	run -0 ts-convert -q "$kg" -o kg3
	run meta kg3 '[.order, .nnz, .duplicates, .sorted]'
	assert_output '[3,34544,"allowed","none"]'
	valid kg3
}

@test "ts-convert: FROSTT comment lines, blank lines and runs of blanks are read; an empty file is refused" {
	run -0 ts-convert -q "$DATA/edge/splatt__small.tns" -o small
	run meta small '[.dimensions, .nnz, .sorted]'
	assert_output '[[2,3,2],6,"none"]'
	run -0 ts-convert -q "$DATA/edge/taco__3tensor.tns" -o - --to frostt
	assert_output '736 1 1 1
1073 1 6 1.1
881 1 7 1'
	run ts-convert -q "$DATA/edge/tensormarket__nil.tns" -o nil
	assert_failure 1
	assert_output --partial "error: empty: no tensor to read"
	run ts-convert -q "$DATA/edge/mlir__coordinate_negative.tns" -o neg
	assert_failure 1
	only small
}

# =====================================================================
# Metadata of a FROSTT import: what is inferred
# =====================================================================

@test "ts-convert: the dimensions of a FROSTT import come from every entry, past runs of skipped lines longer than a read" {
	{ echo '1 1 1.5'; yes '' | head -n 300000; echo '5 2 2.5'
	  yes '# c' | head -n 300000; echo '2 7 3.5'; } >r.tns
	run -0 ts-convert -q r.tns -o r
	run meta r '[.dimensions, .nnz]'
	assert_output '[[5,7],3]'
	valid r
	zstd -q -c r.tns >r.tns.zst
	cat r.tns.zst | ts-convert -q - -o p
	run meta p '[.dimensions, .nnz]'
	assert_output '[[5,7],3]'
	# A TensorSuite file too: every entry comes through, from a pipe.
	ts-convert r -o r.tns2 --to tns
	awk 'NR == 5 { print; for (i = 0; i < 300000; i++) print ""; next }
	    { print }' r.tns2 | ts-convert -q --from tns - -o - --to frostt >back
	assert_equal "$(cat back)" "1 1 1.5
5 2 2.5
2 7 3.5"
}

@test "ts-convert: a coordinate 0 makes a FROSTT file 0-based; --input-base 1 refuses it" {
	rows z.tns '0 1 2.5' '1 0 2.5'
	run --separate-stderr ts-convert z.tns -o z
	assert_success
	[[ $stderr == *"z.tns: note: a coordinate is 0, so the file is read as 0-based (--input-base to change)"* ]]
	run meta z '[.index_base, .dimensions]'
	assert_output '[0,[2,2]]'
	run --separate-stderr ts-convert --input-base 0 z.tns -o z0
	assert_success
	assert_equal "$stderr" ""
	run ts-convert --input-base 1 z.tns -o z1
	assert_failure 1
	assert_output --partial "coordinate 0 in mode 1"
	only z.tns z z0
}

@test "ts-convert: --dims larger than the data is kept, smaller is refused (1), the wrong count (2)" {
	rows m.tns '1 2 1.5' '3 1 2'
	run -0 ts-convert -q --dims 5,6 m.tns -o big
	run meta big .dimensions
	assert_output '[5,6]'
	valid big
	ts-convert big -o - --to frostt | cmp - m.tns
	run ts-convert -q --dims 2,6 m.tns -o small
	assert_failure 1
	assert_output "ts-convert: --dims: mode 1 has a coordinate beyond 2"
	run ts-convert -q --dims 5,6,7 m.tns -o three
	assert_failure 2
	assert_output "ts-convert: --dims gives 3 dimensions; the tensor has order 2"
	only m.tns big
}

@test "ts-convert: the coordinates give duplicates, sorted and sort_order, and the symmetries" {
	rows dup.tns '1 2 1' '2 1 1' '1 2 4'
	rows lex.tns '1 1 1' '1 2 1' '2 1 1' '2 2 1'
	rows colex.tns '1 1 1' '2 1 1' '1 2 1' '2 2 1'
	rows none.tns '2 2 1' '1 1 1' '2 1 3'
	rows sym.tns '1 2 3' '2 1 3' '2 2 1'
	# Order 3, 2 x 2 x 1: only modes 1 and 2 can be swapped.
	rows part.tns '1 2 1 5' '2 1 1 5'
	local f
	for f in dup lex colex none sym part; do
		ts-convert -q $f.tns -o $f
		valid $f
	done
	run meta dup '[.duplicates, .sorted, .pattern_symmetry, .numerical_symmetry]'
	assert_output '["allowed","none","full","no"]'
	run meta lex '[.duplicates, .sorted, .sort_order]'
	assert_output '["disallowed","lexicographic",[1,2]]'
	run meta colex '[.sorted, .sort_order]'
	assert_output '["lexicographic",[2,1]]'
	run meta none '[.sorted, .sort_order, .pattern_symmetry, .numerical_symmetry]'
	assert_output '["none",[],"no","no"]'
	run meta sym '[.pattern_symmetry, .numerical_symmetry]'
	assert_output '["full","full"]'
	run meta part '[.pattern_symmetry, .numerical_symmetry]'
	assert_output '["partial","partial"]'
}

@test "ts-convert: the values give explicit_zeros and value_domain" {
	rows zero.tns '1 1 0' '2 2 3.5'
	rows bin.tns '1 1 1' '2 2 0' '3 3 1'
	rows ones.tns '1 1 1' '2 2 1'
	rows nonneg.tns '1 1 0.5' '2 2 7'
	rows general.tns '1 1 -0.5' '2 2 7'
	local f
	for f in zero bin ones nonneg general; do
		ts-convert -q $f.tns -o $f
		valid $f
	done
	run meta zero '[.explicit_zeros, .value_domain]'
	assert_output '["allowed","nonnegative"]'
	run meta bin '[.explicit_zeros, .value_domain]'
	assert_output '["allowed","binary"]'
	run meta ones '[.explicit_zeros, .value_domain]'
	assert_output '["disallowed","binary"]'
	run meta nonneg '[.explicit_zeros, .value_domain]'
	assert_output '["disallowed","nonnegative"]'
	run meta general '[.explicit_zeros, .value_domain]'
	assert_output '["disallowed","general"]'
}

# =====================================================================
# Output bundles
# =====================================================================

@test "ts-convert: a bundle converted to a bundle of the same name keeps every byte of its metadata and data" {
	mkdir out
	local e f
	for e in element binary block; do
		run -0 ts-convert "$SHARE/example-$e" -o out/example-$e
		diff -u "$SHARE/example-$e/example-${e}_metadata.json" \
		    "out/example-$e/example-${e}_metadata.json"
		for f in "$SHARE/example-$e"/*.tns*; do
			cmp "$f" "out/example-$e/${f##*/}"
		done
		valid out/example-$e
	done
	# example-binary has no text file, example-block no binary one.
	[ ! -e out/example-binary/example-binary.tns ]
	[ ! -e out/example-block/example-block.tnsb ]
}

@test "ts-convert: every bundle it writes is valid and canonical: converting it again gives the same metadata" {
	rows dz.tns '2 1 0' '1 2 1' '2 1 5'
	local src n=0
	for src in "$EL" "$SHARE/example-binary" "$SHARE/example-block" \
	    "$REAL/matmul_2-2-2.tns" dz.tns "$MTX/LFAT5.mtx" "$MTX/karate.mtx"; do
		n=$((n + 1))
		mkdir a$n b$n c$n
		ts-convert -q "$src" -o a$n/x
		valid a$n/x
		# Same name: the very same bytes.
		ts-convert -q a$n/x -o b$n/x
		diff -u a$n/x/x_metadata.json b$n/x/x_metadata.json
		# Another name: the same apart from the name.
		ts-convert -q a$n/x -o c$n/y
		diff -u <(sed '/^  "name": /d; s/"x\.tns/"N.tns/' a$n/x/x_metadata.json) \
		    <(sed '/^  "name": /d; s/"y\.tns/"N.tns/' c$n/y/y_metadata.json)
		run meta c$n/y .name
		assert_output '"y"'
	done
}

@test "ts-convert: unknown metadata keys and the other files of a bundle are carried over" {
	mkbundle "$EL" t >/dev/null
	echo '{"seed": 7}' >t/config.json
	jq --indent 2 '.files.config = "config.json" | .extra = "kept"' \
	    t/t_metadata.json >m && mv m t/t_metadata.json
	run -0 ts-convert -q t -o u
	run meta u '[.extra, .files.config]'
	assert_output '["kept","config.json"]'
	cmp t/config.json u/config.json
	run -0 ts-validate u
	ts-convert -q u -o v
	diff <(sed '/"name"/d; s/"u\./"N./' u/u_metadata.json) \
	    <(sed '/"name"/d; s/"v\./"N./' v/v_metadata.json)
}

@test "ts-convert: a bundle written from --meta names no file it does not hold, and validates" {
	mkbundle "$EL" t >/dev/null
	echo '{"seed": 7}' >t/config.json
	jq --indent 2 '.files.config = "config.json" | .files.empty = null' \
	    t/t_metadata.json >m && mv m t/t_metadata.json
	valid t
	# Attributes from --meta, or from beside a bare data file: the
	# files of that other bundle stay where they are.
	cp t/t.tns bare.tns
	run --separate-stderr ts-convert --meta t/t_metadata.json bare.tns b
	assert_success
	assert_equal "$stderr" "bare.tns: note: 'files.config' names 'config.json', which the output bundle does not hold: left out (only a bundle SRC brings its files along)"
	run meta b .files
	assert_output '{"text":"b.tns","readme":"README.md","empty":null}'
	valid b
	run -0 ts-convert -q t/t.tns c
	run meta c .files.config
	assert_output null
	valid c
	run -0 ts-sort -q --meta t/t_metadata.json -o s <t/t.tns
	valid s
	# A bundle SRC brings them; one that is not a regular file stays.
	mkdir t/confdir
	jq --indent 2 '.files.config2 = "confdir"' t/t_metadata.json >m &&
	    mv m t/t_metadata.json
	run -0 ts-convert -q t u
	run meta u '[.files.config, .files.config2]'
	assert_output '["config.json",null]'
	cmp t/config.json u/config.json
	valid u
}

@test "ts-convert: --text and --binary choose the data files; without them they follow the input" {
	rows f.tns '1 1 2.5'
	ts-convert -q f.tns -o fro
	[ -f fro/fro.tns ] && [ -f fro/fro.tnsb ]
	ts-convert -q "$EL/example-element.tns" -o txt
	run meta txt '[.files, .endianness]'
	assert_output '[{"text":"txt.tns","readme":"README.md"},"none"]'
	ts-convert -q --meta "$ELMETA" - -o bin <"$EL/example-element.tnsb"
	[ ! -e bin/bin.tns ] && [ -f bin/bin.tnsb ]
	ts-convert -q "$SHARE/example-binary" -o eb
	[ ! -e eb/eb.tns ] && [ -f eb/eb.tnsb ]
	ts-convert -q "$SHARE/example-binary" -o ebt --text
	run meta ebt '[.files, .endianness]'
	assert_output '[{"text":"ebt.tns","readme":"README.md"},"none"]'
	ts-convert -q "$SHARE/example-binary" -o both --text --binary
	run meta both '[.files, .endianness]'
	assert_output '[{"text":"both.tns","binary":"both.tnsb","readme":"README.md"},"big"]'
	local b
	for b in fro txt bin eb ebt both; do
		valid $b
	done
}

@test "ts-convert: a value-less import gets the text file every reader reads; a value-less binary file only on request, said once (issue 30, point 23)" {
	run -0 --separate-stderr ts-convert -q "$MTX/karate.mtx" -o k
	[ -f k/k.tns ] && [ ! -e k/k.tnsb ]
	run meta k '[.values_provided, .files, .endianness, .index_type]'
	assert_output '[false,{"text":"k.tns","readme":"README.md"},"none","uint32"]'
	# Nothing to say of what the defaults wrote.
	run -0 ts-validate k
	assert_output "k: valid (0 errors, 0 warnings)"
	run -0 --separate-stderr ts-convert "$MTX/karate.mtx" -o kb --binary
	[ -f kb/kb.tnsb ]
	[ "$stderr" = "kb: note: a binary file without values is read by this toolkit only; the reference reader expects a value field [E3]" ]
	run -0 --separate-stderr ts-convert k -o k.tnsb
	[ "$stderr" = "k.tnsb: note: a binary file without values is read by this toolkit only; the reference reader expects a value field [E3]" ]
	# With values, an import gets both.
	ts-convert -q "$MTX/LFAT5.mtx" -o lf
	[ -f lf/lf.tns ] && [ -f lf/lf.tnsb ]
}

@test "ts-convert: --endian, --index-type and --index-base rewrite a bundle that reads back to the same entries" {
	run -0 ts-convert "$EL" -o el --binary --endian big --index-type uint32 --index-base 0
	run meta el '[.endianness, .index_type, .index_base, .files]'
	assert_output '["big","uint32",0,{"binary":"el.tnsb","readme":"README.md"}]'
	valid el
	run -0 ts-convert el -o - --to frostt --index-base 1
	assert_output "$el_rows"
	run -0 ts-convert el -o - --to frostt
	assert_line --index 0 "1 1 1 2.5"
	# A stream is 1-based whatever the bundle's base (P1), unless asked.
	run -0 ts-convert el -o - --to tns
	assert_line --index 4 "1 1 1 2.5"
	run -0 --separate-stderr ts-convert el -o - --to tns --index-base 0
	assert_line --index 4 "0 0 0 2.5"
	assert_equal "$stderr" "<stdout>: warning: written 0-based without its metadata: its reader needs --input-base 0 [P1]"
}

@test "ts-convert: the descriptive flags land in the metadata, over the input's and the defaults" {
	rows f.tns '1 1 2.5'
	ts-convert -q f.tns -o f
	run meta f '[.group, .id, .time, .source, .source_url, .source_type]'
	assert_output "[\"\",\"0000\",\"$(date -u +%Y-%m-%d)\",\"f.tns\",\"\",\"real\"]"
	run -0 ts-convert -q f.tns -o desc --name desc --group grp --id 0042 \
	    --time 2024-02-29 --source "my lab" \
	    --source-url https://example.org/t --source-type synthetic
	run meta desc '[.name, .group, .id, .time, .source, .source_url, .source_type]'
	assert_output '["desc","grp","0042","2024-02-29","my lab","https://example.org/t","synthetic"]'
	valid desc
	run -0 ts-convert "$EL" -o el2 --group other --id 0007
	run meta el2 '[.group, .id, .time, .source, .source_type]'
	assert_output '["other","0007","2026-12-01","TensorSuite toolkit examples","synthetic"]'
}

@test "ts-convert: an invalid --id, --time, --source-url or bundle name is refused (exit 2), leaving nothing" {
	rows f.tns '1 1 2.5'
	local id
	for id in 42 abcd 00001 ""; do
		run ts-convert -q f.tns -o out --id "$id"
		assert_failure 2
		assert_output --partial "'id' is '$id'"
	done
	run ts-convert -q "$EL" -o out --id 1x34
	assert_failure 2
	run ts-convert -q f.tns -o out --time 2023-02-29
	assert_failure 2
	run ts-convert -q f.tns -o out --source-url ftp://example.org/x
	assert_failure 2
	run ts-convert -q f.tns -o '-bad'
	assert_failure 2
	run ts-convert -q f.tns -o 'a b'
	assert_failure 2
	assert_output --partial "a bundle's name is its folder's name"
	run ts-convert -q f.tns -o other --name x
	assert_failure 2
	assert_output --partial -- "--name must agree"
	only f.tns
}

@test "ts-convert: DST may name a bundle with a final slash" {
	run ts-convert -q "$EL" -o good/ --name good
	assert_success
	run meta good .name
	assert_output '"good"'
	valid good
	only good
}

@test "ts-convert: the name written in a data file comes from --name, the input or DST" {
	rows f.tns '1 1 2.5'
	ts-convert -q f.tns -o out.tns
	assert_equal "$(sed -n 3p out.tns)" "% name: out"
	ts-convert -q f.tns -o out2.tns.gz
	assert_equal "$(gzip -dc out2.tns.gz | sed -n 3p)" "% name: out2"
	# A stream carries the name of its source: its stem, its bundle's.
	run -0 ts-convert -q f.tns -o -
	assert_line --index 2 "% name: f"
	run -0 ts-convert -q "$MTX/LFAT5.mtx" -o - --to tnsb
	assert_line --index 2 "% name: LFAT5"
	cp "$MTX/LFAT5.mtx" lf.mtx
	gzip lf.mtx
	run -0 ts-convert -q lf.mtx.gz -
	assert_line --index 2 "% name: lf"
	run -0 ts-convert -q "$SHARE/example-binary/example-binary_metadata.json" -
	assert_line --index 2 "% name: example-binary"
	run -0 ts-convert -q - - <f.tns
	assert_line --index 2 "% name: tensor"
	run -0 ts-convert -q "$EL/example-element.tns" - --to tnsb
	assert_line --index 2 "% name: example-element"
	run -0 ts-convert -q "$EL" -o -
	assert_line --index 2 "% name: example-element"
	run -0 ts-convert -q "$EL" -o - --name renamed
	assert_line --index 2 "% name: renamed"
	# H2: the name is a bundle name (B2), in a data file too.
	run ts-convert -q f.tns -o - --name 'x y'
	assert_failure 2
}

@test "ts-convert: README.md records the provenance and keeps the source bundle's README" {
	rows f.tns '1 1 2.5'
	ts-convert -q f.tns -o f
	run cat f/README.md
	assert_line --index 0 "# f"
	assert_output --partial "Written by ts-convert 0.1.0 on $(date -u +%Y-%m-%d) from \`f.tns\` (frostt)."
	assert_output --partial "ts-convert -q f.tns -o f"
	ts-convert "$EL" -o el
	run cat el/README.md
	assert_output --partial "(bundle)."
	assert_output --partial "## README of the source bundle"
	assert_output --partial "$(cat "$EL/README.md")"
}

@test "ts-convert: README.md records the command as typed, the program by its name and a relative SRC relative, quoted for the shell" {
	mkdir -p in 'o d'
	cp "$MTX/LFAT5.mtx" in/
	cd 'o d'
	# The program is run by its absolute path, as from a build tree.
	"$TS_BIN/ts-convert" -q ../in/LFAT5.mtx -o L --source "it's here"
	run cat L/README.md
	assert_output --partial "from \`../in/LFAT5.mtx\` (mtx)."
	assert_line "    ts-convert -q ../in/LFAT5.mtx -o L --source 'it'\''s here'"
	run -1 grep -F "$TS_BIN" L/README.md
	[ "$(meta L .source)" = "\"it's here\"" ]
}

@test "ts-convert: a SuiteSparse matrix brings its group, id, date, source and URL into the metadata and its header into the README" {
	cp "$MTX/bcsstk13.mtx" "$MTX/karate.mtx" "$MTX/lp_afiro.mtx" .
	ts-convert -q bcsstk13.mtx -o b
	run meta b '[.group, .id, .time, .source_type, .source, .source_url]'
	assert_output '["HB","0035","1982-01-01","real","HB/bcsstk13: SYMMETRIC STIFFNESS MATRIX, FLUID FLOW GENERALIZED EIGENVALUES (UF Sparse Matrix Collection, Tim Davis)","http://www.cise.ufl.edu/research/sparse/matrices/HB/bcsstk13"]'
	valid b
	run cat b/README.md
	assert_line "## Header of the source file"
	assert_line "What \`bcsstk13.mtx\` says of itself, a matrix of the SuiteSparse Matrix Collection:"
	assert_line "- title: SYMMETRIC STIFFNESS MATRIX, FLUID FLOW GENERALIZED EIGENVALUES"
	assert_line "- author: J. Lewis"
	assert_line "- editor: I. Duff, R. Grimes, J. Lewis"
	assert_line "- kind: computational fluid dynamics problem"
	# Every comment line of the header, as written, in order.
	diff -u <(sed -n '2,13s/^/    /p' bcsstk13.mtx) \
	    <(sed -n '/^Its comment lines, as written:$/,$p' b/README.md | sed 1,2d)
	# Its notes too; an empty date leaves today's; the options win.
	ts-convert -q karate.mtx -o k --group Mine --id 0007
	run meta k '[.group, .id, .time]'
	assert_output '["Mine","0007","1977-01-01"]'
	grep -qF '    % The graph "karate" contains the network of friendships between the 34      ' k/README.md
	ts-convert -q lp_afiro.mtx -o lp
	run meta lp '[.group, .id, .time]'
	assert_output "[\"LPnetlib\",\"0597\",\"$(date -u +%Y-%m-%d)\"]"
	assert_equal "$(grep -c '^    %' lp/README.md)" "$(grep -c '^%[^%]' lp_afiro.mtx)"
}

@test "ts-convert: a header value no rule of the metadata takes is left to its default, and a note says so; other comments go to the README only" {
	printf '%s\n' '%%MatrixMarket matrix coordinate real general' \
	    '%----' '% http:///G/m' '% name: G/m' '% id: 12345' \
	    '% date: May 2004' '%----' '2 2 1' '1 2 3.5' >m.mtx
	run -0 --separate-stderr ts-convert m.mtx -o m
	assert_equal "$stderr" "m.mtx: note: its id '12345' is not four digits at most: 'id' is not set from it
m.mtx: note: its date 'May 2004' is not a year nor a date YYYY-MM-DD: 'time' is not set from it
m.mtx: note: its URL 'http:///G/m' is not an absolute http(s) URL: 'source_url' is not set from it"
	run meta m '[.group, .id, .time, .source, .source_url]'
	assert_output "[\"G\",\"0000\",\"$(date -u +%Y-%m-%d)\",\"G/m\",\"\"]"
	valid m
	# Not the collection's block: the README only.  FROSTT's '#' lines
	# before the first row too.
	ts-convert -q "$MTX/taco__2tensor.mtx" -o t
	run meta t '[.group, .id, .source]'
	assert_output '["","0000","taco__2tensor.mtx"]'
	grep -qx 'The comment lines of `.*taco__2tensor.mtx`, as written:' t/README.md
	rows f.tns '# an excerpt' '# of a tensor' '1 1 2.5' '# not kept' '2 2 1'
	ts-convert -q f.tns -o f
	run sed -n '/^## Header of the source file$/,$p' f/README.md
	assert_output '## Header of the source file

The comment lines of `f.tns`, as written:

    # an excerpt
    # of a tensor'
}

@test "ts-convert: a rewrite leaves ts-stat's Statistics section of the source, and its links to pictures, out of the README, and its folder of pictures out of the bundle, and says so" {
	mkbundle "$EL" t >/dev/null
	ts-stat -q --readme --plot t >/dev/null
	grep -q '^## Statistics' t/README.md
	[ -d t/pictures ]
	ts-convert -q "$REAL/matmul_2-2-2.tns" -o m
	# Over another bundle, and over itself.
	run -0 --separate-stderr ts-convert -f t -o m
	[[ "$stderr" == *"m/README.md: note: the Statistics section ts-stat wrote of the entries before this rewrite is left out, with its links to pictures: 'ts-stat --readme' writes it anew"* ]]
	[[ "$stderr" == *"m/pictures: note: the pictures ts-stat drew of the entries before this rewrite are left out: 'ts-stat --plot' draws them anew"* ]]
	run -0 --separate-stderr ts-convert -f t -o t --index-base 0
	[[ "$stderr" == *"t/README.md: note: the Statistics section ts-stat wrote"* ]]
	[[ "$stderr" == *"t/pictures: note: the pictures ts-stat drew"* ]]
	for b in m t; do
		grep -q '^## README of the source bundle' $b/README.md
		run -1 grep -q -e '^## Statistics' -e '^!\[' $b/README.md
		[ ! -e $b/pictures ]
	done
}

@test "ts-convert: the source bundle's README is read from a regular file only: never through a link, never from a FIFO" {
	mkbundle "$EL" t >/dev/null
	echo secret >secret
	chmod 600 secret
	rm t/README.md
	ln -s "$BATS_TEST_TMPDIR/secret" t/README.md
	run -0 --separate-stderr ts-convert t -o a
	[[ "$stderr" == *"t/README.md: note: a symbolic link: a README is read from a regular file of the bundle only; it is not read"* ]]
	run -1 grep -q secret a/README.md
	rm t/README.md
	mkfifo t/README.md
	run -0 timeout 10 ts-convert -q t -o b
	run -1 grep -q '^## README of the source bundle' b/README.md
}

@test "ts-convert: a rewrite carries a README of more than 64 KiB whole, and leaves a bundle's linked file out, saying so" {
	mkbundle "$EL" t >/dev/null
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "line %06d of notes\n", i }' \
	    >t/README.md
	echo secret >secret
	chmod 600 secret
	ln -s "$BATS_TEST_TMPDIR/secret" t/notes.txt
	echo kept >t/kept.txt
	run -0 --separate-stderr ts-convert -q t -o a
	# The engine read the first 64 KiB of it, silently.
	grep -q '^line 004999 of notes$' a/README.md
	[ "$stderr" = "t/notes.txt: warning: a symbolic link: not copied into the new bundle" ]
	[ ! -e a/notes.txt ] && [ -f a/kept.txt ]
}

@test "ts-convert --upgrade: a bundle of the reference's older metadata profile is made 0.1, each change a note; without it, refused" {
	local ref=$DATA/reference
	cp -r "$ref/legacy" .
	chmod -R u+w legacy
	m=legacy/random_tiny/random_tiny_metadata.json
	run -1 --separate-stderr ts-convert legacy/random_tiny -o no
	[[ "$stderr" == *"$m:17:3: error: 'id' must be a string [M1]"* ]]
	run -0 --separate-stderr ts-convert --upgrade legacy/random_tiny -o random_tiny
	assert_equal "$stderr" "$m: note: upgraded: 'id' 1001, a number, is now the string \"1001\" [M1]
$m: note: upgraded: 'sort_order', 0-based, is now 1-based (each mode plus 1) [M9]
$m: note: upgraded: 'source_url' was missing; it is \"\" (none) [M1]
$m: note: upgraded: 'dense_modes' was missing; it is [], as sparsity_type 'element' has it [M6]
$m: note: upgraded: 'block_partitions' was missing; it is null, as sparsity_type 'element' has it [M7]
$m: note: upgraded: 'nnz_block' was missing; it is null, as sparsity_type 'element' has it [M7]"
	valid random_tiny
	# What the generator writes today, converted: the same bundle.
	ts-convert -q "$ref/random_tiny" -o today
	diff -u today/today_metadata.json <(sed 's/"random_tiny/"today/' random_tiny/random_tiny_metadata.json)
	cmp today/today.tnsb <(sed '3s/random_tiny/today/' random_tiny/random_tiny.tnsb)
	cmp random_tiny/config.yaml "$ref/legacy/random_tiny/config.yaml"
	# The input is left as it was; a 0.1 bundle needs nothing.
	diff -r "$ref/legacy" legacy
	run -0 --separate-stderr ts-convert --upgrade "$ref/random_tiny" -o again
	assert_equal "$stderr" ""
	cmp again/again_metadata.json <(sed 's/"today/"again/' today/today_metadata.json)
	# Only a bundle's directory (or metadata file) is upgraded.
	run -2 --separate-stderr ts-convert --upgrade "$ref/random_tiny/random_tiny.tns" -o x
	assert_equal "$stderr" "ts-convert: '$ref/random_tiny/random_tiny.tns': --upgrade reads a bundle (its directory or its metadata file)"
	ts-convert -q "$ref/random_tiny" -o t.tar
	run -2 --separate-stderr ts-convert --upgrade t.tar -o x
	assert_equal "$stderr" "ts-convert: 't.tar': --upgrade reads a bundle's directory, not an archive"
}

# =====================================================================
# Changing attributes: what does not fit is refused
# =====================================================================

@test "ts-convert: float64 to float32: 1e39 overflows and is refused (exit 1), leaving no output" {
	rows big.tns '1 1 2.5' '2 2 1e39'
	run ts-convert -q big.tns -o out --value-type float32
	assert_failure 1
	assert_output "big.tns:2:5: error: value 1e+39 overflows float32 [S5]"
	run ts-convert -q big.tns -o out.tnsb --value-type float32
	assert_failure 1
	run ts-convert -q big.tns -o out.mtx --value-type float32
	assert_failure 1
	only big.tns
}

@test "ts-convert: float64 to float32: 1e-300 would become 0 and is refused (exit 1)" {
	run ts-convert -q "$EL" -o f32 --value-type float32
	assert_failure 1
	assert_output --partial "1e-300"
	only
}

@test "ts-convert: float64 to float32 rounds to the nearest float32, which float64 then shows" {
	rows p.tns '1 1 0.1' '2 2 2.5'
	ts-convert -q p.tns -o f32 --value-type float32
	run meta f32 .value_type
	assert_output '"float32"'
	valid f32
	ts-convert -q f32 -o f64 --value-type float64 --binary
	valid f64
	run -0 ts-convert f64 -o - --to frostt
	assert_output '1 1 0.10000000149011612
2 2 2.5'
}

@test "ts-convert: to an integer type, a fraction (2.5) or a value out of range (3000000000 for int32) is refused" {
	rows frac.tns '1 1 3.0' '2 2 2.5'
	run ts-convert -q frac.tns -o out --value-type int32
	assert_failure 1
	assert_output "frac.tns:2:5: error: value 2.5 is not an integer of int32 [S5]"
	run ts-convert -q frac.tns -o out.tns --value-type int64
	assert_failure 1
	rows i.tns '1 1 2' '2 2 3000000000'
	ts-convert -q --input-value-type int64 i.tns -o i64
	run meta i64 .value_type
	assert_output '"int64"'
	run ts-convert -q i64 -o i32 --value-type int32
	assert_failure 1
	assert_output --partial "value 3000000000 does not fit int32"
	run ts-convert -q i64 -o i32.tnsb --value-type int32
	assert_failure 1
	only frac.tns i.tns i64
	# What fits, passes.
	rows whole.tns '1 1 3.0' '2 2 -7'
	run -0 ts-convert -q whole.tns -o - --to frostt --value-type int32
	assert_output '1 1 3
2 2 -7'
	run -0 ts-convert -q "$SHARE/example-binary" -o - --value-type int64 --to frostt
	assert_output "$bin_rows"
}

@test "ts-convert: int to float is refused only when the float cannot hold the integer exactly" {
	run ts-convert -q --input-value-type int64 - -o - --to frostt \
	    --value-type float32 <<<'1 1 16777217'
	assert_failure 1
	# 10^8 = 390625 * 2^8 and 2^54 are exact in float32 and float64.
	run ts-convert -q --input-value-type int64 - -o - --to frostt \
	    --value-type float32 <<<'1 1 100000000'
	assert_success
	assert_output "1 1 100000000"
	run ts-convert -q --input-value-type int64 - -o - --to frostt \
	    --value-type float64 <<<'1 1 18014398509481984'
	assert_success
	assert_output "1 1 1.8014398509481984e+16"
}

@test "ts-convert: a refused value is located by FILE:LINE of the data file, or FILE:+OFFSET" {
	mkbundle "$EL" t >/dev/null
	run ts-convert -q t -o out --value-type int32
	assert_failure 1
	assert_output "t/t.tns:5:7: error: value 2.5 is not an integer of int32 [S5]"
	rm t/t.tns
	jq --indent 2 'del(.files.text)' t/t_metadata.json >m && mv m t/t_metadata.json
	run ts-convert -q t -o out --value-type int32
	assert_failure 1
	assert_output --regexp "^t/t\.tnsb:\+[0-9]+: error: value 2\.5 is not an integer of int32 \[S5\]\$"
	run ts-convert -q - -o out.tns --value-type int32 <<<'1 1 2.5'
	assert_failure 1
	assert_output "<stdin>:1:5: error: value 2.5 is not an integer of int32 [S5]"
}

@test "ts-convert: an import's index type is uint32 when every coordinate fits, else uint64; --index-type uint32 is refused when one does not" {
	rows fits.tns '1 4294967295 1'
	ts-convert -q fits.tns -o fits
	run meta fits '[.index_type, .dimensions]'
	assert_output '["uint32",[1,4294967295]]'
	run -0 ts-convert -q fits.tns -o fits32 --index-type uint32
	valid fits32
	run -0 ts-convert -q fits.tns -o fits64 --index-type uint64
	run meta fits64 '[.index_type]'
	assert_output '["uint64"]'
	rm -r fits64
	rows big.tns '1 4294967296 1'
	ts-convert -q big.tns -o big
	run meta big '[.index_type, .dimensions]'
	assert_output '["uint64",[1,4294967296]]'
	rm -r big big.tns
	rows huge.tns '1 5000000000 1.5'
	run ts-convert -q huge.tns -o h --index-type uint32
	assert_failure 1
	assert_output "ts-convert: --index-type uint32 cannot hold the coordinates of mode 2 (dimension 5000000000) [M4]"
	run ts-convert -q huge.tns -o h.tnsb --index-type uint32
	assert_failure 1
	# Dimension 2^32: its largest coordinate is 2^32 1-based, 2^32 - 1 0-based.
	rows edge.tns '1 4294967296 1.5'
	run ts-convert -q edge.tns -o e --index-type uint32
	assert_failure 1
	only fits.tns fits fits32 huge.tns edge.tns
	run -0 ts-convert -q edge.tns -o e --index-type uint32 --index-base 0
	run meta e '[.index_type, .index_base, .dimensions]'
	assert_output '["uint32",0,[1,4294967296]]'
	valid e
}

@test "ts-convert: a coordinate outside its dimension is refused (exit 1), never written or truncated" {
	mkbundle "$EL" t >/dev/null
	sed -i '5s/^1 1 1 /1 7 1 /' t/t.tns
	run ts-convert -q t -o out.tns
	assert_failure 1
	assert_output --partial "[S1]"
	# Read 0-based, the 4 of mode 1 in example-element is beyond 0..3.
	run ts-convert -q --input-base 0 - -o out <"$EL/example-element.tns"
	assert_failure 1
	# In uint32, 2^32 + 1 would become 1.
	mkbundle "$SHARE/example-binary" b >/dev/null
	jq --indent 2 '.files = {"text": "b.tns", "readme": "README.md"} |
	    .endianness = "none" | .nnz = 1' b/b_metadata.json >m &&
	    mv m b/b_metadata.json
	rm b/b.tnsb
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: b\n2 5 4 1\n4294967297 1 7\n' >b/b.tns
	run ts-convert -q b -o out.tnsb
	assert_failure 1
	only t b
}

@test "ts-convert: --e16 writes %.16e like the reference writer; text to text keeps each value's bytes" {
	run -0 ts-convert --e16 "$EL" -o - --to frostt
	assert_output '1 1 1 2.5000000000000000e+00
1 3 2 -1.2500000000000000e+00
2 2 1 1.0000000000000000e-300
3 1 2 1.0000000000000001e-01
4 2 2 3.0000000000000000e+00
4 3 1 1.0000000000000000e+16'
	run -0 ts-convert --e16 "$SHARE/example-binary" -o - --to frostt
	assert_output "$bin_rows"
	rows v.tns '1 1 4.000000' '2 2 0.50' '3 3 1E2'
	run -0 ts-convert -q v.tns -o - --to frostt
	assert_output "$(cat v.tns)"
	ts-convert -q v.tns -o v
	run -0 ts-convert v -o - --to frostt
	assert_output "$(cat v.tns)"
	# From binary, or through a type change: the shortest form.
	ts-convert -q v -o vb --binary
	run -0 ts-convert vb -o - --to frostt
	assert_output '1 1 4
2 2 0.5
3 3 100'
	run -0 ts-convert -q v -o - --to frostt --value-type float32
	assert_output '1 1 4
2 2 0.5
3 3 100'
}

# =====================================================================
# Export: block bundles, Matrix Market
# =====================================================================

@test "ts-convert: a block bundle converts to bundles and text, not to FROSTT or Matrix Market (exit 1)" {
	run -0 ts-convert "$SHARE/example-block" -o blk --binary --index-base 1
	valid blk
	run -0 --separate-stderr ts-convert -q blk -o - --index-base 0
	assert_output "$(sed 's/^% name: example-block$/% name: blk/' "$SHARE/example-block/example-block.tns")"
	run ts-convert "$SHARE/example-block" -o - --to frostt
	assert_failure 1
	assert_output --partial "is block-sparse"
	run ts-convert "$SHARE/example-block" -o blk.mtx
	assert_failure 1
	only blk
}

@test "ts-convert: Matrix Market: a symmetric matrix is expanded (LFAT5: 30 stored, 46 entries)" {
	run -0 ts-convert -q --time 2026-12-01 "$MTX/LFAT5.mtx" -o LFAT5
	diff -u "$DATA/convert/LFAT5_metadata.json" LFAT5/LFAT5_metadata.json
	valid LFAT5
	# Every stored entry, then its mirror when off the diagonal.
	ts-convert LFAT5 -o - --to frostt >got
	awk '/^%/ { next } !size { size = 1; next }
	    { print $1, $2, $3; if ($1 != $2) print $2, $1, $3 }' \
	    "$MTX/LFAT5.mtx" >want
	diff -u want got
}

@test "ts-convert: Matrix Market: a pattern matrix has no values, and is exported as pattern or with value 1" {
	run -0 ts-convert -q "$MTX/karate.mtx" -o karate
	run meta karate '[.values_provided, .nnz, .pattern_symmetry, .numerical_symmetry]'
	assert_output '[false,156,"full","no"]'
	valid karate
	run -0 ts-convert -q --mtx-general karate -o - --to mtx
	assert_line --index 0 "%%MatrixMarket matrix coordinate pattern general"
	assert_line "34 34 156"
	run -0 ts-convert -q karate -o - --to mtx
	assert_line --index 0 "%%MatrixMarket matrix coordinate pattern symmetric"
	assert_line "34 34 78"
	run -0 ts-convert karate -o - --to frostt
	assert_line --index 0 "$(awk '!/^%/ && n++ == 1 { print $1, $2, 1 }' "$MTX/karate.mtx")"
}

@test "ts-convert: Matrix Market: integer values become int64 and keep their values" {
	printf '%s\n' '%%MatrixMarket matrix coordinate integer skew-symmetric' \
	    '3 3 2' '2 1 -5' '3 2 7' >skew.mtx
	run -0 ts-convert -q skew.mtx -o skew
	run meta skew '[.value_type, .nnz, .pattern_symmetry, .numerical_symmetry]'
	assert_output '["int64",4,"full","no"]'
	valid skew
	run -0 ts-convert skew -o - --to frostt
	assert_output '2 1 -5
1 2 5
3 2 7
2 3 -7'
	run -0 ts-convert -q "$MTX/lagraph__skew_int64.mtx" -o - --to frostt
	assert_line "5 1 9223372036854775807"
	assert_line "1 5 -9223372036854775807"
	assert_line "3 4 0"
}

@test "ts-convert: Matrix Market export of an order-2 tensor reads back to the same entries" {
	ts-convert "$SHARE/example-binary" -o eb.mtx
	assert_equal "$(sed -n 1p eb.mtx)" "%%MatrixMarket matrix coordinate integer general"
	run -0 ts-convert -q eb.mtx -o - --to frostt
	assert_output "$bin_rows"
	local m
	for m in LFAT5 abb313 west0067; do
		ts-convert -q "$MTX/$m.mtx" -o $m
		ts-convert $m -o $m.out.mtx
		ts-convert -q $m.out.mtx -o - --to frostt >again
		ts-convert $m -o - --to frostt >first
		diff -u first again
	done
	run meta abb313 '[.dimensions, .nnz, .values_provided]'
	assert_output '[[313,176],1557,false]'
}

@test "ts-convert: a symmetric or skew-symmetric bundle is exported to Matrix Market as such, its lower triangle; --mtx-general writes every entry" {
	local f sym n
	for f in LFAT5:symmetric karate:symmetric bcsstk13:symmetric \
	    lagraph__skew_fp64:skew-symmetric lagraph__skew_int64:skew-symmetric \
	    lagraph__mangled_skew:skew-symmetric west0067:general; do
		sym=${f#*:} f=${f%:*} n=${f//_/-}
		ts-convert -q "$MTX/$f.mtx" -o "$n"
		run -0 --separate-stderr ts-convert "$n" -o "$n.mtx"
		assert_equal "$(sed -n 1p "$n.mtx")" \
		    "$(sed -n 1p "$MTX/$f.mtx")"
		[[ "$(sed -n 1p "$n.mtx")" == *" $sym" ]]
		# The collection's files store the lower triangle, column by
		# column: the same rows come back, in the same order.
		[ "$sym" = general ] || [[ "$f" == lagraph__* ]] ||
		    diff -u <(grep -v '^%' "$MTX/$f.mtx") <(grep -v '^%' "$n.mtx")
		# Read back, the same tensor; --mtx-general, the same matrix.
		ts-convert -q "$n.mtx" -o - --to frostt | sort >again
		ts-convert -q "$n" -o - --to frostt | sort >first
		diff -u first again
		ts-convert -q --mtx-general "$n" -o "$n.g.mtx"
		assert_equal "$(sed -n 1p "$n.g.mtx" | awk '{ print $5 }')" general
		assert_equal "$(grep -v '^%' "$n.g.mtx" | sed -n 1p | awk '{ print $3 }')" \
		    "$(meta "$n" .nnz)"
		/usr/bin/python3 "$TS_TOP/tests/mtx-same.py" "$n.g.mtx" "$n.mtx"
	done
	run -0 --separate-stderr ts-convert LFAT5 -o - --to mtx
	[ "$stderr" = "<stdout>: note: written 'symmetric', the lower triangle: 30 of the 46 entries (ts-convert --mtx-general writes them all)" ]
	assert_line --index 2 "14 14 30"
}

@test "ts-convert: a bundle that claims a symmetry its entries lack is exported to Matrix Market 'general', whole, with a warning" {
	rows f.tns '1 2 1.5' '2 1 1.5' '3 1 2'
	ts-convert -q f.tns -o f --dims 3,3
	setmeta f pattern_symmetry '"full"'
	setmeta f numerical_symmetry '"full"'
	run -0 --separate-stderr ts-convert f -o f.mtx
	[ "$stderr" = "f: warning: the metadata says pattern_symmetry 'full', but some entry has no mirror: written 'general' [S7]" ]
	assert_equal "$(sed -n 1p f.mtx)" "%%MatrixMarket matrix coordinate real general"
	assert_equal "$(grep -vc '^%' f.mtx)" 4
}

@test "ts-convert: Matrix Market: order 3 and complex matrices are refused (exit 1), nothing written" {
	run ts-convert "$EL" -o el.mtx
	assert_failure 1
	assert_output --partial "$EL: error: Matrix Market holds matrices; this tensor has order 3"
	run ts-convert "$EL" -o - --to mtx
	assert_failure 1
	local m
	for m in lagraph__complex fmm__matrix_coordinate_complex_hermitian; do
		run ts-convert "$MTX/$m.mtx" -o out
		assert_failure 1
		assert_output --partial "complex matrices are not supported"
	done
	only
}

# =====================================================================
# DST: whole or not at all, never overwritten without -f
# =====================================================================

@test "ts-convert: an existing DST is refused without -f (exit 2) and left alone; -f replaces it" {
	ts-convert -q "$EL" -o out
	ts-convert -q "$EL" -o out.tns
	run ts-convert -q "$SHARE/example-binary" -o out
	assert_failure 2
	assert_output "ts-convert: 'out' exists (-f replaces it)"
	run meta out .name
	assert_output '"out"'
	[ -f out/out.tns ]
	run ts-convert -q "$SHARE/example-binary" -o out.tns
	assert_failure 2
	assert_output "ts-convert: 'out.tns' exists (-f replaces it)"
	run -0 ts-convert -q -f "$SHARE/example-binary" -o out
	[ ! -e out/out.tns ] && [ -f out/out.tnsb ]
	valid out
	run -0 ts-convert -q -f "$SHARE/example-binary" -o out.tns
	assert_equal "$(sed -n 4p out.tns)" "2 5 4 4"
	only out out.tns
}

@test "ts-convert: a DST whose kind its name does not tell is refused (exit 2), naming the kinds and --to" {
	local dst
	for dst in x.txt x.gz lf.tns.lz4 v1.2; do
		run ts-convert -q "$EL" "$dst"
		assert_failure 2
		assert_line --index 0 --regexp "^ts-convert: '$dst': cannot tell the kind of output from its name \(\.tns, \.tnsb, \.mtx,? (or )?\.json[^;]*, possibly then \.gz, \.zst, \.xz or \.bz2; no suffix for a bundle, \.tar\.zst for a bundle in an archive\): give --to bundle, tns, tnsb, frostt, mtx,? (or )?cutensor"
	done
	only
	# --to says it; a final slash or a directory there says bundle.
	run -0 ts-convert -q "$EL" x.txt --to tns
	assert_equal "$(head -n 1 x.txt)" "%%TensorSuite-TNS"
	run -0 ts-convert -q "$EL" v1.2 --to bundle
	valid v1.2
	run -0 ts-convert -q "$EL" v1.3/
	valid v1.3
	only x.txt v1.2 v1.3
}

@test "ts-convert: a DST ending in .gz, .zst, .xz or .bz2 is written compressed, and reads back" {
	local z
	for z in gz zst xz bz2; do
		run -0 ts-convert "$EL" "el.tns.$z"
		run -0 ts-convert "$SHARE/example-binary" "eb.tnsb.$z"
		run -0 ts-convert "$MTX/LFAT5.mtx" "lf.mtx.$z"
		run -0 ts-convert "$EL" -o "el.fro.$z" --to frostt
	done
	# Each is its compressor's format, with what the plain file holds.
	cmp <(gzip -dc el.tns.gz) "$EL/example-element.tns"
	# No time in a gzip header (MTIME, bytes 4-7): the same bytes every
	# time, as every other output (issue 30, point 25).
	for z in el.tns.gz lf.mtx.gz el.fro.gz; do
		[ "$(od -A n -t x1 -j 4 -N 4 "$z" | tr -d ' ')" = 00000000 ]
	done
	cmp <(zstd -qdc el.tns.zst) "$EL/example-element.tns"
	cmp <(xz -dc el.tns.xz) "$EL/example-element.tns"
	cmp <(bzip2 -dc el.tns.bz2) "$EL/example-element.tns"
	cmp <(zstd -qdc eb.tnsb.zst) "$SHARE/example-binary/example-binary.tnsb"
	assert_equal "$(xz -dc el.fro.xz)" "$el_rows"
	ts-convert -q "$MTX/LFAT5.mtx" lf.mtx
	cmp <(gzip -dc lf.mtx.gz) lf.mtx
	# 2.4 MB, many blocks of the filter.
	run -0 ts-convert -q "$REAL/splatt_med.tns" med.tns.zst --to frostt
	cmp <(zstd -qdc med.tns.zst) "$REAL/splatt_med.tns"
	# And the tools read them back.
	run -0 ts-convert -q el.tns.bz2 - --to frostt
	assert_output "$el_rows"
	run -0 ts-convert --meta "$SHARE/example-binary/example-binary_metadata.json" \
	    eb.tnsb.zst - --to frostt
	assert_output "$bin_rows"
	# A failure half-way leaves no half-compressed file behind.
	mkdir bad
	mkbundle "$EL" t >/dev/null
	sed -i '10s/^4 3 1 /4 9 1 /' t/t.tns
	run -1 ts-convert t bad/t.tns.zst
	assert_output --partial "[S1]"
	assert_equal "$(ls -A bad)" ""
	run -2 ts-convert "$EL" el.tns.gz
	assert_output "ts-convert: 'el.tns.gz' exists (-f replaces it)"
}

@test "ts-convert: -o /dev/null takes every kind; a bundle there is made and discarded" {
	local k
	for k in tns tnsb frostt; do
		run --separate-stderr ts-convert "$EL" /dev/null --to "$k"
		assert_success
		assert_equal "$stderr" ""
	done
	run -0 ts-convert "$SHARE/example-binary" -o /dev/null --to mtx
	run -0 ts-convert "$SHARE/example-block" -o /dev/null --to cutensor
	# Without --to, a device is a stream, like '-'.
	run --separate-stderr ts-convert "$EL" /dev/null
	assert_success
	assert_equal "$stderr" ""
	# A bundle: everything runs (the metadata is worked out and checked),
	# and nothing is written.
	run --separate-stderr ts-convert -q "$REAL/matmul_2-2-2.tns" /dev/null --to bundle
	assert_success
	assert_equal "$stderr" ""
	run ts-convert -q "$EL" /dev/null --to bundle --id 12
	assert_failure 2
	assert_output --partial "[M1]"
	# The data is read to its end: a bad row is found.
	mkbundle "$EL" t >/dev/null
	sed -i '5s/^1 1 1 /1 9 1 /' t/t.tns
	run ts-convert -q t /dev/null --to bundle
	assert_failure 1
	assert_output --partial "[S1]"
	[ -c /dev/null ]
	only t
}

@test "ts-convert: a device, FIFO or empty directory as DST draws no hint that -f would replace it" {
	# A bundle cannot go to a device, with -f or not.
	run ts-convert -q "$EL" /dev/full --to bundle
	assert_failure 2
	assert_output --regexp "^ts-convert: '/dev/full' is not a directory, so a bundle cannot be written to it: give --to tns, tnsb, frostt, mtx,? (or )?cutensor"
	run ts-convert -q -f "$EL" /dev/full --to bundle
	assert_failure 2
	[ -c /dev/full ]
	mkfifo p
	run ts-convert -q -f "$EL" p --to bundle
	assert_failure 2
	[ -p p ]
	# An empty directory holds nothing to lose: the bundle goes there.
	mkdir e
	run -0 ts-convert -q "$EL" e
	valid e
	# A directory that is not a bundle is never replaced.
	mkdir -p proj/sub
	local f
	for f in "" -f; do
		run ts-convert -q $f "$EL" proj
		assert_failure 2
		assert_output "ts-convert: 'proj' is a directory but not a bundle: a bundle goes to a new name, an empty directory, or over a bundle with -f"
	done
	run ts-convert -q "$EL" proj --to tns
	assert_failure 2
	assert_output "ts-convert: 'proj' is a directory: a tns file cannot replace it"
	[ -d proj/sub ]
	only p e proj
}

@test "ts-convert: -f with DST = SRC rewrites a bundle in place" {
	mkbundle "$EL" t >/dev/null
	run -0 ts-convert -q -f t -o t --binary --endian big
	run meta t '[.endianness, .files]'
	assert_output '["big",{"binary":"t.tnsb","readme":"README.md"}]'
	valid t
	run -0 ts-convert t -o - --to frostt
	assert_output "$el_rows"
	only t
}

@test "ts-convert: -f does not half-delete a directory that is not a bundle" {
	mkdir -p proj/sub
	echo notes >proj/notes.txt
	echo deep >proj/sub/deep.txt
	run ts-convert -q -f "$EL" -o proj
	assert_failure
	assert_equal "$(cat proj/notes.txt)" notes
	assert_equal "$(cat proj/sub/deep.txt)" deep
	only proj
}

@test "ts-convert: an unwritable output directory is an I/O error (exit 3) and leaves nothing" {
	[ "$(id -u)" -eq 0 ] && skip "root can write anywhere"
	mkdir ro
	chmod 555 ro
	run ts-convert -q "$EL" -o ro/el
	assert_failure 3
	run ts-convert -q "$EL" -o ro/el.tns
	assert_failure 3
	chmod 755 ro
	assert_equal "$(ls -A ro)" ""
}

@test "ts-convert: -o /dev/full exits 3: a device is written to, not replaced" {
	run ts-convert -q "$EL" -o /dev/full --to tns
	assert_failure 3
	[ -c /dev/full ]
}

@test "ts-convert: a full standard output is an I/O error (exit 3); a closed pipe ends quietly" {
	run bash -c "ts-convert -q '$EL' -o - >/dev/full"
	assert_failure 3
	run bash -c "ts-convert -q '$REAL/splatt_med.tns' -o - --to frostt >/dev/full"
	assert_failure 3
	run bash -c "ts-convert '$REAL/splatt_med.tns' -o - --to frostt 2>err | head -n 1; cat err"
	assert_success
	assert_output "$(head -n 1 "$REAL/splatt_med.tns")"
}

@test "ts-convert: an existing FIFO as DST is written to, not replaced" {
	mkfifo p
	# The reader, in the background (fd 3 closed, or bats waits for it).
	timeout 10 cat p >got 3>&- &
	local reader=$!
	run ts-convert -q "$EL" -o p --to tns
	if [ "$status" -eq 0 ] && [ -p p ]; then
		wait "$reader"
	else
		kill "$reader" 2>/dev/null || true
		wait "$reader" || true
	fi
	assert_success
	[ -p p ]
	cmp got "$EL/example-element.tns"
}

# =====================================================================
# Bad inputs; inputs are never modified
# =====================================================================

@test "ts-convert: a truncated tnsb (1), a missing SRC (3), a directory without metadata (1)" {
	mkbundle "$SHARE/example-binary" t >/dev/null
	truncate -s -3 t/t.tnsb
	run ts-convert t -o out
	assert_failure 1
	assert_output --partial "t/t.tnsb:+"
	run ts-convert t -o out.tns
	assert_failure 1
	run ts-convert --meta t/t_metadata.json - -o out.tns <t/t.tnsb
	assert_failure 1
	run ts-convert no-such.tns -o out
	assert_failure 3
	assert_output --partial "no-such.tns: No such file or directory"
	mkdir empty
	run ts-convert empty -o out
	assert_failure 1
	assert_output --partial "[B1]"
	only t empty
}

@test "ts-convert: inputs are never modified" {
	mkdir in
	cp -r "$EL" in/
	mkbundle "$SHARE/example-binary" eb >/dev/null
	mv eb in/
	cp "$REAL/matmul_2-2-2.tns" "$MTX/LFAT5.mtx" in/
	rows in/z.tns '0 1 2.5' '1 0 2.5'
	chmod -R u+w in
	local before
	before=$(cd in && find . -type f -exec md5sum {} + | sort)
	ts-convert -q in/example-element -o o1 --value-type float32 --binary || true
	ts-convert -q in/example-element -o o2 --index-base 0 --endian big --binary
	ts-convert -q in/example-element/example-element.tnsb -o o3.tns
	ts-convert -q in/eb -o o4 --text --index-type uint64
	ts-convert -q in/matmul_2-2-2.tns -o o5
	ts-convert -q in/LFAT5.mtx -o o6.mtx
	ts-convert -q in/z.tns -o o7 --index-base 1
	ts-convert -q in/z.tns -o o8.tns --value-type int32 || true
	ts-convert -q - -o o9.tns <in/matmul_2-2-2.tns
	assert_equal "$(cd in && find . -type f -exec md5sum {} + | sort)" "$before"
}

# =====================================================================
# Round trips through scipy, numpy and binsparse, and cuTENSOR arrays
# =====================================================================

@test "ts-convert: Matrix Market -> bundle -> Matrix Market reads back the same in scipy.io.mmread" {
	local f n bad=0
	for f in abb313 bcsstk13 jagmesh7 karate LFAT5 lp_afiro rbs480a \
	    tols4000 west0067 lagraph__skew_fp64 lagraph__skew_int64 \
	    mlir__wide scipy__symmetric_pattern_example; do
		n=${f//_/-}
		ts-convert -q "$MTX/$f.mtx" -o "$n" || { echo "$f: import"; bad=1; continue; }
		ts-validate -q "$n" || { echo "$f: invalid bundle"; bad=1; }
		ts-convert -q "$n" -o "$n.mtx" || { echo "$f: export"; bad=1; continue; }
		/usr/bin/python3 "$TS_TOP/tests/mtx-same.py" "$MTX/$f.mtx" "$n.mtx" ||
		    { echo "$f: differs"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

# ---- scipy's and numpy's .npz, binsparse's .bsp.npz ----

# npz_src NAME VT IT: a sorted tensor of integer values, as a bundle
# NAME of value type VT and index type IT, with a binary data file.
npz_src() {
	rows ints.tns '1 1 1 3' '1 2 2 -7' '2 1 2 100000' '3 3 1 -2147483648' \
	    '4 2 2 2147483647'
	ts-convert -q --binary --value-type "$2" --index-type "$3" ints.tns "$1"
}

@test "ts-convert: every value type and index type round-trips bit-exact through .npz and .bsp.npz, and numpy reads the .tnsb's entries" {
	local vt it k
	for vt in float32 float64 int32 int64; do
		for it in uint32 uint64; do
			npz_src src "$vt" "$it"
			for k in npz bsp.npz; do
				ts-convert -q src "x.$k"
				mkdir back
				ts-convert -q --binary --index-base 1 \
				    --index-type "$it" "x.$k" back/src
				cmp src/src.tnsb back/src/src.tnsb
				/usr/bin/python3 "$TS_TOP/tests/npz-same.py" \
				    "x.$k" src
				rm -r back "x.$k"
			done
			rm -r src
		done
	done
	# Float values of every kind, and a tensor without values.
	for k in npz bsp.npz; do
		ts-convert -q "$EL" "el.$k"
		ts-convert -q "el.$k" - --to frostt >el.frostt
		ts-convert -q "$EL" - --to frostt | diff -u - el.frostt
		/usr/bin/python3 "$TS_TOP/tests/npz-same.py" "el.$k" "$EL"
		rows nov.tns '1 1 1' '2 3 1' '2 3 2'
		ts-convert -q --no-values nov.tns nov
		ts-convert -q nov "nov.$k"
		ts-convert -q "nov.$k" nov2
		run -0 meta nov2 .values_provided
		assert_output false
		rm -r nov nov2
	done
}

@test "ts-convert: a bundle through .bsp.npz comes back with the same metadata, which binsparse keeps beside its 'binsparse' key" {
	local b
	for b in example-element example-binary; do
		ts-convert -q "$SHARE/$b" x.bsp.npz
		mkdir back
		ts-convert -q x.bsp.npz "back/$b"
		diff -u <(jq 'del(.files)' "$SHARE/$b/${b}_metadata.json") \
		    <(jq 'del(.files)' "back/$b/${b}_metadata.json")
		/usr/bin/python3 -c 'import json, sys, numpy as np
d = json.loads(str(np.load(sys.argv[1])["binsparse"].item()))
assert d["binsparse"]["version"] == "0.1", d
assert d["name"] == sys.argv[2] and "name" not in d["binsparse"]' \
		    x.bsp.npz "$b"
		rm -r back x.bsp.npz
	done
}

@test "ts-convert: a matrix to .npz is what scipy.sparse.load_npz reads, equal to scipy.io.mmread of the .mtx" {
	local f
	for f in abb313 LFAT5 west0067 lagraph__skew_int64; do
		ts-convert -q "$MTX/$f.mtx" "$f.npz"
		/usr/bin/python3 -c 'import sys, numpy as np
z = np.load(sys.argv[1])
assert sorted(z.files) == ["col", "data", "format", "row", "shape"]
assert z["format"].item() == b"coo"' "$f.npz"
		/usr/bin/python3 "$TS_TOP/tests/npz-same.py" "$f.npz" - \
		    "$MTX/$f.mtx"
	done
}

@test "ts-convert: .npz files written by scipy and numpy (pydata/sparse's arrays, binsparse's Python reference) are read" {
	local f n
	for f in "$DATA"/npz/*.frostt; do
		n=${f##*/}
		n=${n%.frostt}
		run -0 ts-convert -q "$DATA"/npz/"$n".*npz - --to frostt
		assert_output "$(cat "$f")"
	done
	run ts-convert "$DATA/npz/scipy-csr.npz" out
	assert_failure 1
	assert_output "$DATA/npz/scipy-csr.npz:+0: error: member 'format.npy': scipy's format 'csr' is not read (coo is)"
	only
}

@test "ts-convert: the suffix .bsp.npz names binsparse, .npz scipy's and numpy's arrays; either is read whatever its name" {
	ts-convert -q "$EL" a.bsp.npz
	ts-convert -q "$EL" a.npz
	ts-convert -q --to binsparse-npz "$EL" b.npz
	run -0 /usr/bin/python3 -c 'import sys, numpy as np
print(*[" ".join(sorted(np.load(f).files)) for f in sys.argv[1:]], sep="\n")' \
	    a.bsp.npz a.npz b.npz
	assert_output 'binsparse indices_0 indices_1 indices_2 values
coords data fill_value shape
binsparse indices_0 indices_1 indices_2 values'
	ts-convert -q b.npz - --to frostt | diff -u - <(ts-convert -q a.npz - \
	    --to frostt)
}

@test "ts-convert: unsorted entries are sorted on the way to binsparse and to pydata's order-N arrays; ts-sort writes them" {
	rows u.tns '1 1 1 3' '2 3 1 -7' '1 2 2 5'
	local k
	for k in bsp.npz npz; do
		ts-convert -q u.tns "u.$k"
		run -0 ts-convert -q "u.$k" - --to frostt
		assert_output $'1 1 1 3\n1 2 2 5\n2 3 1 -7'
		rm "u.$k"
	done
	ts-sort -q u.tns -o u.bsp.npz
	run -0 ts-convert -q u.bsp.npz - --to frostt
	assert_output $'1 1 1 3\n1 2 2 5\n2 3 1 -7'
	# Sorted by another order of the modes: written as it comes, with
	# the order as binsparse's "transpose".
	ts-sort -q -k 3,1,2 u.tns -o k.bsp.npz
	run -0 /usr/bin/python3 -c 'import json, numpy as np
z = np.load("k.bsp.npz")
print(json.loads(str(z["binsparse"].item()))["binsparse"]["custom"]["transpose"], list(z["indices_0"]))'
	assert_output '[2, 0, 1] [0, 0, 1]'
	rows d.tns '1 1 1 3' '1 1 1 4'
	run ts-sort -q d.tns -o d.bsp.npz
	assert_failure 1
	assert_line --partial "repeats the one before"
	ts-sort -q --duplicates sum d.tns -o d.bsp.npz
	run -0 ts-convert -q d.bsp.npz - --to frostt
	assert_output '1 1 1 7'
}

@test "ts-convert: repeats are refused on the way to binsparse and .npz (exit 1, nothing written); --duplicates sum, first or last merges them, as ts-sort's" {
	rows d.tns '1 1 1 3' '2 1 1 5' '1 1 1 4'
	run ts-convert -q --duplicates error d.tns d.bsp.npz
	assert_failure 1
	assert_output "d.tns: error: entry (1, 1, 1) repeats (--duplicates error) [S3]"
	local k p
	for k in bsp.npz npz bsp.h5; do
		run ts-convert -q d.tns "d.$k"
		assert_failure 1
		assert_output "d.tns: error: entry (1, 1, 1) repeats (--duplicates error) [S3]"
		only d.tns
		ts-convert -q --duplicates sum d.tns "d.$k"
		ts-convert -q "d.$k" back.tns
		diff -u - back.tns <<-EOF
			%%TensorSuite-TNS
			% version: 0.1
			% name: back
			3 2 1 1 2
			1 1 1 7
			2 1 1 5
		EOF
		rm "d.$k" back.tns
	done
	for p in first last; do
		ts-convert -q --duplicates "$p" d.tns "$p.bsp.npz"
		ts-convert -q "$p.bsp.npz" - --to frostt >"$p.frostt"
	done
	assert_equal "$(cat first.frostt)" $'1 1 1 3\n2 1 1 5'
	assert_equal "$(cat last.frostt)" $'1 1 1 4\n2 1 1 5'
}

@test "ts-convert: a bundle sorted with repeats allowed is refused on the way to binsparse; --duplicates sum merges them, and the metadata kept beside binsparse counts the entries left, its binary values now general" {
	rows b.tns '1 1 1 1' '1 1 1 1' '2 1 1 1'
	ts-convert -q b.tns b
	run -0 meta b '[.sorted, .duplicates, .value_domain, .nnz]'
	assert_output '["lexicographic","allowed","binary",3]'
	run ts-convert -q b b.bsp.npz
	assert_failure 1
	assert_output "b/b.tns:6:1: error: entry (1, 1, 1) repeats the one before it"
	only b.tns b
	ts-convert -q --duplicates sum b b.bsp.npz
	run -0 ts-convert -q b.bsp.npz - --to frostt
	assert_output $'1 1 1 2\n2 1 1 1'
	# Read back with the attributes binsparse kept (no note that they
	# are not the file's).
	run -0 ts-convert b.bsp.npz back
	assert_output ""
	run -0 meta back '[.sorted, .duplicates, .value_domain, .nnz]'
	assert_output '["lexicographic","disallowed","general",2]'
}

@test "ts-convert: -S 1M sorts an output of unique entries in runs spilled to -T, left empty: the same file as in memory; a pipe read twice is copied to -T" {
	# 200000 distinct coordinates, scrambled (7919 is prime to 200000).
	awk 'BEGIN { for (i = 0; i < 200000; i++) { k = (i * 7919) % 200000
	    printf "%d %d %d %d\n", k % 50 + 1, int(k / 50) % 80 + 1,
	    int(k / 4000) + 1, i } }' >big.tns
	mkdir runs
	ts-convert -q big.tns mem.bsp.npz
	ts-convert -q -S 1M -T runs big.tns runs.bsp.npz
	cmp mem.bsp.npz runs.bsp.npz
	assert_equal "$(ls -A runs)" ""
	# The runs do go there.
	run ts-convert -q --buffer-size 1M --temporary-directory no-such-dir \
	    big.tns x.bsp.npz
	assert_failure 3
	assert_output "ts-convert: sorting (temporary directory 'no-such-dir'): No such file or directory"
	# So does a pipe read twice.
	run -0 ts-convert -T runs - small.tns <<<'1 1 2'
	assert_output "<stdin>: note: copied to a temporary file in 'runs', to read it twice: 6 bytes"
	assert_equal "$(ls -A runs)" ""
}

@test "ts-convert: --duplicates is a usage error (exit 2, nothing written) for an output that keeps repeats, and keep for any" {
	rows d.tns '1 1 1 3' '1 1 1 4'
	local dst
	for dst in d.tnsb d d.tns.zst; do
		run ts-convert --duplicates sum d.tns "$dst"
		assert_failure 2
		assert_output --partial "ts-convert: --duplicates: '$dst' is "
		assert_output --partial "ts-sort --duplicates merges repeats"
	done
	run ts-convert --duplicates error d.tns -
	assert_failure 2
	assert_output "ts-convert: --duplicates: '-' is TensorSuite text, which keeps repeated coordinates as they come: a policy is for an output of unique entries (--to npz, binsparse-npz or binsparse-h5); ts-sort --duplicates merges repeats for any output"
	run ts-convert --duplicates keep d.tns d.bsp.npz
	assert_failure 2
	assert_line --index 0 "ts-convert: --duplicates: 'keep' leaves repeats, which an output of unique entries cannot hold: give sum, first, last or error"
	only d.tns
}

@test "ts-convert: a bad .npz or .bsp.npz is an error at its member's byte offset (exit 1), nothing written" {
	/usr/bin/python3 "$TS_TOP/tests/npz-bad.py"
	local f msg
	while IFS='|' read -r f msg; do
		run ts-convert "$f" out.tns
		assert_failure 1
		assert_output --partial "$f$msg"
	done <"$TS_TOP/tests/npz-bad.txt"
	only $(cut -d'|' -f1 "$TS_TOP/tests/npz-bad.txt")
}

# ---- binsparse in HDF5 ----

# sorted_bundle SRC NAME [OPTION...]: SRC sorted by ts-sort (its options
# first, up to --), then a bundle NAME with a binary data file, as
# ts-convert's options make it.
sorted_bundle() {
	local src=$1 n=$2 so=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do so+=("$1"); shift; done
	[ $# -eq 0 ] || shift
	ts-sort -q "${so[@]}" "$src" -o "sorted-$n" &&
	    ts-convert -q "sorted-$n" "$n" --binary "$@"
}

# bsp_round NAME: bundle NAME -> NAME.bsp.h5 -> back/NAME, which must be
# NAME again: the same metadata, the same data files byte for byte;
# and h5py reads NAME.bsp.h5 to the arrays numpy reads from its .tnsb.
bsp_round() {
	local n=$1 f
	ts-convert -q "$n" "$n.bsp.h5" || { echo "$n: to binsparse"; return 1; }
	mkdir -p back
	ts-convert -q "$n.bsp.h5" "back/$n" || { echo "$n: back"; return 1; }
	for f in "${n}_metadata.json" "$n.tns" "$n.tnsb"; do
		[ ! -e "$n/$f" ] || cmp "$n/$f" "back/$n/$f" ||
		    { echo "$n: $f differs"; return 1; }
	done
	[ ! -e "$n/$n.tnsb" ] ||
	    /usr/bin/python3 "$TS_TOP/tests/bsp-check.py" same "$n.bsp.h5" "$n" >/dev/null ||
	    { echo "$n: h5py reads otherwise"; return 1; }
}

@test "ts-convert: binsparse (HDF5): bundle -> .bsp.h5 -> bundle gives back its metadata and data files byte for byte, which h5py reads as numpy reads the .tnsb" {
	local f n bad=0
	for f in "$REAL/aminoacid.tns" "$REAL/splatt_med.tns" \
	    "$REAL/matmul_2-2-2.tns" "$MTX/karate.mtx" "$MTX/LFAT5.mtx" \
	    "$MTX/lagraph__skew_int64.mtx" "$MTX/mlir__zero.mtx" \
	    "$MTX/scipy__symmetric_pattern_example.mtx"; do
		n=$(basename "${f%.*}")
		n=${n//_/-}
		ts-convert -q "$f" "in-$n" && sorted_bundle "in-$n" "$n" ||
		    { echo "$f: import"; bad=1; continue; }
		bsp_round "$n" || bad=1
	done
	[ "$bad" -eq 0 ]
}

@test "ts-convert: binsparse (HDF5): every value type with every index type, and a tensor without values (iso 1), round trip exactly" {
	local vt it bad=0
	ts-convert -q "$REAL/matmul_2-2-2.tns" in
	for vt in float32 float64 int32 int64; do
		for it in uint32 uint64; do
			sorted_bundle in "m-$vt-$it" -- --value-type "$vt" \
			    --index-type "$it" || { bad=1; continue; }
			bsp_round "m-$vt-$it" || bad=1
		done
	done
	ts-convert -q --no-values "$REAL/KG_JF17K_3_ids_1based.tns" kg-in
	sorted_bundle kg-in kg --duplicates first
	bsp_round kg || bad=1
	[ "$(meta kg-in .values_provided)" = false ]
	[ "$bad" -eq 0 ]
	run -0 /usr/bin/python3 -c 'import h5py, json, sys
f = h5py.File(sys.argv[1])
print(json.loads(f.attrs["binsparse"])["binsparse"]["data_types"]["values"], f["values"][:])' kg.bsp.h5
	assert_output 'iso[float64] [1.]'
}

@test "ts-convert: binsparse (HDF5): entries sorted by another order of the modes are stored transposed; unsorted ones are sorted; repeats are refused (exit 1), nothing written, unless ts-sort merges them" {
	ts-convert -q "$REAL/matmul_2-2-2.tns" in
	sorted_bundle in t312 -k 3,1,2
	bsp_round t312
	run -0 /usr/bin/python3 -c 'import h5py, json, sys
print(json.loads(h5py.File(sys.argv[1]).attrs["binsparse"])["binsparse"]["custom"]["transpose"])' t312.bsp.h5
	assert_output '[2, 0, 1]'
	# FROSTT in file order, sorted on the way: h5py finds them sorted
	ts-convert -q "$REAL/aminoacid.tns" a.bsp.h5
	ts-convert -q a.bsp.h5 a
	[ "$(meta a .sorted)" = '"lexicographic"' ]
	sorted_bundle "$REAL/aminoacid.tns" sorted
	ts-convert -q a sorted2 --binary
	cmp <(sed 1,3d sorted/sorted.tnsb) <(sed 1,3d sorted2/sorted2.tnsb)
	run -1 ts-convert "$REAL/KG_JF17K_3_ids_1based.tns" kg.bsp.h5
	assert_output --partial "repeats"
	[ ! -e kg.bsp.h5 ]
	run -0 ts-sort -q --duplicates sum "$REAL/KG_JF17K_3_ids_1based.tns" -o kg.bsp.h5
}

@test "ts-convert: binsparse (HDF5) goes through pipes and compression: a temporary file for libhdf5, the same bytes" {
	local b
	sorted_bundle "$REAL/splatt_med.tns" s
	ts-convert -q s s.bsp.h5
	ts-convert -q s - --to binsparse-h5 | cmp - s.bsp.h5
	ts-convert -q s s.bsp.h5.zst
	mkdir tmp
	TMPDIR=$PWD/tmp ts-convert -q s.bsp.h5.zst back1
	TMPDIR=$PWD/tmp ts-convert -q - back2 --from binsparse-h5 <s.bsp.h5
	cat s.bsp.h5 | TMPDIR=$PWD/tmp ts-convert -q - back3
	for b in back1 back2 back3; do
		cmp <(sed 3d s/s.tnsb) <(sed 3d "$b/$b.tnsb")
	done
	[ -z "$(ls -A tmp)" ]
}

@test "ts-convert: binsparse (HDF5): files laid out as binsparse's C reference writes them are read (no format key, transpose, iso, a fixed-length descriptor, narrow types)" {
	local f n
	for f in "$DATA"/binsparse/*.bsp.h5; do
		n=$(basename "$f" .bsp.h5)
		run -0 ts-convert -q "$f" --to tns -
		diff -u "$DATA/binsparse/$n.tns" - <<<"$output"
	done
	ts-convert -q "$DATA/binsparse/ref_transposed_iso.bsp.h5" b
	[ "$(meta b .values_provided)" = true ]
	[ "$(meta b .value_type)" = '"float32"' ]
}

@test "ts-convert: binsparse (HDF5): 4-byte items are widened exactly, in plain and compressed chunks: uint32 values past int32, float32 values, a negative int32 index located" {
	local f
	mkdir n
	/usr/bin/python3 "$TS_TOP/tests/bsp-check.py" narrow n
	for f in narrow narrow-gzip; do
		run -0 ts-convert -q "n/$f.bsp.h5" --to tns -
		assert_equal "$(sed 1,4d <<<"$output" | tr '\n' ' ')" \
		    "1 2 3 4000000000 2 1 1 1 3 3 2 2147483648 3 3 3 3 5 1 2 4294967295 "
	done
	run -0 ts-convert -q n/narrow-f32.bsp.h5 --to tns -
	assert_equal "$(sed 1,4d <<<"$output" | tr '\n' ' ')" \
	    "1 2 3 0.1 2 1 1 -2.5 3 3 2 3e+38 3 3 3 1e-45 5 1 2 7 "
	run -1 ts-convert n/narrow-negative.bsp.h5 o.tns
	assert_output "n/narrow-negative.bsp.h5:1: error: 'indices_0' holds -3, a negative index [S1]"
	[ ! -e o.tns ]
}

@test "ts-convert: binsparse (HDF5): a malformed file is a located error of its family (exit 1), never a crash, nothing written" {
	local f
	mkdir bad
	/usr/bin/python3 "$TS_TOP/tests/bsp-check.py" bad bad
	run -1 ts-convert --from binsparse-h5 bad/not-hdf5.bsp.h5 o.tns
	assert_output "bad/not-hdf5.bsp.h5: error: not an HDF5 file (no HDF5 signature) [X1]"
	run -1 ts-convert bad/truncated.bsp.h5 o.tns
	assert_output "bad/truncated.bsp.h5: error: a damaged HDF5 file: libhdf5 cannot open it"
	run -1 ts-convert bad/no-attribute.bsp.h5 o.tns
	assert_output "bad/no-attribute.bsp.h5: error: an HDF5 file without the string attribute 'binsparse' at its root: not binsparse [X1]"
	run -1 ts-convert bad/attribute-not-string.bsp.h5 o.tns
	assert_output "bad/attribute-not-string.bsp.h5: error: attribute 'binsparse' is not one string"
	run -1 ts-convert bad/descriptor-not-json.bsp.h5 o.tns
	assert_output --regexp '^bad/descriptor-not-json.bsp.h5:1:[0-9]+: error: binsparse descriptor: '
	run -1 ts-convert bad/descriptor-version.bsp.h5 o.tns
	assert_output --partial "bad/descriptor-version.bsp.h5:1:"
	assert_output --partial "version '2.0' is not read (0.1 is)"
	run -1 ts-convert bad/missing-dataset.bsp.h5 o.tns
	assert_output "bad/missing-dataset.bsp.h5: error: no dataset 'indices_1', which the descriptor asks for [X7]"
	run -1 ts-convert bad/length-disagrees.bsp.h5 o.tns
	assert_output "bad/length-disagrees.bsp.h5: error: dataset 'values' holds 2 elements; the descriptor says 3 [X7]"
	run -1 ts-convert bad/float-indices.bsp.h5 o.tns
	assert_output "bad/float-indices.bsp.h5: error: dataset 'indices_2' holds floating-point numbers; the descriptor says integers"
	run -1 ts-convert bad/two-dimensional.bsp.h5 o.tns
	assert_output "bad/two-dimensional.bsp.h5: error: dataset 'indices_0' has 2 dimensions, not one"
	run -1 ts-convert bad/negative-index.bsp.h5 o.tns
	assert_output "bad/negative-index.bsp.h5:2: error: 'indices_0' holds -1, a negative index [S1]"
	run -1 ts-convert bad/index-beyond-shape.bsp.h5 o.tns
	assert_output --partial "bad/index-beyond-shape.bsp.h5:3: error: coordinate 2 exceeds 1"
	run -1 ts-convert bad/block-dense-rank.bsp.h5 o.tns
	assert_output "bad/block-dense-rank.bsp.h5:1:193: error: binsparse descriptor: a sparse level over a dense level (a block tensor's) must be of one rank, half the order of 'shape' (6: the grid of blocks, then a block's), at most 64"
	run -1 ts-convert bad/block-values.bsp.h5 o.tns
	assert_output "bad/block-values.bsp.h5:1:267: error: binsparse descriptor: a block tensor's values are read only when iso (TensorSuite's block tensors hold none)"
	run -1 ts-convert bad/block-iso-value.bsp.h5 o.tns
	assert_output "bad/block-iso-value.bsp.h5: error: a block tensor's iso value must be 1 (TensorSuite's block tensors hold no values)"
	run -1 ts-convert bad/block-count.bsp.h5 o.tns
	assert_output "bad/block-count.bsp.h5:1:83: error: binsparse descriptor: 'number_of_stored_values' (7) is not a number of blocks of 2 elements"
	run -1 ts-convert bad/sparse-over-sparse.bsp.h5 o.tns
	assert_output "bad/sparse-over-sparse.bsp.h5:1:115: error: binsparse descriptor: the sparse level's 'level' must be an element level (others are not read)"
	for f in bad/*; do
		run -1 ts-convert "$f" out
	done
	only bad
}

@test "ts-convert: libhdf5 is loaded when an HDF5 file is met, not linked: without it, a .bsp.h5 either way is an I/O error that names it (exit 3, nothing written), and everything else works" {
	local so t
	# No tool needs libhdf5 to start.
	for t in ts-convert ts-gen ts-gen-values ts-pack ts-sort ts-stat ts-validate; do
		run objdump -p "$(command -v "$t")"
		assert_success
		refute_output --partial hdf5
	done
	ts-convert "$EL" el.bsp.h5
	# A library of its name that cannot be loaded, found first.
	so=$("$TS_TOP/scripts/soname.sh" hdf5)
	mkdir lib
	echo "not a library" >"lib/$so"
	export LD_LIBRARY_PATH=$PWD/lib
	run -3 ts-convert el.bsp.h5 back.tns
	assert_output --regexp "^ts-convert: el\.bsp\.h5: binsparse in HDF5 needs libhdf5 \($so\), which cannot be loaded: .*$so"
	run -3 ts-convert "$EL" out.bsp.h5
	assert_output --regexp "^ts-convert: out\.bsp\.h5: binsparse in HDF5 needs libhdf5 \($so\), which cannot be loaded: "
	run -0 ts-convert "$EL" el.bsp.npz
	run -0 ts-validate -q "$EL"
	unset LD_LIBRARY_PATH
	only el.bsp.h5 el.bsp.npz lib
	run -0 ts-convert el.bsp.h5 back.tns
}

# block_bundle NAME SORTED EXTENTS2 NNZ ROW...: share/example-block as
# NAME, mode 2 cut into EXTENTS2 (their sum its dimension), NNZ
# elements, SORTED "lexicographic" or "none", the blocks ROW ("i j",
# 0-based).
block_bundle() {
	local n=$1 sorted=$2 ext=$3 nnz=$4 d=0 g e
	shift 4
	for e in $ext; do d=$((d + e)); done
	g=$(wc -w <<<"$ext")
	mkdir "$n"
	sed -e "s/example-block/$n/g" -e "s/\(\"dimensions\": \[6, \)4/\1$d/" \
	    -e "s/\(\"nnz\": \)12/\1$nnz/" -e "s/\(\"nnz_block\": \)3/\1$#/" \
	    -e "s/\(\"block_partitions\": \[3, \)2/\1$g/" \
	    "$SHARE/example-block/example-block_metadata.json" \
	    >"$n/${n}_metadata.json"
	[ "$sorted" = lexicographic ] ||
	    sed -i -e 's/"lexicographic"/"none"/' \
	    -e 's/"sort_order": \[1, 2\]/"sort_order": []/' \
	    "$n/${n}_metadata.json"
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n' "$n"
		printf '2 6 %s %s\n3 %s %s\n2 2 2\n%s\n' "$d" "$nnz" "$g" $# "$ext"
		printf '%s\n' "$@"
	} >"$n/$n.tns"
	: >"$n/README.md"
	valid "$n"
}

@test "ts-convert: binsparse: a block tensor of uniform partitions is a sparse level over a dense level in .bsp.h5 and .bsp.npz, as h5py and numpy read them, and comes back the same bundle; unsorted blocks are sorted" {
	local k
	mkdir back
	for k in bsp.h5 bsp.npz; do
		ts-convert -q "$SHARE/example-block" "x.$k"
		/usr/bin/python3 "$TS_TOP/tests/bsp-check.py" blocks "x.$k" \
		    "$SHARE/example-block"
		ts-convert -q "x.$k" back/example-block
		cmp "$SHARE/example-block/example-block_metadata.json" \
		    back/example-block/example-block_metadata.json
		cmp "$SHARE/example-block/example-block.tns" \
		    back/example-block/example-block.tns
		rm -r back/example-block
	done
	# Sorted by mode 2 first: stored transposed, both halves.
	ts-sort -q -k 2,1 "$SHARE/example-block" -o k21
	ts-convert -q k21 k21.bsp.h5
	/usr/bin/python3 "$TS_TOP/tests/bsp-check.py" blocks k21.bsp.h5 k21
	# Blocks in no order go through the sort, as elements do.
	block_bundle u none "2 2" 12 "2 0" "1 1" "0 0"
	ts-convert -q u u.bsp.npz
	ts-convert -q u.bsp.npz back/u
	[ "$(meta back/u .sorted)" = '"lexicographic"' ]
	[ "$(sed 1,7d back/u/u.tns | tr '\n' ' ')" = "0 0 1 1 2 0 " ]
	/usr/bin/python3 "$TS_TOP/tests/bsp-check.py" blocks u.bsp.npz back/u
	# Another writer's file, without TensorSuite's attributes: the
	# same blocks, inferred.
	/usr/bin/python3 -c 'import h5py, json, numpy as np
with h5py.File("f.bsp.h5", "w") as f:
    f["indices_0"] = np.array([0, 1, 2], np.int32)
    f["indices_1"] = np.array([0, 1, 0], np.int32)
    f["values"] = np.array([1], np.int8)
    f.attrs["binsparse"] = json.dumps({"binsparse": {"version": "0.1",
        "shape": [3, 2, 2, 2], "number_of_stored_values": 12,
        "custom": {"level": {"level_desc": "sparse", "rank": 2, "level": {
            "level_desc": "dense", "rank": 2,
            "level": {"level_desc": "element"}}}},
        "data_types": {"indices_0": "int32", "indices_1": "int32",
                       "values": "iso[int8]"}}})'
	ts-convert -q f.bsp.h5 f
	run -0 meta f '[.sparsity_type, .dimensions, .block_partitions, .nnz, .nnz_block]'
	assert_output '["block",[6,4],[3,2],12,3]'
	cmp <(sed 1,3d f/f.tns) <(sed 1,3d "$SHARE/example-block/example-block.tns")
}

@test "ts-convert: a block tensor whose partitions are not uniform is refused by binsparse (exit 1, nothing written); --expand writes its elements, those ts-gen-values --expand gives, to any output" {
	local k
	block_bundle nu lexicographic "3 2" 16 "0 0" "1 1" "2 0"
	for k in bsp.h5 bsp.npz; do
		run -1 ts-convert nu "nu.$k" --to "binsparse-${k#bsp.}"
		assert_output "nu: error: the tensor is block-sparse and its partitions are not uniform: mode 2 has sections of 3 and 2; $(
		    [ "$k" = bsp.h5 ] && echo 'binsparse (HDF5)' || echo 'binsparse in NPZ'
		    ) stores blocks of one shape: --expand writes its elements"
	done
	only nu
	ts-convert -q --expand nu e
	ts-convert -q --expand nu e.bsp.h5
	ts-convert -q e.bsp.h5 e2
	ts-gen-values -q --expand nu -o v
	[ "$(meta e .sparsity_type)" = '"element"' ]
	[ "$(meta e .values_provided)" = false ]
	[ "$(meta e .nnz)" = 16 ]
	valid e
	cmp <(sed 1,4d e/e.tns) <(sed 1,4d v/v.tns | cut -d' ' -f1,2)
	cmp <(sed 1,4d e/e.tns) <(sed 1,4d e2/e2.tns)
	run -2 ts-convert --expand "$EL" el.bsp.h5
	assert_output --partial "is not block-sparse: --expand is for block tensors"
	[ ! -e el.bsp.h5 ]
}

@test "ts-convert: --to cutensor writes the block-sparse descriptor arrays (K4)" {
	run -0 ts-convert "$SHARE/example-block" -o - --to cutensor
	run -0 jq -c '[.numModes, .numSectionsPerMode, .extent,
	    .numNonZeroBlocks, .nonZeroCoordinates]' <<<"$output"
	assert_output '[2,[3,2],[2,2,2,2,2],3,[0,0,1,1,2,0]]'
	# A .json DST means cuTENSOR arrays; the reference demo_A fits.
	run -0 ts-convert "$DATA/reference/demo_A" -o a.json
	run -0 jq -r '[.numModes, (.extent | length), .numNonZeroBlocks,
	    (.nonZeroCoordinates | length)] | @tsv' a.json
	assert_output "$(printf '3\t149\t836\t2508')"
}

@test "ts-convert: --to cutensor refuses what cuTENSOR cannot take (exit 1), writing nothing" {
	run ts-convert "$EL" -o el.json
	assert_failure 1
	# Named by its suffix only: what was meant may be a bundle.
	assert_output --partial "not block-sparse: cuTENSOR's block-sparse descriptor holds blocks (a DST named .json is cuTENSOR's block-sparse descriptor; for a bundle, give a DST without a suffix) [K4]"
	[ ! -e el.json ]
	run -1 ts-convert "$EL" -o el.out --to cutensor
	assert_output --partial "not block-sparse: cuTENSOR's block-sparse descriptor holds blocks [K4]"
	run ts-convert --from cutensor "$EL" -o x.tns
	assert_failure 2
}

# ---- SPLATT's binary coordinate file ----

# colbin_trip KIND BUNDLE N: BUNDLE to KIND as tN.bin, beside its 0-based
# text refN.tns for the independent reader (colbin_check); then back to
# .tnsb of the bundle's value and index types and endianness, the same
# bytes as the bundle's own entries.
colbin_trip() {
	local kind=$1 b=$2 n=$3 vt it en
	vt=$(meta "$b" .value_type | tr -d '"')
	it=$(meta "$b" .index_type | tr -d '"')
	en=$(meta "$b" '.endianness // "little"' | tr -d '"')
	mkdir -p ref back
	ts-convert -q "$b" "t$n.bin" --to "$kind"
	ts-convert -q "$b" "ref$n.tns" --index-base 0 --e16
	ts-convert -q -f --name t "$b" ref/t.tnsb
	ts-convert -q -f --from "$kind" --name t --value-type "$vt" \
	    --index-type "$it" --endian "$en" "t$n.bin" back/t.tnsb
	cmp ref/t.tnsb back/t.tnsb
}

# colbin_check KIND: the independent reader on every tN.bin and refN.tns.
colbin_check() {
	local f args=()
	for f in t*.bin; do
		f=${f#t}
		args+=("t$f" "ref${f%.bin}.tns")
	done
	/usr/bin/python3 "$TS_TOP/tests/colbin-check.py" "$1" "${args[@]}"
}

@test "ts-convert: every element bundle of the tests goes to SPLATT's binary, as an independent reader reads it, and back bit for bit" {
	# (reference/legacy holds a bundle of an older version, not read.)
	colbin_trip splatt-bin "$EL" 1
	colbin_trip splatt-bin "$SHARE/example-binary" 2
	colbin_trip splatt-bin "$DATA/reference/random_tiny" 3
	colbin_check splatt-bin
}

@test "ts-convert: SPLATT's binary holds each value type bit for bit, with 4- or 8-byte indices and values as SPLATT chooses them" {
	local n=0
	for vt in float64 float32 int64 int32; do
		for d in 4,3 5000000000,3; do
			case $vt in
			float64) v1=0.1 v2=-1e300 ;;
			float32) v1=0.1 v2=-3.5 ;;
			int64) v1=9007199254740991 v2=-7 ;;
			int32) v1=16777217 v2=2147483647 ;;
			esac
			n=$((n + 1))
			rows b.tns "1 1 $v1" "4 3 $v2" "2 2 0.5"
			[[ $vt != int* ]] || rows b.tns "1 1 $v1" "4 3 $v2" "2 2 5"
			ts-convert -q --input-value-type "$vt" --dims "$d" b.tns b$n
			colbin_trip splatt-bin "$PWD/b$n" $n
		done
	done
	# Values a float holds, in 4 bytes.
	rows f.tns "1 1 0.5" "2 2 3"
	ts-convert -q f.tns f
	colbin_trip splatt-bin "$PWD/f" 9
	colbin_check splatt-bin
	run -0 od -An -tu8 -j12 -N8 t9.bin
	assert_output "                    4"
	run -0 od -An -tu8 -j4 -N16 t2.bin
	assert_output "                    8                    8"
}

@test "ts-convert: SPLATT's binary refuses a value no double holds, a block tensor, and writes nothing (exit 1)" {
	rows big.tns "1 1 9007199254740993"
	run -1 ts-convert -q --input-value-type int64 big.tns big.bin --to splatt-bin
	assert_output --partial "big.tns:1:5: error: value 9007199254740993 has no exact float or double, the values SPLATT binary holds"
	run -1 ts-convert -q "$SHARE/example-block" blk.bin --to splatt-bin
	assert_output --partial "the tensor is block-sparse: its entries are blocks, which SPLATT binary cannot hold"
	only big.tns
}

@test "ts-convert: SPLATT's binary streams both ways: into a pipe its arrays past -S go to temporary files under -T that do not outlive it, into a file straight to their places, the same bytes" {
	awk 'BEGIN { for (i = 1; i <= 300000; i++) print i, i % 7 + 1, i * 0.25 }' >big.tns
	mkdir tmp
	ts-convert -q -S 1M -T tmp big.tns - --to splatt-bin >big.bin
	run -0 ls -A tmp
	assert_output ""
	# The arrays (3.6 MB) do spill: a -T that cannot be written fails.
	run -3 ts-convert -q -S 1M -T no-such-dir big.tns - --to splatt-bin
	assert_output "ts-convert: <stdout>: keeping its arrays in a temporary file in 'no-such-dir': No such file or directory"
	ts-convert -q big.tns direct.bin --to splatt-bin
	cmp big.bin direct.bin
	ts-convert -q big.tns --index-base 0 --e16 ref0.tns
	/usr/bin/python3 "$TS_TOP/tests/colbin-check.py" splatt-bin big.bin ref0.tns
	ts-convert -q big.tns --name x -o ref.tnsb
	ts-convert -q --from splatt-bin --name x -o back.tnsb - <big.bin
	cmp ref.tnsb back.tnsb
	ts-convert -q --from splatt-bin --name x -o back.tnsb -f big.bin
	cmp ref.tnsb back.tnsb
}

@test "ts-convert: .npz and .bsp.npz: into a file the arrays are laid down in it as they come, into a pipe kept (past -S in temporary files under -T that do not outlive it): the same bytes; an entry out of order midway leaves nothing, there and in .bsp.h5" {
	awk 'BEGIN { for (i = 1; i <= 300000; i++) print i, i % 7 + 1, i % 3 + 1, i * 0.25 }' >big.tns
	awk 'BEGIN { for (i = 1; i <= 300000; i++) print i, i % 7 + 1, i * 0.5 }' >mat.tns
	mkdir tmp
	local k t
	for k in npz bsp.npz; do
		t=npz
		[ "$k" = npz ] || t=binsparse-npz
		for f in big mat; do
			ts-convert -q -S 1M -T tmp "$f.tns" - --to "$t" >"p.$k"
			run -0 ls -A tmp
			assert_output ""
			ts-convert -q "$f.tns" "d.$k"
			cmp "p.$k" "d.$k"
			ts-convert -q "d.$k" - --to frostt >back.frostt
			ts-convert -q "$f.tns" - --to frostt | diff -q - back.frostt
			rm "p.$k" "d.$k" back.frostt
		done
		# A bundle that says it is sorted, out of order at entry
		# 200,000: refused there, half written, nothing left.
		rm -rf s
		ts-convert -q big.tns s
		awk 'NR == 200004 { print 1, 1, 1, 1; next } { print }' \
		    s/s.tns >s/x
		mv s/x s/s.tns
		run ts-convert -q s "bad.$k"
		assert_failure 1
		assert_output --partial "entry 200000 at 0-based (0, 0, 0) is out of order"
		[ ! -e "bad.$k" ]
		run -0 ls -A .
		refute_output --partial ".bad.$k"
	done
	# HDF5's writer checks the same, said at the entry's line.
	run ts-convert -q s bad.bsp.h5
	assert_failure 1
	assert_output "s/s.tns:200004:1: error: binsparse holds unique entries in lexicographic order: 0-based (0, 0, 0) comes after (199998, 2, 1) [S2]"
	[ ! -e bad.bsp.h5 ]
}

# colbin_bad FILE OFFSET: write the bytes of example-element's SPLATT
# file, changed by the python expression on stdin (d: its bytes), to FILE.
colbin_bad() {
	/usr/bin/python3 -c "import struct, sys
d = open('e.bin', 'rb').read()
exec(sys.stdin.read())
open('$1', 'wb').write(d)"
}

@test "ts-convert: a malformed SPLATT binary, or a big-endian one, is refused at its byte offset with its rule, whatever its sizes claim, writing nothing (exit 1)" {
	ts-convert -q "$EL" e.bin --to splatt-bin
	colbin_bad trunc.bin <<<'d = d[:10]'
	colbin_bad short.bin <<<'d = d[:-1]'
	colbin_bad long.bin <<<'d = d + b"\0"'
	colbin_bad magic.bin <<<'d = struct.pack("<i", 7) + d[4:]'
	colbin_bad csf.bin <<<'d = struct.pack("<i", 1) + d[4:]'
	colbin_bad iw.bin <<<'d = d[:4] + struct.pack("<Q", 5) + d[12:]'
	colbin_bad vw.bin <<<'d = d[:12] + struct.pack("<Q", 2) + d[20:]'
	colbin_bad be.bin <<<'d = d[:4] + struct.pack(">QQ", 4, 8) + d[20:]'
	colbin_bad order0.bin <<<'d = d[:20] + struct.pack("<I", 0) + d[24:]'
	colbin_bad order65.bin <<<'d = d[:20] + struct.pack("<I", 65) + d[24:]'
	colbin_bad dim0.bin <<<'d = d[:28] + struct.pack("<I", 0) + d[32:]'
	colbin_bad nnz.bin <<<'d = d[:36] + struct.pack("<I", 2**32 - 1) + d[40:]'
	colbin_bad huge.bin <<<'d = d[:4] + struct.pack("<Q", 8) + d[12:20] + struct.pack("<QQQQQ", 3, 4, 3, 2, 2**62) + d[40:]'
	colbin_bad coord.bin <<<'d = d[:48] + struct.pack("<I", 9) + d[52:]'
	check() {
		run -1 ts-convert -q --from splatt-bin "$1" out.tns
		assert_output "$1:+$2: error: $3"
		[ ! -e out.tns ]
	}
	check trunc.bin 10 "the file ends at byte 10, inside the SPLATT binary header [X8]"
	check short.bin 159 "the header says 6 entries of order 3, 4-byte indices and 8-byte values: 120 bytes after its 40-byte header; the file has 119 [X8]"
	check long.bin 160 "the header says 6 entries of order 3, 4-byte indices and 8-byte values: 120 bytes after its 40-byte header; the file has 121 [X8]"
	check magic.bin 0 "magic 7: not a SPLATT binary coordinate file, which starts with 0 [X1]"
	check csf.bin 0 "magic 1: a SPLATT CSF file (not read), or FROSTT's binary format (--from frostt-bin), not SPLATT's coordinate file (0) [X1]"
	check iw.bin 4 "index width 5: SPLATT's indices have 4 or 8 bytes [H3]"
	check vw.bin 12 "value width 2: SPLATT's values have 4 or 8 bytes [H3]"
	check be.bin 4 "index width 4, big-endian: a SPLATT file written on a big-endian machine, which is not read (little-endian ones are) [H3]"
	check order0.bin 20 "order 0: 1 to 64 modes are read [H3]"
	check order65.bin 20 "order 65: 1 to 64 modes are read [H3]"
	check dim0.bin 28 "dimension 0: a mode has at least one index [H3]"
	check nnz.bin 160 "the header says 4294967295 entries of order 3, 4-byte indices and 8-byte values: 85899345900 bytes after its 40-byte header; the file has 120 [X8]"
	check huge.bin 60 "the header says 4611686018427387904 entries of order 3: more bytes than a file holds; the file has 120 after its header [X8]"
	check coord.bin 48 "coordinate 9 exceeds 3, the largest 0-based index of mode 1 (dimension 4) [S1]"
	only *.bin
}

# ---- FROSTT's binary format ----

@test "ts-convert: every element bundle and value type goes to FROSTT's binary, as an independent reader reads it, and back bit for bit" {
	local n=3
	colbin_trip frostt-bin "$EL" 1
	colbin_trip frostt-bin "$SHARE/example-binary" 2
	colbin_trip frostt-bin "$DATA/reference/random_tiny" 3
	for vt in float64 float32 int64 int32; do
		for d in 4,3 5000000000,3; do
			case $vt in
			float64|float32) v1=0.1 v2=-1e30 ;;
			int64|int32) v1=16777217 v2=-7 ;;
			esac
			n=$((n + 1))
			rows b.tns "1 1 $v1" "4 3 $v2" "2 2 5"
			ts-convert -q --input-value-type "$vt" --dims "$d" b.tns b$n
			colbin_trip frostt-bin "$PWD/b$n" $n
		done
	done
	colbin_check frostt-bin
	# 8-byte indices only for a dimension beyond 2^32 - 1; 4-byte
	# values when a float holds each.
	run -0 od -An -tu4 -j4 -N8 t4.bin
	assert_output "          4          8"
	run -0 od -An -tu4 -j4 -N8 t7.bin
	assert_output "          8          4"
}

@test "ts-convert: a .bin names neither SPLATT's binary nor FROSTT's: --from or --to says which (exit 2)" {
	run -2 ts-convert -q "$EL" x.bin
	assert_output "ts-convert: 'x.bin': formats that differ share its suffix: give --to splatt-bin or --to frostt-bin"
	ts-convert -q "$EL" x.bin --to frostt-bin
	run -2 ts-convert -q x.bin x.tns
	assert_output "ts-convert: 'x.bin': formats that differ share its suffix: give --from splatt-bin or --from frostt-bin"
	run -1 ts-convert -q --from splatt-bin x.bin x.tns
	assert_output "x.bin:+0: error: magic 1: a SPLATT CSF file (not read), or FROSTT's binary format (--from frostt-bin), not SPLATT's coordinate file (0) [X1]"
	only x.bin
}

@test "ts-convert: a malformed FROSTT binary is refused at its byte offset with its rule, whatever its sizes claim, writing nothing (exit 1)" {
	ts-convert -q "$EL" e.bin --to frostt-bin
	colbin_bad trunc.bin <<<'d = d[:27]'
	colbin_bad short.bin <<<'d = d[:-1]'
	colbin_bad version.bin <<<'d = struct.pack("<I", 2) + d[4:]'
	colbin_bad splatt.bin <<<'d = struct.pack("<I", 0) + d[4:]'
	colbin_bad iw.bin <<<'d = d[:4] + struct.pack("<I", 16) + d[8:]'
	colbin_bad vw.bin <<<'d = d[:8] + struct.pack("<I", 0) + d[12:]'
	colbin_bad order0.bin <<<'d = d[:12] + struct.pack("<Q", 0) + d[20:]'
	colbin_bad order.bin <<<'d = d[:12] + struct.pack("<Q", 2**64 - 1) + d[20:]'
	colbin_bad dim0.bin <<<'d = d[:32] + struct.pack("<I", 0) + d[36:]'
	colbin_bad nnz.bin <<<'d = d[:20] + struct.pack("<Q", 2**63) + d[28:]'
	check() {
		run -1 ts-convert -q --from frostt-bin "$1" out.tns
		assert_output "$1:+$2: error: $3"
		[ ! -e out.tns ]
	}
	check trunc.bin 27 "the file ends at byte 27, inside the FROSTT binary header [X8]"
	check short.bin 159 "the header says 6 entries of order 3, 4-byte indices and 8-byte values: 120 bytes after its 40-byte header; the file has 119 [X8]"
	check version.bin 0 "version 2: FROSTT's binary format is read in version 1 [X1]"
	check splatt.bin 0 "version 0: SPLATT's binary starts so (--from splatt-bin); FROSTT's binary format is read in version 1 [X1]"
	check iw.bin 4 "index width 16: FROSTT's indices have 4 or 8 bytes [H3]"
	check vw.bin 8 "value width 0: FROSTT's values have 4 or 8 bytes [H3]"
	check order0.bin 12 "order 0: 1 to 64 modes are read [H3]"
	check order.bin 12 "order 18446744073709551615: 1 to 64 modes are read [H3]"
	check dim0.bin 32 "dimension 0: a mode has at least one index [H3]"
	check nnz.bin 40 "the header says 9223372036854775808 entries of order 3: more bytes than a file holds; the file has 120 after its header [X8]"
	only *.bin
}

# ---- HiParTI's text ----

@test "ts-convert: --to hiparti writes the order, the dimensions and 1-based rows; --from hiparti reads them back bit for bit" {
	ts-convert -q "$EL" h.tns --to hiparti
	run -0 head -n 3 h.tns
	assert_output $'3\n4 3 2\n1 1 1 2.5'
	for b in "$EL" "$SHARE/example-binary" "$DATA/reference/random_tiny"; do
		vt=$(meta "$b" .value_type | tr -d '"')
		it=$(meta "$b" .index_type | tr -d '"')
		en=$(meta "$b" '.endianness // "little"' | tr -d '"')
		mkdir -p ref back
		ts-convert -q -f "$b" h.tns --to hiparti
		ts-convert -q -f --name t "$b" ref/t.tnsb
		ts-convert -q -f --from hiparti --name t --value-type "$vt" \
		    --index-type "$it" --endian "$en" h.tns back/t.tnsb
		cmp ref/t.tnsb back/t.tnsb
	done
	# Without values: 1 on every row, which HiParTI's reader expects.
	rows p.tns "1 2" "3 1"
	ts-convert -q --no-values p.tns p.h --to hiparti
	run -0 cat p.h
	assert_output $'2\n3 2\n1 2 1\n3 1 1'
}

@test "ts-convert: a HiParTI file without its order and dimensions lines is refused where it says otherwise (exit 1)" {
	rows a.tns "1 1 2.5"
	run -1 ts-convert -q --from hiparti a.tns out.tns
	assert_output "a.tns:1:1: error: HiParTI header: expected the order (1 to 64) alone on line 1 [H3]"
	rows b.tns "2" "3 4 5" "1 1 2.5"
	run -1 ts-convert -q --from hiparti b.tns out.tns
	assert_output "b.tns:2:1: error: HiParTI header: expected the 2 dimensions on line 2 [H3]"
	rows c.tns "2" "3 0" "1 1 2.5"
	run -1 ts-convert -q --from hiparti c.tns out.tns
	assert_output "c.tns:2:1: error: HiParTI header: dimension 0 of mode 2 is not in 1 to 2^63-1 [H3]"
	rows d.tns "2" "3 4" "4 1 2.5"
	run -1 ts-convert -q --from hiparti d.tns out.tns
	assert_output --partial "d.tns:3:1: error: coordinate 4 exceeds"
	only a.tns b.tns c.tns d.tns
}

# kbundle NAME NNZ "D1 D2" "PARTITION-LINE-1" "PARTITION-LINE-2" BLOCK...:
# an order-2 block bundle NAME (0-based, text only) from example-block.
kbundle() {
	local n=$1 nnz=$2 dims=$3 p1=$4 p2=$5 nb
	shift 5
	nb=$#
	mkdir "$n"
	jq --indent 2 ".name = \"$n\" | .nnz = $nnz | .nnz_block = $nb |
	    .dimensions = [$(tr ' ' , <<<"$dims")] |
	    .block_partitions = [$(wc -w <<<"$p1"), $(wc -w <<<"$p2")] |
	    .files = { text: \"$n.tns\", readme: \"README.md\" }" \
	    "$SHARE/example-block/example-block_metadata.json" >"$n/${n}_metadata.json"
	: >"$n/README.md"
	{ printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n' "$n"
	  echo "2 $dims $nnz"
	  echo "$(wc -w <<<"$p1") $(wc -w <<<"$p2") $nb"
	  echo "$p1"; echo "$p2"; printf '%s\n' "$@"; } >"$n/$n.tns"
}

@test "ts-convert: a block bundle whose blocks do not hold nnz elements (K3) is refused (exit 1), for every output kind, writing nothing" {
	local dst
	# 12 elements, nnz 13.
	kbundle k 13 "6 4" "2 2 2" "2 2" "0 0" "1 1" "2 0"
	# Two blocks of 2^32 x 2^32 elements: more than 64 bits can count.
	kbundle o 1 "8589934592 8589934592" "4294967296 4294967296" \
	    "4294967296 4294967296" "0 0" "1 1"
	for dst in k.json k2 k.tns k.tns.zst k.tar.zst; do
		run ts-convert k -o "$dst"
		assert_failure 1
		assert_output --partial "the non-zero blocks hold 12 elements; 'nnz' is 13 [K3]"
		run ts-convert o -o "o-$dst"
		assert_failure 1
		assert_output --partial "more than 18446744073709551615 (2^64 - 1) elements"
		assert_output --partial "[K3]"
		refute_output --partial "more than 0"
	done
	run ts-convert k -o - --to cutensor
	assert_failure 1
	assert_output --partial "[K3]"
	refute_output --partial "numModes"
	# Too many elements is found at the block that makes them so.
	kbundle m 3 "6 4" "2 2 2" "2 2" "0 0" "1 1" "2 0"
	run ts-convert m -o m2
	assert_failure 1
	assert_output --partial "m/m.tns:8:1: error: the non-zero blocks up to this one hold 4 elements, more than 'nnz' (3) [K3]"
	only k o m
	# The same from ts-sort.
	run ts-sort k -o k3
	assert_failure 1
	assert_output --partial "[K3]"
	run ts-sort -k 2,1 o -o o3.tns
	assert_failure 1
	assert_output --partial "more than 18446744073709551615 (2^64 - 1) elements"
	only k o m
}

@test "ts-convert: a progress line only with TS_PROGRESS=always here (not a terminal); none among entries on a terminal" {
	local el=$SHARE/example-element
	run --separate-stderr ts-convert "$el" -o a.tnsb
	assert_success
	[ -z "$stderr" ]
	TS_PROGRESS=always ts-convert "$el" -o b.tnsb 2>err
	grep -q '^ts-convert: converting ' err
	[ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ]
	cmp a.tnsb b.tnsb
	# Entries written to a terminal: no line among them.
	TS_PROGRESS=always script -qec "ts-convert '$el' -o - --to frostt" \
	    /dev/null >tty.out
	run grep -c 'converting' tty.out
	assert_output 0
	rm -f err tty.out a.tnsb b.tnsb
}

@test "ts-convert: compressed input (gzip, zstd) is decompressed on the way in" {
	gzip -c "$REAL/splatt_med.tns" >med.tns.gz
	run -0 ts-convert -q med.tns.gz -o med
	run -0 ts-convert -q med -o - --to frostt
	[ "$output" = "$(cat "$REAL/splatt_med.tns")" ]
	zstd -q -c "$MTX/karate.mtx" | ts-convert -q - -o k
	run -0 jq -r '[.nnz, .pattern_symmetry] | @tsv' k/k_metadata.json
	assert_output "$(printf '156\tfull')"
	# A damaged stream is refused, leaving nothing.
	head -c 300 med.tns.gz >cut.gz
	run ts-convert -q cut.gz -o cut
	assert_failure
	[ ! -e cut ]
}

@test "ts-convert: a compressed file is decompressed twice, not copied to \$TMPDIR; a pipe is copied, and a note says how big" {
	local z want
	ts-convert -q "$REAL/splatt_med.tns" -o plain
	want=$(meta plain '[.dimensions, .nnz, .index_base]')
	for z in zst gz xz bz2; do
		case $z in
		zst) zstd -q -c "$REAL/splatt_med.tns" ;;
		gz) gzip -c "$REAL/splatt_med.tns" ;;
		xz) xz -c "$REAL/splatt_med.tns" ;;
		bz2) bzip2 -c "$REAL/splatt_med.tns" ;;
		esac >"med.tns.$z"
		# No temporary file can be made, and none is needed.
		run --separate-stderr env TMPDIR=$PWD/none ts-convert "med.tns.$z" -o "m$z"
		assert_success
		[[ $stderr != *"temporary"* ]]
		assert_equal "$(meta "m$z" '[.dimensions, .nnz, .index_base]')" "$want"
		run -0 env TMPDIR=$PWD/none ts-convert -q "med.tns.$z" -o "t$z.tns"
	done
	# A pipe cannot be read twice: it is copied, and said so.
	run --separate-stderr bash -c "zstd -dc med.tns.zst | TMPDIR='$PWD/none' ts-convert - -o p"
	assert_failure 3
	[[ $stderr == *"<stdin>: copying to a temporary file in '$PWD/none', to read it twice: No such file or directory"* ]]
	zstd -dc med.tns.zst | TMPDIR=$PWD ts-convert - -o p 2>err
	grep -q "^<stdin>: note: copied to a temporary file in '$PWD', to read it twice: $(stat -c %s "$REAL/splatt_med.tns") bytes$" err
	assert_equal "$(meta p '[.dimensions, .nnz, .index_base]')" "$want"
}

# =====================================================================
# Import fidelity (issue 13): never a made-up entry, the right status for
# a rejected input, nnz beyond the positions when duplicates are allowed.
# =====================================================================

@test "ts-convert: a .mtx without banner whose line 1 is a matching size line is read as coordinate real general, with a note" {
	run --separate-stderr ts-convert "$MTX/lagraph__west0067_noheader.mtx" -o w
	assert_success
	[[ $stderr == *"lagraph__west0067_noheader.mtx:1:1: note: no %%MatrixMarket banner"* ]]
	run meta w '[.dimensions, .nnz]'
	assert_output '[[67,67],294]'
	valid w
	# The same matrix with its banner gives the same entries.
	run ts-convert -q "$MTX/west0067.mtx" -o - --to tns
	local with=$output
	run ts-convert -q "$MTX/lagraph__west0067_noheader.mtx" -o - --to tns
	assert_equal "$(tail -n +5 <<<"$output")" "$(tail -n +5 <<<"$with")"
	# --from frostt reads it as FROSTT, knowingly: 295 rows of order 2.
	run ts-convert -q --from frostt "$MTX/lagraph__west0067_noheader.mtx" -o f
	assert_success
	run meta f '.nnz'
	assert_output 295
}

@test "ts-convert: a .mtx without banner whose size line does not match, or is not one, is refused (exit 1), naming --from frostt" {
	printf '67 67 3\n1 1 0.5\n67 2 -1\n' >short.mtx
	run ts-convert -q short.mtx -o out
	assert_failure 1
	assert_output --partial "short.mtx:3: error: the file ends after 2 of the 3 entries the size line announces (the file has no banner: --from frostt reads it as FROSTT)"
	printf '2 2 1\n1 1 0.5\n2 2 1\n' >long.mtx
	run ts-convert -q long.mtx -o out
	assert_failure 1
	assert_output --partial "more entries than the 1 the size line announces (the file has no banner"
	run ts-convert -q "$MTX/lagraph__full_noheader.mtx" -o out
	assert_failure 1
	assert_output --partial "lagraph__full_noheader.mtx:1:1: error: no banner: line 1 is '3 3'"
	assert_output --partial "(--from frostt reads the file as FROSTT)"
	# Compressed, the name still says Matrix Market.
	gzip -c short.mtx >short.mtx.gz
	run ts-convert -q short.mtx.gz -o out
	assert_failure 1
	assert_output --partial "the file has no banner"
	only long.mtx short.mtx short.mtx.gz
}

@test "ts-convert: every zero-dimension Matrix Market shape is refused at its size line (exit 1), nothing written" {
	local shape col
	for shape in '3 0 0:2:3' '0 0 0:1:1' '0 4 0:1:1'; do
		col=${shape##*:}
		printf '%%%%MatrixMarket matrix coordinate real general\n%s\n' \
		    "${shape%%:*}" >z.mtx
		run ts-convert z.mtx -o out
		assert_failure 1
		assert_output "z.mtx:2:$col: error: dimension $(cut -d: -f2 <<<"$shape") is 0; TensorSuite dimensions are positive"
		refute_output --partial "metadata"
	done
	run ts-convert "$MTX/cholmod__3by0.mtx" -o out
	assert_failure 1
	assert_output --partial "cholmod__3by0.mtx:2:3: error: dimension 2 is 0"
	only z.mtx
}

@test "ts-convert: repeats that outnumber the positions import with duplicates allowed (.mtx, .tns) and validate" {
	printf '%%%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n1 1 2\n2 1 3\n3 1 4\n' >d.mtx
	run ts-convert -q d.mtx -o dm
	assert_success
	run meta dm '[.dimensions, .nnz, .duplicates]'
	assert_output '[[3,1],4,"allowed"]'
	valid dm
	rows d.tns '1 1 1' '1 1 2' '2 1 3'
	run ts-convert -q d.tns -o dt --dims 2,1
	assert_success
	run meta dt '[.dimensions, .nnz, .duplicates]'
	assert_output '[[2,1],3,"allowed"]'
	valid dt
	# Sorting them away makes a valid bundle too.
	run ts-sort -q --duplicates sum dm -o ds
	assert_success
	run meta ds '[.nnz, .duplicates]'
	assert_output '[3,"disallowed"]'
	valid ds
}

@test "ts-convert: a FROSTT file whose first row looks like COMET's header is read as FROSTT, with a note saying how to read it the other way" {
	run --separate-stderr ts-convert "$DATA/edge/comet__test_rank3.tns" -o c
	assert_success
	[[ $stderr == *"comet__test_rank3.tns:1:1: note: this row looks like a header, COMET's 'd1 ... dN nnz'"* ]]
	[[ $stderr == *"tail -n +2 FILE | ts-convert --from frostt --dims 7,7,7 - ..."* ]]
	run meta c '.nnz'
	assert_output 4
	# Read the other way, as the note says.
	tail -n +2 "$DATA/edge/comet__test_rank3.tns" |
	    ts-convert -q --from frostt --dims 7,7,7 - -o c2
	run meta c2 '[.dimensions, .nnz]'
	assert_output '[[7,7,7],3]'
	# An ordinary FROSTT file gets no such note.
	run --separate-stderr ts-convert "$REAL/matmul_2-2-2.tns" -o m
	[[ $stderr != *"looks like a header"* ]]
}

@test "ts-convert: extended FROSTT and sptensor files are read with the dimensions, count and base their headers state" {
	run --separate-stderr ts-convert "$DATA/edge/mlir__mttkrp_b.tns" -o e
	assert_success
	[[ $stderr == *"note: read as extended FROSTT"* ]]
	run meta e '[.order, .dimensions, .nnz]'
	assert_output '[3,[2,3,4],17]'
	valid e
	run ts-convert -q "$DATA/edge/mlir__coordinate_narrow.tns" -o n
	run meta n '[.dimensions, .nnz]'
	assert_output '[[300,1],1]'
	# A coordinate beyond the stated dimension is refused, located.
	run ts-convert -q "$DATA/edge/mlir__coordinate_above_dimension.tns" -o a
	assert_failure 1
	assert_output --partial "mlir__coordinate_above_dimension.tns:4:1: error: coordinate 5 exceeds dimension 4 of mode 1 [S1]"
	run ts-convert -q "$DATA/edge/pyttb__sptensor.tns" -o p
	assert_success
	run meta p '[.dimensions, .nnz, .index_base]'
	assert_output '[[5,4,3],18,1]'
	valid p
	run ts-convert -q "$DATA/edge/sparten__sptensor_zero_based_index.tns" -o s
	run meta s '[.dimensions, .nnz, .index_base]'
	assert_output '[[5,4,3],18,0]'
	# pyttb and SparTen write the same tensor, 1- and 0-based.
	run ts-convert -q p -o - --to tns --index-base 0
	local pz=$output
	run ts-convert -q s -o - --to tns --index-base 0
	assert_equal "$(tail -n +5 <<<"$output")" "$(tail -n +5 <<<"$pz")"
	run ts-convert -q "$DATA/edge/genten__C_sptensor.tns" -o g
	assert_success
	run meta g '[.dimensions, .nnz, .index_base]'
	assert_output '[[4,3,2],5,0]'
	run ts-convert -q "$DATA/edge/pyttb__matrix.tns" -o x
	assert_failure 1
	assert_output --partial "a dense 'matrix' in the text format of Tensor Toolbox and pyttb"
}

@test "ts-convert: every edge-case file is imported (0) or refused (1) with a located message, never a crash" {
	local f
	for f in "$DATA"/edge/*.tns "$MTX"/*.mtx; do
		run timeout 20 ts-convert -q "$f" -o out
		[ "$status" -le 1 ] || { echo "$f: status $status"; false; }
		if [ "$status" -eq 1 ]; then
			[[ $output == *"$(basename "$f")"* ]] ||
			    { echo "$f: $output"; false; }
		fi
		rm -rf out
	done
}

# =====================================================================
# Text parsed by threads (issue 8): chunks cut at line ends, batches in
# file order, exact line numbers.  TS_CHUNK cuts small files small.
# =====================================================================

@test "ts-convert: text parsed by several threads gives the same bytes and the same messages as one thread" {
	awk 'BEGIN { srand(11); print "%%TensorSuite-TNS"; print "% version: 0.1"
	    print "% name: p"; print "3 1000 1000 1000 30000"
	    for (i = 0; i < 30000; i++)
	        printf "%d %d %d %.6g\n", int(rand() * 1000) + 1,
	            int(rand() * 1000) + 1, int(rand() * 1000) + 1, rand() - 0.5 }' >p.tns
	TS_CHUNK=4096 ts-convert -q -j 3 --input-base 1 p.tns -o p3.tnsb
	ts-convert -q -j 1 --input-base 1 p.tns -o p1.tnsb
	cmp p1.tnsb p3.tnsb
	TS_CHUNK=4096 ts-convert -q -j 2 --input-base 1 p.tns -o - >p2.out
	ts-convert -q -j 1 --input-base 1 p.tns -o - >p1.out
	cmp p1.out p2.out
	# A bad row deep in the file: its line, as one thread says it.
	sed -i '20007s/^[0-9]* /1001 /' p.tns
	run ts-convert -q -j 1 --input-base 1 p.tns -o bad1.tnsb
	assert_failure 1
	local one=$output
	assert_output --partial "p.tns:20007:1: error: coordinate 1001 exceeds dimension 1000 of mode 1 [S1]"
	TS_CHUNK=4096 run ts-convert -q -j 4 --input-base 1 p.tns -o bad4.tnsb
	assert_failure 1
	assert_equal "$output" "$one"
	only p.tns p1.tnsb p3.tnsb p1.out p2.out
}

@test "ts-convert: warnings said once a file come once, at their first line, whatever the threads" {
	awk 'BEGIN { print "%%TensorSuite-TNS"; print "% version: 0.1"
	    print "% name: w"; print "2 100 100 20000"
	    for (i = 0; i < 20000; i++) {
	        if (i == 12000 || i == 15000) print ""
	        printf "%d %d %d\n", i % 100 + 1, int(i / 200) + 1, i }
	    }' >w.tns
	run --separate-stderr ts-convert -j 1 --input-base 1 w.tns -o w1.tns
	assert_success
	local one=$stderr
	[[ $one == *"w.tns:12005:1: warning: blank line between entries [E1]"* ]]
	TS_CHUNK=2048 run --separate-stderr ts-convert -j 3 --input-base 1 w.tns -o w3.tns
	assert_success
	assert_equal "$stderr" "$one"
	cmp w1.tns w3.tns
}

@test "ts-convert: rows found a vector or a word at a time are those found byte by byte: entries, messages, lines and columns (TS_SCAN)" {
	local f way one oerr
	# Every real and edge file, and a long file with odd rows among
	# common ones, each sort of oddity at a known line.
	awk 'BEGIN { srand(5); print "%%TensorSuite-TNS"; print "% version: 0.1"
	    print "% name: o"; print "3 100000 100000 100000 20000"
	    split("1\t2 3 0.5|1  2 3 0.5|1 2 3 0.5 |1 2 3 0.5\r|-1 2 3 0.5|1 2 3 +0.5|1 2 3 1e999|1 2 3 0x10|1 2 3 nan|1 2 3 inf|12345678901234567890 2 3 1|1 2|1 2 3 4 5|# c||% h|1 2 3a 0.5|1 2 3 .5|1 2 3 5.|1 2 3 -0", odd, "|")
	    for (i = 0; i < 20000; i++)
	        if (i % 97 == 3) print odd[int(i / 97) % 20 + 1]
	        else printf "%d %d %d %.17g\n", int(rand() * 99999) + 1,
	            int(rand() * 99999) + 1, int(rand() * 99999) + 1, rand() }' >o.tns
	for f in "$REAL"/*.tns "$DATA"/edge/*.tns o.tns; do
		TS_SCAN=scalar run --separate-stderr ts-convert "$f" -o - --to tns
		one=$output oerr=$stderr
		for way in swar sse2 avx2; do
			TS_SCAN=$way run --separate-stderr ts-convert "$f" -o - --to tns
			[ "$output" = "$one" ] && [ "$stderr" = "$oerr" ] ||
			    { echo "$f, $way: not as byte by byte"; return 1; }
			# The same by threads, in small chunks.
			TS_CHUNK=4096 TS_SCAN=$way run --separate-stderr \
			    ts-convert -j 3 "$f" -o - --to tns
			[ "$output" = "$one" ] && [ "$stderr" = "$oerr" ] ||
			    { echo "$f, $way, threads: not as byte by byte"; return 1; }
		done
	done
	# o.tns says each oddity where it is.
	TS_SCAN=avx2 run --separate-stderr ts-convert -q o.tns -o - --to tns
	[[ $stderr == *"o.tns:590:7: error: value '1e999' overflows float64 [S5]"* ]]
	[[ $stderr == *"o.tns:1172:9: error: row has 5 fields; expected 4 [E1]"* ]]
	[[ $stderr == *"o.tns:1560:5: error: coordinate '3a' is not an unsigned integer [E1]"* ]]
}

# =====================================================================
# Text written by threads (issue 21): chunks of rows formatted at once,
# written in order.  TS_PRINT_CHUNK cuts small outputs into many chunks;
# at its largest the caller formats alone.
# =====================================================================

# printed KIND SRC ARGS...: SRC converted to KIND on stdout by one
# thread, then by threads in chunks of 1, 7 and 500 rows: the same
# bytes, the same messages, the same exit status.
printed() {
	local kind=$1 src=$2 c n one oerr orc out err rc
	shift 2
	# The output, then a line with the exit status.
	one=$(TS_PRINT_CHUNK=16777216 ts-convert -q "$@" "$src" -o - \
	    --to "$kind" 2>"$BATS_TEST_TMPDIR/err"; printf '\n%s' "$?")
	orc=${one##*$'\n'} one=${one%$'\n'*}
	oerr=$(cat "$BATS_TEST_TMPDIR/err")
	# A chunk of as many entries as there are lines starts no thread:
	# the run would be the one above again.
	n=$(printf '%s\n' "$one" | wc -l)
	for c in 1 7 500; do
		[ "$c" -lt "$n" ] || continue
		out=$(TS_PRINT_CHUNK=$c ts-convert -q "$@" "$src" -o - \
		    --to "$kind" 2>"$BATS_TEST_TMPDIR/err"; printf '\n%s' "$?")
		rc=${out##*$'\n'} out=${out%$'\n'*}
		err=$(cat "$BATS_TEST_TMPDIR/err")
		[ "$rc" -eq "$orc" ] && [ "$out" = "$one" ] &&
		    [ "$err" = "$oerr" ] || {
			echo "$src --to $kind, chunks of $c: exit $rc," \
			    "$(printf '%s' "$out" | wc -c) bytes; alone exit" \
			    "$orc, $(printf '%s' "$one" | wc -c) bytes"
			return 1
		}
	done
}

@test "ts-convert: text written by several threads is the bytes one thread writes, for every text format, copied or formatted values" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU: no threads to format with"
	local f
	for f in "$REAL"/*.tns "$DATA"/edge/*.tns; do
		printed tns "$f"
		printed frostt "$f"
		# Through the binary form: every value formatted, not copied.
		ts-convert -q "$f" -o b.tnsb 2>/dev/null || continue
		ts-convert -q "$f" -o b --to bundle
		printed tns b/b.tnsb --meta b/b_metadata.json
		printed frostt b/b.tnsb --meta b/b_metadata.json
		rm -rf b b.tnsb
	done
	for f in "$MTX"/*.mtx; do
		printed mtx "$f"
		printed tns "$f"
	done
	# Values as %.16e, and integers.
	printed tns "$REAL/aminoacid.tns" --values e16
	printed mtx "$MTX/lagraph__skew_int64.mtx"
}

@test "ts-convert: text written by threads ends at a full disk as one thread's does: exit 3, said once" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU: no threads to format with"
	[ -c /dev/full ] || skip "no /dev/full"
	local c
	for c in 1 7 16777216; do
		TS_PRINT_CHUNK=$c run ts-convert -q "$REAL/splatt_med.tns" \
		    -o /dev/full --to tns
		assert_failure 3
		assert_output "ts-convert: /dev/full: write error: No space left on device"
	done
}

# =====================================================================
# Archives (ts-pack(1)): a bundle in a tar archive as SRC and as DST
# =====================================================================

@test "ts-convert: SRC may be an archive holding one bundle; --member picks one of several" {
	ts-pack -o one.tar.zst "$EL"
	run -0 ts-convert one.tar.zst -o - --to frostt
	sans_a1_note
	assert_output "$(ts-convert "$EL" -o - --to frostt)"
	ts-pack -o two.tar.gz "$EL" "$SHARE/example-block"
	run ts-convert two.tar.gz -o out
	assert_failure 2
	assert_output --partial "'two.tar.gz' holds more than one bundle: name one with --member"
	[ ! -e out ]
	run -0 ts-convert two.tar.gz --member example-block -o blk
	valid blk
	run ts-convert two.tar.gz --member nosuch -o out
	assert_failure 1
	assert_output --partial "the archive holds no bundle 'nosuch' [B5]"
	# An archive on standard input, with --member.
	run -0 ts-convert --member example-element - -o - --to frostt <two.tar.gz
	sans_a1_note
	assert_output "$(ts-convert "$EL" -o - --to frostt)"
	[ ! -e out ]
	# ... and without: its first bytes tell, compressed or not, from a
	# file or a pipe.
	run -0 ts-convert - -o - --to frostt <one.tar.zst
	sans_a1_note
	assert_output "$(ts-convert "$EL" -o - --to frostt)"
	zstd -dc one.tar.zst >one.tar
	cat one.tar | ts-convert - -o piped
	valid piped
	run -0 meta piped '[.name, .nnz, .values_provided]'
	assert_output '["piped",6,true]'
	xz -c one.tar | ts-convert - -o - --to tns >x.tns
	assert_equal "$(tail -n +4 x.tns)" "$(tail -n +4 "$EL/example-element.tns")"
	run ts-convert - -o out <two.tar.gz
	assert_failure 2
	assert_output --partial "'<stdin>' holds more than one bundle: name one with --member"
	[ ! -e out ]
}

@test "ts-convert: DST NAME.tar.zst is the bundle NAME in an archive, laid out as ts-pack lays it out" {
	run -0 ts-convert "$EL" -o el.tar.zst --time 2026-12-01
	run -0 tar -tf el.tar.zst
	assert_output "el/
el/el_metadata.json
el/README.md
el/el.tns
el/el.tnsb
SHA256SUMS"
	run -0 ts-validate el.tar.zst
	sans_a1_note
	assert_output "el.tar.zst:el: valid (0 errors, 0 warnings)
el.tar.zst: valid (0 errors, 0 warnings)
1 bundle and 1 archive: 2 valid, 0 invalid"
	# Unpacked and packed again by ts-pack: the same bytes.
	ts-pack -x el.tar.zst
	ts-pack -o packed.tar.zst el
	cmp el.tar.zst packed.tar.zst
	# An existing archive is replaced only with -f; nothing is left.
	run ts-convert "$EL" -o el.tar.zst
	assert_failure 2
	run -0 ts-convert -f "$SHARE/example-block" -o el.tar.gz
	gzip -t el.tar.gz
	assert_equal "$(ls -A | sort)" "SHA256SUMS
el
el.tar.gz
el.tar.zst
packed.tar.zst"
}

@test "ts-convert: every zstd stream the tools write carries zstd's content checksum (XXH64), which finds a flipped byte" {
	local f
	awk 'BEGIN { srand(5); for (i = 0; i < 100000; i++)
	    printf "%d %d %.6f\n", 1 + int(rand() * 1000),
	    1 + int(rand() * 1000), rand() }' >rows.in
	ts-convert -q --dims 1000,1000 rows.in -o big
	cut -d' ' -f1,2 rows.in >pat.in
	ts-convert -q --no-values --dims 1000,1000 pat.in -o pat
	ts-convert -q big c.tar.zst
	ts-convert -q big c.tns.zst
	ts-convert -q big c.tnsb.zst
	ts-sort -q -k 2,1 big -o s.tar.zst
	ts-sort -q -k 2,1 big -o s.tns.zst
	ts-gen-values -q --seed 1 pat -o g.tar.zst
	ts-gen-values -q --seed 1 pat -o g.tns.zst
	for f in c.tar.zst c.tns.zst c.tnsb.zst s.tar.zst s.tns.zst \
	    g.tar.zst g.tns.zst; do
		zstd -lv "$f" | grep -q 'Check: XXH64' ||
		    { echo "# $f: $(zstd -lv "$f" 2>&1)" >&3; return 1; }
		# One byte in the middle of the compressed data, inverted.
		cp "$f" bad.zst
		printf '\377' | dd of=bad.zst bs=1 seek=$(( $(stat -c %s "$f") / 2 )) \
		    conv=notrunc status=none
		cmp -s "$f" bad.zst && { echo "# $f: byte was 0xff" >&3; return 1; }
		run zstd -t -q bad.zst
		assert_failure
	done
}

@test "ts-convert: every DST archive of the tools ends with SHA256SUMS, which sha256sum -c checks once GNU tar unpacked it" {
	local a f
	rows pat.in '1 1' '2 3' '4 2'
	ts-convert -q --no-values --dims 4,3 pat.in -o pat
	for a in tar.zst tar.gz tar.xz tar; do
		ts-convert -q "$EL" "c.$a"
		ts-sort -q -k 3,2,1 "$EL" -o "s.$a"
		ts-gen-values -q --seed 1 pat -o "g.$a"
	done
	for f in c.* s.* g.*; do
		[ "$(tar -tf "$f" | tail -1)" = SHA256SUMS ] ||
		    { echo "# $f: $(tar -tf "$f")" >&3; return 1; }
		rm -rf x && mkdir x
		case $f in
		*.zst) tar --zstd -xf "$f" -C x ;;
		*.gz) tar -z -xf "$f" -C x ;;
		*.xz) tar -J -xf "$f" -C x ;;
		*) tar -xf "$f" -C x ;;
		esac
		(cd x && sha256sum --strict -c SHA256SUMS >/dev/null)
		(cd x && find . -type f ! -path ./SHA256SUMS | sed 's|^\./||' |
		    LC_ALL=C sort | xargs sha256sum) | diff -u - x/SHA256SUMS
	done
}

@test "ts-convert: a DST that is a symbolic link is written through, the link kept: a bundle, a file, an archive, a dangling link" {
	mkdir store
	ts-convert -q "$EL" -o store/t
	ln -s store/t t
	run ts-convert -q -f --index-base 0 "$EL" -o t
	assert_success
	[ -L t ]
	[ "$(readlink t)" = store/t ]
	run jq .index_base store/t/t_metadata.json
	assert_output 0
	run ts-validate store/t
	assert_success
	# A file, an archive, and links to nothing yet.
	ts-convert -q "$EL" store/x.tns
	cp store/x.tns x0
	ln -s store/x.tns x.tns
	ts-convert -q -f --index-base 0 "$EL" x.tns
	[ -L x.tns ]
	! cmp -s store/x.tns x0
	rm x0
	ln -s store/a.tar.zst a.tar.zst
	ln -s store/n n
	ts-convert -q "$EL" a.tar.zst
	ts-convert -q "$EL" -o n
	[ -L a.tar.zst ]
	[ -L n ]
	run ts-validate store/a.tar.zst store/n
	assert_success
	[ "$(ls -A store | tr '\n' ' ')" = "a.tar.zst n t x.tns " ]
}

@test "ts-convert: a coordinate past its dimension is found in every mode of orders 2 to 5, at the first, last and a batch's border entries" {
	local ord k r dims line
	for ord in 2 3 4 5; do
		dims=$(seq 11 $((10 + ord)) | paste -sd, -)
		awk -v o="$ord" 'BEGIN { for (i = 1; i <= 20000; i++) {
		    for (m = 1; m <= o; m++) printf "%d ", 1 + (i * m) % (10 + m)
		    print "0.5" } }' >rows
		ts-convert -q --dims "$dims" --text rows -o "b$ord"
		for k in $(seq 1 "$ord"); do
			for r in 1 8192 8193 20000; do
				line=$((r + 4))
				rm -rf c; mkdir c; cp -r "b$ord" c/
				awk -v n="$line" -v k="$k" 'NR == n { $k = 11 + k } { print }' \
				    "b$ord/b$ord.tns" >"c/b$ord/b$ord.tns"
				run --separate-stderr ts-convert "c/b$ord" --binary -o out
				assert_failure 1
				[[ $stderr == *"b$ord.tns:$line:"*"error: coordinate $((11 + k)) exceeds dimension $((10 + k)) of mode $k [S1]"* ]] ||
				    { echo "order $ord, mode $k, row $r: $stderr"; false; }
				[ ! -e out ]
			done
		done
	done
}
