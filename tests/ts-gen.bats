#!/usr/bin/env bats
# ts-gen(1): the command line, then the man page in its order: the
# models, exact nnz, the same bytes whatever -j, -S and the kind of
# output, values, the bundle; then the models' laws, checked by
# tests/gen-check.py with numpy and scipy on the data files and ts-stat's
# JSON, never with the generator's own code.
#
# Each test runs in its own $BATS_TEST_TMPDIR.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	CHECK="/usr/bin/python3 $TS_TOP/tests/gen-check.py"
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ---- local helpers ----

# body FILE: the entries of a TensorSuite text file.
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

# ---- the command line ----

@test "ts-gen: -h, --help, -V and --version print to stdout and exit 0" {
	run -0 ts-gen -h
	assert_line --index 0 --partial "usage: ts-gen --model MODEL"
	run -0 ts-gen --help
	assert_line --partial "--duplicates POLICY"
	run -0 ts-gen -V
	assert_output "ts-gen (TensorSuite) 0.1.0"
	run -0 ts-gen --version
	assert_output "ts-gen (TensorSuite) 0.1.0"
}

@test "ts-gen: what the command line cannot mean is a usage error (2), and nothing is written" {
	run -2 ts-gen --dims 3,3 --nnz 2 -o x
	assert_line "ts-gen: give --model"
	run -2 ts-gen --model gauss --dims 3,3 --nnz 2 -o x
	assert_line --partial "ts-gen: --model: 'gauss': expected one of uniform, random, zipf, kronecker"
	run -2 ts-gen --model uniform --nnz 2 -o x
	assert_line "ts-gen: --model uniform: give --dims"
	run -2 ts-gen --model zipf --dims 3,3 -o x
	assert_line "ts-gen: --model zipf: give --nnz"
	run -2 ts-gen --model uniform --dims 3,0 --nnz 2 -o x
	assert_line "ts-gen: --dims: '3,0' is not a list of dimensions like 100,200,300"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 some.tns -o x
	assert_line "ts-gen: --model uniform reads no tensor: 'some.tns' is not for it"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 --sort-order 2,1,3 -o x
	assert_line "ts-gen: --sort-order names 3 modes; the tensor has order 2"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 --symmetric --duplicates allow -o x
	assert_line "ts-gen: --symmetric writes each tuple's orbit once: give --duplicates unique or sum"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 --duplicates sum --dist normal -o x
	assert_line --partial "ts-gen: --duplicates sum makes the values"
	run -2 ts-gen --model zipf --dims 3,3 --nnz 2 --alpha 1,2,3 -o x
	assert_line "ts-gen: --alpha gives 3 exponents; the tensor has order 2"
	run -2 ts-gen --model random --dims 3,3 --nnz 2 --low 5 --high 2 -o x
	assert_line "ts-gen: --low and --high: degrees from 0 up, low at most high (mode 1)"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 --range 2 -o x
	assert_line "ts-gen: --range: '2' is not LO:HI"
	# More distinct coordinates than positions: known before a draw.
	run -2 ts-gen --model uniform --dims 3,3 --nnz 10 --duplicates unique -o x
	assert_line "ts-gen: --nnz 10 distinct coordinates: the tensor has 9 positions"
	run -2 ts-gen --model uniform --dims 3,3,3 --nnz 11 --symmetric -o x
	assert_line "ts-gen: --nnz 11 distinct coordinates: the tensor has 10 positions up to symmetry"
	[ ! -e x ]
	# An existing DST without -f.
	mkdir x
	touch x/keep
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 -o x
	assert_line --partial "'x' is a directory but not a bundle"
	[ -f x/keep ]
}

# ---- the same bytes ----

