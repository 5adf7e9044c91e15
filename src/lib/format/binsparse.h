/*
 * binsparse.h - the JSON descriptor of binsparse 0.1 (GraphBLAS's
 * binsparse specification), internal to libtensorsuite, for the
 * containers that carry it (NPZ, HDF5): written from a tensor's
 * metadata as the specification asks, read leniently where the
 * implementations differ (binsparse.c).
 *
 * A tensor is written as coordinates: order 2 as "COO" (or "COOC" when
 * sorted by columns first), any other order as a "custom" format, a
 * root "sparse" level of rank N over an "element" level; arrays
 * indices_0 ... indices_{N-1} and values.  The stored level k holds the
 * tensor's mode perm[k] (the specification's "transpose"), so that
 * entries sorted by another order of the modes are written as they
 * come.  A tensor without values has "iso[...]" values, one value 1.
 *
 * A block tensor whose partitions are uniform (every section of mode k
 * of extent b_k) is a custom format too: a root "sparse" level of rank
 * N, the blocks' coordinates in the grid, over a "dense" level of rank
 * N, each block's b_1 x ... x b_N elements row-major, over an "element"
 * level.  Its "shape" is that of the 2N-dimensional array the levels
 * describe (the ranks sum to its length, as the specification's levels
 * and its C reference read them): the grid g_1 ... g_N, then b_1 ...
 * b_N; dimension k of the tensor is g_k * b_k.  Its values are iso (a
 * block tensor holds none), and number_of_stored_values counts every
 * element of every block, as the dense level stores them.
 */
#ifndef TS_BINSPARSE_H
#define TS_BINSPARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "tensorsuite.h"
#include "format/npy.h"

#define TS_BSP_VERSION	"0.1"

struct ts_bsp {
	int		 order;
	uint64_t	 shape[TS_MAXORDER];
	/* Entries of the sparse level (the indices arrays): the tensor's,
	 * or a block tensor's blocks. */
	uint64_t	 nnz;
	int		 perm[TS_MAXORDER];	/* level k holds mode perm[k] */
	/* A block tensor: shape is its block grid, every block of bshape
	 * (number_of_stored_values: nnz times its volume). */
	bool		 block;
	uint64_t	 bshape[TS_MAXORDER];
	/* The arrays' types: indices_k (level k), values. */
	enum ts_npy_type itype[TS_MAXORDER], vtype;
	bool		 iso;		/* values: iso[...], one value */
	/* The keys outside "binsparse" (TensorSuite's attributes), as a
	 * JSON object's text, malloc'd; NULL when there are none. */
	char		*attrs;
};

void	 ts_bsp_free(struct ts_bsp *);

/*
 * The descriptor of the tensor m describes, with nnz stored entries
 * whose level k holds mode perm[k] (NULL: the identity), as JSON text,
 * malloc'd: {"binsparse": {...}} and, beside that key, every attribute
 * of m's canonical metadata, so that reading it back gives m again.
 * Value-less: iso values of m's value type.
 */
void	 ts_bsp_of_meta(struct ts_bsp *, const struct ts_meta *m,
	    uint64_t nnz, const int *perm);
char	*ts_bsp_write(const struct ts_bsp *, const struct ts_meta *m);
/*
 * A block header h (of nnz blocks, b's already): b a block tensor, its
 * grid and its blocks' shape; 0, or -1 when h's partitions are not
 * uniform.  Nothing changes when h holds elements.
 */
int	 ts_bsp_of_blocks(struct ts_bsp *, const struct ts_header *h);

/*
 * Parse a descriptor (len bytes of text, from file): bare or under the
 * key "binsparse", version "0.1" or "0.1.0", "format" "COO", "COOR",
 * "COOC", "CVEC" or "custom" (its "custom" object beside it or as the
 * value of "format"), or no "format" key and a "custom" one, as
 * binsparse's C reference writes tensors; a custom format must be one
 * sparse level over an element level, or a block tensor's (above: iso
 * values, a transpose that moves each block mode with its elements').
 * The types are binsparse's
 * (uint8 to uint64, int8 to int64, float32, float64, bint8, and
 * iso[...] for values).  0, or -1 with an error in d at the JSON text's
 * line and column, or naming the key at fault.
 */
int	 ts_bsp_parse(struct ts_bsp *, const char *text, size_t len,
	    const char *file, struct ts_diags *d);

/*
 * dec->meta from b's attributes (b->attrs), once dec's header and
 * layout are read (ts_bsp_decoder_header), when they are TensorSuite
 * metadata that describe this very tensor; anything else is left with
 * a note in dec's diagnostics.
 */
void	 ts_bsp_decoder_meta(struct ts_decoder *dec, const struct ts_bsp *b);
/*
 * dec->h of the tensor b describes, the layout's values known (a block
 * tensor's must be none: iso 1): its order, dimensions, counts, and a
 * block tensor's partitions (and dec->lay.block).  0, or -1
 * reported.
 */
int	 ts_bsp_decoder_header(struct ts_decoder *dec, const struct ts_bsp *b);

/* A binsparse type's name ("uint64"), and the type of one (-1). */
const char *ts_bsp_type_name(enum ts_npy_type);
int	 ts_bsp_type_of_name(const char *);

#endif
