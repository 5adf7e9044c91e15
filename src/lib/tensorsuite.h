/*
 * tensorsuite.h - the public interface of libtensorsuite.
 *
 * One flow: a source (bytes) feeds a reader (entries in batches), stages
 * consume batches, a writer turns batches back into bytes.  The metadata
 * model sits beside it.  Functions that allocate say who frees; functions
 * that can fail report through a struct ts_diags (see diag.c) and return
 * -1, or return NULL.
 */
#ifndef TENSORSUITE_H
#define TENSORSUITE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tsnum.h"

#define TS_VERSION	"0.1.0"
#define TS_FORMAT	"0.1"
#define TS_MAXORDER	64
#define TS_NAMEMAX	200

/* Exit statuses shared by every tool, worst wins. */
enum { TS_EXIT_OK = 0, TS_EXIT_DATA = 1, TS_EXIT_USAGE = 2, TS_EXIT_IO = 3 };

/* ---- xalloc.c: allocation that never returns NULL (dies on OOM) ---- */
void	*ts_xmalloc(size_t);
void	*ts_xcalloc(size_t, size_t);
void	*ts_xrealloc(void *, size_t);
void	*ts_xreallocarray(void *, size_t, size_t);
char	*ts_xstrdup(const char *);
char	*ts_xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
/* a*b and a+b with overflow detection: return false on overflow. */
bool	 ts_mul_u64(uint64_t, uint64_t, uint64_t *);
bool	 ts_add_u64(uint64_t, uint64_t, uint64_t *);

/* The program name used in messages; set once by each tool's main(). */
extern const char *ts_progname;
void	 ts_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 ts_warn(const char *, ...) __attribute__((format(printf, 1, 2)));

/*
 * progress.c: one progress line on standard error, shown only when it is
 * a terminal (TS_PROGRESS=always: whatever it is; never: not at all),
 * not when quiet, and only for work that has taken a second.
 * ts_progress reports done of total (bytes, or entries when !bytes; 0:
 * total unknown) of the work that fmt describes ("reading %s").  ts_warn, ts_warnx and the
 * diagnostics printers clear the line first; so must anything else that
 * writes to standard error while it may be there.
 */
void	 ts_progress_init(bool quiet);
void	 ts_progress(uint64_t done, uint64_t total, bool bytes,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void	 ts_progress_clear(void);

/* ---- cli.c: helpers of the tools' main() ---- */
/* The index of arg in the NULL-terminated list; else a usage message
 * naming opt and exit(TS_EXIT_USAGE). */
int	 ts_pick(const char *opt, const char *arg, const char *const *list);
/* A failed write to stdout is an error (jq's habit): flush and check;
 * returns status, or TS_EXIT_IO after a message. */
int	 ts_close_stdout(int status);
/* A list like "3,1,2": at most max integers in [lo, hi] into out.
 * Returns the count, or -1 when arg is not such a list. */
int	 ts_parse_list(const char *arg, uint64_t lo, uint64_t hi,
	    uint64_t *out, int max);

/* ---- diag.c: located diagnostics with rule ids ---- */
enum ts_sev { TS_NOTE, TS_WARNING, TS_ERROR };

struct ts_diag {
	enum ts_sev	 sev;
	char		*file;		/* as given by the caller; may be NULL */
	uint64_t	 line, col;	/* 1-based; 0 = unknown */
	int64_t		 offset;	/* byte offset (binary); -1 = none */
	char		 rule[4];	/* "S1", ... ; "" when no rule */
	char		*msg;
};

struct ts_diags {
	struct ts_diag	*v;
	size_t		 n, cap;
	size_t		 count[3];	/* by severity, suppressed ones too */
	size_t		 suppressed;
	size_t		 max_per_rule;	/* 0 = no limit */
	bool		 strict;	/* warnings are promoted to errors */
	int		 io_failed;	/* an I/O error happened (exit 3) */
	/* per (file, rule) counters for the cap */
	struct ts_rulecount *rc;
	size_t		 nrc, caprc;
};

void	 ts_diags_init(struct ts_diags *, size_t max_per_rule, bool strict);
void	 ts_diags_free(struct ts_diags *);
/* Record a diagnostic.  Returns false when it was suppressed by the cap. */
bool	 ts_diag(struct ts_diags *, enum ts_sev, const char *file,
	    uint64_t line, uint64_t col, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 7, 8)));
bool	 ts_diag_off(struct ts_diags *, enum ts_sev, const char *file,
	    int64_t offset, const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));
