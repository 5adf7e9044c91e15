/*
 * io.h - what the sources and sinks share inside libtensorsuite (not
 * installed): writing whole buffers, and the list of temporaries that a
 * signal must not leave behind.
 */
#ifndef TS_IO_H
#define TS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/path.h"

/* The process's umask, read once without changing it. */
mode_t	 ts_umask(void);

/* Write all n bytes, retrying on EINTR and short writes: 0, or an errno
 * value (not -1: callers keep the first error seen); ts_pwrite_all the
 * same at offset off (whole.c). */
int	 ts_write_all(int fd, const void *buf, size_t n);
int	 ts_pwrite_all(int fd, const void *buf, size_t n, uint64_t off);
/* Up to n bytes at offset off, fewer only at the end of the file: the
 * count, or -1 with errno. */
ssize_t	 ts_pread_full(int fd, void *buf, size_t n, uint64_t off);

/*
 * Temporaries (files, or flat directories such as a bundle being built)
 * that SIGINT, SIGTERM and SIGHUP must remove before the program dies,
 * as zstd removes a half-written output.  The handlers are installed at
 * the first ts_cleanup_add, and only for the signals whose disposition
 * is the default: a signal that was ignored (nohup) stays ignored.
 * path must stay valid until ts_cleanup_remove(path) (the same pointer).
 * Any number may be registered at once, from any thread.
 */
void	 ts_cleanup_add(char *path, bool dir);
void	 ts_cleanup_remove(const char *path);
/* Remove a file or a whole tree, never following a link: 0, or -1
 * with errno (what could be removed is). */
int	 ts_rmtree(const char *path);
/* The same for a bundle's directory that readers may hold (a shared
 * flock on it, model/bundle.c): taken exclusively first, so that each
 * reader finishes with what it began to read. */
int	 ts_rmtree_held(const char *path);
/*
 * Bytes kept until the end of a write (keep.c): the arrays of a format
 * that lays each down whole after the one before.  They are held in
 * memory, TS_KEEP_CHUNK bytes at a time, while the budget the arrays of
 * one writer share lasts (left: bytes; 0 holds none), the rest in a
 * temporary file in tmpdir (NULL: $TMPDIR, else /tmp).
 * ts_keep_room gives where at least n (at most TS_KEEP_CHUNK) more bytes
 * go, *avail the room there, and ts_keep_commit says how many went;
 * ts_keep_write copies.  ts_keep_drain gives the bytes back in order,
 * once, to fn (pieces of at most TS_KEEP_CHUNK bytes, whole chunks but at
 * the end, which fn may change in place), freeing them as it goes.  0, or
 * -1 with errno (NULL from ts_keep_room; an error of the temporary
 * file is also kept in the budget's err); a nonzero fn ends the drain
 * with its value.
 */
#define TS_KEEP_CHUNK	((size_t)1 << 20)
struct ts_keep_budget {
	uint64_t	 left;
	const char	*tmpdir;
	int		 err;	/* the temporary file's first error */
};
struct ts_keep;
struct ts_keep *ts_keep_new(struct ts_keep_budget *);
unsigned char *ts_keep_room(struct ts_keep *, size_t n, size_t *avail);
void	 ts_keep_commit(struct ts_keep *, size_t n);
int	 ts_keep_write(struct ts_keep *, const void *, size_t);
uint64_t ts_keep_size(const struct ts_keep *);
int	 ts_keep_drain(struct ts_keep *,
	    int (*fn)(void *, unsigned char *, size_t), void *arg);
void	 ts_keep_free(struct ts_keep *);

