/*
 * config.c - --config FILE.yaml: the configuration files of the
 * reference generators (tensorworld/TensorSuite-Code, SynTensorGen/):
 * element-wise/random's (generator.type random) and KronWeave's (zipf,
 * cp_fastskg, fastskg), read with libyaml and turned into the request
 * they make, so that ts-gen writes the bundle the reference would: its
 * name, where it goes, its attribute choices, its copy of the
 * configuration, with the statistics of its model.
 *
 * Every key is looked up in a table of its section: an unknown one is a
 * warning, a bad value an error at its line and column, named by its
 * path ("tensor.sizes").
 */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "part.h"
#include "util/path.h"
#include "util/xalloc.h"

#define MAXLIST	TS_MAXORDER

/* A list of numbers as a key gives it: one, or a sequence. */
struct nlist {
	int		 n;
	double		 v[MAXLIST];
	yaml_mark_t	 at;
};

/* What the file says; -1 (or n 0, NULL) for what it does not.  The
 * strings are the document's, gone with it. */
struct cfgval {
	const char	*name, *output_dir;
	int		 values;		/* values_provided */
	const char	*type;			/* generator.type */
	yaml_mark_t	 type_at;
	int		 has_seed;
	uint64_t	 seed;
	struct nlist	 sizes;
	int		 has_nnz;
	uint64_t	 nnz;
	int		 index_base;
	struct nlist	 low, high, alpha;
	/* seed (or meta_seed) */
	const char	*source, *input_tns;
	yaml_mark_t	 source_at, input_at;
	struct nlist	 seed_sizes;
	struct nlist	 cpd_sizes, cpd_alpha;
	int		 cpd_rank, lambda_none;
	double		 cpd_noise;
	int		 has_cpd;
	int		 expand_iter;
	int		 iter;
	int		 has_fnnz;
	uint64_t	 fnnz;
	/* format */
	int		 itype, endian, sorted, zeros, domain;
	struct nlist	 sorted_order;
	/* value */
	int		 vtype, vmode;
	double		 vconst, vlow, vhigh, vmean, vstd, vclip;
	/* duplicates, output */
	int		 dups;
	int		 write_tns, write_tnsb, write_meta, write_readme;
	int		 copy_config;
};

struct cfg {
	const char	*path;
	yaml_document_t	 doc;
	struct ts_diags	*d;
	struct cfgval	 v;
};

struct key {
	const char	*name;
	/* a value's handler, or NULL for a section ... */
	void		(*fn)(struct cfg *, const char *path, yaml_node_t *);
	/* ... of these keys */
	const struct key *sub;
};

