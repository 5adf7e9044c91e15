/*
 * npy.h - NumPy's files, internal to libtensorsuite: the header of a
 * .npy array (numpy.lib.format, versions 1.0, 2.0 and 3.0; npy.c) and
 * the zip container of an .npz file, whose members are .npy arrays,
 * read and written with libarchive's zip reader and writer (zip.c).
 * Nothing here reports to a collector: a problem comes back as a
 * struct ts_npy_err, a message and the byte offset it is at, for the
 * format that uses these to report where it sees fit.
 */
#ifndef TS_NPY_H
#define TS_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensorsuite.h"

/* The element types read and written, as a descr's kind and size. */
enum ts_npy_type { TS_NPY_BOOL, TS_NPY_INT8, TS_NPY_INT16, TS_NPY_INT32,
	TS_NPY_INT64, TS_NPY_UINT8, TS_NPY_UINT16, TS_NPY_UINT32,
	TS_NPY_UINT64, TS_NPY_FLOAT32, TS_NPY_FLOAT64, TS_NPY_UNICODE,
	TS_NPY_BYTES };

#define TS_NPY_MAXDIM	64	/* numpy's own limit (NPY_MAXDIMS) */

struct ts_npy {
	enum ts_npy_type type;
	size_t		 itemsize;	/* bytes of an item (U: 4 a char) */
	bool		 big;		/* '>': big-endian items */
	bool		 fortran;	/* fortran_order */
	int		 ndim;
	uint64_t	 shape[TS_NPY_MAXDIM];
	uint64_t	 count;		/* items: the shape's product */
	uint64_t	 bytes;		/* of the data: count * itemsize */
	uint64_t	 data_off;	/* the header's bytes: the data's start */
	int		 version;	/* 1, 2 or 3 */
};

/* What is wrong and where (a byte offset from the array's start). */
struct ts_npy_err {
	uint64_t	 off;
	char		 msg[200];
};

/* The bytes before the header's dictionary: magic, version, length. */
#define TS_NPY_PREFIX	12

/*
 * The bytes the header takes, magic to the newline that ends it (the
 * data's offset), from the first n bytes of an array (n at least the
 * 10 or 12 of its prefix): into *total, 0; -1 with *e when they are no
 * .npy header (the magic, the version, a length too large).
 */
int	 ts_npy_prefix(const unsigned char *p, size_t n, uint64_t *total,
	    struct ts_npy_err *e);
/*
 * Parse a whole header (n bytes at p: what ts_npy_prefix said) into a:
 * the dictionary of exactly 'descr', 'fortran_order' and 'shape', a
 * descr of a type above, the sizes checked against overflow.  0, or
 * -1 with *e.
 */
int	 ts_npy_parse(const unsigned char *p, size_t n, struct ts_npy *a,
	    struct ts_npy_err *e);
/*
 * The header of an array of type t (little-endian), C order, of ndim
 * dimensions shape (ndim 0: a scalar), itemsize for TS_NPY_UNICODE
 * and TS_NPY_BYTES (else taken from t), written to buf (cap bytes, at least
 * TS_NPY_HDRMAX): its length, padded with blanks so that the data
 * starts at a multiple of 64, as numpy writes it (version 1.0, or 2.0
 * when the dictionary does not fit in 1.0's).
 */
#define TS_NPY_HDRMAX	(64 + 24 * TS_NPY_MAXDIM + 128)
size_t	 ts_npy_header(char *buf, size_t cap, enum ts_npy_type t,
	    size_t itemsize, int ndim, const uint64_t *shape);
/* The bytes of an item of t (0 for strings: their descr says). */
size_t	 ts_npy_type_size(enum ts_npy_type t);
/* The type as numpy names it ("int64", "bool"), for messages. */
const char *ts_npy_type_name(enum ts_npy_type t);
/* The type of a value type's values, of an index type's indices. */
enum ts_npy_type ts_npy_of_vtype(enum ts_vtype);
enum ts_npy_type ts_npy_of_itype(enum ts_itype);

/*
 * A 'U' array's n code points (UTF-32, big when big) at p as UTF-8,
 * up to the first NUL (numpy pads with them), malloc'd and
 * NUL-terminated; NULL with *e (at its offset from p) for a code point
 * that is none.  And back: UTF-8 text (NUL-terminated, checked) as
 * UTF-32LE, malloc'd, its count of code points in *n; NULL when s is
 * not UTF-8.
 */