bool	 ts_vdiag(struct ts_diags *, enum ts_sev, const char *file,
	    uint64_t line, uint64_t col, int64_t offset, const char *rule,
	    const char *fmt, va_list);
/* Would a diagnostic for (file, rule) still be printed?  Lets hot loops
 * skip building messages nobody will see. */
bool	 ts_diag_wanted(struct ts_diags *, const char *file, const char *rule);
/* Record an I/O failure: an error diagnostic without a rule, exit 3. */
void	 ts_diag_io(struct ts_diags *, const char *file, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
size_t	 ts_diags_errors(const struct ts_diags *);
/* Print in the human form "file:line:col: error: message [S1]". */
void	 ts_diags_print(const struct ts_diags *, FILE *);
/* Print as a JSON array of objects (no trailing newline). */
void	 ts_diags_print_json(const struct ts_diags *, FILE *);
const char *ts_sev_name(enum ts_sev);

/* ---- meta.c: NAME_metadata.json ---- */
enum ts_vtype { TS_FLOAT32, TS_FLOAT64, TS_INT32, TS_INT64 };
enum ts_itype { TS_UINT32, TS_UINT64 };
enum ts_domain { TS_DOM_GENERAL, TS_DOM_NONNEGATIVE, TS_DOM_BINARY };
enum ts_sym { TS_SYM_NO, TS_SYM_PARTIAL, TS_SYM_FULL };
enum ts_sparsity { TS_SP_NO, TS_SP_SEMI, TS_SP_ELEMENT, TS_SP_BLOCK };
enum ts_endian { TS_END_NONE, TS_END_LITTLE, TS_END_BIG };

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
	void		*f_other;	/* json_t object, owned */
	void		*unknown;	/* json_t object of unknown keys, owned */
};

void	 ts_meta_init(struct ts_meta *);
void	 ts_meta_free(struct ts_meta *);
/*
 * Read and check metadata from path.  Every M rule is checked; problems go
 * to d with JSON line and column.  Returns 0 when the file could be parsed
 * as a JSON object (the fields in m->have are then usable), -1 when not.
 */
int	 ts_meta_read(struct ts_meta *, const char *path, struct ts_diags *);
int	 ts_meta_parse(struct ts_meta *, const char *text, size_t len,
	    const char *file, struct ts_diags *);
/* The canonical form (M2) as a malloc'd NUL-terminated string. */
char	*ts_meta_canonical(const struct ts_meta *);
const char *ts_vtype_name(enum ts_vtype);
const char *ts_itype_name(enum ts_itype);
size_t	 ts_vtype_size(enum ts_vtype);
size_t	 ts_itype_size(enum ts_itype);

/* ---- source.c: where bytes come from ---- */
struct ts_source {
	int		 fd;
	bool		 is_stdin, is_regular;
	uint64_t	 size;		/* regular files */
	uint64_t	 nread;		/* bytes ts_source_read gave */
	char		*name;		/* for messages: path or "<stdin>" */
	char		*peek;		/* bytes read ahead by ts_source_peek */
	size_t		 npeek, peekpos;
};
/* Open path ("-" = stdin).  Returns 0, or -1 with errno set. */
int	 ts_source_open(struct ts_source *, const char *path);
/* Read up to n bytes, retrying on EINTR; returns bytes read, 0 at EOF,
 * -1 on error with errno set. */
long	 ts_source_read(struct ts_source *, void *, size_t);
void	 ts_source_close(struct ts_source *);
/* A source on an open descriptor, which ts_source_close closes. */
int	 ts_source_open_fd(struct ts_source *, int fd, const char *name);
/* Look at up to n first bytes without consuming them (before any read);
 * returns how many there are, or -1 with errno. */
long	 ts_source_peek(struct ts_source *, const char **, size_t n);

/* ---- sink.c: where bytes go, whole or not at all ---- */
#include <sys/types.h>

struct ts_sink {
	int	 fd;
	bool	 is_stdout;
	char	*path;		/* the target; NULL for stdout */
	char	*tmp;		/* the temporary beside it, until commit */
	char	*name;		/* for messages: path or "<stdout>" */
};
/*
 * Open an output: "-" is standard output; otherwise a temporary file
 * beside path, renamed onto it by ts_sink_commit.  Without force an
 * existing path is refused (EEXIST).  Returns 0, or -1 with errno.
 */
int	 ts_sink_open(struct ts_sink *, const char *path, bool force);
int	 ts_sink_commit(struct ts_sink *);	/* close and rename */
void	 ts_sink_abort(struct ts_sink *);	/* remove the temporary */
void	 ts_sink_free(struct ts_sink *);
mode_t	 ts_umask(void);

