#!/bin/sh
# make bench: throughput and peak memory of the toolkit on two generated
# order-3 tensors of 20 million entries (about 700 MB of text each), with
# the ratio to standard tools on the same file in the same run:
#
#   friendly  sorted, dimensions 2000^3 (1-4 digit coordinates);
#   wide      unsorted (a random order), 100000 x 80000 x 2000 (5-6
#             digit coordinates), as real collections look.
#
# On the wide tensor the passes of issue 21 are timed against the build
# of a baseline commit (BENCH_BASE, default e1c0001), made from git once
# in $dir/base/COMMIT: the baseline and this build in turns, best of N
# each, so that both meet the same load; their outputs are compared with
# cmp.  The table at the end gives each pass's speed-up, its target and
# whether it is met.
#
# ts-stat is timed beside ts-validate on the same bundle (issue 18:
# within 1.3x; issue 21: 1.2x).  Then the friendly tensor with a binary
# file too, packed by ts-pack against tar | zstd -T2 -3, and checked
# inside its archive against zstd -dc plus ts-validate of the bundle
# unpacked.
#
# Then ts-gen-values on the wide tensor's coordinates without values,
# against ts-convert of the same value-less file; the friendly tensor to
# and from .npz and .bsp.npz against tnsb to tnsb (npz below), and from
# binsparse in HDF5 against .tnsb to .tnsb (binsparse below).  Last,
# ts-gen (tsgen below), against cat, ts-sort and the reference generator;
# and ts-stat against ts-validate on the sorted and the wide tensors, with
# --fit and --fibers, and the library's reader alone with and without
# converting the values (tests/bench/read-values.c: what ts-stat pays
# before any statistic; statrows below).
#
# ts-pack is also timed with the checks of every entry it makes as it
# packs (the default) against --quick, which reads only the headers
# (issue 30.5: at most 5 % more).
#
# Usage: scripts/bench.sh BUILD-DIR   (BENCH_N, BENCH_DIR, BENCH_GNU_SORT=0,
# BENCH_BASE=COMMIT or empty for none, BENCH_ONLY=same|friendly|wide|
# colbin|archives|genvalues|npz|binsparse|gen|stat, BENCH_TURNS override,
# SYNTENSORGEN=DIR)
#
# The rows compared (against the baseline, or ts-stat and ts-gen-values
# against the pass they ride on) take the best of BENCH_TURNS turns
# each (default 5): on a virtual machine whose host backs the guest's
# freed memory lazily (free page reporting), a run that is handed fresh
# pages pays for them first, at a cost the header line "fresh memory"
# measures, and which run that is changes from turn to turn.
set -eu

build=${1:-build}
n=${BENCH_N:-20000000}
turns=${BENCH_TURNS:-5}
dir=${BENCH_DIR:-$build/bench}
bin="$build/bin"
export LC_ALL=C

