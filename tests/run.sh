#!/bin/sh
# Run every test: the C unit tests, then the bats suites, all speaking
# TAP.  Prints the TAP stream and ends with two lines, "N skipped" (tests
# that bats reports as "ok N name # skip reason", not counted as passed)
# and "N passed, N failed".
# The bats suites run TS_TEST_JOBS at a time (default: the number of
# cores), the slowest first, those that run make in the build tree one
# after another; each suite's output is printed whole, in the suites'
# alphabetical order, with its seconds.  TS_TEST_JOBS=1 runs them all one
# after the other, printing each as it ends.
# Usage: tests/run.sh [BUILD-DIR]
set -u

# Suites, as "run.sh --suite DIR [live] NAME,NAME..." (xargs starts
# them): each of tests/NAME in turn, its TAP into DIR/NAME.out, its exit
# status into NAME.rc, its seconds into NAME.sec; "live" prints a line as
# each ends, so that a log shows the run going on while the suites'
# output waits for its turn.
if [ "${1:-}" = --suite ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	d=$2 live=$3
	IFS=,
	for n in $4; do
		t0=$(date +%s)
		rc=0
		bats --tap "$here/$n" >"$d/$n.out" 2>&1 || rc=$?
		echo "$rc" >"$d/$n.rc"
		echo $(($(date +%s) - t0)) >"$d/$n.sec"
		[ "$live" = live ] &&
		    echo "# ended: $n, $(cat "$d/$n.sec") s, status $rc"
	done
	exit 0
fi

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build="$top/$build" ;; esac
export TS_BIN="$build/bin"
export TS_TOP="$top"
# Programs linked with a sanitized library need the sanitizers too.
[ "${build##*/}" = build-san ] && export TS_SANITIZE=1
jobs=${TS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

status=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "# unit: ${t##*/}"
	"$t" >"$dir/unit" 2>&1 || status=1
	cat "$dir/unit"
	cat "$dir/unit" >>"$dir/all"
done

show() {
	echo "# bats: $1"
	cat "$dir/$1.out"
	echo "# bats: $1: $(cat "$dir/$1.sec") s"
	cat "$dir/$1.out" >>"$dir/all"
	[ "$(cat "$dir/$1.rc")" = 0 ] || status=1
}
# The suites that run make in the build tree (make demo, make install
# with another PREFIX, which remakes tensorsuite.pc and the pages that
# name the paths) run one after another, in one lane.
slow="checksums.bats ts-convert.bats ts-validate.bats faults.bats"
make="docs.bats install.bats lib.bats"
if [ "$jobs" -eq 1 ]; then
	for f in "$top"/tests/*.bats; do
		"$0" --suite "$dir" - "${f##*/}"
		show "${f##*/}"
	done
else
	# The slowest suites first, so that the lanes end together.
	{
		for n in $slow; do
			[ -f "$top/tests/$n" ] && echo "$n"
		done
		g=
		for n in $make; do
			[ -f "$top/tests/$n" ] && g=${g:+$g,}$n
		done
		[ -n "$g" ] && echo "$g"
		for f in "$top"/tests/*.bats; do
			case " $slow $make " in
			*" ${f##*/} "*) ;;
			*) echo "${f##*/}" ;;
			esac
		done
	} | xargs -P "$jobs" -I{} "$0" --suite "$dir" live {}
	for f in "$top"/tests/*.bats; do
		show "${f##*/}"
	done
fi
skipped=$(grep -c '^ok .* # [Ss][Kk][Ii][Pp]' "$dir/all" 2>/dev/null)
passed=$(($(grep -c '^ok ' "$dir/all" 2>/dev/null) - skipped))
failed=$(grep -c '^not ok ' "$dir/all" 2>/dev/null)
[ "$failed" -gt 0 ] && status=1
[ "$passed" -eq 0 ] && status=1
echo "$skipped skipped"
echo "$passed passed, $failed failed"
exit $status