@test "ts-gen: the same arguments give the same bytes with -j 1 and -j 2, any -S, and in every kind of output" {
	local args
	# A model and a policy each; the last spills its sort past -S 1M.
	for args in "--model uniform --nnz 30000" \
	    "--model random --nnz 30000 --duplicates unique" \
	    "--model zipf --nnz 80000 --duplicates sum"; do
		args="$args --dims 300,200,100 --seed 9"
		ts-gen -q $args -j 1 -o a.tns
		ts-gen -q $args -j 2 -S 1M -o b.tns --name a
		cmp a.tns b.tns
		# A bundle with both data files, and an archive of one,
		# 1-based as the lone files are (P1).
		ts-gen -q $args -j 2 --text --binary --index-base 1 -o a
		cmp a.tns a/a.tns
		ts-gen -q $args -j 1 -o a.tnsb
		cmp a.tnsb a/a.tnsb
		ts-gen -q $args -j 2 --text --binary --index-base 1 -o a.tar.zst
		mkdir x
		ts-pack -q -x a.tar.zst -C x
		cmp a/a.tns x/a/a.tns
		cmp a/a.tnsb x/a/a.tnsb
		rm -r a a.tns b.tns a.tnsb a.tar.zst x
	done
}

# ---- exact nnz ----

# first_distinct N SUM: the first N distinct rows of standard input, and
# with SUM 1 each with the count of its rows up to the N-th distinct one.
first_distinct() {
	awk -v n="$1" -v sum="$2" '{ if (!($0 in c)) k++; c[$0]++ }
	    k == n { exit } END { for (r in c) print r (sum ? " " c[r] : "") }'
}

@test "ts-gen: --duplicates unique holds the first nnz distinct coordinates drawn, sum counts their draws, whatever TS_GEN_DRAWS" {
	local m e
	for m in uniform zipf random; do
		args="--model $m --dims 12,10,8 --nnz 400 --seed 3"
		[ $m = zipf ] && args="$args --alpha 1.5"
		# The draws in their order: uniform's and zipf's first
		# 20000 are those of a tensor of 400 (random's degrees sum to
		# nnz, so that its draws are its own).
		if [ $m = random ]; then
			TS_GEN_DRAWS=2000 ts-gen -q $args --duplicates unique -o wu.tns
			TS_GEN_DRAWS=2000 ts-gen -q $args --duplicates sum -o ws.tns
			body wu.tns >want.u.rows
			body ws.tns >want.s.rows
		else
			ts-gen -q $args --nnz 20000 -o all.tns
			body all.tns | first_distinct 400 0 >want.u.rows
			body all.tns | first_distinct 400 1 >want.s.rows
		fi
		[ "$(wc -l <want.u.rows)" -eq 400 ]
		for e in "" 400 450; do
			TS_GEN_DRAWS=$e ts-gen -q -f $args --duplicates unique -o u.tns
			body u.tns | sort | diff -u <(sort want.u.rows) -
			TS_GEN_DRAWS=$e ts-gen -q -f $args --duplicates sum -o s.tns
			body s.tns | sort | diff -u <(sort want.s.rows) -
		done
		rm -f wu.tns ws.tns all.tns
		# Sorted, in the order asked for.
		ts-gen -q $args --duplicates unique --sort-order 3,1,2 -o k
		valid k
		[ "$(meta k '[.sorted, .sort_order, .duplicates, .nnz]')" = \
		    '["lexicographic",[3,1,2],"disallowed",400]' ]
		rm -r k
	done
}

@test "ts-gen: a model that cannot give nnz distinct coordinates within the draws' budget is status 1, and nothing is written" {
	# 16 positions of the 8 x 8 grid hold nearly all of a steep Zipf
	# law's weight: 60 distinct ones take more draws than the budget.
	run -1 ts-gen --model zipf --dims 8,8 --alpha 40 --nnz 60 --duplicates unique -o z
	assert_line --regexp "^zipf: error: [0-9]+ draws give [0-9]+ distinct coordinates, not 60: the model has too few positions for that nnz$"
	[ ! -e z ]
}

# ---- the bundle ----

