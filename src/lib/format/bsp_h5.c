/*
 * bsp_h5.c - binsparse 0.1 in HDF5 (.bsp.h5), through libhdf5, laid out
 * as binsparse's C reference lays it out: the descriptor (binsparse.c)
 * as the variable-length UTF-8 string attribute "binsparse" of the root
 * group (a fixed-length one, as older files have, is read too), and a
 * one-dimensional dataset an array: indices_0 ... indices_{N-1}, values
 * (one value when they are iso).  Level k holds the tensor's mode
 * perm[k], so entries sorted in another order of the modes are written
 * as they come, transposed.
 *
 * Bounded memory both ways: the datasets are written a chunk of CHUNK
 * entries at a time, as many as the chunks they are made of, and read
 * back by hyperslabs of as many.  libhdf5 opens files by name: a sink
 * that is no plain file (standard output, a compressed file) gets a
 * temporary file first, copied to it at the end, and a source that is
 * none (a pipe, a decompressed stream) is copied to one first, unlinked
 * at once.  libhdf5 prints nothing (H5Eset_auto): what it refuses
 * becomes a message naming the file and the dataset or attribute.
 * libhdf5 is loaded when a file is first opened (h5lib.h); without it,
 * that file is an I/O error that says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "tensorsuite.h"
#include "format/binsparse.h"
#include "format/format.h"
#include "format/h5lib.h"
#include "io/io.h"
#include "model/model.h"
#include "util/path.h"
#include "util/xalloc.h"

/* Entries of a chunk of every dataset, of a hyperslab read: 1 MiB of
 * uint64 indices, the chunk the C reference chooses. */
#define CHUNK	((size_t)1 << 17)
/* Entries read at a time: a quarter of a chunk, so that the buffers
 * that hold them (each page a fault the first time) stay small. */
#define RBLOCK	((size_t)1 << 15)
/* The largest descriptor read (the metadata's own limit). */
#define DESC_MAX	TS_META_MAX

/* libhdf5 silenced on this thread (it prints its errors' stacks). */
static void
h5_quiet(void)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* libhdf5 loaded and silenced: 0, or -1 and the message on file. */
static int
h5_start(struct ts_diags *d, const char *file)
{
	const char *why;

	if ((why = ts_h5_load()) != NULL) {
		ts_diag_io(d, file, "binsparse in HDF5 needs libhdf5 (%s), "
		    "which cannot be loaded: %s", ts_h5_soname, why);
		errno = ELIBACC;
		return -1;
	}
	h5_quiet();
	return 0;
}

/* The HDF5 types of an array's elements: in the file (little-endian,
 * as the reference writes them) and in memory. */
static hid_t
file_type(enum ts_npy_type t)
{
	switch (t) {
	case TS_NPY_UINT32:	return H5T_STD_U32LE;
	case TS_NPY_UINT64:	return H5T_STD_U64LE;
	case TS_NPY_INT32:	return H5T_STD_I32LE;
	case TS_NPY_INT64:	return H5T_STD_I64LE;
	case TS_NPY_FLOAT32:	return H5T_IEEE_F32LE;
	default:		return H5T_IEEE_F64LE;
	}
}

static hid_t
mem_type(enum ts_npy_type t)
{
	switch (t) {
	case TS_NPY_UINT32:	return H5T_NATIVE_UINT32;
	case TS_NPY_UINT64:	return H5T_NATIVE_UINT64;
	case TS_NPY_INT32:	return H5T_NATIVE_INT32;
	case TS_NPY_INT64:	return H5T_NATIVE_INT64;
	case TS_NPY_FLOAT32:	return H5T_NATIVE_FLOAT;
	default:		return H5T_NATIVE_DOUBLE;
	}
}

static void
close_sets(hid_t *set, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (set[k] >= 0) {
			H5Dclose(set[k]);
			set[k] = -1;
		}
}

/* Move n elements of set between memory and the file, from element
 * off; 0, or -1. */
static int
slab(hid_t set, hid_t mtype, uint64_t off, size_t n, void *buf, bool wr)
{
	hsize_t start = off, count = n;
	hid_t fs, ms;
	herr_t r = -1;

	if (n == 0)
		return 0;
	if ((fs = H5Dget_space(set)) < 0)
		return -1;
	ms = H5Screate_simple(1, &count, NULL);
	if (ms >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL,
	    &count, NULL) >= 0)
		r = wr ? H5Dwrite(set, mtype, ms, fs, H5P_DEFAULT, buf) :
		    H5Dread(set, mtype, ms, fs, H5P_DEFAULT, buf);
	if (ms >= 0)
		H5Sclose(ms);
	H5Sclose(fs);
	return r < 0 ? -1 : 0;
}

/* ================================================================
 * Writing.
 * ================================================================ */

