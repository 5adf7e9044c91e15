#!/usr/bin/env bats
# Faults: what a writer of a bundle leaves when the system fails it, when
# it is killed, or when another writer runs beside it.  After each, the
# bundle is the old one or the new one, never a mix; a failed or
# interrupted writer leaves no temporary beside it (after SIGKILL, which
# nothing can catch, the next writer of the bundle removes what was left).
#
# System calls fail through strace's fault injection (-e inject=SC:
# error=EIO:when=N), at each call in turn, and kills land there the same
# way (signal=SIGKILL); other kills land at random times.  Each test adds
# its counts to $FAULTS_LOG; the last test prints the totals (runs,
# faults injected, bundles intact) as a TAP comment.

bats_require_minimum_version 1.5.0

setup_file() {
	export FAULTS_LOG="$BATS_FILE_TMPDIR/counts"
	: >"$FAULTS_LOG"
}

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	if mountpoint -q "$BATS_TEST_TMPDIR/small" 2>/dev/null; then
		umount "$BATS_TEST_TMPDIR/small"
	fi
}

# ---- local helpers ----

# needstrace: skip a test that injects its faults through strace where
# strace cannot run.
needstrace() {
	strace -f -qq -o /dev/null true 2>/dev/null ||
	    skip "strace is not installed or cannot trace here"
	# LeakSanitizer cannot run under ptrace: a sanitized build is
	# traced with leak checks off (the other suites keep them).
	if [ "${TS_SANITIZE:-0}" = 1 ]; then
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	fi
}

# smallfs SIZE: a file system of SIZE bytes (a tmpfs) at ./small,
# unmounted by teardown; skip where mounting is not allowed.
smallfs() {
	mkdir small
	[ "$(id -u)" -eq 0 ] ||
	    skip "mounting a small file system needs root"
	mount -t tmpfs -o size="$1",mode=0755 tmpfs small 2>/dev/null ||
	    skip "mounting a tmpfs is not allowed here"
}

# same A B: directories A and B hold the same names, links and bytes
# (not the same inodes: an atomic rewrite replaces them).
same() {
	diff -r --no-dereference "$1" "$2" >/dev/null 2>&1
}

# count KIND N: add N to the counts of KIND (runs, faults, intact).
count() {
	echo "$1 $2" >>"$FAULTS_LOG"
}

# total KIND: the sum of the counts of KIND.
total() {
	awk -v k="$1" '$1 == k { n += $2 } END { print n + 0 }' "$FAULTS_LOG"
}

# beside: what the working directory holds besides the bundles named.
beside() {
	local n want=" $* "
	for n in $(ls -A); do
		case $want in *" $n "*) ;; *) echo "$n" ;; esac
	done
}

# unsorted DIR [ROWS [SEED]]: a bundle DIR (text and binary, a README,
# an auxiliary file, a subdirectory) of ROWS random rows, not sorted.
unsorted() {
	local rows=${2:-40} seed=${3:-5}
	awk -v n="$rows" -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < n; i++)
	    printf "%d %d %d %.4f\n", 1 + int(rand() * 9),
	    1 + int(rand() * 8), 1 + int(rand() * 7), rand() - 0.5 }' >rows.in
	ts-convert -q --dims 9,8,7 rows.in -o "$1"
	rm rows.in
	echo "notes" >"$1/notes.txt"
	mkdir "$1/extra"
	echo "deep" >"$1/extra/deep.txt"
}

# fresh: bundle t as it was made, from its copy o/t.
fresh() {
	rm -rf t && cp -a o/t t
}

# outcome: bundle t is the old one (o/t) or the new one (n/t), else say
# how it differs from the old one.
outcome() {
	same t o/t || same t n/t && return 0
	echo "# t is neither the old nor the new bundle:" >&3
	diff -r --no-dereference o/t t 2>&1 | sed 's/^/# /' >&3
	return 1
}

# inject SC ERR-OR-SIGNAL N CMD...: run CMD under strace with the Nth
# call of SC failing (error=EIO) or killed (signal=SIGKILL); status 0 and
# "injected" on stdout when the Nth call came, else "none".
inject() {
	local sc=$1 how=$2 n=$3
	shift 3
	strace -f -qq -o strace.out -e trace="$sc" \
	    -e inject="$sc:$how:when=$n" "$@" >/dev/null 2>cmd.err
	if grep -q -e INJECTED -e 'killed by SIGKILL' strace.out; then
		echo injected
	else
		echo none
	fi
	rm -f strace.out
}