static void
err(struct cfg *c, yaml_mark_t at, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
err(struct cfg *c, yaml_mark_t at, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ts_diag(c->d, TS_SEV_ERROR, c->path, at.line + 1, at.column + 1,
	    TS_RULE_NONE, "'%s': %s", path, msg);
}

/* ---- scalars ---- */

/* The text of a scalar that is not null; else NULL (said, unless
 * null is what it is). */
static const char *
text(struct cfg *c, const char *path, yaml_node_t *v)
{
	const char *s;

	if (v->type != YAML_SCALAR_NODE) {
		err(c, v->start_mark, path, "a value, not a %s, is expected",
		    v->type == YAML_MAPPING_NODE ? "mapping" : "list");
		return NULL;
	}
	s = (const char *)v->data.scalar.value;
	if (v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && (*s == '\0' ||
	    strcmp(s, "~") == 0 || strcasecmp(s, "null") == 0))
		return NULL;
	return s;
}

static bool
is_plain(const yaml_node_t *v)
{
	return v->type == YAML_SCALAR_NODE &&
	    v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* YAML 1.1's booleans, as PyYAML reads them. */
static int
boolean(struct cfg *c, const char *path, yaml_node_t *v)
{
	static const char *const t[] = { "true", "yes", "on", NULL };
	static const char *const f[] = { "false", "no", "off", NULL };
	const char *s = text(c, path, v);
	int i;

	if (s != NULL && is_plain(v))
		for (i = 0; t[i] != NULL; i++) {
			if (strcasecmp(s, t[i]) == 0)
				return 1;
			if (strcasecmp(s, f[i]) == 0)
				return 0;
		}
	if (s != NULL)
		err(c, v->start_mark, path, "'%s' is not true or false", s);
	return -1;
}

static bool
integer(struct cfg *c, const char *path, yaml_node_t *v, int64_t lo,
    int64_t hi, int64_t *out)
{
	const char *s = text(c, path, v);
	long long x;
	char *end;

	if (s == NULL)
		return false;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (!is_plain(v) || *s == '\0' || *end != '\0' || errno != 0 ||
	    x < lo || x > hi) {
		err(c, v->start_mark, path, "'%s' is not an integer from %lld "
		    "to %lld", s, (long long)lo, (long long)hi);
		return false;
	}
	*out = x;
	return true;
}

static bool
number(struct cfg *c, const char *path, yaml_node_t *v, double *out)
{
	const char *s = text(c, path, v), *e;

	if (s == NULL)
		return false;
	e = s + strlen(s);
	if (!is_plain(v) || *s == '\0' || ts_parse_double(s, e, out) != e ||
	    !isfinite(*out)) {
		err(c, v->start_mark, path, "'%s' is not a number", s);
		return false;
	}
	return true;
}

/* One of words: its index, or -1 (said). */
static int
word(struct cfg *c, const char *path, yaml_node_t *v,
    const char *const *words)
{
	const char *s = text(c, path, v);
	char all[256] = "";
	int i;

	if (s == NULL)
		return -1;
	for (i = 0; words[i] != NULL; i++) {
		if (strcmp(s, words[i]) == 0)
			return i;
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
		    i ? ", " : "", words[i]);
	}
	err(c, v->start_mark, path, "'%s': expected one of %s", s, all);
	return -1;
}

/* A number, or a list of them: into l. */
static void
numbers(struct cfg *c, const char *path, yaml_node_t *v, struct nlist *l)
{
	yaml_node_item_t *it;
	char p[128];

	l->n = 0;
	l->at = v->start_mark;
	if (v->type != YAML_SEQUENCE_NODE) {
		if (number(c, path, v, &l->v[0]))
			l->n = 1;
		return;
	}
	for (it = v->data.sequence.items.start; it <
	    v->data.sequence.items.top; it++) {
		if (l->n == MAXLIST) {
			err(c, v->start_mark, path, "more than %d values",
			    MAXLIST);
			l->n = 0;
			return;
		}
		snprintf(p, sizeof(p), "%s[%d]", path, l->n);
		if (!number(c, p, yaml_document_get_node(&c->doc, *it),
		    &l->v[l->n])) {
			l->n = 0;
			return;
		}
		l->n++;
	}
	if (l->n == 0)
		err(c, v->start_mark, path, "an empty list");
}

/* A list of integers from lo on (numbers that are integers). */
static void
integers(struct cfg *c, const char *path, yaml_node_t *v, double lo,
    struct nlist *l)
{
	int i;

	numbers(c, path, v, l);
	for (i = 0; i < l->n; i++)
		if (l->v[i] != floor(l->v[i]) || l->v[i] < lo ||
		    l->v[i] > 0x1p62) {
			err(c, v->start_mark, path, "%.17g is not an integer "
			    "of %g or more", l->v[i], lo);
			l->n = 0;
			return;
		}
}

/* ---- the keys ---- */


#define V(c)	(&(c)->v)

static void
k_name(struct cfg *c, const char *p, yaml_node_t *v)
{
	V(c)->name = text(c, p, v);
}

static void
k_output_dir(struct cfg *c, const char *p, yaml_node_t *v)
{
	V(c)->output_dir = text(c, p, v);
}

static void
k_values(struct cfg *c, const char *p, yaml_node_t *v)
{
	int b = boolean(c, p, v);

	if (b >= 0 && V(c)->values >= 0 && V(c)->values != b)
		err(c, v->start_mark, p, "provide_value and values_provided "
		    "disagree");
	else if (b >= 0)
		V(c)->values = b;
}

static void
k_type(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const types[] = { "random", "zipf", "cp_fastskg",
	    "fastskg", NULL };
	int t = word(c, p, v, types);

	if (t >= 0) {
		V(c)->type = types[t];
		V(c)->type_at = v->start_mark;
	}
}

static void
k_random_seed(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (text(c, p, v) != NULL && integer(c, p, v, 0, INT64_MAX, &x)) {
		V(c)->seed = (uint64_t)x;
		V(c)->has_seed = 1;
	}
}

static void
k_sizes(struct cfg *c, const char *p, yaml_node_t *v)
{
	integers(c, p, v, 1, &V(c)->sizes);
}

static void
k_nnz(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (text(c, p, v) != NULL && integer(c, p, v, 1, INT64_MAX, &x)) {
		V(c)->nnz = (uint64_t)x;
		V(c)->has_nnz = 1;
	}
}

static void
k_index_base(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (integer(c, p, v, 0, 1, &x))
		V(c)->index_base = (int)x;
}

static void
k_low(struct cfg *c, const char *p, yaml_node_t *v)
{
	numbers(c, p, v, &V(c)->low);
}

static void
k_high(struct cfg *c, const char *p, yaml_node_t *v)
{
	numbers(c, p, v, &V(c)->high);
}

static void
k_alpha(struct cfg *c, const char *p, yaml_node_t *v)
{
	numbers(c, p, v, &V(c)->alpha);
}

static void
k_source(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const s[] = { "cpd", "input_tns", "kp_from_meta",
	    NULL };
	int i = word(c, p, v, s);

	if (i >= 0) {
		V(c)->source = s[i];
		V(c)->source_at = v->start_mark;
	}
}

static void
k_input_tns(struct cfg *c, const char *p, yaml_node_t *v)
{
	V(c)->input_tns = text(c, p, v);
	V(c)->input_at = v->start_mark;
}

static void
k_seed_sizes(struct cfg *c, const char *p, yaml_node_t *v)
{
	integers(c, p, v, 1, &V(c)->seed_sizes);
}

static void
k_expand_iter(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (integer(c, p, v, 1, 64, &x))
		V(c)->expand_iter = (int)x;
}

static void
k_cpd_sizes(struct cfg *c, const char *p, yaml_node_t *v)
{
	integers(c, p, v, 1, &V(c)->cpd_sizes);
	V(c)->has_cpd = 1;
}

static void
k_cpd_rank(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (integer(c, p, v, 1, 1024, &x))
		V(c)->cpd_rank = (int)x;
}

static void
k_cpd_alpha(struct cfg *c, const char *p, yaml_node_t *v)
{
	numbers(c, p, v, &V(c)->cpd_alpha);
}

static void
k_cpd_noise(struct cfg *c, const char *p, yaml_node_t *v)
{
	if (number(c, p, v, &V(c)->cpd_noise) && V(c)->cpd_noise < 0)
		err(c, v->start_mark, p, "is at least 0");
}

static void
k_cpd_lambda(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const l[] = { "softmax", "none", NULL };

	V(c)->lambda_none = word(c, p, v, l);
}

static void
k_iter(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (integer(c, p, v, 1, 64, &x))
		V(c)->iter = (int)x;
}

static void
k_fnnz(struct cfg *c, const char *p, yaml_node_t *v)
{
	int64_t x;

	if (text(c, p, v) != NULL && integer(c, p, v, 1, INT64_MAX, &x)) {
		V(c)->fnnz = (uint64_t)x;
		V(c)->has_fnnz = 1;
	}
}

static void
k_storage(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const s[] = { "coordinate", NULL };

	word(c, p, v, s);
}

static void
k_index_type(struct cfg *c, const char *p, yaml_node_t *v)
{
	const char *w[TS_ITYPE_UINT64 + 2];
	int i;

	for (i = 0; i <= TS_ITYPE_UINT64; i++)
		w[i] = ts_itype_name((enum ts_itype)i);
	w[i] = NULL;
	V(c)->itype = word(c, p, v, w);
}

static void
k_endianness(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const e[] = { "little", "big", NULL };
	int i = word(c, p, v, e);

	if (i >= 0)
		V(c)->endian = i == 0 ? TS_ENDIAN_LITTLE : TS_ENDIAN_BIG;
}

static void
k_sorted(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const s[] = { "none", "lexicographic", NULL };

	V(c)->sorted = word(c, p, v, s);
}

static void
k_sorted_order(struct cfg *c, const char *p, yaml_node_t *v)
{
	if (V(c)->sorted_order.n > 0) {
		err(c, v->start_mark, p, "sorted_order and sort_order are the "
		    "same key: give one");
		return;
	}
	if (v->type == YAML_SCALAR_NODE && text(c, p, v) == NULL)
		return;
	if (v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.start ==
	    v->data.sequence.items.top)
		return;		/* [] */
	integers(c, p, v, 0, &V(c)->sorted_order);
}

static void
k_zeros(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const z[] = { "disallowed", "allowed", NULL };

	V(c)->zeros = word(c, p, v, z);
}

/* Symmetry: "no", as the reference's v0.1 (YAML's no is false). */
static void
k_symmetry(struct cfg *c, const char *p, yaml_node_t *v)
{
	const char *s = text(c, p, v);

	if (s != NULL && strcmp(s, "no") != 0 && strcasecmp(s, "false") != 0)
		err(c, v->start_mark, p, "'%s': the reference's generators "
		    "make no symmetric tensor (expected no)", s);
}

static void
k_sparsity(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const s[] = { "element", NULL };

	word(c, p, v, s);
}

static void
k_dense_modes(struct cfg *c, const char *p, yaml_node_t *v)
{
	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.start !=
	    v->data.sequence.items.top)
		err(c, v->start_mark, p, "an element tensor has no dense "
		    "mode: expected []");
}