struct h5w {
	hid_t		 file;
	hid_t		 set[TS_MAXORDER + 1];	/* indices_k, values */
	int		 order;
	struct ts_bsp	 bsp;
	char		*desc;		/* its text, written at the end */
	const char	*path;		/* what libhdf5 writes */
	char		*tmp;		/* ... ours, copied to the sink */
	/*
	 * The chunks go into the datasets by io/pwriter.c's thread while
	 * the next is filled (libhdf5 called by one thread at a time: the
	 * writer waits for it before any other call).  A chunk is one
	 * buffer, array k's items at aoff[k]; buf[k] points into the one
	 * being filled, nbuf entries so far.
	 */
	struct ts_pwriter *pw;
	unsigned char	*chunk;
	size_t		 aoff[TS_MAXORDER + 1];
	unsigned char	*buf[TS_MAXORDER + 1];
	size_t		 isz[TS_MAXORDER], vsz, nbuf;
	uint64_t	 done;		/* entries handed to the datasets */
	uint64_t	 wdone;		/* ... written: the thread's */
	uint64_t	 last[TS_MAXORDER];	/* the last one put */
	bool		 any;
};

static int	write_chunk(void *, unsigned char *, size_t);

/* The writes' thread ended, what it still had dropped; libhdf5 is the
 * caller's alone after it. */
static void
h5w_stop(struct h5w *w)
{
	if (w->pw == NULL)
		return;
	if (w->chunk != NULL)
		(void)ts_pwriter_put(w->pw, w->chunk, 0, 0, NULL);
	ts_pwriter_free(w->pw);
	w->pw = NULL;
	w->chunk = NULL;
}

static void
h5w_free(struct h5w *w)
{
	h5w_stop(w);
	close_sets(w->set, TS_MAXORDER + 1);
	if (w->file >= 0)
		H5Fclose(w->file);
	free(w->desc);
	if (w->tmp != NULL) {
		unlink(w->tmp);
		ts_cleanup_remove(w->tmp);
		free(w->tmp);
	}
	ts_bsp_free(&w->bsp);
	free(w);
}

/* A dataset of n elements of type t, in chunks of CHUNK (no chunks
 * when empty: libhdf5 makes none of size 0). */
static hid_t
new_set(hid_t file, const char *name, enum ts_npy_type t, uint64_t n)
{
	hsize_t dim = n, chunk = n < CHUNK ? n : CHUNK;
	hid_t sp, pl, apl = -1, set = -1;

	if ((sp = H5Screate_simple(1, &dim, NULL)) < 0)
		return -1;
	/* No times: the same tensor gives the same bytes.  Every chunk is
	 * written whole, once: no fill value before it, and no cache
	 * between the buffer and the file. */
	if ((pl = H5Pcreate(H5P_DATASET_CREATE)) >= 0 && (n == 0 ||
	    H5Pset_chunk(pl, 1, &chunk) >= 0) && H5Pset_obj_track_times(pl,
	    false) >= 0 && H5Pset_fill_time(pl, H5D_FILL_TIME_NEVER) >= 0 &&
	    (apl = H5Pcreate(H5P_DATASET_ACCESS)) >= 0 &&
	    H5Pset_chunk_cache(apl, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT) >= 0)
		set = H5Dcreate2(file, name, file_type(t), sp, H5P_DEFAULT, pl,
		    apl);
	if (apl >= 0)
		H5Pclose(apl);
	if (pl >= 0)
		H5Pclose(pl);
	H5Sclose(sp);
	return set;
}

/* The attributes written beside the descriptor: the caller's, or what
 * the header and layout say; NULL when a block tensor's partitions are
 * not uniform. */
static char *
descriptor(struct ts_encoder *enc, struct ts_bsp *b, const int *perm)
{
	const struct ts_meta *m = enc->o.meta;
	struct ts_meta own;
	char *s;
	int k;

	ts_meta_init(&own);
	if (m == NULL) {
		own.order = enc->h.order;
		memcpy(own.dims, enc->h.dims, sizeof(own.dims));
		own.index_type = enc->lay.itype;
		own.value_type = enc->lay.vtype;
		own.values_provided = enc->lay.values > 0;
	}
	ts_bsp_of_meta(b, m != NULL ? m : &own, enc->lay.block ?
	    enc->h.nnz_block : enc->h.nnz, perm);
	/* What is written is the layout's. */
	for (k = 0; k < b->order; k++) {
		b->shape[k] = enc->h.dims[k];
		b->itype[k] = ts_npy_of_itype(enc->lay.itype);
	}
	b->vtype = ts_npy_of_vtype(enc->lay.vtype);
	b->iso = enc->lay.values <= 0;
	s = ts_bsp_of_blocks(b, &enc->h) == 0 ? ts_bsp_write(b, m) : NULL;
	ts_meta_free(&own);
	return s;
}

/* The string attribute "binsparse", variable-length UTF-8, as the C
 * reference writes it and h5py reads it as a str. */
static int
put_desc(hid_t file, const char *text)
{
	hid_t t, sp, a = -1;
	herr_t r = -1;

	if ((t = H5Tcopy(H5T_C_S1)) < 0)
		return -1;
	if (H5Tset_size(t, H5T_VARIABLE) >= 0 && H5Tset_cset(t,
	    H5T_CSET_UTF8) >= 0 && (sp = H5Screate(H5S_SCALAR)) >= 0) {
		a = H5Acreate2(file, "binsparse", t, sp, H5P_DEFAULT,
		    H5P_DEFAULT);
		if (a >= 0)
			r = H5Awrite(a, t, &text);
		H5Sclose(sp);
	}
	if (a >= 0 && H5Aclose(a) < 0)
		r = -1;
	H5Tclose(t);
	return r < 0 ? -1 : 0;
}