@test "ts-gen: a bundle is valid, its metadata says what the model guarantees, its README what was asked and made" {
	ts-gen -q --model zipf --dims 20,30 --nnz 100 --alpha 1.3 --seed 4 --duplicates unique -o z
	valid z
	[ "$(meta z '[.source_type, .values_provided, .duplicates, .sorted, .pattern_symmetry, .nnz, .files]')" = \
	    '["synthetic",false,"disallowed","lexicographic","no",100,{"text":"z.tns","readme":"README.md"}]' ]
	[ "$(meta z .source)" = '"ts-gen 0.1.0: model zipf; dims 20,30; alpha 1.3,1.3; seed 4; nnz 100; duplicates unique"' ]
	grep -qx '    ts-gen -q --model zipf --dims 20,30 --nnz 100 --alpha 1.3 --seed 4 --duplicates unique -o z' z/README.md
	grep -qF -- '- Parameters: model zipf; dims 20,30; alpha 1.3,1.3; seed 4' z/README.md
	grep -qE -- '^- Entries: 100 distinct coordinates, the first 100 of the first [0-9]+ draws$' z/README.md
	grep -qE -- '^- Repeats: [0-9]+ draws? repeated a coordinate drawn before, removed' z/README.md
	# Repeats allowed: said so.
	ts-gen -q --model uniform --dims 2,2 --nnz 50 -o u
	valid u
	[ "$(meta u '[.duplicates, .sorted, .nnz]')" = '["allowed","none",50]' ]
	grep -qF -- '- Entries: 50 draws, repeated coordinates kept as drawn (`duplicates: allowed`)' u/README.md
	# Counts: values, and a binary file beside the text.
	ts-gen -q --model random --dims 5,5 --nnz 10 --duplicates sum --value-type int32 -o s 2>err || true
	cat err
	[ ! -s err ]
	valid s
	[ "$(meta s '[.values_provided, .value_type, .value_domain, .explicit_zeros, .files.binary]')" = \
	    '[true,"int32","nonnegative","disallowed","s.tnsb"]' ]
}

@test "ts-gen: values are those ts-gen-values gives the same pattern, under the same seed" {
	local v
	for v in "--dist normal" "--dist integers --range 1:9 --value-type int64" \
	    "--value-domain binary --binary-zeros 0.3 --explicit-zeros allowed" \
	    "--dist constant --value 2.5"; do
		ts-gen -q -f --model zipf --dims 50,40 --nnz 500 --seed 11 $v -o v.tns
		ts-gen -q -f --model zipf --dims 50,40 --nnz 500 --seed 11 -o p.tns --name v
		ts-gen-values -q -f --seed 11 $v p.tns -o w.tns
		cmp v.tns w.tns
	done
	ts-gen -q --model uniform --dims 9,9 --nnz 30 --dist normal -o b
	valid b
	[ "$(meta b '[.values_provided, .value_type, .value_domain, .files.binary]')" = \
	    '[true,"float64","general","b.tnsb"]' ]
	grep -qF '## Values' b/README.md
}

@test "ts-gen: --symmetric writes every distinct permutation of nnz canonical tuples, sorted, with symmetric values" {
	ts-gen -q --model zipf --dims 7,7,7 --nnz 40 --alpha 1 --symmetric --dist normal -o s
	valid s
	[ "$(meta s '[.pattern_symmetry, .numerical_symmetry, .duplicates, .sorted]')" = \
	    '["full","full","disallowed","lexicographic"]' ]
	# 40 canonical tuples, each with its orbit.
	[ "$(body s/s.tns | awk '{ a = $1; b = $2; c = $3
	    if (a > b) { t = a; a = b; b = t } if (b > c) { t = b; b = c; c = t }
	    if (a > b) { t = a; a = b; b = t } print a, b, c }' |
	    sort -u | wc -l)" -eq 40 ]
	[ "$(meta s .nnz)" -eq "$(body s/s.tns | wc -l)" ]
	run -2 ts-gen --model uniform --dims 7,8 --nnz 4 --symmetric -o t
	assert_line "ts-gen: --symmetric: every dimension must be the same"
}

@test "ts-gen: --permute spreads zipf's heavy slices over the mode, with the same slice counts" {
	ts-gen -q --model zipf --dims 1000 --nnz 20000 --alpha 1.5 -o a.tns
	ts-gen -q --model zipf --dims 1000 --nnz 20000 --alpha 1.5 --permute -o p.tns
	# The heaviest slice is the first without, elsewhere with (a lone
	# file is 1-based).
	[ "$(body a.tns | sort -n | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')" = 1 ]
	[ "$(body p.tns | sort -n | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')" != 1 ]
}

# ---- kronecker ----