static void
k_value_domain(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const dm[] = { "general", "nonnegative", "binary",
	    NULL };

	V(c)->domain = word(c, p, v, dm);
}

static void
k_vtype(struct cfg *c, const char *p, yaml_node_t *v)
{
	const char *w[TS_VTYPE_COUNT + 1];
	int i;

	for (i = 0; i < TS_VTYPE_COUNT; i++)
		w[i] = ts_vtype_name((enum ts_vtype)i);
	w[i] = NULL;
	V(c)->vtype = word(c, p, v, w);
}

static void
k_vmode(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const m[] = { "constant", "uniform", "normal",
	    NULL };

	V(c)->vmode = word(c, p, v, m);
}

#define NUMKEY(fn, field)						\
static void								\
fn(struct cfg *c, const char *p, yaml_node_t *v)			\
{									\
	number(c, p, v, &V(c)->field);					\
}
NUMKEY(k_vconst, vconst)
NUMKEY(k_vlow, vlow)
NUMKEY(k_vhigh, vhigh)
NUMKEY(k_vmean, vmean)
NUMKEY(k_vstd, vstd)
NUMKEY(k_vclip, vclip)

static void
k_policy(struct cfg *c, const char *p, yaml_node_t *v)
{
	static const char *const d[] = { "allow", "keep", "sum", NULL };

	V(c)->dups = word(c, p, v, d);
}