static int
h5w_open(struct ts_encoder *enc)
{
	const struct ts_meta *m = enc->o.meta;
	struct h5w *w;
	int perm[TS_MAXORDER], k, fd;
	char name[32];
	uint64_t n;
	size_t bytes = 0;
	hid_t fcpl;

	if (h5_start(enc->d, ts_sink_name(enc->sink)) != 0)
		return -1;
	w = ts_xcalloc(1, sizeof(*w));
	w->file = -1;
	w->order = enc->h.order;
	for (k = 0; k <= TS_MAXORDER; k++)
		w->set[k] = -1;
	/* Sorted by another order of the modes: stored transposed. */
	for (k = 0; k < w->order; k++)
		perm[k] = m != NULL && m->sorted && m->nsort == w->order ?
		    m->sort_order[k] : k;
	/* Written at the end, once the count is checked: the attributes
	 * as they are now, when the flow's stages have said them. */
	if ((w->desc = descriptor(enc, &w->bsp, perm)) == NULL) {
		h5w_free(w);
		errno = EINVAL;
		return -1;
	}
	if ((w->path = ts_sink_file(enc->sink)) == NULL) {
		w->tmp = ts_xasprintf("%s/tensorsuite.XXXXXX",
		    ts_tmpdir(NULL));
		ts_cleanup_add(w->tmp, false);
		if ((fd = mkstemp(w->tmp)) == -1) {
			ts_diag_io(enc->d, ts_sink_name(enc->sink), "a "
			    "temporary file in '%s' for libhdf5: %s",
			    ts_tmpdir(NULL), strerror(errno));
			ts_cleanup_remove(w->tmp);
			free(w->tmp);
			w->tmp = NULL;
			h5w_free(w);
			return -1;
		}
		close(fd);
		w->path = w->tmp;
	}
	/* The root group without times either. */
	if ((fcpl = H5Pcreate(H5P_FILE_CREATE)) >= 0 &&
	    H5Pset_obj_track_times(fcpl, false) >= 0)
		w->file = H5Fcreate(w->path, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
	if (fcpl >= 0)
		H5Pclose(fcpl);
	if (w->file < 0) {
		ts_diag_io(enc->d, ts_sink_name(enc->sink), "libhdf5 cannot "
		    "create it");
		h5w_free(w);
		return -1;
	}
	for (k = 0; k <= w->order; k++) {
		enum ts_npy_type t = k < w->order ? w->bsp.itype[k] :
		    w->bsp.vtype;

		n = k < w->order || !w->bsp.iso ? w->bsp.nnz : 1;
		if (k < w->order)
			snprintf(name, sizeof(name), "indices_%d", k);
		else
			snprintf(name, sizeof(name), "values");
		if ((w->set[k] = new_set(w->file, name, t, n)) < 0) {
			ts_diag_io(enc->d, ts_sink_name(enc->sink), "libhdf5 "
			    "cannot make dataset '%s'", name);
			h5w_free(w);
			return -1;
		}
		if (k < w->order)
			w->isz[k] = ts_npy_type_size(t);
		else
			w->vsz = ts_npy_type_size(t);
		/* A chunk of the array's items (each page of a buffer is a
		 * fault the first time): none of an iso value. */
		w->aoff[k] = bytes;
		if (k < w->order || !w->bsp.iso)
			bytes += CHUNK * ts_npy_type_size(t);
	}
	if (w->bsp.iso) {
		/* One value, 1, of the value type. */
		double f = 1;
		int64_t i = 1;
		bool ints = ts_vtype_info(enc->lay.vtype)->is_int;

		if (slab(w->set[w->order], ints ? H5T_NATIVE_INT64 :
		    H5T_NATIVE_DOUBLE, 0, 1, ints ? (void *)&i : (void *)&f,
		    true) != 0) {
			ts_diag_io(enc->d, ts_sink_name(enc->sink), "libhdf5 "
			    "cannot write dataset 'values'");
			h5w_free(w);
			return -1;
		}
	}
	/* Two chunks: one filled, one written. */
	w->pw = ts_pwriter_new(-1, bytes, 2, write_chunk, w);
	w->chunk = ts_pwriter_buf(w->pw);
	for (k = 0; k <= w->order; k++)
		w->buf[k] = w->chunk + w->aoff[k];
	enc->state = w;
	return 0;
}

/*
 * The error under a call of libhdf5's that failed, errno cleared before
 * it: a file system's that its write(2) met (no room, a quota, a file
 * too large, the device's), as the other writers say them; else EIO.
 */
static int
h5_errno(void)
{
	return errno == ENOSPC || errno == EDQUOT || errno == EFBIG ? errno :
	    EIO;
}

/* n entries of a chunk at p into the datasets, after those before it
 * (io/pwriter.c's thread): 0, or -1 with errno. */
static int
write_chunk(void *arg, unsigned char *p, size_t n)
{
	struct h5w *w = arg;
	int k;

	h5_quiet();	/* its errors are said once, by the caller */
	for (k = 0; k <= w->order; k++) {
		if (k == w->order && w->bsp.iso)
			break;
		errno = 0;
		if (slab(w->set[k], mem_type(k < w->order ? w->bsp.itype[k] :
		    w->bsp.vtype), w->wdone, n, p + w->aoff[k], true) != 0) {
			errno = h5_errno();
			return -1;
		}
	}
	w->wdone += n;
	return 0;
}

/* The chunk buffered, on its way into the datasets, and another to
 * fill: 0, or -1 with the first error of a chunk before it. */
static int
h5w_flush(struct h5w *w)
{
	size_t n = w->nbuf;
	int k;

	if (ts_pwriter_pass(w->pw, &w->chunk, &w->nbuf, TS_PWRITER_FN,
	    NULL) != 0)
		return -1;
	w->done += n;
	for (k = 0; k <= w->order; k++)
		w->buf[k] = w->chunk + w->aoff[k];
	return 0;
}

static int
h5w_put(struct ts_encoder *enc, const struct ts_batch *b)
{
	struct h5w *w = enc->state;
	const struct ts_bsp *bs = &w->bsp;
	const int order = w->order;
	const uint64_t *prev = w->any ? w->last : NULL, *c;
	char s1[256], s2[256];
	size_t i, at, n, j;
	int k;

	if (enc->n + b->n > bs->nnz) {
		errno = EINVAL;
		return -1;
	}
	/* The flow sorts what is not known to be sorted: a writer's
	 * promise broken, said where. */
	if ((i = ts_coords_unordered(b->coords, b->n, prev, bs->perm,
	    order)) < b->n) {
		c = b->coords + i * (size_t)order;
		prev = i > 0 ? c - order : prev;
		ts_batch_diag(enc->d, b, i, 0, TS_SEV_ERROR, TS_RULE_S2,
		    "binsparse holds unique entries in lexicographic order: "
		    "0-based %s comes after %s", ts_tuple_str(s1, sizeof(s1), c,
		    order, 0), ts_tuple_str(s2, sizeof(s2), prev, order, 0));
		errno = EINVAL;
		return -1;
	}
	if (b->n > 0) {
		memcpy(w->last, b->coords + (b->n - 1) * (size_t)order,
		    sizeof(uint64_t) * (size_t)order);
		w->any = true;
	}
	/* Array by array, as much as the chunk being filled takes. */
	for (at = 0; at < b->n; at += n) {
		n = CHUNK - w->nbuf < b->n - at ? CHUNK - w->nbuf : b->n - at;
		j = w->nbuf;
		for (k = 0; k < order; k++) {
			c = b->coords + at * (size_t)order + bs->perm[k];
			if (w->isz[k] == 4) {
				uint32_t *q = (uint32_t *)w->buf[k] + j;

				for (i = 0; i < n; i++, c += order)
					q[i] = (uint32_t)*c;
			} else {
				uint64_t *q = (uint64_t *)w->buf[k] + j;

				for (i = 0; i < n; i++, c += order)
					q[i] = *c;
			}
		}
		if (!bs->iso) {
			unsigned char *v = w->buf[order];
			const double *f = b->fval + at;
			const int64_t *iv = b->ival + at;

			if (bs->vtype == TS_NPY_FLOAT32)
				for (i = 0; i < n; i++)
					((float *)v)[j + i] = (float)f[i];
			else if (bs->vtype == TS_NPY_FLOAT64)
				memcpy((double *)v + j, f, n * sizeof(*f));
			else if (bs->vtype == TS_NPY_INT32)
				for (i = 0; i < n; i++)
					((int32_t *)v)[j + i] = (int32_t)iv[i];
			else
				memcpy((int64_t *)v + j, iv, n * sizeof(*iv));
		}
		w->nbuf += n;
		if (w->nbuf == CHUNK && h5w_flush(w) != 0)
			return -1;
	}
	return 0;
}

/* Our temporary file, whole, into the sink. */
static int
copy_out(struct ts_encoder *enc, const char *path)
{
	char *buf = ts_xmalloc(CHUNK * 8);
	ssize_t r;
	int fd, e = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		free(buf);
		return -1;
	}
	while ((r = read(fd, buf, CHUNK * 8)) != 0)
		if ((r < 0 && errno != EINTR) || (r > 0 &&
		    ts_sink_write(enc->sink, buf, (size_t)r) != 0)) {
			e = errno;
			break;
		}
	close(fd);
	free(buf);
	errno = e;
	return e != 0 ? -1 : 0;
}