[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
cc=${CC:-cc}
mkdir -p "$dir"
t21="$dir/issue21.txt"	# the rows of the closing table
: >"$t21"

# The baseline: the tree of commit $base built in $dir/base/COMMIT, once
# (a failed build is not kept).  $old is its bin directory, empty when
# there is none (no git, or BENCH_BASE empty).
base=${BENCH_BASE-e1c0001}
old=
if [ -n "$base" ]; then
	if commit=$(git rev-parse --verify -q "$base^{commit}" 2>/dev/null); then
		bd="$dir/base/$commit"
		if [ ! -x "$bd/build/bin/ts-validate" ]; then
			echo "building the baseline $base ($commit) in $bd (once)..."
			rm -rf "$bd"
			mkdir -p "$bd"
			git archive "$commit" | tar -x -C "$bd"
			MAKEFLAGS= make -C "$bd" -j2 BUILD=build CC="$cc" all \
			    >"$bd.log" 2>&1 || {
				echo "bench: the baseline does not build: see $bd.log" >&2
				rm -rf "$bd"
				exit 1
			}
		fi
		old="$bd/build/bin"
		oldlib="$bd/build/libtensorsuite.a"
	else
		echo "bench: no commit '$base' here: no baseline (BENCH_BASE=)" >&2
	fi
fi

# The tensors are written by the baseline's encoder when there is one,
# so that they stay the same bytes whatever this build does.
genlib=${oldlib:-$build/libtensorsuite.a}
if [ ! -x "$dir/gen-tensor" ] || [ tests/bench/gen-tensor.c -nt "$dir/gen-tensor" ] ||
    [ "$genlib" -nt "$dir/gen-tensor" ]; then
	$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc/lib \
	    -o "$dir/gen-tensor" tests/bench/gen-tensor.c "$genlib" \
	    $(pkg-config --libs jansson libarchive libcrypto libzstd zlib hdf5) -lm -lpthread
fi

# read-values: the library's reader alone, for ts-stat's rows (this
# build's library: what it costs to convert the values).
$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc/lib \
    -o "$dir/read-values" tests/bench/read-values.c "$build/libtensorsuite.a" \
    $(pkg-config --libs jansson libzstd zlib) -lm -lpthread

if [ ! -x "$dir/touch" ] || [ tests/bench/touch.c -nt "$dir/touch" ]; then
	$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	    -o "$dir/touch" tests/bench/touch.c
fi

# gen NAME COUNT [DIMS [unsorted] [novalues]]: the bundle $dir/NAME,
# generated once.
gen() {
	name=$1 cnt=$2; shift 2
	if [ ! -s "$dir/$name/$name.tns" ] || [ ! -s "$dir/$name/${name}_metadata.json" ]; then
		echo "generating $cnt entries in $dir/$name (once)..."
		mkdir -p "$dir/$name"
		"$dir/gen-tensor" "$dir/$name" "$name" "$cnt" "$@"
	fi
}

# Before each timed run, the files earlier runs wrote go to disk, so that
# no write-back of theirs competes with the run for the two cores; then
# the output it replaces is removed, so that the pages it frees are the
# ones the run writes into.  (The other way round, the pages freed wait
# through the write-back: a virtual machine that reports free memory to
# its host (free page reporting) gives them back, and the run pays for
# fresh ones, up to a second for 700 MB here, on one side of a duel and
# not the other.)
settle() { sync; }

# run REPS CMD...: best wall time of REPS runs, peak RSS; $rm (if set)
# is removed before each, untimed; standard output goes to $stdout.  A
# failing command stops the bench, unless $fail_ok is set (ts-validate
# of an invalid file exits 1).
best_t= best_m= rm= fail_ok= stdout=/dev/null
run() {
	nrun=$1; shift
	best_t=999999; best_m=0
	i=0
	while [ $i -lt "$nrun" ]; do
		settle
		[ -z "$rm" ] || rm -rf "$rm"
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" >"$stdout" 2>"$dir/err.out" ||
		    [ -n "$fail_ok" ] || {
			echo "bench: command failed: $*" >&2; cat "$dir/err.out" >&2; exit 1; }
		t=$(tail -n 1 "$dir/time.out" | awk '{print $1}')
		m=$(tail -n 1 "$dir/time.out" | awk '{print $2}')
		best_t=$(echo "$t $best_t" | awk '{ print ($1 < $2) ? $1 : $2 }')
		best_m=$(echo "$m $best_m" | awk '{ print ($1 > $2) ? $1 : $2 }')
		i=$((i + 1))
	done
}

# duel REPS EXT CMD: the command line CMD (sh syntax) of the baseline
# ($against, when set) and of this build in turns, REPS times each; @B@
# in it is the bin directory, @O@ an output path ending in EXT, removed
# before each run (untimed) and kept after the last as $out/old.EXT and
# $out/new.EXT.  Sets t_old m_old t_new m_new (best time, peak RSS);
# without a baseline only this build runs and t_old is empty.
against=
duel() {
	nturn=$1 ext=$2 tpl=$3
	t_old=999999 m_old=0 t_new=999999 m_new=0
	j=0
	while [ $j -lt "$nturn" ]; do
		for side in old new; do
			if [ $side = old ]; then d_bin=$against; else d_bin=$bin; fi
			[ -n "$d_bin" ] || continue
			d_out="$out/$side.$ext"
			rm=$d_out
			run 1 sh -c "exec $(printf '%s' "$tpl" | sed "s|@B@|$d_bin|g; s|@O@|$d_out|g")"
			rm=
			if [ $side = old ]; then
				t_old=$(echo "$best_t $t_old" | awk '{ print ($1 < $2) ? $1 : $2 }')
				m_old=$(echo "$best_m $m_old" | awk '{ print ($1 > $2) ? $1 : $2 }')
			else
				t_new=$(echo "$best_t $t_new" | awk '{ print ($1 < $2) ? $1 : $2 }')
				m_new=$(echo "$best_m $m_new" | awk '{ print ($1 > $2) ? $1 : $2 }')
			fi
		done
		j=$((j + 1))
	done
	[ -n "$against" ] || t_old=
}

# same EXT: the outputs of the last duel are the same bytes (or there was
# no baseline); removes them.
same() {
	if [ -n "$against" ] && ! cmp -s "$out/old.$1" "$out/new.$1"; then
		echo "bench: the baseline and this build wrote different $1 files" >&2
		cmp "$out/old.$1" "$out/new.$1" >&2 || :
		exit 1
	fi
	rm -f "$out/old.$1" "$out/new.$1"
}

row() {
	printf '%-34s %8.2f %9.0f %11.1f %9.1f\n' "$1" "$2" \
	    "$(echo "$bytes $2" | awk '{ print $1 / 1e6 / ($2 > 0 ? $2 : 0.001) }')" \
	    "$(echo "$n $2" | awk '{ print $1 / 1e6 / ($2 > 0 ? $2 : 0.001) }')" \
	    "$(echo "$3" | awk '{ print $1 / 1024 }')"
}

ratio() { echo "$1 $2" | awk '{ printf "%.2f", $1 / ($2 > 0 ? $2 : 0.001) }'; }
met() { if [ "$(echo "$1" | awk "{ print ($2) ? 1 : 0 }")" = 1 ]; then echo met; else echo "NOT met"; fi; }
mib() { echo "$1" | awk '{ printf "%.0f", $1 / 1024 }'; }

# t21row KEY PASS OLD NEW RATIO TARGET MET: a row of the closing table,
# which is in the order of the keys (the issue's).
t21row() {
	printf '%s %-40s %7s %7s %8s  %-26s %s\n' "$@" >>"$t21"
}

# drow LABEL: the two rows of the last duel.
drow() {
	[ -z "$t_old" ] || row "$1 ($base)" "$t_old" "$m_old"
	row "$1" "$t_new" "$m_new"
}

# suite NAME: every row for bundle $dir/NAME; against the baseline when
# $2 is "vs".
suite() {
	name=$1 vs=${2:-}
	b="$dir/$name"
	file="$b/$name.tns"
	meta="$b/${name}_metadata.json"
	bytes=$(stat -c %s "$file")
	mb=$(echo "$bytes" | awk '{ printf "%.1f", $1 / 1e6 }')
	[ "$vs" = vs ] && [ -n "$old" ] || vs=
	against=${vs:+$old}
	echo
	echo "== $name: $file: $n entries, $mb MB, $(nproc) cores, $(grep -q '"sorted": "none"' "$meta" && echo unsorted || echo sorted)"
	cat "$file" >/dev/null	# warm the page cache for every contender
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	run 3 wc -l "$file"; t_wc=$best_t; row "wc -l" "$best_t" "$best_m"
	if [ -n "$vs" ]; then
		# Duplicates disallowed: the unsorted file is sorted by the
		# checks (issue 21: 1.4x faster, in the same memory).
		duel "$turns" txt "@B@/ts-validate '$b' >'@O@'"
		same txt
		drow "ts-validate"
		t_val=$t_new; m_val=$m_new
		t21row 4 "ts-validate, unsorted" "$t_old" "$t_new" "$(ratio "$t_old" "$t_new")x" \
		    ">= 1.4x, peak <= $(mib "$m_old") MiB" \
		    "$(met "$t_old $t_new $m_old $m_new" '$1 >= 1.4 * $2 && $4 <= 1.01 * $3') (peak $(mib "$m_new") MiB)"
	else
		run 3 "$bin/ts-validate" -q "$b"; t_val=$best_t; m_val=$best_m
		row "ts-validate" "$best_t" "$best_m"
	fi
	run 1 "$bin/ts-validate" -q -S 64M -T "$dir" "$b"; t_val64=$best_t; m_val64=$best_m
	row "ts-validate -S 64M" "$best_t" "$best_m"
	run 3 "$bin/ts-validate" -q --quick "$b"; row "ts-validate --quick" "$best_t" "$best_m"
	# ts-stat rides on the checks' pass: its ratio to ts-validate, in
	# turns so that both meet the same load.
	t_stat=999999 m_stat=0 t_valx=999999 k=0
	while [ $k -lt "$turns" ]; do
		run 1 "$bin/ts-validate" -q "$b"
		t_valx=$(echo "$best_t $t_valx" | awk '{ print ($1 < $2) ? $1 : $2 }')
		run 1 "$bin/ts-stat" -q "$b"
		t_stat=$(echo "$best_t $t_stat" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_stat=$(echo "$best_m $m_stat" | awk '{ print ($1 > $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	row "ts-stat" "$t_stat" "$m_stat"
	rm="$out/copy.tns"
	run 3 sh -c "cat '$file' > '$out/copy.tns'"; t_cat=$best_t; rm=
	row "cat > file" "$best_t" "$best_m"
	rm -f "$out/copy.tns"	# each output goes once checked: less to cache
	# The binary file the printing rows read: this build's, checked
	# against the baseline's.
	duel "$turns" tnsb "@B@/ts-convert '$file' -o '@O@'"
	t_tb=$t_new; m_tb=$m_new
	drow "ts-convert tns -> tnsb"
	[ -z "$vs" ] || t21row 2 "ts-convert tns -> tnsb (parsing)" "$t_old" "$t_new" \
	    "$(ratio "$t_old" "$t_new")x" ">= 1.6x" "$(met "$t_old $t_new" '$1 >= 1.6 * $2')"
	[ -z "$vs" ] || cmp -s "$out/old.tnsb" "$out/new.tnsb" || {
		echo "bench: the baseline and this build wrote different tnsb files" >&2; exit 1; }
	rm -f "$out/old.tnsb"
	mv "$out/new.tnsb" "$out/b.tnsb"
	duel "$turns" tns "@B@/ts-convert '$out/b.tnsb' --meta '$meta' -o '@O@'"
	t_bt=$t_new; m_bt=$m_new
	drow "ts-convert tnsb -> tns"
	cmp -s "$out/new.tns" "$file" || { echo "bench: tns -> tnsb -> tns changed the file" >&2; exit 1; }
	same tns
	if [ -n "$vs" ] && command -v taskset >/dev/null; then
		# The same on one core: what the second one brings.
		rm="$out/b.tns"
		run 3 taskset -c 0 "$bin/ts-convert" "$out/b.tnsb" --meta "$meta" -o "$out/b.tns"
		rm=
		rm -f "$out/b.tns"
		t_bt1=$best_t
		row "ts-convert tnsb -> tns, 1 core" "$best_t" "$best_m"
		t21row 0 "ts-convert tnsb -> tns (printing)" "$t_old" "$t_new" \
		    "$(ratio "$t_old" "$t_new")x" ">= 2.2x" "$(met "$t_old $t_new" '$1 >= 2.2 * $2')"
		t21row 1 "  the same, 1 core against 2" "$t_bt1" "$t_new" "$(ratio "$t_bt1" "$t_new")x" \
		    ">= 1.6x" "$(met "$t_bt1 $t_new" '$1 >= 1.6 * $2')"
	fi
	# Sorting by mode 3 first, so that even the sorted input moves.
	duel "$turns" tns "@B@/ts-sort -q -k 3,1,2 --meta '$meta' '$file' -o '@O@'"
	t_st=$t_new; m_st=$m_new
	drow "ts-sort -k 3,1,2 tns"
	[ -z "$vs" ] || t21row 5 "ts-sort -k 3,1,2, tns -> tns" "$t_old" "$t_new" \
	    "$(ratio "$t_old" "$t_new")x" ">= 1.5x, peak <= $(mib "$m_old") MiB" \
	    "$(met "$t_old $t_new $m_old $m_new" '$1 >= 1.5 * $2 && $4 <= 1.01 * $3') (peak $(mib "$m_new") MiB)"
	[ -z "$vs" ] || cmp -s "$out/old.tns" "$out/new.tns" || {
		echo "bench: the baseline and this build sort differently" >&2; exit 1; }
	rm -f "$out/old.tns"
	mv "$out/new.tns" "$out/sorted.tns"
	rm="$out/s.tns"
	run 2 "$bin/ts-sort" -q -k 3,1,2 -S 256M -T "$out" --meta "$meta" "$file" -o "$out/s.tns"; t_sx=$best_t
	row "ts-sort -S 256M (external)" "$best_t" "$best_m"
	rm=
	cmp -s "$out/s.tns" "$out/sorted.tns" || { echo "bench: the external sort differs" >&2; exit 1; }
	rm -f "$out/s.tns"
	rm="$out/s.tnsb"
	run 2 "$bin/ts-sort" -q -k 3,1,2 --meta "$meta" "$out/b.tnsb" -o "$out/s.tnsb"; t_sb=$best_t
	row "ts-sort -k 3,1,2 tnsb" "$best_t" "$best_m"
	rm=
	t_gnu=
	if [ "${BENCH_GNU_SORT:-1}" = 1 ]; then
		tail -n +5 "$file" > "$out/rows.txt"
		run 1 sh -c "sort -s -t ' ' -k3,3n -k1,1n -k2,2n --parallel=2 -S 25% -T '$out' '$out/rows.txt' > '$out/gnu.txt'"
		t_gnu=$best_t; row "GNU sort -k3n -k1n -k2n" "$best_t" "$best_m"
		tail -n +5 "$out/sorted.tns" | cmp -s - "$out/gnu.txt" ||
		    { echo "bench: ts-sort and GNU sort disagree" >&2; exit 1; }
	fi
	rm -rf "$out"
	t_np=
	if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
		run 1 /usr/bin/python3 -c "import numpy, sys; numpy.loadtxt(sys.argv[1], skiprows=4)" "$file"
		t_np=$best_t; row "numpy.loadtxt" "$best_t" "$best_m"
	else
		echo "(numpy not installed: no numpy.loadtxt comparison)"
	fi
	echo
	echo "ts-validate: $(ratio "$t_val" "$t_wc")x the time of wc -l," \
	    "$(ratio "$t_val" "$t_st")x the time of ts-sort" \
	    "$( [ -n "$t_np" ] && echo "; $(ratio "$t_np" "$t_val")x faster than numpy.loadtxt")"
	echo "ts-convert: tns -> tnsb $(ratio "$t_tb" "$t_wc")x the time of wc -l" \
	    "$( [ -n "$t_np" ] && echo ", $(ratio "$t_np" "$t_tb")x faster than numpy.loadtxt");" \
	    "tnsb -> tns $(ratio "$t_bt" "$t_cat")x the time of cat > file"
	[ -n "$t_gnu" ] && echo "ts-sort: $(ratio "$t_gnu" "$t_st")x faster than GNU sort (in memory)," \
	    "$(ratio "$t_gnu" "$t_sx")x with -S 256M"
	echo "targets: ts-validate <= 1.2x ts-sort ($(met "$t_val $t_st" '$1 <= 1.2 * $2')), peak <= ts-sort's" \
	    "($(met "$m_val $m_st" '$1 <= $2')); -S 64M peak < 128 MiB ($(met "$m_val64" '$1 / 1024 < 128'))"
	[ -n "$t_np" ] && echo "targets: tns -> tnsb >= 7x faster than numpy.loadtxt ($(met "$t_np $t_tb" '$1 >= 7 * $2'))," \
	    "within 6x of wc -l ($(met "$t_tb $t_wc" '$1 <= 6 * $2')); ts-sort tns <= 2.5 s ($(met "$t_st" '$1 <= 2.5'))"
	echo "ts-stat: $(ratio "$t_stat" "$t_valx")x the time of ts-validate on the same bundle;" \
	    "target <= 1.2x ($(met "$t_stat $t_valx" '$1 <= 1.2 * $2')), peak $(mib "$m_stat") MiB"
	[ -z "$vs" ] || t21row 8 "ts-stat / ts-validate (this build)" "$t_valx" "$t_stat" \
	    "$(ratio "$t_stat" "$t_valx")x" "<= 1.2x" "$(met "$t_stat $t_valx" '$1 <= 1.2 * $2')"
	echo "converting peak memory < 64 MiB ($(met "$m_tb $m_bt" '$1 / 1024 < 64 && $2 / 1024 < 64'))"
	return 0
}

# sorted NAME: the wide tensor's entries in order (issue 21: validating
# a sorted bundle 1.7x faster), against the baseline.
sorted() {
	name=$1
	b="$dir/$name"
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	bytes=$(stat -c %s "$b/$name.tns")
	echo
	echo "== $name: $b: the wide tensor's $n entries in order, $(echo "$bytes" |
	    awk '{ printf "%.1f", $1 / 1e6 }') MB, $(nproc) cores"
	cat "$b/$name.tns" >/dev/null
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	against=$old
	duel "$turns" txt "@B@/ts-validate '$b' >'@O@'"
	same txt
	drow "ts-validate"
	[ -z "$t_old" ] || t21row 3 "ts-validate, sorted" "$t_old" "$t_new" \
	    "$(ratio "$t_old" "$t_new")x" ">= 1.7x" "$(met "$t_old $t_new" '$1 >= 1.7 * $2')"
	rm -rf "$out"
}

# gnu5m NAME: ts-sort -k 3,1,2 against GNU sort on the 5M-entry tensor
# (issue 21: ten times faster).
gnu5m() {
	name=$1
	file="$dir/$name/$name.tns"
	meta="$dir/$name/${name}_metadata.json"
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	bytes=$(stat -c %s "$file")
	echo
	echo "== $name: $file: $m5 entries, $(echo "$bytes" |
	    awk '{ printf "%.1f", $1 / 1e6 }') MB, $(nproc) cores, unsorted"
	cat "$file" >/dev/null
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	tail -n +5 "$file" >"$out/rows.txt"
	rm="$out/gnu.txt"
	run 1 sh -c "LC_ALL=C sort --parallel=2 -s -t ' ' -k3,3n -k1,1n -k2,2n -S 25% -T '$out' '$out/rows.txt' > '$out/gnu.txt'"
	rm=
	t_gnu=$best_t; row "GNU sort -k3n -k1n -k2n" "$best_t" "$best_m"
	rm="$out/s.tns"
	run "$turns" "$bin/ts-sort" -q -k 3,1,2 --meta "$meta" "$file" -o "$out/s.tns"
	rm=
	t_s5=$best_t; row "ts-sort -k 3,1,2" "$best_t" "$best_m"
	tail -n +5 "$out/s.tns" | cmp -s - "$out/gnu.txt" ||
	    { echo "bench: ts-sort and GNU sort disagree" >&2; exit 1; }
	t21row 6 "ts-sort 5M against GNU sort" "$t_gnu" "$t_s5" "$(ratio "$t_gnu" "$t_s5")x" \
	    ">= 10x" "$(met "$t_gnu $t_s5" '$1 >= 10 * $2')"
	rm -rf "$out"
}

# sameall: every data file and bundle of tests/data and share/, through
# the passes of issue 21 (to .tnsb, to .tns, to a bundle with both, its
# .tnsb back to text, sorts by the modes in reverse, the checks) by the
# baseline and by this build: the same exit statuses, and the same bytes
# where they succeed (but for a bundle's README, which quotes the command
# line).
st() {
	what=$1; shift
	"$@" >/dev/null 2>&1 && echo "$what 0" || echo "$what $?"
}
sameall() {
	sd="$dir/same"
	nf=0 nd=0
	rm -rf "$sd"; mkdir -p "$sd"
	for f in $(find tests/data share -name '*.tns' -o -name '*.tnsb' -o -name '*.mtx' \
	    -o -name '*.tns.gz' -o -name '*_metadata.json' | LC_ALL=C sort); do
		case $f in
		*_metadata.json) f=${f%/*}
			[ -f "$f/${f##*/}_metadata.json" ] || continue ;;
		esac
		nf=$((nf + 1))
		for side in old new; do
			if [ $side = old ]; then b=$old; else b=$bin; fi
			o="$sd/$side"
			mkdir -p "$o"
			{
				st tnsb "$b/ts-convert" -q "$f" -o "$o/a.tnsb"
				st tns "$b/ts-convert" -q "$f" -o "$o/a.tns"
				st bundle "$b/ts-convert" -q "$f" -o "$o/bd" --text --binary
				[ ! -f "$o/bd/bd.tnsb" ] || st back "$b/ts-convert" -q \
				    "$o/bd/bd.tnsb" --meta "$o/bd/bd_metadata.json" -o "$o/b.tns"
				st sort3 "$b/ts-sort" -q -k 3,2,1 "$f" -o "$o/s3.tns"
				st sort2 "$b/ts-sort" -q -k 2,1 "$f" -o "$o/s2.tns"
				st validate "$b/ts-validate" -q "$f"
			} >"$o/status"
		done
		for x in status a.tnsb a.tns bd b.tns s3.tns s2.tns; do
			if [ -e "$sd/old/$x" ] || [ -e "$sd/new/$x" ]; then
				diff -r -x README.md "$sd/old/$x" "$sd/new/$x" >/dev/null 2>&1 || {
					echo "bench: $f: the baseline and this build differ in $x" >&2
					nd=$((nd + 1))
				}
			fi
		done
		rm -rf "$sd/old" "$sd/new"
	done
	rm -rf "$sd"
	echo
	echo "== the same bytes: $nf files and bundles of tests/data and share/, seven passes each," \
	    "baseline $base and this build: $nd differences"
	[ "$nd" -eq 0 ] || exit 1
}

