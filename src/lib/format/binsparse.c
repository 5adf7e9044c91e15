/*
 * binsparse.c - the binsparse 0.1 descriptor (binsparse.h).  Written
 * as the specification says: under the key "binsparse", version "0.1",
 * a predefined format's name when there is one, the TensorSuite
 * attributes beside that key.  Read as the implementations write it:
 * the specification's form, the Python reference's bare descriptor
 * ("format": "custom" and a "custom" key beside it), the C reference's
 * tensors (a "custom" key and no "format").
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/binsparse.h"
#include "format/format.h"
#include "util/xalloc.h"

static const char *const bsp_types[] = {
	[TS_NPY_BOOL] = "bint8", [TS_NPY_INT8] = "int8",
	[TS_NPY_INT16] = "int16", [TS_NPY_INT32] = "int32",
	[TS_NPY_INT64] = "int64", [TS_NPY_UINT8] = "uint8",
	[TS_NPY_UINT16] = "uint16", [TS_NPY_UINT32] = "uint32",
	[TS_NPY_UINT64] = "uint64", [TS_NPY_FLOAT32] = "float32",
	[TS_NPY_FLOAT64] = "float64",
};
#define NBSPTYPES	(sizeof(bsp_types) / sizeof(bsp_types[0]))

const char *
ts_bsp_type_name(enum ts_npy_type t)
{
	return (unsigned)t < NBSPTYPES ? bsp_types[t] : NULL;
}

int
ts_bsp_type_of_name(const char *s)
{
	size_t k;

	for (k = 0; s != NULL && k < NBSPTYPES; k++)
		if (bsp_types[k] != NULL && strcmp(bsp_types[k], s) == 0)
			return (int)k;
	return -1;
}

void
ts_bsp_free(struct ts_bsp *b)
{
	free(b->attrs);
	b->attrs = NULL;
}

void
ts_bsp_of_meta(struct ts_bsp *b, const struct ts_meta *m, uint64_t nnz,
    const int *perm)
{
	int k;

	memset(b, 0, sizeof(*b));
	b->order = m->order;
	b->nnz = nnz;
	for (k = 0; k < m->order; k++) {
		b->shape[k] = m->dims[k];
		b->perm[k] = perm != NULL ? perm[k] : k;
		b->itype[k] = ts_npy_of_itype(m->index_type);
	}
	b->vtype = ts_npy_of_vtype(m->value_type);
	b->iso = !m->values_provided;
}

int
ts_bsp_of_blocks(struct ts_bsp *b, const struct ts_header *h)
{
	uint64_t e[2];
	int k;

	if (!h->block)
		return 0;
	if (ts_header_uniform(h, b->bshape, e) >= 0)
		return -1;
	b->block = true;
	for (k = 0; k < h->order; k++)
		b->shape[k] = h->parts[k];
	return 0;
}

static bool
identity(const struct ts_bsp *b)
{
	int k;

	for (k = 0; k < b->order; k++)
		if (b->perm[k] != k)
			return false;
	return true;
}

/* Is the metadata text s good metadata, that reads back whole? */
static bool
whole(const char *s)
{
	struct ts_diags *d = ts_diags_new(1, false);
	struct ts_meta m;
	bool ok;

	ts_meta_init(&m);
	ok = ts_meta_parse(&m, s, strlen(s), NULL, d) == 0 &&
	    ts_diags_errors(d) == 0;
	ts_meta_free(&m);
	ts_diags_free(d);
	return ok;
}

