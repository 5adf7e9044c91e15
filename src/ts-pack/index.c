/*
 * index.c - the index ts-pack --index writes beside its archives, the
 * way SuiteSparse publishes ssstats.csv beside its matrices: one record
 * per bundle, with what a catalogue shows (name, group, id, shape, nnz,
 * density, value type), the size and SHA-256 of each file (from the
 * manifest of the archive it went into), and the statistics of
 * its entries, the columns of ts-stat(1) (fe/statsout.c), counted on a
 * pass of the checks over it.  JSON, or CSV when the file's name ends in
 * .csv.  No date, no host: the same bundles give the same index.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pack.h"
#include "statsout.h"
#include "model/model.h"
#include "util/escape.h"
#include "util/path.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A JSON string. */
static void
jstr(struct ts_strbuf *b, const char *s)
{
	json_t *j = json_string(s != NULL ? s : "");
	char *r = j != NULL ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	ts_sbprintf(b, "%s", r != NULL ? r : "null");
	free(r);
	json_decref(j);
}

/* A CSV cell of text, as ts-stat writes one (util/escape.h). */
static void
cstr(struct ts_strbuf *b, const char *s)
{
	char *c = ts_csv_cell(s);

	ts_sbprintf(b, "%s", c);
	free(c);
}

struct files {
	char		**name;
	int64_t		*size;
	size_t		 n;
	struct ts_bundle *bd;
};

static int
addfile(const char *fname, void *arg)
{
	struct files *f = arg;
	struct ts_file_stat fs;

	/* What the archive holds: ts_archive_out_bundle leaves out the
	 * rest. */
	if (!ts_archive_packs(f->bd, fname) ||
	    ts_bundle_stat(f->bd, fname, &fs) != 0)
		return 0;
	f->name = ts_xreallocarray(f->name, f->n + 1, sizeof(*f->name));
	f->size = ts_xreallocarray(f->size, f->n + 1, sizeof(*f->size));
	f->name[f->n] = ts_xstrdup(fname);
	f->size[f->n++] = fs.size;
	return 0;
}

static int
byname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of a bundle, by name. */
static void
files_of(struct ts_bundle *bd, struct files *f)
{
	size_t i, j;

	memset(f, 0, sizeof(*f));
	f->bd = bd;
	ts_bundle_list(bd, addfile, f);
	/* Sort names and sizes together: names first, then look up. */
	for (i = 1; i < f->n; i++)
		for (j = i; j > 0 && byname(&f->name[j - 1], &f->name[j]) > 0;
		    j--) {
			char *t = f->name[j];
			int64_t z = f->size[j];

			f->name[j] = f->name[j - 1];
			f->size[j] = f->size[j - 1];
			f->name[j - 1] = t;
			f->size[j - 1] = z;
		}
}

static void
files_free(struct files *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->name[i]);
	free(f->name);
	free(f->size);
}

/*
 * The digest of file fname of the bundle, in hex as the manifest of its
 * archive has it (its line "HEX  NAME/FILE", escaped as sha256sum
 * escapes a name with a backslash or a newline), or NULL.
 */
static const char *
digest(const struct item *it, const char *fname, char *hex)
{
	struct ts_strbuf want = { NULL, 0, 0 };
	const char *p, *s;
	bool esc;

	if (it->sums == NULL || fname == NULL)
		return NULL;
	esc = strpbrk(fname, "\\\n") != NULL;
	ts_sbprintf(&want, "  %s/", ts_bundle_name(it->bd));
	for (p = fname; *p != '\0'; p++)
		if (esc && (*p == '\\' || *p == '\n'))
			ts_sbprintf(&want, "\\%c", *p == '\n' ? 'n' : '\\');
		else
			ts_sbprintf(&want, "%c", *p);
	ts_sbprintf(&want, "\n");
	for (s = it->sums; (p = strstr(s, want.s)) != NULL; s = p + 1)
		if (p - it->sums >= 64 && (p - 64 == it->sums ||
		    p[-65] == '\n' || (p[-65] == '\\' && (p - 65 == it->sums ||
		    p[-66] == '\n'))))
			break;
	free(want.s);
	if (p == NULL)
		return NULL;
	memcpy(hex, p - 64, 64);
	hex[64] = '\0';
	return hex;
}

static bool
shaped(const struct ts_meta *m)
{
	const unsigned need = TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_NNZ;

	return m != NULL && (m->have & need) == need;
}

/* nnz over the number of positions, exactly (stats/ratio.c). */
static void
density(struct ts_strbuf *b, const struct ts_meta *m)
{
	char *r = fe_stats_ratio(m->nnz, m->dims, m->order);

	ts_sbprintf(b, "%s", r);
	free(r);
}

