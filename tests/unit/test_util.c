/*
 * test_util.c - unit tests of libtensorsuite's size parser (every tool's
 * -S and --max-size) and of what it finds the process may use: CPUs and
 * memory, from cgroup trees (v2, v1, both, a container's view) laid out
 * in a temporary directory; and of the SHA-256 digests of archives'
 * manifests (FIPS 180-2's vectors); and of the bytes a writer keeps to
 * its end (io/keep.c): in memory within a budget, the rest in a
 * temporary file, given back in order; and of the writes a second thread
 * makes for a writer (io/pwriter.c): at their offsets or through the
 * writer's function, in order, the first error kept.  Prints TAP; exit
 * status 1 when a test fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "util/sha256.h"
#include "util/size.h"
#include "util/sysres.h"
#include "tap.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t
next64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ts_parse_size(s, whole) gives want. */
static int
size_is(const char *s, uint64_t whole, uint64_t want)
{
	uint64_t v = 0;

	return ts_parse_size(s, whole, &v) == 0 && v == want;
}

/* ts_parse_size(s) fails with errno e. */
static int
size_fails(const char *s, int e)
{
	uint64_t v = 12345;

	errno = 0;
	return ts_parse_size(s, 1000, &v) == -1 && errno == e && v == 12345;
}

static void
test_sizes(void)
{
	static const char *const bad[] = { "", "M", "K1", "-1", "+1", "1e3",
	    "0x10", "inf", "nan", " 1", "1 ", "1MB", "1KK", "1k2", "101%",
	    "100.5%", "0%", "0.0%", "%", "1,5G", "1.5.5", "1%%", "1%M", ".",
	    ".M", "2G ", "1\n", "99999999999999999999999X", "1000000000000%",
	    NULL };
	static const char sfx[] = "KkMmGgTt";
	uint64_t g = (uint64_t)1 << 30;
	int i, good;
	char buf[64];

	ok(size_is("0", 0, 0) && size_is("1", 0, 1) &&
	    size_is("256M", 0, 256 << 20) && size_is("2g", 0, 2 * g) &&
	    size_is("1T", 0, g << 10) && size_is("1k", 0, 1024) &&
	    size_is("007K", 0, 7 << 10),
	    "sizes: bytes, K, M, G, T in either case");
	ok(size_is("1.5G", 0, g + g / 2) && size_is(".5K", 0, 512) &&
	    size_is("1.", 0, 1) && size_is("2.9", 0, 2) &&
	    size_is("0.0009765625K", 0, 1) && size_is("1.00000000000000000001M",
	    0, 1 << 20),
	    "sizes: fractions, rounded down to whole bytes");
	ok(size_is("25%", 1000, 250) && size_is("100%", 1000, 1000) &&
	    size_is("12.5%", 1000, 125) && size_is("0.5%", 1000, 5) &&
	    size_is("1%", 99, 0) && size_is("50%", 16 * g, 8 * g) &&
	    size_is("33%", 24 * g, 24 * g / 100 * 33 + 24 * g % 100 * 33 /
	    100),
	    "sizes: percentages of the memory given, 0 < N <= 100");
	for (i = 0, good = 1; bad[i] != NULL; i++)
		if (!size_fails(bad[i], EINVAL)) {
			printf("# '%s' taken for a size\n", bad[i]);
			good = 0;
		}
	ok(good, "sizes: what is not one is EINVAL, *out untouched");
	ok(size_is("9223372036854775807", 0, (uint64_t)INT64_MAX) &&
	    size_is("8388607T", 0, (uint64_t)8388607 << 40) &&
	    size_fails("9223372036854775808", ERANGE) &&
	    size_fails("8388608T", ERANGE) &&
	    size_fails("99999999999999999999999", ERANGE) &&
	    size_fails("9999999999999999999999.5G", ERANGE) &&
	    size_fails("8388608.0T", ERANGE) &&
	    size_is("8388607.99999999T", 0, ((uint64_t)8388607 << 40) +
	    (uint64_t)(0.99999999 * (double)((uint64_t)1 << 40))),
	    "sizes: beyond 2^63 - 1 bytes is ERANGE");
	/* Random counts and suffixes, and percentages of random wholes
	 * small enough for whole * N to be exact. */
	for (i = 0, good = 1; i < 20000 && good; i++) {
		uint64_t n = next64() >> (24 + next64() % 40), want;
		int k = (int)(next64() % 9);

		if (k == 8) {
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)n);
			want = n;
		} else {
			n &= ((uint64_t)1 << 22) - 1;
			snprintf(buf, sizeof(buf), "%llu%c",
			    (unsigned long long)n, sfx[k]);
			want = n << (10 * (k / 2 + 1));
		}
		good = size_is(buf, 0, want);
		if (!good)
			printf("# '%s' is not %llu\n", buf,
			    (unsigned long long)want);
	}
	ok(good, "sizes: 20000 random counts and suffixes");
	for (i = 0, good = 1; i < 20000 && good; i++) {
		uint64_t whole = next64() >> 8, p = 1 + next64() % 100;

		snprintf(buf, sizeof(buf), "%llu%%", (unsigned long long)p);
		good = size_is(buf, whole, whole * p / 100);
		if (!good)
			printf("# '%s' of %llu\n", buf,
			    (unsigned long long)whole);
	}
	ok(good, "sizes: 20000 random percentages");
}

