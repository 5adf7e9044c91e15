#!/bin/sh
# Run every test: the C unit tests, then the bats suites, all speaking
# TAP.  Prints the TAP stream and ends with two lines, "N skipped" (tests
# that bats reports as "ok N name # skip reason", not counted as passed)
# and "N passed, N failed".
# Usage: tests/run.sh [BUILD-DIR]
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build="$top/$build" ;; esac
export TS_BIN="$build/bin"
export TS_TOP="$top"
# Programs linked with a sanitized library need the sanitizers too.
[ "${build##*/}" = build-san ] && export TS_SANITIZE=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM

status=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "# unit: ${t##*/}"
	"$t" >"$out" 2>&1 || status=1
	cat "$out"
	cat "$out" >>"$out.all"
done
for f in "$top"/tests/*.bats; do
	echo "# bats: ${f##*/}"
	t0=$(date +%s)
	bats --tap "$f" >"$out" 2>&1 || status=1
	cat "$out"
	echo "# bats: ${f##*/}: $(($(date +%s) - t0)) s"
	cat "$out" >>"$out.all"
done
skipped=$(grep -c '^ok .* # [Ss][Kk][Ii][Pp]' "$out.all" 2>/dev/null)
passed=$(($(grep -c '^ok ' "$out.all" 2>/dev/null) - skipped))
failed=$(grep -c '^not ok ' "$out.all" 2>/dev/null)
rm -f "$out.all"
[ "$failed" -gt 0 ] && status=1
[ "$passed" -eq 0 ] && status=1
echo "$skipped skipped"
echo "$passed passed, $failed failed"
exit $status