/* A bundle directory built under a temporary name, renamed at the end. */
struct ts_bundle_out {
	char	*dir;		/* the target directory */
	char	*tmp;		/* the temporary directory, until commit */
};
int	 ts_bundle_out_open(struct ts_bundle_out *, const char *dir,
	    bool force);
/* Path of a file inside the temporary directory (malloc'd; caller
 * frees). */
char	*ts_bundle_out_path(const struct ts_bundle_out *, const char *file);
int	 ts_bundle_out_commit(struct ts_bundle_out *);
/* Rewriting in place: rename each file over its old self, the metadata
 * last; other files of the bundle stay. */
int	 ts_bundle_out_commit_files(struct ts_bundle_out *);
void	 ts_bundle_out_free(struct ts_bundle_out *);

/* ---- reader.c: data files, header and entries ---- */
/* TS_FROSTT: a headerless FROSTT .tns (order from the first row). */
enum ts_kind { TS_TEXT, TS_BINARY, TS_FROSTT };

struct ts_header {
	enum ts_kind	 kind;
	char		*version, *name;	/* owned */
	int		 order;
	uint64_t	 dims[TS_MAXORDER];
	uint64_t	 nnz;
	bool		 block;
	uint64_t	 parts[TS_MAXORDER];
	uint64_t	 nnz_block;
	uint64_t	*extents[TS_MAXORDER];	/* owned; parts[i] each */
	uint64_t	 bytes;		/* length of the header */
	uint64_t	 lines;		/* lines in the header */
};

/* What the reader must be told (from metadata, flags or a stream). */
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
 * A batch: the unit that flows between stages.  Coordinates are 0-based
 * (the reader subtracts the index base; a coordinate below the base wraps
 * around to a huge value, which the bounds check reports).  Values are in
 * fval (float types, float32 exactly widened) or ival (integer types).
 */
struct ts_batch {
	size_t		 n, cap;
	int		 order;
	bool		 has_values, is_int;
	uint64_t	*coords;	/* n * order */
	double		*fval;
	int64_t		*ival;
	uint64_t	*loc;		/* text: line; binary: byte offset */
	const char	**row;		/* text: start of the row; else NULL */
	/*
	 * Text input only: each value's bytes as written (vtext[i], vlen[i]
	 * bytes, not NUL-terminated), so text out can keep them exactly.
	 * Valid until the next read; vtext is NULL when not available.
	 * A writer copies them instead of formatting when keep_text is set.
	 */
	const char	**vtext;
	uint32_t	*vlen;
	bool		 keep_text;
	bool		 texts_only;	/* with keep_text: the caller reads
					 * texts, not fval/ival (unset) */
	uint64_t	 first;		/* index of the first entry in file */
};

void	 ts_batch_init(struct ts_batch *, int order, size_t cap);
void	 ts_batch_free(struct ts_batch *);

struct ts_reader;
/*
 * Open a reader on src and read the header, checking H1-H5 (and X1 for
 * the expected kind).  Returns NULL, with diagnostics in d, when the
 * header is unusable.  The reader owns neither src nor d.  Free with
 * ts_reader_close().
 */
struct ts_reader *ts_reader_open(struct ts_source *, const struct ts_layout *,
	    struct ts_diags *);
const struct ts_header *ts_reader_header(const struct ts_reader *);
/* The layout in force (values inferred from the first text row). */
const struct ts_layout *ts_reader_layout(const struct ts_reader *);
/*
 * Fill b with the next entries.  Returns the number of entries (0 at the
 * end of the data), or -1 on an I/O error.  Malformed rows are reported
 * to d and skipped; ts_reader_rows() counts them too (for X7).
 */
long	 ts_reader_next(struct ts_reader *, struct ts_batch *);
uint64_t ts_reader_rows(const struct ts_reader *);
/* The file offset just past what the batches so far were read from. */
uint64_t ts_reader_offset(const struct ts_reader *);
/* Column of field k (0-based: coordinates, then the value) of entry i of
 * the last batch; 0 when unknown. */
uint64_t ts_reader_col(const struct ts_reader *, const struct ts_batch *,
	    size_t i, int k);
void	 ts_reader_close(struct ts_reader *);
void	 ts_header_free(struct ts_header *);

