/*
 * touch - how fast this machine hands a process fresh memory: MB/s of
 * the first writes to 256 MiB of new anonymous pages, and of writing
 * them again.  On bare metal the first pass costs the kernel's clearing
 * of each page, a few times the second; on a virtual machine whose host
 * backs freed guest memory lazily it can cost a hundred times more, and
 * every tool that needs fresh memory (the sorts, the duplicate checks)
 * pays it, the baseline as much as this build.  Printed in the bench's
 * header so that its ratios can be read with it.
 *
 * Usage: touch [MiB]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	size_t mib = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 256;
	size_t n = mib << 20;
	double t0, t1, t2;
	char *p;

	if (mib == 0)
		return 2;
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED)
		return 1;
	t0 = now();
	memset(p, 1, n);
	t1 = now();
	memset(p, 2, n);
	t2 = now();
	printf("%.0f %.0f\n", (double)mib * 1.048576 / (t1 - t0),
	    (double)mib * 1.048576 / (t2 - t1 > 0 ? t2 - t1 : 1e-9));
	return p[n / 2] == 2 ? 0 : 1;
}