static int
h5w_close(struct ts_encoder *enc)
{
	struct h5w *w = enc->state;
	int rv = 0, e = 0;

	if (w == NULL)
		return 0;
	enc->state = NULL;
	if (enc->aborted) {
		h5w_free(w);
		return 0;
	}
	if (h5w_flush(w) != 0 || ts_pwriter_sync(w->pw) != 0)
		rv = -1, e = errno;
	h5w_stop(w);
	if (rv == 0 && w->done != w->bsp.nnz)
		rv = -1, e = EINVAL;	/* not as many as the header said */
	errno = 0;
	if (rv == 0 && put_desc(w->file, w->desc) != 0)
		rv = -1, e = h5_errno();
	close_sets(w->set, TS_MAXORDER + 1);
	errno = 0;
	if (H5Fclose(w->file) < 0 && rv == 0)
		rv = -1, e = h5_errno();
	w->file = -1;
	if (rv == 0 && w->tmp != NULL && copy_out(enc, w->tmp) != 0)
		rv = -1, e = errno;
	h5w_free(w);
	errno = e;
	return rv;
}

const struct ts_encoder_ops ts_bsp_h5_encoder = {
	"binsparse-h5", h5w_open, h5w_put, h5w_close, NULL
};

/* ================================================================
 * Reading.
 * ================================================================ */