/* ---- writer.c: entries to bytes ---- */
enum { TS_FMT_SHORTEST = 0, TS_FMT_E16 = 1 };
struct ts_writer;
/* Writes the header for h with layout l to fd; fmt is TS_FMT_*. */
struct ts_writer *ts_writer_open(int fd, const char *name,
	    const struct ts_header *, const struct ts_layout *, int fmt);
/* Append the entries of b; returns 0, or -1 with errno on write error. */
int	 ts_writer_put(struct ts_writer *, const struct ts_batch *);
/* Flush and free; returns 0, or -1 with errno on error. */
int	 ts_writer_close(struct ts_writer *);

/* ---- mtx.c: Matrix Market (coordinate and array) ---- */
enum ts_mtx_field { TS_MTX_REAL, TS_MTX_INTEGER, TS_MTX_PATTERN,
	TS_MTX_COMPLEX };
enum ts_mtx_sym { TS_MTX_GENERAL, TS_MTX_SYMMETRIC, TS_MTX_SKEW,
	TS_MTX_HERMITIAN };

struct ts_mtx_info {
	bool		 coordinate;	/* false: array */
	enum ts_mtx_field field;
	enum ts_mtx_sym	 sym;
	uint64_t	 rows, cols;
	uint64_t	 stored;	/* entries in the file (size line) */
	uint64_t	 header_lines;	/* banner, comments, size line */
};

struct ts_mtx_reader;
/*
 * Open a Matrix Market stream and read its banner and size line.
 * Complex and hermitian matrices are refused with a clear message (the
 * format has no complex type), as is anything malformed; problems go to
 * d with line and column, rule "" (these are not TensorSuite rules).
 * Returns NULL on failure.  The reader owns neither src nor d.
 */
struct ts_mtx_reader *ts_mtx_open(struct ts_source *, struct ts_diags *);
const struct ts_mtx_info *ts_mtx_info(const struct ts_mtx_reader *);
/*
 * Next entries as 0-based (row, col) in b (order 2).  Values: real ->
 * fval (exact, as strtod), integer -> ival (int64, range-checked),
 * pattern -> none (b->has_values false).  Symmetric and skew-symmetric
 * files are expanded: each off-diagonal entry is followed by its mirror
 * (negated for skew); an array file yields every stored position
 * (column-major, as written; symmetric arrays store the lower triangle).
 * Returns the number of entries, 0 at the end, -1 on error (reported).
 * Checks indices against the size line and the entry count.
 */
long	 ts_mtx_next(struct ts_mtx_reader *, struct ts_batch *);
void	 ts_mtx_close(struct ts_mtx_reader *);

struct ts_mtx_writer;
/*
 * Write a "%%MatrixMarket matrix coordinate FIELD general" file to fd:
 * field is real (float values), integer (int values) or pattern (no
 * values).  comment (may be NULL) is written as '%' lines after the
 * banner.  Values are written as the shortest round-trip text.
 */
struct ts_mtx_writer *ts_mtx_writer_open(int fd, uint64_t rows,
	    uint64_t cols, uint64_t nnz, enum ts_mtx_field field,
	    const char *comment);
int	 ts_mtx_writer_put(struct ts_mtx_writer *, const struct ts_batch *);
int	 ts_mtx_writer_close(struct ts_mtx_writer *);

/* ---- sorter.c: sorting entries, in memory or spilled and merged ---- */
enum ts_dups { TS_DUP_KEEP, TS_DUP_SUM, TS_DUP_FIRST, TS_DUP_LAST,
	TS_DUP_ERROR };

struct ts_sort_opts {
	int		 order;
	int		 prio[TS_MAXORDER];	/* 0-based modes, most
						 * significant first */
	bool		 has_values, is_int;
	bool		 is_float32;	/* float values are float32 */
	/*
	 * Carry b->vtext through the sort.  Each value must then be what
	 * its text parses to (as the reader parses it, by the value type):
	 * the sorter may keep the text alone and parse it again.
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
	enum ts_dups	 dups;
};

struct ts_sorter;
struct ts_sorter *ts_sorter_new(const struct ts_sort_opts *);
/* Change opts.expect, before the first ts_sorter_add. */
void	 ts_sorter_expect(struct ts_sorter *, uint64_t);
/* Add the entries of b (copied).  Returns 0, or -1 with errno (I/O). */
int	 ts_sorter_add(struct ts_sorter *, const struct ts_batch *);
/*
 * No more input: sort, merge runs, apply the duplicates policy.  Returns
 * 0; -1 with errno on an I/O error; -2 when dups is TS_DUP_ERROR and a
 * tuple repeats (ts_sorter_dup() then gives it, 0-based).
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

/* ---- cutensor.c: cuTENSOR's block-sparse descriptor (SPEC K4) ---- */
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
 * block header and the blocks' 0-based coordinates (as batches carry
 * them).  Returns 0, or -1 with a message in err when cuTENSOR cannot take
 * the tensor (not block-sparse, order > 8, more than 2^31 - 1 sections, a
 * coordinate beyond int32).  Free with ts_cutensor_free.
 */