char *
ts_bsp_write(const struct ts_bsp *b, const struct ts_meta *m)
{
	json_t *root = json_object(), *bs = json_object(), *shape =
	    json_array(), *dt = json_object(), *attrs, *v;
	const char *key;
	char name[32], *s = NULL, *text;
	uint64_t stored = b->nnz;
	int k;

	json_object_set_new(bs, "version", json_string(TS_BSP_VERSION));
	if (b->order == 2 && !b->block && (identity(b) || b->perm[0] == 1))
		json_object_set_new(bs, "format", json_string(identity(b) ?
		    "COO" : "COOC"));
	else {
		json_t *custom = json_object(), *lv = json_object(), *el =
		    json_object(), *tr;

		json_object_set_new(el, "level_desc", json_string("element"));
		if (b->block) {
			/* The blocks' elements, dense, row-major. */
			json_t *dn = json_object();

			json_object_set_new(dn, "level_desc",
			    json_string("dense"));
			json_object_set_new(dn, "rank", json_integer(b->order));
			json_object_set_new(dn, "level", el);
			el = dn;
		}
		json_object_set_new(lv, "level_desc", json_string("sparse"));
		json_object_set_new(lv, "rank", json_integer(b->order));
		json_object_set_new(lv, "level", el);
		json_object_set_new(custom, "level", lv);
		if (!identity(b)) {
			/* A block mode moves with its elements' mode. */
			tr = json_array();
			for (k = 0; k < b->order; k++)
				json_array_append_new(tr,
				    json_integer(b->perm[k]));
			for (k = 0; b->block && k < b->order; k++)
				json_array_append_new(tr,
				    json_integer(b->order + b->perm[k]));
			json_object_set_new(custom, "transpose", tr);
		}
		json_object_set_new(bs, "format", json_string("custom"));
		json_object_set_new(bs, "custom", custom);
	}
	for (k = 0; k < b->order; k++)
		json_array_append_new(shape, json_integer((json_int_t)
		    b->shape[k]));
	for (k = 0; b->block && k < b->order; k++) {
		json_array_append_new(shape, json_integer((json_int_t)
		    b->bshape[k]));
		stored *= b->bshape[k];
	}
	json_object_set_new(bs, "shape", shape);
	json_object_set_new(bs, "number_of_stored_values",
	    json_integer((json_int_t)stored));
	for (k = 0; k < b->order; k++) {
		snprintf(name, sizeof(name), "indices_%d", k);
		json_object_set_new(dt, name,
		    json_string(ts_bsp_type_name(b->itype[k])));
	}
	s = ts_xasprintf(b->iso ? "iso[%s]" : "%s",
	    ts_bsp_type_name(b->vtype));
	json_object_set_new(dt, "values", json_string(s));
	free(s);
	s = NULL;
	json_object_set_new(bs, "data_types", dt);
	json_object_set_new(root, "binsparse", bs);
	/* The attributes beside it, from the canonical form, when they
	 * are whole (an import's lack an id and a time): what reads them
	 * back takes them for the metadata. */
	if (m != NULL && (s = ts_meta_canonical(m)) != NULL && !whole(s)) {
		free(s);
		s = NULL;
	}
	if (s != NULL) {
		attrs = json_loads(s, 0, NULL);
		free(s);
		json_object_foreach(attrs, key, v)
			if (strcmp(key, "binsparse") != 0)
				json_object_set(root, key, v);
		json_decref(attrs);
	}
	s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_ENSURE_ASCII);
	json_decref(root);
	if (s == NULL)
		ts_xoom(0);
	text = ts_xasprintf("%s\n", s);
	free(s);
	return text;
}

/* ---- reading ---- */

struct rd {
	const char	*text;
	size_t		 len;
	const char	*file;
	struct ts_diags	*d;
};

