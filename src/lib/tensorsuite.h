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
	char		*name;		/* for messages: path or "<stdin>" */
};
/* Open path ("-" = stdin).  Returns 0, or -1 with errno set. */
int	 ts_source_open(struct ts_source *, const char *path);
/* Read up to n bytes, retrying on EINTR; returns bytes read, 0 at EOF,
 * -1 on error with errno set. */
long	 ts_source_read(struct ts_source *, void *, size_t);
void	 ts_source_close(struct ts_source *);

/* ---- reader.c: data files, header and entries ---- */
enum ts_kind { TS_TEXT, TS_BINARY };

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

#endif