# The calls that change files, and those that make them durable.
SYSCALLS="write rename renameat2 linkat unlink unlinkat mkdir mkdirat rmdir
fsync fdatasync close flock"

# firstcall SC CMD...: the number of the first call of SC that CMD makes
# once it takes the bundle's lock (flock); the calls before (loading
# libraries, reading arguments) change no bundle.  1 for a writer that
# takes no lock.
firstcall() {
	local sc=$1
	shift
	fresh
	strace -f -qq -o calls.out -e trace="flock,$sc" "$@" 2>/dev/null
	awk -v sc="$sc" '$2 ~ "^flock\\(" { seen = 1 }
	    $2 ~ "^" sc "\\(" { n++; if (seen) { found = 1; exit } }
	    END { print found ? n : seen ? n + 1 : 1 }' calls.out
	rm -f calls.out
}

# faultloop HOW CMD...: for every call of $SYSCALLS in turn (from the
# lock on, at most $PERCALL of each), a fresh copy of bundle t (from o/t)
# goes through CMD with that call failing (HOW error=EIO) or killed
# (signal=SIGKILL); then t must be the old bundle or the new one (n/t).  After a failure nothing is left beside t,
# unless the failure was in removing it: then the next run of CMD
# removes it.  After a kill, a clean run of CMD leaves the new bundle
# and nothing beside it.
faultloop() {
	local how=$1 sc n last runs=0 faults=0 intact=0 left=0 got
	shift
	for sc in $SYSCALLS; do
		n=$(firstcall "$sc" "$@")
		last=$((n + ${PERCALL:-6}))
		while [ "$n" -lt "$last" ]; do
			fresh
			got=$(inject "$sc" "$how" "$n" "$@")
			runs=$((runs + 1))
			[ "$got" = injected ] || break
			faults=$((faults + 1))
			outcome || { cat cmd.err >&3; return 1; }
			if [ "$how" = signal=SIGKILL ]; then
				"$@" 2>cmd.err || { cat cmd.err >&3; return 1; }
				same t n/t || return 1
			fi
			if [ -n "$(beside t o n src cmd.err)" ]; then
				# What a failed clean-up left (the failure
				# was in it), the next writer removes.
				left=$((left + 1))
				"$@" 2>cmd.err || { cat cmd.err >&3; return 1; }
				same t n/t || return 1
			fi
			if [ -n "$(beside t o n src cmd.err)" ]; then
				echo "# $sc #$n ($how) left: $(beside t o n src cmd.err)" >&3
				return 1
			fi
			intact=$((intact + 1))
			n=$((n + 1))
		done
	done
	count runs "$runs"
	count faults "$faults"
	count intact "$intact"
	count left "$left"
	[ "$faults" -gt 0 ]
}

# =====================================================================
# ts-sort -i: all or nothing (issue 12, defect 6)
# =====================================================================

@test "faults: ts-sort -i with each rename, write, fsync... failing in turn leaves the old bundle or the new one, and nothing beside it" {
	needstrace
	mkdir o && unsorted o/t
	fresh
	ts-sort -q -i -k 3,1,2 t
	mkdir n && cp -a t n/t
	! same o/t n/t
	faultloop error=EIO ts-sort -q -i -k 3,1,2 t
}

@test "faults: ts-sort -i killed at each rename, write, fsync...: the old bundle or the new one; the next run finishes it and leaves nothing" {
	needstrace
	mkdir o && unsorted o/t
	fresh
	ts-sort -q -i -k 3,1,2 t
	mkdir n && cp -a t n/t
	faultloop signal=SIGKILL ts-sort -q -i -k 3,1,2 t
}

@test "faults: ts-convert -f onto a bundle, with each call failing or killed in turn: the old bundle or the new one" {
	needstrace
	mkdir o && unsorted o/t
	unsorted src 60 9
	fresh
	ts-convert -q -f src -o t
	mkdir n && cp -a t n/t
	! same o/t n/t
	# The commit is ts-sort's (above); the calls around it suffice.
	SYSCALLS="renameat2 fsync unlinkat close"
	faultloop error=EIO ts-convert -q -f src -o t
	faultloop signal=SIGKILL ts-convert -q -f src -o t
}

