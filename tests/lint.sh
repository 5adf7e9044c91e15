#!/bin/sh
# The tools, their man pages and their completions agree:
#  - every long option a tool's --help prints appears in its man page and
#    in its bash, zsh and fish completions;
#  - an option that takes one of a list of values (the tool names them
#    when given one it does not take: "--to: 'x': expected one of ...")
#    has each of them in its man page, and each completion offers exactly
#    that list: the bash one as its completion function answers, the zsh
#    and fish ones as their files spell it;
#  - every value a completion offers, the tool takes (run with it), and
#    --help names every value an option takes.
# Prints what is wrong; exit 1 when something is.  Usage: tests/lint.sh
# [BIN-DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/bin}
status=0

# values TOOL OPT: the values OPT takes, one per line, as the tool lists
# them when given one it does not take; nothing when OPT takes no list.
values() {
	"$bin/$1" "$2" __lint__ --help 2>&1 >/dev/null |
	    sed -n "s/^$1: $2: '__lint__': expected one of //p" |
	    tr -d ' ' | tr ',' '\n'
}

# bash_offers TOOL OPT: what the bash completion offers after "TOOL OPT ".
bash_offers() {
	bash -c '. "$1" 2>/dev/null
	    COMP_WORDS=("$2" "$3" ""); COMP_CWORD=2
	    COMP_LINE="$2 $3 "; COMP_POINT=${#COMP_LINE}
	    "$4" 2>/dev/null
	    printf "%s\n" "${COMPREPLY[@]}"' sh "$top/completions/bash/$1" \
	    "$1" "$2" "_$(echo "$1" | tr - _)" | grep -v '^$'
}

# fish_offers TOOL OPT: the words of the -a list of "complete -c TOOL
# ... -l OPT", its variables (set --local NAME 'WORDS') expanded.
fish_offers() {
	awk -v opt="${2#--}" '
	$1 == "set" && $2 == "--local" {
		v = $0
		sub(/^set --local [^ ]+ /, "", v)
		gsub(/["\047]/, "", v)
		var["$" $3] = v
	}
	$1 == "complete" {
		hit = 0
		for (i = 1; i < NF; i++)
			if ($i == "-l" && $(i + 1) == opt)
				hit = 1
		if (!hit || !match($0, / -a ("[^"]*"|\047[^\047]*\047)/))
			next
		a = substr($0, RSTART + 4, RLENGTH - 4)
		gsub(/["\047]/, "", a)
		n = split(a, w, " ")
		for (i = 1; i <= n; i++)
			print (w[i] in var) ? var[w[i]] : w[i]
	}' "$top/completions/fish/$1.fish" | tr ' ' '\n' | grep -v '^$'
}

# zsh_offers TOOL OPT: the words of the "(...)" action of OPT's spec.
zsh_offers() {
	grep -e "[{'()]$2=" "$top/completions/zsh/_$1" |
	    sed -n 's/.*:(\([^)]*\))'"'"'.*/\1/p' | tr ' ' '\n' | grep -v '^$'
}

# same LIST LIST: the two lists hold the same words.
same() {
	[ "$(echo "$1" | sort -u)" = "$(echo "$2" | sort -u)" ]
}

for dir in "$top"/src/ts-*; do
	t=${dir##*/}
	[ -x "$bin/$t" ] || { echo "lint: $bin/$t not built" >&2; status=1; continue; }
	opts=$("$bin/$t" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
	for f in "$top/man/$t.1" "$top/completions/bash/$t" \
	    "$top/completions/zsh/_$t" "$top/completions/fish/$t.fish"; do
		[ -f "$f" ] || { echo "lint: missing $f"; status=1; continue; }
		for o in $opts; do
			grep -q -- "${o#--}" "$f" ||
				{ echo "lint: $t: $o is in --help but not in ${f#$top/}"; status=1; }
		done
	done
	for o in $opts; do
		want=$(values "$t" "$o")
		[ -n "$want" ] || continue
		for v in $want; do
			grep -qw -- "$v" "$top/man/$t.1" ||
				{ echo "lint: $t: $o takes '$v', which man/$t.1 does not name"; status=1; }
			# The words come from the library's tables (formats,
			# value types, ...): --help names each too.
			"$bin/$t" --help | grep -qw -- "$v" ||
				{ echo "lint: $t: $o takes '$v', which --help does not name"; status=1; }
		done
		for sh in bash zsh fish; do
			got=$(${sh}_offers "$t" "$o")
			same "$got" "$want" ||
				{ echo "lint: $t: $o: the $sh completion offers '$(echo $got)'; $t takes '$(echo $want)'"; status=1; }
			for v in $got; do
				"$bin/$t" "$o" "$v" --help >/dev/null 2>&1 ||
					{ echo "lint: $t: $o: the $sh completion offers '$v', which $t refuses"; status=1; }
			done
		done
	done
done
exit $status