char	*ts_npy_utf32_to_utf8(const unsigned char *p, uint64_t n, bool big,
	    struct ts_npy_err *e);
unsigned char *ts_npy_utf8_to_utf32(const char *s, uint64_t *n);

/* ---- zip.c: the .npz container ---- */

/*
 * A member of a zip archive, read through libarchive's seekable zip
 * reader (the central directory), from src at any offset, so that
 * several members can be read at once, each by its own reader.
 * ts_zip_list gives the names of the regular members in *names (a
 * malloc'd array of malloc'd strings, its count returned) and their
 * sizes, uncompressed, in *sizes (malloc'd; -1 where the archive does
 * not say); -1 with *e (the archive's offset 0, a message) when src is
 * no zip archive libarchive reads (errno EILSEQ), or libarchive cannot
 * be loaded (errno ELIBACC).  ts_zip_open positions a reader at
 * the data of the member name, which checks its CRC-32 when it is read
 * to its end if check (another reader of the same member may, when
 * both read all of it); NULL with *e when there is none.
 * ts_zip_read gives up to n bytes: the count, 0 at its end, -1 with
 * *e (at the member's offset) when the data is corrupt.
 */
struct ts_zip;
long	 ts_zip_list(struct ts_source *src, char ***names, int64_t **sizes,
	    struct ts_npy_err *e);
struct ts_zip *ts_zip_open(struct ts_source *src, const char *name,
	    bool check, struct ts_npy_err *e);
long	 ts_zip_read(struct ts_zip *, void *buf, size_t n,
	    struct ts_npy_err *e);
void	 ts_zip_close(struct ts_zip *);

/*
 * A zip archive written to a sink by libarchive's zip writer, member
 * by member: ts_zip_add_begin(name, size) (size: the bytes that
 * follow, known first, as zip64 may need), then ts_zip_add_data for
 * them; ts_zip_out_finish writes the central directory and frees
 * (the archive's bytes in *size, when not NULL).  ts_zip_out_pos: the
 * bytes written so far.  deflate picks deflate over store.  0, or -1 with errno (EIO for a
 * fault of libarchive's, which ts_zip_out_error says).
 */
struct ts_zip_out;
struct ts_zip_out *ts_zip_out_new(struct ts_sink *, bool deflate);
int	 ts_zip_add_begin(struct ts_zip_out *, const char *name,
	    uint64_t size);
int	 ts_zip_add_data(struct ts_zip_out *, const void *, size_t);
uint64_t ts_zip_out_pos(const struct ts_zip_out *);
/* The next n bytes the zip writes are in its file already, at those
 * places (a file sink's, ts_sink_skip): libarchive makes them, its
 * CRC-32 of them too, and they are not written again. */
void	 ts_zip_out_skip(struct ts_zip_out *, uint64_t n);
/*
 * Into a file, stored, the CRC-32 of each member's data is made by ts_zip_out
 * itself, not by libarchive (told not to: its zip writer's "fakecrc32",
 * for which it writes 0), and put in the member's descriptor and its
 * entry of the central directory when the zip is finished: the same
 * bytes.  ts_zip_out_sums says whether it is so; then
 * ts_zip_add_placed(crc, n) adds to the member n bytes in the file
 * already at the places the zip has them, whose CRC-32 is crc, neither
 * read nor written (ts_zip_out_skip), and never else (-1, EINVAL).
 */
bool	 ts_zip_out_sums(const struct ts_zip_out *);
int	 ts_zip_add_placed(struct ts_zip_out *, uint32_t crc, uint64_t n);
/* The bytes between the end of member prev's data (prev_size bytes)
 * and the start of the next member's, name (size bytes), in a zip
 * ts_zip_out writes: prev's descriptor, name's local header.  0, or -1
 * with errno. */
int	 ts_zip_gap(const char *prev, uint64_t prev_size, const char *name,
	    uint64_t size, uint64_t *gap);
const char *ts_zip_out_error(struct ts_zip_out *);
int	 ts_zip_out_finish(struct ts_zip_out *, uint64_t *size);
/* Free without finishing (the sink is the caller's to abort). */
void	 ts_zip_out_free(struct ts_zip_out *);

#endif
