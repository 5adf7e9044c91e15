/*
 * tensorsuite.h - the public interface of libtensorsuite, the library of
 * the TensorSuite toolkit (ts-validate, ts-convert, ts-sort, ...).
 *
 * One flow: a source gives bytes; a decoder turns them into batches of
 * entries; stages consume and pass on batches (checks, type changes,
 * sorting); an encoder turns batches back into bytes on a sink.  The
 * metadata model and the bundle (a tensor's folder, or its members in an
 * archive) sit beside the flow.  See libtensorsuite(3) for a tour and an
 * example.
 *
 * Conventions, for every function below unless it says otherwise:
 *  - Errors: one rule.  A function that fails returns -1, or NULL when
 *    it returns a pointer; one that hands out items (*_read, *_next)
 *    returns how many, 0 at the end, -1 on failure.  Why it failed: a
 *    new error in the struct ts_diags it was given (or that the object
 *    it works on was opened with), located (file, line, column, rule
 *    id) with its status; when it has none, or that collector got no
 *    new error, errno.  Some objects say more than errno can
 *    (ts_source_error, ts_archive_error); a failure that leaves a state
 *    to know says it through an argument (ts_bundle_out_commit).  A
 *    check (ts_check_bundle, ts_check_file, ts_bundle_settle) fails
 *    when it reports an error: what it checked is rejected.  Reading
 *    data goes on past a bad row, reported and skipped: the collector's
 *    counts, not only the return value, tell whether the data was good.  Nothing here
 *    prints or exits, with one exception: out of memory, the library
 *    prints one line and exits with status 3 (libtensorsuite(3),
 *    CAVEATS, says how a program that cannot accept that uses it).
 *  - Ownership.  A function named *_new or *_open returns an object the
 *    caller frees with the matching *_free or *_close, which accept
 *    NULL.  A struct the caller holds (struct ts_meta, ts_header,
 *    ts_batch, ts_cutensor, ts_inferred) is set up by its *_init (or the
 *    function that fills it) and its *_free frees what it points to, not
 *    the struct.  Strings returned as char * are malloc'd and the
 *    caller's to free; const char * ones belong to the object they come
 *    from and live as long as it.
 *  - Threads.  Objects are not shared: use one from one thread at a time.
 *    Distinct objects may be used from distinct threads at once.  (Some
 *    objects use threads of their own inside; that is invisible.)
 *  - Coordinates in batches are 0-based; files hold them in their index
 *    base (0 or 1).  Numbers in text are read and written exactly, in the
 *    C locale whatever the process's locale is.
 */
#ifndef TENSORSUITE_H
#define TENSORSUITE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tsnum.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TS_VERSION	"0.1.0"		/* of the library and tools */
#define TS_FORMAT	"0.1"		/* of the format they read */
#define TS_MAXORDER	64
#define TS_NAMEMAX	200

/*
 * What an error is about, from the least grave: none, the data (it was
 * rejected), the caller's request (an option that cannot be), the
 * system (I/O, a missing file).  The worst of a collector's errors is
 * ts_diags_status(); the tools exit with it.
 */
enum ts_status { TS_STATUS_OK = 0, TS_STATUS_DATA = 1, TS_STATUS_USAGE = 2,
	TS_STATUS_IO = 3 };

/* a*b and a+b with overflow detection: false on overflow. */
bool	 ts_mul_u64(uint64_t, uint64_t, uint64_t *);
bool	 ts_add_u64(uint64_t, uint64_t, uint64_t *);

/* ================================================================
 * Diagnostics: one collector for every located message.
 * ================================================================ */

enum ts_sev { TS_SEV_NOTE, TS_SEV_WARNING, TS_SEV_ERROR };

/*
 * The rules of the format, as tensorsuite(5) numbers them (B bundle, A
 * archive manifest, M metadata, H data-file header, E element entries,
 * K block entries, X cross-checks, S semantics, P streams), in its
 * order; TS_RULE_NONE for a message under no rule.
 */
enum ts_rule {
	TS_RULE_NONE,
	TS_RULE_B1, TS_RULE_B2, TS_RULE_B3, TS_RULE_B4, TS_RULE_B5, TS_RULE_B6,
	TS_RULE_A1, TS_RULE_M1, TS_RULE_M2, TS_RULE_M3, TS_RULE_M4,
	TS_RULE_M5, TS_RULE_M6, TS_RULE_M7, TS_RULE_M8, TS_RULE_M9,
	TS_RULE_H1, TS_RULE_H2, TS_RULE_H3, TS_RULE_H4, TS_RULE_H5,
	TS_RULE_E1, TS_RULE_E2, TS_RULE_E3, TS_RULE_E4, TS_RULE_E5,
	TS_RULE_K1, TS_RULE_K2, TS_RULE_K3, TS_RULE_K4, TS_RULE_X1,
	TS_RULE_X2, TS_RULE_X3, TS_RULE_X4, TS_RULE_X5, TS_RULE_X6,
	TS_RULE_X7, TS_RULE_X8, TS_RULE_S1, TS_RULE_S2, TS_RULE_S3,
	TS_RULE_S4, TS_RULE_S5, TS_RULE_S6, TS_RULE_S7, TS_RULE_S8,
	TS_RULE_S9, TS_RULE_P1,
	TS_RULE_COUNT
};
/* Its id ("S1"; "" for TS_RULE_NONE), the section of tensorsuite(5)
 * that states it, a line saying what it asks. */
const char *ts_rule_id(enum ts_rule);
const char *ts_rule_section(enum ts_rule);
const char *ts_rule_text(enum ts_rule);
/* The rule of an id ("S1"), or -1. */
int	 ts_rule_of_id(const char *);
/* The ids a rule is reported under when not its own ("S1" for E4 and
 * K2, checked on the entries), else NULL; does it bind writers only
 * (M2, E5), so that no reader reports it? */
const char *ts_rule_under(enum ts_rule);
bool	 ts_rule_binds_writers(enum ts_rule);

struct ts_diag {
	enum ts_sev	 sev;
	char		*file;		/* NULL: about no file */
	uint64_t	 line, col;	/* 1-based; 0 = unknown */
	int64_t		 offset;	/* byte offset (binary); -1 = none */
	enum ts_rule	 rule;		/* TS_RULE_NONE when none */
	char		*msg;		/* one line, no final newline */
	int		 status;	/* an error's enum ts_status; else 0 */
};

struct ts_diags;
/*
 * A collector.  max_per_rule (0: no limit) keeps at most that many
 * messages per file and rule (the counts include the others); strict
 * makes warnings errors.
 */
struct ts_diags *ts_diags_new(size_t max_per_rule, bool strict);
void	 ts_diags_free(struct ts_diags *);
/* Forget every message and count. */
void	 ts_diags_clear(struct ts_diags *);
/*
 * Record a message about file (NULL: none) at line and column (0:
 * unknown), under rule (TS_RULE_NONE: none).  An error means the data was
 * rejected (status 1).  Returns false when the cap suppressed it.
 */