@test "faults: the exchange unsupported (renameat2 fails with EINVAL): a journaled sequence, all or nothing, and a rerun repairs a kill" {
	needstrace
	mkdir o && unsorted o/t
	fresh
	ts-sort -q -i -k 3,1,2 t
	mkdir n && cp -a t n/t
	# Every renameat2 fails: the fallback runs, and works.
	fresh
	run strace -f -qq -o /dev/null -e inject=renameat2:error=EINVAL \
	    ts-sort -q -i -k 3,1,2 t
	assert_success
	same t n/t
	[ -z "$(beside t o n)" ]
	# Killed at each rename of the fallback: old or new, or (between
	# its two renames) no bundle, which a reader is told about and the
	# next run of the writer brings back.
	local n runs=0 faults=0 intact=0 got
	for n in 1 2 3 4 5 6; do
		fresh
		got=$(strace -f -qq -o strace.out -e trace=rename,renameat2 \
		    -e inject=renameat2:error=EINVAL \
		    -e inject=rename:signal=SIGKILL:when=$n \
		    ts-sort -q -i -k 3,1,2 t 2>/dev/null; grep -c "killed by SIGKILL" strace.out || true)
		runs=$((runs + 1))
		[ "$got" -gt 0 ] || break
		faults=$((faults + 1))
		if [ ! -e t ]; then
			run ts-validate t
			assert_failure 3
			assert_output --partial "interrupted"
		else
			outcome
		fi
		run ts-sort -q -i -k 3,1,2 t
		assert_success
		same t n/t
		[ -z "$(beside t o n strace.out)" ]
		intact=$((intact + 1))
	done
	[ "$faults" -ge 2 ]
	count runs "$runs"
	count faults "$faults"
	count intact "$intact"
}

@test "faults: ts-sort -i and ts-convert -f killed (SIGKILL, SIGTERM) at random times: old or new, never a mix" {
	local i sig runs=0 intact=0 pid
	mkdir o && unsorted o/t 20000
	fresh
	ts-sort -q -i -k 3,1,2 t
	mkdir n && cp -a t n/t
	for i in $(seq 1 10); do
		fresh
		sig=KILL
		[ $((i % 2)) -eq 0 ] && sig=TERM
		ts-sort -q -i -k 3,1,2 t 2>/dev/null &
		pid=$!
		sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
		kill -s "$sig" "$pid" 2>/dev/null || true
		wait "$pid" || true
		runs=$((runs + 1))
		outcome
		if [ "$sig" = TERM ]; then
			[ -z "$(beside t o n)" ] ||
			    { echo "# SIGTERM left $(beside t o n)" >&3; false; }
		fi
		ts-sort -q -i -k 3,1,2 t
		same t n/t
		[ -z "$(beside t o n)" ]
		intact=$((intact + 1))
	done
	count runs "$runs"
	count faults "$runs"
	count intact "$intact"
}

# =====================================================================
# Two writers (issue 12, defect 7)
# =====================================================================

@test "faults: a second ts-sort -i waits for the first, saying so, and both results are whole" {
	needstrace
	unsorted t
	# The first writer is slowed down at each rename and fsync.
	strace -f -qq -o /dev/null -e inject=rename,renameat2,fsync:delay_enter=300000 \
	    ts-sort -q -i -k 1,2,3 t &
	sleep 0.3
	run ts-sort -i -k 3,2,1 t
	wait
	assert_success
	assert_output --partial "waiting"
	run ts-validate t
	assert_success
	run jq -c .sort_order t/t_metadata.json
	assert_output '[3,2,1]'
	[ -z "$(beside t)" ]
}

@test "faults: two writers at once (ts-sort -i, ts-convert -f) 12 times: both succeed, the bundle is valid and whole" {
	local i runs=0 intact=0 a b
	mkdir o && unsorted o/t 3000
	unsorted src 3000 9
	fresh
	for i in $(seq 1 12); do
		ts-sort -q -i -k 1,2,3 t 2>a.err &
		a=$!
		if [ $((i % 2)) -eq 0 ]; then
			ts-sort -q -i -k 3,2,1 t 2>b.err &
		else
			ts-convert -q -f src -o t 2>b.err &
		fi
		b=$!
		wait "$a" || { cat a.err >&3; false; }
		wait "$b" || { cat b.err >&3; false; }
		runs=$((runs + 2))
		run ts-validate t
		assert_success
		[ -z "$(beside t o n src a.err b.err)" ]
		intact=$((intact + 1))
	done
	count runs "$runs"
	count intact "$intact"
}