struct h5r {
	hid_t		 file;
	hid_t		 set[TS_MAXORDER + 1];	/* indices_k, values */
	int		 order;
	struct ts_bsp	 bsp;
	char		*tmp;		/* a copy of the source, or NULL */
	bool		 isigned[TS_MAXORDER];	/* an index set's sign */
	bool		 narrow[TS_MAXORDER + 1];	/* of 4-byte items */
	void		*raw;		/* those, read before widening */
	bool		 vints, vu64;	/* values as int64; from uint64 */
	bool		 vsigned;	/* integer values of a signed type */
	bool		 iso;		/* one value for every entry */
	double		 iso_f;
	int64_t		 iso_i;
	uint64_t	 nnz, pos;	/* entries; handed out */
	uint64_t	 bstart;	/* the block buffered: its first */
	size_t		 blen;		/* ... and its entries */
	uint64_t	*ibuf[TS_MAXORDER];	/* 8-byte indices, */
	void		*nbuf[TS_MAXORDER];	/* ... or 4-byte ones */
	double		*fbuf;
	int64_t		*vbuf;
	uint64_t	 bytes;		/* of the file, for the progress */
};

/* An error about the file, or about its entry at (from 1: an entry is
 * located by its place in the arrays, as a text file's by its line). */
static int
bad_at(struct ts_decoder *dec, uint64_t at, enum ts_rule rule,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
bad_at(struct ts_decoder *dec, uint64_t at, enum ts_rule rule,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(dec->d, TS_SEV_ERROR, dec->file, at, 0, -1, rule, fmt, ap);
	va_end(ap);
	return -1;
}

#define bad(dec, ...)	bad_at(dec, 0, __VA_ARGS__)

/*
 * The name libhdf5 opens the source by, into path (n bytes): its own
 * descriptor's, when it reads a file that has a name (libhdf5 asks for
 * the real path of what it opens); else a copy in the temporary
 * directory, r->tmp, which h5r_open unlinks once libhdf5 has it open.
 */
static int
h5r_path(struct ts_decoder *dec, struct h5r *r, char *path, size_t n)
{
	int fd = ts_source_fd(dec->src), out;
	struct stat st;
	char *buf;
	long got;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink > 0) {
		snprintf(path, n, "/dev/fd/%d", fd);
		r->bytes = (uint64_t)st.st_size;
		return 0;
	}
	r->tmp = ts_xasprintf("%s/tensorsuite.XXXXXX", ts_tmpdir(NULL));
	ts_cleanup_add(r->tmp, false);
	if ((out = mkstemp(r->tmp)) == -1) {
		ts_diag_io(dec->d, dec->file, "a temporary file in '%s' for "
		    "libhdf5: %s", ts_tmpdir(NULL), strerror(errno));
		return -1;
	}
	buf = ts_xmalloc(CHUNK * 8);
	while ((got = ts_source_read(dec->src, buf, CHUNK * 8)) > 0) {
		if ((errno = ts_write_all(out, buf, (size_t)got)) != 0) {
			got = -1;
			break;
		}
		r->bytes += (uint64_t)got;
	}
	free(buf);
	if (close(out) != 0 && got == 0)
		got = -1;
	if (got < 0) {
		ts_diag_io(dec->d, dec->file, "copying it to a temporary file "
		    "for libhdf5: %s", strerror(errno));
		return -1;
	}
	snprintf(path, n, "%s", r->tmp);
	return 0;
}

/* The copy, once open (or not to be): nothing is left behind. */
static void
h5r_untmp(struct h5r *r)
{
	if (r->tmp == NULL)
		return;
	unlink(r->tmp);
	ts_cleanup_remove(r->tmp);
	free(r->tmp);
	r->tmp = NULL;
}

/* The attribute "binsparse" of the root, a string of either kind,
 * malloc'd (NUL-terminated, *len bytes); NULL reported. */
