#!/bin/sh
# Every long option a tool's --help prints must appear in its man page and
# in its bash, zsh and fish completions.  Prints what is missing; exit 1
# when something is.  Usage: tests/lint.sh [BIN-DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/bin}
status=0
for dir in "$top"/src/ts-*; do
	t=${dir##*/}
	[ -x "$bin/$t" ] || { echo "lint: $bin/$t not built" >&2; status=1; continue; }
	for f in "$top/man/$t.1" "$top/completions/bash/$t" \
	    "$top/completions/zsh/_$t" "$top/completions/fish/$t.fish"; do
		[ -f "$f" ] || { echo "lint: missing $f"; status=1; continue; }
		for o in $("$bin/$t" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
			grep -q -- "${o#--}" "$f" ||
				{ echo "lint: $t: $o is in --help but not in ${f#$top/}"; status=1; }
		done
	done
done
exit $status