#define BOOLKEY(fn, field)						\
static void								\
fn(struct cfg *c, const char *p, yaml_node_t *v)			\
{									\
	V(c)->field = boolean(c, p, v);					\
}
BOOLKEY(k_write_tns, write_tns)
BOOLKEY(k_write_tnsb, write_tnsb)
BOOLKEY(k_write_meta, write_meta)
BOOLKEY(k_write_readme, write_readme)
BOOLKEY(k_copy_config, copy_config)

static const struct key experiment_keys[] = {
	{ "name", k_name, NULL }, { NULL, NULL, NULL }
};
static const struct key generator_keys[] = {
	{ "type", k_type, NULL }, { "random_seed", k_random_seed, NULL },
	{ NULL, NULL, NULL }
};
static const struct key tensor_keys[] = {
	{ "sizes", k_sizes, NULL }, { "nnz", k_nnz, NULL },
	{ "index_base", k_index_base, NULL }, { NULL, NULL, NULL }
};
static const struct key random_keys[] = {
	{ "low", k_low, NULL }, { "high", k_high, NULL }, { NULL, NULL, NULL }
};
static const struct key zipf_keys[] = {
	{ "alpha", k_alpha, NULL }, { NULL, NULL, NULL }
};
static const struct key cpd_keys[] = {
	{ "sizes", k_cpd_sizes, NULL }, { "rank", k_cpd_rank, NULL },
	{ "alpha", k_cpd_alpha, NULL }, { "noise", k_cpd_noise, NULL },
	{ "lambda_controller", k_cpd_lambda, NULL }, { NULL, NULL, NULL }
};
static const struct key seed_keys[] = {
	{ "source", k_source, NULL }, { "input_tns", k_input_tns, NULL },
	{ "sizes", k_seed_sizes, NULL }, { "cpd", NULL, cpd_keys },
	{ "expand_iter", k_expand_iter, NULL }, { NULL, NULL, NULL }
};
static const struct key fastskg_keys[] = {
	{ "iter", k_iter, NULL }, { "nnz", k_fnnz, NULL }, { NULL, NULL, NULL }
};
static const struct key format_keys[] = {
	{ "storage", k_storage, NULL }, { "index_type", k_index_type, NULL },
	{ "endianness", k_endianness, NULL }, { "sorted", k_sorted, NULL },
	{ "sorted_order", k_sorted_order, NULL },
	{ "sort_order", k_sorted_order, NULL },
	{ "explicit_zeros", k_zeros, NULL },
	{ "pattern_symmetry", k_symmetry, NULL },
	{ "numerical_symmetry", k_symmetry, NULL },
	{ "sparsity_type", k_sparsity, NULL },
	{ "dense_modes", k_dense_modes, NULL },
	{ "value_domain", k_value_domain, NULL }, { NULL, NULL, NULL }
};
static const struct key value_keys[] = {
	{ "type", k_vtype, NULL }, { "mode", k_vmode, NULL },
	{ "constant", k_vconst, NULL }, { "low", k_vlow, NULL },
	{ "high", k_vhigh, NULL }, { "mean", k_vmean, NULL },
	{ "std", k_vstd, NULL }, { "clip", k_vclip, NULL },
	{ NULL, NULL, NULL }
};
static const struct key duplicates_keys[] = {
	{ "policy", k_policy, NULL }, { NULL, NULL, NULL }
};
static const struct key output_keys[] = {
	{ "write_tns", k_write_tns, NULL }, { "write_tnsb", k_write_tnsb, NULL },
	{ "write_metadata", k_write_meta, NULL },
	{ "write_readme", k_write_readme, NULL },
	{ "copy_config", k_copy_config, NULL }, { NULL, NULL, NULL }
};
static const struct key top_keys[] = {
	{ "name", k_name, NULL }, { "experiment", NULL, experiment_keys },
	{ "output_dir", k_output_dir, NULL },
	{ "provide_value", k_values, NULL },
	{ "values_provided", k_values, NULL },
	{ "generator", NULL, generator_keys },
	{ "tensor", NULL, tensor_keys }, { "random", NULL, random_keys },
	{ "zipf", NULL, zipf_keys }, { "seed", NULL, seed_keys },
	{ "meta_seed", NULL, seed_keys }, { "fastskg", NULL, fastskg_keys },
	{ "format", NULL, format_keys }, { "value", NULL, value_keys },
	{ "duplicates", NULL, duplicates_keys },
	{ "output", NULL, output_keys }, { NULL, NULL, NULL }
};

