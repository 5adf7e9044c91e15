/*
 * index.c - the index ts-pack --index writes beside its archives, the
 * way SuiteSparse publishes ssstats.csv beside its matrices: one record
 * per bundle, the columns ts-stat --csv writes (fe/statsout.c: what a
 * catalogue shows, the size and SHA-256 of its files, those of the
 * manifest of the archive it went into, and the statistics of its
 * entries, counted on a pass of the checks over it).  JSON (an array,
 * a record a line, with the keys of ts-stat --json), or CSV when the
 * file's name ends in .csv.  No date, no host: the same bundles give
 * the same index.
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

/* The record of a bundle (fe/statsout.h), the digests of its files
 * those of its archive's manifest; r->s and r->v point into s and v. */
static void
record_of(const struct item *it, struct fe_record *r, struct fe_stats *s,
    struct fe_verdict *v)
{
	const struct ts_meta *m = ts_bundle_meta(it->bd);
	char *mf = ts_xasprintf("%s_metadata.json", ts_bundle_name(it->bd));
	const char *fn[FE_NF];
	char hex[TS_SHA256_HEX];
	int i;

	fe_record_init(r);
	r->path = it->path;
	r->name = ts_bundle_name(it->bd);
	r->archive = it->archive;
	fe_record_meta(r, m);
	fe_record_files(r, it->bd, false);
	fn[FE_F_META] = mf;
	fn[FE_F_README] = m != NULL && m->f_readme != NULL ? m->f_readme :
	    "README.md";
	fn[FE_F_TEXT] = ts_bundle_data_file(it->bd, TS_KIND_TEXT);
	fn[FE_F_BINARY] = ts_bundle_data_file(it->bd, TS_KIND_BINARY);
	for (i = 0; i < FE_NF; i++)
		if (r->bytes[i] >= 0 && digest(it, fn[i], hex) != NULL)
			memcpy(r->sha256[i], hex, TS_SHA256_HEX);
	free(mf);
	stats_of(it, s, v);
	r->s = s;
	r->v = v;
}

/* What fe_record_write writes, appended to b. */
static void
append(struct ts_strbuf *b, const struct fe_record *r, enum fe_form form)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		ts_xoom(len);
	fe_record_write(fp, r, form);
	if (form == FE_JSON && r->s->complete) {
		fputs(", ", fp);
		fe_stats_json(fp, r->s, NULL);
	}
	fclose(fp);
	ts_sbprintf(b, "%s", text != NULL ? text : "");
	free(text);
}

/* A bundle's JSON record: the columns, then every file the archive
 * holds with its size and digest, then the details of the statistics
 * that ts-stat --json gives too; on one line. */
static void
json_record(struct ts_strbuf *b, const struct item *it, bool last)
{
	struct fe_record r;
	struct fe_stats s;
	struct fe_verdict v;
	struct files f;
	char hex[TS_SHA256_HEX];
	size_t i;

	record_of(it, &r, &s, &v);
	ts_sbprintf(b, "{");
	append(b, &r, FE_JSON);
	ts_sbprintf(b, ", \"files\": {");
	files_of(it->bd, &f);
	for (i = 0; i < f.n; i++) {
		ts_sbprintf(b, "%s", i ? ", " : "");
		jstr(b, f.name[i]);
		ts_sbprintf(b, ": %lld", (long long)f.size[i]);
	}
	ts_sbprintf(b, "}, \"sha256\": {");
	for (i = 0; i < f.n; i++) {
		ts_sbprintf(b, "%s", i ? ", " : "");
		jstr(b, f.name[i]);
		if (digest(it, f.name[i], hex) != NULL)
			ts_sbprintf(b, ": \"%s\"", hex);
		else
			ts_sbprintf(b, ": null");
	}
	ts_sbprintf(b, "}}%s\n", last ? "" : ",");
	files_free(&f);
	fe_stats_free(&s);
	fe_record_free(&r);
}

static void
csv_record(struct ts_strbuf *b, const struct item *it)
{
	struct fe_record r;
	struct fe_stats s;
	struct fe_verdict v;

	record_of(it, &r, &s, &v);
	append(b, &r, FE_CSV);
	ts_sbprintf(b, "\n");
	fe_stats_free(&s);
	fe_record_free(&r);
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
		fe_record_write(fp, NULL, FE_HEAD);
		fclose(fp);
		ts_sbprintf(&b, "%s\n", head != NULL ? head : "");
		free(head);
	} else
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
