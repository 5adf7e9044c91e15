/*
 * meta.c - NAME_metadata.json: parse with jansson, check every M rule
 * (and B2, B3's shape), keep unknown keys, write the canonical form (M2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tensorsuite.h"
#include "model/model.h"
#include "util/xalloc.h"

/* Largest metadata file we read; real ones are under a kilobyte. */
#define META_MAX	TS_META_MAX

enum jt { J_STR, J_BOOL, J_INT, J_ARR, J_ARR_NULL, J_INT_NULL, J_OBJ };

static const struct key {
	const char	*name;
	enum jt		 type;
} keys[] = {
	{ "version", J_STR }, { "name", J_STR }, { "group", J_STR },
	{ "id", J_STR }, { "time", J_STR }, { "source_type", J_STR },
	{ "source", J_STR }, { "source_url", J_STR },
	{ "value_type", J_STR }, { "value_domain", J_STR },
	{ "values_provided", J_BOOL }, { "index_type", J_STR },
	{ "index_base", J_INT }, { "sorted", J_STR },
	{ "sort_order", J_ARR }, { "duplicates", J_STR },
	{ "explicit_zeros", J_STR }, { "pattern_symmetry", J_STR },
	{ "numerical_symmetry", J_STR }, { "sparsity_type", J_STR },
	{ "dense_modes", J_ARR }, { "endianness", J_STR },
	{ "order", J_INT }, { "dimensions", J_ARR }, { "nnz", J_INT },
	{ "block_partitions", J_ARR_NULL }, { "nnz_block", J_INT_NULL },
	{ "files", J_OBJ },
};
#define NKEYS	(sizeof(keys) / sizeof(keys[0]))

static const char *const typenames[] = {
	"a string", "a boolean", "an integer", "an array", "an array or null",
	"an integer or null", "an object"
};

/* Where each top-level key starts in the text, for located messages. */
struct keypos {
	char		*key;
	uint64_t	 line, col;
};

struct ctx {
	struct ts_meta	*m;
	struct ts_diags	*d;
	const char	*file;
	struct keypos	*pos;
	size_t		 npos;
	uint64_t	 endline, endcol;	/* of the closing brace */
};

static int
keypos_cmp(const void *a, const void *b)
{
	const struct keypos *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	if (r != 0)
		return r;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->col < y->col ? -1 : x->col > y->col;
}

/*
 * Find the line and column of every key of the top-level object.  The
 * text is valid JSON by the time this runs, so a small scanner that
 * tracks depth and strings is enough.
 */
static void
scan_keys(struct ctx *c, const char *s, size_t len)
{
	uint64_t line = 1, col = 1;
	size_t i, j, cap = 0;
	int depth = 0;
	bool expect_key = false;

	for (i = 0; i < len; i++) {
		char ch = s[i];

		if (ch == '"') {
			uint64_t sl = line, sc = col;

			for (j = i + 1; j < len && s[j] != '"'; j++)
				if (s[j] == '\\')
					j++;
			if (depth == 1 && expect_key) {
				if (c->npos == cap) {
					cap = cap ? 2 * cap : 32;
					c->pos = ts_xreallocarray(c->pos, cap,
					    sizeof(*c->pos));
				}
				/* Raw key text; escapes in our keys are rare
				 * and only cost a location. */
				c->pos[c->npos].key = ts_xmalloc(j - i);
				memcpy(c->pos[c->npos].key, s + i + 1,
				    j - i - 1);
				c->pos[c->npos].key[j - i - 1] = '\0';
				c->pos[c->npos].line = sl;
				c->pos[c->npos].col = sc;
				c->npos++;
				expect_key = false;
			}
			col += j - i;
			i = j;
			col++;
			continue;
		}
		if (ch == '{' || ch == '[') {
			depth++;
			expect_key = (ch == '{' && depth == 1);
		} else if (ch == '}' || ch == ']') {
			if (depth == 1) {
				c->endline = line;
				c->endcol = col;
			}
			depth--;
		} else if (ch == ',' && depth == 1)
			expect_key = true;
		if (ch == '\n') {
			line++;
			col = 1;
		} else if (((unsigned char)ch & 0xc0) != 0x80)
			col++;
	}
	/* By key, then place: a message about each of N keys finds its
	 * key in log N, not N (500,000 unknown keys are allowed). */
	if (c->npos > 1)
		qsort(c->pos, c->npos, sizeof(*c->pos), keypos_cmp);
}

