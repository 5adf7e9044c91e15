#!/usr/bin/env bats
# ts-validate(1): the command-line interface, and cases for every rule of
# the format (the ids of SPEC.md / tensorsuite(5): B, M, H, E, K, X, S).
#
# Each broken bundle is a copy of a valid one with one thing changed, made
# in $BATS_TEST_TMPDIR; the tests run from there, so that paths in the
# messages read "t/t.tns".  The valid starting points are made once per
# file (setup_file) with mkbundle from the shipped examples:
#
#   text   example-element without its binary file (order 3, 4 x 3 x 2,
#          1-based, float64, sorted, no duplicates, no zeros, 6 entries)
#   elem   example-element (text + little-endian binary, uint64/float64)
#   block  example-block (6 x 4 in 3 x 2 sections, 0-based, text only)
#   bin    example-binary (binary only, big-endian uint32 / int32, 5 x 4)
#
# Binary files are written and patched with perl's pack (perl-base), which
# starts much faster than python here.

bats_require_minimum_version 1.5.0

setup_file() {
	load test_helper
	export BASE="$BATS_FILE_TMPDIR/base"
	local k
	for k in text elem block bin; do
		mkdir -p "$BASE/$k"
	done
	BATS_TEST_TMPDIR=$BASE/elem mkbundle "$SHARE/example-element" t >/dev/null
	BATS_TEST_TMPDIR=$BASE/text mkbundle "$SHARE/example-element" t >/dev/null
	BATS_TEST_TMPDIR=$BASE/block mkbundle "$SHARE/example-block" t >/dev/null
	BATS_TEST_TMPDIR=$BASE/bin mkbundle "$SHARE/example-binary" t >/dev/null
	rm "$BASE/text/t/t.tnsb"
	jqmeta "$BASE/text/t" '.endianness = "none" | del(.files.binary)'
}

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# use KIND [NAME]: a valid bundle KIND (text, elem, block, bin, as
# above) in the current directory as bundle t (replacing the t there), or
# as bundle NAME.
use() {
	local src
	if [ $# -eq 1 ]; then
		if [ -e t ]; then rm -rf t; fi
		cp -r "$BASE/$1/t" .
		return
	fi
	case $1 in
	text | elem) src=example-element ;;
	block) src=example-block ;;
	bin) src=example-binary ;;
	esac
	mkbundle "$SHARE/$src" "$2" >/dev/null
	if [ "$1" = text ]; then
		rm "$2/$2.tnsb"
		jqmeta "$2" '.endianness = "none" | del(.files.binary)'
	fi
}

# jqmeta BUNDLE FILTER: apply a jq filter to the bundle's metadata (like
# setmeta, in one process).
jqmeta() {
	local m="$1/${1##*/}_metadata.json" j
	j=$(jq --indent 2 "$2" "$m") && printf '%s\n' "$j" >"$m"
}

# tns BUNDLE SIZE-LINE [LINE...]: rewrite the bundle's text file: the three
# header lines, then the given lines.
tns() {
	local b=$1 n=${1##*/}
	shift
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n' "$n"
		printf '%s\n' "$@"
	} >"$b/$n.tns"
}

# tnsb BUNDLE TEMPLATE SIZE-LINES [ROW...]: rewrite the bundle's binary
# file; each ROW is packed with the perl pack TEMPLATE (e.g. 'N N l>':
# big-endian uint32, uint32, int32).
tnsb() {
	local b=$1 t=$2 n=${1##*/}
	shift 2
	perl -e 'my ($n, $t, $size, @rows) = @ARGV; binmode STDOUT;
	    print "%%TensorSuite-TNSB\n% version: 0.1\n% name: $n\n$size\n";
	    print pack($t, split(" ", $_)) for @rows;' "$n" "$t" "$@" \
	    >"$b/$n.tnsb"
}

# poke FILE OFFSET TEMPLATE VALUE: overwrite bytes of a binary file.
poke() {
	perl -e 'my ($f, $o, $t, $v) = @ARGV;
	    open(my $h, "+<", $f) or die "$f: $!"; binmode $h;
	    seek($h, $o, 0); print $h pack($t, $v); close($h) or die;' "$@"
}

# matrix ROWS COLS NNZ: bundle t, a text-only order-2 variant of the text
# bundle (the caller writes the rows with tns).
matrix() {
	use text
	jqmeta t ".order = 2 | .dimensions = [$1, $2] | .nnz = $3 |
	    .sort_order = [1, 2]"
}

# cube N NNZ: bundle t, a text-only N x N x N variant of the text bundle.
cube() {
	use text
	jqmeta t ".dimensions = [$1, $1, $1] | .nnz = $2"
}

# =====================================================================
# Command line
# =====================================================================

@test "ts-validate: -h, --help, -V and --version print to stdout and exit 0" {
	for o in -h --help; do
		run --separate-stderr ts-validate "$o"
		assert_success
		assert_line --index 0 --partial "usage: ts-validate"
		assert_output --partial "--quick"
		assert_output --partial "Exit status: 0 valid, 1 invalid, 2 usage error, 3 I/O error."
		assert_equal "$stderr" ""
	done

	run --separate-stderr ts-validate -V
	assert_success
	assert_output "ts-validate (TensorSuite) 0.1.0"
	run ts-validate --version
	assert_success
	assert_output "ts-validate (TensorSuite) 0.1.0"
}

@test "ts-validate: usage errors exit 2: an unknown option, no PATH, a bad -m, -j or --format" {
	run --separate-stderr ts-validate --no-such-option "$SHARE/example-element"
	assert_failure 2
	assert_output ""
	[[ $stderr == *"usage: ts-validate"* ]]

	run --separate-stderr ts-validate
	assert_failure 2
	assert_output ""
	[[ $stderr == *"no bundle given"* ]]

	run ts-validate -j 0 "$SHARE/example-element"
	assert_failure 2
	assert_output --partial "-j: '0' is not a count of jobs"
	run ts-validate --format xml "$SHARE/example-element"
	assert_failure 2

	run ts-validate -m x "$SHARE/example-element"
	assert_failure 2
	assert_output --partial "is not a count"
	run ts-validate -m -1 "$SHARE/example-element"
	assert_failure 2
}

@test "ts-validate: '-' twice, as PATH or --meta, is a usage error (2), before anything is read" {
	use text
	# What is left of standard input shows that none of it was read.
	{ ts-validate --meta t/t_metadata.json - - 2>err && echo rc=0 || echo "rc=$?"; cat; } <t/t.tns >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat t/t.tns)"
	grep -q "^ts-validate: '-' (standard input) is given twice; it can be read only once$" err
	{ ts-validate --meta - - 2>err && echo rc=0 || echo "rc=$?"; cat; } <t/t_metadata.json >out
	assert_equal "$(head -n 1 out)" "rc=2"
	assert_equal "$(tail -n +2 out)" "$(cat t/t_metadata.json)"
	run ts-validate t - t -
	assert_failure 2
	# Once is fine, for the metadata or the data.
	run ts-validate --meta - t/t.tns <t/t_metadata.json
	assert_success
	run ts-validate --meta t/t_metadata.json - <t/t.tns
	assert_success
}

@test "ts-validate: the summary line goes to stdout, diagnostics to stderr" {
	use text
	run --separate-stderr ts-validate t
	assert_success
	assert_output "t: valid (0 errors, 0 warnings)"
	assert_equal "$stderr" ""
	sed -i '6s/^1 3 2/1 5 2/' t/t.tns
	run --separate-stderr ts-validate t
	assert_failure 1
	assert_output "t: invalid (1 error, 0 warnings)"
	[[ $stderr == *"[S1]"* ]]
	[[ $stderr != *"invalid ("* ]]
}

@test "ts-validate: -q and --quiet print nothing; the status tells" {
	use text
	setmeta t order 65
	run ts-validate -q t
	assert_failure 1
	assert_output ""
	run ts-validate --quiet "$SHARE/example-block"
	assert_success
	assert_output ""
}

@test "ts-validate: a progress line only with TS_PROGRESS=always here (not a terminal), cleared before the report" {
	run --separate-stderr ts-validate "$SHARE/example-element"
	assert_success
	[ -z "$stderr" ]
	TS_PROGRESS=always ts-validate "$SHARE/example-element" >out 2>err
	grep -q '^ts-validate: checking ' err
	[ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ]
	ts-validate "$SHARE/example-element" | cmp - out
	TS_PROGRESS=always ts-validate -q "$SHARE/example-element" 2>err
	[ ! -s err ]
}

@test "ts-validate: --json prints one parseable report per PATH" {
	use text
	sed -i '6s/^1 3 2/1 5 2/' t/t.tns
	run --separate-stderr ts-validate --json "$SHARE/example-element" t
	assert_failure 1
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 2
	echo "${lines[0]}" | jq -e '.valid == true and .errors == 0 and
	    .name == "example-element" and .diagnostics == [] and
	    .quick == false'
	echo "${lines[1]}" | jq -e '.path == "t" and .valid == false and
	    .errors == 1 and .warnings == 0 and .notes == 0 and
	    .suppressed == 0'
	echo "${lines[1]}" | jq -e '.diagnostics[0] | .rule == "S1" and
	    .severity == "error" and .file == "t/t.tns" and .column == 3 and
	    .offset == null and (.message | test("coordinate 5"))'
}

@test "ts-validate: --json gives a byte offset, not a line, in a binary file" {
	use bin
	poke t/t.tnsb 68 N 9
	run --separate-stderr ts-validate --json t
	assert_failure 1
	echo "$output" | jq -e '.diagnostics[0] | .rule == "S1" and
	    .offset == 68 and .line == null and .column == null and
	    .file == "t/t.tnsb"'
}

@test "ts-validate: --quick reads no entries (a bad coordinate passes) but checks headers (X4)" {
	use text
	sed -i '6s/^1 3 2/9 3 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "[S1]"
	run --separate-stderr ts-validate --quick --json t
	assert_success
	echo "$output" | jq -e '.valid == true and .quick == true'

	use text
	sed -i '4s/.*/3 4 3 3 6/' t/t.tns
	run ts-validate --quick t
	assert_failure 1
	assert_output --partial "the size line gives dimension 3 for mode 3; the metadata says 2 [X4]"
}

@test "ts-validate: --strict turns a warning-only bundle invalid" {
	use text
	setmeta t comment '"hand-made"'
	run ts-validate t
	assert_success
	assert_output --partial "warning: unknown key 'comment' [M1]"
	assert_output --partial "t: valid (0 errors, 1 warning)"
	run ts-validate --strict t
	assert_failure 1
	assert_output --partial "error: unknown key 'comment' [M1]"
	assert_output --partial "t: invalid (1 error, 0 warnings)"
	run ts-validate -s t
	assert_failure 1
}

@test "ts-validate: -m 1 shows one diagnostic per rule and a note with the rest" {
	use text
	setmeta t value_domain '"binary"'
	run ts-validate -m 1 t
	assert_failure 1
	[ "$(grep -c '\[S5\]$' <<<"$output")" -eq 1 ]
	assert_output --partial "t/t.tns: note: 5 more diagnostics [S5] not shown"
	assert_output --partial "t: invalid (6 errors, 0 warnings)"
	run ts-validate --json --max-per-rule=1 t
	echo "$output" | jq -e '.errors == 6 and .suppressed == 5 and
	    (.diagnostics | length) == 1'
	run ts-validate -m 0 t
	[ "$(grep -c '\[S5\]$' <<<"$output")" -eq 6 ]
	refute_output --partial "more diagnostics"
}

@test "ts-validate: several PATHs are each judged; the status is the worst" {
	use text bad
	sed -i '6s/^1 3 2/1 9 2/' bad/bad.tns
	run ts-validate bad "$SHARE/example-block"
	assert_failure 1
	assert_output --partial "bad: invalid (1 error, 0 warnings)"
	assert_output --partial "example-block: valid (0 errors, 0 warnings)"
	run ts-validate "$SHARE/example-block" bad no-such-bundle
	assert_failure 3
	assert_output --partial "bad: invalid"
	assert_output --partial "example-block: valid"
	assert_output --partial "no-such-bundle: not checked"
	assert_line "3 operands: 1 valid, 1 invalid, 1 not checked"
}

@test "ts-validate: a PATH that does not exist is an I/O error (status 3), not bad data" {
	# ts-validate(1), EXIT STATUS: a typo in a CI path is not reported
	# as an invalid bundle.
	run ts-validate no-such-bundle
	assert_failure 3
	assert_output --partial "no-such-bundle: No such file or directory"
	refute_output --partial "[B1]"
}

@test "ts-validate: a directory without NAME_metadata.json is not a bundle (B1)" {
	mkdir t
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t_metadata.json: error: no metadata file: a bundle 't' holds 't_metadata.json' [B1]"
}