/* The keys of the mapping m (a section at path, "" at the top). */
static void
walk(struct cfg *c, yaml_node_t *m, const char *path, const struct key *t)
{
	yaml_node_pair_t *pr;
	yaml_node_t *k, *v;
	char p[256];
	int i;

	if (m->type != YAML_MAPPING_NODE) {
		if (*path == '\0' || text(c, path, m) != NULL)
			err(c, m->start_mark, *path ? path : c->path, "a "
			    "mapping of keys is expected");
		return;
	}
	for (pr = m->data.mapping.pairs.start; pr < m->data.mapping.pairs.top;
	    pr++) {
		k = yaml_document_get_node(&c->doc, pr->key);
		v = yaml_document_get_node(&c->doc, pr->value);
		if (k->type != YAML_SCALAR_NODE) {
			err(c, k->start_mark, path, "a key is a word");
			continue;
		}
		snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "",
		    (const char *)k->data.scalar.value);
		for (i = 0; t[i].name != NULL; i++)
			if (strcmp(t[i].name, (const char *)
			    k->data.scalar.value) == 0)
				break;
		if (t[i].name == NULL)
			ts_diag(c->d, TS_SEV_WARNING, c->path,
			    k->start_mark.line + 1, k->start_mark.column + 1,
			    TS_RULE_NONE, "unknown key '%s': ignored", p);
		else if (t[i].fn != NULL)
			t[i].fn(c, p, v);
		else
			walk(c, v, p, t[i].sub);
	}
}

/* ---- the request ---- */

/* A path of the file: as it is when absolute or found beside the
 * configuration file, else from the working directory (as the
 * reference resolves them). */
static char *
resolve(const struct cfg *c, const char *f)
{
	char *dir, *p;

	if (*f == '/')
		return ts_xstrdup(f);
	dir = ts_dirname(c->path);
	p = ts_xasprintf("%s/%s", dir, f);
	free(dir);
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return ts_xstrdup(f);
}

static void
to_list(const struct nlist *n, struct gen_list *l)
{
	l->n = n->n;
	memcpy(l->v, n->v, (size_t)n->n * sizeof(double));
}