static char *
get_desc(struct ts_decoder *dec, hid_t file, size_t *len)
{
	hid_t a, t, mt = -1, sp;
	char *text = NULL, *vl = NULL;
	size_t n;
	htri_t vari;

	if (H5Aexists(file, "binsparse") <= 0) {
		bad(dec, TS_RULE_X1, "an HDF5 file without the string "
		    "attribute 'binsparse' at its root: not binsparse");
		return NULL;
	}
	if ((a = H5Aopen(file, "binsparse", H5P_DEFAULT)) < 0) {
		bad(dec, TS_RULE_NONE, "libhdf5 cannot read attribute "
		    "'binsparse'");
		return NULL;
	}
	t = H5Aget_type(a);
	sp = H5Aget_space(a);
	if (t < 0 || H5Tget_class(t) != H5T_STRING || sp < 0 ||
	    H5Sget_simple_extent_npoints(sp) != 1) {
		bad(dec, TS_RULE_NONE, "attribute 'binsparse' is not one "
		    "string");
		goto out;
	}
	if ((vari = H5Tis_variable_str(t)) > 0) {
		mt = H5Tcopy(H5T_C_S1);
		H5Tset_size(mt, H5T_VARIABLE);
		H5Tset_cset(mt, H5Tget_cset(t));
		if (H5Aread(a, mt, &vl) < 0 || vl == NULL) {
			bad(dec, TS_RULE_NONE, "libhdf5 cannot read attribute "
			    "'binsparse'");
			goto out;
		}
		n = strlen(vl);
		if (n <= DESC_MAX) {
			text = ts_xmalloc(n + 1);
			memcpy(text, vl, n + 1);
		}
		H5free_memory(vl);
	} else {
		n = vari == 0 ? H5Tget_size(t) : 0;
		if (n == 0 || n > DESC_MAX) {
			bad(dec, TS_RULE_NONE, "attribute 'binsparse' is not "
			    "one string of at most %u MiB", DESC_MAX >> 20);
			goto out;
		}
		text = ts_xmalloc(n + 1);
		mt = H5Tcopy(t);
		if (H5Aread(a, mt, text) < 0) {
			bad(dec, TS_RULE_NONE, "libhdf5 cannot read attribute "
			    "'binsparse'");
			free(text);
			text = NULL;
			goto out;
		}
		text[n] = '\0';
		n = strlen(text);
	}
	if (text == NULL)
		bad(dec, TS_RULE_NONE, "attribute 'binsparse' is longer than "
		    "%u MiB", DESC_MAX >> 20);
	*len = n;
out:
	if (mt >= 0)
		H5Tclose(mt);
	if (sp >= 0)
		H5Sclose(sp);
	if (t >= 0)
		H5Tclose(t);
	H5Aclose(a);
	return text;
}

/* Dataset name, one-dimensional, of n elements, of class cls (and
 * its sign into *sgn when not NULL); -1 reported. */
static hid_t
get_set(struct ts_decoder *dec, hid_t file, const char *name, uint64_t n,
    H5T_class_t cls, bool *sgn, bool *narrow)
{
	hid_t set, sp, t, pl, apl;
	hsize_t dim = 0;
	int nd = -1;
	H5T_class_t c = H5T_NO_CLASS;

	if (H5Lexists(file, name, H5P_DEFAULT) <= 0 ||
	    (set = H5Dopen2(file, name, H5P_DEFAULT)) < 0) {
		bad(dec, TS_RULE_X7, "no dataset '%s', which the descriptor "
		    "asks for", name);
		return -1;
	}
	/* Chunks that no filter changes are read straight into the
	 * buffer: opened again without a chunk cache. */
	if ((pl = H5Dget_create_plist(set)) >= 0) {
		if (H5Pget_layout(pl) == H5D_CHUNKED &&
		    H5Pget_nfilters(pl) == 0 &&
		    (apl = H5Pcreate(H5P_DATASET_ACCESS)) >= 0) {
			hid_t again = -1;

			if (H5Pset_chunk_cache(apl, 0, 0,
			    H5D_CHUNK_CACHE_W0_DEFAULT) >= 0)
				again = H5Dopen2(file, name, apl);
			if (again >= 0) {
				H5Dclose(set);
				set = again;
			}
			H5Pclose(apl);
		}
		H5Pclose(pl);
	}
	if ((sp = H5Dget_space(set)) >= 0) {
		nd = H5Sget_simple_extent_ndims(sp);
		if (nd == 1)
			H5Sget_simple_extent_dims(sp, &dim, NULL);
		H5Sclose(sp);
	}
	if ((t = H5Dget_type(set)) >= 0) {
		c = H5Tget_class(t);
		if (sgn != NULL)
			*sgn = H5Tget_sign(t) == H5T_SGN_2;
		if (c == H5T_INTEGER && H5Tget_size(t) > 8)
			c = H5T_NO_CLASS;
		*narrow = H5Tget_size(t) == 4;
		H5Tclose(t);
	}
	if (nd != 1) {
		bad(dec, TS_RULE_NONE, "dataset '%s' has %d dimensions, not "
		    "one", name, nd);
	} else if (dim != n) {
		bad(dec, TS_RULE_X7, "dataset '%s' holds %llu elements; the "
		    "descriptor says %llu", name, (unsigned long long)dim,
		    (unsigned long long)n);
	} else if (c != cls) {
		bad(dec, TS_RULE_NONE, "dataset '%s' holds %s; the descriptor "
		    "says %s", name, c == H5T_INTEGER ? "integers" :
		    c == H5T_FLOAT ? "floating-point numbers" :
		    "neither integers of up to 64 bits nor floating-point "
		    "numbers", cls == H5T_INTEGER ? "integers" :
		    "floating-point numbers");
	} else
		return set;
	H5Dclose(set);
	return -1;
}