@test "ts-validate: an unreadable data file is an I/O error (status 3)" {
	[ "$(id -u)" -ne 0 ] || skip "root can read a file with mode 000"
	use text
	chmod 000 t/t.tns
	run ts-validate t
	assert_failure 3
	assert_output --partial "t/t.tns"
}

@test "ts-validate: a directory named as the text file is not a regular file (B3)" {
	use text
	rm t/t.tns
	mkdir t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "[B3]"
	assert_output --partial "which is not a regular file"
}

@test "ts-validate: a write error on stdout gives status 3" {
	run bash -c 'ts-validate "$1" >/dev/full' _ "$SHARE/example-element"
	assert_failure 3
	assert_output --partial "write error"
}

@test "ts-validate: PATH may be the bundle's metadata file" {
	cp -r "$SHARE/example-element" .
	run ts-validate example-element/example-element_metadata.json
	assert_success
	assert_output "example-element/example-element_metadata.json: valid (0 errors, 0 warnings)"
	use text
	sed -i '6s/^1 3 2/1 9 2/' t/t.tns
	run ts-validate t/t_metadata.json
	assert_failure 1
	assert_output --partial "t/t.tns:"
	assert_output --partial "[S1]"
}

# =====================================================================
# Message format
# =====================================================================

@test "ts-validate: a text diagnostic is FILE:LINE:COLUMN: error: MESSAGE [RULE]" {
	use text
	sed -i '6s/^1 3 2/1 5 2/' t/t.tns	# line 6, column 3
	run --separate-stderr ts-validate t
	assert_failure 1
	assert_equal "$stderr" "t/t.tns:6:3: error: coordinate 5 exceeds dimension 3 of mode 2 [S1]"
}

@test "ts-validate: a binary diagnostic is FILE:+OFFSET: error: MESSAGE [RULE]" {
	use bin
	# header 19 + 15 + 10 + 8 = 52 bytes, records of 12: record 2 is at
	# 64, its mode-2 coordinate at 68
	poke t/t.tnsb 68 N 9
	run --separate-stderr ts-validate t
	assert_failure 1
	assert_equal "$stderr" "t/t.tnsb:+68: error: coordinate 9 exceeds dimension 4 of mode 2 [S1]"
}

@test "ts-validate: a metadata diagnostic has the JSON line and column; a whole-file one none" {
	use elem	# canonical metadata: "order" is on line 24
	sed -i 's/"order": 3,/"order": 65,/' t/t_metadata.json
	run --separate-stderr ts-validate t
	assert_failure 1
	assert_equal "$stderr" "t/t_metadata.json:24:3: error: 'order' is 65; it must be in 1..64 [M1]"

	use elem
	rm t/t.tnsb
	run --separate-stderr ts-validate t
	assert_failure 1
	assert_equal "$stderr" "t/t_metadata.json: error: 'files.binary' names 't.tnsb', which does not exist [B3]"
}

# =====================================================================
# Shipped examples and the reference bundles (tests/data/reference)
# =====================================================================

@test "ts-validate: the shipped examples are valid" {
	cd "$SHARE"
	run ts-validate example-element example-block example-binary
	assert_success
	assert_output "example-element: valid (0 errors, 0 warnings)
example-block: valid (0 errors, 0 warnings)
example-binary: valid (0 errors, 0 warnings)
3 bundles: 3 valid, 0 invalid"
}

@test "ts-validate: reference random_tiny (alphabetical keys, not canonical M2), demo_A and demo_B are valid" {
	cd "$DATA/reference"
	run --separate-stderr ts-validate random_tiny
	assert_success
	assert_output "random_tiny: valid (0 errors, 0 warnings)"
	assert_equal "$stderr" ""

	run --separate-stderr ts-validate demo_A demo_B
	assert_success
	assert_output "demo_A: valid (0 errors, 0 warnings)
demo_B: valid (0 errors, 0 warnings)
2 bundles: 2 valid, 0 invalid"
	assert_equal "$stderr" ""
}

@test "ts-validate: reference legacy/random_tiny names each of its six problems, and only those" {
	cd "$DATA/reference"
	run --separate-stderr ts-validate legacy/random_tiny
	assert_failure 1
	assert_output "legacy/random_tiny: invalid (6 errors, 0 warnings)"
	m=legacy/random_tiny/random_tiny_metadata.json
	[[ $stderr == *"$m:17:3: error: 'id' must be a string [M1]"* ]]
	for k in source_url dense_modes block_partitions nnz_block; do
		[[ $stderr == *"error: required key '$k' is missing [M1]"* ]]
	done
	[[ $stderr == *"$m:25:3: error: element 1 of 'sort_order' is 0; it must be in 1..64 [M9]"* ]]
	# and nothing about the data files, which are fine
	[[ $stderr != *"random_tiny.tns"* ]]
	[ "$(wc -l <<<"$stderr")" -eq 6 ]

	run --separate-stderr ts-validate --json legacy/random_tiny
	assert_failure 1
	echo "$output" | jq -e '[.diagnostics[].rule] | sort ==
	    ["M1", "M1", "M1", "M1", "M1", "M9"]'
	echo "$output" | jq -e '[.diagnostics[].file] | unique ==
	    ["legacy/random_tiny/random_tiny_metadata.json"]'
}

@test "ts-validate: M2 is for writers: compact metadata with sorted keys is valid" {
	use elem
	jq -S -c . t/t_metadata.json >t/x && mv t/x t/t_metadata.json
	run ts-validate t
	assert_success
	assert_output "t: valid (0 errors, 0 warnings)"
}

# =====================================================================
# B: the bundle
# =====================================================================

@test "ts-validate: B1 a bundle without README.md gets a warning" {
	use text
	rm t/README.md
	delmeta t files.readme
	run ts-validate t
	assert_success
	assert_output --partial "t/t_metadata.json: warning: the bundle has no README.md [B1]"
	run ts-validate --strict t
	assert_failure 1
}

@test "ts-validate: B2 the metadata name is the folder name" {
	use text
	setmeta t name '"u"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'name' is 'u' but the bundle is 't' [B2]"
	use text
	mv t v
	run ts-validate v/t_metadata.json
	assert_failure 1
	assert_output --partial "the metadata file is for 't' but the folder is 'v' [B2]"
}

@test "ts-validate: B2 a name is [A-Za-z0-9][A-Za-z0-9._-]*, at most 200 bytes" {
	use text
	setmeta t name '"-t"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'name' '-t' is not [A-Za-z0-9][A-Za-z0-9._-]* of at most 200 bytes [B2]"
	n=$(printf 'n%.0s' {1..200})
	use text "$n"
	run ts-validate "$n"
	assert_success
	use text "${n}n"
	run ts-validate "${n}n"
	assert_failure 1
	assert_output --partial "[B2]"
	use text A9._-z
	run ts-validate A9._-z
	assert_success
}

@test "ts-validate: B2 the data files are NAME.tns and NAME.tnsb" {
	use text
	mv t/t.tns t/other.tns
	setmeta t files.text '"other.tns"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'files.text' is 'other.tns'; the bundle's text file must be 't.tns' [B2]"
}

@test "ts-validate: B3 text or binary is named, inside the bundle" {
	use block
	delmeta t files.text
	run ts-validate t
	assert_failure 1
	assert_output --partial "'files' names neither a 'text' nor a 'binary' file [B3]"

	use block
	setmeta t files.text '"../t.tns"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'files.text' is '../t.tns'; it must name a file inside the bundle [B3]"
}

@test "ts-validate: B3 a data file present but not named is a warning" {
	use elem
	jqmeta t 'del(.files.binary) | .endianness = "none"'
	run ts-validate t
	assert_success
	assert_output --partial "warning: 't.tnsb' is in the bundle but 'files' does not name it [B3]"
	assert_output --partial "t: valid (0 errors, 1 warning)"
}

@test "ts-validate: B3 a file key that is null or \"\" means the file is absent" {
	use block
	setmeta t files.binary null
	run ts-validate t
	assert_success
	setmeta t files.binary '""'
	run ts-validate t
	assert_success
	assert_output "t: valid (0 errors, 0 warnings)"
}

@test "ts-validate: B3 auxiliary files (files.config) and the README must exist" {
	use block
	setmeta t files.config '"config.yaml"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'files.config' names 'config.yaml', which does not exist [B3]"
	echo "seed: 1" >t/config.yaml
	run ts-validate t
	assert_success
	rm t/README.md
	run ts-validate t
	assert_failure 1
	assert_output --partial "'files.readme' names 'README.md', which does not exist [B3]"
}

@test "ts-validate: B3 each key of files names a file of its own: never the metadata, and NAME.tns and NAME.tnsb only as text and binary" {
	use elem
	setmeta t files.readme '"t.tns"'
	run -1 ts-validate t
	assert_output --partial "t/t_metadata.json:"
	assert_output --partial "error: 'files.text' and 'files.readme' both name 't.tns': each names a file of its own [B3]"
	refute_output --partial "the name of the bundle's"
	use elem
	setmeta t files.readme '"t_metadata.json"'
	run -1 ts-validate t
	assert_output --partial "error: 'files.readme' names 't_metadata.json', the metadata file [B3]"
	use elem
	jqmeta t 'del(.files.binary) | .endianness = "none" | .files.config = "t.tnsb"'
	run -1 ts-validate t
	assert_output --partial "error: 'files.config' names 't.tnsb', the name of the bundle's binary file [B3]"
	use elem
	setmeta t files.notes '"README.md"'
	run -1 ts-validate t
	assert_output --partial "error: 'files.readme' and 'files.notes' both name 'README.md': each names a file of its own [B3]"
}

# =====================================================================
# M: the metadata
# =====================================================================

@test "ts-validate: M1 every key is required, with its JSON type" {
	use text
	delmeta t group
	run ts-validate t
	assert_failure 1
	assert_output --partial "required key 'group' is missing [M1]"

	use text
	setmeta t order '"3"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'order' must be an integer [M1]"
	use text
	setmeta t values_provided '"true"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'values_provided' must be a boolean [M1]"
	use elem
	sed -i 's/"index_base": 1,/"index_base": 1.0,/' t/t_metadata.json
	run ts-validate t
	assert_failure 1
	assert_output --partial "'index_base' must be an integer [M1]"
}

@test "ts-validate: M1 an enumerated key takes only its values" {
	use text
	setmeta t value_type '"float16"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'value_type' is 'float16'; allowed: 'float32', 'float64', 'int32', 'int64' [M1]"
	use text
	setmeta t source_type '"Synthetic"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'source_type' is 'Synthetic'; allowed: 'synthetic', 'real' [M1]"
	use text
	setmeta t index_base 2
	run ts-validate t
	assert_failure 1
	assert_output --partial "'index_base' is 2; it must be 0 or 1 [M1]"
}

@test "ts-validate: M1 id is exactly four ASCII digits" {
	use text
	for id in '"12a4"' '"123"' '"01234"'; do
		setmeta t id "$id"
		run ts-validate t
		assert_failure 1
		assert_output --partial "it must be exactly four digits [M1]"
	done
	setmeta t id '"0000"'
	run ts-validate t
	assert_success
}

@test "ts-validate: M1 time is a real calendar date (2025-02-29 is not)" {
	use text
	setmeta t time '"2025-02-29"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'time' is '2025-02-29'; it must be a real date YYYY-MM-DD [M1]"
	for d in '"2025-13-01"' '"2025-04-31"' '"2025-1-01"' '"1900-02-29"'; do
		setmeta t time "$d"
		run ts-validate t
		assert_failure 1
		assert_output --partial "[M1]"
	done
	for d in '"2024-02-29"' '"2000-02-29"'; do
		setmeta t time "$d"
		run ts-validate t
		assert_success
	done
}

@test "ts-validate: M1 source_url is empty or an absolute http(s) URL" {
	use text
	setmeta t source_url '"ftp://example.org/t.tns"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'source_url' is 'ftp://example.org/t.tns'; it must be empty or an absolute http(s) URL [M1]"
	for u in '"example.org/t"' '"http://"' '"https://exa mple.org/"'; do
		setmeta t source_url "$u"
		run ts-validate t
		assert_failure 1
		assert_output --partial "[M1]"
	done
	setmeta t source_url '"https://frostt.io/tensors/nell-2/"'
	run ts-validate t
	assert_success
}

@test "ts-validate: M1 order is 1..64 (65 and 0 are not) and version is 0.1" {
	use text
	setmeta t order 65
	run ts-validate t
	assert_failure 1
	assert_output --partial "'order' is 65; it must be in 1..64 [M1]"
	setmeta t order 0
	run ts-validate t
	assert_failure 1
	assert_output --partial "'order' is 0; it must be in 1..64 [M1]"
	use text
	setmeta t version '"0.2"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'version' is '0.2'; this toolkit reads '0.1' [M1]"
}

