#!/bin/sh
# Run bats suites with the tools under valgrind's memcheck, which sees
# what AddressSanitizer does not: a decision made on uninitialised memory.
# Each program writes its report to a log of its own, so that the suites'
# expected output is untouched; a log that reports anything fails the run.
# Usage: tests/valgrind.sh BUILD-DIR [SUITE...]   (default: ts-convert
# ts-sort hostile; a suite is tests/SUITE.bats)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
shift
case $build in /*) ;; *) build="$top/$build" ;; esac
suites=${*:-ts-convert ts-sort hostile}
command -v valgrind >/dev/null || { echo "valgrind: not installed" >&2; exit 1; }

wrap=$(mktemp -d)
trap 'rm -rf "$wrap"' EXIT INT TERM
mkdir "$wrap/bin" "$wrap/logs"
# Tests that run a tool as another user (nobody) reach it too.
chmod 755 "$wrap" "$wrap/bin"
chmod 1777 "$wrap/logs"
for t in ts-convert ts-gen-values ts-pack ts-sort ts-validate; do
	cat >"$wrap/bin/$t" <<EOT
#!/bin/sh
exec valgrind -q --track-origins=yes --log-file="$wrap/logs/$t.%p.log" \\
    "$build/bin/$t" "\$@"
EOT
	chmod +x "$wrap/bin/$t"
done
export TS_BIN="$wrap/bin" TS_TOP="$top" TS_VALGRIND=1

status=0
for s in $suites; do
	echo "# valgrind: $s.bats"
	bats --tap "$top/tests/$s.bats" || status=1
done
runs=$(ls "$wrap/logs" | wc -l)
bad=0
for f in "$wrap"/logs/*.log; do
	[ -s "$f" ] || continue
	bad=$((bad + 1))
	echo "# ${f##*/}:"
	sed 's/^/#   /' "$f"
done
echo "$runs programs under valgrind, $bad with errors"
[ "$bad" -eq 0 ] || status=1
exit $status
