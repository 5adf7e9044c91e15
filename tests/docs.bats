#!/usr/bin/env bats
# The documentation agrees with the tools: man pages lint clean, their
# EXAMPLES run and print what they show, every option is documented and
# completed, and the JSON Schema agrees with the C metadata checks.

load test_helper

@test "man pages are clean under mandoc -T lint" {
	run mandoc -T lint -W warning "$TS_TOP"/man/*.[0-9]
	assert_success
	assert_output ""
}

@test "every --help option is in the man page and the three completions" {
	run "$TS_TOP/tests/lint.sh" "$TS_BIN"
	assert_success
}

@test "the EXAMPLES of every tool's man page run and print what they show" {
	local page bad=0
	cd "$TS_TOP"
	for page in man/ts-*.1; do
		/usr/bin/python3 tests/man-examples.py "$page" || bad=1
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
	local f name verdict cverdict bad=0
	for f in "$DATA"/schema/*.json; do
		name=$(basename "$f" .json)
		verdict=$(/usr/bin/python3 "$TS_TOP/tests/schema-check.py" \
		    "$SHARE/tensorsuite-metadata.schema.json" "$f" | cut -f2)
		# Put the file in a bundle named 't' with the files it names
		# present, and count only metadata errors (M, B2, B3).
		rm -rf "$BATS_TEST_TMPDIR/t"
		mkdir -p "$BATS_TEST_TMPDIR/t"
		cp "$f" "$BATS_TEST_TMPDIR/t/t_metadata.json"
		for n in $(jq -r '.files | objects | .[] | strings |
		    select(test("^[^/]+$"))' "$f" 2>/dev/null); do
			touch "$BATS_TEST_TMPDIR/t/$n"
		done
		cverdict=$(ts-validate --json --quick "$BATS_TEST_TMPDIR/t" |
		    jq -r '[.diagnostics[] | select(.severity == "error" and
		        (.rule // "" | test("^(M|B2|B3)")))] |
		        if length == 0 then "valid" else "invalid" end')
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
# skipped, one fails.
@test "tests/run.sh counts skipped tests apart from passed ones" {
	local t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t/tests" "$t/build/tests"
	cp "$TS_TOP/tests/run.sh" "$t/tests/"
	# printf, not a here-document: bats would take a line that starts
	# with @test in this file for one of its own tests.
	printf '%s\n' '@test "passes" {' true '}' \
	    '@test "is skipped" {' 'skip "not here"' '}' \
	    '@test "fails" {' false '}' >"$t/tests/a.bats"
	# A clean environment: the outer bats's variables, and its own
	# directory in PATH, would steer the inner one.
	run env -i PATH=/usr/bin:/bin HOME="$HOME" "$t/tests/run.sh" \
	    "$t/build"
	assert_failure 1
	assert_line --index 0 "# bats: a.bats"
	assert_line "ok 2 is skipped # skip not here"
	assert_equal "${lines[-2]}" "1 skipped"
	assert_equal "${lines[-1]}" "1 passed, 1 failed"
}