/*
 * Buffers written by a second thread while the next ones are filled
 * (pwriter.c), for the writers that lay arrays down at their places in
 * their output's file, and hand pieces to a writer of their own.
 * ts_pwriter_new(fd, size, n, fn, arg): at most n buffers of size bytes,
 * made as they are first needed; ts_pwriter_buf gives a free one,
 * waiting for the thread when there is none; ts_pwriter_put hands len
 * bytes of one over, to be written at off in fd, or given to fn(arg,
 * buf, len) when off is TS_PWRITER_FN, in the order handed over (len 0:
 * given back unused); every buffer got is given back so.  With crc not
 * NULL, the thread folds the bytes into the CRC-32 *crc (zip's, zlib's
 * crc32) before it writes them: *crc is the caller's to read after a
 * sync, and a buffer's bytes are summed in the order handed over.
 * ts_pwriter_pass hands *len bytes of *buf over so (none: kept) and
 * puts a free buffer in their place, *len 0 (*buf NULL: only that).
 * ts_pwriter_sync waits until all is done (fn is then the caller's to
 * call again); ts_pwriter_free drops what is still queued and frees.
 * 0, or -1 with errno: the first error (a write's, or fn's -1 with
 * errno), which every put and sync after it returns, the jobs after it
 * not done.  Without a thread, put does the job at once.
 */
#define TS_PWRITER_FN	UINT64_MAX
struct ts_pwriter;
struct ts_pwriter *ts_pwriter_new(int fd, size_t size, int n,
	    int (*fn)(void *, unsigned char *, size_t), void *arg);
int	 ts_pwriter_fd(const struct ts_pwriter *);
unsigned char *ts_pwriter_buf(struct ts_pwriter *);
int	 ts_pwriter_put(struct ts_pwriter *, unsigned char *buf, size_t len,
	    uint64_t off, uint32_t *crc);
int	 ts_pwriter_pass(struct ts_pwriter *, unsigned char **buf,
	    size_t *len, uint64_t off, uint32_t *crc);
int	 ts_pwriter_sync(struct ts_pwriter *);
void	 ts_pwriter_free(struct ts_pwriter *);

/*
 * Temporaries are named for the program and the process that made them:
 * ts_tmpname gives the template (for mkstemp or mkdtemp, malloc'd)
 * DIR/.NAME.TOOL.PID.XXXXXX beside a target NAME (at most 200 bytes of
 * it), DIR/.TOOL.PID.XXXXXX with no name; a tag (not NULL) goes before
 * the XXXXXX, DIR/.NAME.TOOL.PID.TAG.XXXXXX, and makes a temporary that
 * ts_debris_clean never takes.  ts_debris_clean removes, in dir, the
 * temporaries of target name (NULL: those without one) whose process is
 * gone (killed, when nothing could remove them), directories too when
 * dirs: what a later writer of the same target does first.  0, or -1
 * with errno when something could not be removed.
 */
char	*ts_tmpname(const char *dir, const char *name, const char *tag);
/*
 * A temporary directory in parent for what becomes name there (a bundle
 * being written, an archive's files), made after what a killed writer
 * of name left is removed, and removed on SIGINT, SIGTERM and SIGHUP
 * until ts_cleanup_remove: malloc'd, or NULL with errno.
 */
char	*ts_tmpdir_beside(const char *parent, const char *name);
/*
 * A bundle writer whose files are new files of the directory tmp, named
 * shown/FILE, until commit(arg) makes the bundle appear (0, or -1 with
 * errno, or a state between: TS_COMMIT_*) or abort(arg) gives it up;
 * tmp and shown are arg's and live as long.  The directory writer and
 * the archive writer are two such.
 */
struct ts_bundle_out;
struct ts_bundle_out *ts_bundle_out_staged(const char *tmp, const char *shown,
	    const char *name, int (*commit)(void *), void (*abort)(void *),
	    void *arg);
/*
 * The commit of a directory's writer in place (TS_BUNDLE_OUT_INPLACE)
 * leaves the old bundle's entry name (a file or a folder) out, unless
 * the writer wrote one anew: 0, or -1 with errno ENOTSUP for another
 * writer.
 */