@test "ts-gen: kronecker from a seed file: levels drawn from its weights, which the README lists; a file without metadata read 1-based unless --input-base 0" {
	local seed=$DATA/syntensorgen/seeds/tiny_2d_seed.tns
	run -1 ts-gen --model kronecker --levels 3 --nnz 10 "$seed" -o k
	assert_line "$seed:5: error: coordinate 0 of mode 1 in a 1-based file (a file without metadata is read 1-based: --input-base 0 reads it 0-based) [S1]"
	[ ! -e k ]
	ts-gen -q --model kronecker --levels 3 --nnz 10 --input-base 0 "$seed" -o k
	valid k
	[ "$(meta k '[.dimensions, .nnz]')" = '[[8,8],10]' ]
	grep -qF -- '- Seed weights, cell by cell, the last mode fastest: 0.8 0.2 0.2 0.05' k/README.md
	grep -qF -- '- Seed: 4 cells, weights summing to 1.25; 3 levels' k/README.md
	# Its contents make the key, not where it is.
	cp "$seed" elsewhere.tns
	ts-gen -q --model kronecker --levels 3 --nnz 10 --input-base 0 elsewhere.tns -o k3 --name k3
	diff <(grep -v '^%' k3/k3.tns) <(grep -v '^%' k/k.tns)
	# Without --nnz, the weights' sum to the levels: 1.25^3 = 2.
	ts-gen -q --model kronecker --levels 3 --input-base 0 "$seed" -o n.tns
	[ "$(sed -n 4p n.tns)" = "2 8 8 2" ]
	# A bundle seed; a negative weight.
	ts-convert -q --input-base 0 "$seed" -o sb
	ts-gen -q --model kronecker --levels 3 --nnz 10 sb -o k2
	diff <(grep -v '^%' k2/k2.tns) <(grep -v '^%' k/k.tns)
	printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: neg\n2 2 2 2\n1 1 0.5\n2 2 -1\n' >neg.tns
	run -1 ts-gen --model kronecker --levels 2 --nnz 3 neg.tns -o x
	assert_line --partial "neg.tns: error: a seed's weights are finite and not negative: entry 2 holds -1"
	run -2 ts-gen --model kronecker --levels 2 --nnz 3 --cp-rank 2 neg.tns -o x
	assert_line "ts-gen: --model kronecker: give a seed tensor or --cp-rank, not both"
	run -2 ts-gen --model uniform --dims 4,4 --nnz 3 --levels 2 -o x
	assert_line "ts-gen: --levels and --cp-* are for --model kronecker (--cp-rank for poisson-cp too)"
}

@test "ts-gen: kronecker's CP seed, as KronWeave builds it; dimensions that are not the seed's powers, entries drawn again until within them" {
	ts-gen -q --model kronecker --cp-rank 2 --cp-dims 4,4,4 --cp-alpha 1.4 --levels 2 --nnz 200 --seed 42 --duplicates unique -o c
	valid c
	[ "$(meta c '[.dimensions, .nnz]')" = '[[16,16,16],200]' ]
	grep -qF -- '- Parameters: model kronecker; dims 16,16,16; levels 2; seed dims 4,4,4; cp rank 2; cp alpha 1.4,1.4,1.4; cp lambda softmax; seed 42' c/README.md
	# The largest cell is 1 - 1e-12.
	grep -F -- '- Seed weights' c/README.md | grep -qw 0.999999999999
	# 10 x 13 within the 16 x 16 of 2 x 2 seeds to 4 levels.
	ts-gen -q --model kronecker --cp-rank 1 --cp-dims 2,2 --dims 10,13 --nnz 3000 --seed 1 -o r
	valid r
	[ "$(meta r .dimensions)" = '[10,13]' ]
	grep -qE -- '^- Dimensions below the seed.s powers: an entry with a coordinate beyond its dimension is drawn again \([0-9.]+% of the draws fall inside\)$' r/README.md
	# Too few draws inside.
	run -2 ts-gen --model kronecker --cp-rank 1 --cp-dims 2,2 --cp-alpha 4 --dims 2,65536 --levels 20 --nnz 3 -o x
	assert_line --regexp "^ts-gen: --dims: [0-9.e-]+% of the seed's draws fall inside them: give fewer --levels, or dimensions closer to the seed's powers$"
}

# ---- block ----