static void
keyloc(struct ctx *c, const char *key, uint64_t *line, uint64_t *col)
{
	size_t lo = 0, hi = c->npos, mid;

	/* The first place of the key: the lowest that is not less. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(c->pos[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->npos && strcmp(c->pos[lo].key, key) == 0) {
		*line = c->pos[lo].line;
		*col = c->pos[lo].col;
		return;
	}
	*line = c->endline ? c->endline : 1;
	*col = c->endline ? c->endcol : 0;
}

static void
kdiag(struct ctx *c, enum ts_sev sev, const char *key, enum ts_rule rule,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
kdiag(struct ctx *c, enum ts_sev sev, const char *key, enum ts_rule rule,
    const char *fmt, ...)
{
	uint64_t line = 1, col = 0;
	va_list ap;

	/* A missing key is placed where it would be added: at the end. */
	keyloc(c, key != NULL ? key : "", &line, &col);
	va_start(ap, fmt);
	ts_vdiag(c->d, sev, c->file, line, col, -1, rule, fmt, ap);
	va_end(ap);
}

static bool
typeok(json_t *v, enum jt t)
{
	switch (t) {
	case J_STR:
		return json_is_string(v);
	case J_BOOL:
		return json_is_boolean(v);
	case J_INT:
		return json_is_integer(v);
	case J_ARR:
		return json_is_array(v);
	case J_ARR_NULL:
		return json_is_array(v) || json_is_null(v);
	case J_INT_NULL:
		return json_is_integer(v) || json_is_null(v);
	case J_OBJ:
		return json_is_object(v);
	}
	return false;
}

/* Map a string to its index in a NULL-terminated list, or -1. */
static int
lookup(const char *s, const char *const *list)
{
	int i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(s, list[i]) == 0)
			return i;
	return -1;
}

/* Check an enumerated string key; returns its index or -1. */
static int
enumkey(struct ctx *c, json_t *root, const char *key,
    const char *const *list)
{
	json_t *v = json_object_get(root, key);
	char allowed[256];
	size_t n = 0;
	int i;

	if (!json_is_string(v))
		return -1;
	i = lookup(json_string_value(v), list);
	if (i >= 0)
		return i;
	allowed[0] = '\0';
	for (int k = 0; list[k] != NULL; k++)
		n += (size_t)snprintf(allowed + n, sizeof(allowed) - n,
		    "%s'%s'", k ? ", " : "", list[k]);
	kdiag(c, TS_SEV_ERROR, key, TS_RULE_M1, "'%s' is '%s'; allowed: %s",
	    key, json_string_value(v), allowed);
	return -1;
}

static char *
strkey(json_t *root, const char *key)
{
	json_t *v = json_object_get(root, key);

	return json_is_string(v) ? ts_xstrdup(json_string_value(v)) : NULL;
}

bool
ts_valid_name(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > TS_NAMEMAX)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		bool alnum = (ch >= '0' && ch <= '9') ||
		    (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');

		if (!alnum && (i == 0 || (ch != '.' && ch != '_' &&
		    ch != '-')))
			return false;
	}
	return true;
}

bool
ts_valid_date(const char *s)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	int y, m, dd, i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	y = atoi(s);
	m = (s[5] - '0') * 10 + (s[6] - '0');
	dd = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || dd < 1)
		return false;
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return dd <= 29;
	return dd <= mdays[m - 1];
}

bool
ts_valid_url(const char *s)
{
	const char *h;

	if (*s == '\0')
		return true;
	if (strncmp(s, "http://", 7) == 0)
		h = s + 7;
	else if (strncmp(s, "https://", 8) == 0)
		h = s + 8;
	else
		return false;
	if (*h == '\0' || *h == '/' || *h == '?' || *h == '#')
		return false;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/*
 * Read an array of integers in [lo, hi] into out (at most max of them).
 * Returns the count, or -1 after reporting the first bad element.
 */
static int
intarray(struct ctx *c, json_t *root, const char *key, int64_t lo,
    int64_t hi, uint64_t *out, size_t max, enum ts_rule rule)
{
	json_t *a = json_object_get(root, key), *v;
	size_t i, n;

	if (!json_is_array(a))
		return -1;
	n = json_array_size(a);
	if (n > max) {
		kdiag(c, TS_SEV_ERROR, key, TS_RULE_M1,
		    "'%s' has %zu elements; at most %zu are allowed", key, n,
		    max);
		return -1;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v)) {
			kdiag(c, TS_SEV_ERROR, key, TS_RULE_M1,
			    "element %zu of '%s' is not an integer", i + 1,
			    key);
			return -1;
		}
		if (json_integer_value(v) < lo || json_integer_value(v) > hi) {
			kdiag(c, TS_SEV_ERROR, key, rule,
			    "element %zu of '%s' is %lld; it must be in "
			    "%lld..%lld", i + 1, key,
			    (long long)json_integer_value(v), (long long)lo,
			    (long long)hi);
			return -1;
		}
		out[i] = (uint64_t)json_integer_value(v);
	}
	return (int)n;
}