/* The values: as the reference infers their domain from value.mode. */
static void
values(struct cfg *c, struct gen_part *p, yaml_mark_t at)
{
	const struct cfgval *v = V(c);
	struct fe_genvalues_opts *vo = &p->vo;
	int dom;

	p->values = v->values != 0 && v->dups != 2;
	switch (v->vmode) {
	case 1:		/* uniform */
		if (!(v->vlow < v->vhigh))
			err(c, at, "value.low", "must be below value.high");
		vo->dist = FE_GEN_DIST_UNIFORM;
		vo->has_range = true;
		vo->lo = v->vlow;
		vo->hi = v->vhigh;
		dom = v->vlow >= 0 ? TS_DOMAIN_NONNEGATIVE : TS_DOMAIN_GENERAL;
		break;
	case 2:		/* normal, clipped at clip deviations */
		if (!(v->vstd > 0) || !(v->vclip > 0))
			err(c, at, "value.std", "value.std and value.clip "
			    "must be above 0");
		vo->dist = FE_GEN_DIST_NORMAL;
		vo->has_mean = vo->has_std = vo->has_range = true;
		vo->mean = v->vmean;
		vo->std = v->vstd;
		vo->lo = v->vmean - v->vclip * v->vstd;
		vo->hi = v->vmean + v->vclip * v->vstd;
		dom = TS_DOMAIN_GENERAL;
		break;
	default:	/* constant: 1 is binary */
		if (v->vconst == 1)
			dom = TS_DOMAIN_BINARY;
		else {
			vo->dist = FE_GEN_DIST_CONSTANT;
			vo->has_value = true;
			vo->value = v->vconst;
			vo->value_int = v->vconst == floor(v->vconst) &&
			    fabs(v->vconst) < 0x1p62;
			vo->ivalue = vo->value_int ? (int64_t)v->vconst : 0;
			dom = v->vconst >= 0 ? TS_DOMAIN_NONNEGATIVE :
			    TS_DOMAIN_GENERAL;
		}
		if (v->vconst == 0 && v->zeros != 1 && p->values)
			err(c, at, "value.constant", "0, and explicit zeros "
			    "disallowed: no entry would be left");
		break;
	}
	if (v->domain >= 0 && v->domain != dom)
		err(c, at, "format.value_domain", "the values of value.mode "
		    "are %s", ts_domain_name((enum ts_domain)dom));
	vo->domain = dom;
	vo->zeros = v->zeros == 1;
	p->vtype = v->vtype >= 0 ? v->vtype : TS_VTYPE_FLOAT64;
}

/* The model of generator.type, its parameters checked. */
static void
model(struct cfg *c, struct gen_part *p)
{
	const struct cfgval *v = V(c);
	struct gen_opts *o = &p->g.o;
	yaml_mark_t top = { 0, 0, 0 };
	bool kron = strcmp(v->type, "cp_fastskg") == 0 ||
	    strcmp(v->type, "fastskg") == 0;
	int k;

	for (k = 0; gen_models[k] != NULL; k++)
		if (strcmp(gen_models[k]->name, kron ? "kronecker" : v->type) ==
		    0)
			o->model = k;
	o->order = v->sizes.n;
	for (k = 0; k < v->sizes.n; k++)
		o->dims[k] = (uint64_t)v->sizes.v[k];
	o->has_nnz = v->has_nnz;
	o->nnz = v->nnz;
	if (!kron) {
		if (v->sizes.n == 0)
			err(c, top, "tensor.sizes", "is required");
		if (!v->has_nnz)
			err(c, top, "tensor.nnz", "is required");
		to_list(&v->low, &o->low);
		to_list(&v->high, &o->high);
		to_list(&v->alpha, &o->alpha);
		for (k = 0; k < v->alpha.n; k++)
			if (!(v->alpha.v[k] > 1))
				err(c, v->alpha.at, "zipf.alpha", "%g: the "
				    "exponents are above 1", v->alpha.v[k]);
		if (v->alpha.n > 1 && v->alpha.n != v->sizes.n)
			err(c, v->alpha.at, "zipf.alpha", "one exponent, or "
			    "one a mode of tensor.sizes");
		return;
	}
	if (v->iter <= 0)
		err(c, top, "fastskg.iter", "is required");
	o->levels = v->iter;
	if (v->has_fnnz) {
		o->has_nnz = true;
		o->nnz = v->fnnz;
	}
	if (v->source == NULL) {
		err(c, top, "seed.source", "is required");
		return;
	}
	if (strcmp(v->type, "cp_fastskg") == 0) {
		if (strcmp(v->source, "cpd") != 0 || !v->has_cpd) {
			err(c, v->source_at, "seed.source", "generator.type "
			    "cp_fastskg takes seed.source cpd and seed.cpd");
			return;
		}
		o->cp_rank = v->cpd_rank > 0 ? v->cpd_rank : 1;
		o->ncp_dims = v->cpd_sizes.n;
		for (k = 0; k < v->cpd_sizes.n; k++)
			o->cp_dims[k] = (uint64_t)v->cpd_sizes.v[k];
		to_list(&v->cpd_alpha, &o->cp_alpha);
		if (v->cpd_alpha.n > 1 && v->cpd_alpha.n != v->cpd_sizes.n)
			err(c, v->cpd_alpha.at, "seed.cpd.alpha", "one "
			    "exponent, or one a mode of seed.cpd.sizes");
		o->cp_noise = v->cpd_noise;
		o->cp_equal = v->lambda_none == 1;
	} else {
		if (strcmp(v->source, "cpd") == 0 || v->input_tns == NULL) {
			err(c, v->source_at, "seed.source", "generator.type "
			    "fastskg takes seed.source input_tns or "
			    "kp_from_meta, and seed.input_tns");
			return;
		}
		if (strcmp(v->source, "kp_from_meta") == 0) {
			if (v->expand_iter <= 0)
				err(c, v->source_at, "seed.expand_iter", "is "
				    "required with kp_from_meta");
			/* The meta seed's Kronecker power, K times over:
			 * the meta seed, K times its levels. */
			o->levels *= v->expand_iter;
		}
		o->src = p->config_seed = resolve(c, v->input_tns);
		o->src_base = v->index_base;
	}
	/* Its sizes are the seed's to the levels, and seed.sizes the
	 * seed file's: checked once the model knows its seed. */
	o->box_only = true;
	o->nexpect = v->seed_sizes.n;
	for (k = 0; k < v->seed_sizes.n; k++)
		o->expect[k] = (uint64_t)v->seed_sizes.v[k];
}

