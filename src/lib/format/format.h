/*
 * format.h - the decoder and encoder tables, internal to libtensorsuite
 * (not installed).  Each format (TensorSuite text and binary, FROSTT,
 * Matrix Market, cuTENSOR) registers one table of functions, the way
 * libarchive registers its format readers and mandoc its output devices;
 * decoder.c and encoder.c pick the table by kind, so that nothing above
 * this folder branches on a format.
 */
#ifndef TS_FORMAT_H
#define TS_FORMAT_H

#include <pthread.h>

#include "tensorsuite.h"
#include "io/io.h"
#include "format/lines.h"

struct ts_decoder;
struct ts_encoder;

typedef void ts_local_fn(void *arg, int thread, struct ts_batch *);

struct ts_decoder_ops {
	const char	*name;
	/* Read the header into dec->h (the layout may be completed, as
	 * text tells whether rows hold values); 0, or -1 reported. */
	int	(*open)(struct ts_decoder *);
	/* Fill b (already emptied) with the next entries; see
	 * ts_decoder_next. */
	long	(*next)(struct ts_decoder *, struct ts_batch *);
	/* Free dec->state. */
	void	(*close)(struct ts_decoder *);
};

struct ts_decoder {
	const struct ts_decoder_ops *ops;
	struct ts_source	*src;
	struct ts_diags		*d;
	const char		*file;	/* the source's name */
	struct ts_layout	 lay;
	struct ts_header	 h;
	/* The attributes the file keeps (binsparse's beside its
	 * descriptor), owned; NULL when it keeps none. */
	struct ts_meta		*meta;
	uint64_t		 rows;	/* rows (records) seen, for X7 */
	uint64_t		 off;	/* offset just past what was used */
	int			 threads;	/* for parsing text */
	bool			 classes;	/* ts_decoder_value_classes */
	bool			 unchecked;	/* S1 left to the reader */
	void			*state;
	/* What the threads parsing text run on each batch they parse
	 * (ts_decoder_set_local); they hold the lock while they do. */
	ts_local_fn		*local;
	void			*local_arg;
	pthread_rwlock_t	 local_lock;
};

/*
 * A decoder whose entries come from no source, given by ops (a
 * generator's): ops->open fills dec->h from state, which the decoder
 * takes (ops->close frees it), and next makes the entries.  It is named
 * name in messages.  Having no source, it counts its progress in
 * entries: dec->off is how many it gave, of dec->h.nnz (dec->h.nnz_block
 * for blocks).  NULL, with the problem in d, when open fails.
 */
struct ts_decoder *ts_decoder_new(const struct ts_decoder_ops *ops,
	    void *state, const char *name, const struct ts_layout *lay,
	    struct ts_diags *d);

/*
 * Have the threads that parse dec's text (if it comes to that) call
 * fn(arg, thread, b) on each batch b they parse, before it is handed
 * on, thread from 0 to dec->threads - 1, and mark b local; or no
 * longer (fn NULL): when this returns, no thread runs the old one.
 */
void	 ts_decoder_set_local(struct ts_decoder *, ts_local_fn *fn,
	    void *arg);

struct ts_outbuf;

struct ts_encoder_ops {
	const char	*name;
	/* Write the header (if any); 0, or -1 (reported, or errno). */
	int	(*open)(struct ts_encoder *);
	int	(*put)(struct ts_encoder *, const struct ts_batch *);
	/* Write what is left (nothing when enc->aborted) and free
	 * enc->state; 0, or -1. */
	int	(*close)(struct ts_encoder *);
	/* The text encoders: format the entries of b at the end of o,
	 * reading nothing of enc that put changes (threads call it, on
	 * chunks of the entries; print_par.c). */
	void	(*rows)(const struct ts_encoder *, const struct ts_batch *,
		    struct ts_outbuf *);
};

struct ts_printer;