/* The value type values of binsparse type t are read as. */
static enum ts_vtype
vtype_of(enum ts_npy_type t)
{
	switch (t) {
	case TS_NPY_FLOAT32:	return TS_VTYPE_FLOAT32;
	case TS_NPY_FLOAT64:	return TS_VTYPE_FLOAT64;
	case TS_NPY_INT64:
	case TS_NPY_UINT32:
	case TS_NPY_UINT64:	return TS_VTYPE_INT64;
	default:		return TS_VTYPE_INT32;
	}
}

static int
h5r_open(struct ts_decoder *dec)
{
	struct h5r *r = ts_xcalloc(1, sizeof(*r));
	struct ts_bsp *b = &r->bsp;
	char path[4096], name[32], *text;
	size_t len;
	bool sgn;
	int k;
	H5T_class_t vcls;

	r->file = -1;
	for (k = 0; k <= TS_MAXORDER; k++)
		r->set[k] = -1;
	dec->state = r;
	if (h5_start(dec->d, dec->file) != 0 ||
	    h5r_path(dec, r, path, sizeof(path)) != 0)
		return -1;
	if (H5Fis_hdf5(path) <= 0)
		return bad(dec, TS_RULE_X1, "not an HDF5 file (no HDF5 "
		    "signature)");
	r->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	h5r_untmp(r);
	if (r->file < 0)
		return bad(dec, TS_RULE_NONE, "a damaged HDF5 file: libhdf5 "
		    "cannot open it");
	if ((text = get_desc(dec, r->file, &len)) == NULL)
		return -1;
	k = ts_bsp_parse(b, text, len, dec->file, dec->d);
	free(text);
	if (k != 0)
		return -1;
	r->order = b->order;
	r->nnz = b->nnz;
	for (k = 0; k < b->order; k++) {
		snprintf(name, sizeof(name), "indices_%d", k);
		if ((r->set[k] = get_set(dec, r->file, name, b->nnz,
		    H5T_INTEGER, &sgn, &r->narrow[k])) < 0)
			return -1;
		r->isigned[k] = sgn;
	}
	vcls = b->vtype == TS_NPY_FLOAT32 || b->vtype == TS_NPY_FLOAT64 ?
	    H5T_FLOAT : H5T_INTEGER;
	if ((r->set[b->order] = get_set(dec, r->file, "values", b->iso ? 1 :
	    b->nnz, vcls, &sgn, &r->narrow[b->order])) < 0)
		return -1;
	r->vints = vcls == H5T_INTEGER;
	r->vsigned = sgn;
	r->vu64 = r->vints && !sgn && b->vtype == TS_NPY_UINT64;
	r->iso = b->iso;
	dec->lay.kind = TS_KIND_BSP_H5;
	dec->lay.vtype = vtype_of(b->vtype);
	dec->lay.values = 1;
	dec->lay.base = 0;
	dec->lay.itype = TS_ITYPE_UINT32;
	for (k = 0; k < b->order; k++)
		if (ts_npy_type_size(b->itype[k]) > 4)
			dec->lay.itype = TS_ITYPE_UINT64;
	if (r->iso) {
		uint64_t u = 0;

		if (slab(r->set[b->order], r->vu64 ? H5T_NATIVE_UINT64 :
		    r->vints ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, 0, 1,
		    r->vu64 ? (void *)&u : r->vints ? (void *)&r->iso_i :
		    (void *)&r->iso_f, false) != 0)
			return bad(dec, TS_RULE_NONE, "libhdf5 cannot read "
			    "dataset 'values'");
		if (r->vu64 && u > INT64_MAX)
			return bad(dec, TS_RULE_S5, "the iso value %llu is "
			    "beyond int64", (unsigned long long)u);
		if (r->vu64)
			r->iso_i = (int64_t)u;
		/* One value 1: a tensor without values, as written. */
		if (r->vints ? r->iso_i == 1 : r->iso_f == 1)
			dec->lay.values = 0;
	}
	memset(&dec->h, 0, sizeof(dec->h));
	dec->h.kind = TS_KIND_BSP_H5;
	if (ts_bsp_decoder_header(dec, b) != 0)
		return -1;
	for (k = 0; k < b->order; k++)
		if (r->narrow[k])
			r->nbuf[k] = ts_xmalloc(RBLOCK * 4);
		else
			r->ibuf[k] = ts_xmalloc(RBLOCK * sizeof(uint64_t));
	if (r->vints)
		r->vbuf = ts_xmalloc(RBLOCK * sizeof(int64_t));
	else
		r->fbuf = ts_xmalloc(RBLOCK * sizeof(double));
	r->raw = ts_xmalloc(RBLOCK * 4);
	ts_bsp_decoder_meta(dec, &r->bsp);
	return 0;
}

/*
 * n elements of dataset k from element pos: 4-byte items as themselves
 * into r->raw, then widened into to (indices and integers to 64 bits,
 * signed as the file's are; floats to doubles), which libhdf5 would do
 * through a conversion buffer of its own; wider items straight as
 * mtype.  0, or -1.
 */