/* Is DST a bundle (a name without the suffix of a data file)? */
static bool
is_bundle_dst(const char *dst)
{
	return strcmp(dst, "-") != 0 && ts_kind_of_path(dst, NULL) < 0;
}

/* mkdir -p dir. */
static int
mkdirs(const char *dir)
{
	char *p = ts_xstrdup(dir), *q;
	int rv = 0;

	for (q = p + 1; rv == 0; q++) {
		if (*q != '/' && *q != '\0')
			continue;
		char c = *q;

		*q = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			rv = -1;
		*q = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rv;
}

/* Where the bundle goes, what it holds, how it is described. */
static void
output(struct cfg *c, struct gen_part *p, struct fe_job_opts *jo,
    bool dst_given)
{
	const struct cfgval *v = V(c);
	struct gen_opts *o = &p->g.o;
	yaml_mark_t top = { 0, 0, 0 };
	bool kron = strcmp(v->type, "cp_fastskg") == 0 ||
	    strcmp(v->type, "fastskg") == 0;
	int k;

	if (v->name == NULL || !ts_valid_name(v->name)) {
		err(c, top, "name", "a bundle's name, "
		    "[A-Za-z0-9][A-Za-z0-9._-]*, is required");
		return;
	}
	if (!dst_given) {
		const char *dir = v->output_dir != NULL ? v->output_dir : kron ?
		    "outputs" : "generated";

		jo->dst = p->config_dst = ts_xasprintf("%s/%s", dir, v->name);
		/* Made as the reference makes it, parents and all. */
		if (mkdirs(dir) != 0)
			ts_diag_io(c->d, dir, "%s", strerror(errno));
	}
	/* A file DST, or standard output, gets the name too; a bundle
	 * given is named after its folder. */
	if (!dst_given || !is_bundle_dst(jo->dst))
		jo->name = p->config_name = ts_xstrdup(v->name);
	p->group = "Synthetic";
	p->id = "1001";
	o->dups = v->dups == 1 ? GEN_UNIQUE : v->dups == 2 ? GEN_SUM :
	    v->dups == 0 ? GEN_ALLOW : kron || strcmp(v->type, "zipf") == 0 ?
	    GEN_UNIQUE : GEN_ALLOW;
	o->dups_given = true;
	if (o->dups == GEN_SUM && v->vmode > 0)
		ts_diag(c->d, TS_SEV_WARNING, c->path, 0, 0, TS_RULE_NONE,
		    "'value.mode' %s: under duplicates.policy sum the values "
		    "are the counts of each entry's draws", v->vmode == 1 ?
		    "uniform" : "normal");
	p->itype = v->itype >= 0 ? v->itype : TS_ITYPE_UINT64;
	if (v->endian >= 0)
		jo->out_endian = v->endian;
	jo->out_base = v->index_base;
	p->base = v->index_base;
	o->sorted = v->sorted != 0;
	if (o->sorted && v->sorted_order.n > 0) {
		if (v->sorted_order.n != v->sizes.n && v->sizes.n > 0)
			err(c, v->sorted_order.at, "format.sorted_order", "a "
			    "0-based permutation of the %d modes", v->sizes.n);
		o->nprio = v->sorted_order.n;
		for (k = 0; k < o->nprio; k++) {
			o->prio[k] = (int)v->sorted_order.v[k];
			if (o->prio[k] >= (v->sizes.n > 0 ? v->sizes.n :
			    TS_MAXORDER))
				err(c, v->sorted_order.at,
				    "format.sorted_order", "mode %d is not one "
				    "of the tensor's (0-based)", o->prio[k]);
		}
	}
	if (v->write_tns == 0 && v->write_tnsb == 0)
		err(c, top, "output.write_tns", "at least one data file is "
		    "written");
	jo->want_text = v->write_tns != 0;
	jo->want_binary = v->write_tnsb != 0;
	if (v->write_meta == 0)
		ts_diag(c->d, TS_SEV_WARNING, c->path, 0, 0, TS_RULE_NONE,
		    "'output.write_metadata' false: a bundle has its "
		    "metadata, written all the same");
	if (v->write_readme == 0)
		ts_diag(c->d, TS_SEV_WARNING, c->path, 0, 0, TS_RULE_NONE,
		    "'output.write_readme' false: a bundle has its README, "
		    "written all the same");
	p->config_copied = v->copy_config != 0;
}

/* The file's text, to copy into the bundle. */
static char *
slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 4096, r;
	char *s;

	if (fp == NULL)
		return NULL;
	s = ts_xmalloc(cap);
	*n = 0;
	while ((r = fread(s + *n, 1, cap - *n, fp)) > 0) {
		*n += r;
		if (*n == cap) {
			if (cap >= (size_t)16 << 20)
				break;
			s = ts_xrealloc(s, cap *= 2);
		}
	}
	if (ferror(fp) || *n == cap) {
		if (*n == cap)
			errno = EFBIG;
		fclose(fp);
		free(s);
		return NULL;
	}
	fclose(fp);
	s = ts_xrealloc(s, *n + 1);
	s[*n] = '\0';
	return s;
}