@test "ts-validate: M1 the metadata is one JSON object in UTF-8, without duplicate keys" {
	use elem
	sed -i 's/"group": "examples",/"group": "examples", "group": "more",/' t/t_metadata.json
	run ts-validate t
	assert_failure 1
	assert_output --partial "duplicate object key"
	assert_output --partial "[M1]"
	use elem
	echo '[1, 2]' >t/t_metadata.json
	run ts-validate t
	assert_failure 1
	assert_output --partial "the metadata must be one JSON object [M1]"
	use elem
	sed -i 's/"examples"/"ex\xe9mples"/' t/t_metadata.json
	run ts-validate t
	assert_failure 1
	assert_output --partial "[M1]"
	use elem
	sed -i 's/"order": 3,/"order": 3/' t/t_metadata.json
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t_metadata.json:25:"
	assert_output --partial "[M1]"
}

@test "ts-validate: M1 an unknown key is a warning" {
	use block
	setmeta t license '"CC0"'
	run ts-validate t
	assert_success
	assert_output --partial "warning: unknown key 'license' [M1]"
}

@test "ts-validate: M1 dimensions are order positive integers; nnz is 0..their product" {
	use text
	setmeta t dimensions '[4, 0, 2]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "element 2 of 'dimensions' is 0"
	setmeta t dimensions '[4, 3]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'dimensions' has 2 elements; 'order' is 3 [M1]"
	use text
	setmeta t nnz 25
	run ts-validate t
	assert_failure 1
	assert_output --partial "'nnz' is 25, more than the 24 positions of the tensor ('duplicates' is 'disallowed') [M1]"
	# With duplicates allowed, repeats may outnumber the positions: the
	# metadata is fine, the data file then disagrees with it (X4, X7).
	setmeta t duplicates '"allowed"'
	run ts-validate t
	assert_failure 1
	refute_output --partial "[M1]"
	setmeta t duplicates '"disallowed"'
	setmeta t nnz -1
	run ts-validate t
	assert_failure 1
	assert_output --partial "'nnz' is -1; it must not be negative [M1]"

	use text
	setmeta t nnz 0
	tns t "3 4 3 2 0"
	run ts-validate t
	assert_success
}

@test "ts-validate: M3 endianness is none exactly when there is no binary file" {
	use elem
	setmeta t endianness '"none"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'endianness' is 'none' but 'files' names a binary file [M3]"
	use block
	setmeta t endianness '"little"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'endianness' is 'little' but the bundle has no binary file [M3]"
}

@test "ts-validate: M4 uint32 cannot hold a 1-based coordinate 2^32" {
	use bin
	setmeta t dimensions '[4294967296, 4]'
	tnsb t 'N N l>' "2 4294967296 4 4" "1 2 7" "2 1 7" "3 3 -4" "5 4 12"
	run ts-validate t
	assert_failure 1
	assert_output --partial "'index_type' uint32 cannot hold coordinate 4294967296 of mode 1 [M4]"
}

@test "ts-validate: M4 uint32 at the edge: coordinate 2^32-1 is valid" {
	use bin
	setmeta t dimensions '[4294967295, 4]'
	tnsb t 'N N l>' "2 4294967295 4 4" "1 2 7" "2 1 7" "3 3 -4" "4294967295 4 12"
	run ts-validate t
	assert_success
	# 0-based, dimension 2^32: the largest coordinate is 2^32-1 too
	use bin
	jqmeta t '.dimensions = [4294967296, 4] | .index_base = 0'
	tnsb t 'N N l>' "2 4294967296 4 4" "0 1 7" "2 0 7" "3 3 -4" "4294967295 3 12"
	run ts-validate t
	assert_success
}

@test "ts-validate: M5 numerical may not be stronger than pattern; full needs equal dimensions, partial two" {
	cube 2 4
	setmeta t numerical_symmetry '"full"'
	tns t "3 2 2 2 4" "1 1 2 1" "1 2 1 1" "2 1 1 1" "2 2 2 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "'numerical_symmetry' 'full' is stronger than 'pattern_symmetry' 'no' [M5]"

	use text
	setmeta t pattern_symmetry '"full"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'pattern_symmetry' is 'full' but the dimensions are not all equal [M5]"
	use bin
	setmeta t pattern_symmetry '"partial"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'pattern_symmetry' is 'partial' but no two dimensions are equal [M5]"
}

@test "ts-validate: M6 dense_modes: [] for element and block, every mode for 'no', a proper ascending subset for 'semi'" {
	use text
	setmeta t dense_modes '[1]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'dense_modes' must be [] when 'sparsity_type' is 'element' [M6]"
	use block
	setmeta t dense_modes '[1, 2]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'dense_modes' must be [] when 'sparsity_type' is 'block' [M6]"

	matrix 2 2 4
	jqmeta t '.sparsity_type = "no" | .dense_modes = [1]'
	tns t "2 2 2 4" "1 1 1" "1 2 2" "2 1 3" "2 2 4"
	run ts-validate t
	assert_failure 1
	assert_output --partial "'dense_modes' must list every mode 1..2 when 'sparsity_type' is 'no' [M6]"
	use text
	for dm in '[]' '[1, 2, 3]' '[3, 1]'; do
		jqmeta t ".sparsity_type = \"semi\" | .dense_modes = $dm"
		run ts-validate t
		assert_failure 1
		assert_output --partial "'dense_modes' must be a non-empty proper subset of 1..3 in ascending order when 'sparsity_type' is 'semi' [M6]"
	done
	jqmeta t '.dense_modes = [4]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'dense_modes' names mode 4; 'order' is 3 [M6]"
}

@test "ts-validate: M7 block_partitions and nnz_block: null unless block, 1..d_i sections, nnz_block <= blocks" {
	use text
	setmeta t block_partitions '[1, 1, 1]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'block_partitions' and 'nnz_block' must be null when 'sparsity_type' is 'element' [M7]"
	use text
	setmeta t nnz_block 0
	run ts-validate t
	assert_failure 1
	assert_output --partial "[M7]"
	use block
	setmeta t nnz_block null
	run ts-validate t
	assert_failure 1
	assert_output --partial "'block_partitions' and 'nnz_block' must not be null when 'sparsity_type' is 'block' [M7]"

	use block
	setmeta t block_partitions '[7, 2]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "mode 1 has 7 sections, more than its dimension 6 [M7]"
	setmeta t block_partitions '[0, 2]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "[M7]"
	setmeta t block_partitions '[3, 2, 1]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'block_partitions' has 3 elements; 'order' is 2 [M7]"
	use block
	setmeta t nnz_block 7
	run ts-validate t
	assert_failure 1
	assert_output --partial "'nnz_block' is 7, more than the 6 blocks of the grid [M7]"
}

@test "ts-validate: M8 binary values are 0 or 1 whatever the value type, only 1 without explicit zeros" {
	use bin
	jqmeta t '.value_domain = "binary" | .explicit_zeros = "allowed"'
	tnsb t 'N N l>' "2 5 4 4" "1 2 1" "2 1 0" "3 3 1" "5 4 1"
	run ts-validate t
	assert_success
	poke t/t.tnsb 96 'l>' 2	# the value of record 4
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:+96: error: value 2 is not 0 or 1 [S5]"
	use bin
	jqmeta t '.value_domain = "binary" | .value_type = "float32" |
	    .endianness = "little"'
	tnsb t 'L< L< f<' "2 5 4 4" "1 2 1" "2 1 1" "3 3 1" "5 4 1"
	run ts-validate t
	assert_success

	use bin
	setmeta t value_domain '"binary"'
	tnsb t 'N N l>' "2 5 4 4" "1 2 1" "2 1 1" "3 3 1" "5 4 1"
	run ts-validate t
	assert_success
	poke t/t.tnsb 72 'l>' 0	# the value of record 2
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:+72: error: explicit zero at (2, 1); 'explicit_zeros' is 'disallowed' [S4]"
}

@test "ts-validate: M9 sort_order is a 1-based permutation of 1..order, or [] when sorted is none" {
	use text
	setmeta t sort_order '[0, 1, 2]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "element 1 of 'sort_order' is 0; it must be in 1..64 [M9]"
	for so in '[1, 2]' '[1, 1, 2]' '[1, 2, 4]'; do
		setmeta t sort_order "$so"
		run ts-validate t
		assert_failure 1
		assert_output --partial "'sort_order' must be a permutation of 1..3 when 'sorted' is 'lexicographic' [M9]"
	done

	use text
	setmeta t sorted '"none"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "'sort_order' must be [] when 'sorted' is 'none' [M9]"
	setmeta t sort_order '[]'
	run ts-validate t
	assert_success
}

# =====================================================================
# H: data-file headers
# =====================================================================

@test "ts-validate: H1 line 1 is the magic line (an empty file has none)" {
	use text
	: >t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:1: error: empty file; expected '%%TensorSuite-TNS' [H1]"
	use text
	sed -i '1s/.*/%%TensorSuite-TNX/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:1:1: error: not a TensorSuite text file: line 1 is '%%TensorSuite-TNX', not '%%TensorSuite-TNS' [H1]"
	use bin
	printf 'GARBAGE\n' >t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "not a TensorSuite binary file"
	assert_output --partial "[H1]"
}

@test "ts-validate: H1 CRLF line ends are accepted with a warning" {
	use text
	sed -i 's/$/\r/' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "line ends in \\r\\n"
	assert_output --partial "t: valid (0 errors, 1 warning)"
}

@test "ts-validate: H1 a CRLF on a later header line is warned about too" {
	use text
	sed -i '2,4s/$/\r/' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "line ends in \\r\\n"
	run ts-validate --strict t
	assert_failure 1
}

@test "ts-validate: H2 the version and name lines" {
	use text
	sed -i '2s/.*/% versio: 0.1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:2:1: error: expected '% version: ...' on line 2 [H2]"
	use text
	sed -i '3d' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "expected '% name: ...' on line 3 [H2]"
}

@test "ts-validate: H2 an extra % line before the size line is a warning" {
	use text
	sed -i '3a % written by hand' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "t/t.tns:4:1: warning: extra header line skipped (the reference reader rejects it) [H2]"
}

@test "ts-validate: H3 the size line is 'order d1 ... dN nnz' in unsigned integers, any blanks between" {
	use text
	sed -i '4s/.*/3  4\t3 \t2   6/' t/t.tns
	run ts-validate t
	assert_success

	use text
	sed -i '4s/.*/3 4 x 2 6/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:4:5: error: expected an unsigned integer in the size line [H3]"
	sed -i '4s/.*/3 4 3 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the size line must be 'order d1 ... dN nnz' with order in 1..64 [H3]"
	sed -i '4s/.*/0 6/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "[H3]"
	sed -i '4s/.*/3 4 0 2 6/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "dimension 2 is 0 [H3]"
	sed -i '4,$d' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "file ends before the size line [H3]"
}

@test "ts-validate: H4 the block size line and the partition lines" {
	use block
	sed -i '5s/.*/3 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:5:1: error: expected the block size line 'g1 ... g2 nnz_block' [H4]"
	sed -i '5s/.*/7 2 3/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "mode 1 has 7 sections; it must be in 1..6 [H4]"

	use block
	sed -i '6s/.*/4 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "partition line 1 has 2 extents; the block size line says 3 [H4]"
	use block
	sed -i '7s/.*/0 4/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "section 1 of mode 2 has extent 0 [H4]"
}

@test "ts-validate: H5 nothing but the header precedes the entries" {
	use text
	sed -i '4a % a header line after the size line' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "[H5]"
}

# =====================================================================
# E: element entries
# =====================================================================

@test "ts-validate: E1 a row has N unsigned integer coordinates and a value" {
	use text
	sed -i '6s/.*/1 3 2 -1.25 7/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "row has 5 fields; expected 4 [E1]"
	use text
	setmeta t values_provided false
	sed -i '5,$s/ [^ ]*$//;6s/.*/1 3/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "row has 2 coordinates; the tensor has order 3 [E1]"

	use text
	sed -i '6s/.*/1 3 2.0 -1.25/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate '2.0' is not an unsigned integer [E1]"
	sed -i '6s/.*/1 x 2 -1.25/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate 'x' is not an unsigned integer [E1]"
}

@test "ts-validate: E1 blank and # comment lines between rows are warnings" {
	use text
	sed -i '6a # a comment' t/t.tns
	sed -i '7a\\' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "warning: comment line between entries [E1]"
	assert_output --partial "warning: blank line between entries [E1]"
	assert_output --partial "t: valid (0 errors, 2 warnings)"
	run ts-validate --strict t
	assert_failure 1
}

@test "ts-validate: E1 runs of blanks, CRLF rows (a warning) and a last row without newline are read" {
	use text
	sed -i '5s/.*/  1\t1   1 \t2.5  /' t/t.tns
	truncate -s -1 t/t.tns
	run ts-validate t
	assert_success
	assert_output "t: valid (0 errors, 0 warnings)"

	use text
	sed -i '5,$s/$/\r/' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "line ends in \\r\\n"
	assert_output --partial "[E1]"
}

