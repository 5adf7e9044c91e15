#!/usr/bin/env bats
# The tools on a shared machine: the default of -j is the CPUs the
# process may use (its affinity mask, as taskset(1) sets it, and its
# cgroup's CPU quota), and the default of -S a quarter of the memory it
# may use (the least of the physical memory, its cgroup's limit,
# RLIMIT_AS and RLIMIT_DATA, as prlimit(1) sets them), and --help and
# the man pages say so; every size option takes its sizes one way,
# percentages of that memory included; the Slurm script of README.md
# runs.
#
# Threads are counted by tests/limits/tasks.c, preloaded: after each
# thread a program starts, the threads alive in /proc/self/task; at exit,
# the most seen and how many were started.  The cgroup files themselves
# are read in the unit tests (tests/unit/test_util.c), on trees laid out
# for them: a test cannot make a cgroup here.

bats_require_minimum_version 1.5.0

setup_file() {
	export GEN="$BATS_FILE_TMPDIR/gen"
	mkdir -p "$GEN"
	cc -shared -fPIC -O2 -Wall -o "$GEN/tasks.so" \
	    "$BATS_TEST_DIRNAME/limits/tasks.c" -ldl
	# Large enough for the threaded parser at TS_CHUNK=64K.
	awk 'BEGIN { srand(42); for (i = 0; i < 300000; i++)
	    printf "%d %d %d %.6f\n", 1 + int(rand() * 500),
	    1 + int(rand() * 400), 1 + int(rand() * 300), rand() * 10 - 5 }' \
	    >"$GEN/big.tns"
}

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
	# The CPUs this shell may use, as a list taskset -c takes.
	CPUS=$(taskset -pc $$ | sed 's/.*: //')
}

