/*
 * archive_int.h - what the archive files share inside libtensorsuite (not
 * installed): member names made fit to print (archive_read.c), the
 * rules of what a bundle archive may hold (SPEC B5, bundle_archive.c),
 * and its manifest of SHA-256 digests (sums.c, archive_write.c).
 */
#ifndef TS_ARCHIVE_INT_H
#define TS_ARCHIVE_INT_H

#include "tensorsuite.h"

/*
 * May a bundle archive hold m?  NULL when it may, with *bundle set to its
 * bundle's name and *file to its file name (NULL for the folder itself),
 * both malloc'd; else why not ("it is a symbolic link"), with both NULL.
 * A member may be the folder NAME/ or a regular file NAME/FILE: NAME a
 * bundle name (B2), FILE a plain name, not hidden; or the bundle's
 * folder of pictures NAME/pictures/ (*file NULL) or a regular file in
 * it, NAME/pictures/FILE (*file "pictures/FILE"; B6); leading "./" are
 * dropped.
 */
const char *ts_member_check(const struct ts_member *, char **bundle,
	    char **file);
/* name with control characters and backslashes as octal escapes,
 * malloc'd: a hostile name must not draw on the terminal. */
char	*ts_member_shown(const char *name);

/*
 * The manifest every archive the suite writes ends with: a regular file
 * SHA256SUMS at its root, in the format `sha256sum -c` reads (a line
 * "HEX  NAME/FILE" a file, by path in the C locale's order).  The reader
 * (archive_read.c) takes it for what it is, never hands it out as a
 * member, and checks the others against it (tensorsuite(5) A1).
 */
#define TS_MANIFEST	"SHA256SUMS"

/*
 * The bytes of ar's manifest as they were read, their count in *len;
 * NULL when the archive held none (or one refused: a second, or one
 * too large).  Whole once the archive was read to its end.
 */
struct ts_archive;
const char *ts_archive_manifest(const struct ts_archive *ar, size_t *len);

/*
 * The digests of the files being written, on a thread of their own
 * (sums.c).  ts_sums_new makes bufsize-byte buffers; for each file,
 * ts_sums_begin(path), then for each piece of it ts_sums_buf (a buffer,
 * once the hasher is done with it) filled with n bytes and handed over
 * with ts_sums_put(n) (it stays readable until the next few
 * ts_sums_buf), and ts_sums_end.  ts_sums_text waits for the hasher and
 * gives the manifest's text, malloc'd, its length in *len; NULL with
 * errno EIO when libcrypto failed.
 */
struct ts_sums;
struct ts_sums *ts_sums_new(size_t bufsize);
void	 ts_sums_begin(struct ts_sums *, const char *path);
char	*ts_sums_buf(struct ts_sums *);
void	 ts_sums_put(struct ts_sums *, size_t n);
void	 ts_sums_end(struct ts_sums *);
char	*ts_sums_text(struct ts_sums *, size_t *len);
void	 ts_sums_free(struct ts_sums *);

/*
 * The manifest of the archive ao, as its commit will write it (the
 * files added so far), malloc'd; NULL with errno.  ts_archive_out_hash
 * is a writer that writes nothing, only hashes the bundles given to it
 * with ts_archive_out_bundle, as an archive of them would hold them:
 * ask for its manifest, then abort it (ts-pack --sums-only).
 */
struct ts_archive_out;
char	*ts_archive_out_manifest(struct ts_archive_out *ao);
struct ts_archive_out *ts_archive_out_hash(void);

/* ---- SHA256SUMS, the manifest (tensorsuite(5) A1; manifest.c) ---- */

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
