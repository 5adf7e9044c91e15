#!/usr/bin/env bats
# The libFuzzer harnesses (tests/fuzz/), briefly, so that a regression
# shows in CI: each must pass the inputs that once failed it
# (tests/fuzz/regress/NAME/), then fuzz for $FUZZ_CHECK_SECONDS (3) from
# its seed corpus without a finding.  They are built by `make fuzz-build`
# (clang), in build-fuzz; `make fuzz FUZZ_SECONDS=N` fuzzes for longer.

setup() {
	load test_helper
	FUZZ_BIN=${FUZZ_BIN:-$TS_TOP/build-fuzz/fuzz}
}

# fuzz NAME: the regressions, then a few seconds of fuzzing.
fuzz() {
	local bin=$FUZZ_BIN/$1 regress=$TS_TOP/tests/fuzz/regress/$1 f
	[ -x "$bin" ] || skip "$1 is not built (make fuzz-build needs clang)"
	if [ -d "$regress" ]; then
		for f in "$regress"/*; do
			run "$bin" -rss_limit_mb=2048 "$f"
			[ "$status" -eq 0 ] || {
				echo "# $f fails again:" >&3
				echo "$output" | tail -n 20 | sed 's/^/# /' >&3
				return 1
			}
		done
	fi
	mkdir -p "$BATS_TEST_TMPDIR/corpus"
	run "$bin" -max_total_time="${FUZZ_CHECK_SECONDS:-3}" -timeout=20 \
	    -rss_limit_mb=2048 -max_len=16384 \
	    -artifact_prefix="$BATS_TEST_TMPDIR/" "$BATS_TEST_TMPDIR/corpus" \
	    "$TS_TOP/tests/fuzz/corpus/$1"
	[ "$status" -eq 0 ] || {
		echo "$output" | tail -n 30 | sed 's/^/# /' >&3
		return 1
	}
}

@test "fuzz: metadata JSON (fuzz_meta)" {
	fuzz fuzz_meta
}

@test "fuzz: TensorSuite text, element and block, and its checks (fuzz_tns)" {
	fuzz fuzz_tns
}

@test "fuzz: TensorSuite binary, element and block, and its checks (fuzz_tnsb)" {
	fuzz fuzz_tnsb
}

@test "fuzz: FROSTT and its dialects, imported (fuzz_frostt)" {
	fuzz fuzz_frostt
}

@test "fuzz: Matrix Market, imported (fuzz_mtx)" {
	fuzz fuzz_mtx
}

@test "fuzz: tar archives of bundles, checked and unpacked (fuzz_archive)" {
	fuzz fuzz_archive
}