static int
load_set(struct h5r *r, int k, size_t n, hid_t mtype, void *to)
{
	const bool ints = k < r->order || r->vints;
	const bool sgn = k < r->order ? r->isigned[k] : r->vsigned;
	size_t i;

	if (!r->narrow[k])
		return slab(r->set[k], mtype, r->pos, n, to, false);
	if (slab(r->set[k], !ints ? H5T_NATIVE_FLOAT : sgn ?
	    H5T_NATIVE_INT32 : H5T_NATIVE_UINT32, r->pos, n, r->raw,
	    false) != 0)
		return -1;
	if (!ints)
		for (i = 0; i < n; i++)
			((double *)to)[i] = ((const float *)r->raw)[i];
	else if (sgn)
		for (i = 0; i < n; i++)
			((int64_t *)to)[i] = ((const int32_t *)r->raw)[i];
	else
		for (i = 0; i < n; i++)
			((uint64_t *)to)[i] = ((const uint32_t *)r->raw)[i];
	return 0;
}

/* The block of entries from r->pos into the buffers; 0, or -1. */
static int
h5r_load(struct ts_decoder *dec, struct h5r *r)
{
	size_t n = r->nnz - r->pos < RBLOCK ? (size_t)(r->nnz - r->pos) :
	    RBLOCK, i;
	int k;

	for (k = 0; k < r->order; k++) {
		/* 4-byte indices as they are: widened as they are put in
		 * the batch (h5r_next). */
		if (r->narrow[k] ? slab(r->set[k], r->isigned[k] ?
		    H5T_NATIVE_INT32 : H5T_NATIVE_UINT32, r->pos, n,
		    r->nbuf[k], false) != 0 : load_set(r, k, n, r->isigned[k] ?
		    H5T_NATIVE_INT64 : H5T_NATIVE_UINT64, r->ibuf[k]) != 0)
			return bad(dec, TS_RULE_NONE, "libhdf5 cannot read "
			    "dataset 'indices_%d' at element %llu", k,
			    (unsigned long long)r->pos);
		for (i = 0; r->isigned[k] && i < n; i++) {
			int64_t v = r->narrow[k] ? ((const int32_t *)
			    r->nbuf[k])[i] : (int64_t)r->ibuf[k][i];

			if (v < 0)
				return bad_at(dec, r->pos + i + 1, TS_RULE_S1,
				    "'indices_%d' holds %lld, a negative index",
				    k, (long long)v);
		}
	}
	if (!r->iso && load_set(r, r->order, n, r->vu64 ? H5T_NATIVE_UINT64 :
	    r->vints ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE,
	    r->vints ? (void *)r->vbuf : (void *)r->fbuf) != 0)
		return bad(dec, TS_RULE_NONE, "libhdf5 cannot read dataset "
		    "'values' at element %llu", (unsigned long long)r->pos);
	for (i = 0; r->vu64 && !r->iso && i < n; i++)
		if ((uint64_t)r->vbuf[i] > INT64_MAX)
			return bad_at(dec, r->pos + i + 1, TS_RULE_S5,
			    "'values' holds %llu, beyond int64", (unsigned long
			    long)(uint64_t)r->vbuf[i]);
	r->bstart = r->pos;
	r->blen = n;
	return 0;
}

static long
h5r_next(struct ts_decoder *dec, struct ts_batch *b)
{
	struct h5r *r = dec->state;
	const int order = r->order;
	size_t n, i, o;
	int k;

	if (r->pos >= r->nnz)
		return 0;
	if (r->pos >= r->bstart + r->blen && h5r_load(dec, r) != 0)
		return -1;
	o = (size_t)(r->pos - r->bstart);
	n = r->blen - o < b->cap ? r->blen - o : b->cap;
	for (k = 0; k < order; k++) {
		uint64_t *dst = b->coords + r->bsp.perm[k];

		/* Signed ones were checked: none is negative. */
		if (r->narrow[k]) {
			const uint32_t *src = (const uint32_t *)r->nbuf[k] + o;

			for (i = 0; i < n; i++)
				dst[i * (size_t)order] = src[i];
		} else {
			const uint64_t *src = r->ibuf[k] + o;

			for (i = 0; i < n; i++)
				dst[i * (size_t)order] = src[i];
		}
	}
	for (i = 0; i < n; i++) {
		b->loc[i] = r->pos + i + 1;
		b->row[i] = NULL;
		if (r->iso) {
			b->fval[i] = r->iso_f;
			b->ival[i] = r->iso_i;
		} else if (r->vints)
			b->ival[i] = r->vbuf[o + i];
		else
			b->fval[i] = r->fbuf[o + i];
	}
	b->n = n;
	r->pos += n;
	dec->rows += n;
	dec->off = r->nnz ? (uint64_t)((double)r->bytes * (double)r->pos /
	    (double)r->nnz) : r->bytes;
	return (long)n;
}

static void
h5r_close(struct ts_decoder *dec)
{
	struct h5r *r = dec->state;
	int k;

	if (r == NULL)
		return;
	close_sets(r->set, TS_MAXORDER + 1);
	if (r->file >= 0)
		H5Fclose(r->file);
	h5r_untmp(r);
	for (k = 0; k < TS_MAXORDER; k++) {
		free(r->ibuf[k]);
		free(r->nbuf[k]);
	}
	free(r->fbuf);
	free(r->vbuf);
	free(r->raw);
	ts_bsp_free(&r->bsp);
	free(r);
	dec->state = NULL;
}

const struct ts_decoder_ops ts_bsp_h5_decoder = {
	"binsparse-h5", h5r_open, h5r_next, h5r_close
};
