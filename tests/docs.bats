#!/usr/bin/env bats
# The documentation agrees with the tools: man pages lint clean, their
# EXAMPLES run and print what they show, their SEE ALSO name every page,
# the .tnsb readers of tensorsuite(5) read right, every option and every
# value it takes is documented and completed, and the JSON Schema agrees
# with the C metadata checks.  And tests/run.sh counts right.

bats_require_minimum_version 1.5.0

load test_helper

@test "make demo, the README's first command, validates, packs and fills the examples, and makes a synthetic tensor and its spy plot" {
	local build
	build=$(cd "$TS_BIN/.." && pwd)
	run -0 make -s -C "$TS_TOP" demo BUILD="$build"
	assert_line "share/example-element: valid (0 errors, 0 warnings)"
	assert_line "3 bundles: 3 valid, 0 invalid"
	assert_line "$build/examples.tar.zst: valid (0 errors, 0 warnings)"
	assert_line --partial "% name: example-block"
	# A synthetic tensor, its statistics and its spy plot.
	assert_line "$build/demo-kron: valid"
	assert_line --regexp "^  nnz +20000 of 262144 positions"
	assert_line --partial "picture: $build/demo-pictures/demo-kron/demo-kron_spy_1-2_512x512.png"
	[ -s "$build/demo-pictures/demo-kron/demo-kron_spy_1-2_512x512.png" ]
	rm -rf "$build/examples.tar.zst" "$build/demo-kron" "$build/demo-pictures"
}

# The README's commands, as one who has just run `make` pastes them: in a
# scratch copy of share/ whose build is the build under test, in order,
# and all again (tests/readme-examples.py).
@test "every command of README.md runs, twice, and prints what the README shows" {
	run /usr/bin/python3 "$TS_TOP/tests/readme-examples.py" \
	    "$TS_TOP/README.md" "$(cd "$TS_BIN/.." && pwd)"
	assert_success
	assert_output --regexp '^README\.md: [0-9]+ commands, run twice in a scratch copy: each exited 0 and printed what the README shows; share/ as it was$'
}

# tests/readme-examples.py on a README of a few lines: each way a command
# can be wrong is found, with the README's line.
@test "tests/readme-examples.py finds a command that fails, prints something else, fails the second time, changes share/, or is not marked" {
	local b
	b=$(cd "$TS_BIN/.." && pwd)
	cd "$BATS_TEST_TMPDIR"
	mkdir t && ln -s "$TS_TOP/share" t/share
	cat >t/README.md <<'EOF'
# t

Text, not run:

    build/bin/ts-validate nothing-here

Run:

    $ build/bin/ts-validate share/example-element
    share/example-element: valid (0 errors, 0 warnings)
    $ build/bin/ts-validate --json share/example-block |
        jq -c .valid
    true
EOF
	run -0 /usr/bin/python3 "$TS_TOP/tests/readme-examples.py" t/README.md "$b"
	assert_output "README.md: 2 commands, run twice in a scratch copy: each exited 0 and printed what the README shows; share/ as it was"
	# Each line of the README that is wrong is named, on both runs.
	cat >>t/README.md <<'EOF'

More:

    $ build/bin/ts-validate share/example-element
    share/example-element: valid
    $ build/bin/ts-validate missing
    $ build/bin/ts-pack -o x.tar.zst share/example-block
    $ touch share/new

```sh
build/bin/ts-validate share/example-block
```
EOF
	run -1 /usr/bin/python3 "$TS_TOP/tests/readme-examples.py" t/README.md "$b"
	assert_line 'README.md:23: a shell block with no "$ " line: mark each command with "$ ", or tag the block otherwise'
	assert_line "README.md:17: FAIL (output): build/bin/ts-validate share/example-element"
	assert_line "README.md:19: FAIL (exit 3): build/bin/ts-validate missing"
	assert_line "README.md:19 (second run): FAIL (exit 3): build/bin/ts-validate missing"
	assert_line "README.md:20 (second run): FAIL (exit 2): build/bin/ts-pack -o x.tar.zst share/example-block"
	refute_line "README.md:20: FAIL (exit 2): build/bin/ts-pack -o x.tar.zst share/example-block"
	assert_line "README.md: share/new: made by the commands"
	refute_output --regexp 'README\.md:(9|11)[: ]'
	# The commands ran on a copy: share/ itself is left alone.
	[ ! -e "$TS_TOP/share/new" ]
}