/*
 * B3: each key of 'files' names a file of its own, and none the
 * metadata: a README named as the data (which a writer of READMEs
 * would append to) or two keys for one file are refused.  The names
 * of the data files are those of their keys alone.
 */
static void
files_distinct(struct ctx *c, json_t *files)
{
	const struct ts_meta *m = c->m;
	const char *k, *k2, *s, *s2;
	json_t *v, *v2;
	static const char *const data[3] = { NULL, "text", "binary" };
	void *it;
	char *own[3] = { NULL, NULL, NULL };
	int i;

	if (m->have & TS_HAVE_NAME) {
		own[0] = ts_xasprintf("%s_metadata.json", m->name);
		own[1] = ts_xasprintf("%s.tns", m->name);
		own[2] = ts_xasprintf("%s.tnsb", m->name);
	}
	json_object_foreach(files, k, v) {
		if ((s = json_string_value(v)) == NULL || *s == '\0')
			continue;
		if (own[0] != NULL && strcmp(s, own[0]) == 0)
			kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
			    "'files.%s' names '%s', the metadata file", k, s);
		for (i = 1; i < 3; i++)
			/* (Named by its own key too: the pair is told.) */
			if (own[i] != NULL && strcmp(s, own[i]) == 0 &&
			    strcmp(k, data[i]) != 0 && !json_equal(v,
			    json_object_get(files, data[i])))
				kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
				    "'files.%s' names '%s', the name of the "
				    "bundle's %s file", k, s, data[i]);
		/* Each pair once: the keys after this one. */
		it = json_object_iter_next(files, json_object_key_to_iter(k));
		for (; it != NULL; it = json_object_iter_next(files, it)) {
			k2 = json_object_iter_key(it);
			v2 = json_object_iter_value(it);
			if ((s2 = json_string_value(v2)) != NULL &&
			    strcmp(s, s2) == 0)
				kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
				    "'files.%s' and 'files.%s' both name "
				    "'%s': each names a file of its own", k,
				    k2, s);
		}
	}
	free(own[0]);
	free(own[1]);
	free(own[2]);
}

static void
check_files(struct ctx *c, json_t *files)
{
	struct ts_meta *m = c->m;
	const char *k;
	json_t *v;

	m->f_other = json_object();
	json_object_foreach(files, k, v) {
		const char *s;

		if (!json_is_string(v) && !json_is_null(v)) {
			kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
			    "'files.%s' must be a string or null", k);
			continue;
		}
		s = json_is_string(v) ? json_string_value(v) : "";
		if (*s != '\0' && (strchr(s, '/') != NULL ||
		    strcmp(s, "..") == 0 || strcmp(s, ".") == 0)) {
			kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
			    "'files.%s' is '%s'; it must name a file inside "
			    "the bundle", k, s);
			continue;
		}
		if (strcmp(k, "text") == 0)
			m->f_text = *s ? ts_xstrdup(s) : NULL;
		else if (strcmp(k, "binary") == 0)
			m->f_binary = *s ? ts_xstrdup(s) : NULL;
		else if (strcmp(k, "readme") == 0)
			m->f_readme = *s ? ts_xstrdup(s) : NULL;
		else
			json_object_set(m->f_other, k, v);
	}
	if (m->f_text == NULL && m->f_binary == NULL)
		kdiag(c, TS_SEV_ERROR, "files", TS_RULE_B3,
		    "'files' names neither a 'text' nor a 'binary' file");
	m->have |= TS_HAVE_FILES;
	files_distinct(c, files);
}