# =====================================================================
# Signals (issue 12, defect 8)
# =====================================================================

@test "faults: a hang-up ignored before the start (nohup) stays ignored; a default one cleans up" {
	local pid st
	unsorted b 2000
	mkfifo in.tns
	# SIGHUP ignored: the conversion goes on and finishes.  (The first
	# rows are more than the look-ahead at the kind of the file, so the
	# output is open when the signal comes.)
	(trap '' HUP; exec ts-convert -q --meta b/b_metadata.json in.tns \
	    -o out.tns) &
	pid=$!
	exec 5>in.tns
	head -n 1000 b/b.tns >&5
	sleep 0.5
	kill -HUP "$pid"
	sleep 0.2
	tail -n +1001 b/b.tns >&5
	exec 5>&-
	wait "$pid"
	cmp out.tns b/b.tns
	# SIGHUP at its default (whatever the tests were started with):
	# the program dies of it, leaving nothing.
	rm out.tns
	env --default-signal=HUP ts-convert -q --meta b/b_metadata.json \
	    in.tns -o out.tns &
	pid=$!
	exec 5>in.tns
	head -n 1000 b/b.tns >&5
	sleep 0.5
	kill -HUP "$pid"
	exec 5>&-
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 129
	[ -z "$(beside b in.tns)" ]
}

# =====================================================================
# A full file system (issue 22, point 5)
# =====================================================================

# bigrows DIR [VALUES]: bundles DIR/big (200000 random entries of order
# 2 with values, about 3 MB of text that compresses to more than a
# small file system holds) and DIR/pat (the same without values).
bigrows() {
	mkdir -p "$1"
	awk 'BEGIN { srand(3); for (i = 0; i < 200000; i++)
	    printf "%d %d %.6f\n", 1 + int(rand() * 1000),
	    1 + int(rand() * 1000), rand() }' >"$1/rows.in"
	ts-convert -q --dims 1000,1000 "$1/rows.in" -o "$1/big"
	cut -d' ' -f1,2 "$1/rows.in" >"$1/pat.in"
	ts-convert -q --no-values --dims 1000,1000 "$1/pat.in" -o "$1/pat"
	rm "$1/rows.in" "$1/pat.in"
}

# fullrun DST CMD...: CMD, writing DST on the full file system small,
# exits 3 saying so, naming DST, and leaves nothing there.
fullrun() {
	local dst=$1
	shift
	run "$@"
	[ "$status" -eq 3 ] ||
	    { echo "# $* exited $status: $output" >&3; return 1; }
	[[ "$output" == *"small/$dst"*"No space left on device"* ]] ||
	    { echo "# $*: $output" >&3; return 1; }
	# Said once, in one line (no library's own report beside it).
	[ "${#lines[@]}" -eq 1 ] ||
	    { echo "# $*: ${#lines[@]} lines: $output" >&3; return 1; }
	[ -z "$(ls -A small)" ] ||
	    { echo "# $* left: $(ls -A small)" >&3; return 1; }
}

@test "faults: every output kind of every tool on a full file system: exit 3, said, nothing left" {
	local dst
	smallfs 256k
	bigrows in
	for dst in x.tns.gz x.tns.xz x.tns.bz2 x.tns.zst x.tns x.tnsb x.mtx \
	    x x.tar.zst x.tar.gz x.tar.xz x.tar; do
		fullrun "$dst" ts-convert -q in/big small/$dst
		fullrun "$dst" ts-sort -q -k 2,1 in/big -o small/$dst
		[ "$dst" = x.mtx ] && continue
		fullrun "$dst" ts-gen-values -q --seed 1 in/pat -o small/$dst
	done
	for dst in p.tar.zst p.tar.gz p.tar.xz p.tar; do
		fullrun "$dst" ts-pack -q -o small/$dst in/big
	done
	ts-pack -q -o in/p.tar.zst in/big
	fullrun big ts-pack -q -C small -x in/p.tar.zst
	# The formats that take entries unique and sorted (issue 33): the
	# arrays laid down in the output's file, or HDF5's writes.
	ts-sort -q --duplicates sum in/big -o in/u
	for dst in x.npz x.bsp.npz x.bsp.h5; do
		fullrun "$dst" ts-convert -q in/u small/$dst
		fullrun "$dst" ts-sort -q -k 2,1 --duplicates sum in/big \
		    -o small/$dst
	done
	fullrun x.bin ts-convert -q --to splatt-bin in/u small/x.bin
	fullrun x.bin ts-convert -q --to frostt-bin in/u small/x.bin
}