static char tmpdir[] = "/tmp/ts-unit-XXXXXX";

/* Write text to the file rel below dir, making its directories. */
static void
put(const char *dir, const char *rel, const char *text)
{
	char path[4096], *s;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) < 0 ||
	    fclose(fp) != 0) {
		perror(path);
		exit(1);
	}
}

/* A fresh root below tmpdir, with these mountinfo and cgroup files. */
static const char *
newroot(const char *name, const char *mountinfo, const char *cgroup)
{
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	mkdir(dir, 0755);
	put(dir, "proc/self/mountinfo", mountinfo);
	put(dir, "proc/self/cgroup", cgroup);
	ts_sysres_root(dir);
	return dir;
}

#define V2MOUNT	"30 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 " \
		"cgroup2 rw,nsdelegate\n"

static void
test_cgroups(void)
{
	uint64_t g = (uint64_t)1 << 30, v;
	const char *why = NULL, *d;
	int real = ts_cpus_available();

	ok(real >= 1, "cpus: %d here", real);

	/* v2, a Slurm-like job/step: the job's limits bound the step. */
	d = newroot("v2", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n" V2MOUNT,
	    "0::/job/step\n");
	put(d, "sys/fs/cgroup/job/cpu.max", "150000 100000\n");
	put(d, "sys/fs/cgroup/job/step/cpu.max", "max 100000\n");
	put(d, "sys/fs/cgroup/job/memory.max", "2147483648\n");
	put(d, "sys/fs/cgroup/job/step/memory.max", "max\n");
	ok(ts_cgroup_cpus() == 1.5, "cgroup v2: cpu.max of a parent, 1.5");
	ok(ts_cpus_available() == (real < 2 ? real : 2),
	    "cgroup v2: 1.5 CPUs of quota are 2 threads (with the mask's %d)",
	    real);
	v = ts_cgroup_memory(&why);
	ok(v == 2 * g && strcmp(why, "cgroup memory.max") == 0,
	    "cgroup v2: memory.max of a parent, 2G");
	v = ts_mem_available(&why);
	ok(v <= 2 * g && (v < 2 * g || strcmp(why,
	    "cgroup memory.max") == 0),
	    "cgroup v2: memory available %llu, %s", (unsigned long long)v, why);
	put(d, "sys/fs/cgroup/job/step/cpu.max", "20000 100000\n");
	ok(ts_cgroup_cpus() == 0.2 && ts_cpus_available() == 1,
	    "cgroup v2: 0.2 CPUs of quota are one thread");

	/* Hybrid: v2 mounted without controllers, v1 with them. */
	d = newroot("v1",
	    "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
	    "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup "
	    "rw,cpu,cpuacct\n"
	    "34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n"
	    "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
	    "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
	    "9:cpuset:/\n4:memory:/slurm/uid_1/job_7\n"
	    "2:cpu,cpuacct:/slurm/uid_1/job_7\n0::/\n");
	put(d, "sys/fs/cgroup/unified/cgroup.procs", "1\n");
	put(d, "sys/fs/cgroup/memory/slurm/memory.limit_in_bytes",
	    "9223372036854771712\n");
	put(d, "sys/fs/cgroup/memory/slurm/uid_1/job_7/memory.limit_in_bytes",
	    "1073741824\n");
	put(d, "sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_quota_us", "-1\n");
	put(d, "sys/fs/cgroup/cpu,cpuacct/slurm/cpu.cfs_period_us",
	    "100000\n");
	put(d, "sys/fs/cgroup/cpu,cpuacct/slurm/uid_1/job_7/cpu.cfs_quota_us",
	    "300000\n");
	put(d,
	    "sys/fs/cgroup/cpu,cpuacct/slurm/uid_1/job_7/cpu.cfs_period_us",
	    "100000\n");
	ok(ts_cgroup_cpus() == 3.0, "cgroup v1: cpu.cfs_quota_us, 3 CPUs");
	v = ts_cgroup_memory(&why);
	ok(v == g && strcmp(why, "cgroup memory.limit_in_bytes") == 0,
	    "cgroup v1: memory.limit_in_bytes, 1G");

	/* A container's view: the mount shows the cgroup of the process,
	 * whose path /proc/self/cgroup gives from the host's root; and a
	 * mount point with a space in it. */
	d = newroot("ctr",
	    "30 23 0:26 /docker/abc /cg\\040root rw - cgroup2 cgroup2 rw\n",
	    "0::/docker/abc\n");
	put(d, "cg root/memory.max", "536870912\n");
	put(d, "cg root/cpu.max", "400000 100000\n");
	ok(ts_cgroup_memory(&why) == g / 2 && ts_cgroup_cpus() == 4.0,
	    "cgroup v2 in a container: the mount's own limits");
	/* Another namespace's path, not below the mount: its limits. */
	put(d, "proc/self/cgroup", "0::/elsewhere\n");
	ok(ts_cgroup_memory(&why) == g / 2,
	    "cgroup v2: a path outside the mount reads the mount's limits");

	/* No cgroup file system: no limit. */
	newroot("none", "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n", "0::/\n");
	ok(ts_cgroup_cpus() == 0 && ts_cgroup_memory(NULL) == UINT64_MAX &&
	    ts_cpus_available() == real,
	    "no cgroup mounted: no quota, no limit, the mask's CPUs");
	newroot("v2max", V2MOUNT, "0::/u\n");
	put(d = newroot("v2max", V2MOUNT, "0::/u\n"), "sys/fs/cgroup/u/cpu.max",
	    "max 100000\n");
	put(d, "sys/fs/cgroup/u/memory.max", "max\n");
	ok(ts_cgroup_cpus() == 0 && ts_cgroup_memory(NULL) == UINT64_MAX,
	    "cgroup v2: \"max\" is no limit");
	ts_sysres_root(NULL);
}