@test "man pages are clean under mandoc -T lint" {
	run mandoc -T lint -W warning "$TS_TOP"/man/*.[0-9]
	assert_success
	assert_output ""
}

@test "every --help option, and every value an option takes, is in the man page and the three completions, which offer no value the tool refuses" {
	run "$TS_TOP/tests/lint.sh" "$TS_BIN"
	assert_success
	assert_output ""
}

# tests/lint.sh on a copy of the tree whose completions offer a value the
# tool refuses (auto, cutensor for --from), or miss one (mtx for --to).
@test "tests/lint.sh finds a completion that offers a value the tool refuses, or misses one" {
	local t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t/tests" "$t/src/ts-convert"
	cp -r "$TS_TOP/man" "$TS_TOP/completions" "$t/"
	cp "$TS_TOP/tests/lint.sh" "$t/tests/"
	run "$t/tests/lint.sh" "$TS_BIN"
	assert_success
	# The lists as the tool gives them, whatever formats it has.
	from=$(ts-convert --from __x 2>&1 | sed -n "s/.*expected one of //p" | sed 's/, / /g')
	to=$(ts-convert --to __x 2>&1 | sed -n "s/.*expected one of //p" | sed 's/, / /g')
	sed -i "0,/compgen -W \$'bundle/{s/compgen -W \$'bundle/compgen -W \$'auto\\\\nbundle/;s/' -- /\\\\ncutensor' -- /}" \
	    "$t/completions/bash/ts-convert"
	sed -i '/--to=/s/ mtx / /' "$t/completions/zsh/_ts-convert"
	run "$t/tests/lint.sh" "$TS_BIN"
	assert_failure 1
	assert_line "lint: ts-convert: --from: the bash completion offers 'auto $from cutensor'; ts-convert takes '$from'"
	assert_line "lint: ts-convert: --from: the bash completion offers 'auto', which ts-convert refuses"
	assert_line "lint: ts-convert: --from: the bash completion offers 'cutensor', which ts-convert refuses"
	assert_line "lint: ts-convert: --to: the zsh completion offers '${to/ mtx / }'; ts-convert takes '$to'"
	assert_equal "${#lines[@]}" 4
}

# bash_complete N TOOL WORD...: what the bash completion of TOOL offers
# for word N of "TOOL WORD...", one per line.
bash_complete() {
	local n=$1 tool=$2
	shift 2
	bash -c '. "$1"; COMP_CWORD=$2; shift 2; COMP_WORDS=("$@")
	    "_${1//-/_}" 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' \
	    sh "$TS_TOP/completions/bash/$tool" "$n" "$tool" "$@"
}

@test "the completions of ts-sort -k offer the identity order of SRC, when its first bytes tell it" {
	cd "$TS_TOP"
	run bash_complete 2 ts-sort -k "" share/example-element
	assert_output "1,2,3"
	run bash_complete 3 ts-sort share/example-binary/example-binary_metadata.json --key ""
	assert_output "1,2"
	run bash_complete 4 ts-sort -q tests/data/real/splatt_med.tns -k ""
	assert_output "1,2,3"
	run bash_complete 5 ts-sort --to tns share/example-binary/example-binary.tnsb -k ""
	assert_output "1,2"
	run bash_complete 3 ts-sort tests/data/mtx/LFAT5.mtx -k ""
	assert_output "1,2"
	run bash_complete 3 ts-sort share/example-element -k 1,3
	assert_output ""
	# No SRC, or one that does not tell: nothing.
	run bash_complete 2 ts-sort -k ""
	assert_output ""
	run bash_complete 2 ts-sort -k "" -o share/example-element
	assert_output ""
	if command -v fish >/dev/null; then
		run fish -c "source completions/fish/ts-sort.fish
		    complete -C 'ts-sort share/example-element -k '"
		assert_output --regexp '^1,2,3'$'\t'
	fi
	if command -v zsh >/dev/null; then
		run zsh -c 'compadd() { print -r -- "$@"; }; _arguments() { :; }
		    source completions/zsh/_ts-sort
		    words=(ts-sort -q share/example-binary -k ""); CURRENT=5
		    _ts_sort_key'
		assert_output -- "-- 1,2"
	fi
}

# Every tool built has a page, and tensorsuite(5) shows a command too
# (libtensorsuite(3)'s, which need the installed library, run in lib.bats).
@test "the EXAMPLES of every tool's man page and of tensorsuite(5) run and print what they show" {
	local t page bad=0 n=0
	cd "$TS_TOP"
	for t in "$TS_BIN"/ts-*; do
		[ -f "man/${t##*/}.1" ] || { echo "${t##*/}: no man page"; bad=1; }
	done
	for page in man/ts-*.1 man/tensorsuite.5; do
		/usr/bin/python3 tests/man-examples.py "$page" || bad=1
		n=$((n + 1))
	done
	[ "$bad" -eq 0 ]
	[ "$n" -ge 7 ]
}