bool	 ts_diag(struct ts_diags *, enum ts_sev, const char *file,
	    uint64_t line, uint64_t col, enum ts_rule rule,
	    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* The same at a byte offset (binary files). */
bool	 ts_diag_off(struct ts_diags *, enum ts_sev, const char *file,
	    int64_t offset, enum ts_rule rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
bool	 ts_vdiag(struct ts_diags *, enum ts_sev, const char *file,
	    uint64_t line, uint64_t col, int64_t offset, enum ts_rule rule,
	    const char *fmt, va_list);
/* An error of the system (status 3), or of the caller's request
 * (status 2).  With errno ELIBACC when ts_diag_io is called, a library
 * loaded at its first use could not be: the message says which, why. */
void	 ts_diag_io(struct ts_diags *, const char *file, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 ts_diag_usage(struct ts_diags *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Would a message for (file, rule) still be kept?  Lets hot loops skip
 * building messages nobody will see. */
bool	 ts_diag_wanted(struct ts_diags *, const char *file, enum ts_rule rule);
size_t	 ts_diags_errors(const struct ts_diags *);
size_t	 ts_diags_count(const struct ts_diags *, enum ts_sev);
size_t	 ts_diags_suppressed(const struct ts_diags *);
/* The worst status the errors imply: TS_STATUS_OK when there are none. */
int	 ts_diags_status(const struct ts_diags *);
/* The kept messages, in the order they came; a pointer from
 * ts_diags_at is good until the next message is recorded. */
size_t	 ts_diags_len(const struct ts_diags *);
const struct ts_diag *ts_diags_at(const struct ts_diags *, size_t);
/* Called with each message as it is kept (say, to print at once). */
typedef void ts_diag_fn(const struct ts_diag *, void *arg);
void	 ts_diags_set_emit(struct ts_diags *, ts_diag_fn *, void *arg);
/*
 * Print one message as "file:line:col: error: message [S1]"; a message
 * about no file as "prog: message" (prog NULL: "error: message").  A
 * file name a line cannot show safely (controls, bytes that are not
 * UTF-8, ...) is quoted as ls quotes it: 'a'$'\n''b'.
 */
void	 ts_diag_print(const struct ts_diag *, FILE *, const char *prog);
/* Every kept message, then one note per file and rule that lost some
 * to the cap. */
void	 ts_diags_print(const struct ts_diags *, FILE *, const char *prog);
void	 ts_diags_print_suppressed(const struct ts_diags *, FILE *);
/* As a JSON array of objects (no final newline); a file name that is
 * not UTF-8 is quoted, its bytes in base64 as "file_base64". */
void	 ts_diags_print_json(const struct ts_diags *, FILE *);
const char *ts_sev_name(enum ts_sev);

/* ================================================================
 * Metadata: NAME_metadata.json (SPEC section 2).
 * ================================================================ */

enum ts_vtype { TS_VTYPE_FLOAT32, TS_VTYPE_FLOAT64, TS_VTYPE_INT32,
	TS_VTYPE_INT64, TS_VTYPE_COUNT };
enum ts_itype { TS_ITYPE_UINT32, TS_ITYPE_UINT64 };
enum ts_domain { TS_DOMAIN_GENERAL, TS_DOMAIN_NONNEGATIVE, TS_DOMAIN_BINARY };
enum ts_sym { TS_SYM_NO, TS_SYM_PARTIAL, TS_SYM_FULL };
enum ts_sparsity { TS_SPARSITY_NO, TS_SPARSITY_SEMI, TS_SPARSITY_ELEMENT,
    TS_SPARSITY_BLOCK };
enum ts_endian { TS_ENDIAN_NONE, TS_ENDIAN_LITTLE, TS_ENDIAN_BIG };
/* What data is: a data file of one of the formats, the cuTENSOR arrays
 * (written only), scipy's and numpy's .npz, binsparse 0.1 in NPZ or in
 * HDF5, or a bundle (its metadata and data files). */
enum ts_kind { TS_KIND_TEXT, TS_KIND_BINARY, TS_KIND_FROSTT, TS_KIND_MTX,
    TS_KIND_CUTENSOR, TS_KIND_NPZ, TS_KIND_BSP_NPZ, TS_KIND_BSP_H5,
    TS_KIND_SPLATT_BIN, TS_KIND_FROSTT_BIN, TS_KIND_HIPARTI,
    TS_KIND_BUNDLE };
/* What a sort does with entries whose coordinates repeat. */
enum ts_dup_policy { TS_DUP_KEEP, TS_DUP_SUM, TS_DUP_FIRST, TS_DUP_LAST,
	TS_DUP_ERROR };

/* Bits of struct ts_meta.have: which fields hold a checked value. */
enum {
	TS_HAVE_VTYPE = 1 << 0, TS_HAVE_ITYPE = 1 << 1, TS_HAVE_BASE = 1 << 2,
	TS_HAVE_VALUES = 1 << 3, TS_HAVE_ORDER = 1 << 4, TS_HAVE_DIMS = 1 << 5,
	TS_HAVE_NNZ = 1 << 6, TS_HAVE_SORT = 1 << 7, TS_HAVE_DUPS = 1 << 8,
	TS_HAVE_ZEROS = 1 << 9, TS_HAVE_DOMAIN = 1 << 10,
	TS_HAVE_PSYM = 1 << 11, TS_HAVE_NSYM = 1 << 12,
	TS_HAVE_SPARSITY = 1 << 13, TS_HAVE_DENSE = 1 << 14,
	TS_HAVE_ENDIAN = 1 << 15, TS_HAVE_BLOCKS = 1 << 16,
	TS_HAVE_NAME = 1 << 17, TS_HAVE_FILES = 1 << 18
};

/* The attributes, as fields a C program reads and sets. */
struct ts_meta {
	unsigned	 have;		/* TS_HAVE_* */
	/* descriptive strings, owned; NULL when absent or not a string */
	char		*version, *name, *group, *id, *time;
	char		*source_type, *source, *source_url;
	enum ts_vtype	 value_type;
	enum ts_domain	 value_domain;
	bool		 values_provided;
	enum ts_itype	 index_type;
	int		 index_base;
	bool		 sorted;	/* lexicographic */
	int		 sort_order[TS_MAXORDER];	/* 0-based modes */
	int		 nsort;
	bool		 dups_allowed, zeros_allowed;
	enum ts_sym	 psym, nsym;
	enum ts_sparsity sparsity;
	int		 dense_modes[TS_MAXORDER];	/* 0-based modes */
	int		 ndense;
	enum ts_endian	 endianness;
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	uint64_t	 nnz;
	uint64_t	 parts[TS_MAXORDER];	/* block_partitions */
	uint64_t	 nnz_block;
	/* files: text, binary, readme (NULL when absent), and the others */
	char		*f_text, *f_binary, *f_readme;
	void		*f_other;	/* files' other keys; library's */
	void		*unknown;	/* unknown keys, kept; library's */
};

void	 ts_meta_init(struct ts_meta *);
void	 ts_meta_free(struct ts_meta *);
/*
 * Parse and check metadata: every M rule, located by JSON line and
 * column, goes to d.  Returns 0 when the text is a JSON object (the
 * fields in m->have are then usable, even if some rule failed), -1 when
 * not.  m must be fresh from ts_meta_init.  ts_meta_read reads the text
 * from a source, up to 16 MiB.
 */
int	 ts_meta_parse(struct ts_meta *, const char *text, size_t len,
	    const char *file, struct ts_diags *);
struct ts_source;
int	 ts_meta_read(struct ts_meta *, struct ts_source *, struct ts_diags *);
/* The canonical form (SPEC M2), malloc'd. */
char	*ts_meta_canonical(const struct ts_meta *);
/* A name of B2: [A-Za-z0-9][A-Za-z0-9._-]*, at most 200 bytes. */
bool	 ts_valid_name(const char *);
/*
 * The words of the enums, as the metadata, the tools' options and the
 * messages spell them ("float32", "little", "tnsb", "sum", ...), and
 * back: *_name gives NULL for a value that is none of its enum's,
 * *_of_name -1 for a word that is none of them.
 */
const char *ts_vtype_name(enum ts_vtype);
int	 ts_vtype_of_name(const char *);
const char *ts_itype_name(enum ts_itype);
int	 ts_itype_of_name(const char *);
const char *ts_domain_name(enum ts_domain);
int	 ts_domain_of_name(const char *);
const char *ts_sym_name(enum ts_sym);
int	 ts_sym_of_name(const char *);
const char *ts_sparsity_name(enum ts_sparsity);
int	 ts_sparsity_of_name(const char *);
const char *ts_endian_name(enum ts_endian);
int	 ts_endian_of_name(const char *);
/* "tns", "tnsb", "frostt", "mtx", "cutensor", "bundle": the formats'
 * table (its other functions below, with the decoders). */
const char *ts_kind_name(enum ts_kind);
int	 ts_kind_of_name(const char *);
/* "keep", "sum", "first", "last", "error" */
const char *ts_dup_policy_name(enum ts_dup_policy);
int	 ts_dup_policy_of_name(const char *);
/* Bytes of a value, of an index, in a binary file. */
size_t	 ts_vtype_size(enum ts_vtype);
size_t	 ts_itype_size(enum ts_itype);

/*
 * A value type, one row of the library's table: what everything that
 * depends on the type asks, so that a new type is one row.
 */
enum { TS_VTYPE_OK, TS_VTYPE_NOT, TS_VTYPE_RANGE };
struct ts_vtype_info {
	const char	*name;		/* as the metadata spells it */
	size_t		 size;		/* bytes of a binary record's value */
	bool		 is_int;	/* values in ival; else in fval */
	int		 bits;		/* a float's significand, 24 or 53 */
	double		 max;		/* the largest finite value */
	double		 least;		/* the smallest positive one */
	int64_t		 imin, imax;	/* an integer type's range */
	/*
	 * The literal at p (nothing at or past end is read) as a value of
	 * the type, into *f or *i: the end of the literal, with *why
	 * TS_VTYPE_OK; TS_VTYPE_RANGE when it overflows the type (or
	 * lies outside an integer's range); NULL with TS_VTYPE_NOT when
	 * no literal of the type starts at p.
	 */
	const char	*(*parse)(const char *p, const char *end, double *f,
			    int64_t *i, int *why);
	/* The shortest text that reads back to the value (TS_NUMBUF
	 * bytes at buf, NUL-terminated): its length. */
	int		 (*print)(char *buf, double f, int64_t i);
	/* A float type narrower than double: the nearest value of the
	 * type (ties to even); NULL for float64 and the integers. */
	double		 (*narrow)(double);
	/* n values of binary fields stride bytes apart, from or to f or i,
	 * byte-swapped when swap. */
	void		 (*load)(const unsigned char *v, size_t stride, size_t n,
			    bool swap, double *f, int64_t *i);
	void		 (*store)(unsigned char *v, size_t stride, size_t n,
			    bool swap, const double *f, const int64_t *i);
};
/* The row of a type; NULL for one that is none. */
const struct ts_vtype_info *ts_vtype_info(enum ts_vtype);

/* ================================================================
 * Sources: where bytes come from.
 * ================================================================ */

/* What a source is made of; ts_source_new takes the ctx. */
struct ts_source_ops {
	/* Up to n bytes into buf: the count, 0 at the end, -1 with errno
	 * (EILSEQ: the data cannot be decoded, as a corrupt stream). */
	long	(*read)(void *ctx, void *buf, size_t n);
	/* Back to the first byte: 0, or -1 with errno.  NULL: cannot. */
	int	(*rewind)(void *ctx);
	/* Release ctx: 0, or -1 with errno. */
	int	(*close)(void *ctx);
	/* Up to n bytes at offset off, leaving the position alone, from
	 * any thread: the count, 0 past the end, -1 with errno.  NULL:
	 * cannot (a stream); decoders then read in one thread. */
	long	(*pread)(void *ctx, void *buf, size_t n, uint64_t off);
};

struct ts_source *ts_source_new(const struct ts_source_ops *, void *ctx,
	    const char *name, int64_t size);
/* A file, or standard input for "-" (named "<stdin>", not closed). */
struct ts_source *ts_source_open_file(const char *path);
/* A descriptor, closed at the end when owned. */
struct ts_source *ts_source_open_fd(int fd, const char *name, bool owned);
/* n bytes at p, borrowed until the source is closed; it can rewind and
 * be read at any offset (so a decoder may parse it with threads). */
struct ts_source *ts_source_open_mem(const void *p, size_t n,
	    const char *name);
/*
 * A file opened for a decoder: with TS_SOURCE_DECOMPRESS, gzip, zstd, xz
 * or bzip2 data is decompressed on the way; with TS_SOURCE_REWIND, a
 * source that cannot go back to its start (a pipe, a FIFO, a stream
 * being decompressed from one) is first copied to a temporary file in tmpdir
 * (NULL: $TMPDIR or /tmp), unlinked at once, so that it can be read
 * twice yet is read once.  ts_source_prepare does the same to an open
 * source, which it takes (and closes on failure).
 */
enum { TS_SOURCE_DECOMPRESS = 1, TS_SOURCE_REWIND = 2 };
struct ts_source *ts_source_open(const char *path, unsigned flags,
	    const char *tmpdir);
struct ts_source *ts_source_prepare(struct ts_source *, unsigned flags,
	    const char *tmpdir);
/* The same two steps alone; both take the source given.  A decompressed
 * source can rewind when the one it reads can (it decompresses again). */
struct ts_source *ts_source_decompress(struct ts_source *);
struct ts_source *ts_source_spool(struct ts_source *, const char *tmpdir);
/* "gzip", "zstd", "xz", "bzip2" from the first bytes, or NULL. */
const char *ts_source_compression(struct ts_source *);
/* Up to n (at most 4096) first bytes, without consuming them; only
 * before the first read.  Returns how many there are, or -1. */
long	 ts_source_peek(struct ts_source *, const char **, size_t n);
/* Up to n bytes: the count, 0 at the end, -1 with errno. */
long	 ts_source_read(struct ts_source *, void *, size_t);
/* Up to n bytes at offset off (see struct ts_source_ops); -1 with
 * ENOTSUP when the source cannot. */
long	 ts_source_pread(struct ts_source *, void *, size_t, uint64_t off);
int	 ts_source_rewind(struct ts_source *);
bool	 ts_source_can_rewind(const struct ts_source *);
const char *ts_source_name(const struct ts_source *);
void	 ts_source_set_name(struct ts_source *, const char *);
/* The size when known (a regular file), else -1. */
int64_t	 ts_source_size(const struct ts_source *);
/* Bytes read so far. */
uint64_t ts_source_nread(const struct ts_source *);
/* Why the last read failed, when the source can say more than errno (a
 * member of a truncated archive: bad data, not a failing disk); else
 * NULL.  Valid until the next read or the close. */
const char *ts_source_error(const struct ts_source *);
int	 ts_source_close(struct ts_source *);

/* ================================================================
 * Sinks: where bytes go, whole or not at all.
 * ================================================================ */

struct ts_sink_ops {
	/* All n bytes: 0, or -1 with errno. */
	int	(*write)(void *ctx, const void *buf, size_t n);
	/* Make the output appear, release ctx: 0, or -1 with errno. */
	int	(*commit)(void *ctx);
	/* Make nothing appear, release ctx. */
	void	(*abort)(void *ctx);
};

struct ts_sink;
struct ts_sink *ts_sink_new(const struct ts_sink_ops *, void *ctx,
	    const char *name);
/*
 * An output file: "-" is standard output (named "<stdout>"); a device
 * or FIFO is written to; anything else is written to a temporary file
 * beside path, renamed onto it at commit and removed at abort (or when
 * SIGINT, SIGTERM or SIGHUP ends the program).  Without TS_SINK_FORCE an
 * existing path is refused (EEXIST); a directory always is (EISDIR).  A
 * symbolic link is written through: what it points to is replaced.
 * With TS_SINK_COMPRESS, a path whose suffix names a compression (see
 * ts_sink_compression) is written through ts_sink_compress.
 */
enum { TS_SINK_FORCE = 1, TS_SINK_COMPRESS = 4 };
struct ts_sink *ts_sink_open(const char *path, unsigned flags);
/* "gzip", "zstd", "xz" or "bzip2" for a path ending in .gz, .zst, .xz
 * or .bz2; else NULL. */
const char *ts_sink_compression(const char *path);
/*
 * A sink that compresses what it is given with filter ("gzip", "zstd",
 * "xz", "bzip2") into k, which it takes: k is committed or aborted with
 * it.  zstd goes through libzstd, every frame with its content checksum
 * and at least one worker (the same bytes for any number), the others
 * through libarchive.  NULL with errno (EOPNOTSUPP: this libarchive
 * cannot write that filter, or this libzstd has no threads), k then
 * aborted.
 */
struct ts_sink *ts_sink_compress(struct ts_sink *k, const char *filter);
struct ts_sink *ts_sink_open_fd(int fd, const char *name, bool owned);
/* Write all n bytes: 0, or -1 with errno.  A failed write fails the
 * commit that follows. */
int	 ts_sink_write(struct ts_sink *, const void *, size_t);
/* Both free the sink. */
int	 ts_sink_commit(struct ts_sink *);
void	 ts_sink_abort(struct ts_sink *);
const char *ts_sink_name(const struct ts_sink *);

/*
 * A bundle being written: a sink per file, then all of them appear at
 * once.  ts_bundle_out_open writes a directory: a temporary one beside
 * dir, which takes the place of dir at commit.  It takes the place of
 * nothing, or of an empty directory; with TS_BUNDLE_OUT_FORCE, of an existing
 * bundle or file (without it: EEXIST); never of another directory
 * (ENOTEMPTY) or a device or FIFO (ENOTDIR), except that a dir that is
 * /dev/null writes every file nowhere.  With TS_BUNDLE_OUT_INPLACE each
 * file replaces its namesake in dir and the other files stay.  A bundle
 * replaced is replaced in one step (the old one or the new one, never a
 * mix), its successor on disk first; through a symbolic link, what it
 * points to is the bundle replaced.  The writer holds the bundle's lock
 * from open to commit or abort: when another writer holds it, open waits
 * with TS_BUNDLE_OUT_WAIT and fails with EWOULDBLOCK without.
 */
enum { TS_BUNDLE_OUT_FORCE = 1, TS_BUNDLE_OUT_INPLACE = 2,
	TS_BUNDLE_OUT_WAIT = 8 };
struct ts_bundle_out_ops {
	struct ts_sink *(*file)(void *ctx, const char *fname);
	int	(*commit)(void *ctx);
	void	(*abort)(void *ctx);
};
struct ts_bundle_out;
struct ts_bundle_out *ts_bundle_out_new(const struct ts_bundle_out_ops *,
	    void *ctx, const char *name);
struct ts_bundle_out *ts_bundle_out_open(const char *dir, unsigned flags);
/* A sink for one file of the bundle; commit it before the bundle. */
struct ts_sink *ts_bundle_out_file(struct ts_bundle_out *, const char *fname);
/*
 * Both free the bundle writer.  Commit: 0, or -1 with errno; state, when
 * not NULL, then says where the bundle is: 0, as it was (the old bundle,
 * or nothing), or a state between: TS_COMMIT_LEFT, the new bundle is in
 * place but what it replaced could not be removed (the next writer of it
 * tries again); TS_COMMIT_UNSYNCED, the new bundle is in place but the
 * directory that holds it could not be written to disk (a crash of the
 * system may bring back the old one); TS_COMMIT_ASIDE, neither is in
 * place, the old bundle moved aside and the new one beside it (the next
 * writer of it finishes the move).
 */
enum { TS_COMMIT_LEFT = 1, TS_COMMIT_UNSYNCED, TS_COMMIT_ASIDE };
int	 ts_bundle_out_commit(struct ts_bundle_out *, int *state);
void	 ts_bundle_out_abort(struct ts_bundle_out *);
const char *ts_bundle_out_name(const struct ts_bundle_out *);

/* ================================================================
 * Bundles: a tensor's metadata and files (SPEC B1-B3).
 * ================================================================ */

struct ts_file_stat {
	bool	 regular;
	int64_t	 size;		/* -1: unknown */
	bool	 link;		/* a symbolic link, the rest of what it
				 * points to (not regular when nothing) */
	bool	 dir;		/* a directory */
};

/* Where a bundle's files are: a directory, or archive members. */
struct ts_bundle_ns_ops {
	/* What name is: 0, or -1 with errno (ENOENT: nothing). */
	int	(*stat)(void *ctx, const char *name, struct ts_file_stat *);
	struct ts_source *(*open)(void *ctx, const char *name);
	/* The name for messages, malloc'd ("dir/x.tns"). */
	char	*(*path)(void *ctx, const char *name);
	/* fn for every file (those of the folder of pictures as
	 * pictures/FILE, tensorsuite(5) B6); stops at the first non-zero
	 * return. */
	int	(*list)(void *ctx, int (*fn)(const char *, void *), void *arg);
	void	(*free)(void *ctx);
	/*
	 * Files read as a stream (an archive's members, in order): stat
	 * fails with EAGAIN for a file not come by yet, open reads on to
	 * the file, and settle reads on to the end of the bundle's files,
	 * after which stat answers for every name: 0, or -1 with errno.
	 * NULL for a namespace that answers at once (a directory).
	 */
	int	(*settle)(void *ctx);
};

struct ts_bundle;
/*
 * Open the bundle at path (its directory or its metadata file), reading
 * and checking its metadata (B1-B3, M) into d.  NULL when there is no
 * bundle there at all (an I/O error: a missing path); otherwise a bundle,
 * whose metadata may still be unusable (ts_bundle_meta() NULL).
 */
struct ts_bundle *ts_bundle_open(const char *path, struct ts_diags *);
/* The same over a namespace, which the bundle takes; where names it. */
struct ts_bundle *ts_bundle_open_ns(const struct ts_bundle_ns_ops *,
	    void *ctx, const char *name, const char *where, struct ts_diags *);
/* The bundle name whose files are in the directory dir, whatever dir is
 * called (a temporary one); its files are named shown/FILE in messages
 * (shown NULL: dir/FILE). */
struct ts_bundle *ts_bundle_open_dir(const char *dir, const char *name,
	    const char *shown, struct ts_diags *);
void	 ts_bundle_free(struct ts_bundle *);
/* Are its files read as a stream (see settle above)?  Then they must be
 * opened one at a time, each read before the next is opened, in the
 * order they come for speed (any order works, at a cost). */
bool	 ts_bundle_streams(const struct ts_bundle *);
/* Over a stream, the checks of B1-B3 whose files had not come by when
 * the metadata was read, once the bundle's files are all read past (the
 * end of ts_check_bundle does it).  Nothing for a directory.  -1 when
 * it reported an error. */
int	 ts_bundle_settle(struct ts_bundle *, struct ts_diags *);
const char *ts_bundle_name(const struct ts_bundle *);
const char *ts_bundle_where(const struct ts_bundle *);
const char *ts_bundle_meta_path(const struct ts_bundle *);
/* The metadata, or NULL when it could not be parsed.  The caller may
 * change it (a tool writing a new bundle from it does). */
struct ts_meta *ts_bundle_meta(struct ts_bundle *);
/* The file name of the text (TS_KIND_TEXT) or binary (TS_KIND_BINARY) data file
 * when the bundle names one that is there; else NULL. */
const char *ts_bundle_data_file(const struct ts_bundle *, enum ts_kind);
char	*ts_bundle_path(const struct ts_bundle *, const char *fname);
struct ts_source *ts_bundle_open_file(struct ts_bundle *, const char *fname);
int	 ts_bundle_stat(struct ts_bundle *, const char *fname,
	    struct ts_file_stat *);
int	 ts_bundle_list(struct ts_bundle *, int (*fn)(const char *, void *),
	    void *arg);

/* ================================================================
 * Entries: headers, layouts, batches.
 * ================================================================ */

/* What a data file's header says (SPEC H). */
struct ts_header {
	enum ts_kind	 kind;
	char		*version, *name;	/* owned; NULL when none */
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	uint64_t	 nnz;
	bool		 nnz_known;	/* false: the file does not say */
	bool		 dims_known;	/* false: from the entries (FROSTT) */
	int		 base;		/* index base the file states; -1 */
	const char	*dialect;	/* of FROSTT: "sptensor", ...; NULL */
	bool		 block;
	uint64_t	 parts[TS_MAXORDER];
	uint64_t	 nnz_block;
	uint64_t	*extents[TS_MAXORDER];	/* owned; parts[i] each */
	uint64_t	 bytes;		/* length of the header */
	uint64_t	 lines;		/* lines in the header */
	/* The comment lines before the first entry that are the file's
	 * own words (Matrix Market's after the banner, FROSTT's), each
	 * ended by '\n', at most TS_COMMENTS_MAX bytes (comments_len);
	 * owned; NULL when none. */
	char		*comments;
	size_t		 comments_len;
};
#define TS_COMMENTS_MAX	((size_t)64 << 10)
void	 ts_header_free(struct ts_header *);
/*
 * A block header whose partitions are uniform, every section of mode k
 * of one extent: -1, with that extent of each mode in shape (order of
 * them).  Else the first mode (0-based) whose sections differ, with
 * e[0] its first section's extent and e[1] the first that differs.
 */
int	 ts_header_uniform(const struct ts_header *, uint64_t *shape,
	    uint64_t e[2]);

/* How entries are laid out in a file (from metadata, flags, or the
 * file itself). */
struct ts_layout {
	enum ts_kind	 kind;
	bool		 block;
	int		 values;	/* 1, 0, or -1: text infers it */
	enum ts_vtype	 vtype;
	enum ts_itype	 itype;
	enum ts_endian	 endian;
	int		 base;
};

/*
 * A batch: the unit that flows.  Coordinates are 0-based (a decoder
 * subtracts the index base; a coordinate below the base wraps around to
 * a huge value, which a bounds check reports).  Values are in fval
 * (float types, float32 exactly widened) or ival (integer types).
 */
struct ts_batch {
	size_t		 n, cap;
	int		 order;
	bool		 has_values, is_int;
	uint64_t	*coords;	/* n * order */
	double		*fval;
	int64_t		*ival;
	const char	*file;		/* where the entries come from */
	bool		 loc_offset;	/* loc is a byte offset, not a line */
	uint64_t	*loc;		/* text: line; binary: byte offset */
	/* binary: bytes from field to field (a file of one array per
	 * mode: from one mode's array to the next) */
	uint64_t	 loc_step;
	const char	**row;		/* text: start of the row; else NULL */
	/*
	 * When texts is set, each value's bytes as written (vtext[i],
	 * vlen[i] bytes, not NUL-terminated), valid until the next batch:
	 * a text encoder copies them instead of formatting.  A stage that
	 * changes values makes the flow drop them (TS_STAGE_VALUES).
	 */
	const char	**vtext;
	uint32_t	*vlen;
	bool		 texts;
	bool		 texts_only;	/* fval/ival unset: read the texts */
	uint64_t	 first;		/* index of the first entry in file */
	/*
	 * Set by a decoder that parses on threads, for the stages' local
	 * functions (struct ts_stage_ops): local when they were given
	 * these entries on the thread that parsed them; local_cont when,
	 * in the same batch, the entry before the first too.
	 */
	bool		 local, local_cont;
};

void	 ts_batch_init(struct ts_batch *, int order, size_t cap);
void	 ts_batch_free(struct ts_batch *);
/* The column of field k (coordinates, then the value) of entry i, from
 * its row's text; 0 when unknown. */
uint64_t ts_batch_col(const struct ts_batch *, size_t i, int k);

/* ================================================================
 * Decoders: bytes to batches.
 * ================================================================ */

struct ts_decoder;
/* How a bundle's data file of kind is laid out, by its metadata. */
void	 ts_layout_of(const struct ts_meta *, enum ts_kind, struct ts_layout *);
/*
 * The kind of data a source holds, from its first bytes (peeked, not
 * consumed): TS_KIND_TEXT or TS_KIND_BINARY by their magic line,
 * TS_KIND_MTX by its banner, else TS_KIND_FROSTT (which has no header
 * to tell it by).
 */
enum ts_kind ts_sniff(struct ts_source *);
/*
 * The formats, one row each of the library's table.  A kind's title
 * ("Matrix Market"), whether it is read and written, its file suffixes
 * (i from 0; NULL past the last; FROSTT has none, its files are told by
 * their bytes); the kind a file name's suffix names, under a
 * compression suffix, with *stem (may be NULL) the length of the name
 * without them, or -1; the kind first bytes tell (as ts_sniff).
 */
const char *ts_kind_title(enum ts_kind);
/*
 * What else a kind's row says: its value texts are copied as read (a
 * text format: TS_KIND_VALUE_TEXTS); its files hold a comment line
 * (TS_KIND_COMMENT); they have no header, and state neither their
 * dimensions nor their index base (TS_KIND_BARE); its file name decides
 * what a file is when its first bytes do not (TS_KIND_NAMED: a .mtx
 * without its banner); its entries are unique and sorted, which a
 * writer of it sees to (TS_KIND_SORTED: pydata/sparse and binsparse
 * assume them so); its files keep the tensor's attributes, all of them
 * (TS_KIND_ATTRS: binsparse, beside its descriptor); its writer keeps
 * its arrays to the end, in memory up to ts_encode_opts.mem_limit
 * (TS_KIND_KEEPS: .npz, SPLATT's and FROSTT's binaries).  The index base
 * its files always have, or -1
 * when the writer chooses (1 without metadata: rule P1).  The kind a
 * file is read as: what its bytes say (sniffed), or, when no format
 * claims them, the kind its name decides.
 */
enum { TS_KIND_VALUE_TEXTS = 1, TS_KIND_COMMENT = 2, TS_KIND_BARE = 4,
	TS_KIND_NAMED = 8, TS_KIND_SORTED = 16, TS_KIND_ATTRS = 32,
	TS_KIND_KEEPS = 64 };
unsigned ts_kind_traits(enum ts_kind);
int	 ts_kind_base(enum ts_kind);
enum ts_kind ts_kind_read_as(enum ts_kind sniffed, const char *path);
bool	 ts_kind_readable(enum ts_kind);
bool	 ts_kind_writable(enum ts_kind);
const char *ts_kind_suffix(enum ts_kind, int i);
int	 ts_kind_of_path(const char *name, size_t *stem);
/* A suffix that formats share (.bin: SPLATT's and FROSTT's binaries)
 * names none of them, and ts_kind_of_path gives -1: when name ends in
 * one, the kinds that claim it (up to max into v) and how many; else 0. */
int	 ts_kind_suffix_shared(const char *name, enum ts_kind *v, int max);
enum ts_kind ts_kind_of_bytes(const char *p, size_t n);
/*
 * Why a kind cannot hold the tensor m describes (its order, blocks or
 * elements), in buf (n bytes), with *rule the rule that says so (or
 * TS_RULE_NONE); NULL when it can.  h is its data file's header once
 * read, else NULL: a kind that holds blocks of one shape only
 * (binsparse) refuses a block tensor whose partitions are not uniform
 * when h says so.
 */
const char *ts_kind_refuses(enum ts_kind, const struct ts_meta *m,
	    const struct ts_header *h, char *buf, size_t n,
	    enum ts_rule *rule);
/*
 * Open a decoder of lay->kind (TS_KIND_TEXT, TS_KIND_BINARY,
 * TS_KIND_FROSTT, TS_KIND_MTX) on src and read its header, checking
 * it (H1-H5; X1 for the kind expected).  The decoder owns neither src
 * nor d.  NULL, with the problem in d, when the header is unusable.  A Matrix Market decoder
 * sets the layout's values and type from its banner; a text one infers
 * values from the first row when lay->values is -1.
 */
struct ts_decoder *ts_decoder_open(struct ts_source *,
	    const struct ts_layout *, struct ts_diags *);
/*
 * Threads that parse text (1: the caller's alone).  Past its first rows,
 * a large regular text file is cut at line ends into chunks that n - 1
 * threads parse while the caller takes the batches, in file order, with
 * exact line numbers.  The default is the machine's cores, up to 4.
 */
void	 ts_decoder_set_threads(struct ts_decoder *, int n);
/*
 * For a caller that reads values only as texts (b->vtext) or asks only
 * whether they are zero, negative, finite (the checks of validation, a
 * sort that writes the texts back): a plain decimal value of a text file
 * (digits and a point, no sign, no exponent, short enough that it can
 * round neither to zero nor to infinity) is then not converted; its
 * value is given as 1 when a digit is not zero, else 0.  Any other
 * literal is converted as always.
 */
void	 ts_decoder_value_classes(struct ts_decoder *);
/*
 * S1 on every batch ts_decoder_next gives (on by default): a coordinate
 * outside the dimensions the header states (a block file's block grid)
 * is reported to d, at its line and column or byte offset, and ends the
 * read (-1), so that no entry out of range reaches the reader.  A
 * reader that checks them itself, reporting each, turns it off.
 */
void	 ts_decoder_check_bounds(struct ts_decoder *, bool on);
const struct ts_header *ts_decoder_header(const struct ts_decoder *);
const struct ts_layout *ts_decoder_layout(const struct ts_decoder *);
struct ts_source *ts_decoder_source(const struct ts_decoder *);
/*
 * Fill b with the next entries: the count, 0 at the end, -1 on an error
 * that ends the read (reported).  Malformed rows are reported to d and
 * skipped; ts_decoder_rows() counts them too (for X7).
 */
long	 ts_decoder_next(struct ts_decoder *, struct ts_batch *);
uint64_t ts_decoder_rows(const struct ts_decoder *);
/* The file offset just past what the batches so far came from. */
uint64_t ts_decoder_offset(const struct ts_decoder *);
void	 ts_decoder_close(struct ts_decoder *);

/*
 * The entries of whatever path is, ready to read: a bundle (its
 * directory, its metadata file, or an archive, a file or standard input
 * "-", of which the bundle member names is read, or the first), its
 * text data file when it has one, else its binary one, as its metadata
 * says; else a data file or standard input, decompressed when it is
 * compressed, of the kind its first bytes tell (ts_sniff), laid out as
 * its own header says (a text file tells from its first row whether it
 * has values; a binary file, which cannot say how its records are laid
 * out, is refused by its decoder).  Every problem goes to d; NULL when
 * there is nothing to read.  The input owns the decoder it gives, and
 * the bundle, which are valid until ts_input_close.
 */
struct ts_input;
struct ts_input *ts_input_open(const char *path, const char *member,
	    struct ts_diags *d);
struct ts_decoder *ts_input_decoder(struct ts_input *);
/* TS_KIND_BUNDLE, or the kind of the data file. */
enum ts_kind ts_input_kind(const struct ts_input *);
/* The bundle, or NULL for a data file. */
struct ts_bundle *ts_input_bundle(struct ts_input *);
/*
 * Once the entries are read (the decoder can then read no more): for a
 * bundle in an archive, the rest of the archive read, so that every
 * member is checked against its SHA256SUMS manifest and each zstd frame
 * against its checksum (an archive without a manifest: a note that it
 * could not be verified).  0, or -1 with the errors in the d of
 * ts_input_open; 0 at once for anything but an archive.
 */
int	 ts_input_finish(struct ts_input *);
void	 ts_input_close(struct ts_input *);

/* ================================================================
 * Encoders: batches to bytes on a sink.
 * ================================================================ */

enum { TS_VALFMT_SHORTEST = 0, TS_VALFMT_E16 = 1 };

struct ts_encode_opts {
	int		 valfmt;	/* TS_VALFMT_*; shortest copies texts */
	const char	*name;		/* "% name:" (NULL: the header's) */
	const char	*comment;	/* Matrix Market: '%' lines */
	/* A format that writes its arrays at the end (.npz; SPLATT's and
	 * FROSTT's binaries, one array per mode) keeps them meanwhile in
	 * memory, up to mem_limit bytes (0: none), the rest in tmpdir
	 * (NULL: $TMPDIR, else /tmp). */
	const char	*tmpdir;
	uint64_t	 mem_limit;
	/* Matrix Market: 0 general; 1 symmetric, 2 skew-symmetric: the
	 * lower triangle is written, and the header's nnz counts it. */
	int		 mtx_sym;
	/* The tensor's attributes, for a format that keeps them (binsparse
	 * beside its descriptor); NULL: what the header and layout say. */
	const struct ts_meta *meta;
};

struct ts_encoder;
/*
 * Open an encoder of lay->kind on k and write the header h describes
 * (order, dims, nnz; block parts and extents).  h and the strings of o
 * are borrowed until ts_encoder_close.  The encoder does not own k:
 * close the encoder, then commit (or abort) the sink.  NULL with errno
 * (ERANGE: a dimension beyond 2^63-1, which no reader takes), or with
 * the problem in d (cuTENSOR: not a block tensor).
 */
struct ts_encoder *ts_encoder_open(struct ts_sink *, const struct ts_header *,
	    const struct ts_layout *, const struct ts_encode_opts *,
	    struct ts_diags *);
/* 0, or -1 with errno (EINVAL: the batch does not fit the file). */
int	 ts_encoder_put(struct ts_encoder *, const struct ts_batch *);
/* Write what is left and free: 0, or -1 with errno or reported.
 * EINVAL: the entries put are not as many as the header says. */
int	 ts_encoder_close(struct ts_encoder *);
/* Free after a failure, without writing what the encoder keeps for its
 * end (cuTENSOR's arrays); what it wrote stays for the sink's abort. */
void	 ts_encoder_abort(struct ts_encoder *);

/* cuTENSOR's block-sparse descriptor (SPEC K4). */
#define TS_CUTENSOR_MAXMODES	8

struct ts_cutensor {
	uint32_t	 num_modes;
	uint32_t	 sections[TS_CUTENSOR_MAXMODES];  /* numSectionsPerMode */
	int64_t		*extent;	/* the partition lines, mode by mode */
	uint64_t	 num_blocks;
	int32_t		*coords;	/* nonZeroCoordinates: num_modes per
					 * block, 0-based, in file order */
};
/*
 * Fill the arrays for cutensorCreateBlockSparseTensorDescriptor from a
 * block header and the blocks' 0-based coordinates.  Returns 0, or -1
 * with what cuTENSOR cannot take reported to d (K4).  Free with
 * ts_cutensor_free.
 */
int	 ts_cutensor_fill(struct ts_cutensor *, const struct ts_header *,
	    const uint64_t *coords, uint64_t nblocks, struct ts_diags *d);
void	 ts_cutensor_free(struct ts_cutensor *);

/* ================================================================
 * Stages and the flow: decoder -> stages -> encoders.
 * ================================================================ */

enum {
	TS_STAGE_VALUES = 1,	/* the stage changes values */
	TS_STAGE_READS = 2	/* it changes nothing of a batch */
};

struct ts_stage_ops {
	const char	*name;
	unsigned	 flags;		/* TS_STAGE_* */
	/* Take a batch (a streaming stage changes it in place and the
	 * flow passes it on; a stage with next keeps what it needs):
	 * 0, or -1 to stop the flow (the stage reported why). */
	int	(*put)(void *self, struct ts_batch *);
	/* No more input: 0, or -1.  May be NULL. */
	int	(*finish)(void *self);
	/* A stage that holds entries until the end hands them on here
	 * after finish: the count, 0 at the end, -1.  NULL: streaming. */
	long	(*next)(void *self, struct ts_batch *);
	/* Entries next will hand on, after finish (a hint; may be NULL). */
	uint64_t (*count)(void *self);
	void	(*free)(void *self);
};

/*
 * The part of a stage's work that the threads parsing a large text
 * file can do, each on the batches it parsed, as soon as it has, when
 * the caller does not keep up (ts_stage_set_local); the flow uses it
 * when every stage before this one is TS_STAGE_READS and holds nothing.  start(self) makes a
 * thread's state, on that thread (self only read); put(state, b) takes
 * a batch, a thread's batches coming in file order, b->loc and
 * b->first not yet the file's; a TS_STAGE_VALUES stage may set the
 * entries' values there (fval, ival), nothing else of b; the stage's
 * put then gets that batch with b->local set, and every other batch
 * without.  end(self, state),
 * on the caller's thread once no thread runs put any more, folds a
 * state into self and frees it: before finish, or as the flow stops
 * early (then self is not complete); NULL when a state holds nothing of
 * its own (start returned self, say).
 */
struct ts_stage_local_ops {
	void	*(*start)(void *self);
	void	(*put)(void *state, struct ts_batch *);
	void	(*end)(void *self, void *state);
};

struct ts_stage;
struct ts_stage *ts_stage_new(const struct ts_stage_ops *, void *self);
/* Give s local functions (the table must outlive it). */
void	 ts_stage_set_local(struct ts_stage *s,
	    const struct ts_stage_local_ops *);
void	 ts_stage_free(struct ts_stage *);

struct ts_flow;
/*
 * A flow reads dec to the end through its stages into its outputs.
 * Failures are reported to d (an output's failed write as an I/O error
 * naming its sink).  what names the input in the progress line.
 */
struct ts_flow *ts_flow_new(struct ts_decoder *, struct ts_diags *,
	    const char *what);
/* By default a flow stops at the first error reported to d (what would
 * follow could be wrong); a checker goes on to find them all. */
void	 ts_flow_keep_going(struct ts_flow *, bool);
/* What the outputs are, for the progress line (borrowed). */
void	 ts_flow_name_output(struct ts_flow *, const char *);
/* Append a stage; the flow takes it. */
void	 ts_flow_add(struct ts_flow *, struct ts_stage *);
/* Add an output; the flow does not take it (close it after the run).
 * A failed write is reported naming the encoder's sink. */
void	 ts_flow_output(struct ts_flow *, struct ts_encoder *);
/*
 * Run: every batch through the stages to the outputs.  ready, when not
 * NULL, is called once before the first batch reaches the outputs (or
 * at the end if none does), after every stage before it has finished
 * when one holds entries: the caller adds its outputs there, once what
 * they write in their headers is known.  0, or -1 (reported).
 */
int	 ts_flow_run(struct ts_flow *, int (*ready)(void *), void *arg);
/* Entries the outputs were given. */
uint64_t ts_flow_delivered(const struct ts_flow *);
/* Entries the decoder gave. */
uint64_t ts_flow_read(const struct ts_flow *);
void	 ts_flow_free(struct ts_flow *);

/* ---- stages of the library ---- */

/* S1: every coordinate below lim[k] (dimensions, or block sections). */
struct ts_stage *ts_stage_bounds(const uint64_t *lim, int order, int base,
	    bool block, struct ts_diags *);
/*
 * Is every entry at or after the one before it, in the priority prio
 * (0-based modes, most significant first)?  The first that is not is
 * reported to d, located, with both tuples in index base base, and stops
 * the flow; with strict, so is an entry equal to the one before it.  It
 * keeps one tuple: any tensor is checked in the same memory.
 */
struct ts_stage *ts_stage_order(const int *prio, int order, int base,
	    bool strict, struct ts_diags *);
/* Values from one type to another, refusing what does not fit exactly. */
struct ts_stage *ts_stage_convert(enum ts_vtype from, enum ts_vtype to,
	    struct ts_diags *);

/* Sorting, in memory or spilled and merged. */

struct ts_sort_opts {
	int		 order;
	int		 prio[TS_MAXORDER];	/* 0-based modes, most
						 * significant first */
	bool		 has_values;
	enum ts_vtype	 vtype;		/* of the values: integers in ival,
					 * floats in fval */
	/*
	 * Carry the batches' value texts through the sort.  Each value
	 * must then be what its text parses to (as the decoders parse it,
	 * by the value type): the sorter may keep the text alone and
	 * parse it again.
	 */
	bool		 keep_text;
	bool		 texts_only;	/* with keep_text: the caller reads
					 * texts, not fval/ival (unset) */
	size_t		 mem_limit;	/* bytes for records; runs spill
					 * to tmpdir past it */
	const char	*tmpdir;	/* NULL: $TMPDIR or /tmp */
	uint64_t	 expect;	/* entries expected, a hint (0: not
					 * known); memory is prepared for
					 * them, so bound it by the input */
	int		 threads;	/* >= 1 */
	enum ts_dup_policy	 dups;
};

struct ts_sorter;
struct ts_sorter *ts_sorter_new(const struct ts_sort_opts *);
/* Change opts.expect, before the first ts_sorter_add. */
void	 ts_sorter_expect(struct ts_sorter *, uint64_t);
/* Add the entries of b (copied).  Returns 0, or -1 with errno (I/O). */
int	 ts_sorter_add(struct ts_sorter *, const struct ts_batch *);
/*
 * No more input: sort, merge runs, apply the duplicates policy.  Returns
 * 0, or -1 with errno: an I/O error; ERANGE, a sum overflows; EEXIST,
 * dups is TS_DUP_ERROR and a tuple repeats (ts_sorter_dup() then gives
 * it, 0-based).
 */
int	 ts_sorter_finish(struct ts_sorter *);
const uint64_t *ts_sorter_dup(const struct ts_sorter *);
/* Entries that ts_sorter_next will deliver (after the dups policy). */
uint64_t ts_sorter_count(const struct ts_sorter *);
/*
 * Fill b with the next entries in order (stable: equal tuples keep input
 * order); with keep_text, b->vtext/vlen point into the sorter's memory,
 * valid until the next call.  Returns the count, 0 at the end, -1 on I/O
 * error.
 */
long	 ts_sorter_next(struct ts_sorter *, struct ts_batch *);
/* Remove spill files and free. */
void	 ts_sorter_free(struct ts_sorter *);

/*
 * The sort as a stage of a flow.  Errors (a repeat under TS_DUP_ERROR,
 * a sum that overflows the value type opts.vtype, a failing temporary
 * directory) are reported to d about file, tuples in index base base.
 * hint (may be NULL) is the decoder feeding the flow: its first batch
 * bounds the memory prepared for opts.expect entries.  After a sum, the
 * values handed on are rounded to that type.  res (may be NULL), which must
 * outlive the stage, gets the count of entries handed on once the input
 * is sorted, and bits of what they hold, for the metadata.
 */
struct ts_sort_result {
	uint64_t	 count;
	unsigned	 seen;		/* 1: a zero; 2: not 0 or 1 (sums) */
};
struct ts_stage *ts_stage_sort(const struct ts_sort_opts *, int base,
	    const char *file, const struct ts_decoder *hint,
	    struct ts_sort_result *res, struct ts_diags *);

/* ================================================================
 * Validation.
 * ================================================================ */

/*
 * What a caller adds to the pass of the checks over a data file, so that
 * it reads the entries once (a tool's statistics ride on it): a stage
 * that sees every entry the checks see, after them, and what the checks'
 * sorts found.
 */
struct ts_check_watch {
	/*
	 * A stage for the entries dec is about to give (its header and
	 * layout say what they are), m the metadata they are checked
	 * against (NULL: a lone file without); NULL for none.  The flow
	 * takes the stage.  Called once a data file, for the one whose
	 * entries are checked.
	 */
	struct ts_stage	*(*stage)(void *arg, const struct ts_meta *m,
			    struct ts_decoder *dec);
	/* Once the checks of the whole are done: how many entries repeat
	 * one before them, when a sort of the checks counted them (S3 in
	 * unsorted input, symmetry, completeness); not called otherwise.
	 * May be NULL. */
	void		 (*repeats)(void *arg, uint64_t n);
	void		*arg;
};

struct ts_check_opts {
	bool		 quick;		/* headers only */
	/*
	 * The checks that need the entries in another order (repeats in
	 * unsorted input, symmetry, completeness) sort them: in this much
	 * memory (0: 256 MiB), runs spilled past it to tmpdir (NULL:
	 * $TMPDIR or /tmp).  threads: to parse and sort (0: the cores).
	 */
	size_t		 mem_limit;
	const char	*tmpdir;
	int		 threads;
	const struct ts_check_watch *watch;	/* NULL: none */
	/*
	 * Every entry of each data file, but only by the checks that need
	 * nothing more than its entries as they stream by (S1, S2, S3 of
	 * sorted input, S4 to S6, E, K, X7), none that sorts them (S3 of
	 * unsorted input, S7 to S9) nor X6, which reads every value of
	 * both files: in the time and memory of reading the files once,
	 * as ts-pack checks what it packs.
	 */
	bool		 stream_only;
};
/* Check a bundle's data files against its metadata (H, E, K, X, S):
 * 0, or -1 when it reported an error (the bundle is invalid). */
int	 ts_check_bundle(struct ts_bundle *, const struct ts_check_opts *,
	    struct ts_diags *);
/*
 * Check one data file of kind (TS_KIND_TEXT, TS_KIND_BINARY,
 * TS_KIND_FROSTT, TS_KIND_MTX) read from src, which this takes and
 * closes: against m when not NULL (as a bundle's file, X6 aside); else
 * against what it says of itself (its header, its rows, the bounds and
 * the count; a binary file cannot be read without metadata), with a
 * note saying what needed metadata: 0, or -1 when it reported an
 * error.
 */
int	 ts_check_file(struct ts_source *, enum ts_kind, const struct ts_meta *,
	    const struct ts_check_opts *, struct ts_diags *);

/*
 * What entries are, found by reading them (for metadata inferred on
 * import): a stage that watches what passes and keeps what only the
 * whole tensor can tell.  With light, nothing is kept (S3, S7, S8 are
 * then not inferred).
 */
struct ts_inferred {
	uint64_t	 n;
	uint64_t	 min[TS_MAXORDER], max[TS_MAXORDER];
	bool		 fwd, rev;	/* sorted in 1..N / N..1 priority */
	bool		 zero, neg, nonbin;
	bool		 frac;		/* a value is not an integer */
	double		 vmax;		/* the largest value */
	bool		 dups;		/* some tuple repeats */
	enum ts_sym	 psym, nsym;	/* the strongest that holds */
	/* Order 2: mirrored entries hold values of opposite signs, and
	 * none lies on the diagonal (a skew-symmetric matrix). */
	bool		 skew;
	uint64_t	 ndiag;		/* entries with all coordinates equal */
	uint64_t	 first[TS_MAXORDER];	/* the first entry */
	double		 first_value;	/* ... its value (0: none) */
	void		*kept;		/* the entries kept; library's */
};
/* The stage fills *out, which must outlive it. */
struct ts_stage *ts_stage_infer(int order, bool light, struct ts_inferred *);
/* S3, S7, S8 (and skew) of the entries kept, once read: their
 * coordinates less base, in a tensor of dimensions dims.  Frees what was
 * kept. */
void	 ts_infer_whole(struct ts_inferred *, uint64_t base,
	    const uint64_t *dims);
void	 ts_inferred_free(struct ts_inferred *);

/* ================================================================
 * Archives: bundles as the members of a tar archive (SPEC B5).
 * ================================================================ */

enum ts_member_type { TS_MEMBER_FILE, TS_MEMBER_DIR, TS_MEMBER_SYMLINK,
	TS_MEMBER_HARDLINK, TS_MEMBER_DEVICE, TS_MEMBER_FIFO,
	TS_MEMBER_OTHER, TS_MEMBER_SPARSE /* a regular file with holes */ };

/* A member, as its header says; the strings belong to the archive and
 * last until the next member. */
struct ts_member {
	const char	*name;		/* as stored */
	enum ts_member_type	 type;
	int64_t		 size;		/* of its data; -1: not said */
	int64_t		 mtime;
	unsigned	 mode;		/* permission bits */
	const char	*link;		/* a link's target; else NULL */
	uint64_t	 index;		/* 0-based place in the archive */
};

struct ts_archive;
/*
 * A tar archive (ustar, pax or GNU; compressed with zstd, gzip, xz,
 * bzip2, or not) read member by member: path, or standard input for "-"
 * (named "<stdin>").  NULL with errno.
 */
struct ts_archive *ts_archive_open(const char *path);
/* The next member: 1, 0 at the end, -1 (ts_archive_error says why). */
int	 ts_archive_next(struct ts_archive *, struct ts_member *);
/* The current member's data, once, as a source named ARCHIVE:MEMBER,
 * which reads nothing after the next ts_archive_next (close it before). */
struct ts_source *ts_archive_data(struct ts_archive *);
const char *ts_archive_error(const struct ts_archive *);
const char *ts_archive_name(const struct ts_archive *);
/* "zstd", "gzip", "xz", "bzip2" or "none", once a member is read. */
const char *ts_archive_compression(const struct ts_archive *);
/* Is it a regular file, which can be opened again? */
bool	 ts_archive_rereadable(const struct ts_archive *);
int	 ts_archive_close(struct ts_archive *);
/*
 * Once ts_archive_next has said 0 (the end): what the archive's manifest,
 * SHA256SUMS (tensorsuite(5) A1), says of the members, reported to d
 * once: a digest that differs, a bundle's file it does not list, a file
 * it lists that is not there, a bad line; without a manifest, a note
 * (an error after ts_archive_require_checksums(true)).  0, or -1 when
 * any of it is an error.  Before the end, nothing and 0.
 */
int	 ts_archive_verify(struct ts_archive *, struct ts_diags *);
/* Is an archive without a manifest an error for every reader of the
 * process, not a note?  Set once, before any archive is read. */
void	 ts_archive_require_checksums(bool);
/*
 * Is path an archive rather than a bundle or a data file: a name ending
 * in .tar, .tar.zst, .tzst, .tar.gz, .tgz, .tar.xz, .txz, .tar.bz2, or a
 * regular file (not NAME_metadata.json) or standard input ("-") that
 * starts with a tar header, compressed or not?  What the look at standard
 * input read is handed out again by the next source opened on it.
 */
bool	 ts_archive_is(const char *path);

enum ts_compress { TS_COMPRESS_ZSTD, TS_COMPRESS_GZIP, TS_COMPRESS_XZ,
	TS_COMPRESS_NONE };

/* How an archive is written. */
struct ts_pack_opts {
	enum ts_compress compress;
	int		 level;		/* the compressor's; -1: its default */
	int		 threads;	/* zstd workers (>= 1); the bytes
					 * written do not depend on it */
};
/* The compression a name asks for (.tar.zst or .tzst, .tar.gz or .tgz,
 * .tar.xz or .txz, .tar), or -1 when it is no such name. */
int	 ts_compress_of(const char *path);
/* The name a bundle in an archive of this name has: "x/t.tar.zst" is
 * "t", malloc'd. */
char	*ts_archive_stem(const char *path);

struct ts_archive_out;
/*
 * A tar archive being written to k, which it takes, reproducibly: the
 * same bundles give the same bytes whatever their files' times, owners
 * and modes, the locale or the time zone (pax, owner 0/0, modes 0644 and
 * 0755, times from the metadata; zstd, gzip and xz with fixed options).
 * NULL with errno (EINVAL: a level the compressor refuses).
 */
struct ts_archive_out *ts_archive_out_open(struct ts_sink *k,
	    const struct ts_pack_opts *);
/*
 * Add a bundle as NAME/ and its files NAME/FILE: the metadata first,
 * then the README, the text and binary data files, and the other files
 * by name (SPEC B5); each dated the metadata's 'time'.  0, or -1
 * (reported to d: a file that is not regular or changes while read, an
 * I/O error).  The archive is then unusable: abort it.
 */
int	 ts_archive_out_bundle(struct ts_archive_out *, struct ts_bundle *,
	    struct ts_diags *);
/*
 * Does ts_archive_out_bundle pack file fname of the bundle?  Its regular
 * files go in; a symbolic link (never followed), a folder, a hidden file,
 * a name with a control character (which every reader refuses) and
 * anything else are left out, each with a warning, and the bundle is
 * refused (an error) when its metadata names one of them.
 */
bool	 ts_archive_packs(struct ts_bundle *, const char *fname);
/* Finish the archive with its manifest, SHA256SUMS at its root (the
 * SHA-256 of every file, as sha256sum -c reads it), and commit its sink:
 * 0, or -1 with errno.  Both free the writer. */
int	 ts_archive_out_commit(struct ts_archive_out *);
void	 ts_archive_out_abort(struct ts_archive_out *);
/*
 * A bundle written into an archive of its own at path, compressed as
 * its name says: its files are kept in a temporary directory beside
 * path, and at commit the archive is written as ts_archive_out_bundle
 * writes it and renamed into place.  flags: TS_BUNDLE_OUT_FORCE.  The
 * bundle is named ts_archive_stem(path).  NULL with errno.
 */
struct ts_bundle_out *ts_bundle_out_archive(const char *path,
	    unsigned flags, const struct ts_pack_opts *);

struct ts_bundles;
/*
 * The bundles of an archive (path, "-" for standard input), one after
 * the other, as they come: a bundle's files are read straight from the
 * stream when its metadata comes first (SPEC B5); members that come
 * before they are wanted are kept, in memory or in a temporary directory
 * in tmpdir (NULL: $TMPDIR or /tmp), with a note.  Problems of the
 * archive itself (a member no bundle may hold, a broken stream) go to
 * d.  NULL when it cannot be opened (reported).
 */
struct ts_bundles *ts_bundles_open(const char *path, const char *tmpdir,
	    struct ts_diags *d);
/*
 * The next bundle, opened as ts_bundle_open opens one (its metadata read
 * and checked into bd_d), named ARCHIVE:NAME; NULL at the end (or when
 * the archive fails, reported to the d of ts_bundles_open).  Free the
 * bundle before the next call.  name (NULL: any) skips other bundles.
 */
struct ts_bundle *ts_bundles_next(struct ts_bundles *, const char *name,
	    struct ts_diags *bd_d);
/* Does another bundle follow the last one handed out?  Reads past what
 * is left of that one, which can then read no more of its files. */
bool	 ts_bundles_more(struct ts_bundles *);
/* Read the rest of the archive, as the last bundle handed out can then
 * read no more, so that its members are checked against its manifest
 * (ts_archive_verify): 0, or -1 when the archive itself had an error,
 * now or before (in the d of ts_bundles_open).  The end of
 * ts_bundles_next does the same. */
int	 ts_bundles_finish(struct ts_bundles *);
/*
 * Keep what the archive's manifest says of each bundle apart, so that a
 * program that reports bundle by bundle (ts-validate, ts-stat) puts a
 * bundle's integrity into the bundle's own report.  Called before the
 * first ts_bundles_next: the end of the archive then reports to the d of
 * ts_bundles_open only what is about no bundle handed out (a bad line of
 * the manifest, a file listed of no such bundle, no manifest at all),
 * and the rest waits for ts_bundles_verdict, which the program must ask
 * of every bundle handed out.
 */
void	 ts_bundles_split(struct ts_bundles *);
/*
 * Once the archive has ended (ts_bundles_next gave NULL, or
 * ts_bundles_finish was called), after ts_bundles_split: what the
 * manifest says of the files of bundle name (a digest that differs, a
 * file not listed, one listed and missing), reported to d: 0, or -1 when
 * one is an error.  0 and nothing before the end, or without the split.
 */
int	 ts_bundles_verdict(struct ts_bundles *, const char *name,
	    struct ts_diags *d);
/* Bundles handed out so far. */
size_t	 ts_bundles_count(const struct ts_bundles *);
void	 ts_bundles_close(struct ts_bundles *);

/*
 * Check every bundle of an archive without unpacking it, each in turn
 * as ts_check_bundle does, into d; and the archive itself (a member no
 * bundle may hold, no bundle at all, a broken stream).  Returns how many
 * bundles were checked.
 */
size_t	 ts_check_archive(const char *path, const struct ts_check_opts *,
	    struct ts_diags *d);

/* How an archive is unpacked. */
struct ts_unpack_opts {
	const char	*dir;		/* where to (NULL: ".") */
	bool		 force;		/* replace existing bundles */
	uint64_t	 max_size;	/* bytes of data in all (0: 8 GiB) */
	uint64_t	 max_members;	/* members (0: 100000) */
	const char	*tmpdir;	/* as for ts_bundles_open */
	/*
	 * Each bundle unpacked, in the temporary directory, its files
	 * named ARCHIVE:NAME/FILE, before any is put in place: 0, or -1
	 * when it refuses the bundle, reported to d, and nothing is
	 * unpacked.  NULL: none.  A function that calls ts_check_bundle
	 * does.
	 */
	int		(*check)(struct ts_bundle *, void *arg,
			    struct ts_diags *);
	void		*check_arg;
};
/*
 * Unpack the bundles of an archive into dir, safely: every member must
 * be one a bundle may hold (no absolute path, no '..', no link, device
 * or FIFO, nothing but NAME/ and NAME/FILE), none twice, within the
 * caps; the bundles are written into a temporary directory in dir,
 * checked, and renamed into place only when all are good; an existing
 * bundle is replaced only with force.  The names of the bundles
 * unpacked, in order, are added to *names (n of them; the caller frees
 * each and the array).  0, or -1 with the problem in d (a hostile
 * member named, status 1), and nothing left behind.
 */
int	 ts_unpack(const char *archive, const struct ts_unpack_opts *,
	    char ***names, size_t *n, struct ts_diags *d);

#ifdef __cplusplus
}
#endif

#endif