/* Rules that tie several keys together: M3-M9 and B2. */
static void
check_cross(struct ctx *c)
{
	struct ts_meta *m = c->m;
	unsigned h = m->have;
	int i, j;

	if ((h & TS_HAVE_ENDIAN) && (h & TS_HAVE_FILES)) {
		if (m->endianness == TS_ENDIAN_NONE && m->f_binary != NULL)
			kdiag(c, TS_SEV_ERROR, "endianness", TS_RULE_M3,
			    "'endianness' is 'none' but 'files' names a "
			    "binary file");
		else if (m->endianness != TS_ENDIAN_NONE && m->f_binary == NULL)
			kdiag(c, TS_SEV_ERROR, "endianness", TS_RULE_M3,
			    "'endianness' is '%s' but the bundle has no "
			    "binary file", ts_endian_names[m->endianness]);
	}
	if ((h & TS_HAVE_ITYPE) && (h & TS_HAVE_DIMS) && (h & TS_HAVE_BASE) &&
	    m->index_type == TS_ITYPE_UINT32)
		for (i = 0; i < m->order; i++)
			if (m->dims[i] - 1 + (uint64_t)m->index_base >
			    UINT32_MAX) {
				kdiag(c, TS_SEV_ERROR, "index_type", TS_RULE_M4,
				    "'index_type' uint32 cannot hold "
				    "coordinate %llu of mode %d",
				    (unsigned long long)(m->dims[i] - 1 +
				    (uint64_t)m->index_base), i + 1);
				break;
			}
	if ((h & TS_HAVE_PSYM) && (h & TS_HAVE_NSYM) && m->nsym > m->psym)
		kdiag(c, TS_SEV_ERROR, "numerical_symmetry", TS_RULE_M5,
		    "'numerical_symmetry' '%s' is stronger than "
		    "'pattern_symmetry' '%s'", ts_sym_name(m->nsym),
		    ts_sym_name(m->psym));
	if (h & TS_HAVE_DIMS) {
		bool alleq = true, pair = false;

		for (i = 1; i < m->order; i++)
			alleq &= m->dims[i] == m->dims[0];
		for (i = 0; i < m->order; i++)
			for (j = i + 1; j < m->order; j++)
				pair |= m->dims[i] == m->dims[j];
		for (int k = 0; k < 2; k++) {
			enum ts_sym s = k ? m->nsym : m->psym;
			const char *key = k ? "numerical_symmetry" :
			    "pattern_symmetry";

			if (!(h & (k ? TS_HAVE_NSYM : TS_HAVE_PSYM)))
				continue;
			if (s == TS_SYM_FULL && !alleq)
				kdiag(c, TS_SEV_ERROR, key, TS_RULE_M5,
				    "'%s' is 'full' but the dimensions are "
				    "not all equal", key);
			else if (s == TS_SYM_PARTIAL && !pair)
				kdiag(c, TS_SEV_ERROR, key, TS_RULE_M5,
				    "'%s' is 'partial' but no two dimensions "
				    "are equal", key);
		}
	}
	if ((h & TS_HAVE_SPARSITY) && (h & TS_HAVE_DENSE) &&
	    (h & TS_HAVE_ORDER)) {
		bool asc = true;

		for (i = 1; i < m->ndense; i++)
			asc &= m->dense_modes[i] > m->dense_modes[i - 1];
		switch (m->sparsity) {
		case TS_SPARSITY_ELEMENT:
		case TS_SPARSITY_BLOCK:
			if (m->ndense != 0)
				kdiag(c, TS_SEV_ERROR, "dense_modes",
				    TS_RULE_M6, "'dense_modes' must be [] "
				    "when 'sparsity_type' is '%s'",
				    ts_sparsity_names[m->sparsity]);
			break;
		case TS_SPARSITY_NO:
			if (m->ndense != m->order || !asc)
				kdiag(c, TS_SEV_ERROR, "dense_modes",
				    TS_RULE_M6, "'dense_modes' must list "
				    "every mode 1..%d when 'sparsity_type' is "
				    "'no'", m->order);
			break;
		case TS_SPARSITY_SEMI:
			if (m->ndense == 0 || m->ndense >= m->order || !asc)
				kdiag(c, TS_SEV_ERROR, "dense_modes",
				    TS_RULE_M6, "'dense_modes' must be a "
				    "non-empty proper subset of 1..%d in "
				    "ascending order when 'sparsity_type' is "
				    "'semi'", m->order);
			break;
		}
	}
	if ((h & TS_HAVE_SORT) && (h & TS_HAVE_ORDER)) {
		bool seen[TS_MAXORDER] = { false }, perm = true;

		for (i = 0; i < m->nsort; i++) {
			if (m->sort_order[i] < 0 ||
			    m->sort_order[i] >= m->order ||
			    seen[m->sort_order[i]])
				perm = false;
			else
				seen[m->sort_order[i]] = true;
		}
		if (m->sorted && (m->nsort != m->order || !perm))
			kdiag(c, TS_SEV_ERROR, "sort_order", TS_RULE_M9,
			    "'sort_order' must be a permutation of 1..%d "
			    "when 'sorted' is 'lexicographic'", m->order);
		else if (!m->sorted && m->nsort != 0)
			kdiag(c, TS_SEV_ERROR, "sort_order", TS_RULE_M9,
			    "'sort_order' must be [] when 'sorted' is 'none'");
	}
}