int
gen_config(struct gen_part *p, struct fe_job_opts *jo, const char *path,
    bool dst_given, struct ts_diags *d)
{
	struct cfg c;
	yaml_parser_t parser;
	yaml_node_t *root;
	size_t n;
	int rv = -1;

	memset(&c, 0, sizeof(c));
	c.path = path;
	c.d = d;
	c.v.values = c.v.has_seed = c.v.itype = c.v.endian = -1;
	c.v.sorted = c.v.zeros = c.v.domain = c.v.vtype = c.v.vmode = -1;
	c.v.dups = c.v.lambda_none = -1;
	c.v.write_tns = c.v.write_tnsb = c.v.write_meta = -1;
	c.v.write_readme = c.v.copy_config = -1;
	c.v.vconst = 1;
	c.v.vhigh = 1;
	c.v.vstd = 1;
	c.v.vclip = 3;
	if ((p->config_text = slurp(path, &n)) == NULL) {
		ts_diag_io(d, path, "%s", strerror(errno));
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser,
	    (const unsigned char *)p->config_text, n);
	if (!yaml_parser_load(&parser, &c.doc)) {
		ts_diag(d, TS_SEV_ERROR, path, parser.problem_mark.line + 1,
		    parser.problem_mark.column + 1, TS_RULE_NONE,
		    "not YAML: %s", parser.problem ? parser.problem :
		    "a syntax error");
		yaml_parser_delete(&parser);
		return -1;
	}
	yaml_parser_delete(&parser);
	if ((root = yaml_document_get_root_node(&c.doc)) == NULL) {
		ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_NONE, "an empty "
		    "configuration");
		goto out;
	}
	walk(&c, root, "", top_keys);
	if (ts_diags_errors(d) > 0)
		goto out;
	if (c.v.type == NULL) {
		yaml_mark_t top = { 0, 0, 0 };

		err(&c, top, "generator.type", "is required (random, zipf, "
		    "cp_fastskg or fastskg)");
		goto out;
	}
	if (c.v.has_seed == 1)
		p->g.o.seed = p->vo.seed = c.v.seed;
	model(&c, p);
	values(&c, p, root->start_mark);
	output(&c, p, jo, dst_given);
	p->config = path;
	rv = ts_diags_errors(d) > 0 ? -1 : 0;
out:
	yaml_document_delete(&c.doc);
	return rv;
}