@test "faults: a bundle rewritten in place on a full file system stays as it was, and nothing is left beside it" {
	smallfs 2m
	bigrows in
	unsorted small/t 4000 9
	mkdir o && cp -a small/t o/t
	# What is left of the space is less than a second copy of t.
	head -c $(( $(df -B1 --output=avail small | tail -n 1) - 40000 )) \
	    /dev/zero >small/filler 2>/dev/null || true
	run ts-sort -q -i -k 3,1,2 small/t
	assert_failure 3
	assert_output --partial "No space left on device"
	same small/t o/t
	[ "$(ls -A small)" = "$(printf 'filler\nt')" ]
	run ts-convert -q -f in/big -o small/t
	assert_failure 3
	assert_output --partial "No space left on device"
	same small/t o/t
	[ "$(ls -A small)" = "$(printf 'filler\nt')" ]
}

# =====================================================================
# A bundle its user cannot rewrite (issue 22, point 7)
# =====================================================================

# asuser CMD...: `run CMD...` as a user that file modes bind (nobody,
# when we are root, who writes anything).
asuser() {
	if [ "$(id -u)" -eq 0 ]; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
		    env PATH="$PATH" "$@"
	else
		run "$@"
	fi
}

# refused CMD...: CMD, as that user, exits 3 naming what it cannot
# write; bundle t is as it was (o/t) and nothing is beside it.
refused() {
	asuser "$@"
	[ "$status" -eq 3 ] ||
	    { echo "# $* exited $status: $output" >&3; return 1; }
	[[ "$output" == *"not writable"* ]] ||
	    { echo "# $*: $output" >&3; return 1; }
	same t o/t || { echo "# $* changed t" >&3; return 1; }
	[ -z "$(beside t o src pat a.tar.zst)" ] ||
	    { echo "# $* left: $(beside t o src pat a.tar.zst)" >&3; return 1; }
}

@test "faults: a bundle whose directory (or a folder in it) its user cannot write is refused at once, exit 3, left as it was" {
	chmod 755 "$BATS_TEST_TMPDIR"
	mkdir w && cd w
	unsorted t
	unsorted src 60 9
	ts-convert -q --no-values src -o pat
	ts-pack -q -o a.tar.zst t 2>/dev/null
	[ "$(id -u)" -eq 0 ] && chown -R 65534:65534 .
	mkdir o && cp -a t o/t
	local where
	for where in t t/extra; do
		chmod 555 "$where" o/"$where"
		refused ts-convert -q -f src -o t
		assert_output --partial "'$where' is not writable"
		refused ts-sort -q -i -k 3,1,2 t
		refused ts-gen-values -q -f --seed 1 pat -o t
		refused ts-pack -q -f -x a.tar.zst
		chmod 755 "$where" o/"$where"
	done
	# Nor where the bundle's directory is.
	chmod 555 .
	refused ts-sort -q -i -k 3,1,2 t
	assert_output --partial "'.' is not writable"
	chmod 755 .
	# Nothing was bricked: the next rewrite works.
	asuser ts-sort -q -i -k 3,1,2 t
	assert_success
	[ -z "$(beside t o src pat a.tar.zst)" ]
}

# =====================================================================
# A reader beside a writer (issue 22, point 9)
# =====================================================================