struct ts_encoder {
	const struct ts_encoder_ops *ops;
	struct ts_sink		*sink;
	struct ts_diags		*d;
	struct ts_header	 h;	/* extents borrowed from the caller */
	struct ts_layout	 lay;
	struct ts_encode_opts	 o;
	struct ts_outbuf	*out;	/* the text and binary encoders' */
	uint64_t		 n;	/* entries put */
	bool			 aborted;	/* close writes nothing more */
	int			 threads;	/* that may format rows */
	size_t			 pchunk;	/* entries they take at once */
	struct ts_printer	*pr;	/* those threads, once started */
	/* The memory of the arrays a format keeps to its end (io.h:
	 * struct ts_keep), from o; a failure of its temporary file is
	 * reported by ts_encoder_put and ts_encoder_close. */
	struct ts_keep_budget	 keep;
	void			*state;
};

/* Threads that format a text encoder's rows (1: the caller's alone);
 * the default is the CPUs the process may use, up to 4. */
void	 ts_encoder_set_threads(struct ts_encoder *, int n);

/*
 * print_par.c: a text encoder's put hands its (checked) batch here:
 * formatted by ops->rows into enc->out, or copied in chunks that
 * threads format and write to the sink in order.  ts_print_finish
 * formats and writes what is left (after an abort too, as the encoder's
 * buffer is written) and stops the threads; 0, or -1 with errno.
 */
int	 ts_print(struct ts_encoder *, const struct ts_batch *);
int	 ts_print_finish(struct ts_encoder *);
/* The entries of a chunk: TS_PRINT_CHUNK (for tests that cut small
 * files into many), else a default. */
size_t	 ts_print_chunk(void);

extern const struct ts_decoder_ops ts_tns_decoder, ts_tnsb_decoder,
	    ts_frostt_decoder, ts_mtx_decoder, ts_npz_decoder,
	    ts_bsp_h5_decoder, ts_splatt_decoder, ts_frostt_bin_decoder,
	    ts_hiparti_decoder;
extern const struct ts_encoder_ops ts_tns_encoder, ts_tnsb_encoder,
	    ts_frostt_encoder, ts_mtx_encoder, ts_cutensor_encoder,
	    ts_npz_encoder, ts_bsp_npz_encoder, ts_bsp_h5_encoder,
	    ts_splatt_encoder, ts_frostt_bin_encoder, ts_hiparti_encoder;

/* The attributes dec's file keeps (dec->meta), or NULL. */
const struct ts_meta *ts_decoder_meta(const struct ts_decoder *);

/*
 * columns.c: files of one array per mode and one of values, nnz fields
 * each, after a header, little-endian (SPLATT's and FROSTT's binaries).
 * A format's decoder opens with ts_cols_reader (a stream is copied to a
 * temporary file first), reads its header with ts_cols_read (exactly n
 * bytes at off, or -1 reported: a file that ends inside is X8), fills
 * dec->h (order, dims, nnz, base) and hands the rest to ts_cols_start,
 * which checks the file's size against it and sets the layout;
 * ts_cols_next and ts_cols_close are its next and close.  Its encoder's
 * open, put and close are ts_cols_enc_open with its struct ts_cols_fmt,
 * ts_cols_put and ts_cols_enc_close, which writes the header (fmt's
 * header, given the widths) and the arrays at the end.
 */
struct ts_colfile {
	uint64_t	 hdr;		/* bytes before the arrays */
	unsigned	 iw, vw;	/* bytes of an index, of a value */
	bool		 values_first;	/* the values' array, then the modes' */
};
struct ts_cols_fmt {
	bool		 values_first;
	/* Bytes of an index, 4 or 8, for the tensor h describes. */
	unsigned	(*iwidth)(const struct ts_header *h);
	/* The header, at enc->out, for widths iw and vw and enc->n
	 * entries. */
	void		(*header)(struct ts_encoder *, unsigned iw, unsigned vw);
};
int	 ts_cols_reader(struct ts_decoder *);
uint64_t ts_cols_size(const struct ts_decoder *);
int	 ts_cols_read(struct ts_decoder *, void *buf, size_t n, uint64_t off);
int	 ts_cols_start(struct ts_decoder *, const struct ts_colfile *);
long	 ts_cols_next(struct ts_decoder *, struct ts_batch *);
void	 ts_cols_close(struct ts_decoder *);
int	 ts_cols_enc_open(struct ts_encoder *, const struct ts_cols_fmt *);
int	 ts_cols_put(struct ts_encoder *, const struct ts_batch *);
int	 ts_cols_enc_close(struct ts_encoder *);
/* An unsigned integer of w bytes, little-endian: read at p; written at
 * the end of o. */
