#!/usr/bin/env bats
# Rule P1 of tensorsuite(5): a data file written without its metadata
# beside it (a pipe, a lone .tns or .tnsb) is 1-based, whatever the base
# of the tensor it came from, so that a pipe between any writer and any
# reader never moves an entry.  The 0-based bundles: the reference's
# random_tiny (values, coordinate 0 in every mode), a value-less copy of
# it, and the reference's block bundle demo_A.
#
# What "unchanged" means is checked without the tools: the expected
# entries are the 0-based source rows with 1 added to each coordinate
# (awk), the actual ones a bundle's rows shifted by the index_base its
# metadata states.

bats_require_minimum_version 1.5.0

setup_file() {
	local r=$BATS_TEST_DIRNAME/data/reference/random_tiny
	export P="$BATS_FILE_TMPDIR/p"
	mkdir -p "$P"
	cp -R "$r" "$P/rt"
	for f in "$P"/rt/random_tiny*; do mv "$f" "${f/random_tiny/rt}"; done
	sed -i 's/"random_tiny/"rt/' "$P/rt/rt_metadata.json"
	sed -i '1,3s/^% name: random_tiny$/% name: rt/' "$P/rt/rt.tns"
	rm -f "$P/rt/rt.tnsb"
	jq --indent 2 '.files.binary = null | .endianness = "none"' \
	    "$P/rt/rt_metadata.json" >"$P/m" && mv "$P/m" "$P/rt/rt_metadata.json"
	# The value-less copy, 0-based as it was.
	awk 'NR > 4 { print $1, $2, $3 }' "$P/rt/rt.tns" |
	    "$TS_BIN/ts-convert" -q --input-base 0 --no-values --dims 64,64,64 \
	    - -o "$P/vl"
	# The expected entries: 1-based rows, coordinates only, in order.
	awk 'NR > 4 { print $1 + 1, $2 + 1, $3 + 1 }' "$P/rt/rt.tns" \
	    >"$P/rt.want"
	awk 'NR > 4 { print $1 + 1, $2 + 1, $3 + 1, $4 }' "$P/rt/rt.tns" \
	    >"$P/rt.want.values"
}

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR"
}

# rows BUNDLE: the bundle's entries as 1-based rows (coordinates only
# with -c), whatever its base.
rows() {
	local c=0 b=$1
	[ "$b" = -c ] && { c=1; b=$2; }
	local n base order
	n=$(basename "$b")
	base=$(jq .index_base "$b/${n}_metadata.json")
	order=$(jq .order "$b/${n}_metadata.json")
	"$TS_BIN/ts-convert" -q "$b" -o - --to frostt --index-base "$base" |
	    awk -v s=$((1 - base)) -v o="$order" -v c="$c" '{
		for (i = 1; i <= o; i++) $i += s
		if (c) NF = o
		print }'
}

# The writers: each prints the bundle to stdout without its metadata.
write_convert_tns() { ts-convert -q "$1" -o - --to tns; }
write_convert_lone() { ts-convert -q -f "$1" -o lone.tns.gz && zcat lone.tns.gz; }
write_sort() { ts-sort -q -k 1,2,3 "$1" -o - --to tns; }

@test "P1: a 0-based bundle's stream is 1-based, and a lone file too" {
	run -0 ts-convert -q "$P/rt" -o - --to tns
	[[ ${lines[4]} == "1 1 31 "* ]]
	run -0 ts-convert -q "$P/rt" -o lone.tnsb
	run -0 ts-convert -q --input-index-type uint64 --input-value-type \
	    float64 --input-endian little --input-base 1 lone.tnsb -o b
	diff -u "$P/rt.want" <(rows -c b)
	# --index-base 0 is obeyed, with a warning naming the rule.
	run -0 --separate-stderr ts-convert "$P/rt" -o - --to tns \
	    --index-base 0
	[[ ${lines[4]} == "0 0 30 "* ]]
	[[ $stderr == *"needs --input-base 0 [P1]"* ]]
}

@test "P1: every writer into every reader keeps the entries" {
	local w
	for w in write_convert_tns write_convert_lone write_sort; do
		# ts-convert and ts-sort: the same tensor, 1-based.
		$w "$P/rt" | ts-convert -q - -o "c-$w"
		diff -u "$P/rt.want.values" <(rows "c-$w")
		$w "$P/rt" | ts-sort -q - -o "s-$w"
		diff -u "$P/rt.want.values" <(rows "s-$w")
		# ts-validate: in range (a shifted stream has a coordinate 0).
		$w "$P/rt" | ts-validate -q -
		# ts-stat: the figures of the bundle itself.
		$w "$P/rt" | ts-stat -q --json - | jq -c \
		    '[.nnz, .repeats, .dimensions, [.modes[] | del(.used)]]' \
		    >got
		ts-stat -q --json "$P/rt" | jq -c \
		    '[.nnz, .repeats, .dimensions, [.modes[] | del(.used)]]' \
		    >want
		diff -u want got
	done
	# ts-gen-values, reading and writing a stream: the coordinates.
	ts-convert -q "$P/vl" -o - --to tns | ts-gen-values -q - -o - |
	    ts-convert -q - -o g
	diff -u "$P/rt.want" <(rows -c g)
	ts-gen-values -q "$P/vl" -o - | ts-sort -q - -o g2
	diff -u "$P/rt.want" <(rows -c g2)
	# A stream read with its 0-based bundle's metadata: --input-base 1.
	ts-sort -q "$P/rt" -o - --to tns | ts-convert -q --meta \
	    "$P/rt/rt_metadata.json" --input-base 1 - -o m
	[ "$(jq .index_base m/m_metadata.json)" = 0 ]
	diff -u "$P/rt.want.values" <(rows m)
}

@test "P1: a block bundle's stream carries its block coordinates 1-based" {
	local a=$DATA/reference/demo_A
	# A block stream needs its metadata to be read (its header does not
	# say it holds blocks); the base comes from --input-base.
	ts-convert -q "$a" -o - --to tns | ts-convert -q --meta \
	    "$a/demo_A_metadata.json" --input-base 1 - -o b
	diff -u <(awk 'NR > 9' "$a/demo_A.tns") <(tail -n +10 b/b.tns)
	diff -u <(awk 'NR > 9 { print $1 + 1, $2 + 1, $3 + 1 }' \
	    "$a/demo_A.tns") <(ts-convert -q "$a" -o - --to tns | tail -n +10)
}