@test "faults: ts-validate while every writer rewrites the bundle again and again: the old bundle or the new one, never a mix" {
	needstrace
	local i w runs=0 bad=0 st
	mkdir a b
	unsorted a/t 300 1
	unsorted b/t 700 2
	rm -r a/t/extra b/t/extra
	ts-pack -q -o b.tar.zst b/t
	cp -a a/t t
	# 400 rewrites by ts-convert -f, ts-sort -i and ts-pack -x -f.
	(for i in $(seq 1 100); do
		ts-convert -q -f a/t -o t || exit 1
		ts-sort -q -i -k 3,2,1 t || exit 1
		ts-convert -q -f b/t -o t || exit 1
		ts-pack -q -f -x b.tar.zst || exit 1
	done) 2>w.err &
	w=$!
	# Each of the reader's opens is slowed down, so that rewrites
	# land between them.
	while kill -0 "$w" 2>/dev/null; do
		st=0
		strace -f -qq -o /dev/null -e inject=openat:delay_enter=5000 \
		    ts-validate t >v.out 2>&1 || st=$?
		runs=$((runs + 1))
		if [ "$st" -ne 0 ]; then
			bad=$((bad + 1))
			head -n 2 v.out | sed 's/^/# /' >&3
		fi
	done
	wait "$w" || { cat w.err >&3; false; }
	echo "# $runs validations beside 400 rewrites, $bad saw a mix" >&3
	count runs "$runs"
	[ "$runs" -ge 10 ]
	[ "$bad" -eq 0 ]
	[ -z "$(beside t a b b.tar.zst w.err v.out SHA256SUMS)" ]
}

# =====================================================================
# What a killed writer leaves, the next one removes (issue 22, point 6)
# =====================================================================

# killedat CMD...: run CMD (quiet: it writes nothing on standard error)
# killed (SIGKILL) at its first write; fails when no write came.
killedat() {
	(strace -f -qq -o strace.out -e trace=write \
	    -e inject=write:signal=SIGKILL:when=1 "$@" >/dev/null 2>&1 ||
	    true) 2>/dev/null
	grep -q 'killed by SIGKILL' strace.out
	rm -f strace.out
}

# debris PATTERN: the names of the working directory (or of d/) that
# match PATTERN, an extended regular expression.
debris() {
	ls -A . d 2>/dev/null | grep -E "$1"
}

@test "faults: an archive or a compressed file stopped by SIGTERM or SIGINT as it writes leaves nothing, for every compression" {
	needstrace
	local dst sig
	bigrows in
	mkdir d
	for sig in SIGTERM SIGINT; do
		for dst in a.tar.zst a.tar.gz a.tar.xz a.tar; do
			(env --default-signal="$sig" strace -f -qq -o strace.out \
			    -e trace=write -e inject=write:signal=$sig:when=3 \
			    ts-pack -q -o d/$dst in/big >/dev/null 2>&1 || true) 2>/dev/null
			grep -q "killed by $sig" strace.out ||
			    { echo "# ts-pack $dst not killed: $(tail -1 strace.out)" >&3; return 1; }
			[ -z "$(ls -A d)" ] ||
			    { echo "# ts-pack $dst, $sig left: $(ls -A d)" >&3; return 1; }
		done
		for dst in x.tns.zst x.tar.zst; do
			(env --default-signal="$sig" strace -f -qq -o strace.out \
			    -e trace=write -e inject=write:signal=$sig:when=3 \
			    ts-convert -q in/big d/$dst >/dev/null 2>&1 || true) 2>/dev/null
			grep -q "killed by $sig" strace.out ||
			    { echo "# ts-convert $dst not killed: $(tail -1 strace.out)" >&3; return 1; }
			[ -z "$(ls -A d)" ] ||
			    { echo "# ts-convert $dst, $sig left: $(ls -A d)" >&3; return 1; }
		done
	done
	rm -f strace.out
}