uint64_t ts_cols_le(const unsigned char *p, unsigned w);
void	 ts_cols_put_le(struct ts_outbuf *o, uint64_t v, unsigned w);

/*
 * outbuf.c: output assembled in large buffers, handed to a second thread
 * that writes them to a sink while the next one fills (on these machines
 * putting pages into the page cache costs about as much as encoding
 * them).  ts_outbuf_need makes room for n contiguous bytes at
 * ts_outbuf_ptr; ts_outbuf_done says how many were used.  The fast
 * paths are inline: encoders call them for every entry.
 */
struct ts_outbuf {
	char		*buf;
	size_t		 len, cap;
	struct ts_outbuf_thread *th;	/* the writing side (outbuf.c) */
};

struct ts_outbuf *ts_outbuf_new(struct ts_sink *);
/* A buffer in memory only, of cap bytes at first, that grows. */
void	 ts_outbuf_mem_init(struct ts_outbuf *, size_t cap);
void	 ts_outbuf_mem_free(struct ts_outbuf *);
/* Write out what is buffered and wait until it is written; 0, or -1
 * with errno (the first write error). */
int	 ts_outbuf_sync(struct ts_outbuf *);
/* Hand the buffer over; make room for n (a huge token grows it). */
int	 ts_outbuf_flush(struct ts_outbuf *, size_t n);
void	 ts_outbuf_puts(struct ts_outbuf *, const char *);
void	 ts_outbuf_putu(struct ts_outbuf *, uint64_t, char sep);
void	 ts_outbuf_write(struct ts_outbuf *, const void *, size_t);
/* The first write error (an errno value), 0 when none. */
int	 ts_outbuf_error(const struct ts_outbuf *);
/* Write everything and free; 0, or -1 with errno. */
int	 ts_outbuf_close(struct ts_outbuf *);

static inline int
ts_outbuf_need(struct ts_outbuf *o, size_t n)
{
	return o->len + n > o->cap ? ts_outbuf_flush(o, n) : 0;
}

static inline char *
ts_outbuf_ptr(struct ts_outbuf *o)
{
	return o->buf + o->len;
}

static inline void
ts_outbuf_done(struct ts_outbuf *o, size_t n)
{
	o->len += n;
}

/* Warnings said once a file.  A part of a file parsed on its own
 * (defer) notes the first line of each instead, for the decoder to say
 * in file order. */
struct ts_warned {
	bool		 crlf, blank, comment;
	bool		 defer;
	uint64_t	 crlf_line, blank_line, comment_line;
};

/* Where text rows are parsed: a decoder's, or a part of its file. */
struct ts_rowctx {
	struct ts_diags	*d;
	const char	*file;
	struct ts_layout *lay;		/* values decided at the first row */
	uint64_t	 line;		/* of the row being parsed */
	uint64_t	 rows;		/* rows seen */
	struct ts_warned *w;
	int		 scan;		/* TS_SCAN_*: how rows are found */
	bool		 classes;	/* ts_decoder_value_classes */
};

/* scan.c: how the rows of text are found: byte at a time (the reference,
 * tns_text.c), or the common rows by masks of 64 bytes made with words,
 * SSE2 or AVX2. */
enum { TS_SCAN_SCALAR, TS_SCAN_SWAR, TS_SCAN_SSE2, TS_SCAN_AVX2 };
/* The best this CPU has, or the one TS_SCAN names (for tests). */
int	 ts_scan_kind(void);

struct ts_par;

/* The state of the TensorSuite and FROSTT decoders. */
struct ts_tns_state {
	struct ts_lines	 L;
	struct ts_warned w;
	struct ts_par	*par;		/* rows parsed by threads, or NULL */
	bool		 par_tried;
	int		 scan;		/* TS_SCAN_*, for the rows */
	size_t		 recsz;		/* binary: bytes of a record */
	bool		 swap;		/* binary: not in host order */
};

/* decoder.c: a comment line of the header, s[0..len) without its line
 * end, kept in h->comments while they are under TS_COMMENTS_MAX. */