static void
check_keys(struct ctx *c, json_t *root)
{
	struct ts_meta *m = c->m;
	const char *k;
	json_t *v;
	size_t i;
	int n, r, t;
	uint64_t tmp[TS_MAXORDER];
	const char *vtypes[TS_VTYPE_COUNT + 1];

	/* Presence and JSON types (M1). */
	for (i = 0; i < NKEYS; i++) {
		v = json_object_get(root, keys[i].name);
		if (v == NULL)
			kdiag(c, TS_SEV_ERROR, NULL, TS_RULE_M1,
			    "required key '%s' is missing", keys[i].name);
		else if (!typeok(v, keys[i].type))
			kdiag(c, TS_SEV_ERROR, keys[i].name, TS_RULE_M1,
			    "'%s' must be %s", keys[i].name,
			    typenames[keys[i].type]);
	}
	m->unknown = json_object();
	json_object_foreach(root, k, v) {
		for (i = 0; i < NKEYS; i++)
			if (strcmp(k, keys[i].name) == 0)
				break;
		if (i == NKEYS) {
			kdiag(c, TS_SEV_WARNING, k, TS_RULE_M1, "unknown key "
			    "'%s'", k);
			json_object_set(m->unknown, k, v);
		}
	}

	m->version = strkey(root, "version");
	if (m->version && strcmp(m->version, TS_FORMAT) != 0)
		kdiag(c, TS_SEV_ERROR, "version", TS_RULE_M1,
		    "'version' is '%s'; this toolkit reads '%s'", m->version,
		    TS_FORMAT);
	m->name = strkey(root, "name");
	if (m->name) {
		if (ts_valid_name(m->name))
			m->have |= TS_HAVE_NAME;
		else
			kdiag(c, TS_SEV_ERROR, "name", TS_RULE_B2,
			    "'name' '%s' is not [A-Za-z0-9][A-Za-z0-9._-]* of "
			    "at most %d bytes", m->name, TS_NAMEMAX);
	}
	m->group = strkey(root, "group");
	m->id = strkey(root, "id");
	if (m->id && (strlen(m->id) != 4 ||
	    strspn(m->id, "0123456789") != 4))
		kdiag(c, TS_SEV_ERROR, "id", TS_RULE_M1,
		    "'id' is '%s'; it must be exactly four digits", m->id);
	m->time = strkey(root, "time");
	if (m->time && !ts_valid_date(m->time))
		kdiag(c, TS_SEV_ERROR, "time", TS_RULE_M1,
		    "'time' is '%s'; it must be a real date YYYY-MM-DD",
		    m->time);
	m->source_type = strkey(root, "source_type");
	if (m->source_type)
		(void)enumkey(c, root, "source_type", ts_srctype_names);
	m->source = strkey(root, "source");
	m->source_url = strkey(root, "source_url");
	if (m->source_url && !ts_valid_url(m->source_url))
		kdiag(c, TS_SEV_ERROR, "source_url", TS_RULE_M1,
		    "'source_url' is '%s'; it must be empty or an absolute "
		    "http(s) URL", m->source_url);

	for (t = 0; t < TS_VTYPE_COUNT; t++)
		vtypes[t] = ts_vtype_name((enum ts_vtype)t);
	vtypes[t] = NULL;
	if ((r = enumkey(c, root, "value_type", vtypes)) >= 0) {
		m->value_type = (enum ts_vtype)r;
		m->have |= TS_HAVE_VTYPE;
	}
	if ((r = enumkey(c, root, "value_domain", ts_domain_names)) >= 0) {
		m->value_domain = (enum ts_domain)r;
		m->have |= TS_HAVE_DOMAIN;
	}
	if (json_is_boolean(v = json_object_get(root, "values_provided"))) {
		m->values_provided = json_is_true(v);
		m->have |= TS_HAVE_VALUES;
	}
	if ((r = enumkey(c, root, "index_type", ts_itype_names)) >= 0) {
		m->index_type = (enum ts_itype)r;
		m->have |= TS_HAVE_ITYPE;
	}
	if (json_is_integer(v = json_object_get(root, "index_base"))) {
		if (json_integer_value(v) == 0 || json_integer_value(v) == 1) {
			m->index_base = (int)json_integer_value(v);
			m->have |= TS_HAVE_BASE;
		} else
			kdiag(c, TS_SEV_ERROR, "index_base", TS_RULE_M1,
			    "'index_base' is %lld; it must be 0 or 1",
			    (long long)json_integer_value(v));
	}
	if ((r = enumkey(c, root, "duplicates", ts_allowed_names)) >= 0) {
		m->dups_allowed = r == 1;
		m->have |= TS_HAVE_DUPS;
	}
	if ((r = enumkey(c, root, "explicit_zeros", ts_allowed_names)) >= 0) {
		m->zeros_allowed = r == 1;
		m->have |= TS_HAVE_ZEROS;
	}
	if ((r = enumkey(c, root, "pattern_symmetry", ts_sym_names)) >= 0) {
		m->psym = (enum ts_sym)r;
		m->have |= TS_HAVE_PSYM;
	}
	if ((r = enumkey(c, root, "numerical_symmetry", ts_sym_names)) >= 0) {
		m->nsym = (enum ts_sym)r;
		m->have |= TS_HAVE_NSYM;
	}
	if ((r = enumkey(c, root, "sparsity_type", ts_sparsity_names)) >= 0) {
		m->sparsity = (enum ts_sparsity)r;
		m->have |= TS_HAVE_SPARSITY;
	}
	if ((r = enumkey(c, root, "endianness", ts_endian_names)) >= 0) {
		m->endianness = (enum ts_endian)r;
		m->have |= TS_HAVE_ENDIAN;
	}

	/* order, then everything sized by it. */
	if (json_is_integer(v = json_object_get(root, "order"))) {
		json_int_t o = json_integer_value(v);

		if (o < 1 || o > TS_MAXORDER)
			kdiag(c, TS_SEV_ERROR, "order", TS_RULE_M1,
			    "'order' is %lld; it must be in 1..%d",
			    (long long)o, TS_MAXORDER);
		else {
			m->order = (int)o;
			m->have |= TS_HAVE_ORDER;
		}
	}
	if ((n = intarray(c, root, "dimensions", 1, INT64_MAX, m->dims,
	    TS_MAXORDER, TS_RULE_M1)) >= 0 && (m->have & TS_HAVE_ORDER)) {
		if (n != m->order)
			kdiag(c, TS_SEV_ERROR, "dimensions", TS_RULE_M1,
			    "'dimensions' has %d elements; 'order' is %d", n,
			    m->order);
		else
			m->have |= TS_HAVE_DIMS;
	}
	if (json_is_integer(v = json_object_get(root, "nnz"))) {
		json_int_t z = json_integer_value(v);
		uint64_t prod = 1;
		bool ovf = false;

		for (i = 0; (m->have & TS_HAVE_DIMS) && i < (size_t)m->order;
		    i++)
			ovf |= !ts_mul_u64(prod, m->dims[i], &prod);
		if (z < 0)
			kdiag(c, TS_SEV_ERROR, "nnz", TS_RULE_M1,
			    "'nnz' is %lld; it must not be negative",
			    (long long)z);
		else if ((m->have & TS_HAVE_DIMS) && !ovf &&
		    (uint64_t)z > prod && !((m->have & TS_HAVE_DUPS) &&
		    m->dups_allowed))
			/* Repeats may outnumber the positions; entries that
			 * are all different may not. */
			kdiag(c, TS_SEV_ERROR, "nnz", TS_RULE_M1,
			    "'nnz' is %lld, more than the %llu positions of "
			    "the tensor%s", (long long)z, (unsigned long
			    long)prod, (m->have & TS_HAVE_DUPS) ?
			    " ('duplicates' is 'disallowed')" : "");
		else {
			m->nnz = (uint64_t)z;
			m->have |= TS_HAVE_NNZ;
		}
	}
	r = json_is_string(json_object_get(root, "sorted")) ?
	    enumkey(c, root, "sorted", ts_sorted_names) : -1;
	if (r >= 0 && (n = intarray(c, root, "sort_order", 1, TS_MAXORDER,
	    tmp, TS_MAXORDER, TS_RULE_M9)) >= 0) {
		m->sorted = r == 1;
		m->nsort = n;
		for (i = 0; i < (size_t)n; i++)
			m->sort_order[i] = (int)tmp[i] - 1;
		m->have |= TS_HAVE_SORT;
	}
	if ((n = intarray(c, root, "dense_modes", 1, TS_MAXORDER, tmp,
	    TS_MAXORDER, TS_RULE_M6)) >= 0) {
		m->ndense = n;
		for (i = 0; i < (size_t)n; i++)
			m->dense_modes[i] = (int)tmp[i] - 1;
		if (m->have & TS_HAVE_ORDER) {
			for (i = 0; i < (size_t)n; i++)
				if (m->dense_modes[i] >= m->order)
					break;
			if (i < (size_t)n)
				kdiag(c, TS_SEV_ERROR, "dense_modes",
				    TS_RULE_M6, "'dense_modes' names mode %d; "
				    "'order' is %d", m->dense_modes[i] + 1,
				    m->order);
			else
				m->have |= TS_HAVE_DENSE;
		}
	}

	/* Blocks (M7), and the cuTENSOR limit on their order. */
	if (m->have & TS_HAVE_SPARSITY) {
		json_t *bp = json_object_get(root, "block_partitions");
		json_t *nb = json_object_get(root, "nnz_block");
		bool block = m->sparsity == TS_SPARSITY_BLOCK;

		if (bp != NULL && nb != NULL && typeok(bp, J_ARR_NULL) &&
		    typeok(nb, J_INT_NULL)) {
			if (block && (json_is_null(bp) || json_is_null(nb)))
				kdiag(c, TS_SEV_ERROR, json_is_null(bp) ?
				    "block_partitions" : "nnz_block",
				    TS_RULE_M7, "'block_partitions' and "
				    "'nnz_block' must not be null when "
				    "'sparsity_type' is 'block'");
			else if (!block && (!json_is_null(bp) ||
			    !json_is_null(nb)))
				kdiag(c, TS_SEV_ERROR, !json_is_null(bp) ?
				    "block_partitions" : "nnz_block",
				    TS_RULE_M7, "'block_partitions' and "
				    "'nnz_block' must be null when "
				    "'sparsity_type' is '%s'",
				    ts_sparsity_names[m->sparsity]);
			else if (block)
				m->have |= TS_HAVE_BLOCKS;
		}
		if (m->have & TS_HAVE_BLOCKS) {
			uint64_t prod = 1;
			bool ovf = false;

			n = intarray(c, root, "block_partitions", 1, INT64_MAX,
			    m->parts, TS_MAXORDER, TS_RULE_M7);
			if (n < 0)
				m->have &= ~(unsigned)TS_HAVE_BLOCKS;
			else if ((m->have & TS_HAVE_ORDER) && n != m->order) {
				kdiag(c, TS_SEV_ERROR, "block_partitions",
				    TS_RULE_M7, "'block_partitions' has %d "
				    "elements; 'order' is %d", n, m->order);
				m->have &= ~(unsigned)TS_HAVE_BLOCKS;
			}
			for (i = 0; (m->have & TS_HAVE_BLOCKS) &&
			    (m->have & TS_HAVE_DIMS) && i < (size_t)n; i++)
				if (m->parts[i] > m->dims[i]) {
					kdiag(c, TS_SEV_ERROR,
					    "block_partitions", TS_RULE_M7,
					    "mode %zu has %llu sections, more "
					    "than its dimension %llu", i + 1,
					    (unsigned long long)m->parts[i],
					    (unsigned long long)m->dims[i]);
					m->have &= ~(unsigned)TS_HAVE_BLOCKS;
				}
			for (i = 0; n > 0 && i < (size_t)n; i++)
				ovf |= !ts_mul_u64(prod, m->parts[i], &prod);
			if (json_integer_value(nb) < 0) {
				kdiag(c, TS_SEV_ERROR, "nnz_block", TS_RULE_M7,
				    "'nnz_block' must not be negative");
				m->have &= ~(unsigned)TS_HAVE_BLOCKS;
			} else if (n > 0 && !ovf &&
			    (uint64_t)json_integer_value(nb) > prod) {
				kdiag(c, TS_SEV_ERROR, "nnz_block", TS_RULE_M7,
				    "'nnz_block' is %lld, more than the %llu "
				    "blocks of the grid",
				    (long long)json_integer_value(nb),
				    (unsigned long long)prod);
				m->have &= ~(unsigned)TS_HAVE_BLOCKS;
			}
			m->nnz_block = (uint64_t)json_integer_value(nb);
		}
		if (block && (m->have & TS_HAVE_ORDER) && m->order > 8)
			kdiag(c, TS_SEV_WARNING, "order", TS_RULE_M1, "a block "
			    "tensor of order %d cannot be handed to cuTENSOR "
			    "(at most 8)", m->order);
		if (block && (m->have & TS_HAVE_VALUES) && m->values_provided)
			kdiag(c, TS_SEV_ERROR, "values_provided", TS_RULE_K1,
			    "block files store no values; 'values_provided' "
			    "must be false");
	}
	if (json_is_object(v = json_object_get(root, "files")))
		check_files(c, v);
	check_cross(c);
}