# cpu N: the Nth CPU (from 1) this shell may use; nothing when fewer.
cpu() {
	local l a b n=0
	for l in ${CPUS//,/ }; do
		a=${l%-*} b=${l#*-}
		while [ "$a" -le "$b" ]; do
			n=$((n + 1))
			[ "$n" -eq "$1" ] && { echo "$a"; return; }
			a=$((a + 1))
		done
	done
}

# threads CMD...: run CMD with the thread counter; prints "PEAK STARTED".
threads() {
	local out=$BATS_TEST_TMPDIR/tasks.out
	rm -f "$out"
	if [ "${TS_SANITIZE:-0}" = 1 ]; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	fi
	TS_CHUNK=65536 TS_TASKS_OUT=$out LD_PRELOAD=$GEN/tasks.so "$@" \
	    </dev/null >/dev/null 2>"$BATS_TEST_TMPDIR/tasks.err" || {
		cat "$BATS_TEST_TMPDIR/tasks.err"
		return 1
	}
	cat "$out"
}

# same_threads CPULIST N CMD...: CMD pinned to CPULIST runs as many
# threads as CMD -j N unpinned (the one argument "-j N" goes first).
same_threads() {
	local cpus=$1 n=$2 pinned given
	shift 2
	pinned=$(threads taskset -c "$cpus" "$1" "${@:2}") || return 1
	given=$(threads "$1" -j "$n" "${@:2}") || return 1
	if [ "$pinned" != "$given" ]; then
		echo "$*: on CPUs $cpus: '$pinned' (peak, started); -j $n: '$given'"
		return 1
	fi
}

@test "pinned to one CPU, each tool runs the threads -j 1 runs; on two, those of -j 2" {
	local one two b=$BATS_TEST_TMPDIR/b c n
	[ -z "${TS_VALGRIND:-}" ] || skip "valgrind runs one thread at a time"
	one=$(cpu 1)
	two=$(cpu 2)
	ts-convert -q "$GEN/big.tns" -o "$b"
	# The measure tells one thread from two, and the threads change
	# nothing but the speed.
	mkdir j1 j2
	[ "$(threads ts-sort -j 1 "$GEN/big.tns" -o j1/s.tns)" != \
	    "$(threads ts-sort -j 2 "$GEN/big.tns" -o j2/s.tns)" ]
	[ "$(threads ts-convert -j 1 "$GEN/big.tns" -o j1/c.tnsb)" != \
	    "$(threads ts-convert -j 2 "$GEN/big.tns" -o j2/c.tnsb)" ]
	cmp j1/s.tns j2/s.tns
	cmp j1/c.tnsb j2/c.tnsb
	for c in "$one" ${two:+"$one,$two"}; do
		n=1
		[ "$c" = "$one" ] || n=2
		echo "# CPUs $c"
		# Text parsed by threads, and sorted by them.
		same_threads "$c" $n ts-convert -f "$GEN/big.tns" -o c.tnsb
		same_threads "$c" $n ts-sort -f "$GEN/big.tns" -o s.tns
		# zstd's workers, for an archive.
		same_threads "$c" $n ts-convert -f "$GEN/big.tns" -o c.tar.zst
		same_threads "$c" $n ts-pack -f -o p.tar.zst "$b"
		# Normal values are dear enough to share between threads.
		same_threads "$c" $n ts-gen-values -f --replace --dist normal \
		    "$b" -o g.tnsb
	done
}

@test "ts-validate pinned to one CPU parses a bundle's text with one thread" {
	local b=$BATS_TEST_TMPDIR/b pinned free
	[ -z "${TS_VALGRIND:-}" ] || skip "valgrind runs one thread at a time"
	[ -n "$(cpu 2)" ] || skip "one CPU here"
	ts-convert -q "$GEN/big.tns" -o "$b"
	pinned=$(threads taskset -c "$(cpu 1)" ts-validate "$b")
	free=$(threads taskset -c "$(cpu 1),$(cpu 2)" ts-validate "$b")
	assert_equal "$pinned" "1 0"
	[ "$free" != "$pinned" ]
}

# ---- memory, and the one size parser ----

# nosan: skip under sanitizers and valgrind, which reserve more address
# space than any limit these tests set.
nosan() {
	[ "${TS_SANITIZE:-0}" != 1 ] && [ -z "${TS_VALGRIND:-}" ] ||
	    skip "sanitizers and valgrind reserve more address space than RLIMIT_AS allows"
}

@test "--help of ts-sort and ts-validate says what -S's 25% comes to, and of which limit" {
	local t
	for t in ts-sort ts-validate; do
		run -0 "$t" --help
		assert_output --regexp 'RAM, the cgroup.s'
		assert_output --regexp 'memory\.max,'
		assert_output --regexp 'RLIMIT_AS and RLIMIT_DATA; default 25%'
		assert_output --regexp ' here, of [0-9.]+[KMGT] (physical memory|cgroup memory\.max|cgroup memory\.limit_in_bytes|RLIMIT_AS|RLIMIT_DATA)'
	done
	nosan
	for t in ts-sort ts-validate; do
		run -0 prlimit --as=$((1 << 30)) "$t" --help
		assert_output --partial "256M here, of 1G RLIMIT_AS"
		run -0 prlimit --data=$((3 << 29)) "$t" --help
		assert_output --partial "384M here, of 1.5G RLIMIT_DATA"
		run -0 prlimit --as=$((1 << 30)) --data=$((3 << 29)) "$t" --help
		assert_output --partial "256M here, of 1G RLIMIT_AS"
	done
}

@test "under a 3 MB data limit every option works, and a default -S that cannot be met is said plainly (issue 30, point 21)" {
	local t
	nosan
	for t in ts-convert ts-gen-values ts-pack ts-sort ts-stat ts-validate; do
		run -0 prlimit --data=3000000 "$t" --help
		run -0 prlimit --data=3000000 "$t" --version
	done
	# ts-sort -c sorts nothing; -S given is taken as given.
	run -0 prlimit --data=3000000 ts-sort -c "$SHARE/example-element"
	run -0 prlimit --data=3000000 ts-sort -S 1M "$SHARE/example-element"
	# A default only an output that keeps its arrays uses (.npz) is
	# worked out for that output alone.
	run -0 prlimit --data=3000000 ts-convert -q "$SHARE/example-element" x.tnsb
	run -2 prlimit --data=3000000 ts-convert -q "$SHARE/example-element" x.npz
	assert_line --index 0 --regexp "^ts-convert: -S: its default, 25% of the memory it may use, is [0-9.]+K here"
	for t in ts-sort ts-validate ts-stat; do
		run -2 prlimit --data=3000000 "$t" "$SHARE/example-element"
		assert_line --index 0 --regexp "^$t: -S: its default, 25% of the memory it may use, is [0-9.]+K here \(of 2\.[0-9]M RLIMIT_DATA\), less than the 1M it needs: give -S SIZE\$"
	done
}

# A tensor whose records (48 MB) do not fit, with the rest of the
# process, in 128 MB of address space: sorted in memory, as a plan for
# the machine's RAM would, it runs out; sorted in runs of a quarter of
# RLIMIT_AS, it is sorted.
@test "under prlimit --as, ts-sort sorts in runs of a quarter of the limit, where a plan for the RAM ran out of memory" {
	nosan
	awk 'BEGIN { srand(3); for (i = 0; i < 3000000; i++)
	    printf "%d %d %d %d\n", 1 + int(rand() * 500),
	    1 + int(rand() * 400), 1 + int(rand() * 300), i % 7 }' >big3.tns
	mkdir want got runs
	ts-sort -q -j 1 big3.tns -o want/s.tns
	run prlimit --as=$((128 << 20)) ts-sort -q -j 1 -T runs big3.tns \
	    -o got/s.tns
	assert_success
	cmp want/s.tns got/s.tns
	assert_equal "$(ls -A runs)" ""
	# With threads too, whose malloc arenas would each reserve 64 MB of
	# the address space.
	mkdir got2
	run prlimit --as=$((200 << 20)) ts-sort -q -j 2 big3.tns -o got2/s.tns
	assert_success
	cmp want/s.tns got2/s.tns
	# It did spill: -T is needed.
	run prlimit --as=$((128 << 20)) ts-sort -q -j 1 -T no-such-dir \
	    big3.tns -o got/s2.tns
	assert_failure 3
}

@test "every size option takes a size the same way: fractions, K to T, and percentages of the memory the process may use" {
	local b opt
	ts-pack -q -o a.tar.zst "$SHARE/example-element" "$SHARE/example-block"
	mkdir u
	# A percentage, as ts-pack(1) says.
	run -0 ts-pack -q -x a.tar.zst -C u --max-size 50%
	assert_equal "$(ls -A u)" "SHA256SUMS
example-block
example-element"
	rm -rf u/*
	run ts-pack -x a.tar.zst -C u --max-size 1.5K
	assert_failure 1
	assert_output --partial "pass 1536 bytes (--max-size)"
	run ts-pack -x a.tar.zst -C u --max-size 0.5k
	assert_failure 1
	assert_output --partial "pass 512 bytes (--max-size)"
	run -0 ts-sort -q -S 1.5M "$SHARE/example-element" -o s.tns
	run -0 ts-validate -q -S 10% "$SHARE/example-element"
	# What is not a size is refused alike by every option.
	for opt in "ts-sort -S" "ts-validate -S" "ts-pack -x a.tar.zst --max-size"; do
		for b in 1e9 0x10 inf 50%x 101% 0% -1 +1 1MB 1,5G "" " 1G" 1.5.5; do
			run $opt "$b" "$SHARE/example-element"
			assert_failure 2
			assert_output --partial "${opt##* }: '$b' is not a size"
		done
	done
	run ts-sort -S 512K "$SHARE/example-element"
	assert_failure 2
	assert_output --partial "-S: '512K' is not a size of at least 1M, like 256M, 2G or 25%"
	run ts-pack -x a.tar.zst --max-size 0
	assert_failure 2
	assert_output --partial "--max-size: '0' is not a size, like 256M, 2G or 25%"
	# The percentage is of the memory the process may use.
	nosan
	run prlimit --as=$((1 << 30)) ts-pack -x a.tar.zst -C u \
	    --max-size 0.0001%
	assert_failure 1
	assert_output --partial "pass 1073 bytes (--max-size)"
}

# The Slurm script of README.md, as a job of one CPU would run it.
@test "the Slurm script of README.md runs" {
	awk '/^    #!\/bin\/sh$/ { p = 1 } p && /^$/ { exit } p { print substr($0, 5) }' \
	    "$TS_TOP/README.md" >job.sh
	grep -q 'SLURM_CPUS_PER_TASK' job.sh
	mkdir tensors
	cp -r "$SHARE/example-element" "$SHARE/example-block" tensors/
	cp "$DATA/real/splatt_med.tns" big.tns
	SLURM_CPUS_PER_TASK=1 run sh job.sh
	assert_success
	[ -s sorted.tns ] && [ -s tensors.tar.zst ]
	run -0 ts-sort -c -k 3,1,2 sorted.tns
	run -0 ts-validate -q tensors.tar.zst
}