@test "ts-validate: E2 decimal and scientific literals are values; non-finite ones a warning" {
	use text
	tns t "3 4 3 2 6" "1 1 1 +2.5" "1 3 2 -.25" "2 2 1 1E-300" \
	    "3 1 2 0.1e0" "4 2 2 3." "4 3 1 10000000000000000"
	run ts-validate t
	assert_success

	use text
	sed -i '6s/-1.25/-INF/;7s/1e-300/NaN/;8s/0.1/inf/' t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "warning: value -inf is not finite (the reference writer refuses it) [E2]"
	assert_output --partial "value nan is not finite"
	assert_output --partial "t: valid (0 errors, 3 warnings)"
}

@test "ts-validate: E2 a value that is not a number" {
	use text
	sed -i '6s/-1.25/abc/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "value 'abc' is not a number [E2]"
}

@test "ts-validate: E3 a binary file without values is valid, with a note" {
	use bin
	setmeta t values_provided false
	tnsb t 'N N' "2 5 4 4" "1 2" "2 1" "3 3" "5 4"
	run ts-validate t
	assert_success
	assert_output --partial "t/t.tnsb: note: a binary file without values is read by this toolkit only; the reference reader expects a value field [E3]"
	assert_output --partial "t: valid (0 errors, 0 warnings)"
	run ts-validate --json t
	echo "$output" | jq -e '.notes == 1 and .diagnostics[0].rule == "E3"'
}

@test "ts-validate: E4 coordinates lie in [index_base, dimension - 1 + index_base]" {
	use text
	sed -i '6s/^1 3 2/1 3 0/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate 0 of mode 3 is below the index base 1 [S1]"
	use text
	setmeta t index_base 0
	tns t "3 4 3 2 6" "0 0 0 2.5" "0 2 1 -1.25" "1 1 0 1e-300" \
	    "2 0 1 0.1" "3 1 1 3" "3 2 0 1e+16"
	run ts-validate t
	assert_success
	sed -i '10s/^3 2 0/4 2 0/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "error: coordinate 4"
	assert_output --partial "[S1]"
}

@test "ts-validate: E4 an out-of-range message does not misstate the dimension (0-based)" {
	use text
	setmeta t index_base 0
	tns t "3 4 3 2 6" "0 0 0 2.5" "0 2 1 -1.25" "1 1 0 1e-300" \
	    "2 0 1 0.1" "3 1 1 3" "4 2 0 1e+16"
	run ts-validate t
	assert_failure 1
	assert_output --partial "[S1]"
	# mode 1 has dimension 4 (coordinates 0..3), not 3
	refute_output --partial "dimension 3 of mode 1"
	assert_output --partial "coordinate 4 exceeds 3, the largest 0-based index of mode 1 (dimension 4) [S1]"
}

# =====================================================================
# K: block entries
# =====================================================================

@test "ts-validate: K1 block files store no values" {
	use block
	setmeta t values_provided true
	run ts-validate t
	assert_failure 1
	assert_output --partial "block files store no values; 'values_provided' must be false [K1]"
}

@test "ts-validate: K2 a block coordinate lies in the block grid" {
	use block
	sed -i '10s/.*/2 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:10:3: error: block coordinate 2 is outside the 2 sections of mode 2 [S1]"
}

@test "ts-validate: K3 nnz counts every element of the non-zero blocks" {
	use block
	setmeta t nnz 13
	sed -i '4s/.*/2 6 4 13/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the non-zero blocks hold 12 elements; 'nnz' is 13 [K3]"
	# uneven sections 1+2+3 by 3+1: blocks (0,0) 3, (1,1) 2, (2,0) 9
	setmeta t nnz 14
	tns t "2 6 4 14" "3 2 3" "1 2 3" "3 1" "0 0" "1 1" "2 0"
	run ts-validate t
	assert_success
}

@test "ts-validate: K3, X5 sums beyond 64 bits name the bound, 2^64 - 1" {
	use block
	# One block of 2^32 x 2^32 elements, and two.
	jqmeta t '.dimensions = [8589934592, 8589934592] | .nnz = 1 |
	    .block_partitions = [2, 2] | .nnz_block = 1'
	tns t "2 8589934592 8589934592 1" "2 2 1" "4294967296 4294967296" \
	    "4294967296 4294967296" "1 1"
	run ts-validate t
	assert_failure 1
	assert_line "t/t.tns: error: the non-zero blocks hold more than 18446744073709551615 (2^64 - 1) elements; 'nnz' is 1 [K3]"
	setmeta t nnz_block 2
	tns t "2 8589934592 8589934592 1" "2 2 2" "4294967296 4294967296" \
	    "4294967296 4294967296" "0 0" "1 1"
	run ts-validate t
	assert_failure 1
	assert_line "t/t.tns: error: the non-zero blocks hold more than 18446744073709551615 (2^64 - 1) elements; 'nnz' is 1 [K3]"
	# Partition extents whose sum wraps around.
	use block
	tns t "2 6 4 12" "3 2 3" "18446744073709551615 1 6" "2 2" "0 0" "1 1" "2 0"
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:6: error: the extents of mode 1 sum to more than 18446744073709551615 (2^64 - 1), not to its dimension 6 [X5]"
}

@test "ts-validate: a block bundle with a binary file is valid" {
	use block
	jqmeta t '.endianness = "little" | .files.binary = "t.tnsb"'
	tnsb t 'Q< Q<' $'2 6 4 12\n3 2 3\n2 2 2\n2 2' "0 0" "1 1" "2 0"
	run ts-validate t
	assert_success
	assert_output --partial "t: valid (0 errors, 0 warnings)"
	# header 19 + 15 + 10 + 9 + 6 + 6 + 4 = 69, records of 16
	poke t/t.tnsb 109 'Q<' 1	# the last block, (2, 0) -> (2, 1)
	run ts-validate t
	assert_failure 1
	assert_output --partial "[X6]"
}

# =====================================================================
# X: metadata against data files
# =====================================================================

@test "ts-validate: X1 each data file is of its kind" {
	use elem
	cp t/t.tns t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:1:1: error: this is a text data file but is used as the binary file [X1]"
	use elem
	cp t/t.tnsb t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "this is a binary data file but is used as the text file [X1]"
}

@test "ts-validate: B2 the '% name' of a lone data file follows the rule of the metadata's name" {
	local n
	for n in "" "../../etc" "a b" ".x" "-x" "$(printf 'a%.0s' {1..201})"; do
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n2 2 2 1\n1 1 1.5\n' "$n" >n.tns
		run ts-validate n.tns
		assert_failure 1
		assert_line "n.tns:3:9: error: '% name' '$n' is not [A-Za-z0-9][A-Za-z0-9._-]* of at most 200 bytes [B2]"
		run ts-validate --quick - <n.tns
		assert_failure 1
		assert_output --partial "[B2]"
	done
	for n in a a.b-c_9 "$(printf 'a%.0s' {1..200})"; do
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: %s\n2 2 2 1\n1 1 1.5\n' "$n" >n.tns
		run ts-validate n.tns
		assert_success
	done
	# With metadata, X3 holds it to the metadata's name.
	use text
	sed -i '3s/.*/% name: ..\/x/' t/t.tns
	run ts-validate --meta t/t_metadata.json t/t.tns
	assert_failure 1
	assert_output --partial "t/t.tns:3:9: error: '% name' is '../x'; the metadata says 't' [X3]"
}

@test "ts-validate: X2 and X3 '% version' and '% name' equal version and name" {
	use text
	sed -i '2s/.*/% version: 0.2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:2:12: error: '% version' is '0.2'; the metadata says '0.1' [X2]"

	use bin
	sed -i '3s/^% name: t$/% name: u/' t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:3:9: error: '% name' is 'u'; the metadata says 't' [X3]"
}

@test "ts-validate: X4 the size line equals order, dimensions and nnz" {
	use text
	sed -i '4s/.*/2 4 3 6/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the size line gives order 2; the metadata says 3 [X4]"
	sed -i '4s/.*/3 4 3 2 7/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the size line gives nnz 7; the metadata says 6 [X4]"
	use bin
	sed -i '4s/^2 5 4 4$/2 6 4 4/' t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "the size line gives dimension 6 for mode 1; the metadata says 5 [X4]"
}

@test "ts-validate: X5 the block size line equals the metadata; partition lines sum to the dimensions" {
	use block
	sed -i '6s/.*/2 2 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:6: error: the extents of mode 1 sum to 5, not to its dimension 6 [X5]"

	use block
	sed -i '5s/.*/3 1 3/;7s/.*/4/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the block size line gives 1 sections for mode 2; 'block_partitions' says 2 [X5]"
	use block
	sed -i '5s/.*/3 2 4/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the block size line gives nnz_block 4; the metadata says 3 [X5]"
}

@test "ts-validate: X6 text and binary hold the same entries" {
	use elem
	# header 19 + 15 + 10 + 10 = 54; record 6 at 54 + 5 * 32, value at + 24
	poke t/t.tnsb 238 'd<' 5
	run ts-validate t
	assert_failure 1
	assert_output --partial "entry (4, 3, 1) differs from record 6 of the binary file (offset 214) [X6]"
	use elem
	sed -i '$d' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the binary file holds more entries than the text file [X6]"
}

@test "ts-validate: X7 a data file holds nnz entries (nnz_block blocks)" {
	use text
	sed -i '7d' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns: error: the file holds 5 entries; the metadata says 6 [X7]"
	use block
	echo "2 1" >>t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "the file holds 4 blocks; the metadata says 3 [X7]"
}

@test "ts-validate: X8 a binary file is exactly header + records" {
	use bin
	truncate -s -3 t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:+52: error: the file has 97 bytes; a header of 52 and 4 records of 12 make 100 [X8]"
	use bin
	printf '\0\0\0\0' >>t/t.tnsb
	run ts-validate t
	assert_failure 1
	assert_output --partial "the file has 104 bytes"
	assert_output --partial "[X8]"
}

# =====================================================================
# S: semantics
# =====================================================================

@test "ts-validate: S1 a coordinate above its dimension, or negative" {
	use text
	sed -i '10s/^4 3 1/5 3 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate 5 exceeds dimension 4 of mode 1 [S1]"

	use text
	sed -i '5s/^1 1 1/1 -1 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate '-1' is not an unsigned integer [S1]"
}

@test "ts-validate: S1 a binary coordinate below the index base" {
	use bin
	poke t/t.tnsb 52 N 0
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tnsb:+52: error: coordinate 0 of mode 1 is below the index base 1 [S1]"
}

@test "ts-validate: S2 sorted entries are in order, by sort_order priority" {
	use text
	sed -i '6s/^1 3 2/4 3 2/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "entry (2, 2, 1) is out of order: it follows (4, 3, 2) [S2]"

	use text
	setmeta t sort_order '[2, 1, 3]'
	run ts-validate t
	assert_failure 1
	assert_output --partial "[S2]"
	tns t "3 4 3 2 6" "1 1 1 2.5" "3 1 2 0.1" "2 2 1 1e-300" \
	    "4 2 2 3" "1 3 2 -1.25" "4 3 1 1e+16"
	run ts-validate t
	assert_success
}

@test "ts-validate: S3 no repeated entry, sorted or not, unless duplicates are allowed" {
	use text
	sed -i '6s/^1 3 2/1 1 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "entry (1, 1, 1) repeats the one before it [S3]"
	use text
	jqmeta t '.sorted = "none" | .sort_order = []'
	sed -i '9s/^4 2 2/1 1 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "t/t.tns:9:1: error: entry (1, 1, 1) repeats the one at line 5 [S3]"

	use text
	setmeta t duplicates '"allowed"'
	sed -i '6s/^1 3 2/1 1 1/' t/t.tns
	run ts-validate t
	assert_success
}

@test "ts-validate: S4 no explicit zero (-0.0 is zero) unless explicit_zeros is allowed" {
	use text
	sed -i '6s/-1.25/0/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "explicit zero at (1, 3, 2); 'explicit_zeros' is 'disallowed' [S4]"
	sed -i '6s/ 0$/ -0.0/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "[S4]"

	use text
	setmeta t explicit_zeros '"allowed"'
	sed -i '6s/-1.25/0/' t/t.tns
	run ts-validate t
	assert_success
}

@test "ts-validate: S5 nonnegative values are >= 0 and not NaN" {
	use text
	setmeta t value_domain '"nonnegative"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "value -1.25 is not nonnegative [S5]"
	sed -i '6s/-1.25/nan/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "value nan is not nonnegative [S5]"
}

