/*
 * sysres.h - what of the machine this process may use: the CPUs it may
 * run on and the memory it may take.  The defaults of -j and -S come from
 * here, so that a job under taskset, in a Slurm allocation or in a
 * container plans for what it was given, not for the whole machine.
 * Internal to libtensorsuite (not installed).
 *
 * Both read the cgroup of the process where one is mounted: cgroup v2
 * (the "0::PATH" line of /proc/self/cgroup, below the cgroup2 mount of
 * /proc/self/mountinfo), else v1 (the hierarchy of the "cpu" or "memory"
 * controller); a limit set on a parent cgroup bounds its children too.
 */
#ifndef TS_SYSRES_H
#define TS_SYSRES_H

#include <stdint.h>

/*
 * The CPUs this process may use: those of its affinity mask
 * (sched_getaffinity(2)), fewer when its cgroup's CPU quota allows fewer
 * (cpu.max, or cpu.cfs_quota_us over cpu.cfs_period_us: the quota over
 * the period, rounded up); at least 1.
 */
int	 ts_cpus_available(void);

/*
 * The bytes of memory this process may use: the least of the physical
 * memory, its cgroup's limit (memory.max, or memory.limit_in_bytes),
 * RLIMIT_AS and RLIMIT_DATA.  *why (when why is not NULL) gets which of
 * them it is, for people: "physical memory", "cgroup memory.max",
 * "cgroup memory.limit_in_bytes", "RLIMIT_AS" or "RLIMIT_DATA".
 * 0 only when nothing can be read.
 */
uint64_t ts_mem_available(const char **why);

/*
 * For the unit tests: read /proc and /sys below dir instead (a copy of
 * proc/self/cgroup, proc/self/mountinfo and the cgroup files below it);
 * NULL or "" is the real root again.  The affinity mask and the resource
 * limits are still the process's.
 */
void	 ts_sysres_root(const char *dir);
/* The CPU quota of the cgroup, in CPUs (2.5 for 250000/100000), the
 * least along the path to the root; 0 when there is none. */
double	 ts_cgroup_cpus(void);
/* The memory limit of the cgroup in bytes, the least along the path to
 * the root; UINT64_MAX when there is none.  *why as above. */
uint64_t ts_cgroup_memory(const char **why);

#endif
