/*
 * npz.h - what the two .npz formats share (npz_array.c reads,
 * npz_write.c writes), internal to libtensorsuite: scipy's and pydata/sparse's arrays (npz.c) and
 * binsparse's (bsp_npz.c) are .npy members of a zip file, read member
 * by member side by side, and written into the zip at the end (a
 * member's size comes first), each array until then placed in the
 * output's file or kept (struct ts_npz_place below).
 */
#ifndef TS_NPZ_H
#define TS_NPZ_H

#include "tensorsuite.h"
#include "format/format.h"
#include "format/npy.h"
#include "io/io.h"

/* One array read from its member: a header parsed, then items. */
struct ts_npz_in {
	struct ts_zip	*z;
	struct ts_npy	 a;
	char		*member;	/* "row.npy" */
	const char	*file;		/* the .npz, for messages */
	struct ts_diags	*d;
	uint64_t	 off;		/* of the next byte in the member */
	unsigned char	*buf;
	size_t		 cap;
	struct ts_npz_ahead *ra;	/* the member read ahead, or NULL */
	bool		 unchecked;	/* its CRC-32 another reader's */
};

/*
 * Open member of src and read its header, and skip the first skip
 * items (a row of a 2-D array); 0, or -1 reported (at the member's
 * byte offset: "FILE:+OFF: member 'row.npy': ...").  A reader opened
 * with skip (a row after the first) neither sums what it reads nor
 * reads on to the member's end: the CRC-32 is checked by the reader of
 * the first row, which reads the member to its end.
 */
int	 ts_npz_in_open(struct ts_npz_in *, struct ts_source *src,
	    const char *member, uint64_t skip, const char *file,
	    struct ts_diags *d);
void	 ts_npz_in_close(struct ts_npz_in *);
/*
 * The rest of in's member read by a second thread (its reads and the
 * CRC-32 libarchive checks) a few pieces ahead of what is taken, which
 * is then the same bytes and the same errors, said when their place is
 * reached.  Where no thread can be made, nothing changes.
 */