# files_offered MODE TOOL N WORD...: the names the bash completion of
# TOOL offers for word N of "TOOL WORD...", sorted, in a bash started
# with --norc: with MODE "plain" nothing else is loaded (extglob is off),
# with "bash-completion" the bash-completion package is, which turns
# extglob on.
files_offered() {
	local mode=$1 tool=$2 n=$3
	shift 3
	bash --norc -c 'set -u
	    [ "$1" = plain ] || . /usr/share/bash-completion/bash_completion
	    . "$2"; tool=$3 COMP_CWORD=$4; shift 4; COMP_WORDS=("$tool" "$@")
	    COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
	    "_${tool//-/_}"; printf "%s\n" "${COMPREPLY[@]}"' \
	    sh "$mode" "$TS_TOP/completions/bash/$tool" "$tool" "$n" "$@" |
	    sort
}

# completion_files: in the test's directory, a directory d and empty
# files of every name the tools' options and operands take, and of some
# they do not; and in dst, pack_out, pack_in and validate, sorted, the
# names offered for DST of ts-convert, ts-sort, ts-gen and ts-gen-values (a
# bundle: a directory, or an archive; a data file, compressed or not),
# for ts-pack -o, for -x and -t, and for ts-validate's operands.
completion_files() {
	local f
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir d
	for f in a.tar a.tar.zst a.tzst a.tar.gz a.tgz a.tar.xz a.txz \
	    a.tar.bz2 a.tbz2 b.tns b.tns.gz b.tnsb b.tnsb.zst c.mtx c.mtx.xz \
	    e.json e.json.bz2 i.csv x_metadata.json notes.txt notes.txt.gz; do
		: >"$f"
	done
	dst=$(printf '%s\n' d a.tar a.tar.zst a.tzst a.tar.gz a.tgz a.tar.xz \
	    a.txz b.tns b.tns.gz b.tnsb b.tnsb.zst c.mtx c.mtx.xz e.json \
	    e.json.bz2 x_metadata.json | sort)
	pack_out=$(printf '%s\n' d a.tar a.tar.zst a.tzst a.tar.gz a.tgz \
	    a.tar.xz a.txz | sort)
	pack_in=$(printf '%s\n' d a.tar a.tar.zst a.tzst a.tar.gz a.tgz \
	    a.tar.xz a.txz a.tar.bz2 a.tbz2 | sort)
	validate=$(printf '%s\n' d a.tar a.tar.zst a.tzst a.tar.gz a.tgz \
	    a.tar.xz a.txz a.tar.bz2 a.tbz2 b.tns b.tns.gz b.tnsb b.tnsb.zst \
	    c.mtx c.mtx.xz e.json.bz2 x_metadata.json notes.txt.gz | sort)
}