void
ts_meta_init(struct ts_meta *m)
{
	memset(m, 0, sizeof(*m));
}

void
ts_meta_free(struct ts_meta *m)
{
	free(m->version);
	free(m->name);
	free(m->group);
	free(m->id);
	free(m->time);
	free(m->source_type);
	free(m->source);
	free(m->source_url);
	free(m->f_text);
	free(m->f_binary);
	free(m->f_readme);
	json_decref(m->f_other);
	json_decref(m->unknown);
	memset(m, 0, sizeof(*m));
}

int
ts_meta_parse(struct ts_meta *m, const char *text, size_t len,
    const char *file, struct ts_diags *d)
{
	struct ctx c;
	json_error_t err;
	json_t *root;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.m = m;
	c.d = d;
	c.file = file;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
	    &err);
	if (root == NULL) {
		ts_diag(d, TS_SEV_ERROR, file, err.line > 0 ? (uint64_t)err.line
		    : 1, err.column > 0 ? (uint64_t)err.column : 0, TS_RULE_M1,
		    "%s", err.text);
		return -1;
	}
	if (!json_is_object(root)) {
		ts_diag(d, TS_SEV_ERROR, file, 1, 1, TS_RULE_M1,
		    "the metadata must be one JSON object");
		json_decref(root);
		return -1;
	}
	scan_keys(&c, text, len);
	check_keys(&c, root);
	for (i = 0; i < c.npos; i++)
		free(c.pos[i].key);
	free(c.pos);
	json_decref(root);
	return 0;
}