void	 ts_npz_in_ahead(struct ts_npz_in *);
/* An error about in at byte offset off of its member. */
void	 ts_npz_in_diag(const struct ts_npz_in *, uint64_t off,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The next n items as raw bytes in in->buf; 0, or -1 reported. */
int	 ts_npz_in_raw(struct ts_npz_in *, size_t n);
/*
 * The next n items as indices into c[i * stride] (an integer type:
 * each one at or past 0, below lim when lim is not 0), or as values
 * (into f or i, as is_int says; a bool array must hold True: the
 * tensor has no values).  0, or -1 reported at the item's offset.
 */
int	 ts_npz_in_index(struct ts_npz_in *, uint64_t *c, size_t stride,
	    size_t n);
int	 ts_npz_in_values(struct ts_npz_in *, double *f, int64_t *i,
	    bool is_int, size_t n);
/* The value type an array's items are read as; -1 when none (not
 * a number; TS_NPY_BOOL: no values, given as -2). */
int	 ts_npz_vtype(enum ts_npy_type);
/* Is t an integer type? */
bool	 ts_npz_is_int(enum ts_npy_type);
/* A small whole array (a shape, a format name, a descriptor): its
 * items' bytes, malloc'd (at most max bytes), or NULL reported. */
unsigned char *ts_npz_slurp(struct ts_source *src, const char *member,
	    struct ts_npy *a, size_t max, const char *file,
	    struct ts_diags *d);

/* The arrays of a tensor being read (npz.c), whichever layout. */
struct ts_npz_rd {
	struct ts_npz_in coord[TS_MAXORDER];	/* one a mode, or [0] */
	struct ts_npz_in data;
	int		 ncoord;	/* 1: coords interleaved (F order) */
	int		 perm[TS_MAXORDER];	/* coord[k] holds mode perm[k] */
	uint64_t	 nnz;
	uint64_t	 left;		/* entries still to read */
	bool		 iso;		/* every value is isof or isoi */
	double		 isof;
	int64_t		 isoi;
};
/* The values member: 1-D, nnz items of a type read; sets the layout's
 * values and type.  A coordinate array: integers, of ndim dimensions
 * (2: rows of nnz).  0, or -1 reported. */
int	 ts_npz_open_values(struct ts_decoder *, struct ts_npz_rd *,
	    const char *member, uint64_t nnz);
int	 ts_npz_check_coord(struct ts_npz_in *, int ndim, uint64_t rows,
	    uint64_t nnz);
/* The n values of b when they are all the same. */
void	 ts_npz_iso_fill(const struct ts_npz_rd *, struct ts_batch *,
	    size_t n);
/* bsp_npz.c: a binsparse tensor's descriptor and arrays, into r. */
int	 ts_bsp_npz_open(struct ts_decoder *, struct ts_npz_rd *r);

/*
 * The entries a writer was given, checked unique and in lexicographic
 * order of the modes perm[0], perm[1], ...: 0, or -1 reported (the
 * entry, its tuple, what is wrong) with errno EINVAL.
 */
struct ts_npz_order {
	uint64_t	 last[TS_MAXORDER];	/* the entry before */
	bool		 any;
};
int	 ts_npz_in_order(struct ts_npz_order *, const struct ts_encoder *,
	    const struct ts_batch *, const int *perm);

/*
 * Where the arrays of an .npz go until the zip is made at the end (a
 * member's size comes first).  Into a file (the output's own, ts_sink_fd)
 * with the count known, each array is placed in that file where the
 * zip will have it, written as it comes: the place is known to the byte
 * once the first member is begun (its data's start, then for each
 * member the bytes libarchive puts between two: ts_zip_gap), and the
 * zip's own writes of the array are then skipped (ts_zip_out_skip),
 * and its bytes are not read back: the second thread below sums them
 * as it writes them (the zip's CRC-32 of a member is made by
 * ts_zip_out, not libarchive, and put in place at the end), and
 * libarchive makes the headers and descriptors around.  Where the place
 * cannot be known so, the array goes a little further on (a gap a
 * member for the headers, TS_NPZ_GAP), and libarchive's writes trail the
 * reads that give it the array back.  The tensor is never held but in
 * the pages of the file it goes to, and the file is cut to the zip's
 * length at the end.  The first member's first array needs no place:
 * it is live, written into the zip as it comes.  A second thread
 * makes those writes while the next bytes are made (libarchive called
 * by one thread at a time).  Into anything else the arrays are kept
 * (io.h, struct ts_keep) within the encoder's budget, and none is live.
 */
#define TS_NPZ_GAP	((uint64_t)64 << 10)
struct ts_npz_place {
	int		 fd;		/* the output's file; -1: kept */
	uint64_t	 at;		/* past the last array placed */
	bool		 exact;		/* ... and that is where it ends */
	char		 prev[64];	/* the last member: its name, */
	uint64_t	 prev_size;	/* its bytes */
	uint64_t	 nnz;		/* the items an array holds at most */
	struct ts_keep_budget *keep;
	struct ts_sink	*sink;
	struct ts_pwriter *wk;		/* placed: the writes (io.h) */
	struct ts_zip_out *zo;		/* the zip, once begun */
};
/* Where enc's n arrays go; ts_npz_place_free after their spools are
 * closed (a zip begun and not finished is dropped: the caller aborts
 * the sink). */
void	 ts_npz_place_init(struct ts_npz_place *, struct ts_encoder *enc,
	    int n);
void	 ts_npz_place_free(struct ts_npz_place *);

/* An array being written: live, placed or kept. */
struct ts_npz_spool {
	struct ts_keep	*k;		/* kept; NULL when placed or live */
	struct ts_pwriter *wk;		/* placed or live: the writes */
	enum ts_npy_type type;
	uint64_t	 n;		/* items written */
	bool		 live;		/* into the zip as it comes */
	bool		 exact;		/* placed where the zip has it */
	uint64_t	 cap;		/* placed, live: items it has room for */
	uint64_t	 off0;		/* placed: of the first item */
	uint64_t	 done;		/* placed: bytes on their way */
	unsigned char	*buf;		/* placed, live: the bytes to come */
	size_t		 len;
	uint32_t	 crc;		/* placed: the CRC-32 of its bytes */
};
/*
 * An array of type t, where pl says; member: the name of the member it
 * begins (ndim and shape as ts_npz_put's), or NULL: it continues the
 * member of the array opened before it (the rows of a 2-D array).
 * Arrays are opened in the order of their members in the zip.
 * ts_npz_spool_live opens the first array of the first member, that
 * member begun at once (the count pl's) when the arrays are placed: 0,
 * or -1 with errno.
 */
void	 ts_npz_spool_open(struct ts_npz_spool *, enum ts_npy_type t,
	    struct ts_npz_place *pl, const char *member, int ndim,
	    const uint64_t *shape);
int	 ts_npz_spool_live(struct ts_npz_spool *, enum ts_npy_type t,
	    struct ts_npz_place *pl, const char *name, int ndim,
	    const uint64_t *shape);
/* n items from c[i * stride] (indices) or f / i (values): 0, or -1
 * with errno (EINVAL: a placed array past the count it was given). */
int	 ts_npz_spool_index(struct ts_npz_spool *, const uint64_t *c,
	    size_t stride, size_t n);
int	 ts_npz_spool_values(struct ts_npz_spool *, const double *f,
	    const int64_t *i, size_t n);
void	 ts_npz_spool_close(struct ts_npz_spool *);
/* The zip the members go to: the one begun, else a new one (NULL with
 * errno); pl's until ts_npz_zip_finish. */
struct ts_zip_out *ts_npz_zip(struct ts_npz_place *);
/* The zip finished (ts_zip_out_finish), and a file the arrays were
 * placed in cut to its length: 0, or -1 with errno. */
int	 ts_npz_zip_finish(struct ts_npz_place *);
/*
 * Into zo: member name, an array of ndim dimensions shape whose items
 * are the spools' v[0..nv-1] one after the other (a 2-D array of rows;
 * a live v[0] has begun it and is in it: only the others follow), or
 * the bytes at p (nv 0: p holds shape's items of type t).  0, or -1
 * with errno.
 */
int	 ts_npz_put(struct ts_zip_out *zo, const char *name,
	    enum ts_npy_type t, size_t itemsize, int ndim,
	    const uint64_t *shape, struct ts_npz_spool *v, int nv,
	    const void *p);

#endif