@test "ts-validate: S5 nonnegative in a binary file" {
	use bin
	setmeta t value_domain '"nonnegative"'
	run ts-validate t
	assert_failure 1
	# record 3 at 52 + 24, its value after two uint32
	assert_output --partial "t/t.tnsb:+84: error: value -4 is not nonnegative [S5]"
}

@test "ts-validate: S5 binary values are 0 or 1" {
	use text
	setmeta t value_domain '"binary"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "value 2.5 is not 0 or 1 [S5]"
}

@test "ts-validate: S5 int32 values are in range (text)" {
	use text
	jqmeta t '.value_type = "int32" | .nnz = 2'
	tns t "3 4 3 2 2" "1 1 1 -2147483648" "2 1 1 2147483647"
	run ts-validate t
	assert_success
	tns t "3 4 3 2 2" "1 1 1 7" "2 1 1 2147483648"
	run ts-validate t
	assert_failure 1
	assert_output --partial "value '2147483648' is out of the range of int32 [S5]"
}

@test "ts-validate: S5 int64 values are integers" {
	use text
	jqmeta t '.value_type = "int64" | .nnz = 2'
	tns t "3 4 3 2 2" "1 1 1 -9223372036854775808" "2 1 1 9223372036854775807"
	run ts-validate t
	assert_success
	tns t "3 4 3 2 2" "1 1 1 7" "2 1 1 1.5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "value '1.5' is not an integer [S5]"
}

@test "ts-validate: S5 float32 values do not overflow float32 (1e39)" {
	use text
	jqmeta t '.value_type = "float32" | .nnz = 2'
	tns t "3 4 3 2 2" "1 1 1 3.4e38" "2 1 1 -1.5"
	run ts-validate t
	assert_success
	tns t "3 4 3 2 2" "1 1 1 1e39" "2 1 1 -1.5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "value '1e39' overflows float32 [S5]"
}

@test "ts-validate: S5 float64 values do not overflow (1e400)" {
	use text
	sed -i '6s/-1.25/1e400/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "value '1e400' overflows float64 [S5]"
}

@test "ts-validate: S5 int64 binary extremes are valid" {
	use bin
	jqmeta t '.value_type = "int64" | .index_type = "uint64"'
	tnsb t 'Q> Q> q>' "2 5 4 4" "1 2 1" "2 1 -9223372036854775808" "3 3 1" \
	    "5 4 9223372036854775807"
	run ts-validate t
	assert_success
}

@test "ts-validate: S6 a row has a value exactly when values_provided" {
	use text
	sed -i '6s/ -1.25$//' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "error: row has no value; 'values_provided' is true [S6]"
	use text
	setmeta t values_provided false
	sed -i '5,$s/ [^ ]*$//' t/t.tns
	run ts-validate t
	assert_success
	sed -i '6s/$/ 1.5/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "row has a value; 'values_provided' is false [S6]"
}

@test "ts-validate: S7 a fully symmetric order-3 pattern with 'full' is valid" {
	cube 2 4
	setmeta t pattern_symmetry '"full"'
	tns t "3 2 2 2 4" "1 1 2 1" "1 2 1 1" "2 1 1 1" "2 2 2 5"
	run ts-validate t
	assert_success
	# one mirror missing
	setmeta t nnz 3
	tns t "3 2 2 2 3" "1 1 2 1" "1 2 1 1" "2 2 2 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "entry (1, 2, 1) has no mirror (2, 1, 1) (modes 1 and 2 swapped) [S7]"
}

@test "ts-validate: S7 is checked even when another key (duplicates) is invalid" {
	cube 2 3
	jqmeta t '.pattern_symmetry = "full" | .duplicates = "maybe"'
	tns t "3 2 2 2 3" "1 1 2 1" "1 2 1 1" "2 2 2 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "'duplicates' is 'maybe'"
	assert_output --partial "has no mirror (2, 1, 1) (modes 1 and 2 swapped) [S7]"
	refute_output --partial "[S3]"
}

@test "ts-validate: S7 'partial': a partially symmetric pattern, not a fully symmetric one" {
	use text
	jqmeta t '.dimensions = [2, 2, 3] | .nnz = 3 |
	    .pattern_symmetry = "partial"'
	tns t "3 2 2 3 3" "1 2 3 1" "2 1 3 1" "2 2 1 5"
	run ts-validate t
	assert_success
	# (2, 1, 3) dropped: no pair of modes can be swapped
	setmeta t nnz 2
	tns t "3 2 2 3 2" "1 2 3 1" "2 2 1 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "no pair of equal-sized modes can be swapped without changing the pattern; 'pattern_symmetry' says 'partial' [S7]"

	cube 2 4
	setmeta t pattern_symmetry '"partial"'
	tns t "3 2 2 2 4" "1 1 2 1" "1 2 1 1" "2 1 1 1" "2 2 2 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "the pattern is fully symmetric; 'pattern_symmetry' says 'partial', which means not full [S7]"
}

@test "ts-validate: S8 mirrored entries of a numerically symmetric tensor hold equal values" {
	cube 2 4
	jqmeta t '.pattern_symmetry = "full" | .numerical_symmetry = "full"'
	tns t "3 2 2 2 4" "1 1 2 1.5" "1 2 1 1.5" "2 1 1 1.5" "2 2 2 5"
	run ts-validate t
	assert_success
	tns t "3 2 2 2 4" "1 1 2 1.5" "1 2 1 1.5" "2 1 1 2" "2 2 2 5"
	run ts-validate t
	assert_failure 1
	assert_output --partial "entry (1, 2, 1) and its mirror (2, 1, 1) hold different values [S8]"
}

@test "ts-validate: S7, S8 an empty pattern contradicts no symmetry claim, element or block" {
	local ps ns
	cube 2 0
	tns t "3 2 2 2 0"
	for ps in full partial; do
		for ns in "$ps" no; do
			jqmeta t ".pattern_symmetry = \"$ps\" |
			    .numerical_symmetry = \"$ns\""
			run ts-validate t
			assert_success
			assert_line "t: valid (0 errors, 0 warnings)"
		done
	done
	jqmeta t '.pattern_symmetry = "full" | .numerical_symmetry = "partial"'
	run ts-validate t
	assert_success
	# Partial on two equal-sized modes of three.
	jqmeta t '.dimensions = [2, 2, 3] | .pattern_symmetry = "partial" |
	    .numerical_symmetry = "partial"'
	tns t "3 2 2 3 0"
	run ts-validate t
	assert_success
	# A block tensor with no non-zero block.
	use block
	jqmeta t '.dimensions = [4, 4] | .nnz = 0 | .nnz_block = 0 |
	    .block_partitions = [2, 2]'
	tns t "2 4 4 0" "2 2 0" "2 2" "2 2"
	for ps in full partial; do
		for ns in "$ps" no; do
			jqmeta t ".pattern_symmetry = \"$ps\" |
			    .numerical_symmetry = \"$ns\""
			run ts-validate t
			assert_success
			assert_line "t: valid (0 errors, 0 warnings)"
		done
	done
}

@test "ts-validate: S9 a dense ('no') tensor stores every position once" {
	matrix 2 2 4
	jqmeta t '.sparsity_type = "no" | .dense_modes = [1, 2]'
	tns t "2 2 2 4" "1 1 1" "1 2 2" "2 1 3" "2 2 4"
	run ts-validate t
	assert_success
	setmeta t nnz 3
	tns t "2 2 2 3" "1 1 1" "1 2 2" "2 2 4"
	run ts-validate t
	assert_failure 1
	assert_output --partial "3 entries are stored; a dense tensor stores all 4 positions [S9]"
}

@test "ts-validate: S9 a dense tensor cannot repeat an entry (and says so clearly)" {
	matrix 2 2 4
	jqmeta t '.sparsity_type = "no" | .dense_modes = [1, 2] |
	    .duplicates = "allowed"'
	tns t "2 2 2 4" "1 1 1" "1 1 2" "2 1 3" "2 2 4"
	run ts-validate t
	assert_failure 1
	assert_output --partial "a tensor with repeated entries cannot store every position once"
	assert_output --partial "[S9]"
	refute_output --partial "its  modes"
}

@test "ts-validate: S9 a semi-sparse tensor stores its dense modes completely" {
	matrix 3 2 4
	jqmeta t '.sparsity_type = "semi" | .dense_modes = [2]'
	tns t "2 3 2 4" "1 1 1" "1 2 2" "3 1 3" "3 2 4"
	run ts-validate t
	assert_success
	setmeta t nnz 3
	tns t "2 3 2 3" "1 1 1" "1 2 2" "3 2 4"
	run ts-validate t
	assert_failure 1
	assert_output --partial "the sparse part of entry (3, 2) has 1 of its 2 dense entries [S9]"
	# the dense mode first
	matrix 2 3 4
	jqmeta t '.sparsity_type = "semi" | .dense_modes = [1]'
	tns t "2 2 3 4" "1 1 1" "1 3 2" "2 1 3" "2 3 4"
	run ts-validate t
	assert_success
}

# =====================================================================
# Edge-case rows from other projects (tests/data/edge, see SOURCES.md)
# =====================================================================

# edge2 FILE: bundle t, 4 x 4 with one entry, around the rows of an
# extended-FROSTT file (its first three lines are a comment, "order nnz"
# and the dimensions).
edge2() {
	matrix 4 4 1
	tns t "2 4 4 1"
	tail -n +4 "$DATA/edge/$1" >>t/t.tns
}

@test "ts-validate: edge mlir coordinate_negative: -1 is refused (S1)" {
	edge2 mlir__coordinate_negative.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "error: coordinate '-1' is not an unsigned integer [S1]"
}

@test "ts-validate: edge mlir coordinate_overflow: 2^64 is too large (S1)" {
	edge2 mlir__coordinate_overflow.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate '18446744073709551616' is too large [S1]"
}

@test "ts-validate: edge mlir coordinate_zero and coordinate_above_dimension (S1)" {
	edge2 mlir__coordinate_zero.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate 0 of mode 1 is below the index base 1 [S1]"
	edge2 mlir__coordinate_above_dimension.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "coordinate 5 exceeds dimension 4 of mode 1 [S1]"
}

@test "ts-validate: edge TensorMarket nil.tns: an empty file as the text file (H1)" {
	use text
	cp "$DATA/edge/tensormarket__nil.tns" t/t.tns
	run ts-validate t
	assert_failure 1
	assert_output --partial "empty file; expected '%%TensorSuite-TNS' [H1]"
}

@test "ts-validate: edge SPLATT small.tns: unsorted rows, a comment and a blank line" {
	use text
	jqmeta t '.dimensions = [2, 3, 2] | .sorted = "none" | .sort_order = []'
	tns t "3 2 3 2 6"
	cat "$DATA/edge/splatt__small.tns" >>t/t.tns
	run ts-validate t
	assert_success
	assert_output --partial "comment line between entries [E1]"
	assert_output --partial "blank line between entries [E1]"
}

@test "ts-validate: edge taco 3tensor.tns: rows with runs of spaces" {
	use text
	jqmeta t '.dimensions = [1073, 1, 7] | .nnz = 3 | .sorted = "none" |
	    .sort_order = []'
	tns t "3 1073 1 7 3"
	cat "$DATA/edge/taco__3tensor.tns" >>t/t.tns
	run ts-validate t
	assert_success
	assert_output "t: valid (0 errors, 0 warnings)"
}

# ---- real tensors (tests/data/real, see its SOURCES.md) ----

# frostt FILE ORDER "D1 ... DN" NNZ BASE VALUES: bundle t around a
# headerless FROSTT file, with metadata for it.
frostt() {
	use text
	tns t "$2 $3 $4"
	cat "$DATA/real/$1" >>t/t.tns
	jqmeta t ".order = $2 | .dimensions = [$(echo "$3" | tr ' ' ,)] |
	    .nnz = $4 | .index_base = $5 | .values_provided = $6 |
	    .sort_order = [range(1; $2 + 1)]"
}

@test "ts-validate: real SPLATT med.tns (100,000 ratings, sorted) is valid" {
	frostt splatt_med.tns 3 "2425 10816 29567" 100000 1 true
	jqmeta t '.value_domain = "nonnegative"'
	run ts-validate t
	assert_success
}

@test "ts-validate: real SPLATT med.tns is not sorted by mode 2 first (S2)" {
	frostt splatt_med.tns 3 "2425 10816 29567" 100000 1 true
	jqmeta t '.sort_order = [2, 1, 3]'
	run ts-validate -m 2 t
	assert_failure 1
	assert_output --partial "[S2]"
	assert_output --partial "more diagnostics [S2] not shown"
}