@test "ts-gen: block: partitions of sizes by law, ceil(density x grid) distinct blocks, sorted, a valid block bundle" {
	local law
	ts-gen -q --model block --partitions 3,4,5 --density 0.3 --seed 7 -o b
	valid b
	[ "$(meta b '[.sparsity_type, .block_partitions, .nnz_block, .values_provided, .sorted, .duplicates, .group, .id, .files]')" = \
	    '["block",[3,4,5],18,false,"lexicographic","disallowed","synthetic","0007",{"text":"b.tns","readme":"README.md"}]' ]
	run $CHECK block 0.3 b
	assert_success
	assert_output ""
	for law in uniform random mixed power_law; do
		ts-gen -q --model block --partitions 7,9 --partition-size 3:40 --partition-law $law --density 0.05 -o $law
		valid $law
		run $CHECK block 0.05 $law
		assert_success
		# Every partition line within 3:40; uniform's one size a mode,
		# mixed's alternately from the low and the high third.
		sed -n 6,7p $law/$law.tns | tr ' ' '\n' | awk '$1 < 3 || $1 > 40 { exit 1 }'
	done
	[ "$(sed -n 6p uniform/uniform.tns | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ]
	sed -n 6p mixed/mixed.tns | awk '{ for (i = 1; i <= NF; i++)
	    if ((i % 2 && $i > 15) || (!(i % 2) && $i < 28)) exit 1 }'
	# A pinned size; cuTENSOR's arrays.
	ts-gen -q --model block --partitions 2,3 --partition-size 8 -o p.json
	[ "$(jq -c .extent p.json)" = '[8,8,8,8,8]' ]
	run -2 ts-gen --model block --partitions 2,3 --dist normal -o x
	assert_line --partial "ts-gen: --model block: its blocks are distinct"
	run -2 ts-gen --model uniform --dims 4 --nnz 2 --density 0.5 -o x
	assert_line "ts-gen: --density is for --model block"
	run -2 ts-gen --model block -o x
	assert_line "ts-gen: --model block: give --partitions N1,...,Nk (or --einsum, or --counts)"
}

@test "ts-gen: block: elements past 2^64-1 are refused (exit 2, nothing written), a block's or the sum's, however many threads sum the blocks" {
	local j
	# One block of 2^66 elements.
	run -2 ts-gen --model block --partitions 1,1,1 --partition-size 4194304 -o x
	assert_output "ts-gen: the blocks would hold more than 2^64-1 elements"
	# 2^19 blocks of 2^45: each thread's half sums to 2^63, the whole
	# to 2^64.
	for j in 1 2 3; do
		run -2 ts-gen -j $j --model block --partitions 128,128,32 \
		    --partition-size 32768 --density 1 -o x
		assert_output "ts-gen: the blocks would hold more than 2^64-1 elements"
	done
	[ ! -e x ]
}