/* The digest of n bytes at p, fed in pieces of step bytes, in hex. */
static const char *
sha256_of(const void *p, size_t n, size_t step)
{
	static char hex[TS_SHA256_HEX];
	unsigned char d[TS_SHA256_LEN];
	struct ts_sha256 h;
	size_t i, k;

	if (ts_sha256_init(&h) != 0)
		return "init";
	for (i = 0; i < n; i += k) {
		k = n - i < step ? n - i : step;
		if (ts_sha256_update(&h, (const char *)p + i, k) != 0)
			return "update";
	}
	if (ts_sha256_final(&h, d) != 0)
		return "final";
	ts_sha256_hex(d, hex);
	return hex;
}

static void
test_sha256(void)
{
	static const char abc2[] =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	unsigned char d[TS_SHA256_LEN], e[TS_SHA256_LEN];
	char hex[TS_SHA256_HEX], *a;
	struct ts_sha256 h;
	size_t n = 1000000;

	ok(strcmp(sha256_of("", 0, 1), "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855") == 0, "sha256: empty input");
	ok(strcmp(sha256_of("abc", 3, 3), "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad") == 0, "sha256: \"abc\"");
	ok(strcmp(sha256_of(abc2, strlen(abc2), 7), "248d6a61d20638b8e5c0"
	    "26930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0,
	    "sha256: two blocks, fed 7 bytes at a time");
	if ((a = malloc(n)) == NULL)
		abort();
	memset(a, 'a', n);
	ok(strcmp(sha256_of(a, n, 65536), "cdc76e5c9914fb9281a1c7e284d73e67"
	    "f1809a48a497200e046d39ccc7112cd0") == 0,
	    "sha256: a million 'a', 64 KiB at a time");
	free(a);
	memset(d, 0, sizeof(d));
	d[0] = 0xab, d[31] = 0x0f;
	ts_sha256_hex(d, hex);
	ok(strlen(hex) == 64 && ts_sha256_unhex(hex, e) == 0 &&
	    memcmp(d, e, sizeof(d)) == 0 && ts_sha256_unhex("AB00", e) == -1,
	    "sha256: hex spelled and read back; a short one refused");
	hex[10] = 'g';
	ok(ts_sha256_unhex(hex, e) == -1, "sha256: a non-hex digit refused");
	ok(ts_sha256_init(&h) == 0, "sha256: a digest abandoned");
	ts_sha256_free(&h);
	ts_sha256_free(&h);
}

/* The resource limits, last: they stay lowered. */
static void
test_rlimits(void)
{
	struct rlimit rl = { (rlim_t)3 << 30, (rlim_t)3 << 30 };
	const char *why = NULL;
	uint64_t v, before = ts_mem_available(NULL);

	if (before <= (uint64_t)3 << 30) {
		ok(1, "# skip: less than 3G of memory here");
		return;
	}
	ok(setrlimit(RLIMIT_DATA, &rl) == 0 && (v = ts_mem_available(&why)) ==
	    (uint64_t)3 << 30 && strcmp(why, "RLIMIT_DATA") == 0,
	    "memory: RLIMIT_DATA bounds it");
	rl.rlim_cur = rl.rlim_max = (rlim_t)2 << 30;
	ok(setrlimit(RLIMIT_AS, &rl) == 0 && (v = ts_mem_available(&why)) ==
	    (uint64_t)2 << 30 && strcmp(why, "RLIMIT_AS") == 0,
	    "memory: RLIMIT_AS, the lower, bounds it");
}

/* What a drain gave, and after how many pieces it is to fail. */
struct drained {
	unsigned char	*p;
	size_t		 len;
	int		 pieces, fail_at;
};

static int
collect(void *arg, unsigned char *p, size_t n)
{
	struct drained *d = arg;

	if (++d->pieces == d->fail_at)
		return 7;
	memcpy(d->p + d->len, p, n);
	d->len += n;
	return 0;
}

/* n bytes of a pattern kept within budget (through ts_keep_room and
 * ts_keep_write, in odd pieces) and drained: do they come back? */
static int
keep_round(uint64_t budget, const char *dir, size_t n, int fail_at,
    int *rv, uint64_t *left_after)
{
	struct ts_keep_budget b = { budget, dir, 0 };
	struct ts_keep *k = ts_keep_new(&b);
	struct drained d = { malloc(n), 0, 0, fail_at };
	unsigned char *src = malloc(n), *q;
	size_t i, at, m, avail;
	int same;

	for (i = 0; i < n; i++)
		src[i] = (unsigned char)next64();
	*rv = 0;
	for (at = 0; at < n && *rv == 0; at += m) {
		m = 1 + (size_t)(next64() % 300000);
		m = m < n - at ? m : n - at;
		if (at % 2 == 0) {
			*rv = ts_keep_write(k, src + at, m);
			continue;
		}
		if ((q = ts_keep_room(k, 1, &avail)) == NULL) {
			*rv = -1;
			break;
		}
		m = m < avail ? m : avail;
		memcpy(q, src + at, m);
		ts_keep_commit(k, m);
	}
	if (*rv == 0 && ts_keep_size(k) != n)
		*rv = -2;
	if (*rv == 0)
		*rv = ts_keep_drain(k, collect, &d);
	*left_after = b.left;
	ts_keep_free(k);
	same = d.len == n && memcmp(d.p, src, n) == 0;
	free(src);
	free(d.p);
	return same;
}

static void
test_keep(void)
{
	const size_t n = 5 * TS_KEEP_CHUNK + 12345;
	uint64_t left;
	int rv;

	ok(keep_round(0, tmpdir, n, 0, &rv, &left) && rv == 0,
	    "keep: no budget, every byte through the file, back in order");
	ok(keep_round(2 * TS_KEEP_CHUNK, tmpdir, n, 0, &rv, &left) &&
	    rv == 0 && left == 2 * TS_KEEP_CHUNK,
	    "keep: two chunks held, the rest in the file, back in order; "
	    "the budget given back");
	ok(keep_round(64 * TS_KEEP_CHUNK, "/nonexistent", n, 0, &rv,
	    &left) && rv == 0 && left == 64 * TS_KEEP_CHUNK,
	    "keep: within the budget, no file is made");
	ok(!keep_round(0, "/nonexistent", n, 0, &rv, &left) && rv == -1 &&
	    errno == ENOENT,
	    "keep: a file that cannot be made is an error (errno %d)", errno);
	ok(!keep_round(2 * TS_KEEP_CHUNK, tmpdir, n, 3, &rv, &left) &&
	    rv == 7 && left == 2 * TS_KEEP_CHUNK,
	    "keep: a piece refused ends the drain with its value");
}

/* The pieces a pwriter hands to its function, appended; fails with
 * EDQUOT at the piece fail_at (from 1). */
struct pieces {
	unsigned char	*p;
	size_t		 len;
	int		 n, fail_at;
};

static int
piece_in(void *arg, unsigned char *p, size_t n)
{
	struct pieces *g = arg;

	if (++g->n == g->fail_at) {
		errno = EDQUOT;
		return -1;
	}
	memcpy(g->p + g->len, p, n);
	g->len += n;
	return 0;
}

static void
test_pwriter(void)
{
	enum { SZ = 4096, N = 64 };
	unsigned char want[SZ * N], got[SZ * N], *b;
	struct pieces g = { malloc(SZ * N), 0, 0, 0 };
	struct ts_pwriter *w;
	char path[80];
	int fd, i, rv = 0, bufs_ok = 1;
	uint32_t crc = 0;
	uLong want_crc = crc32(0, NULL, 0);
	ssize_t r;

	for (i = 0; i < SZ * N; i++)
		want[i] = (unsigned char)next64();
	snprintf(path, sizeof(path), "%s/pw", tmpdir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	/* Pieces at their offsets, last first, and some to the function,
	 * through three buffers: more pieces than buffers. */
	/* The pieces at odd offsets summed (CRC-32) as they are handed
	 * over, into one sum; a piece of 0 bytes adds nothing. */
	w = ts_pwriter_new(fd, SZ, 3, piece_in, &g);
	for (i = N - 1; i >= 0 && rv == 0; i--) {
		b = ts_pwriter_buf(w);
		memcpy(b, want + (size_t)i * SZ, SZ);
		rv = ts_pwriter_put(w, b, SZ, (uint64_t)i * SZ, i % 2 ? &crc :
		    NULL);
		if (i % 2)
			want_crc = crc32(want_crc, want + (size_t)i * SZ, SZ);
	}
	for (i = 0; i < N && rv == 0; i++) {
		b = ts_pwriter_buf(w);
		memcpy(b, want + (size_t)i * SZ, SZ);
		rv = ts_pwriter_put(w, b, i % 2 == 0 ? SZ : 0, TS_PWRITER_FN,
		    i % 2 == 0 ? NULL : &crc);
	}
	if (rv == 0)
		rv = ts_pwriter_sync(w);
	r = pread(fd, got, sizeof(got), 0);
	ok(rv == 0 && r == (ssize_t)sizeof(got) && memcmp(got, want,
	    sizeof(got)) == 0, "pwriter: pieces written at their offsets, "
	    "whatever their order");
	ok(rv == 0 && crc == (uint32_t)want_crc, "pwriter: the pieces given a "
	    "sum summed in the order handed over (%08lx, %08lx)",
	    (unsigned long)crc, (unsigned long)want_crc);
	for (i = 0; i < N; i += 2)
		bufs_ok &= memcmp(g.p + (size_t)i / 2 * SZ, want + (size_t)i *
		    SZ, SZ) == 0;
	ok(rv == 0 && g.n == N / 2 && g.len == (size_t)N / 2 * SZ && bufs_ok,
	    "pwriter: pieces to the function in order; a piece of 0 bytes "
	    "only given back");
	ts_pwriter_free(w);
	/* The function's error is kept: said by a later put or the sync,
	 * and nothing after it is done. */
	g.n = 0;
	g.len = 0;
	g.fail_at = 3;
	w = ts_pwriter_new(fd, SZ, 2, piece_in, &g);
	for (i = 0, rv = 0; i < 8 && rv == 0; i++) {
		b = ts_pwriter_buf(w);
		rv = ts_pwriter_put(w, b, SZ, TS_PWRITER_FN, NULL);
	}
	if (rv == 0)
		rv = ts_pwriter_sync(w);
	ok(rv == -1 && errno == EDQUOT && g.n == 3 && g.len == 2 * SZ &&
	    ts_pwriter_sync(w) == -1,
	    "pwriter: the first error (%d) is kept, the pieces after it not "
	    "done", errno);
	ts_pwriter_free(w);
	/* A write that fails: a descriptor not open for writing. */
	close(fd);
	fd = open(path, O_RDONLY);
	w = ts_pwriter_new(fd, SZ, 2, NULL, NULL);
	b = ts_pwriter_buf(w);
	rv = ts_pwriter_put(w, b, SZ, 0, NULL);
	if (rv == 0)
		rv = ts_pwriter_sync(w);
	ok(rv == -1 && errno == EBADF, "pwriter: a write's error is said "
	    "(errno %d)", errno);
	ts_pwriter_free(w);
	close(fd);
	free(g.p);
}

int
main(void)
{
	char cmd[64];

	test_sizes();
	test_sha256();
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_cgroups();
	test_keep();
	test_pwriter();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		ok(0, "remove %s", tmpdir);
	/* Sanitizers reserve more address space than any limit allows. */
	if (getenv("TS_SANITIZE") == NULL)
		test_rlimits();
	return tap_done();
}