# The bash completions offer, for -o and the operands of every tool, the
# names the tool takes there and no other, with bash-completion loaded
# and without.
@test "the bash completions offer every kind of file an option or operand takes, with and without bash-completion" {
	local mode dst pack_out pack_in validate
	[ -f /usr/share/bash-completion/bash_completion ] ||
	    skip "bash-completion is not installed (scripts/deps.sh)"
	completion_files
	for mode in plain bash-completion; do
		echo "# $mode"
		assert_equal "$(files_offered $mode ts-gen 2 -o '')" "$dst"
		assert_equal "$(files_offered $mode ts-gen-values 2 -o '')" "$dst"
		assert_equal "$(files_offered $mode ts-gen-values 1 --output=)" \
		    "$(echo "$dst" | sed 's/^/--output=/')"
		assert_equal "$(files_offered $mode ts-convert 2 b.tns '')" "$dst"
		assert_equal "$(files_offered $mode ts-convert 3 b.tns -o '')" "$dst"
		# -j takes its N, which is no operand: the next word is SRC.
		assert_equal "$(files_offered $mode ts-convert 3 -j 2 n)" \
		    "$(printf '%s\n' notes.txt notes.txt.gz)"
		assert_equal "$(files_offered $mode ts-sort 2 -o '')" "$dst"
		assert_equal "$(files_offered $mode ts-pack 2 -o '')" "$pack_out"
		assert_equal "$(files_offered $mode ts-pack 2 -x a)" \
		    "$(echo "$pack_in" | grep '^a')"
		assert_equal "$(files_offered $mode ts-pack 2 -t '')" "$pack_in"
		assert_equal "$(files_offered $mode ts-pack 4 -o a.tar --index '')" \
		    "$(printf '%s\n' d e.json i.csv x_metadata.json | sort)"
		assert_equal "$(files_offered $mode ts-pack 3 -o a.tar '')" \
		    "$(printf '%s\n' d x_metadata.json)"
		assert_equal "$(files_offered $mode ts-validate 1 '')" "$validate"
		# SRC: any file; its kind comes from its contents.
		assert_equal "$(files_offered $mode ts-sort 1 n)" \
		    "$(printf '%s\n' notes.txt notes.txt.gz)"
	done
}

# zsh_glob FILE ARG: the names in this directory that the glob of the
# _files -g of FILE's spec of ARG ("]:DST", or a "local NAME=") matches,
# sorted.
zsh_glob() {
	local pat
	pat=$(grep -F -- "$2" "$TS_TOP/completions/zsh/$1" | head -n 1 |
	    sed -n 's/.*_files -g "\([^"]*\)".*/\1/p')
	[ -n "$pat" ] || { echo "no pattern for $2 in $1"; return 1; }
	zsh -c 'setopt nullglob; print -l ${~1}' zsh "$pat" | sort
}

