/*
 * sysres.c - the CPUs and the memory this process may use (see
 * sysres.h).  Nothing is cached: the answers are a few small reads, asked
 * for once or twice a run, and the tests change the root between calls.
 */
#define _GNU_SOURCE		/* sched_getaffinity, CPU_ALLOC */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/sysres.h"

static char root[PATH_MAX];

void
ts_sysres_root(const char *dir)
{
	snprintf(root, sizeof(root), "%s", dir != NULL ? dir : "");
}

/* The first line of the file at path below the root, its newline cut;
 * false when it cannot be read. */
static bool
read_line(const char *path, char *buf, size_t n)
{
	char full[2 * PATH_MAX];
	FILE *fp;
	bool ok;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", root, path) >=
	    sizeof(full) || (fp = fopen(full, "re")) == NULL)
		return false;
	ok = fgets(buf, (int)n, fp) != NULL;
	fclose(fp);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void
unescape(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0'));
			s += 3;
		} else
			*d = *s;
	}
	*d = '\0';
}

/* Whether the comma-separated list holds word. */
static bool
in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	while (*list != '\0') {
		size_t k = strcspn(list, ",");

		if (k == n && strncmp(list, word, n) == 0)
			return true;
		list += k;
		if (*list == ',')
			list++;
	}
	return false;
}

/*
 * Where the hierarchy of ctl is mounted: the cgroup2 mount for ctl NULL,
 * else the cgroup (v1) mount with ctl among its options.  mnt gets the
 * mount point, mroot the cgroup at it (its root field).
 */
static bool
find_mount(const char *ctl, char *mnt, size_t mn, char *mroot, size_t rn)
{
	char path[2 * PATH_MAX], *line = NULL, *f[5], *sep, *p, *save;
	char *fstype, *opts;
	size_t cap = 0;
	bool found = false;
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "%s/proc/self/mountinfo", root);
	if ((fp = fopen(path, "re")) == NULL)
		return false;
	/* "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - FSTYPE
	 * SOURCE SUPER-OPTIONS" */
	while (!found && getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if ((sep = strstr(line, " - ")) == NULL)
			continue;
		*sep = '\0';
		p = strtok_r(line, " ", &save);
		for (i = 0; i < 5 && p != NULL; i++) {
			f[i] = p;
			p = strtok_r(NULL, " ", &save);
		}
		fstype = strtok_r(sep + 3, " ", &save);
		(void)strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " ", &save);
		if (i < 5 || fstype == NULL)
			continue;
		if (ctl == NULL ? strcmp(fstype, "cgroup2") == 0 :
		    strcmp(fstype, "cgroup") == 0 && opts != NULL &&
		    in_list(opts, ctl)) {
			unescape(f[3]);
			unescape(f[4]);
			snprintf(mroot, rn, "%s", f[3]);
			snprintf(mnt, mn, "%s", f[4]);
			found = true;
		}
	}
	free(line);
	fclose(fp);
	return found;
}

/*
 * The directory of this process's cgroup of ctl (NULL: cgroup v2) below
 * the root, in dir; *top gets the length of its mount point's part, the
 * last directory a limit may be read from.
 */
static bool
cgroup_dir(const char *ctl, char *dir, size_t n, size_t *top)
{
	char path[2 * PATH_MAX], mnt[PATH_MAX], mroot[PATH_MAX];
	char *line = NULL, *c;
	const char *cg = NULL;
	size_t cap = 0, k;
	FILE *fp;

	if (!find_mount(ctl, mnt, sizeof(mnt), mroot, sizeof(mroot)))
		return false;
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	if ((fp = fopen(path, "re")) == NULL)
		return false;
	/* "ID:CONTROLLERS:PATH": v2's is "0::PATH". */
	while (cg == NULL && getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if ((c = strchr(line, ':')) == NULL ||
		    strchr(c + 1, ':') == NULL)
			continue;
		*strchr(c + 1, ':') = '\0';
		if (ctl == NULL ? strcmp(line, "0:") == 0 && c[1] == '\0' :
		    in_list(c + 1, ctl))
			cg = c + strlen(c) + 1;
	}
	fclose(fp);
	if (cg == NULL) {
		free(line);
		return false;
	}
	/* The path is the cgroup's from the hierarchy's root; the mount
	 * shows the one at mroot.  One outside it (another namespace's
	 * view) is not below the mount point: the mount's own limits are
	 * then all there is to read. */
	k = strlen(mroot);
	if (strcmp(mroot, "/") == 0)
		k = 0;
	if (strncmp(cg, mroot, k) != 0 || (cg[k] != '\0' && cg[k] != '/'))
		cg = "";
	else
		cg += k;
	if ((size_t)snprintf(dir, n, "%s%s", strcmp(mnt, "/") == 0 ? "" : mnt,
	    cg) >= n) {
		free(line);
		return false;
	}
	*top = strlen(mnt) - (strcmp(mnt, "/") == 0);
	if (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	free(line);
	return true;
}

/*
 * Call each(dir, arg) for the cgroup of ctl and each of its parents up to
 * the mount point; false when there is no such cgroup.
 */
static bool
walk_up(const char *ctl, void (*each)(const char *, void *), void *arg)
{
	char dir[PATH_MAX];
	size_t top;
	char *s;

	if (!cgroup_dir(ctl, dir, sizeof(dir), &top))
		return false;
	for (;;) {
		each(dir, arg);
		if (strlen(dir) <= top || (s = strrchr(dir, '/')) == NULL)
			break;
		*s = '\0';
		if (strlen(dir) < top)
			break;
	}
	return true;
}

/* The first line of the file name in dir, a cgroup directory. */
static bool
read_in(const char *dir, const char *name, char *buf, size_t n)
{
	char path[2 * PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return false;
	return read_line(path, buf, n);
}

static bool
parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno != 0 || (*end != '\0' && *end != ' '))
		return false;
	*v = x;
	return true;
}