/* The statistics of a bundle's entries: false when they could not be
 * read. */
static bool
stats_of(const struct item *it, struct fe_stats *s, struct fe_verdict *v)
{
	struct ts_diags *d = ts_diags_new(1, false);
	struct ts_check_opts co;

	memset(&co, 0, sizeof(co));
	fe_stats_init(s, NULL);
	if (ts_bundle_meta(it->bd) != NULL)
		fe_stats_bundle(it->bd, &co, s, d);
	fe_verdict_of(d, v);
	ts_diags_free(d);
	return s->complete;
}

/* What fn prints to a stream, appended to b. */
static void
append(struct ts_strbuf *b, const struct fe_stats *s,
    const struct fe_verdict *v, bool ok, bool csv)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		ts_xoom(len);
	if (csv && ok)
		fe_stats_csv_row(fp, s, v, false);
	else if (csv)
		fe_stats_csv_empty(fp, v, false);
	else if (ok) {
		fputs("{\n      ", fp);
		fe_stats_json(fp, s, v, "      ");
		fputs("\n    }", fp);
	} else
		fputs("null", fp);
	fclose(fp);
	ts_sbprintf(b, "%s", text != NULL ? text : "");
	free(text);
}

static void
json_record(struct ts_strbuf *b, const struct item *it, bool last)
{
	const struct ts_meta *m = ts_bundle_meta(it->bd);
	struct fe_stats s;
	struct fe_verdict v;
	bool ok;
	struct files f;
	int64_t total = 0;
	char hex[TS_SHA256_HEX];
	size_t i;
	int k;

	ts_sbprintf(b, "  {\n    \"name\": ");
	jstr(b, ts_bundle_name(it->bd));
	ts_sbprintf(b, ",\n    \"group\": ");
	if (m != NULL && m->group != NULL)
		jstr(b, m->group);
	else
		ts_sbprintf(b, "null");
	ts_sbprintf(b, ",\n    \"id\": ");
	if (m != NULL && m->id != NULL)
		jstr(b, m->id);
	else
		ts_sbprintf(b, "null");
	ts_sbprintf(b, ",\n    \"archive\": ");
	jstr(b, it->archive);
	if (shaped(m)) {
		ts_sbprintf(b, ",\n    \"order\": %d,\n    \"dimensions\": [",
		    m->order);
		for (k = 0; k < m->order; k++)
			ts_sbprintf(b, "%s%llu", k ? ", " : "",
			    (unsigned long long)m->dims[k]);
		ts_sbprintf(b, "],\n    \"nnz\": %llu,\n    \"density\": ",
		    (unsigned long long)m->nnz);
		density(b, m);
	} else
		ts_sbprintf(b, ",\n    \"order\": null,\n    \"dimensions\": "
		    "null,\n    \"nnz\": null,\n    \"density\": null");
	ts_sbprintf(b, ",\n    \"sparsity_type\": ");
	if (m != NULL && (m->have & TS_HAVE_SPARSITY))
		jstr(b, ts_sparsity_name(m->sparsity));
	else
		ts_sbprintf(b, "null");
	ts_sbprintf(b, ",\n    \"value_type\": ");
	if (m != NULL && (m->have & TS_HAVE_VTYPE))
		jstr(b, ts_vtype_name(m->value_type));
	else
		ts_sbprintf(b, "null");
	ts_sbprintf(b, ",\n    \"files\": {");
	files_of(it->bd, &f);
	for (i = 0; i < f.n; i++) {
		ts_sbprintf(b, "%s\n      ", i ? "," : "");
		jstr(b, f.name[i]);
		ts_sbprintf(b, ": %lld", (long long)f.size[i]);
		total += f.size[i];
	}
	ts_sbprintf(b, "%s},\n    \"sha256\": {", f.n ? "\n    " : "");
	for (i = 0; i < f.n; i++) {
		ts_sbprintf(b, "%s\n      ", i ? "," : "");
		jstr(b, f.name[i]);
		if (digest(it, f.name[i], hex) != NULL)
			ts_sbprintf(b, ": \"%s\"", hex);
		else
			ts_sbprintf(b, ": null");
	}
	ts_sbprintf(b, "%s},\n    \"bytes\": %lld,\n    \"statistics\": ",
	    f.n ? "\n    " : "", (long long)total);
	files_free(&f);
	ok = stats_of(it, &s, &v);
	append(b, &s, &v, ok, false);
	fe_stats_free(&s);
	ts_sbprintf(b, "\n  }%s\n", last ? "" : ",");
}

