/*
 * whole.c - all of a descriptor's read or write, whatever short counts
 * and EINTR the kernel gives: at its offset (write), or at a given
 * offset (pwrite, pread), as writers that lay arrays down at their
 * places and readers of what they kept need.
 */
#include <errno.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "io/io.h"

int
ts_write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	size_t off = 0;

	while (off < n) {
		ssize_t r = write(fd, p + off, n - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		off += (size_t)r;
	}
	return 0;
}

int
ts_pwrite_all(int fd, const void *buf, size_t n, uint64_t off)
{
	const char *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t r = pwrite(fd, p + done, n - done, (off_t)(off + done));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		done += (size_t)r;
	}
	return 0;
}

ssize_t
ts_pread_full(int fd, void *buf, size_t n, uint64_t off)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, p + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}
