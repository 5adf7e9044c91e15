/*
 * upgrade.c - metadata of the reference generator's previous profile
 * (tensorsuite(5) HISTORY), made 0.1: 'id' a number, 'sort_order'
 * 0-based, and 'source_url', 'dense_modes', 'block_partitions',
 * 'nnz_block' missing.  Each change is one note, located at the
 * metadata file, with the rule it makes the key satisfy; what cannot
 * be told from the metadata alone (the dense modes of a semi-sparse
 * tensor, the partitions of a block one) is left for the checks to
 * refuse as they would.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "model/model.h"
#include "util/xalloc.h"

struct up {
	const char	*file;
	struct ts_diags	*d;
	json_t		*root;
	int		 changes;
};

static void	changed(struct up *, enum ts_rule, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
changed(struct up *u, enum ts_rule rule, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ts_vdiag(u->d, TS_SEV_NOTE, u->file, 0, 0, -1, rule, fmt, ap);
	va_end(ap);
	u->changes++;
}

/* A numeric id of at most four digits: the string of four. */
static void
id(struct up *u)
{
	json_t *v = json_object_get(u->root, "id");
	json_int_t n;
	char s[8];

	if (!json_is_integer(v) || (n = json_integer_value(v)) < 0 ||
	    n > 9999)
		return;
	snprintf(s, sizeof(s), "%04d", (int)n);
	changed(u, TS_RULE_M1, "upgraded: 'id' %d, a number, is now the "
	    "string \"%s\"", (int)n, s);
	json_object_set_new(u->root, "id", json_string(s));
}

/* A 0-based permutation of the modes: 1-based. */
static void
sort_order(struct up *u)
{
	json_t *a = json_object_get(u->root, "sort_order"), *v;
	json_t *order = json_object_get(u->root, "order");
	bool seen[TS_MAXORDER] = { false };
	size_t i, n = json_array_size(a);
	json_int_t k;

	if (!json_is_array(a) || n == 0 || !json_is_integer(order) ||
	    json_integer_value(order) != (json_int_t)n || n > TS_MAXORDER)
		return;
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || (k = json_integer_value(v)) < 0 ||
		    k >= (json_int_t)n || seen[k])
			return;
		seen[k] = true;
	}
	json_array_foreach(a, i, v)
		json_integer_set(v, json_integer_value(v) + 1);
	changed(u, TS_RULE_M9, "upgraded: 'sort_order', 0-based, is now "
	    "1-based (each mode plus 1)");
}

/* A missing key whose value the others tell. */
static void
missing(struct up *u)
{
	json_t *r = u->root, *v;
	const char *sp = json_string_value(json_object_get(r, "sparsity_type"));
	json_t *order = json_object_get(r, "order");
	bool block = sp != NULL && strcmp(sp, "block") == 0;
	json_int_t k;

	if (json_object_get(r, "source_url") == NULL) {
		json_object_set_new(r, "source_url", json_string(""));
		changed(u, TS_RULE_M1, "upgraded: 'source_url' was missing; "
		    "it is \"\" (none)");
	}
	if (json_object_get(r, "dense_modes") == NULL && sp != NULL &&
	    (strcmp(sp, "element") == 0 || block)) {
		json_object_set_new(r, "dense_modes", json_array());
		changed(u, TS_RULE_M6, "upgraded: 'dense_modes' was missing; "
		    "it is [], as sparsity_type '%s' has it", sp);
	} else if (json_object_get(r, "dense_modes") == NULL && sp != NULL &&
	    strcmp(sp, "no") == 0 && json_is_integer(order) &&
	    json_integer_value(order) >= 1 &&
	    json_integer_value(order) <= TS_MAXORDER) {
		v = json_array();
		for (k = 1; k <= json_integer_value(order); k++)
			json_array_append_new(v, json_integer(k));
		json_object_set_new(r, "dense_modes", v);
		changed(u, TS_RULE_M6, "upgraded: 'dense_modes' was missing; "
		    "it is every mode, as a dense tensor's");
	}
	if (sp == NULL || block)
		return;
	if (json_object_get(r, "block_partitions") == NULL) {
		json_object_set_new(r, "block_partitions", json_null());
		changed(u, TS_RULE_M7, "upgraded: 'block_partitions' was "
		    "missing; it is null, as sparsity_type '%s' has it", sp);
	}
	if (json_object_get(r, "nnz_block") == NULL) {
		json_object_set_new(r, "nnz_block", json_null());
		changed(u, TS_RULE_M7, "upgraded: 'nnz_block' was missing; it "
		    "is null, as sparsity_type '%s' has it", sp);
	}
}

char *
ts_meta_upgrade(const char *text, size_t len, const char *file,
    struct ts_diags *d, int *changes)
{
	struct up u;
	json_error_t err;
	char *out;

	*changes = 0;
	u.root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!json_is_object(u.root)) {
		/* Not JSON, or not an object: the parse says what. */
		json_decref(u.root);
		return NULL;
	}
	u.file = file;
	u.d = d;
	u.changes = 0;
	id(&u);
	sort_order(&u);
	missing(&u);
	out = json_dumps(u.root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(u.root);
	if (out == NULL)
		ts_xoom(len);
	*changes = u.changes;
	return out;
}