@test "the zsh and fish completions offer every kind of file -o and the operands take" {
	local t dst pack_out pack_in validate
	command -v zsh >/dev/null || command -v fish >/dev/null ||
	    skip "neither zsh nor fish is installed"
	completion_files
	if command -v zsh >/dev/null; then
		# zsh's _files adds the directories itself.
		for t in _ts-convert _ts-sort _ts-gen _ts-gen-values; do
			assert_equal "$(zsh_glob $t ']:DST')" "$(echo "$dst" | grep -vx d)"
		done
		assert_equal "$(zsh_glob _ts-convert "'2:DST")" "$(echo "$dst" | grep -vx d)"
		assert_equal "$(zsh_glob _ts-pack 'local archives=')" \
		    "$(echo "$pack_out" | grep -vx d)"
		assert_equal "$(zsh_glob _ts-pack 'local inarchives=')" \
		    "$(echo "$pack_in" | grep -vx d)"
		assert_equal "$(zsh_glob _ts-validate "'*:bundle")" \
		    "$(echo "$validate" | grep -vx d)"
	fi
	if command -v fish >/dev/null; then
		assert_equal "$(fish -c "source '$TS_TOP/completions/fish/ts-pack.fish'
		    complete -C 'ts-pack -x '" | cut -f1 | sort)" \
		    "$(echo "$pack_in" | sed 's,^d$,d/,' | sort)"
		assert_equal "$(fish -c "source '$TS_TOP/completions/fish/ts-pack.fish'
		    complete -C 'ts-pack -o '" | cut -f1 | sort)" \
		    "$(echo "$pack_out" | sed 's,^d$,d/,' | sort)"
		assert_equal "$(fish -c "source '$TS_TOP/completions/fish/ts-validate.fish'
		    complete -C 'ts-validate '" | cut -f1 | sort)" \
		    "$(echo "$validate" | sed 's,^d$,d/,' | sort)"
	fi
}

# jobs_default: what the text on stdin says the default of -j is: "cpus"
# (the CPUs, cores or processors there are), a number, or "?".
jobs_default() {
	tr '\n' ' ' | sed -n 's/^.*[Dd]efault\(:\| is\)\{0,1\} *//p' |
	    awk '{ t = substr($0, 1, 80) }
	    t ~ /CPU|core|processor/ { print "cpus"; exit }
	    match(t, /^[0-9]+/) { print substr(t, 1, RLENGTH); exit }
	    { print "?" }'
}