@test "ts-gen: block --einsum: the operand pair DST_A, DST_B, a label's partitions the same in both, with the reference's per-label overrides" {
	local e="ade,afg->defg"
	ts-gen -q --model block --einsum "$e" --label-partition-size "a=4,d=12,e=3,f=12,g=3" \
	    --label-partitions "a=19,d=110,e=20,f=110,g=20" --density 0.02 --seed 7 -o demo
	valid demo_A
	valid demo_B
	run $CHECK block 0.02 demo_A demo_B "$e"
	assert_success
	assert_output ""
	# The shape of the reference's own pair for the same command.
	[ "$(meta demo_A '[.dimensions, .nnz, .block_partitions, .nnz_block, .group, .id]')" = \
	    "$(meta "$DATA/reference/demo_A" '[.dimensions, .nnz, .block_partitions, .nnz_block, .group, .id]')" ]
	[ "$(meta demo_B '[.dimensions, .nnz, .block_partitions, .nnz_block]')" = \
	    "$(meta "$DATA/reference/demo_B" '[.dimensions, .nnz, .block_partitions, .nnz_block]')" ]
	grep -qF 'this bundle is operand **B** (labels `afg`), its companion operand **A** (labels `ade`)' demo_B/README.md
	# Labels drawn: shared ones equal too; count-driven, labels of a to z.
	ts-gen -q --model block --einsum "abc,cbd->ad" --partitions 2:6 --partition-law power_law --seed 1 -o p
	run $CHECK block 0.3 p_A p_B "abc,cbd->ad"
	assert_success
	ts-gen -q --model block --counts 2,1,2,1 --seed 3 -o c.tar.zst
	ts-validate -q c_A.tar.zst c_B.tar.zst
	# One count of partitions is every label's (it divided by zero);
	# a list of them is no label's.
	ts-gen -q --model block --einsum "ab,bc->ac" --partitions 2 --density 0.5 --seed 1 -o two
	[ "$(jq -c .block_partitions two_A/two_A_metadata.json two_B/two_B_metadata.json | paste -sd ' ')" = "[2,2] [2,2]" ]
	run -2 ts-gen --model block --einsum "ab,bc->ac" --partitions 2,3 -o x
	assert_line "ts-gen: --partitions: one count for every label of a contraction, or LO:HI (--label-partitions sets a label's)"
	# Refused: a bad einsum, a pair to a stream, an existing operand.
	run -2 ts-gen --model block --einsum "ab,bc->acd" -o x
	assert_line "ts-gen: --einsum: 'ab,bc->acd': output label 'd' is in neither operand"
	run -2 ts-gen --model block --einsum "abe,bc->ac" -o x
	assert_line --partial "label 'e' is in one operand only and not in the output"
	run -2 ts-gen --model block --einsum "aab,bc->ac" -o x
	assert_line "ts-gen: --einsum: 'aab,bc->ac': label 'a' repeats within an operand"
	run -2 ts-gen --model block --einsum "ab,bc->ac"
	assert_line --partial "ts-gen: --einsum and --counts write two bundles: give -o DST"
	run -2 ts-gen --model block --einsum "ab,bc->ac" --label-partitions "z=3" -o x
	assert_line "ts-gen: --label-partitions, --label-partition-size: no label 'z' in the contraction"
	run -2 ts-gen -q --model block --einsum "$e" -o demo
	assert_line "ts-gen: 'demo_A' exists (-f replaces it)"
	assert_line "ts-gen: 'demo_B' exists (-f replaces it)"
	[ ! -e x_A ] && [ ! -e x_B ]
}

# ---- sbm, poisson-cp, like ----

@test "ts-gen: sbm: communities whose cells draw their density times their volume; nnz the densities' when not given" {
	ts-gen -q --model sbm --dims 200,300,400 --communities 4,3,5 --p-in 0.2 --p-out 0.001 -o s
	valid s
	grep -qF -- '- Parameters: model sbm; dims 200,300,400; communities 4,3,5; p in 0.2; p out 0.001; seed 0' s/README.md
	# The densities give: every cell 50 x 100 x 80; 3 of the 60 inside
	# (the same community in every mode), at 0.2, the rest at 0.001.
	[ "$(meta s .nnz)" -eq $((3 * 400000 / 5 + 57 * 400000 / 1000)) ]
	# The inside cells are denser: the entries of community 0 x 0 x 0
	# against those of 0 x 1 x 2, of the same volume.
	[ "$(body s/s.tns | awk '$1 < 50 && $2 < 100 && $3 < 80' | wc -l)" -gt \
	    "$(( 50 * $(body s/s.tns | awk '$1 < 50 && $2 >= 100 && $2 < 200 && $3 >= 160 && $3 < 240' | wc -l) ))" ]
	run -2 ts-gen --model sbm --dims 3,3 --communities 4 -o x
	assert_line "ts-gen: --communities: mode 1 has 3 coordinates: from 1 to that many communities"
	run -2 ts-gen --model uniform --dims 3,3 --nnz 2 --p-in 0.5 -o x
	assert_line "ts-gen: --communities, --p-in and --p-out are for --model sbm"
}

@test "ts-gen: poisson-cp: counts of a planted CP law, its factors and weights in the bundle; the weights recovered from the entries within 1% (1M entries)" {
	ts-gen -q --model poisson-cp --dims 300,400,500 --cp-rank 4 --nnz 1000000 --seed 3 -o p
	valid p
	[ "$(meta p '[.values_provided, .duplicates, .value_domain, .files.factors]')" = \
	    '[true,"disallowed","nonnegative","p_factors.txt"]' ]
	[ "$(head -n 4 p/p_factors.txt | tr '\n' ' ')" = "ktensor 3 300 400 500 4 " ]
	grep -qF '`p_factors.txt`' p/README.md
	run $CHECK poisson-cp p
	assert_success
	assert_output ""
	# A file DST has no room for the factors: the entries alone.
	ts-gen -q --model poisson-cp --dims 30,40 --nnz 100 -o q.tns
	[ "$(sed -n 4p q.tns)" = "2 30 40 100" ]
}