@test "faults: ts-pack -x -f of 20 bundles stopped by SIGTERM mid-stream: no stage of any is left (issue 30, point 20)" {
	local i n off pid
	for i in $(seq -w 1 20); do
		mkbundle "$SHARE/example-element" "b$i" >/dev/null
	done
	ts-pack -q -o all.tar b??
	# Bundles that d's links point to: each is unpacked beside its
	# target, e/.bNN.ts-pack.PID.XXXXXX, a temporary of its own.
	mkdir d e
	ts-pack -q -C e -x all.tar
	for i in $(seq -w 1 20); do ln -s "../e/b$i" "d/b$i"; done
	# The archive without its manifest and end: the unpack has made
	# the 20 stages, and waits for more.
	off=$(python3 -c 'import sys, tarfile
print(tarfile.open(sys.argv[1]).getmember("SHA256SUMS").offset)' all.tar)
	mkfifo f
	ts-pack -q -f -C d -x - <f &
	pid=$!
	exec 7>f
	head -c "$off" all.tar >&7
	for i in $(seq 200); do
		n=$(ls -A e | grep -c '^\.b[0-9]*\.ts-pack\.' || true)
		[ "$n" -ge 20 ] && break
		sleep 0.05
	done
	kill -TERM "$pid"
	wait "$pid" || true
	exec 7>&-
	[ "$n" -ge 20 ]
	# The registry had 16 places: the stages past them stayed.
	run ls -A e
	assert_output "$(printf 'SHA256SUMS\n'; printf 'b%s\n' $(seq -w 1 20))"
	run ls -A d
	assert_output "$(printf 'b%s\n' $(seq -w 1 20))"
}

@test "faults: a writer killed leaves temporaries named for it, which the next writer of the same DST removes" {
	needstrace
	local pid n
	unsorted t 4000
	ts-pack -q -o t.tar.zst t 2>/dev/null
	mkdir d
	# A file (ts-sort -o), an archive (ts-convert to .tar.zst) and an
	# unpack (ts-pack -x), each killed as it writes.
	killedat ts-sort -q t -o out.tns
	n=$(debris '^\.out\.tns\.ts-sort\.[0-9]+\.[A-Za-z0-9]{6}$' | wc -l)
	[ "$n" -eq 1 ]
	killedat ts-convert -q -f t d/kb.tar.zst
	debris '^\.kb\.tar\.zst\.ts-convert\.[0-9]+\.[A-Za-z0-9]{6}$'
	killedat ts-pack -q -C d -x t.tar.zst
	debris '^\.ts-pack\.[0-9]+\.[A-Za-z0-9]{6}$'
	# A live writer's temporary and what is not a temporary stay.
	sleep 60 &
	pid=$!
	echo partial >".out.tns.ts-sort.$pid.AbC123"
	echo mine >.out.tns.notes
	# The next writer of each removes what a dead one left.
	ts-sort -q -f t -o out.tns
	ts-convert -q -f t d/kb.tar.zst
	ts-pack -q -C d -x t.tar.zst
	kill "$pid"
	[ -f ".out.tns.ts-sort.$pid.AbC123" ]
	[ -f .out.tns.notes ]
	rm ".out.tns.ts-sort.$pid.AbC123" .out.tns.notes
	[ -z "$(beside t t.tar.zst out.tns d)" ]
	[ "$(ls -A d)" = "$(printf 'SHA256SUMS\nkb.tar.zst\nt')" ]
}

@test "faults: a rewrite that cannot remove what it replaced, or sync it, says what state the bundle is in (exit 3)" {
	needstrace
	local n
	mkdir o && unsorted o/t
	fresh
	ts-sort -q -i -k 3,1,2 t
	mkdir n && cp -a t n/t
	# The last unlinkat removes the old bundle's directory, once the
	# new one is in its place.
	fresh
	strace -f -qq -o calls.out -e trace=unlinkat ts-sort -q -i -k 3,1,2 t
	n=$(grep -c '^[0-9]* *unlinkat(' calls.out)
	rm calls.out
	fresh
	run strace -f -qq -o /dev/null -e inject=unlinkat:error=EPERM:when=$n \
	    ts-sort -q -i -k 3,1,2 t
	assert_failure 3
	assert_output --partial "the new bundle is in place"
	assert_output --partial "Operation not permitted"
	same t n/t
	[ -n "$(beside t o n)" ]
	run ts-sort -q -i -k 3,1,2 t
	assert_success
	same t n/t
	[ -z "$(beside t o n)" ]
	# The last fsync makes the exchange durable.
	fresh
	strace -f -qq -o calls.out -e trace=fsync ts-sort -q -i -k 3,1,2 t
	n=$(grep -c '^[0-9]* *fsync(' calls.out)
	rm calls.out
	fresh
	run strace -f -qq -o /dev/null -e inject=fsync:error=EIO:when=$n \
	    ts-sort -q -i -k 3,1,2 t
	assert_failure 3
	assert_output --partial "the new bundle is in place"
	assert_output --partial "crash"
	same t n/t
	[ -z "$(beside t o n)" ]
}

@test "faults: the totals" {
	echo "# faults: $(total runs) runs, $(total faults) faults injected," \
	    "$(total intact) bundles intact ($(total left) of them once the" \
	    "next writer removed what a failed clean-up left)" >&3
	[ "$(total runs)" -gt 0 ]
}
