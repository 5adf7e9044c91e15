#!/bin/sh
# make bench: throughput and peak memory of the toolkit on a generated
# order-3 tensor of 20 million entries (about 700 MB of text), with the
# ratio to standard tools on the same file in the same run; ts-gen-values
# on the same coordinates without values, against ts-convert on them.
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
gentool() {
	[ "$dir/gen-tensor" -nt tests/bench/gen-tensor.c ] ||
	    $cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc/lib \
	    -o "$dir/gen-tensor" tests/bench/gen-tensor.c "$build/libtensorsuite.a" \
	    $(pkg-config --libs jansson libarchive) -lm -lpthread
}
if [ ! -s "$b/$name.tns" ] || [ ! -s "$b/${name}_metadata.json" ]; then
	echo "generating $n entries in $b (once)..."
	gentool
	"$dir/gen-tensor" "$b" "$name" "$n"
fi
nvname=novalues$n
nv="$dir/$nvname"
if [ ! -s "$nv/$nvname.tns" ] || [ ! -s "$nv/${nvname}_metadata.json" ]; then
	echo "generating the same $n coordinates without values in $nv (once)..."
	gentool
	mkdir -p "$nv"
	"$dir/gen-tensor" "$nv" "$nvname" "$n" novalues
fi
file="$b/$name.tns"
bytes=$(stat -c %s "$file")
mb=$(echo "$bytes" | awk '{ printf "%.1f", $1 / 1e6 }')
echo "input: $file: $n entries, $mb MB, $(nproc) cores"
cat "$file" >/dev/null	# warm the page cache for every contender

# Before each timed run, the files earlier runs wrote go to disk, so that
# no write-back of theirs competes with the run for the two cores.
settle() { sync; }