@test "--help and the man page of every tool give -j the same default" {
	local t h m bad=0
	for t in ts-convert ts-sort ts-gen ts-gen-values ts-pack ts-validate; do
		h=$("$TS_BIN/$t" --help | awk '/^ +-j, --jobs/ { p = 1; print; next }
		    p && /^          +[^ -]/ { print; next } { p = 0 }' | jobs_default)
		m=$(awk '/^\.It Fl j Ar/ { p = 1; next } p && /^\.It / { exit }
		    p' "$TS_TOP/man/$t.1" | jobs_default)
		if [ "$h" != "$m" ] || [ "$h" = "?" ]; then
			echo "$t: --help says the default of -j is '$h', $t(1) '$m'"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}

@test "the man pages give TS_CHUNK and TS_PRINT_CHUNK the code's defaults, and the size of file that threads parse" {
	local t m chunk pchunk bad=0
	# The defines: "((uint64_t)1 << 20)", "((size_t)4096)".
	chunk=$(sed -n 's/^#define CHUNK[^(]*(\(.*\)).*/\1/p' \
	    "$TS_TOP/src/lib/format/parallel.c" | sed 's/([a-z0-9_]*)//g')
	pchunk=$(sed -n 's/^#define CHUNK[^(]*(\(.*\)).*/\1/p' \
	    "$TS_TOP/src/lib/format/print_par.c" | sed 's/([a-z0-9_]*)//g')
	chunk=$((chunk)) pchunk=$((pchunk))
	[ "$chunk" -gt 0 ] && [ "$pchunk" -gt 0 ]
	for m in "$TS_TOP"/man/*.1; do
		t=$(awk '/^\.It Ev TS_CHUNK$/ { p = 1; next } p && /^\.It / { exit }
		    p' "$m" | tr '\n' ' ')
		if [ -n "$t" ] && ! echo "$t" | grep -q "(default $chunk;"; then
			echo "${m##*/}: TS_CHUNK's default is not $chunk: $t"
			bad=1
		fi
		t=$(awk '/^\.It Ev TS_PRINT_CHUNK$/ { p = 1; next } p && /^\.It / { exit }
		    p' "$m" | tr '\n' ' ')
		if [ -n "$t" ] && ! echo "$t" | grep -q "(default $pchunk;"; then
			echo "${m##*/}: TS_PRINT_CHUNK's default is not $pchunk: $t"
			bad=1
		fi
		# The size past which threads parse: eight chunks.
		t=$(tr '\n' ' ' <"$m" | grep -o '(a file of [^()]*MiB[^()]*parsed by one thread' |
		    grep -v "of no more than $((8 * chunk / 1048576)) MiB," || :)
		if [ -n "$t" ]; then
			echo "${m##*/}: says '$t', not $((8 * chunk / 1048576)) MiB"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}

@test "--help of every tool with -S says its default, a share of the memory the process may use, as the man pages do" {
	local t h bad=0
	for t in ts-convert ts-sort ts-gen ts-gen-values ts-pack ts-validate ts-stat; do
		h=$("$TS_BIN/$t" --help | awk '/^ +-S, --buffer-size/ { p = 1; print; next }
		    p && /^          +[^ -]/ { print; next } { p = 0 }' | tr -s ' \n' ' ')
		[ -n "$h" ] || continue
		case $h in
		*"memory.max"*"default 25%"*) ;;
		*) echo "$t: --help's -S does not give its default: $h"; bad=1 ;;
		esac
	done
	[ "$bad" -eq 0 ]
}

@test "the bash completion offers the long options" {
	run bash -c "source '$TS_TOP/completions/bash/ts-validate';
	    COMP_WORDS=(ts-validate --q); COMP_CWORD=1; _ts_validate;
	    printf '%s\\n' \"\${COMPREPLY[@]}\""
	assert_success
	assert_line -- "--quick"
	assert_line -- "--quiet"
}

# The schema and ts-validate agree on every metadata file of
# tests/data/schema: valid-* pass both, invalid-* fail both.
@test "the JSON Schema and the C checks agree on tests/data/schema" {
	local f k name want verdict cverdict bad=0 files=()
	# Each file in a bundle named 't' of its own, with the files it
	# names present; the schema's verdicts and ts-validate's in one run
	# each, in the files' order, counting only metadata errors (M, B2,
	# B3).
	k=0
	for f in "$DATA"/schema/*.json; do
		k=$((k + 1))
		files+=("$f")
		mkdir -p "$BATS_TEST_TMPDIR/$k/t"
		cp "$f" "$BATS_TEST_TMPDIR/$k/t/t_metadata.json"
		for n in $(jq -r '.files | objects | .[] | strings |
		    select(test("^[^/]+$"))' "$f" 2>/dev/null); do
			touch "$BATS_TEST_TMPDIR/$k/t/$n"
		done
	done
	/usr/bin/python3 "$TS_TOP/tests/schema-check.py" \
	    "$SHARE/tensorsuite-metadata.schema.json" "${files[@]}" |
	    cut -f2 >"$BATS_TEST_TMPDIR/schema.out"
	ts-validate --json --quick $(seq -f "$BATS_TEST_TMPDIR/%g/t" 1 $k) |
	    jq -r '[.diagnostics[] | select(.severity == "error" and
	        (.rule // "" | test("^(M|B2|B3)")))] |
	        if length == 0 then "valid" else "invalid" end' \
	    >"$BATS_TEST_TMPDIR/c.out" || :
	[ "$(wc -l <"$BATS_TEST_TMPDIR/schema.out")" -eq "$k" ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/c.out")" -eq "$k" ]
	k=0
	for f in "${files[@]}"; do
		k=$((k + 1))
		name=$(basename "$f" .json)
		verdict=$(sed -n "${k}p" "$BATS_TEST_TMPDIR/schema.out")
		cverdict=$(sed -n "${k}p" "$BATS_TEST_TMPDIR/c.out")
		case $name in
		valid-*) want=valid ;;
		*) want=invalid ;;
		esac
		if [ "$verdict" != "$want" ] || [ "$cverdict" != "$want" ]; then
			echo "$name: schema says $verdict, ts-validate says $cverdict, expected $want"
			bad=1
		fi
	done
	[ "$bad" -eq 0 ]
}

# tests/run.sh, run on a tree of its own: one test passes, one is
# skipped, one fails; a second suite passes; a third is killed.  One lane or two, the same lines in the same order.
@test "tests/run.sh counts skipped tests apart from passed ones, in one lane or two" {
	local t=$BATS_TEST_TMPDIR/tree j
	mkdir -p "$t/tests" "$t/build/tests"
	cp "$TS_TOP/tests/run.sh" "$t/tests/"
	# printf, not a here-document: bats would take a line that starts
	# with @test in this file for one of its own tests.
	printf '%s\n' '@test "passes" {' true '}' \
	    '@test "is skipped" {' 'skip "not here"' '}' \
	    '@test "fails" {' false '}' >"$t/tests/a.bats"
	printf '%s\n' '@test "b passes" {' 'sleep 1' '}' >"$t/tests/b.bats"
	for j in 1 2; do
		# A clean environment: the outer bats's variables, and its
		# own directory in PATH, would steer the inner one.
		run env -i PATH=/usr/bin:/bin HOME="$HOME" TS_TEST_JOBS=$j \
		    "$t/tests/run.sh" "$t/build"
		assert_failure 1
		# Two lanes say as each suite ends; one prints it then.
		if [ "$j" = 2 ]; then
			assert_line --regexp '^# ended: a\.bats, [0-9]+ s, status 1$'
		else
			assert_line --index 0 "# bats: a.bats"
		fi
		assert_line "ok 2 is skipped # skip not here"
		assert_equal "$(printf '%s\n' "${lines[@]}" | grep '^# bats:' |
		    sed 's/: [0-9]* s$/: N s/' | tr '\n' '|')" \
		    "# bats: a.bats|# bats: a.bats: N s|# bats: b.bats|# bats: b.bats: N s|"
		assert_line "ok 1 b passes"
		assert_equal "${lines[-2]}" "1 skipped"
		assert_equal "${lines[-1]}" "2 passed, 1 failed"
	done
	# A suite whose test is killed fails the run, though no line says
	# "not ok".
	rm "$t/tests/a.bats"
	printf '%s\n' '@test "killed" {' 'kill -9 $$' '}' >"$t/tests/c.bats"
	for j in 1 2; do
		run env -i PATH=/usr/bin:/bin HOME="$HOME" TS_TEST_JOBS=$j \
		    "$t/tests/run.sh" "$t/build"
		assert_failure 1
		assert_line "# bats: c.bats"
		assert_equal "${lines[-1]}" "1 passed, 0 failed"
	done
}

# The suites that run make in the build tree run one after the other:
# make install PREFIX=/usr in one, and make demo in another, remake
# tensorsuite.pc and the pages under the third.
@test "tests/run.sh runs docs, install and lib, which run make in the build tree, one at a time" {
	local t=$BATS_TEST_TMPDIR/tree n
	mkdir -p "$t/tests" "$t/build/tests"
	cp "$TS_TOP/tests/run.sh" "$t/tests/"
	for n in docs install lib other; do
		printf '%s\n' "@test \"$n\" {" \
		    "echo start $n >>'$t/log'" 'sleep 1' \
		    "echo end $n >>'$t/log'" '}' >"$t/tests/$n.bats"
	done
	run env -i PATH=/usr/bin:/bin HOME="$HOME" TS_TEST_JOBS=2 \
	    "$t/tests/run.sh" "$t/build"
	assert_success
	assert_equal "${lines[-1]}" "4 passed, 0 failed"
	# Each of the three starts after the one before has ended.
	run sh -c "grep -v other '$t/log' | tr '\n' ' '"
	assert_output "start docs end docs start install end install start lib end lib "
}

@test "the rule table of the library is tensorsuite(5)'s list, and each rule is reported under its own id or the page says under which (issue 31)" {
	run /usr/bin/python3 "$TS_TOP/tests/rules-check.py" "$TS_TOP"
	assert_success
	assert_output ""
	# The checker fails on a page that no longer says why E4 is not
	# reported as itself.
	local t=$BATS_TEST_TMPDIR/t
	mkdir -p "$t/man"
	cp -R "$TS_TOP/src" "$t/"
	sed '/^Reported as S1, which checks every coordinate read\.$/d' \
	    "$TS_TOP/man/tensorsuite.5" >"$t/man/tensorsuite.5"
	run /usr/bin/python3 "$TS_TOP/tests/rules-check.py" "$t"
	assert_failure 1
	assert_output "E4: reported as ['S1'] in the table, itself in the page"
}

@test "SEE ALSO of every man page names every tool, tensorsuite(5) and libtensorsuite(3)" {
	local page name xr bad=0
	for page in "$TS_TOP"/man/*.[0-9]; do
		name=${page##*/}
		for xr in "ts-validate 1" "ts-convert 1" "ts-sort 1" "ts-gen 1" \
		    "ts-gen-values 1" "ts-pack 1" "ts-stat 1" "libtensorsuite 3" \
		    "tensorsuite 5"; do
			[ "${xr% *}.${xr#* }" = "$name" ] && continue
			sed -n '/^\.Sh SEE ALSO/,/^\.Sh /p' "$page" |
			    grep -q "^\.Xr $xr\( ,\)\{0,1\}\$" || {
				echo "$name: SEE ALSO lacks $xr"
				bad=1
			}
		done
	done
	[ "$bad" -eq 0 ]
}