int	 ts_bundle_out_drop(struct ts_bundle_out *, const char *name);
int	 ts_debris_clean(const char *dir, const char *name, bool dirs);
/*
 * Can path be replaced and what was there removed: may the user write
 * in the directory it is in, and, for a directory, list, write and
 * search it and every directory below it?  0; or -1 with errno (EACCES,
 * EROFS, ...) and *which, malloc'd, the first directory it may not.
 * Checked before a rewrite starts, so that it cannot fail halfway and
 * leave what it cannot remove.
 */
int	 ts_removable(const char *path, char **which);

/*
 * The lock a writer of a bundle holds, and its journal (lock.c): flock
 * on PARENT/.NAME.lock.  ts_lock_take waits for it, or fails with
 * EWOULDBLOCK (holder, when not NULL, gets the holder's pid, or 0),
 * and puts right what a killed holder left.  ts_lock_journal writes
 * what the holder is doing ("new X\n", "old Y\n": see lock.c), durably
 * when sync; ts_lock_keep leaves the journal for the next writer when
 * the holder could not clean up.  ts_lock_interrupted: a reader's
 * question, was a rewrite of dir stopped while the bundle was moved
 * aside?
 */
struct ts_lock;
struct ts_lock *ts_lock_take(const char *dir, bool wait, long *holder);
int	 ts_lock_journal(struct ts_lock *, const char *text, bool sync);
void	 ts_lock_keep(struct ts_lock *);
void	 ts_lock_release(struct ts_lock *);
bool	 ts_lock_interrupted(const char *dir);
/*
 * ts_sink_compress with the compressor's options (compress.c): level,
 * -1 for its default; threads, zstd's workers (1 at least, whatever it
 * says: the bytes are then the same for any number).  A gzip header
 * holds no time stamp, with options or not, so that the same data gives
 * the same bytes every time.  zstd's frames carry their content
 * checksum, and the same with no options.  NULL with errno (EINVAL: an
 * option the compressor refuses), k aborted.
 */
struct ts_sink;
struct ts_zopts {
	int	 level;
	int	 threads;
};
struct ts_sink *ts_sink_compress_opts(struct ts_sink *k, const char *filter,
	    const struct ts_zopts *);
/* Exchange two names in one step (renameat2 RENAME_EXCHANGE): 0, or -1
 * with errno (EINVAL, ENOSYS: not on this file system or kernel). */
int	 ts_exchange(const char *a, const char *b);
/* fsync a directory. */
int	 ts_fsync_dir(const char *dir);

struct ts_source;
/*
 * A look further ahead than ts_source_peek (source.c): after
 * ts_source_keep, what is read is kept, and after ts_source_replay it is
 * read again, from the start.  ts_source_borrow reads at most max bytes
 * of in, which it leaves open, so that a decompressor can look at the
 * start of a stream that is then read whole.
 */
void	 ts_source_keep(struct ts_source *);
void	 ts_source_replay(struct ts_source *);
struct ts_source *ts_source_borrow(struct ts_source *in, uint64_t max);
/* A source of unknown size that can still go back to its start (one
 * undone from a compressed regular file). */
void	 ts_source_rewinds(struct ts_source *);
/* What its reads fail with, in words (see ts_source_error). */
void	 ts_source_set_error(struct ts_source *, const char *msg);
/*
 * For a library that reads and writes files by name (libhdf5): the
 * descriptor of the regular file a source reads straight (opened by
 * path or descriptor, neither decompressed nor standard input), else
 * -1; the temporary file a file sink writes (renamed into place at
 * commit; not compressed, not a descriptor's), else NULL.
 */
int	 ts_source_fd(const struct ts_source *);
const char *ts_sink_file(const struct ts_sink *);
/* A file sink's temporary file's descriptor, which a writer that lays
 * its arrays down at their offsets writes with pwrite (and may truncate)
 * before the commit; -1 for any other sink. */
int	 ts_sink_fd(const struct ts_sink *);
/* A file sink's next n bytes left as the file holds them (laid there by
 * such a writer), its offset moved past them: 0, or -1 with errno
 * (ESPIPE for any other sink). */
int	 ts_sink_skip(struct ts_sink *, uint64_t n);

#endif
