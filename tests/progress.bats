#!/usr/bin/env bats
# The progress line of every tool (src/fe/progress.c): on a terminal,
# redrawn in place within the terminal's width, the middle of a long
# path cut; into a log with TS_PROGRESS=always, whole lines a few seconds
# apart; an unknown TS_PROGRESS warned of.  The terminal is script(1)'s,
# sized with stty inside it.

bats_require_minimum_version 1.5.0

setup_file() {
	export GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	awk 'BEGIN { srand(5); for (i = 0; i < 200000; i++)
	    printf "%d %d %d %.6f\n", 1 + int(rand() * 500),
	    1 + int(rand() * 400), 1 + int(rand() * 300), rand() * 10 - 5 }' \
	    >"$GEN/big.tns"
}

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
	# 70 characters of path before the bundle's own name.
	LONG=a-rather-long-directory-name-for-a-test/and-a-second-level-below-it
	mkdir -p "$LONG"
}

# segments FILE: what FILE holds between carriage returns and newlines,
# one a line, the empty ones left out.
segments() {
	tr '\r' '\n' <"$1" | grep -v '^ *$'
}

# widest: the most characters (UTF-8) of a line on stdin.
widest() {
	/usr/bin/python3 -c 'import sys
print(max([len(l) for l in sys.stdin.buffer.read().decode().split("\n")] + [0]))'
}

# on_tty COLS CMD: run CMD (a shell command) on a terminal of COLS
# columns, with TS_PROGRESS=always; what the terminal got into tty.out.
on_tty() {
	TS_PROGRESS=always script -qec "stty cols $1; $2" /dev/null >tty.out
}

@test "on a terminal of 40 columns the progress line keeps within 39, the middle of the path cut" {
	local s n=0 tool
	ts-convert -q "$GEN/big.tns" -o "$LONG/t"
	on_tty 40 "ts-sort -f '$LONG/t' -o '$LONG/s.tns'; \
	    ts-validate '$LONG/t' >/dev/null; \
	    ts-pack -f -o '$LONG/t.tar.zst' '$LONG/t'"
	while IFS= read -r s; do
		case $s in
		ts-*:*) ;;
		*) continue ;;
		esac
		n=$((n + 1))
		if [ "${#s}" -gt 39 ]; then
			echo "${#s} characters: '$s'"
			return 1
		fi
		# The verb, the path's start and its end stay.
		[[ $s == *'...'* ]] || { echo "not cut: '$s'"; return 1; }
		[[ $s =~ ^ts-(sort|validate|pack):\ [a-z]+\ a-r ]] ||
		    { echo "start lost: '$s'"; return 1; }
	done < <(segments tty.out)
	for tool in ts-sort ts-validate ts-pack; do
		grep -q "^$tool: " < <(segments tty.out) ||
		    { echo "no line from $tool"; return 1; }
	done
	[ "$n" -ge 3 ]
	grep -q '^ts-sort: sorting a-rathe.*t *$' < <(segments tty.out)
	# And the line is cleared: it ends in spaces over it and a \r.
	[ "$(tail -c 1 tty.out | od -An -c | tr -d ' ')" = '\r' ]
	# The drawing changed nothing of the output.
	ts-sort -q -f "$LONG/t" -o want.tns
	cmp <(grep -v '^%' want.tns) <(grep -v '^%' "$LONG/s.tns")
}

@test "the cut is U+2026 in a UTF-8 locale, and a narrower terminal shortens the status first" {
	ts-convert -q "$GEN/big.tns" -o "$LONG/t"
	LC_ALL=C.UTF-8 on_tty 40 "ts-sort -f '$LONG/t' -o '$LONG/s.tns'"
	segments tty.out | grep -q '…'
	run -0 widest < <(segments tty.out)
	assert_output 39
	# At 30 columns the "(... of ...)" goes, then the status.
	on_tty 30 "ts-sort -f '$LONG/t' -o '$LONG/s.tns'"
	run -0 widest < <(segments tty.out)
	assert_output 29
	segments tty.out | grep -q '^ts-sort: sorting a-ra.*\.\.\..*t$'
	# Wide enough, nothing is cut.
	on_tty 200 "ts-sort -f '$LONG/t' -o '$LONG/s.tns'"
	segments tty.out | grep -q "^ts-sort: sorting $LONG/t *\$"
	! segments tty.out | grep -q '\.\.\.'
}