void	 ts_header_comment(struct ts_header *h, const char *s, size_t len);
/* tns_header.c: the TensorSuite header, shared by text and binary. */
int	 ts_tns_read_header(struct ts_decoder *);
void	 ts_tns_write_header(struct ts_encoder *);
void	 ts_tns_crlf_warn(struct ts_decoder *, enum ts_rule rule);
void	 ts_warn_crlf(struct ts_diags *, const char *file, uint64_t line,
	    struct ts_warned *, enum ts_rule rule);
struct ts_tns_state *ts_tns_state_new(struct ts_decoder *, size_t bufsz);
void	 ts_tns_close(struct ts_decoder *);
/* tns_text.c: rows of TensorSuite text and FROSTT. */
long	 ts_text_next(struct ts_decoder *, struct ts_batch *);
/* parallel.c: text rows parsed by threads, in chunks split at line
 * ends, handed out in file order. */
struct ts_par *ts_par_start(struct ts_decoder *, uint64_t off, uint64_t line,
	    int workers, size_t batch_cap);
long	 ts_par_next(struct ts_par *, struct ts_decoder *, struct ts_batch *);
void	 ts_par_free(struct ts_par *);
/* The bytes of a chunk; a file of fewer than 8 is read by one thread. */
uint64_t ts_par_chunk(void);

/* Parse the row at p (a whole line, '\n' at its end, before end) into
 * b when it is good; returns the next line. */
const char *ts_text_row(struct ts_rowctx *, struct ts_batch *, const char *p,
	    const char *end);
/* The rows from p (whole lines before end) into b, until it is full or
 * p reaches end, the way x->scan says; returns where it stopped.  The
 * entries and messages are ts_text_row's (scan.c). */
const char *ts_text_scan(struct ts_rowctx *, struct ts_batch *,
	    const char *p, const char *end);
int	 ts_text_countfields(const char *);
/* A header line's unsigned integers, len bytes at s, into v (room for
 * TS_MAXORDER + 2): their count, or -1 when some field is not one (or
 * there are too many). */
int	 ts_text_numbers(const char *s, size_t len, uint64_t *v);
int	 ts_text_put(struct ts_encoder *, const struct ts_batch *);
void	 ts_text_rows(const struct ts_encoder *, const struct ts_batch *,
	    struct ts_outbuf *);

static inline bool
ts_host_little(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

/* The arrays as JSON, the form of a cuTENSOR output file, malloc'd. */
char	*ts_cutensor_json(const struct ts_cutensor *);

/*
 * Report a problem with field k (the coordinates, then the value) of
 * entry i of b: at its line and column, or at its byte offset.  When
 * the cap would hide it, it is only counted, unformatted (located.c).
 */
void	 ts_batch_diag(struct ts_diags *, const struct ts_batch *, size_t i,
	    int k, enum ts_sev, enum ts_rule rule, const char *fmt, ...)
	    __attribute__((format(printf, 7, 8)));
/* A coordinate tuple as text "(3, 1, 4)", in index base base; long
 * ones end in ", ...)".  Returns buf. */
char	*ts_tuple_str(char *buf, size_t n, const uint64_t *t, int order,
	    int base);

/* A kind's decoder and encoder, from the formats' table (formats.c);
 * NULL when it is not read, or not written. */
const struct ts_decoder_ops *ts_format_decoder(enum ts_kind);
const struct ts_encoder_ops *ts_format_encoder(enum ts_kind);

/*
 * S2 for a writer whose format holds entries unique and sorted
 * (inorder.c): the index of the first of the n tuples of order order at
 * c that is not strictly after the one before it (the first: after
 * last, unless last is NULL) in the order of the modes perm[0],
 * perm[1], ...; n when every one is.
 */
size_t	 ts_coords_unordered(const uint64_t *c, size_t n,
	    const uint64_t *last, const int *perm, int order);

/*
 * S1 (inrange.c): is some coordinate of the n tuples of order order at c
 * not below lim (the dimensions, or a block tensor's sections)?  And the
 * message for coordinate k of entry i of b, in index base base.
 */
bool	 ts_coords_out(const uint64_t *c, size_t n, const uint64_t *lim,
	    int order);
void	 ts_bounds_report(struct ts_diags *, const struct ts_batch *,
	    size_t i, int k, const uint64_t *lim, int base, bool block);

#endif