@test "ts-gen: like: a sibling of each real tensor of tests/data, each mode's slice degrees within a Kolmogorov-Smirnov distance of 0.05 of the original's" {
	local f
	for f in aminoacid matmul_2-2-2 splatt_med; do
		ts-gen -q --model like "$DATA/real/$f.tns" --binary -o $f
		valid $f
		run $CHECK like $f "$DATA/real/$f.tns" auto
		assert_success
		assert_output ""
	done
	[ "$(meta aminoacid '[.dimensions, .nnz, .duplicates]')" = '[[5,201,61],61305,"disallowed"]' ]
	# The knowledge graph holds no values: a pattern of order 4.
	ts-convert -q --no-values "$DATA/real/KG_JF17K_3_ids_1based.tns" -o kg
	ts-gen -q --model like kg --binary -o kgl
	run $CHECK like kgl "$DATA/real/KG_JF17K_3_ids_1based.tns" 1
	assert_success
	assert_output ""
	# Scaled: twice the dimensions and the entries.
	ts-gen -q --model like --scale 2 --duplicates allow "$DATA/real/splatt_med.tns" -o big
	valid big
	[ "$(meta big '[.dimensions, .nnz]')" = '[[4850,21632,59134],200000]' ]
	run -2 ts-gen --model like -o x
	assert_line "ts-gen: --model like: give the tensor it reads"
}

# ---- configuration files ----

@test "ts-gen --config: the reference's configurations give the bundles the reference would, in output_dir/name" {
	local c n
	cp -r "$DATA/syntensorgen" ref
	for c in cp_fastskg_tiny zipf_tiny fastskg_input_seed_tiny; do
		ts-gen -q --config ref/configs/$c.yaml
		valid generated/$c
		cmp ref/configs/$c.yaml generated/$c/config.yaml
		[ "$(meta generated/$c '[.group, .id, .source_type, .duplicates, .sorted, .index_base, .index_type, .values_provided, .value_domain, .files.config, .files.binary]')" = \
		    '["Synthetic","1001","synthetic","disallowed","lexicographic",0,"uint64",true,"binary","config.yaml","'$c'.tnsb"]' ]
		grep -qF "Configuration: \`ref/configs/$c.yaml\`, copied as \`config.yaml\`" generated/$c/README.md
	done
	[ "$(meta generated/cp_fastskg_tiny '[.dimensions, .nnz]')" = '[[16,16,16],200]' ]
	[ "$(meta generated/fastskg_input_seed_tiny '[.dimensions, .nnz]')" = '[[16,16],128]' ]
	# The seed found beside the configuration, wherever ts-gen runs.
	mkdir sub
	(cd sub && ts-gen -q --config ../ref/configs/fastskg_input_seed_tiny.yaml -o ../again)
	diff <(body again/again.tns) \
	    <(body generated/fastskg_input_seed_tiny/fastskg_input_seed_tiny.tns)
	# The element-wise/random generator's, as its random_tiny bundle
	# copied it: allow, 64 x 64 x 64, 4096 entries.
	ts-gen -q --config "$DATA/reference/random_tiny/config.yaml" -o rt
	valid rt
	[ "$(meta rt '[.dimensions, .nnz, .duplicates, .value_domain, .files.config]')" = \
	    '[[64,64,64],4096,"allowed","binary","config.yaml"]' ]
	grep -qF 'model random; dims 64,64,64; low 0,0,0; high 128,128,128' rt/README.md
	# An existing bundle is not replaced without -f.
	run -2 ts-gen -q --config ref/configs/zipf_tiny.yaml
	assert_line --partial "generated/zipf_tiny' exists"
	ts-gen -q -f --config ref/configs/zipf_tiny.yaml
}