@test "ts-validate: real amino-acid tensor is dense, 0-based, with explicit zeros (S9)" {
	frostt aminoacid.tns 3 "5 201 61" 61305 0 true
	jqmeta t '.sparsity_type = "no" | .dense_modes = [1, 2, 3] |
	    .explicit_zeros = "allowed"'
	run ts-validate t
	assert_success
	# Its 23 zeros are found when they are declared disallowed.
	jqmeta t '.explicit_zeros = "disallowed"'
	run ts-validate -m 0 t
	assert_failure 1
	assert_output --partial "23 errors"
}

@test "ts-validate: real amino-acid tensor without one row is not dense (S9)" {
	frostt aminoacid.tns 3 "5 201 61" 61304 0 true
	sed -i '$d' t/t.tns
	jqmeta t '.sparsity_type = "no" | .dense_modes = [1, 2, 3] |
	    .explicit_zeros = "allowed"'
	run ts-validate t
	assert_failure 1
	assert_output --partial "61304 entries are stored; a dense tensor stores all 61305 positions [S9]"
}

@test "ts-validate: real knowledge-graph tensor (no values, unsorted) has no duplicates" {
	frostt KG_JF17K_3_ids_1based.tns 4 "104 11540 11541 11539" 34544 1 false
	jqmeta t '.sorted = "none" | .sort_order = [] | .explicit_zeros = "allowed"'
	run ts-validate t
	assert_success
	# Read as order 3 with the last column as a value, it repeats entries.
	frostt KG_JF17K_3_ids_1based.tns 3 "104 11540 11541" 34544 1 true
	jqmeta t '.sorted = "none" | .sort_order = []'
	run ts-validate -m 1 t
	assert_failure 1
	assert_output --partial "[S3]"
}

@test "ts-validate: real FROSTT matmul_2-2-2 is binary-valued and not lexicographic" {
	frostt matmul_2-2-2.tns 3 "4 4 4" 8 1 true
	jqmeta t '.value_domain = "binary" | .sorted = "none" | .sort_order = []'
	run ts-validate t
	assert_success
	jqmeta t '.sorted = "lexicographic" | .sort_order = [3, 1, 2]'
	run ts-validate t
	assert_success
}

# =====================================================================
# ts-validate for CI (issue 11): every kind of operand, collections,
# operands in parallel, reports for CI systems.
# =====================================================================

@test "ts-validate: a lone data file is checked against the metadata beside it, or --meta" {
	use text t
	sed -i '6s/^1 3 2/1 9 2/' t/t.tns
	run ts-validate t/t.tns
	assert_failure 1
	assert_output --partial "t/t.tns:6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	assert_output --partial "t/t.tns: invalid (1 error, 0 warnings)"
	cp t/t.tns lone.tns
	run ts-validate --meta t/t_metadata.json lone.tns
	assert_failure 1
	assert_output --partial "lone.tns:6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	# An attribute only the metadata states: S4 (explicit zeros).
	use text u
	sed -i '6s/ [^ ]*$/ 0/' u/u.tns
	jqmeta u '.explicit_zeros = "disallowed"'
	run ts-validate u/u.tns
	assert_failure 1
	assert_output --partial "[S4]"
	# Binary, and compressed.
	use bin b
	run ts-validate b/b.tnsb
	assert_success
	gzip -k u/u.tns
	run ts-validate u/u.tns.gz
	assert_failure 1
	assert_output --partial "u/u.tns.gz:6:"
}

@test "ts-validate: a lone data file without metadata is checked against its own header, with a note" {
	use text t
	cp t/t.tns alone.tns
	run --separate-stderr ts-validate alone.tns
	assert_success
	assert_output "alone.tns: valid (0 errors, 0 warnings)"
	[[ $stderr == *"alone.tns: note: no metadata: the header, the rows, the bounds and the count were checked"* ]]
	# Beyond a dimension in either base, and a wrong count.
	sed -i '4s/^3 4 3 2 6$/3 4 3 2 7/' alone.tns
	echo '5 1 1 1' >>alone.tns
	run ts-validate alone.tns
	assert_failure 1
	assert_output --partial "alone.tns:11:1: error: coordinate 5 exceeds dimension 4 of mode 1 [S1]"
	sed -i '11d' alone.tns
	run ts-validate alone.tns
	assert_failure 1
	assert_output --partial "the file holds 6 entries; its size line says 7 [X7]"
	# A binary file says nothing of its records.
	use bin b
	cp b/b.tnsb alone.tnsb
	run ts-validate alone.tnsb
	assert_failure 1
	assert_output --partial "give its metadata (--meta FILE) [E3]"
	# FROSTT and Matrix Market are checked on their own.
	run ts-validate "$DATA/real/matmul_2-2-2.tns" "$DATA/mtx/karate.mtx"
	assert_success
	run ts-validate "$DATA/mtx/fmm__invalid_indices_out_of_range_1.mtx"
	assert_failure 1
	assert_output --partial "out of range"
}

@test "ts-validate: '-' reads a stream: ts-sort ... -o - | ts-validate -" {
	run bash -c "ts-sort -q '$SHARE/example-element' -o - | ts-validate --meta '$SHARE/example-element/example-element_metadata.json' -"
	assert_success
	assert_output "-: valid (0 errors, 0 warnings)"
	# The stream is not sorted as the metadata says: S2 names its line.
	run bash -c "ts-sort -q -k 3,2,1 '$SHARE/example-element' -o - | ts-validate --meta '$SHARE/example-element/example-element_metadata.json' -"
	assert_failure 1
	assert_output --partial "<stdin>:"
	assert_output --partial "[S2]"
}

@test "ts-validate: -r finds every bundle below a directory, in path order, skipping hidden ones" {
	mkdir -p coll/b coll/a/deep coll/.hidden coll/empty
	use text x
	mv x coll/b/
	use text y
	mv y coll/a/deep/
	use text z
	mv z coll/.hidden/
	sed -i '6s/^1 3 2/1 9 2/' coll/b/x/x.tns
	run ts-validate -r coll
	assert_failure 1
	assert_line --index 0 "coll/a/deep/y: valid (0 errors, 0 warnings)"
	assert_line --index 2 "coll/b/x: invalid (1 error, 0 warnings)"
	assert_line --index 3 "2 bundles: 1 valid, 1 invalid"
	refute_output --partial ".hidden"
	run ts-validate -r coll/empty
	assert_failure 1
	assert_output --partial "'coll/empty': no bundle below it"
	run ts-validate -r no-such-dir
	assert_failure 3
}

@test "ts-validate: -r walks any depth: an invalid bundle 71 folders down is checked; a folder too deep for a path is an error (issue 30.14)" {
	local deep=coll i
	for i in $(seq 71); do deep=$deep/d; done
	mkdir -p "$deep"
	use text x
	sed -i '6s/^1 3 2/1 9 2/' x/x.tns
	mv x "$deep/"
	run ts-validate -r coll
	assert_failure 1
	assert_line "$deep/x: invalid (1 error, 0 warnings)"
	# Deeper than a path can name (PATH_MAX): what cannot be walked
	# is an error, not a silent stop.
	# (Folders of 250 bytes: 20 of them pass the 4096 bytes of Linux's
	# PATH_MAX, where 2,100 of one byte took minutes to make.)
	local long
	long=$(printf 'd%.0s' $(seq 250))
	mkdir -p far/a
	(cd far/a && for i in $(seq 20); do mkdir "$long" && cd "$long" || exit 1; done)
	run --separate-stderr timeout 60 ts-validate -r far
	assert_failure 3
	assert_output "far: not checked (an I/O error)"
	[[ $stderr == *": File name too long" ]]
}

@test "ts-validate: -r follows no symbolic link below the operand (as find does): a loop is walked once" {
	mkdir -p coll/a elsewhere
	use text x
	mv x coll/a/
	use text y
	mv y elsewhere/
	ln -s .. coll/a/up
	ln -s / coll/root
	ln -s ../elsewhere/y coll/y
	ln -s ../coll coll/a/again
	run timeout 20 ts-validate -r coll
	assert_success
	assert_output "coll/a/x: valid (0 errors, 0 warnings)"
	# The operand itself may be a link.
	ln -s coll link
	run timeout 20 ts-validate -r link
	assert_success
	assert_output "link/a/x: valid (0 errors, 0 warnings)"
}

@test "ts-validate: -j N checks operands at once and reports them in operand order, as -j 1 does" {
	local i
	for i in 1 2 3 4 5 6; do use text "b$i"; done
	sed -i '6s/^1 3 2/1 9 2/' b3/b3.tns
	run ts-validate -j 1 b6 b1 b5 b3 b2 b4
	local one=$output
	assert_failure 1
	run ts-validate -j 4 b6 b1 b5 b3 b2 b4
	assert_failure 1
	assert_equal "$output" "$one"
	run ts-validate -j 3 --json b6 b1 b5 b3 b2 b4
	assert_equal "$(jq -r .path <<<"$output" | tr '\n' ' ')" "b6 b1 b5 b3 b2 b4 "
}

@test "ts-validate: --format github prints workflow commands that annotate file, line and column" {
	use text t
	sed -i '6s/^1 3 2/1 9 2/' t/t.tns
	run ts-validate --format github t "$SHARE/example-element"
	assert_failure 1
	assert_line "::error file=t/t.tns,line=6,col=3,title=S1::coordinate 9 exceeds dimension 3 of mode 2"
	assert_line "t: invalid (1 error, 0 warnings)"
	assert_line "2 bundles: 1 valid, 1 invalid"
	# Commas and colons in a file name are escaped as the runner wants.
	mv t 'a,b:c'
	mv 'a,b:c/t.tns' 'a,b:c/a,b:c.tns' 2>/dev/null || true
	run ts-validate --format github --meta 'a,b:c/t_metadata.json' 'a,b:c/a,b:c.tns'
	assert_output --partial "::error file=a%2Cb%3Ac/a%2Cb%3Ac.tns,line=6,col=3,title=S1::"
}

@test "ts-validate: --format junit writes one JUnit document, a test case per operand" {
	use text t
	sed -i '6s/^1 3 2/1 9 2/' t/t.tns
	run --separate-stderr ts-validate --format junit t "$SHARE/example-element" no-such
	assert_failure 3
	printf '%s\n' "$output" >report.xml
	run python3 - report.xml <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
print(root.get("tests"), root.get("failures"), root.get("errors"), len(cases))
for c in cases:
    f = c.find("failure")
    if f is None:
        f = c.find("error")
    print(c.get("name"), f.tag if f is not None else "pass",
          (f.text or "").strip().splitlines()[0] if f is not None else "")
PY
	assert_success
	assert_line --index 0 "3 1 1 3"
	assert_line --index 1 "t failure t/t.tns:6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	assert_line --index 2 "$SHARE/example-element pass "
	# What could not be read is an error, not a failure (issue 22.14).
	assert_line --index 3 --partial "no-such error ts-validate: no-such: No such file or directory"
}

# ---- reports a file name cannot break (issue 22, points 13 to 16) ----

# The names of issue 22.16, and names that once started workflow
# commands (22.13): LF, CR, %, :, ',', &, <, ", ESC, \x01, \xff; "::" at
# the start, after white space, after a newline; "##[", the runner's
# old syntax, read anywhere in a line.
NAMES=($'nl\nx.tns' $'cr\rx.tns' 'pc%0A:a,b.tns' 'amp&lt<"q.tns'
    $'esc\e[31m.tns' $'ctl\x01.tns' $'ff\xff.tns')
INJECT=($'w\n::stop-commands::pause.tns' '::warning::w.tns'
    ' ::error::sp.tns' 'h##[stop-commands]z.tns')
CHECK="$BATS_TEST_DIRNAME/report-check.py"

