/*
 * meta_write.c - the canonical form of the metadata (SPEC M2): keys in
 * the order of the table, two-space indent, arrays of numbers on one
 * line, files as a nested object, unknown keys kept after the known
 * ones, each value on one line.  Two writes of the same metadata are
 * byte-identical.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "model/model.h"
#include "util/xalloc.h"

struct sbuf {
	char	*s;
	size_t	 n, cap;
};

static void
sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		while (b->n + n + 1 > b->cap)
			b->cap = b->cap ? 2 * b->cap : 1024;
		b->s = ts_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/*
 * A value on one line, as [1, 2, 3] is written: an unknown value kept
 * indented would grow with the square of its depth (a 13 kB file nested
 * 2,046 deep became 25 MB, past what a reader takes).
 */
static void
sb_json(struct sbuf *b, json_t *v)
{
	char *t = json_dumps(v, JSON_ENCODE_ANY);

	if (t == NULL)
		ts_xoom(0);	/* jansson fails only out of memory */
	sb_puts(b, t);
	free(t);
}

static void
sb_str(struct sbuf *b, const char *s)
{
	json_t *j = json_string(s ? s : "");

	if (j == NULL)
		j = json_string("");
	sb_json(b, j);
	json_decref(j);
}

static void
sb_key(struct sbuf *b, const char *k, bool first)
{
	sb_puts(b, first ? "  \"" : ",\n  \"");
	sb_puts(b, k);
	sb_puts(b, "\": ");
}

static void
sb_u64(struct sbuf *b, uint64_t v)
{
	char buf[TS_NUMBUF];

	sb_put(b, buf, (size_t)ts_fmt_u64(buf, v));
}

static void
sb_u64s(struct sbuf *b, const uint64_t *v, int n)
{
	int i;

	sb_puts(b, "[");
	for (i = 0; i < n; i++) {
		if (i)
			sb_puts(b, ", ");
		sb_u64(b, v[i]);
	}
	sb_puts(b, "]");
}

static void
sb_modes(struct sbuf *b, const int *v, int n)
{
	uint64_t t[TS_MAXORDER];
	int i;

	for (i = 0; i < n; i++)
		t[i] = (uint64_t)v[i] + 1;
	sb_u64s(b, t, n);
}

char *
ts_meta_canonical(const struct ts_meta *m)
{
	struct sbuf b = { NULL, 0, 0 };
	const char *k;
	json_t *v;
	bool first = true;

	sb_puts(&b, "{\n");
	sb_key(&b, "version", true);
	sb_str(&b, m->version ? m->version : TS_FORMAT);
	sb_key(&b, "name", false);
	sb_str(&b, m->name);
	sb_key(&b, "group", false);
	sb_str(&b, m->group);
	sb_key(&b, "id", false);
	sb_str(&b, m->id);
	sb_key(&b, "time", false);
	sb_str(&b, m->time);
	sb_key(&b, "source_type", false);
	sb_str(&b, m->source_type);
	sb_key(&b, "source", false);
	sb_str(&b, m->source);
	sb_key(&b, "source_url", false);
	sb_str(&b, m->source_url);
	sb_key(&b, "value_type", false);
	sb_str(&b, ts_vtype_name(m->value_type));
	sb_key(&b, "value_domain", false);
	sb_str(&b, ts_domain_names[m->value_domain]);
	sb_key(&b, "values_provided", false);
	sb_puts(&b, m->values_provided ? "true" : "false");
	sb_key(&b, "index_type", false);
	sb_str(&b, ts_itype_names[m->index_type]);
	sb_key(&b, "index_base", false);
	sb_puts(&b, m->index_base ? "1" : "0");
	sb_key(&b, "sorted", false);
	sb_str(&b, m->sorted ? "lexicographic" : "none");
	sb_key(&b, "sort_order", false);
	sb_modes(&b, m->sort_order, m->sorted ? m->nsort : 0);
	sb_key(&b, "duplicates", false);
	sb_str(&b, m->dups_allowed ? "allowed" : "disallowed");
	sb_key(&b, "explicit_zeros", false);
	sb_str(&b, m->zeros_allowed ? "allowed" : "disallowed");
	sb_key(&b, "pattern_symmetry", false);
	sb_str(&b, ts_sym_names[m->psym]);
	sb_key(&b, "numerical_symmetry", false);
	sb_str(&b, ts_sym_names[m->nsym]);
	sb_key(&b, "sparsity_type", false);
	sb_str(&b, ts_sparsity_names[m->sparsity]);
	sb_key(&b, "dense_modes", false);
	sb_modes(&b, m->dense_modes, m->ndense);
	sb_key(&b, "endianness", false);
	sb_str(&b, ts_endian_names[m->endianness]);
	sb_key(&b, "order", false);
	sb_u64(&b, (uint64_t)m->order);
	sb_key(&b, "dimensions", false);
	sb_u64s(&b, m->dims, m->order);
	sb_key(&b, "nnz", false);
	sb_u64(&b, m->nnz);
	sb_key(&b, "block_partitions", false);
	if (m->sparsity == TS_SPARSITY_BLOCK)
		sb_u64s(&b, m->parts, m->order);
	else
		sb_puts(&b, "null");
	sb_key(&b, "nnz_block", false);
	if (m->sparsity == TS_SPARSITY_BLOCK)
		sb_u64(&b, m->nnz_block);
	else
		sb_puts(&b, "null");
	sb_key(&b, "files", false);
	sb_puts(&b, "{");
	if (m->f_text) {
		sb_puts(&b, "\n    \"text\": ");
		sb_str(&b, m->f_text);
		first = false;
	}
	if (m->f_binary) {
		sb_puts(&b, first ? "\n    \"binary\": " :
		    ",\n    \"binary\": ");
		sb_str(&b, m->f_binary);
		first = false;
	}
	if (m->f_readme) {
		sb_puts(&b, first ? "\n    \"readme\": " :
		    ",\n    \"readme\": ");
		sb_str(&b, m->f_readme);
		first = false;
	}
	if (m->f_other)
		json_object_foreach((json_t *)m->f_other, k, v) {
			sb_puts(&b, first ? "\n    " : ",\n    ");
			sb_str(&b, k);
			sb_puts(&b, ": ");
			sb_json(&b, v);
			first = false;
		}
	sb_puts(&b, first ? "}" : "\n  }");
	if (m->unknown)
		json_object_foreach((json_t *)m->unknown, k, v) {
			sb_puts(&b, ",\n  ");
			sb_str(&b, k);
			sb_puts(&b, ": ");
			sb_json(&b, v);
		}
	sb_puts(&b, "\n}\n");
	return b.s;
}