# literal PAGE WORD: the literal display of PAGE that holds WORD, as its
# reader would type it.
literal() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read().split("\n")
block = None
for line in text:
    if line.startswith(".Bd -literal"):
        block = []
    elif line.startswith(".Ed") and block is not None:
        if any(sys.argv[2] in b for b in block):
            print("\n".join(block))
            break
        block = None
    elif block is not None:
        block.append(line.replace("\\e", "\\").replace("\\&", "")
                     .replace("\\-", "-"))
PY
}

@test "the numpy and C readers of a .tnsb in tensorsuite(5) read the entries the tools read" {
	cd "$BATS_TEST_TMPDIR"
	literal "$TS_TOP/man/tensorsuite.5" "import numpy" >reader.py
	literal "$TS_TOP/man/tensorsuite.5" "#include <stdio.h>" >reader.c
	grep -q np.fromfile reader.py
	# The page's own lines, run from the top of the tree, then what
	# they found; and the reader on other layouts: little-endian
	# float64 (example-element) and a block tensor's coordinates.
	ts-convert -q "$SHARE/example-block" blk --binary
	cat >>reader.py <<'PY'
print(coords.tolist(), values.tolist(), t.dtype.descr)
el = read_tnsb("share/example-element")
print(el.dtype.descr)
for r in el:
    print(*r.tolist())
print(read_tnsb(sys.argv[1]).tolist())
PY
	sed -i '1i import sys' reader.py
	run -0 bash -c "cd '$TS_TOP' && /usr/bin/python3 '$BATS_TEST_TMPDIR/reader.py' '$BATS_TEST_TMPDIR/blk'"
	assert_line --index 0 "[[0, 1], [1, 0], [2, 2], [4, 3]] [7, 7, -4, 12] [('c0', '>u4'), ('c1', '>u4'), ('value', '>i4')]"
	assert_line --index 1 "[('c0', '<u8'), ('c1', '<u8'), ('c2', '<u8'), ('value', '<f8')]"
	# Python's repr of each value: 3.0 where the text file says 3.
	assert_equal "$(printf '%s\n' "${lines[@]:2:6}")" "1 1 1 2.5
1 3 2 -1.25
2 2 1 1e-300
3 1 2 0.1
4 2 2 3.0
4 3 1 1e+16"
	assert_line --index 8 "[(0, 0), (1, 1), (2, 0)]"
	# C, as strict as the project's own code.
	run -0 ${CC:-cc} -std=c11 -Wall -Wextra -pedantic -Werror -o reader reader.c
	run -0 ./reader "$SHARE/example-binary/example-binary.tnsb"
	assert_output "$(ts-convert "$SHARE/example-binary" - --to frostt)"
}