/* The text of a metadata file, up to the cap (malloc'd, *lenp bytes),
 * or NULL (reported). */
static char *
slurp(struct ts_source *src, struct ts_diags *d, size_t *lenp)
{
	const char *path = ts_source_name(src);
	int64_t hint = ts_source_size(src);
	char *buf;
	long r;
	size_t len = 0, cap;

	/* Read up to the cap, whatever a size says; the size is a hint
	 * for the buffer, which grows as the text comes (a buffer of the
	 * cap for every file is dear under the sanitizers). */
	cap = hint >= 0 && (uint64_t)hint < META_MAX ? (size_t)hint + 1 :
	    65536;
	buf = ts_xmalloc(cap + 1);
	while (len < META_MAX && (r = ts_source_read(src, buf + len,
	    cap - len)) != 0) {
		if (r < 0) {
			if (ts_source_error(src) != NULL)
				ts_diag(d, TS_SEV_ERROR, path, 0, 0,
				    TS_RULE_NONE, "%s", ts_source_error(src));
			else
				ts_diag_io(d, path, "read error: %s",
				    strerror(errno));
			free(buf);
			return NULL;
		}
		len += (size_t)r;
		if (len == cap && cap < META_MAX) {
			cap = cap > META_MAX / 2 ? META_MAX : 2 * cap;
			buf = ts_xrealloc(buf, cap + 1);
		}
	}
	if (len == META_MAX) {
		ts_diag(d, TS_SEV_ERROR, path, 0, 0, TS_RULE_M1,
		    "metadata larger than %u bytes", META_MAX);
		free(buf);
		return NULL;
	}
	*lenp = len;
	return buf;
}

int
ts_meta_read(struct ts_meta *m, struct ts_source *src, struct ts_diags *d)
{
	size_t len;
	char *buf = slurp(src, d, &len);
	int rv;

	if (buf == NULL)
		return -1;
	rv = ts_meta_parse(m, buf, len, ts_source_name(src), d);
	free(buf);
	return rv;
}

int
ts_meta_read_upgraded(struct ts_meta *m, struct ts_source *src,
    struct ts_diags *d)
{
	const char *path = ts_source_name(src);
	size_t len;
	char *buf = slurp(src, d, &len), *up;
	int rv, n;

	if (buf == NULL)
		return -1;
	if ((up = ts_meta_upgrade(buf, len, path, d, &n)) != NULL) {
		free(buf);
		buf = up;
		len = strlen(up);
	}
	rv = ts_meta_parse(m, buf, len, path, d);
	free(buf);
	return rv;
}