/* Bytes of the file named fname, or 0. */
static int64_t
size_of(const struct files *f, const char *fname)
{
	size_t i;

	for (i = 0; fname != NULL && i < f->n; i++)
		if (strcmp(f->name[i], fname) == 0)
			return f->size[i];
	return 0;
}

static void
csv_record(struct ts_strbuf *b, const struct item *it)
{
	const struct ts_meta *m = ts_bundle_meta(it->bd);
	struct fe_stats s;
	struct fe_verdict v;
	bool ok;
	const char *name = ts_bundle_name(it->bd);
	int64_t meta, readme, text, bin, total = 0;
	struct files f;
	char *mf, hex[TS_SHA256_HEX];
	const char *dg;
	size_t i;
	int k;

	cstr(b, name);
	ts_sbprintf(b, ",");
	cstr(b, m ? m->group : NULL);
	ts_sbprintf(b, ",");
	cstr(b, m ? m->id : NULL);
	ts_sbprintf(b, ",");
	cstr(b, it->archive);
	if (shaped(m)) {
		ts_sbprintf(b, ",%d,", m->order);
		for (k = 0; k < m->order; k++)
			ts_sbprintf(b, "%s%llu", k ? "x" : "",
			    (unsigned long long)m->dims[k]);
		ts_sbprintf(b, ",%llu,", (unsigned long long)m->nnz);
		density(b, m);
	} else
		ts_sbprintf(b, ",,,,");
	ts_sbprintf(b, ",%s,%s", m && (m->have & TS_HAVE_SPARSITY) ?
	    ts_sparsity_name(m->sparsity) : "", m && (m->have &
	    TS_HAVE_VTYPE) ? ts_vtype_name(m->value_type) : "");
	files_of(it->bd, &f);
	mf = ts_xasprintf("%s_metadata.json", name);
	meta = size_of(&f, mf);
	readme = size_of(&f, m && m->f_readme ? m->f_readme : "README.md");
	text = size_of(&f, ts_bundle_data_file(it->bd, TS_KIND_TEXT));
	bin = size_of(&f, ts_bundle_data_file(it->bd, TS_KIND_BINARY));
	for (i = 0; i < f.n; i++)
		total += f.size[i];
	ts_sbprintf(b, ",%lld,%lld,%lld,%lld,%lld,%lld", (long long)meta,
	    (long long)readme, (long long)text, (long long)bin,
	    (long long)(total - meta - readme - text - bin), (long long)total);
	for (k = 0; k < 4; k++)
		ts_sbprintf(b, ",%s", (dg = digest(it, k == 0 ? mf : k == 1 ?
		    (m && m->f_readme ? m->f_readme : "README.md") : k == 2 ?
		    ts_bundle_data_file(it->bd, TS_KIND_TEXT) :
		    ts_bundle_data_file(it->bd, TS_KIND_BINARY), hex)) != NULL ?
		    dg : "");
	free(mf);
	files_free(&f);
	ok = stats_of(it, &s, &v);
	append(b, &s, &v, ok, true);
	fe_stats_free(&s);
	ts_sbprintf(b, "\n");
}

int
write_index(struct ts_sink *k, const char *path, const struct item *v,
    size_t n, struct ts_diags *d)
{
	bool csv = ts_has_suffix(path, ".csv");
	struct ts_strbuf b = { NULL, 0, 0 };
	size_t i;

	b.cap = 4096;
	b.s = ts_xmalloc(b.cap);
	b.s[0] = '\0';
	if (csv) {
		char *head = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&head, &len);

		if (fp == NULL)
			ts_xoom(len);
		fe_stats_csv_head(fp, false);
		fclose(fp);
		ts_sbprintf(&b, "name,group,id,archive,order,dimensions,nnz,"
		    "density,sparsity_type,value_type,metadata_bytes,"
		    "readme_bytes,text_bytes,binary_bytes,other_bytes,bytes,"
		    "metadata_sha256,readme_sha256,text_sha256,binary_sha256"
		    "%s\n", head != NULL ? head : "");
		free(head);
	}
	else
		ts_sbprintf(&b, "[\n");
	for (i = 0; i < n; i++) {
		if (csv)
			csv_record(&b, &v[i]);
		else
			json_record(&b, &v[i], i + 1 == n);
	}
	if (!csv)
		ts_sbprintf(&b, "]\n");
	/* A failed write fails the commit. */
	(void)ts_sink_write(k, b.s, b.n);
	if (ts_sink_commit(k) != 0) {
		ts_diag_io(d, path, "%s", strerror(errno));
		free(b.s);
		return -1;
	}
	free(b.s);
	return 0;
}
