#!/bin/sh
# make bench: throughput and peak memory of the toolkit on a generated
# order-3 tensor of 20 million entries (about 700 MB of text), with the
# ratio to standard tools on the same file in the same run.
# Usage: scripts/bench.sh BUILD-DIR   (BENCH_N, BENCH_DIR override)
set -eu

build=${1:-build}
n=${BENCH_N:-20000000}
dir=${BENCH_DIR:-$build/bench}
name=bench$n
b="$dir/$name"
bin="$build/bin"
export LC_ALL=C

[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
cc=${CC:-cc}
mkdir -p "$b"
if [ ! -s "$b/$name.tns" ] || [ ! -s "$b/${name}_metadata.json" ]; then
	echo "generating $n entries in $b (once)..."
	$cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc/lib \
	    -o "$dir/gen-tensor" tests/bench/gen-tensor.c "$build/libtensorsuite.a" \
	    $(pkg-config --libs jansson libarchive) -lm
	"$dir/gen-tensor" "$b" "$name" "$n"
fi
file="$b/$name.tns"
bytes=$(stat -c %s "$file")
mb=$(echo "$bytes" | awk '{ printf "%.1f", $1 / 1e6 }')
echo "input: $file: $n entries, $mb MB, $(nproc) cores"
cat "$file" >/dev/null	# warm the page cache for every contender

# run LABEL CMD...: best wall time of 3 runs (1 for slow ones), peak RSS.
best_t= best_m=
run() {
	reps=$1; shift
	best_t=999999; best_m=0
	i=0
	while [ $i -lt "$reps" ]; do
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$@" >/dev/null 2>"$dir/err.out" || {
			echo "bench: command failed: $*" >&2; cat "$dir/err.out" >&2; exit 1; }
		t=$(awk '{print $1}' "$dir/time.out"); m=$(awk '{print $2}' "$dir/time.out")
		best_t=$(echo "$t $best_t" | awk '{ print ($1 < $2) ? $1 : $2 }')
		best_m=$(echo "$m $best_m" | awk '{ print ($1 > $2) ? $1 : $2 }')
		i=$((i + 1))
	done
}

printf '%-28s %8s %9s %11s %9s\n' tool seconds MB/s Mentries/s peak_MiB
row() {
	printf '%-28s %8.2f %9.0f %11.1f %9.1f\n' "$1" "$2" \
	    "$(echo "$bytes $2" | awk '{ print $1 / 1e6 / ($2 > 0 ? $2 : 0.001) }')" \
	    "$(echo "$n $2" | awk '{ print $1 / 1e6 / ($2 > 0 ? $2 : 0.001) }')" \
	    "$(echo "$3" | awk '{ print $1 / 1024 }')"
}

run 3 wc -l "$file"; t_wc=$best_t; row "wc -l" "$best_t" "$best_m"
run 3 "$bin/ts-validate" -q "$b"; t_full=$best_t; m_full=$best_m
row "ts-validate" "$best_t" "$best_m"
run 3 "$bin/ts-validate" -q --quick "$b"; row "ts-validate --quick" "$best_t" "$best_m"
t_np=
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	run 1 /usr/bin/python3 -c "import numpy, sys; numpy.loadtxt(sys.argv[1], skiprows=4)" "$file"
	t_np=$best_t; row "numpy.loadtxt" "$best_t" "$best_m"
else
	echo "(numpy not installed: no numpy.loadtxt comparison)"
fi
echo
echo "ts-validate full: $(echo "$t_full $t_wc" | awk '{ printf "%.2f", $1 / $2 }')x the time of wc -l" \
    "$( [ -n "$t_np" ] && echo "$t_np $t_full" | awk '{ printf "; %.1fx faster than numpy.loadtxt", $1 / $2 }')"
echo "targets: full validation < 1.5 s ($( echo "$t_full" | awk '{ print ($1 < 1.5) ? "met" : "NOT met" }'))," \
    "peak memory < 64 MiB ($( echo "$m_full" | awk '{ print ($1 / 1024 < 64) ? "met" : "NOT met" }'))"