static int
bad(const struct rd *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error at the first place key is written as an object's key (the
 * descriptor's keys are few and distinct), else at no line. */
static int
bad(const struct rd *r, const char *key, const char *fmt, ...)
{
	uint64_t line = 1, col = 1;
	size_t i, l = key != NULL ? strlen(key) : 0;
	bool found = false;
	char msg[256];
	va_list ap;

	for (i = 0; key != NULL && i + l + 2 <= r->len; i++) {
		if (r->text[i] == '"' && memcmp(r->text + i + 1, key, l) ==
		    0 && r->text[i + l + 1] == '"') {
			found = true;
			break;
		}
		if (r->text[i] == '\n')
			line++, col = 1;
		else if (((unsigned char)r->text[i] & 0xc0) != 0x80)
			col++;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ts_diag(r->d, TS_SEV_ERROR, r->file, found ? line : 0, found ? col : 0,
	    TS_RULE_NONE, "binsparse descriptor: %s", msg);
	return -1;
}

static int
get_u64(const struct rd *r, json_t *v, const char *key, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return bad(r, key, "'%s' must be a non-negative integer", key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* The type of array name in data_types dt; iso when allowed. */
static int
get_type(const struct rd *r, json_t *dt, const char *name,
    enum ts_npy_type *t, bool *iso)
{
	const char *s = json_string_value(json_object_get(dt, name));
	char buf[32];
	size_t l;
	int k;

	if (s == NULL)
		return bad(r, "data_types", "'data_types' has no type of "
		    "'%s'", name);
	l = strlen(s);
	if (iso != NULL && l > 5 && l < sizeof(buf) + 5 && strncmp(s, "iso[",
	    4) == 0 && s[l - 1] == ']') {
		memcpy(buf, s + 4, l - 5);
		buf[l - 5] = '\0';
		*iso = true;
		s = buf;
	}
	if ((k = ts_bsp_type_of_name(s)) < 0)
		return bad(r, name, "type '%s' of '%s' is not read (%s)", s,
		    name, iso != NULL ? "int8-64, uint8-64, float32, float64, "
		    "bint8, iso[...] of one" : "uint8-64, int8-64");
	if (iso == NULL && (k == TS_NPY_BOOL || k == TS_NPY_FLOAT32 || k ==
	    TS_NPY_FLOAT64))
		return bad(r, name, "indices of type '%s'", s);
	*t = (enum ts_npy_type)k;
	return 0;
}

/*
 * A custom format, for a 'shape' of n dimensions: one sparse level of
 * rank n over an element level; or, a block tensor's, a sparse level of
 * rank N over a dense level of rank N over an element level, n = 2N
 * (the grid, then a block's shape).  A transpose must be a permutation
 * of the n dimensions, a block tensor's one that moves each block mode
 * with its elements' mode.  b->order is set.
 */
static int
custom(const struct rd *r, json_t *c, struct ts_bsp *b, int n)
{
	json_t *lv, *sub, *tr, *rk;
	bool seen[2 * TS_MAXORDER] = { false };
	int perm[2 * TS_MAXORDER];
	const char *desc;
	json_int_t rank, p;
	int k;

	if (!json_is_object(c))
		return bad(r, "custom", "'custom' must be an object");
	lv = json_object_get(c, "level");
	if (!json_is_object(lv))
		return bad(r, "custom", "'custom' has no 'level' object");
	desc = json_string_value(json_object_get(lv, "level_desc"));
	if (desc == NULL)
		return bad(r, "level", "a level has no 'level_desc'");
	if (strcmp(desc, "sparse") != 0)
		return bad(r, "level_desc", "a root level '%s' is not read "
		    "(a sparse level over an element level is, or over a "
		    "dense level of its rank)", desc);
	rk = json_object_get(lv, "rank");
	rank = json_is_integer(rk) ? json_integer_value(rk) : 0;
	sub = json_object_get(lv, "level");
	desc = json_string_value(json_object_get(sub, "level_desc"));
	if (json_is_object(sub) && desc != NULL && strcmp(desc, "dense") ==
	    0) {
		rk = json_object_get(sub, "rank");
		if (rank < 1 || !json_is_integer(rk) || json_integer_value(rk) !=
		    rank || 2 * rank != n || rank > TS_MAXORDER)
			return bad(r, "dense", "a sparse level over a dense "
			    "level (a block tensor's) must be of one rank, "
			    "half the order of 'shape' (%d: the grid of "
			    "blocks, then a block's), at most %d", n,
			    TS_MAXORDER);
		b->block = true;
		sub = json_object_get(sub, "level");
		desc = json_string_value(json_object_get(sub, "level_desc"));
	} else if (rank != n)
		return bad(r, "rank", "the sparse level's 'rank' must be the "
		    "order of 'shape', %d", n);
	if (!json_is_object(sub) || desc == NULL || strcmp(desc, "element") !=
	    0)
		return bad(r, "level", "%s 'level' must be an element level "
		    "(others are not read)", b->block ? "the dense level's" :
		    "the sparse level's");
	b->order = (int)rank;
	for (k = 0; k < n; k++)
		perm[k] = k;
	if ((tr = json_object_get(c, "transpose")) != NULL) {
		if (!json_is_array(tr) || json_array_size(tr) != (size_t)n)
			return bad(r, "transpose", "'transpose' must be an "
			    "array of %d modes", n);
		for (k = 0; k < n; k++) {
			p = json_integer_value(json_array_get(tr, (size_t)k));
			if (!json_is_integer(json_array_get(tr, (size_t)k)) ||
			    p < 0 || p >= n || seen[p])
				return bad(r, "transpose", "'transpose' must "
				    "be a permutation of 0 to %d", n - 1);
			seen[p] = true;
			perm[k] = (int)p;
		}
	}
	for (k = 0; b->block && k < b->order; k++)
		if (perm[b->order + k] != b->order + perm[k])
			return bad(r, "transpose", "a block tensor's "
			    "'transpose' must move each block mode k with "
			    "its elements' mode %d + k", b->order);
	memcpy(b->perm, perm, sizeof(int) * (size_t)b->order);
	return 0;
}

/*
 * The shape sh the levels describe, into b: the tensor's dimensions;
 * a block tensor's grid and its blocks' shape, whose elements the
 * stored values count (nnz becomes its blocks).
 */
static int
blocks(const struct rd *r, struct ts_bsp *b, const uint64_t *sh)
{
	uint64_t vol = 1, dim;
	int k;

	for (k = 0; k < b->order; k++)
		b->shape[k] = sh[k];
	if (!b->block)
		return 0;
	for (k = 0; k < b->order; k++) {
		b->bshape[k] = sh[b->order + k];
		if (sh[k] == 0 || b->bshape[k] == 0 || !ts_mul_u64(sh[k],
		    b->bshape[k], &dim) || dim > (uint64_t)INT64_MAX ||
		    !ts_mul_u64(vol, b->bshape[k], &vol))
			return bad(r, "shape", "a block tensor's 'shape': mode "
			    "%d of %llu blocks of %llu is not a dimension", k +
			    1, (unsigned long long)sh[k],
			    (unsigned long long)b->bshape[k]);
	}
	if (b->nnz % vol != 0)
		return bad(r, "number_of_stored_values", "'number_of_stored_"
		    "values' (%llu) is not a number of blocks of %llu "
		    "elements", (unsigned long long)b->nnz,
		    (unsigned long long)vol);
	b->nnz /= vol;
	return 0;
}

static int
parse(const struct rd *r, json_t *root, struct ts_bsp *b)
{
	json_t *bs = json_object_get(root, "binsparse"), *v, *dt, *c;
	uint64_t sh[2 * TS_MAXORDER];
	const char *s, *key;
	char name[32];
	size_t k;
	int n;

	if (json_is_object(bs)) {
		json_t *attrs = json_deep_copy(root);

		json_object_del(attrs, "binsparse");
		if (json_object_size(attrs) > 0)
			b->attrs = json_dumps(attrs, JSON_PRESERVE_ORDER |
			    JSON_COMPACT);
		json_decref(attrs);
	} else if (bs != NULL)
		return bad(r, "binsparse", "'binsparse' must be an object");
	else
		bs = root;
	s = json_string_value(json_object_get(bs, "version"));
	if (s == NULL)
		return bad(r, "version", "no 'version' string");
	if (strcmp(s, "0.1") != 0 && strcmp(s, "0.1.0") != 0)
		return bad(r, "version", "version '%s' is not read (0.1 is)",
		    s);
	/* A block tensor's (custom) has twice the dimensions: read, then
	 * checked once the levels say what they are. */
	v = json_object_get(bs, "shape");
	if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v)
	    > 2 * TS_MAXORDER)
		return bad(r, "shape", "'shape' must be an array of 1 to %d "
		    "dimensions", TS_MAXORDER);
	n = (int)json_array_size(v);
	for (k = 0; k < (size_t)n; k++)
		if (get_u64(r, json_array_get(v, k), "shape", &sh[k]) != 0)
			return -1;
	b->order = n <= TS_MAXORDER ? n : 0;
	for (k = 0; k < TS_MAXORDER; k++)
		b->perm[k] = (int)k;
	if (get_u64(r, json_object_get(bs, "number_of_stored_values"),
	    "number_of_stored_values", &b->nnz) != 0)
		return -1;
	v = json_object_get(bs, "format");
	c = json_object_get(bs, "custom");
	if (json_is_object(v)) {
		c = json_object_get(v, "custom");
		if (c == NULL)
			return bad(r, "format", "a 'format' object holds "
			    "'custom'");
	} else if (v != NULL) {
		if ((s = json_string_value(v)) == NULL)
			return bad(r, "format", "'format' must be a string");
		if (strcmp(s, "custom") == 0) {
			if (c == NULL)
				return bad(r, "format", "format 'custom' "
				    "without a 'custom' key");
		} else if (strcmp(s, "COO") == 0 || strcmp(s, "COOR") == 0 ||
		    strcmp(s, "COOC") == 0) {
			if (b->order != 2)
				return bad(r, "shape", "format '%s' is a "
				    "matrix's: 'shape' has %d dimensions", s,
				    n);
			if (strcmp(s, "COOC") == 0)
				b->perm[0] = 1, b->perm[1] = 0;
			c = NULL;
		} else if (strcmp(s, "CVEC") == 0) {
			if (b->order != 1)
				return bad(r, "shape", "format 'CVEC' is a "
				    "vector's: 'shape' has %d dimensions", n);
			c = NULL;
		} else
			return bad(r, "format", "format '%s' is not read (COO, "
			    "COOR, COOC, CVEC and a custom sparse level over an "
			    "element level are)", s);
	} else if (c == NULL)
		return bad(r, "binsparse", "no 'format' and no 'custom' key");
	if (c != NULL && custom(r, c, b, n) != 0)
		return -1;
	if (!b->block && n > TS_MAXORDER)
		return bad(r, "shape", "'shape' must be an array of 1 to %d "
		    "dimensions", TS_MAXORDER);
	if (blocks(r, b, sh) != 0)
		return -1;
	if (json_is_true(json_object_get(bs, "fill")))
		return bad(r, "fill", "a 'fill' value is not read");
	if ((v = json_object_get(bs, "structure")) != NULL)
		return bad(r, "structure", "a 'structure' ('%s') is not read",
		    json_is_string(v) ? json_string_value(v) : "?");
	dt = json_object_get(bs, "data_types");
	if (!json_is_object(dt))
		return bad(r, "data_types", "no 'data_types' object");
	for (k = 0; k < (size_t)b->order; k++) {
		snprintf(name, sizeof(name), "indices_%zu", k);
		if (get_type(r, dt, name, &b->itype[k], NULL) != 0)
			return -1;
	}
	if (get_type(r, dt, "values", &b->vtype, &b->iso) != 0)
		return -1;
	if (b->block && !b->iso)
		return bad(r, "values", "a block tensor's values are read only "
		    "when iso (TensorSuite's block tensors hold none)");
	json_object_foreach(dt, key, v)
		if (strncmp(key, "pointers_to_", 12) == 0)
			return bad(r, key, "'%s': a format of pointers is not "
			    "read", key);
	return 0;
}

int
ts_bsp_parse(struct ts_bsp *b, const char *text, size_t len,
    const char *file, struct ts_diags *d)
{
	struct rd r = { text, len, file, d };
	json_error_t err;
	json_t *root;
	int rv;

	memset(b, 0, sizeof(*b));
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (root == NULL) {
		ts_diag(d, TS_SEV_ERROR, file, err.line > 0 ? (uint64_t)err.line
		    : 1, err.column > 0 ? (uint64_t)err.column : 0,
		    TS_RULE_NONE, "binsparse descriptor: %s", err.text);
		return -1;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return bad(&r, NULL, "not a JSON object");
	}
	rv = parse(&r, root, b);
	json_decref(root);
	if (rv != 0)
		ts_bsp_free(b);
	return rv;
}

/* The most sections of a mode read: a grid's partition lines are
 * kept whole (struct ts_header's extents). */
#define SECTIONS_MAX	((uint64_t)1 << 26)

int
ts_bsp_decoder_header(struct ts_decoder *dec, const struct ts_bsp *b)
{
	struct ts_header *h = &dec->h;
	uint64_t vol = 1, i;
	int k;

	h->order = b->order;
	h->nnz = b->nnz;
	h->nnz_known = h->dims_known = true;
	h->base = 0;
	memcpy(h->dims, b->shape, sizeof(b->shape[0]) * (size_t)b->order);
	dec->lay.block = b->block;
	if (!b->block)
		return 0;
	if (dec->lay.values != 0) {
		ts_diag(dec->d, TS_SEV_ERROR, dec->file, 0, 0, TS_RULE_NONE,
		    "a block tensor's iso value must be 1 (TensorSuite's "
		    "block tensors hold no values)");
		return -1;
	}
	for (k = 0; k < b->order; k++)
		if (b->shape[k] > SECTIONS_MAX) {
			ts_diag(dec->d, TS_SEV_ERROR, dec->file, 0, 0,
			    TS_RULE_NONE, "the grid of blocks has %llu "
			    "sections in mode %d; at most %llu are read",
			    (unsigned long long)b->shape[k], k + 1,
			    (unsigned long long)SECTIONS_MAX);
			return -1;
		}
	h->block = true;
	h->nnz_block = b->nnz;
	for (k = 0; k < b->order; k++) {
		h->parts[k] = b->shape[k];
		h->dims[k] = b->shape[k] * b->bshape[k];
		h->extents[k] = ts_xreallocarray(NULL, (size_t)h->parts[k],
		    sizeof(uint64_t));
		for (i = 0; i < h->parts[k]; i++)
			h->extents[k][i] = b->bshape[k];
		vol *= b->bshape[k];	/* below number_of_stored_values */
	}
	h->nnz = b->nnz * vol;
	return 0;
}

/*
 * The TensorSuite attributes beside the descriptor, when they are
 * metadata that describes this very tensor; anything else is left
 * with a note (another writer's attributes, or a file changed since).
 */
void
ts_bsp_decoder_meta(struct ts_decoder *dec, const struct ts_bsp *b)
{
	struct ts_diags *chk;
	struct ts_meta *m;
	const char *why = NULL;
	int k;

	if (b->attrs == NULL)
		return;
	m = ts_xcalloc(1, sizeof(*m));
	ts_meta_init(m);
	chk = ts_diags_new(1, false);
	ts_meta_parse(m, b->attrs, strlen(b->attrs), dec->file, chk);
	if (ts_diags_errors(chk) > 0)
		why = "they are not TensorSuite metadata";
	else if (m->order != dec->h.order || m->nnz != dec->h.nnz ||
	    (m->sparsity == TS_SPARSITY_BLOCK) != dec->h.block ||
	    (dec->h.block && m->nnz_block != dec->h.nnz_block))
		why = "their order, nnz or sparsity is not the file's";
	else if (m->values_provided != (dec->lay.values > 0) ||
	    (m->values_provided && m->value_type != dec->lay.vtype))
		why = "their values are not the file's";
	for (k = 0; why == NULL && k < dec->h.order; k++)
		if (m->dims[k] != dec->h.dims[k] || (dec->h.block &&
		    m->parts[k] != dec->h.parts[k]))
			why = "their dimensions are not the file's";
	ts_diags_free(chk);
	if (why != NULL) {
		ts_diag(dec->d, TS_SEV_NOTE, dec->file, 0, 0, TS_RULE_NONE,
		    "the attributes beside the binsparse descriptor are not "
		    "read: %s", why);
		ts_meta_free(m);
		free(m);
		return;
	}
	dec->meta = m;
	if (m->name != NULL)
		dec->h.name = ts_xstrdup(m->name);
}