struct cpus {
	double		 least;		/* 0: no quota seen */
	bool		 v2;
};

static void
cpu_quota(const char *dir, void *arg)
{
	struct cpus *c = arg;
	char buf[128], *sp;
	uint64_t quota, period;
	double q;

	if (c->v2) {
		/* "QUOTA PERIOD", or "max PERIOD" for none. */
		if (!read_in(dir, "cpu.max", buf, sizeof(buf)) ||
		    (sp = strchr(buf, ' ')) == NULL ||
		    !parse_u64(buf, &quota) || !parse_u64(sp + 1, &period))
			return;
	} else {
		/* -1 for none. */
		if (!read_in(dir, "cpu.cfs_quota_us", buf, sizeof(buf)) ||
		    !parse_u64(buf, &quota) ||
		    !read_in(dir, "cpu.cfs_period_us", buf, sizeof(buf)) ||
		    !parse_u64(buf, &period))
			return;
	}
	if (quota == 0 || period == 0)
		return;
	q = (double)quota / (double)period;
	if (c->least == 0 || q < c->least)
		c->least = q;
}

double
ts_cgroup_cpus(void)
{
	struct cpus c = { 0, true };

	/* A v2 hierarchy without the cpu controller (a hybrid machine's)
	 * has no cpu.max: then the v1 one, if mounted. */
	if (!walk_up(NULL, cpu_quota, &c) || c.least == 0) {
		c.v2 = false;
		walk_up("cpu", cpu_quota, &c);
	}
	return c.least;
}

struct mem {
	uint64_t	 least;
	bool		 v2;
};

static void
mem_limit(const char *dir, void *arg)
{
	struct mem *m = arg;
	char buf[128];
	uint64_t v;

	/* "max" for none; v1 says none with a huge number. */
	if (read_in(dir, m->v2 ? "memory.max" : "memory.limit_in_bytes", buf,
	    sizeof(buf)) && parse_u64(buf, &v) && v < m->least)
		m->least = v;
}

uint64_t
ts_cgroup_memory(const char **why)
{
	struct mem m = { UINT64_MAX, true };

	if (!walk_up(NULL, mem_limit, &m) || m.least == UINT64_MAX) {
		m.v2 = false;
		walk_up("memory", mem_limit, &m);
	}
	if (why != NULL)
		*why = m.v2 ? "cgroup memory.max" :
		    "cgroup memory.limit_in_bytes";
	return m.least;
}

/* The CPUs of the affinity mask; 0 when it cannot be had. */
static int
affinity_cpus(void)
{
	cpu_set_t *set;
	size_t sz;
	int ncpu, n = 0;

	/* A mask too small for the kernel's CPUs is EINVAL: grow it. */
	for (ncpu = 1024; ncpu <= 1 << 20; ncpu *= 2) {
		if ((set = CPU_ALLOC(ncpu)) == NULL)
			return 0;
		sz = CPU_ALLOC_SIZE(ncpu);
		if (sched_getaffinity(0, sz, set) == 0)
			n = CPU_COUNT_S(sz, set);
		CPU_FREE(set);
		if (n > 0 || errno != EINVAL)
			break;
	}
	return n;
}

int
ts_cpus_available(void)
{
	int n = affinity_cpus();
	double q = ts_cgroup_cpus();

	if (n <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		n = c < 1 ? 1 : c > INT_MAX ? INT_MAX : (int)c;
	}
	/* 1.5 CPUs of quota keep two threads busy part of the time: the
	 * quota rounded up, as the threads it can feed. */
	if (q > 0 && q < n)
		n = (int)q + ((double)(int)q < q);
	return n < 1 ? 1 : n;
}

uint64_t
ts_mem_available(const char **why)
{
	static const struct {
		int		 res;
		const char	*name;
	} lims[] = { { RLIMIT_AS, "RLIMIT_AS" }, { RLIMIT_DATA, "RLIMIT_DATA" } };
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t least = 0, v;
	const char *w = "physical memory", *cw;
	struct rlimit rl;
	size_t i;

	if (pages > 0 && psz > 0)
		least = (uint64_t)pages * (uint64_t)psz;
	if ((v = ts_cgroup_memory(&cw)) != UINT64_MAX &&
	    (v < least || least == 0)) {
		least = v;
		w = cw;
	}
	for (i = 0; i < sizeof(lims) / sizeof(lims[0]); i++)
		if (getrlimit(lims[i].res, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY &&
		    ((uint64_t)rl.rlim_cur < least || least == 0)) {
			least = (uint64_t)rl.rlim_cur;
			w = lims[i].name;
		}
	if (why != NULL)
		*why = w;
	return least;
}