# run REPS CMD...: best wall time of REPS runs, peak RSS; $rm (if set)
# is removed before each, untimed, as conv and sortrun do with their DST.
best_t= best_m= rm=
run() {
	reps=$1; shift
	best_t=999999; best_m=0
	i=0
	while [ $i -lt "$reps" ]; do
		[ -z "$rm" ] || rm -f "$rm"
		settle
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
# Conversions write real files beside the input, as a user would.
out="$dir/out"
rm -rf "$out"; mkdir -p "$out"
rm="$out/copy.tns"
run 3 sh -c "cat '$file' > '$out/copy.tns'"; t_cat=$best_t; rm=
row "cat > file" "$best_t" "$best_m"
rm -f "$out/copy.tns"	# each output goes once checked: less to cache
conv() {	# conv LABEL OUT ARGS...: time ts-convert, removing OUT first
	label=$1; dst=$2; shift 2
	best_t=999999; best_m=0; i=0
	while [ $i -lt 3 ]; do
		rm -f "$dst"
		settle
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$bin/ts-convert" "$@" \
		    2>"$dir/err.out" || { cat "$dir/err.out" >&2; exit 1; }
		t=$(awk '{print $1}' "$dir/time.out"); m=$(awk '{print $2}' "$dir/time.out")
		best_t=$(echo "$t $best_t" | awk '{ print ($1 < $2) ? $1 : $2 }')
		best_m=$(echo "$m $best_m" | awk '{ print ($1 > $2) ? $1 : $2 }')
		i=$((i + 1))
	done
	row "$label" "$best_t" "$best_m"
}
conv "ts-convert tns -> tnsb" "$out/b.tnsb" "$file" -o "$out/b.tnsb"
t_tb=$best_t; m_tb=$best_m
conv "ts-convert tnsb -> tns" "$out/b.tns" "$out/b.tnsb" --meta "$b/${name}_metadata.json" -o "$out/b.tns"
t_bt=$best_t; m_bt=$best_m
cmp -s "$out/b.tns" "$file" || { echo "bench: tns -> tnsb -> tns changed the file" >&2; exit 1; }
rm -f "$out/b.tns"

# Values generated on the way cost little beside reading and writing:
# ts-convert and ts-gen-values on the same value-less file, in turns so
# that both meet the same conditions, best of 5 each.
nvfile="$nv/$nvname.tns"
bytes_all=$bytes; bytes=$(stat -c %s "$nvfile")
cat "$nvfile" >/dev/null
t_nvc=999999; m_nvc=0; t_gv=999999; m_gv=0; i=0
while [ $i -lt 5 ]; do
	for t in ts-convert ts-gen-values; do
		rm -f "$out/nv.tnsb"
		settle
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$bin/$t" "$nvfile" \
		    -o "$out/nv.tnsb" 2>"$dir/err.out" || { cat "$dir/err.out" >&2; exit 1; }
		read -r tt mm <"$dir/time.out"
		if [ "$t" = ts-convert ]; then
			t_nvc=$(echo "$tt $t_nvc" | awk '{ print ($1 < $2) ? $1 : $2 }')
			m_nvc=$(echo "$mm $m_nvc" | awk '{ print ($1 > $2) ? $1 : $2 }')
		else
			t_gv=$(echo "$tt $t_gv" | awk '{ print ($1 < $2) ? $1 : $2 }')
			m_gv=$(echo "$mm $m_gv" | awk '{ print ($1 > $2) ? $1 : $2 }')
		fi
	done
	i=$((i + 1))
done
row "ts-convert valueless->tnsb" "$t_nvc" "$m_nvc"
row "ts-gen-values tns -> tnsb" "$t_gv" "$m_gv"
rm -f "$out/nv.tnsb"
bytes=$bytes_all

# Sorting by mode 3 first, so the sorted input really moves.
sortrun() {	# sortrun LABEL ARGS...: best of 2 runs of ts-sort
	label=$1; shift
	best_t=999999; best_m=0; i=0
	while [ $i -lt 2 ]; do
		rm -f "$out/s.tns" "$out/s.tnsb"
		settle
		/usr/bin/time -f '%e %M' -o "$dir/time.out" "$bin/ts-sort" -q "$@" \
		    2>"$dir/err.out" || { cat "$dir/err.out" >&2; exit 1; }
		t=$(awk '{print $1}' "$dir/time.out"); m=$(awk '{print $2}' "$dir/time.out")
		best_t=$(echo "$t $best_t" | awk '{ print ($1 < $2) ? $1 : $2 }')
		best_m=$(echo "$m $best_m" | awk '{ print ($1 > $2) ? $1 : $2 }')
		i=$((i + 1))
	done
	row "$label" "$best_t" "$best_m"
}
meta="$b/${name}_metadata.json"
sortrun "ts-sort -k 3,1,2 tns" -k 3,1,2 --meta "$meta" "$file" -o "$out/s.tns"; t_st=$best_t
mv "$out/s.tns" "$out/sorted.tns"
sortrun "ts-sort -S 256M (external)" -k 3,1,2 -S 256M -T "$out" --meta "$meta" "$file" -o "$out/s.tns"
t_sx=$best_t
sortrun "ts-sort -k 3,1,2 tnsb" -k 3,1,2 --meta "$meta" "$out/b.tnsb" -o "$out/s.tnsb"; t_sb=$best_t
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
echo "ts-validate full: $(echo "$t_full $t_wc" | awk '{ printf "%.2f", $1 / $2 }')x the time of wc -l" \
    "$( [ -n "$t_np" ] && echo "$t_np $t_full" | awk '{ printf "; %.1fx faster than numpy.loadtxt", $1 / $2 }')"
echo "ts-convert: tns -> tnsb $(echo "$t_tb $t_cat" | awk '{ printf "%.1f", $1 / $2 }')x," \
    "tnsb -> tns $(echo "$t_bt $t_cat" | awk '{ printf "%.1f", $1 / $2 }')x the time of cat > file"
echo "targets: tns -> tnsb < 1.0 s ($(echo "$t_tb" | awk '{ print ($1 < 1.0) ? "met" : "NOT met" }'))," \
    "tnsb -> tns < 1.5 s ($(echo "$t_bt" | awk '{ print ($1 < 1.5) ? "met" : "NOT met" }'))," \
    "peak memory < 64 MiB ($(echo "$m_tb $m_bt" | awk '{ print ($1 / 1024 < 64 && $2 / 1024 < 64) ? "met" : "NOT met" }'))"
echo "ts-gen-values: tns -> tnsb $(echo "$t_gv $t_nvc" | awk '{ printf "%.2f", $1 / $2 }')x the time of ts-convert" \
    "on the same value-less file (target < 1.3: $(echo "$t_gv $t_nvc" | awk '{ print ($1 / $2 < 1.3) ? "met" : "NOT met" }'))," \
    "peak memory < 64 MiB ($(echo "$m_gv" | awk '{ print ($1 / 1024 < 64) ? "met" : "NOT met" }'))"
[ -n "$t_gnu" ] && echo "ts-sort: $(echo "$t_gnu $t_st" | awk '{ printf "%.1f", $1 / $2 }')x faster than GNU sort (in memory)," \
    "$(echo "$t_gnu $t_sx" | awk '{ printf "%.1f", $1 / $2 }')x with -S 256M"
echo "targets: ts-sort tns < 3 s ($(echo "$t_st" | awk '{ print ($1 < 3) ? "met" : "NOT met" }'))," \
    "-S 256M < 9 s ($(echo "$t_sx" | awk '{ print ($1 < 9) ? "met" : "NOT met" }'))," \
    "tnsb < 1.5 s ($(echo "$t_sb" | awk '{ print ($1 < 1.5) ? "met" : "NOT met" }'))"
echo "targets: full validation < 1.5 s ($( echo "$t_full" | awk '{ print ($1 < 1.5) ? "met" : "NOT met" }'))," \
    "peak memory < 64 MiB ($( echo "$m_full" | awk '{ print ($1 / 1024 < 64) ? "met" : "NOT met" }'))"
