/*
 * archive.h - what the archive files share inside libtensorsuite (not
 * installed): member names made fit to print (archive_read.c), and the
 * rules of what a bundle archive may hold (SPEC B5, bundle_archive.c).
 */
#ifndef TS_ARCHIVE_H
#define TS_ARCHIVE_H

#include "tensorsuite.h"

/*
 * May a bundle archive hold m?  NULL when it may, with *bundle set to its
 * bundle's name and *file to its file name (NULL for the folder itself),
 * both malloc'd; else why not ("it is a symbolic link"), with both NULL.
 * A member may be the folder NAME/ or a regular file NAME/FILE: NAME a
 * bundle name (B2), FILE a plain name, not hidden; leading "./" are
 * dropped.
 */
const char *ts_member_check(const struct ts_member *, char **bundle,
	    char **file);
/* name with control characters and backslashes as octal escapes,
 * malloc'd: a hostile name must not draw on the terminal. */
char	*ts_member_shown(const char *name);

/* ---- SHA256SUMS, the manifest (tensorsuite(5) A1; manifest.c) ---- */

#define TS_MANIFEST	"SHA256SUMS"	/* its name, at the archive's root */

struct ts_manifest_entry {
	const char	*path;		/* in raw, past any leading "./" */
	char		*raw;		/* as listed, unescaped */
	unsigned char	 digest[32];
	uint64_t	 line;		/* 1-based */
	bool		 found;		/* a file of that path was met */
};

struct ts_manifest {
	struct ts_manifest_entry *e;	/* sorted by path */
	size_t		 n;
};

/*
 * Reads the n bytes of a manifest at data into mf, its errors reported to
 * d as FILE:LINE:COL (rule A1), the bad lines left out.  0, or -1 when a
 * line was bad; mf is to be freed either way.
 */
int	 ts_manifest_parse(struct ts_manifest *mf, const char *data,
	    size_t n, const char *file, struct ts_diags *d);
/* The entry of path (leading "./" ignored), or NULL. */
struct ts_manifest_entry *ts_manifest_find(struct ts_manifest *,
	    const char *path);
void	 ts_manifest_free(struct ts_manifest *);
/* p past its leading "./": how a path is matched with a member's. */
const char *ts_manifest_path(const char *p);

#endif