# badcopies NAME...: bundle t, with a coordinate out of range on line 6
# of its text file, and a copy of that file as each NAME (to check with
# --meta t/t_metadata.json, so that each has an S1 error naming it).
badcopies() {
	local n
	use text t
	sed -i '6s/^1 3 2/1 9 2/' t/t.tns
	for n in "$@"; do
		cp t/t.tns "$n"
	done
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

@test "ts-validate: --format github: no byte of a name starts a workflow command, in a path or a message (issue 22.13)" {
	local d=$'a\n::stop-commands::pause'
	badcopies "${INJECT[@]}"
	mkdir "$d"
	cp -r t "$d/"
	# What the runner reads, stdout and stderr: the one annotation meant,
	# on the file it names, then plain lines.
	run bash -c 'ts-validate --format github -r "$1" 2>&1 | "$2" github' _ "$d" "$CHECK"
	assert_success
	assert_line --index 0 "error b'a\\n::stop-commands::pause/t/t.tns' coordinate 9 exceeds dimension 3 of mode 2"
	assert_line --index 1 "1 annotations"
	run bash -c 'ts-validate --format github --meta t/t_metadata.json "${@:2}" 2>&1 | "$1" github' _ "$CHECK" "${INJECT[@]}"
	assert_success
	assert_line --index 0 "error b'w\\n::stop-commands::pause.tns' coordinate 9 exceeds dimension 3 of mode 2"
	assert_line --index 1 "error b'::warning::w.tns' coordinate 9 exceeds dimension 3 of mode 2"
	assert_line --index 4 "4 annotations"
	# The plain lines quote a name that could start one.
	run ts-validate --format github --meta t/t_metadata.json "${INJECT[@]}"
	assert_line "'w'\$'\\n''::stop-commands::pause.tns': invalid (1 error, 0 warnings)"
	assert_line "'::warning::w.tns': invalid (1 error, 0 warnings)"
	assert_line "' ::error::sp.tns': invalid (1 error, 0 warnings)"
	assert_line "'h##''[stop-commands]z.tns': invalid (1 error, 0 warnings)"
	# The text format, read by the runner as well, holds no command.
	run bash -c 'ts-validate -r "$1" 2>&1 | "$2" github' _ "$d" "$CHECK"
	assert_success
	assert_output "0 annotations"
	run bash -c 'ts-validate --meta t/t_metadata.json "${@:2}" 2>&1 | "$1" github' _ "$CHECK" "${INJECT[@]}"
	assert_success
	assert_output "0 annotations"
}

@test "ts-validate: --format junit is well-formed whatever a name holds, and what was not checked is an <error> (issue 22.14)" {
	local s=0
	badcopies "${NAMES[@]}"
	ts-validate --format junit --meta t/t_metadata.json "${NAMES[@]}" \
	    no-such >report.xml 2>/dev/null || s=$?
	[ "$s" -eq 3 ]
	run xmllint --noout report.xml
	assert_success
	run "$CHECK" junit report.xml
	assert_success
	assert_line --index 0 "8 tests, 7 failures, 1 errors"
	# A newline in a name is told from a space: the name is quoted.
	assert_line --index 1 "b'nl\\nx.tns' failure 'nl'\$'\\n''x.tns':6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	assert_line --index 7 "b'ff\\xff.tns' failure 'ff'\$'\\377''.tns':6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	assert_line --index 8 "b'no-such' error ts-validate: no-such: No such file or directory"
	run grep -c '<error type="io"' report.xml
	assert_output 1
}

@test "ts-validate: every format says why -r DIR failed: no bundle below it, or a folder that cannot be read (issue 22.14)" {
	local why="'empty': no bundle below it (a folder holding NAME_metadata.json)"
	mkdir empty
	run --separate-stderr ts-validate -r empty
	assert_failure 1
	assert_equal "$stderr" "ts-validate: $why"
	assert_output "empty: invalid (1 error, 0 warnings)"
	run ts-validate --json -r empty
	assert_failure 1
	run jq -r '[.path, .valid, .status, .diagnostics[0].message] | @tsv' <<<"$output"
	assert_output "empty	false	1	$why"
	run --separate-stderr ts-validate --format github -r empty
	assert_failure 1
	assert_line --index 0 "::error::$why"
	run bash -c 'ts-validate --format junit -r empty >report.xml'
	assert_failure 1
	run "$CHECK" junit report.xml
	assert_success
	assert_line --index 0 "1 tests, 1 failures, 0 errors"
	assert_line --index 1 "b'empty' failure ts-validate: $why"
	# A folder below DIR that cannot be read: an I/O error, 3, said in
	# every format too.
	mkdir -p coll/locked
	use text t
	mv t coll/
	chmod 0 coll/locked
	unprivileged ts-validate --json -r coll
	chmod 755 coll/locked
	assert_failure 3
	run jq -r '[.path, .valid, .status, .diagnostics[0].file, .diagnostics[0].message] | @tsv' <<<"$output"
	assert_output "coll	false	3	coll/locked	Permission denied"
	chmod 0 coll/locked
	unprivileged bash -c 'ts-validate --format junit -r coll 2>/dev/null'
	chmod 755 coll/locked
	assert_failure 3
	printf '%s\n' "$output" >report.xml
	run "$CHECK" junit report.xml
	assert_line --index 0 "1 tests, 0 failures, 1 errors"
	assert_line --index 1 "b'coll' error ts-validate: coll/locked: Permission denied"
}

@test "ts-validate: --json identifies a path that is not UTF-8 (path_base64), and ts-validate(1) lists every key (issue 22.15)" {
	local s=0
	badcopies $'ff\xff.tns' $'esc\e[31m.tns'
	ts-validate --json --meta t/t_metadata.json $'ff\xff.tns' \
	    $'esc\e[31m.tns' no-such >out.jsonl || s=$?
	[ "$s" -eq 3 ]
	run "$CHECK" json "$TS_TOP/man/ts-validate.1" <out.jsonl
	assert_success
	assert_line --index 0 "b'ff\\xff.tns' valid=False status=1"
	assert_line --index 1 "  b'ff\\xff.tns' coordinate 9 exceeds dimension 3 of mode 2"
	assert_line --index 2 "b'esc\\x1b[31m.tns' valid=False status=1"
	assert_line --index 4 "b'no-such' valid=False status=3"
	run jq -r 'select(.path_base64) | .path, .path_base64,
	    .diagnostics[0].file, .diagnostics[0].file_base64' out.jsonl
	assert_line --index 0 "'ff'\$'\\377''.tns'"
	assert_line --index 1 "Zmb/LnRucw=="
	assert_line --index 2 "'ff'\$'\\377''.tns'"
	assert_line --index 3 "Zmb/LnRucw=="
	[ "${#lines[@]}" -eq 4 ]
	# A UTF-8 name is exact, its controls escaped as JSON does.
	run jq -r 'select(.path | startswith("esc")) | .path | @json' out.jsonl
	assert_output '"esc\u001b[31m.tns"'
}

@test "ts-validate: the text report and its diagnostics quote a name with control bytes as ls does (issue 22.15)" {
	local n q
	badcopies $'esc\e[31m.tns' $'ctl\x01.tns' $'ff\xff.tns' $'nl\nx.tns' \
	    $'cr\rx.tns' $'tab\tx.tns' $'\e]0;title\a.tns'
	for n in $'esc\e[31m.tns' $'ctl\x01.tns' $'ff\xff.tns' $'nl\nx.tns' \
	    $'cr\rx.tns' $'tab\tx.tns' $'\e]0;title\a.tns'; do
		q=$(ls --quoting-style=shell-escape -d -- "$n")
		run --separate-stderr ts-validate --meta t/t_metadata.json "$n"
		assert_failure 1
		assert_equal "$output" "$q: invalid (1 error, 0 warnings)"
		assert_equal "$stderr" "$q:6:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	done
	# A plain name stays as it is.
	run --separate-stderr ts-validate --meta t/t_metadata.json t/t.tns
	assert_output "t/t.tns: invalid (1 error, 0 warnings)"
}

@test "ts-validate: one escaping for every format, names holding LF, CR, %, :, ',', &, <, \", ESC, \\x01, \\xff (issue 22.16)" {
	local s=0
	badcopies "${NAMES[@]}" "${INJECT[@]}"
	# text: one line per verdict, each name given back by its quoting.
	ts-validate --meta t/t_metadata.json "${NAMES[@]}" "${INJECT[@]}" \
	    >out 2>err || s=$?
	[ "$s" -eq 1 ]
	run "$CHECK" text <out
	assert_success
	assert_line --index 0 "b'nl\\nx.tns' invalid"
	assert_line --index 10 "b'h##[stop-commands]z.tns' invalid"
	[ "${#lines[@]}" -eq 11 ]
	run "$CHECK" text <err
	assert_success
	run bash -c 'cat out err | "$1" github' _ "$CHECK"
	assert_output "0 annotations"
	# JSON: every line parses, every name is exact or quoted and in base64.
	ts-validate --json --meta t/t_metadata.json "${NAMES[@]}" \
	    "${INJECT[@]}" >out || true
	jq -e . out >/dev/null
	run "$CHECK" json "$TS_TOP/man/ts-validate.1" <out
	assert_success
	[ "${#lines[@]}" -eq 22 ]
	run "$CHECK" github <out
	assert_output "0 annotations"
	# GitHub: an annotation per name, on that file.
	run bash -c 'ts-validate --format github --meta t/t_metadata.json "${@:2}" 2>&1 | "$1" github' _ "$CHECK" "${NAMES[@]}" "${INJECT[@]}"
	assert_success
	assert_line --index 11 "11 annotations"
	# JUnit: well-formed, each test case named by its quoting.
	ts-validate --format junit --meta t/t_metadata.json "${NAMES[@]}" \
	    "${INJECT[@]}" >report.xml || true
	xmllint --noout report.xml
	run "$CHECK" junit report.xml
	assert_success
	assert_line --index 0 "11 tests, 11 failures, 0 errors"
	run "$CHECK" github <report.xml
	assert_output "0 annotations"
}

@test "ts-validate: the checks that need order sort in bounded memory: -S spills runs to -T, the verdict is the same" {
	# 200000 distinct entries of a 1000 x 1000 x 1000 tensor, in an
	# order no check expects; then a repeat of line 10's entry.
	awk 'BEGIN { srand(7); n = 0
	    while (n < 200000) {
	        k = int(rand() * 1000) * 1000000 + int(rand() * 1000) * 1000 + int(rand() * 1000)
	        if (!(k in s)) {
	            s[k] = 1; n++
	            printf "%d %d %d %.3f\n", int(k / 1000000) + 1, int(k / 1000) % 1000 + 1, k % 1000 + 1, 0.5 + rand()
	        }
	    } }' >rows
	use text big
	{ printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: big\n'
	  echo '3 1000 1000 1000 200001'; cat rows; sed -n 6p rows; } >big/big.tns
	jqmeta big '.dimensions = [1000, 1000, 1000] | .nnz = 200001 |
	    .sorted = "none" | .sort_order = [] | .value_domain = "general"'
	mkdir tmp
	run ts-validate -S 1M -T tmp big
	assert_failure 1
	assert_output --partial "big/big.tns:200005:1: error: entry ("
	assert_output --partial "repeats the one at line 10 [S3]"
	assert_equal "$(ls -A tmp)" ""
	local spilled=$output
	run ts-validate big
	assert_failure 1
	assert_equal "$output" "$spilled"
	# Without the repeat, valid in either memory.
	sed -i '$d' big/big.tns
	sed -i '4s/ 200001$/ 200000/' big/big.tns
	jqmeta big '.nnz = 200000'
	run ts-validate -S 1M -T tmp big
	assert_success
	# A symmetric claim on the same entries spills too, and fails.
	jqmeta big '.pattern_symmetry = "full"'
	run ts-validate -m 1 -S 1M -T tmp big
	assert_failure 1
	assert_output --partial "has no mirror"
	assert_output --partial "[S7]"
	assert_equal "$(ls -A tmp)" ""
}

@test "ts-validate: a missing -T directory is an I/O error (3) when runs spill" {
	awk 'BEGIN { srand(3); for (i = 0; i < 100000; i++)
	    printf "%d %d %d 1\n", i % 97 + 1, i % 89 + 1, i + 1 }' >rows
	use text s
	{ printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: s\n'
	  echo '3 97 89 100000 100000'; sort -R --random-source=rows rows; } >s/s.tns
	jqmeta s '.dimensions = [97, 89, 100000] | .nnz = 100000 |
	    .sorted = "none" | .sort_order = [] | .value_domain = "binary"'
	run ts-validate -S 1M -T no-such-dir s
	assert_failure 3
	assert_output --partial "no-such-dir"
	run ts-validate -S 1M s
	assert_success
}

@test "ts-validate: a repeat across a chunk border of the threaded parser, and a line from a later chunk, are found as with one thread" {
	# 40000 sorted rows; repeats at many places, so that some fall on a
	# border whatever the chunks are.
	awk 'BEGIN { print "%%TensorSuite-TNS"; print "% version: 0.1"
	    print "% name: r"; print "2 200 300 40050"
	    for (i = 0; i < 40000; i++) {
	        printf "%d %d 1\n", int(i / 200) + 1, i % 200 + 1
	        if (i % 800 == 799) printf "%d %d 1\n", int(i / 200) + 1, i % 200 + 1 }
	    }' >rows
	use text r
	cp rows r/r.tns
	jqmeta r '.dimensions = [200, 300] | .order = 2 | .nnz = 40050 |
	    .sort_order = [1, 2] | .value_domain = "binary"'
	run ts-validate -m 0 r
	assert_failure 1
	local one=$output
	[ "$(grep -c 'repeats the one before it \[S3\]' <<<"$output")" -eq 50 ]
	assert_output --partial "r/r.tns:40054:1: error: entry (200, 200) repeats the one before it [S3]"
	local c
	for c in 512 1000 4096; do
		TS_CHUNK=$c run ts-validate -m 0 r
		assert_equal "$output" "$one"
	done
	# Unsorted, the sorter finds them, naming both lines.
	jqmeta r '.sorted = "none" | .sort_order = []'
	TS_CHUNK=700 run ts-validate -m 0 r
	assert_failure 1
	assert_output --partial "r/r.tns:805:1: error: entry (4, 200) repeats the one at line 804 [S3]"
}

