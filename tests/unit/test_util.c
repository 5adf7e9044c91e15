/*
 * test_util.c - unit tests of what libtensorsuite finds the process may
 * use: CPUs and memory, from cgroup trees (v2, v1, both, a container's
 * view) laid out in a temporary directory.  Prints TAP; exit status 1 when a test fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "util/sysres.h"
#include "tap.h"

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
	ok(v == 2 * g && strcmp(why, "the cgroup's memory.max") == 0,
	    "cgroup v2: memory.max of a parent, 2G");
	v = ts_mem_available(&why);
	ok(v <= 2 * g && (v < 2 * g || strcmp(why,
	    "the cgroup's memory.max") == 0),
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
	ok(v == g && strcmp(why, "the cgroup's memory.limit_in_bytes") == 0,
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

int
main(void)
{
	char cmd[64];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_cgroups();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		ok(0, "remove %s", tmpdir);
	/* Sanitizers reserve more address space than any limit allows. */
	if (getenv("TS_SANITIZE") == NULL)
		test_rlimits();
	return tap_done();
}