# archives NAME: the bundle $dir/NAME with a binary file too (made once,
# in $dir/pack), packed by ts-pack and by tar | zstd -T2 -3 in the same
# run (issue 10: no slower, the size within 2%); then checked inside the
# archive, against undoing it with zstd plus checking it unpacked.
archives() {
	name=$1
	pk="$dir/pack"
	if [ ! -s "$pk/$name/$name.tnsb" ]; then
		echo "adding a binary file to $name in $pk (once)..."
		rm -rf "$pk"; mkdir -p "$pk"
		"$bin/ts-convert" -q "$dir/$name" -o "$pk/$name" --text --binary
	fi
	arc="$dir/arc"
	rm -rf "$arc"; mkdir -p "$arc"
	bytes=$(cat "$pk/$name"/* | wc -c)
	echo
	echo "== archives: $pk/$name, text and binary, $(echo "$bytes" |
	    awk '{ printf "%.1f", $1 / 1e6 }') MB, $(nproc) cores"
	cat "$pk/$name"/* >/dev/null
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	rm="$arc/tar.tar.zst"
	run 2 sh -c "tar -C '$pk' -cf - '$name' | zstd -q -T2 -3 >'$arc/tar.tar.zst'"
	t_tz=$best_t; row "tar -c | zstd -T2 -3" "$best_t" "$best_m"
	# Against the baseline's ts-pack in turns (issue 19: the checksums
	# and the manifest cost at most 5 %); its archive is kept as ours.
	against=$old out=$arc
	duel "$turns" tar.zst "@B@/ts-pack -q -o @O@ '$pk/$name'"
	drow "ts-pack -o .tar.zst"
	t_pk=$t_new t_pko=$t_old
	mv "$arc/new.tar.zst" "$arc/pack.tar.zst"; rm -f "$arc/old.tar.zst"
	# The same with one zstd worker, so that a core is free for the
	# thread that hashes: what the checksums cost where they need not
	# share the cores with compression (on a 2-core machine above, the
	# two workers take both).
	duel 2 tar.zst "@B@/ts-pack -q -j 1 -o @O@ '$pk/$name'"
	drow "ts-pack -j 1 -o .tar.zst"
	t_pk1=$t_new t_pko1=$t_old
	rm -f "$arc/new.tar.zst" "$arc/old.tar.zst"
	# The checks of every entry as it is packed (issue 30.5: at most 5 %
	# of packing's time), against --quick, which reads the headers
	# only: in turns, so that both meet the same load, with the zstd
	# workers of the default and with one, which leaves a core free.
	for jj in "" 1; do
		t_pq=999999 t_ps=999999 k=0
		while [ $k -lt "$turns" ]; do
			rm="$arc/q.tar.zst"
			run 1 "$bin/ts-pack" -q --quick ${jj:+-j $jj} -o "$arc/q.tar.zst" "$pk/$name"
			t_pq=$(echo "$best_t $t_pq" | awk '{ print ($1 < $2) ? $1 : $2 }'); m_pq=$best_m
			rm="$arc/s.tar.zst"
			run 1 "$bin/ts-pack" -q ${jj:+-j $jj} -o "$arc/s.tar.zst" "$pk/$name"
			t_ps=$(echo "$best_t $t_ps" | awk '{ print ($1 < $2) ? $1 : $2 }'); m_ps=$best_m
			rm=
			k=$((k + 1))
		done
		cmp -s "$arc/q.tar.zst" "$arc/s.tar.zst" || {
			echo "bench: ts-pack wrote other bytes with its checks" >&2; exit 1; }
		rm -f "$arc/q.tar.zst" "$arc/s.tar.zst"
		row "ts-pack --quick${jj:+ -j $jj} (headers)" "$t_pq" "$m_pq"
		row "ts-pack${jj:+ -j $jj} (every entry)" "$t_ps" "$m_ps"
		if [ -z "$jj" ]; then t_pq0=$t_pq t_ps0=$t_ps; else t_pq1=$t_pq t_ps1=$t_ps; fi
	done
	s_tz=$(stat -c %s "$arc/tar.tar.zst"); s_pk=$(stat -c %s "$arc/pack.tar.zst")
	cat "$arc/pack.tar.zst" >/dev/null
	run 3 sh -c "zstd -dc '$arc/pack.tar.zst' >/dev/null"
	t_zd=$best_t; row "zstd -dc > /dev/null" "$best_t" "$best_m"
	run 3 "$bin/ts-validate" -q "$pk/$name"
	t_vd=$best_t; row "ts-validate (unpacked)" "$best_t" "$best_m"
	run 3 "$bin/ts-validate" -q "$arc/pack.tar.zst"
	t_va=$best_t; m_va=$best_m; row "ts-validate .tar.zst" "$best_t" "$best_m"
	rm -rf "$arc"
	echo
	echo "ts-pack: $(ratio "$t_pk" "$t_tz")x the time of tar -c | zstd -T2 -3;" \
	    "archive $s_pk bytes, theirs $s_tz ($(echo "$s_pk $s_tz" |
	    awk '{ printf "%+.3f%%", ($1 - $2) * 100 / $2 }'))"
	echo "ts-validate of the archive: $(ratio "$t_va" "$(echo "$t_zd $t_vd" |
	    awk '{ print $1 + $2 }')")x the time of zstd -dc and ts-validate" \
	    "of the bundle unpacked"
	[ -z "$t_pko" ] || echo "ts-pack: $(ratio "$t_pk" "$t_pko")x the time of $base's" \
	    "ts-pack, which writes no checksum and no manifest; target within" \
	    "1.05x ($(met "$t_pk $t_pko" '$1 <= 1.05 * $2'))"
	[ -z "$t_pko1" ] || echo "ts-pack -j 1: $(ratio "$t_pk1" "$t_pko1")x the time of $base's," \
	    "a core free for the hashing thread; within 1.05x ($(met "$t_pk1 $t_pko1" '$1 <= 1.05 * $2'))"
	echo "ts-pack: the checks of every entry as it packs take $(echo "$t_ps0 $t_pq0" |
	    awk '{ printf "%+.1f%%", ($1 - $2) * 100 / $2 }') of --quick's time" \
	    "($(echo "$t_ps1 $t_pq1" | awk '{ printf "%+.1f%%", ($1 - $2) * 100 / $2 }') with -j 1);" \
	    "target at most 5% ($(met "$t_ps0 $t_pq0" '$1 <= 1.05 * $2'); -j 1:" \
	    "$(met "$t_ps1 $t_pq1" '$1 <= 1.05 * $2'))"
	echo "targets: ts-pack no slower ($(met "$t_pk $t_tz" '$1 <= $2')), size within 2%" \
	    "($(met "$s_pk $s_tz" '($1 - $2) / $2 <= 0.02 && ($2 - $1) / $2 <= 0.02'));" \
	    "ts-validate of the archive no slower ($(met "$t_va $t_zd $t_vd" '$1 <= $2 + $3'))," \
	    "peak < 64 MiB ($(met "$m_va" '$1 / 1024 < 64'))"
	return 0
}

# genvalues NAME: ts-gen-values and ts-convert on the same value-less
# file, in turns so that both meet the same conditions, best of 3 each
# (issue 9: within 1.3x, in bounded memory; issue 21: 1.2x).
genvalues() {
	name=$1
	file="$dir/$name/$name.tns"
	bytes=$(stat -c %s "$file")
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	echo
	echo "== genvalues: $file: $n entries without values, $(echo "$bytes" |
	    awk '{ printf "%.1f", $1 / 1e6 }') MB, $(nproc) cores"
	cat "$file" >/dev/null
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	t_nvc=999999; m_nvc=0; t_gv=999999; m_gv=0; k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/nv.tnsb"
		run 1 "$bin/ts-convert" -q "$file" -o "$out/nv.tnsb"
		t_nvc=$(echo "$best_t $t_nvc" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_nvc=$(echo "$best_m $m_nvc" | awk '{ print ($1 > $2) ? $1 : $2 }')
		run 1 "$bin/ts-gen-values" -q "$file" -o "$out/nv.tnsb"
		t_gv=$(echo "$best_t $t_gv" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_gv=$(echo "$best_m $m_gv" | awk '{ print ($1 > $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	rm=
	row "ts-convert (no values) -> tnsb" "$t_nvc" "$m_nvc"
	row "ts-gen-values -> tnsb" "$t_gv" "$m_gv"
	rm -rf "$out"
	echo
	echo "ts-gen-values: $(ratio "$t_gv" "$t_nvc")x the time of ts-convert on the same value-less file"
	echo "targets: within 1.2x ($(met "$t_gv $t_nvc" '$1 <= 1.2 * $2')), peak < 64 MiB ($(met "$m_gv" '$1 / 1024 < 64'))"
	t21row 7 "ts-gen-values / ts-convert (this build)" "$t_nvc" "$t_gv" \
	    "$(ratio "$t_gv" "$t_nvc")x" "<= 1.2x" "$(met "$t_gv $t_nvc" '$1 <= 1.2 * $2')"
	return 0
}

# tsgen: ts-gen (issue 32), in turns with what it is held against, best
# of $turns each: $n entries of every model to a .tnsb file against cat
# of that file (target 1.5x); --duplicates unique against ts-sort of the
# same entries (1.2x); one core (-j 1 under taskset, as the text
# printer's row does) against two (-j 2) (1.7x); and, when SYNTENSORGEN
# names a copy of the reference's SynTensorGen/ (in its repository, for
# tensorsuiteIO/ beside it), its element-wise/random generator on its
# random_large configuration against ts-gen --config of it (300x);
# without it, that row is printed as skipped.
tsgen() {
	out="$dir/gen"
	rm -rf "$out"; mkdir -p "$out"
	d3=100000,80000,2000
	echo
	echo "== ts-gen: $n entries a model to a .tnsb file, $(nproc) cores, best of $turns"
	echo "(flow_s: ts-convert of the same entries, a binary bundle, to a .tnsb: the"
	echo "flow's decoding, encoding and writing without the drawing)"
	printf '%-34s %8s %9s %9s %8s %8s  %s\n' model seconds peak_MiB cat_s flow_s ratio "target 1.5x"
	for spec in "uniform|--model uniform --dims $d3 --nnz $n" \
	    "random|--model random --dims $d3 --nnz $n" \
	    "zipf|--model zipf --dims $d3 --nnz $n" \
	    "kronecker (CP seed 4^3, 8 levels)|--model kronecker --cp-rank 2 --cp-dims 4,4,4 --levels 8 --nnz $n" \
	    "block ($n blocks, sorted)|--model block --partitions 2000,1000,100 --density $(echo "$n" | awk '{ print $1 / 2e8 }')" \
	    "sbm (8 communities a mode)|--model sbm --dims $d3 --communities 8 --nnz $n" \
	    "poisson-cp (rank 3, allow)|--model poisson-cp --dims $d3 --nnz $n --duplicates allow" \
	    "like splatt_med, scaled (allow)|--model like --scale $(echo "$n" | awk '{ print $1 / 100000 }') --duplicates allow tests/data/real/splatt_med.tns"; do
		label=${spec%%|*} args=${spec#*|}
		t_g=999999 m_g=0 t_c=999999 t_f= k=0
		# The same entries as a binary bundle (its metadata says what
		# a lone .tnsb does not), for the flow's row.
		rm -rf "$out/fb"
		"$bin/ts-gen" -q $args --binary -o "$out/fb"
		while [ $k -lt "$turns" ]; do
			rm="$out/m.tnsb"
			run 1 "$bin/ts-gen" -q $args -o "$out/m.tnsb"
			t_g=$(echo "$best_t $t_g" | awk '{ print ($1 < $2) ? $1 : $2 }')
			m_g=$(echo "$best_m $m_g" | awk '{ print ($1 > $2) ? $1 : $2 }')
			rm="$out/c.tnsb"
			run 1 sh -c "cat '$out/m.tnsb' >'$out/c.tnsb'"
			t_c=$(echo "$best_t $t_c" | awk '{ print ($1 < $2) ? $1 : $2 }')
			rm="$out/f.tnsb"
			run 1 "$bin/ts-convert" -q "$out/fb" -o "$out/f.tnsb"
			least "$best_t" t_f
			k=$((k + 1))
		done
		rm=
		printf '%-34s %8.2f %9.1f %9.2f %8.2f %7sx  %s\n' "$label" "$t_g" \
		    "$(echo "$m_g" | awk '{ print $1 / 1024 }')" "$t_c" "$t_f" \
		    "$(ratio "$t_g" "$t_c")" "$(met "$t_g $t_c" '$1 <= 1.5 * $2')"
		rm -rf "$out/m.tnsb" "$out/c.tnsb" "$out/f.tnsb" "$out/fb"
	done
	# --duplicates unique against ts-sort of the same entries, a
	# bundle of their binary file (the draws as they come).
	args="--model uniform --dims $d3 --nnz $n"
	"$bin/ts-gen" -q $args --binary -o "$out/a"
	t_u=999999 m_u=0 t_s=999999 m_s=0 k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/u.tnsb"
		run 1 "$bin/ts-gen" -q $args --duplicates unique -o "$out/u.tnsb"
		t_u=$(echo "$best_t $t_u" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_u=$(echo "$best_m $m_u" | awk '{ print ($1 > $2) ? $1 : $2 }')
		rm="$out/s.tnsb"
		run 1 "$bin/ts-sort" -q "$out/a" -o "$out/s.tnsb"
		t_s=$(echo "$best_t $t_s" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_s=$(echo "$best_m $m_s" | awk '{ print ($1 > $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	rm=
	rm -rf "$out/a" "$out/u.tnsb" "$out/s.tnsb"
	echo "ts-gen --duplicates unique $t_u s ($(mib "$m_u") MiB) against ts-sort" \
	    "of the same entries $t_s s ($(mib "$m_s") MiB): $(ratio "$t_u" "$t_s")x;" \
	    "target 1.2x ($(met "$t_u $t_s" '$1 <= 1.2 * $2'))"
	# One core against two, on a model whose draws cost more than
	# their writing: -j 1 held to one CPU (taskset), as a machine of one
	# core runs it (-j 1 alone still writes on a thread of its own, on
	# the other core: shown beside it), against -j 2.
	args="--model random --dims $d3 --nnz $n"
	one=
	command -v taskset >/dev/null 2>&1 && one="taskset -c 0"
	t_1=999999 t_j=999999 t_2=999999 k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/j.tnsb"
		if [ -n "$one" ]; then
			run 1 $one "$bin/ts-gen" -q -j 1 $args -o "$out/j.tnsb"
			t_1=$(echo "$best_t $t_1" | awk '{ print ($1 < $2) ? $1 : $2 }')
		fi
		run 1 "$bin/ts-gen" -q -j 1 $args -o "$out/j.tnsb"
		t_j=$(echo "$best_t $t_j" | awk '{ print ($1 < $2) ? $1 : $2 }')
		run 1 "$bin/ts-gen" -q -j 2 $args -o "$out/j.tnsb"
		t_2=$(echo "$best_t $t_2" | awk '{ print ($1 < $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	rm=
	rm -f "$out/j.tnsb"
	if [ -n "$one" ]; then
		echo "ts-gen --model random on 1 core (taskset -c 0, -j 1) $t_1 s," \
		    "on 2 (-j 2) $t_2 s: $(ratio "$t_1" "$t_2")x; target 1.7x" \
		    "($(met "$t_1 $t_2" '$1 >= 1.7 * $2')); -j 1 with 2 cores $t_j s:" \
		    "$(ratio "$t_j" "$t_2")x"
	else
		echo "ts-gen --model random -j 1 $t_j s, -j 2 $t_2 s: $(ratio "$t_j" "$t_2")x;" \
		    "target 1.7x ($(met "$t_j $t_2" '$1 >= 1.7 * $2')) (no taskset: -j 1 has both cores)"
	fi
	# The reference generator on its own random_large configuration.
	cfg=${SYNTENSORGEN:+$SYNTENSORGEN/element-wise/random/configs/random_large.yaml}
	if [ -z "$cfg" ] || [ ! -f "$cfg" ]; then
		echo "random_generator.py on random_large: skipped (SYNTENSORGEN=DIR names a copy of SynTensorGen/)"
		return 0
	fi
	mkdir -p "$out/ref"
	(cd "$out/ref" && /usr/bin/time -f '%e %M' -o ../ref.time \
	    /usr/bin/python3 "$SYNTENSORGEN/element-wise/random/random_generator.py" \
	    generate --config "$cfg" >/dev/null) || {
		echo "random_generator.py on random_large: failed (python3-numpy, python3-yaml?)"
		return 0
	}
	t_r=$(awk '{ print $1 }' "$out/ref.time")
	m_r=$(awk '{ print $2 }' "$out/ref.time")
	t_g=999999 m_g=0 k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/tg"
		run 1 "$bin/ts-gen" -q -f --config "$cfg" -o "$out/tg"
		t_g=$(echo "$best_t $t_g" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_g=$(echo "$best_m $m_g" | awk '{ print ($1 > $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	rm=
	echo "random_generator.py on random_large $t_r s ($(mib "$m_r") MiB);" \
	    "ts-gen --config $t_g s ($(mib "$m_g") MiB): $(ratio "$t_r" "$t_g")x faster;" \
	    "target 300x ($(met "$t_r $t_g" '$1 >= 300 * $2'))"
	rm -rf "$out"
	return 0
}

# least T VAR / most M VAR: VAR (a name) lowered to T / raised to M.
least() { eval "$2=\$(echo \"$1 \${$2:-999999}\" | awk '{ print (\$1 < \$2) ? \$1 : \$2 }')"; }
most() { eval "$2=\$(echo \"$1 \${$2:-0}\" | awk '{ print (\$1 > \$2) ? \$1 : \$2 }')"; }

# npz NAME: the tensor to and from .npz and .bsp.npz (issue 33), against
# TNSB to TNSB, with numpy's time to load the same file (every array
# read) beside it.  In turns, so that all meet the same load (on this
# kind of machine a run's time depends on the pages the one before it
# freed: best of a row's own turns, one after the other, is not a
# figure to compare with another row's).
npz() {
	name=$1
	b="$dir/$name"
	file="$b/$name.tns"
	meta="$b/${name}_metadata.json"
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	bytes=$(stat -c %s "$file")
	echo
	echo "== $name through .npz and .bsp.npz: $n entries, $(nproc) cores, best of $turns turns"
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	run 1 "$bin/ts-convert" -q --meta "$meta" "$file" -o "$out/a.tnsb"
	bytes=$(stat -c %s "$out/a.tnsb")
	t_bb= m_bb= t_to_npz= m_to_npz= t_from_npz= m_from_npz=
	t_to_bsp= m_to_bsp= t_from_bsp= m_from_bsp= k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/c.tnsb"
		run 1 "$bin/ts-convert" -q --meta "$meta" "$out/a.tnsb" -o "$out/c.tnsb"
		least "$best_t" t_bb; most "$best_m" m_bb
		for x in npz bsp; do
			f=npz
			[ $x = npz ] || f=bsp.npz
			rm="$out/x.$f"
			run 1 "$bin/ts-convert" -q --meta "$meta" "$out/a.tnsb" -o "$out/x.$f"
			least "$best_t" t_to_$x; most "$best_m" m_to_$x
			rm="$out/y.tnsb"
			run 1 "$bin/ts-convert" -q --index-base 1 "$out/x.$f" -o "$out/y.tnsb"
			least "$best_t" t_from_$x; most "$best_m" m_from_$x
		done
		k=$((k + 1))
	done
	rm=
	row "ts-convert tnsb -> tnsb" "$t_bb" "$m_bb"
	for x in npz bsp; do
		f=npz
		[ $x = npz ] || f=bsp.npz
		eval "t_to=\$t_to_$x m_to=\$m_to_$x t_from=\$t_from_$x m_from=\$m_from_$x"
		row "ts-convert tnsb -> .$f" "$t_to" "$m_to"
		row "ts-convert .$f -> tnsb" "$t_from" "$m_from"
		run 1 /usr/bin/python3 -c 'import sys, numpy as np
z = np.load(sys.argv[1])
for k in z.files:
    z[k].sum() if z[k].dtype.kind != "U" else z[k]' "$out/x.$f"
		t_np=$best_t; row "numpy.load .$f (every array)" "$best_t" "$best_m"
		echo "  .$f: to $(ratio "$t_to" "$t_bb")x, from $(ratio "$t_from" "$t_bb")x the time of tnsb -> tnsb" \
		    "(target <= 1.5x: $(met "$t_to $t_from $t_bb" '$1 <= 1.5 * $3 && $2 <= 1.5 * $3'));" \
		    "numpy.load $(ratio "$t_np" "$t_from")x our read"
	done
	rm -rf "$out"
	return 0
}

# binsparse NAME: the bundle NAME as a sorted binary bundle, then its
# .tnsb to a .bsp.h5 file (binsparse in HDF5) and back to a .tnsb,
# against .tnsb to .tnsb; h5py's read of the same .bsp.h5 file beside
# them (every array into numpy).  Target: each within 1.5x.
binsparse() {
	name=$1
	out="$dir/bsp"
	rm -rf "$out"; mkdir -p "$out"
	echo
	echo "== binsparse (HDF5): $name, $n entries, best of $turns"
	"$bin/ts-sort" -q "$dir/$name" -o "$out/s"
	"$bin/ts-convert" -q "$out/s" "$out/b" --binary
	bytes=$(stat -c %s "$out/b/b.tnsb")
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	# In turns, as npz's rows.
	t_bb= m_bb= t_bh= m_bh= t_hb= m_hb= k=0
	while [ $k -lt "$turns" ]; do
		rm="$out/x.tnsb"
		run 1 "$bin/ts-convert" -q "$out/b/b.tnsb" -o "$out/x.tnsb"
		least "$best_t" t_bb; most "$best_m" m_bb
		rm="$out/x.bsp.h5"
		run 1 "$bin/ts-convert" -q "$out/b/b.tnsb" -o "$out/x.bsp.h5"
		least "$best_t" t_bh; most "$best_m" m_bh
		rm="$out/y.tnsb"
		run 1 "$bin/ts-convert" -q "$out/x.bsp.h5" -o "$out/y.tnsb"
		least "$best_t" t_hb; most "$best_m" m_hb
		k=$((k + 1))
	done
	rm=
	row "ts-convert tnsb -> tnsb" "$t_bb" "$m_bb"
	row "ts-convert tnsb -> bsp.h5" "$t_bh" "$m_bh"
	row "ts-convert bsp.h5 -> tnsb" "$t_hb" "$m_hb"
	if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
		run "$turns" /usr/bin/python3 -c 'import h5py, sys
f = h5py.File(sys.argv[1])
[f[k][:] for k in f]' "$out/x.bsp.h5"
		row "h5py reads the .bsp.h5" "$best_t" "$best_m"
	fi
	sed 3d "$out/y.tnsb" >"$out/y.body"
	sed 3d "$out/x.tnsb" >"$out/x.body"
	cmp -s "$out/y.body" "$out/x.body" ||
	    { echo "bench: tnsb -> bsp.h5 -> tnsb changed the entries" >&2; exit 1; }
	echo "binsparse (HDF5): to $(ratio "$t_bh" "$t_bb")x, from" \
	    "$(ratio "$t_hb" "$t_bb")x the time of tnsb -> tnsb; target 1.5x" \
	    "($(met "$t_bh $t_hb $t_bb" '$1 <= 1.5 * $3 && $2 <= 1.5 * $3'))"
	rm -rf "$out"
}

# colbin NAME: the bundle's entries to and from SPLATT's and FROSTT's
# binaries, against tnsb -> tnsb (issue 33: each at most 1.5x).
colbin() {
	b="$dir/$1"
	file="$b/$1.tns"
	meta="$b/${1}_metadata.json"
	out="$dir/out"
	rm -rf "$out"; mkdir -p "$out"
	"$bin/ts-convert" -q "$file" -o "$out/a.tnsb"
	bytes=$(stat -c %s "$out/a.tnsb")
	echo
	echo "== $1: $n entries, the binaries of SPLATT and FROSTT against tnsb -> tnsb, best of $turns turns"
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	# In turns, as npz's rows.
	t_bb= m_bb= t_to_s= m_to_s= t_from_s= m_from_s=
	t_to_f= m_to_f= t_from_f= m_from_f= j=0
	while [ $j -lt "$turns" ]; do
		rm="$out/c.tnsb"
		run 1 "$bin/ts-convert" -q --meta "$meta" "$out/a.tnsb" -o "$out/c.tnsb"
		least "$best_t" t_bb; most "$best_m" m_bb
		for k in splatt-bin frostt-bin; do
			x=$(echo $k | cut -c1)
			rm="$out/a.bin"
			run 1 "$bin/ts-convert" -q --meta "$meta" "$out/a.tnsb" -o "$out/a.bin" --to $k
			least "$best_t" t_to_$x; most "$best_m" m_to_$x
			rm="$out/c.tnsb"
			run 1 "$bin/ts-convert" -q --from $k "$out/a.bin" -o "$out/c.tnsb"
			least "$best_t" t_from_$x; most "$best_m" m_from_$x
		done
		j=$((j + 1))
	done
	rm=
	row "ts-convert tnsb -> tnsb" "$t_bb" "$m_bb"
	for k in splatt-bin frostt-bin; do
		x=$(echo $k | cut -c1)
		eval "t_to=\$t_to_$x m_to=\$m_to_$x t_from=\$t_from_$x m_from=\$m_from_$x"
		row "ts-convert tnsb -> $k" "$t_to" "$m_to"
		row "ts-convert $k -> tnsb" "$t_from" "$m_from"
		echo "$k: to $(ratio "$t_to" "$t_bb")x, from $(ratio "$t_from" "$t_bb")x" \
		    "the time of tnsb -> tnsb; target <= 1.5x ($(met "$t_to $t_from $t_bb" \
		    '$1 <= 1.5 * $3 && $2 <= 1.5 * $3'))"
	done
	rm -rf "$out"
}

# statrows NAME: ts-stat beside ts-validate on the same bundle (issue 34:
# at most 1.3x on the sorted friendly tensor and on the wide one), with
# --fit and --fibers rows of their own; in turns, so that all meet the
# same load.
statrows() {
	name=$1
	b="$dir/$name"
	echo
	echo "== ts-stat on $name: $n entries, best of $turns turns"
	printf '%-34s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
	bytes=$(stat -c %s "$b/$name.tns")
	t_v=999999 t_s=999999 t_f=999999 t_b=999999 m_s=0 m_f=0 m_b=0 k=0
	t_rc=999999 t_rv=999999
	while [ $k -lt "$turns" ]; do
		run 1 "$bin/ts-validate" -q "$b"
		t_v=$(echo "$best_t $t_v" | awk '{ print ($1 < $2) ? $1 : $2 }')
		run 1 "$dir/read-values" "$b" classes
		least "$best_t" t_rc
		run 1 "$dir/read-values" "$b"
		least "$best_t" t_rv
		run 1 "$bin/ts-stat" -q "$b"
		t_s=$(echo "$best_t $t_s" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_s=$(echo "$best_m $m_s" | awk '{ print ($1 > $2) ? $1 : $2 }')
		run 1 "$bin/ts-stat" -q --fit "$b"
		t_f=$(echo "$best_t $t_f" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_f=$(echo "$best_m $m_f" | awk '{ print ($1 > $2) ? $1 : $2 }')
		run 1 "$bin/ts-stat" -q --fibers "$b"
		t_b=$(echo "$best_t $t_b" | awk '{ print ($1 < $2) ? $1 : $2 }')
		m_b=$(echo "$best_m $m_b" | awk '{ print ($1 > $2) ? $1 : $2 }')
		k=$((k + 1))
	done
	row "ts-validate" "$t_v" 0
	row "ts-stat" "$t_s" "$m_s"
	row "ts-stat --fit" "$t_f" "$m_f"
	row "ts-stat --fibers" "$t_b" "$m_b"
	row "reader alone, values as classes" "$t_rc" 0
	row "reader alone, values converted" "$t_rv" 0
	echo "ts-stat on $name: $(ratio "$t_s" "$t_v")x the time of ts-validate;" \
	    "target <= 1.3x ($(met "$t_s $t_v" '$1 <= 1.3 * $2')); --fit" \
	    "$(ratio "$t_f" "$t_v")x, --fibers $(ratio "$t_b" "$t_v")x"
	# What ts-stat pays that ts-validate does not, before any statistic:
	# each value converted (ts-validate reads plain decimals as zero or
	# not, tests/bench/read-values.c).
	echo "converting the values: $(echo "$t_rv $t_rc" | awk '{ printf "%.2f", $1 - $2 }') s" \
	    "(tests/bench/read-values, with and without); ts-validate and that alone:" \
	    "$(echo "$t_v $t_rv $t_rc" | awk '{ printf "%.2f", ($1 + $2 - $3) / $1 }')x"
}

only=${BENCH_ONLY:-}
m5=$((n / 4))
if [ "$only" != gen ]; then
	gen friendly "$n"
fi
# The binaries' rows need the friendly tensor only.
if [ "$only" != gen ] && [ "$only" != colbin ] && [ "$only" != npz ] &&
    [ "$only" != binsparse ]; then
	gen wide "$n" 100000,80000,2000 unsorted
	gen novalues "$n" 100000,80000,2000 unsorted novalues
	[ -z "$old" ] || gen widesorted "$n" 100000,80000,2000
	gen wide5m "$m5" 100000,80000,2000 unsorted
fi
set -- $("$dir/touch" 256)
echo "fresh memory: first writes $1 MB/s, writes again $2 MB/s (256 MiB; a" \
    "machine whose first writes are far slower pays it in every sort and" \
    "duplicate check, the baseline too); best of $turns turns"
if [ -n "$old" ] && { [ -z "$only" ] || [ "$only" = same ]; }; then
	sameall
fi
[ -n "$only" ] && [ "$only" != friendly ] || suite friendly
[ -n "$only" ] && [ "$only" != colbin ] || colbin friendly
if [ -z "$only" ] || [ "$only" = wide ]; then
	suite wide vs
	[ -z "$old" ] || sorted widesorted
	gnu5m wide5m
fi
[ -n "$only" ] && [ "$only" != archives ] || archives friendly
[ -n "$only" ] && [ "$only" != genvalues ] || genvalues novalues
[ -n "$only" ] && [ "$only" != npz ] || npz friendly
[ -n "$only" ] && [ "$only" != binsparse ] || binsparse friendly
[ -n "$only" ] && [ "$only" != gen ] || tsgen
if [ -z "$only" ] || [ "$only" = stat ]; then
	statrows friendly
	statrows wide
fi
if [ -s "$t21" ]; then
	echo
	echo "== issue 21: the wide tensor, against ${base:-no baseline} in the same run" \
	    "(best of turns; 'old' is the baseline, or the pass ridden on)"
	printf '%-40s %7s %7s %8s  %-26s %s\n' pass old_s new_s ratio target ""
	sort -n -s -k 1,1 "$t21" | cut -d ' ' -f 2-
fi