@test "ts-validate: unsorted, every repeat of a run names the one before it, across the batches the sort is read back in" {
	# 3000 entries three times each, in a random order: the runs of the
	# sorted records cross the borders of the 4096 that the sorted checks
	# read at a time (4096 = 3 * 1365 + 1).  Each later one of a run
	# repeats the one before it in the file (the sort is stable).
	awk 'BEGIN { srand(7)
	    for (i = 0; i < 9000; i++)
	        x[i] = sprintf("%d %d", int(i / 90) + 1, int(i / 3) % 30 + 1)
	    for (i = 8999; i > 0; i--) {
	        j = int(rand() * (i + 1)); t = x[i]; x[i] = x[j]; x[j] = t }
	    print "%%TensorSuite-TNS"; print "% version: 0.1"
	    print "% name: r"; print "2 100 100 9000"
	    for (i = 0; i < 9000; i++) print x[i], 1 }' >rows
	use text r
	cp rows r/r.tns
	jqmeta r '.dimensions = [100, 100] | .order = 2 | .nnz = 9000 |
	    .sorted = "none" | .sort_order = [] | .value_domain = "binary"'
	# What they should say, in the order of the coordinates.
	tail -n +5 rows | awk '{ k = $1 " " $2
	    if (k in last) printf "%09d %09d %09d r/r.tns:%d:1: error: entry (%d, %d) repeats the one at line %d [S3]\n", $1, $2, NR + 4, NR + 4, $1, $2, last[k]
	    last[k] = NR + 4 }' | sort | cut -d " " -f 4- >want
	[ "$(wc -l <want)" -eq 6000 ]
	run ts-validate -m 0 r
	assert_failure 1
	grep 'S3' <<<"$output" >got
	diff -u want got
	run -1 --separate-stderr ts-stat --json r
	assert_equal "$(echo "$output" | jq -c '.repeats')" 6000
}

# ---- runs of skipped lines (issue 22.1) ----

# gaps FILE: FILE's entries (after its 4 header lines) with a run of
# 300,000 blank lines after its first and second entries and one of
# 300,000 '#' comment lines after its third: each run fills more than one
# read of the decoder.
gaps() {
	awk 'NR == 5 || NR == 6 { print; for (i = 0; i < 300000; i++) print ""; next }
	    NR == 7 { print; for (i = 0; i < 300000; i++) print "# c"; next }
	    { print }' "$1" >"$1.gaps" && mv "$1.gaps" "$1"
}

@test "ts-validate: values checked by their class say what values converted say, found a vector or a word at a time, by threads or not (TS_SCAN)" {
	# Byte by byte (TS_SCAN=scalar) every value is converted; the rows
	# found a vector or a word at a time give a plain decimal's class
	# alone to the checks of each entry (S4, S5, E2).  Odd values at
	# every 97th row: zeros in every spelling, signs, exponents, a
	# decimal so long that it rounds to zero, one so long that it is
	# infinite, two points.
	local z o dom vt way one
	z=$(printf '0%.0s' $(seq 400))
	o=$(printf '0%.0s' $(seq 30))
	awk -v z="$z" -v o="$o" 'BEGIN { srand(3); print "%%TensorSuite-TNS"
	    print "% version: 0.1"; print "% name: v"; print "3 1000 1000 1000 20000"
	    n = split("0|0.0|00.000|.0|0.|-0|-0.0|+0.5|-1.5|-1|1e-400|1e400|1e5|2.5e-3|nan|-inf|0." z "1|1" z "|0." o "1|1" o ".5|1.|.5|1.0.2|.|0x1|1..2|7", odd, "|")
	    for (i = 0; i < 20000; i++) {
	        printf "%d %d %d ", i % 1000 + 1, int(i / 1000) + 1, i % 7 + 1
	        if (i % 97 == 3) print odd[int(i / 97) % 27 + 1]
	        else printf "%.17g\n", rand() }
	    }' >rows
	use text v
	cp rows v/v.tns
	for dom in nonnegative general binary; do
		for vt in float64 float32; do
			jqmeta v ".dimensions = [1000, 1000, 1000] | .nnz = 20000 |
			    .sorted = \"none\" | .sort_order = [] |
			    .duplicates = \"allowed\" | .value_type = \"$vt\" |
			    .value_domain = \"$dom\""
			TS_SCAN=scalar run ts-validate -m 0 v
			assert_failure 1
			one=$output
			for way in swar sse2 avx2; do
				TS_SCAN=$way run ts-validate -m 0 v
				[ "$output" = "$one" ] ||
				    { echo "$dom $vt $way: not as converted"; return 1; }
				TS_CHUNK=4096 TS_SCAN=$way run ts-validate -m 0 -j 3 v
				[ "$output" = "$one" ] ||
				    { echo "$dom $vt $way threads: not as converted"; return 1; }
			done
		done
	done
	# What the odd ones are found to be.
	jqmeta v '.value_type = "float64" | .value_domain = "nonnegative"'
	TS_SCAN=avx2 run ts-validate -m 0 v
	assert_line "v/v.tns:8:7: error: explicit zero at (4, 1, 4); 'explicit_zeros' is 'disallowed' [S4]"
	assert_line "v/v.tns:784:9: error: value -1.5 is not nonnegative [S5]"
	assert_line "v/v.tns:1560:9: error: explicit zero at (556, 2, 2); 'explicit_zeros' is 'disallowed' [S4]"
	assert_line "v/v.tns:1657:9: error: value '10000000000000000000000000000000000000000000...' overflows float64 [S5]"

}

@test "ts-validate: runs of skipped lines longer than a read end nothing: every reading path, one thread or several (E1)" {
	use text
	gaps t/t.tns
	local want='valid (0 errors, 2 warnings)' z
	run ts-validate t
	assert_success
	assert_line "t: $want"
	assert_line "t/t.tns:6:1: warning: blank line between entries [E1]"
	assert_line "t/t.tns:600008:1: warning: comment line between entries [E1]"
	run ts-validate t/t.tns
	assert_success
	assert_line "t/t.tns: $want"
	# The threaded parser, in chunks much smaller than a run.
	TS_CHUNK=4096 run ts-validate t
	assert_success
	assert_line "t: $want"
	run ts-validate --meta t/t_metadata.json - <t/t.tns
	assert_success
	cat t/t.tns | ts-validate --meta t/t_metadata.json - >out
	assert_equal "$(cat out)" "-: $want"
	for z in zst gz xz bz2; do
		case $z in
		zst) zstd -q -c t/t.tns ;;
		gz) gzip -c t/t.tns ;;
		xz) xz -c t/t.tns ;;
		bz2) bzip2 -c t/t.tns ;;
		esac >"c.tns.$z"
		run ts-validate --meta t/t_metadata.json "c.tns.$z"
		assert_success
		assert_line "c.tns.$z: $want"
		cat "c.tns.$z" | ts-validate --meta t/t_metadata.json - >out
		assert_equal "$(cat out)" "-: $want"
	done
	# An archive member.
	tar -cf - t | zstd -q >t.tar.zst
	run ts-validate t.tar.zst
	assert_success
	assert_line "t.tar.zst:t: $want"
	# What follows a run is checked: a bad last entry is found.
	sed -i '$s/^4 3 1/4 9 1/' t/t.tns
	run ts-validate t
	assert_failure 1
	assert_line "t/t.tns:900010:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
}

@test "ts-validate: a FROSTT or Matrix Market file with a run of skipped lines longer than a read is read to its end" {
	{ echo '1 1 1.0'; yes '' | head -n 300000
	  printf 'garbage row here\n1 1\n-5 7 nan\n'; } >g.tns
	run ts-validate g.tns
	assert_failure 1
	assert_line "g.tns:300002:1: error: coordinate 'garbage' is not an unsigned integer [E1]"
	assert_line "g.tns:300003:4: error: row has no value; 'values_provided' is true [S6]"
	assert_line "g.tns:300004:1: error: coordinate '-5' is not an unsigned integer [S1]"
	run ts-validate - <g.tns
	assert_failure 1
	assert_line "<stdin>:300002:1: error: coordinate 'garbage' is not an unsigned integer [E1]"
	gzip -c g.tns >g.tns.gz
	run ts-validate g.tns.gz
	assert_failure 1
	assert_line "g.tns.gz:300004:1: error: coordinate '-5' is not an unsigned integer [S1]"
	# Comments at the start, and comment runs between rows.
	{ yes '# c' | head -n 300000; echo '1 1 1.0'; yes '#' | head -n 300000
	  echo '2 x 1.0'; } >h.tns
	run ts-validate h.tns
	assert_failure 1
	assert_line "h.tns:600002:3: error: coordinate 'x' is not an unsigned integer [E1]"
	{ printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n'
	  yes '' | head -n 300000; echo '2 2 2.0'; yes '%' | head -n 300000
	  echo '3 3 3.0'; } >m.mtx
	run ts-validate m.mtx
	assert_success
	run ts-validate - <m.mtx
	assert_success
	sed -i '$s/.*/3 4 3.0/' m.mtx
	run ts-validate m.mtx
	assert_failure 1
	assert_line "m.mtx:600005:3: error: column index 4 is out of range 1..3"
}

# ---- an archive on standard input (issue 22.17) ----

@test "ts-validate: an archive on standard input is read as one, whatever its compression or tar format" {
	local z v7
	use text
	mkbundle "$SHARE/example-element" e >/dev/null
	tar -cf t.tar t e
	tar --format=v7 -cf v7.tar t e
	for z in cat "zstd -q -c" "gzip -c" "xz -c" "bzip2 -c"; do
		$z t.tar >a
		run ts-validate - <a
		assert_success
		# GNU tar's archive holds no manifest: a note says so.
		assert_output "<stdin>:t: valid (0 errors, 0 warnings)
<stdin>:e: valid (0 errors, 0 warnings)
<stdin>: note: it holds no SHA256SUMS manifest: its members could not be verified [A1]
-: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
		cat a | ts-validate - >out 2>/dev/null
		assert_equal "$(cat out)" "<stdin>:t: valid (0 errors, 0 warnings)
<stdin>:e: valid (0 errors, 0 warnings)
-: valid (0 errors, 0 warnings)
2 bundles and 1 archive: 3 valid, 0 invalid"
	done
	$z v7.tar >a
	run ts-validate - <a
	assert_success
	assert_line "-: valid (0 errors, 0 warnings)"
	# A broken bundle in it is found, and named by its member.
	sed -i '5s/^1 1 1/1 9 1/' t/t.tns
	tar -cf - t | zstd -q >a
	ts-validate a >want 2>&1 || true
	run ts-validate - <a
	assert_failure 1
	assert_output "$(sed 's/^a:/<stdin>:/; s/^<stdin>: valid (/-: valid (/' want)"
	assert_output --partial "t/t.tns:5:3: error: coordinate 9 exceeds dimension 3 of mode 2 [S1]"
	# A data file on standard input is still one, compressed or not.
	run ts-validate --meta e/e_metadata.json - <e/e.tns
	assert_success
	zstd -q -c e/e.tns | ts-validate --meta e/e_metadata.json - >out
	assert_equal "$(cat out)" "-: valid (0 errors, 0 warnings)"
}

# ---- long lines (issue 22.2) ----

# longline N: N bytes of 'x'.
longline() {
	head -c "$1" /dev/zero | tr '\0' x
}

@test "ts-validate: a long line through a pipe (120 MB, 250 MB), or one cut in small chunks (20 MB), takes linear time" {
	use text
	# A comment line between the entries of a TensorSuite text file.
	{ head -n 5 t/t.tns; printf '#'; longline 120000000; echo
	  tail -n +6 t/t.tns; } | timeout 20 ts-validate --meta t/t_metadata.json - >out
	assert_equal "$(cat out)" "-: valid (0 errors, 1 warning)"
	# The line after an extended FROSTT file's count line, looked at to
	# tell the dialect.
	{ echo '2 1'; printf '#'; longline 250000000; echo; echo '3 3'
	  echo '1 2 1.5'; } | timeout 20 ts-validate - >out 2>err
	assert_equal "$(cat out)" "-: valid (0 errors, 0 warnings)"
	grep -q 'read as extended FROSTT' err
	# A file parsed by threads: every chunk inside the line finds its
	# end where the first found it.
	{ head -n 5 t/t.tns; printf '#'; longline 20000000; echo
	  tail -n +6 t/t.tns; } >t/t.tns.new
	mv t/t.tns.new t/t.tns
	TS_CHUNK=512 run timeout 20 ts-validate t
	assert_success
	assert_line "t: valid (0 errors, 1 warning)"
}
