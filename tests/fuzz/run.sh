#!/bin/sh
# Run each libFuzzer harness for SECONDS on its corpus: first the inputs
# that once failed (tests/fuzz/regress/NAME/, each must pass), then new
# inputs from the seeds (tests/fuzz/corpus/NAME/, never written to) into
# BUILD/corpus/NAME.  A failing input is kept as BUILD/crash/NAME/*.
# Usage: tests/fuzz/run.sh BUILD SECONDS NAME...
set -u
build=$1 secs=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for name; do
	bin=$build/fuzz/$name
	seeds=$top/tests/fuzz/corpus/$name
	regress=$top/tests/fuzz/regress/$name
	mkdir -p "$build/corpus/$name" "$build/crash/$name"
	if [ -d "$regress" ] && [ -n "$(ls "$regress")" ]; then
		"$bin" -rss_limit_mb=2048 "$regress"/* >"$build/$name.log" 2>&1 || {
			echo "$name: a regression input fails: see $build/$name.log"
			status=1
			continue
		}
	fi
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -max_len=16384 -print_final_stats=1 \
	    -artifact_prefix="$build/crash/$name/" \
	    "$build/corpus/$name" "$seeds" >"$build/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$name.log")
	echo "$name: ${secs}s, ${runs:-?} runs, exit $rc"
	[ $rc -eq 0 ] || { tail -n 30 "$build/$name.log"; status=1; }
done
exit $status