@test "into a log, TS_PROGRESS=always writes whole lines, not redraws, and not five a second" {
	local el=$SHARE/example-element
	TS_PROGRESS=always ts-sort -k 2,1,3 "$el" -o s 2>err
	run -0 cat err
	assert_line --regexp '^ts-sort: reading .*example-element: +[0-9]+% \('
	assert_line --regexp '^ts-sort: writing s: +[0-9]+% \('
	[ "$(tr -cd '\r' <err | wc -c)" -eq 0 ]
	[ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ]
	# Reading goes on for two seconds and more: one line says so (at
	# five a second there would be ten).
	{ head -n 100000 "$GEN/big.tns"; sleep 2.5; tail -n +100001 "$GEN/big.tns"; } |
	    TS_PROGRESS=always ts-sort - -o s.tns 2>err
	run -0 grep -c 'reading' err
	assert_output 1
	[ "$(tr -cd '\r' <err | wc -c)" -eq 0 ]
	# The other tools write the same way.
	TS_PROGRESS=always ts-validate "$el" >/dev/null 2>err
	grep -q '^ts-validate: checking ' err
	[ "$(tr -cd '\r' <err | wc -c)" -eq 0 ]
	TS_PROGRESS=always ts-convert "$el" -o c.tnsb 2>err
	grep -q '^ts-convert: converting ' err
	[ "$(tr -cd '\r' <err | wc -c)" -eq 0 ]
}

@test "an unknown TS_PROGRESS is warned of, by every tool, and taken as auto" {
	local el=$SHARE/example-element v
	run --separate-stderr ts-sort "$el" -o s1 <<<''
	[ -z "$stderr" ]
	for v in sometimes 1 yes Always; do
		TS_PROGRESS=$v run --separate-stderr ts-sort "$el" -o "s-$v"
		assert_success
		assert_equal "$stderr" "ts-sort: TS_PROGRESS: '$v': expected always, auto or never; taken as auto"
	done
	TS_PROGRESS=bad run --separate-stderr ts-validate "$el"
	assert_success
	assert_equal "$stderr" "ts-validate: TS_PROGRESS: 'bad': expected always, auto or never; taken as auto"
	TS_PROGRESS=bad run --separate-stderr ts-convert "$el" -o c.tns
	assert_equal "$stderr" "ts-convert: TS_PROGRESS: 'bad': expected always, auto or never; taken as auto"
	TS_PROGRESS=bad run --separate-stderr ts-gen-values --replace "$el" -o g.tns
	assert_equal "$stderr" "ts-gen-values: TS_PROGRESS: 'bad': expected always, auto or never; taken as auto"
	TS_PROGRESS=bad run --separate-stderr ts-pack -o p.tar.zst "$el"
	assert_equal "$stderr" "ts-pack: TS_PROGRESS: 'bad': expected always, auto or never; taken as auto"
	# The values it knows, and nothing, say nothing; -q neither.
	for v in always never auto ""; do
		TS_PROGRESS=$v run --separate-stderr ts-validate -q "$el"
		[ -z "$stderr" ]
		TS_PROGRESS=$v run --separate-stderr ts-sort "$el" -o "t-$v" 2>/dev/null
		[[ $stderr != *TS_PROGRESS* ]]
	done
	TS_PROGRESS=bad run --separate-stderr ts-sort -q "$el" -o q
	[ -z "$stderr" ]
}
