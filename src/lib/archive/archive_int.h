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
 * bundle name (B2), FILE a name ts_file_name_refused takes (the
 * packer's policy: what it leaves out, every reader refuses); leading
 * "./" are dropped.
 */
const char *ts_member_check(const struct ts_member *, char **bundle,
	    char **file);
/*
 * The folders of an archive's bundles as their members come by, so that
 * every reader gives one verdict on a folder member NAME/ whose bundle
 * has no file in the archive: refused, once the archive has ended.
 * ts_folders_met for each member ts_member_check takes (member: the
 * folder's name as stored, NULL for a file of the bundle);
 * ts_folders_end reports each empty folder to d (NULL: none) as member
 * 'NAME/' "is <verb>", and frees: 0, or -1 when it reported one.
 */
struct ts_folders {
	struct ts_folder {
		char	*bundle;
		char	*folder;	/* the folder member, shown; NULL */
		bool	 file;		/* a file of the bundle came */
	}	*v;
	size_t	 n;
};
void	 ts_folders_met(struct ts_folders *, const char *bundle,
	    const char *member);
int	 ts_folders_end(struct ts_folders *, const char *label,
	    const char *verb, struct ts_diags *d);
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
/* The largest manifest a reader takes. */
#define TS_MANIFEST_MAX	((int64_t)64 << 20)

/*
 * What ts_archive_verify says, only the messages mine(bundle, arg) takes,
 * bundle being the name of the bundle whose file a message is about, or
 * NULL for one about no bundle's file (a bad line of the manifest, no
 * manifest, a failure to hash); into d, as many times as asked once the
 * end is reached.  0, or -1 when one of them is an error.
 */
struct ts_archive;
int	 ts_archive_verify_by(struct ts_archive *ar,
	    bool (*mine)(const char *bundle, void *arg), void *arg,
	    struct ts_diags *d);

/*
 * The bytes of ar's manifest as they were read, their count in *len;
 * NULL when the archive held none (or one refused: a second, or one
 * too large).  Whole once the archive was read to its end.
 */
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
 * The tap: what the writer hands over between ts_sums_tap_start and
 * ts_sums_tap_stop also goes to a reader on another thread, and a buffer
 * is handed out again once both the hasher and it are done with it.
 * The reader moves to the start of the next file with ts_sums_tap_next
 * (1 and its path; 0 once the writer stopped the tap: the reader then
 * asks for nothing more), passing what is left of the one before, and
 * reads the data of the file it is at with ts_sums_tap_read (0 at its
 * end, -1 with ECANCELED when the writer stopped before it).  The writer
 * waits for the reader to take what it hands, so the reader takes all:
 * after the stop, it has read to it before the writer starts the tap
 * again.  ts_sums_tap_cancel undoes a start that nothing will read.
 */
void	 ts_sums_tap_start(struct ts_sums *);
void	 ts_sums_tap_stop(struct ts_sums *);
void	 ts_sums_tap_cancel(struct ts_sums *);
int	 ts_sums_tap_next(struct ts_sums *, const char **path);
long	 ts_sums_tap_read(struct ts_sums *, void *buf, size_t n);

/*
 * A bundle being packed, checked as it is packed (watch.c): watch is
 * given, on a thread of its own, the bundle bd as a stream whose files
 * are the bytes the writer hands to the tap of sums (the files v[0..n)
 * of bd that go in), and tells with 0 or -1 whether the bundle may go
 * in, its diagnostics into its d; what it does not read is passed for
 * it.  ts_pack_watch_start starts the tap and the thread (NULL, the tap
 * not started, when no thread can be); ts_pack_watch_end, once the
 * bundle's files are handed over (or given up), stops the tap, waits
 * for watch and puts its diagnostics into d (NULL: drops them, as after
 * a failed write): watch's answer.
 */
typedef int	 ts_pack_watcher(struct ts_bundle *, void *arg,
		    struct ts_diags *d);
struct ts_bundle_file;
struct ts_pack_watch;
struct ts_pack_watch *ts_pack_watch_start(struct ts_sums *sums,
	    struct ts_bundle *bd, const struct ts_bundle_file *v, size_t n,
	    ts_pack_watcher *watch, void *arg, const struct ts_diags *like);
int	 ts_pack_watch_end(struct ts_pack_watch *, struct ts_diags *d);
/* Check each bundle ao packs with watch, as it is packed (NULL: none);
 * a bundle it refuses is refused by ts_archive_out_bundle. */
void	 ts_archive_out_watch(struct ts_archive_out *ao,
	    ts_pack_watcher *watch, void *arg);

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
/*
 * The line of path and its digest, as sha256sum writes it (a backslash,
 * a newline or a carriage return in the path escaped, the line then
 * starting with a backslash), appended to b: every manifest the suite
 * writes is made of these, sorted by path (ts-pack's, and the one -x
 * leaves beside the bundles).
 */
struct ts_strbuf;
void	 ts_manifest_line(struct ts_strbuf *b, const unsigned char *digest,
	    const char *path);

#endif
