/*
 * fuzz_archive.c - a tar archive of bundles, in any compression
 * libarchive reads: ts_check_archive streams it, checking each bundle as
 * ts-validate does; then ts_unpack unpacks it into a fresh directory,
 * which afterwards holds nothing when it fails, and when it succeeds
 * only bundle directories of regular files: no link, device or FIFO, and
 * nothing outside it (a member that would land elsewhere is refused).
 */
#define _XOPEN_SOURCE 700	/* nftw */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

/* What dir holds after an unpack: n entries, each a directory of
 * regular files. */
static size_t
inspect(const char *dir)
{
	struct dirent *e, *e2;
	struct stat st;
	size_t n = 0;
	char p[4096], q[4096];
	DIR *d, *d2;

	FUZZ_ASSERT((d = opendir(dir)) != NULL);
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		FUZZ_ASSERT(lstat(p, &st) == 0 && S_ISDIR(st.st_mode));
		FUZZ_ASSERT((d2 = opendir(p)) != NULL);
		while ((e2 = readdir(d2)) != NULL) {
			if (strcmp(e2->d_name, ".") == 0 ||
			    strcmp(e2->d_name, "..") == 0)
				continue;
			snprintf(q, sizeof(q), "%s/%s", p, e2->d_name);
			FUZZ_ASSERT(lstat(q, &st) == 0 && S_ISREG(st.st_mode));
		}
		closedir(d2);
	}
	closedir(d);
	return n;
}

/* Does top hold the archive alone (no spill, no temporary left)? */
static bool
only_archive(const char *top)
{
	struct dirent *e;
	bool only = true;
	DIR *d;

	FUZZ_ASSERT((d = opendir(top)) != NULL);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, "in.tar") != 0)
			only = false;
	closedir(d);
	return only;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char top[64];
	struct ts_unpack_opts uo;
	struct ts_check_opts co;
	struct ts_diags *d;
	char arc[128], out[128], **names = NULL;
	size_t i, n = 0;
	int fd;

	if (top[0] == '\0') {
		snprintf(top, sizeof(top), "/tmp/fuzz_archive.XXXXXX");
		FUZZ_ASSERT(mkdtemp(top) != NULL);
	}
	snprintf(arc, sizeof(arc), "%s/in.tar", top);
	snprintf(out, sizeof(out), "%s/out", top);
	FUZZ_ASSERT((fd = open(arc, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >=
	    0);
	FUZZ_ASSERT(write(fd, data, size) == (ssize_t)size);
	close(fd);

	d = ts_diags_new(4, false);
	memset(&co, 0, sizeof(co));
	co.mem_limit = 8 << 20;
	co.tmpdir = top;
	co.threads = 1;
	ts_check_archive(arc, &co, d);
	ts_diags_free(d);

	FUZZ_ASSERT(mkdir(out, 0700) == 0);
	d = ts_diags_new(4, false);
	memset(&uo, 0, sizeof(uo));
	uo.dir = out;
	uo.max_size = 64 << 20;
	uo.max_members = 1000;
	uo.check = 0;
	uo.tmpdir = top;
	if (ts_unpack(arc, &uo, &names, &n, d) == 0)
		FUZZ_ASSERT(inspect(out) == n);
	else
		FUZZ_ASSERT(inspect(out) == 0);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ts_diags_free(d);
	FUZZ_ASSERT(nftw(out, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
	/* Nothing else is left beside the archive. */
	FUZZ_ASSERT(only_archive(top));
	return 0;
}