int	 ts_cutensor_fill(struct ts_cutensor *, const struct ts_header *,
	    const uint64_t *coords, uint64_t nblocks, char *err,
	    size_t errlen);
void	 ts_cutensor_free(struct ts_cutensor *);
/* The JSON form ts-convert --to cutensor writes; 0, or -1 on error. */
int	 ts_cutensor_write_json(const struct ts_cutensor *, FILE *);

/* ---- pipeline.c: the flow of ts-convert and ts-sort ---- */
enum ts_pkind { TS_PK_AUTO, TS_PK_BUNDLE, TS_PK_TNS, TS_PK_TNSB,
	TS_PK_FROSTT, TS_PK_MTX, TS_PK_CUTENSOR };

struct ts_pipe_opts {
	const char	*src, *dst, *meta;
	enum ts_pkind	 from, to;
	bool		 force, quiet, e16, no_values;
	bool		 want_text, want_binary;
	int		 in_base, in_itype, in_vtype, in_endian;	/* -1 */
	int		 out_base, out_itype, out_vtype, out_endian;	/* -1 */
	uint64_t	 dims[TS_MAXORDER];
	int		 ndims;
	const char	*name, *group, *id, *time, *source, *source_url;
	const char	*source_type;
	/* sorting (ts-sort) */
	bool		 sort;
	bool		 inplace;	/* dst is src's bundle: keep README */
	int		 prio[TS_MAXORDER];	/* 0-based; nprio 0: from the
						 * metadata, else 1..N */
	int		 nprio;
	enum ts_dups	 dups;
	size_t		 mem_limit;
	const char	*tmpdir;
	int		 threads;
	/* the command line, for the README of a new bundle */
	int		 argc;
	char		**argv;
};
/* Initialize with no changes asked (-1 everywhere). */
void	 ts_pipe_opts_init(struct ts_pipe_opts *);
/*
 * The options that describe an input, shared by ts-convert and ts-sort:
 * a tool gives them the getopt value TS_OPT_INPUT and passes the long
 * name here: --input-base, --input-endian, --input-index-type,
 * --input-value-type, --meta, --no-values.  A bad value is a usage
 * error (exit 2).
 */
#define TS_OPT_INPUT	0x1000
void	 ts_pipe_input_opt(struct ts_pipe_opts *, const char *name,
	    const char *arg);
/* Run: read src, write dst; returns the exit status (TS_EXIT_*). */
int	 ts_pipe_run(const struct ts_pipe_opts *);

/* ---- bundle.c: a bundle on disk ---- */
struct ts_bundle {
	char		*dir;		/* the bundle directory */
	char		*name;		/* from the directory name */
	char		*meta_path;
	char		*text_path, *binary_path;	/* NULL when absent */
	struct ts_meta	 meta;
	bool		 meta_ok;	/* metadata parsed as an object */
};
/* Locate the bundle at path (directory or metadata file) and read its
 * metadata, checking B1-B3 and M*.  Returns -1 when nothing can be checked
 * further (no metadata, unreadable). */
int	 ts_bundle_open(struct ts_bundle *, const char *path, struct ts_diags *);
void	 ts_bundle_free(struct ts_bundle *);

/* ---- check.c: validation stages ---- */
struct ts_check_opts {
	bool		 quick;		/* headers only */
};
/* Check a bundle's data files against its metadata (H, E, K, X, S). */
void	 ts_check_bundle(struct ts_bundle *, const struct ts_check_opts *,
	    struct ts_diags *);

/* Entries kept whole, for what only the whole tensor can tell. */
struct ts_tuples {
	int	 order;
	uint64_t *tup;		/* n * order, 0-based */
	double	*fv;		/* or NULL */
	int64_t	*iv;		/* or NULL */
	size_t	 n, cap;
};
struct ts_inferred {
	bool		 dups;		/* some tuple repeats */
	enum ts_sym	 psym, nsym;	/* the strongest that holds */
};
/* What the entries are (S3, S7, S8), for metadata inferred on import. */
void	 ts_infer_tuples(const struct ts_tuples *, const uint64_t *dims,
	    struct ts_inferred *);

#endif