@test "ts-gen --config: an unknown key is warned of, a bad value refused at its line and column with its path, and model options do not go with it" {
	cp "$DATA/syntensorgen/configs/zipf_tiny.yaml" z.yaml
	printf 'extra: 1\nformat:\n  colour: red\n' >>z.yaml
	run -0 ts-gen --config z.yaml -o z
	assert_line "z.yaml:42:1: warning: unknown key 'extra': ignored"
	assert_line "z.yaml:44:3: warning: unknown key 'format.colour': ignored"
	sed 's/nnz: 200/nnz: -3/' "$DATA/syntensorgen/configs/zipf_tiny.yaml" >bad.yaml
	run -1 ts-gen --config bad.yaml -o b
	assert_line "bad.yaml:11:8: error: 'tensor.nnz': '-3' is not an integer from 1 to 9223372036854775807"
	[ ! -e b ]
	sed 's/alpha: \[1.4, 1.4, 1.4\]/alpha: [1.4, one, 1.4]/' "$DATA/syntensorgen/configs/zipf_tiny.yaml" >bad.yaml
	run -1 ts-gen --config bad.yaml -o b
	assert_line "bad.yaml:26:16: error: 'zipf.alpha[1]': 'one' is not a number"
	sed 's/policy: keep/policy: merge/' "$DATA/syntensorgen/configs/zipf_tiny.yaml" >bad.yaml
	run -1 ts-gen --config bad.yaml -o b
	assert_line "bad.yaml:34:11: error: 'duplicates.policy': 'merge': expected one of allow, keep, sum"
	printf 'name: x\ngenerator: [a\n' >bad.yaml
	run -1 ts-gen --config bad.yaml -o b
	assert_line --regexp "^bad.yaml:3:1: error: not YAML: "
	run -2 ts-gen --config z.yaml --dims 3,3 -o b
	assert_line "ts-gen: --config gives the model and its parameters: no '--dims'"
	[ ! -e b ]
}

# ---- the models' laws ----

@test "ts-gen: uniform: each mode's slice counts pass a chi-square test (1M entries)" {
	ts-gen -q --model uniform --dims 100,2000,30000 --nnz 1000000 --seed 5 --binary -o u
	run $CHECK uniform u
	assert_success
	assert_output ""
}

@test "ts-gen: random: slice degrees uniform on [low, high] (chi-square), their mean and deviation as ts-stat measures them within 2% (1M entries)" {
	ts-gen -q --model random --dims 1000,500,800 --nnz 1000000 --seed 5 \
	    --low 500,1000,700 --high 1500,3000,1800 --binary -o r
	run bash -c "ts-stat -q --json r | $CHECK random r 500,1000,700 1500,3000,1800"
	assert_success
	assert_output ""
	# The reference's defaults: from 0 to twice the mean.
	ts-gen -q --model random --dims 1000,2000 --nnz 1000000 --seed 6 --binary -o d
	grep -qF 'low 0,0; high 2000,1000' d/README.md
}

@test "ts-gen: kronecker: each mode's marginal is the product over levels of the seed's (chi-square, 1M entries)" {
	{
		printf '%%%%TensorSuite-TNS\n%% version: 0.1\n%% name: s\n3 2 3 2 12\n'
		awk 'BEGIN { srand(5); for (i = 0; i < 2; i++) for (j = 0; j < 3; j++)
		    for (k = 0; k < 2; k++) printf "%d %d %d %.4f\n", i, j, k,
		    0.1 + rand() }'
	} >s.tns
	ts-gen -q --model kronecker --levels 6 --nnz 1000000 --input-base 0 s.tns --binary -o k
	run $CHECK kronecker k s.tns 0
	assert_success
	assert_output ""
}

@test "ts-gen: zipf: each mode's exponent, recovered by discrete maximum likelihood, within 0.05 (1M entries, a tail past the alias table); its slices' power law as ts-stat --fit finds it" {
	ts-gen -q --model zipf --dims 1000,200000,5000 --alpha 1.1,1.2,2.5 --nnz 1000000 --seed 5 --binary -o z
	run $CHECK zipf z 1.1,1.2,2.5
	assert_success
	assert_output ""
	# The slices' degrees of a Zipf law of exponent a follow a power law
	# of exponent 1 + 1/a, as ts-stat --fit measures it.
	run -0 ts-stat -q --json --fit z
	echo "$output" | jq -e '[.modes[].fit.alpha] as $f |
	    [1.1, 1.2, 2.5] | to_entries | all(($f[.key] - 1 - 1 / .value) |
	    fabs < 0.05)'
}
