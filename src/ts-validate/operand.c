/*
 * operand.c - one operand of ts-validate, checked: a bundle, a lone data
 * file or standard input, or a tar archive of bundles, each as
 * fe/operand.c tells them apart, into a result that report.c prints.
 */
#include <stdlib.h>
#include <string.h>

#include "validate.h"
#include "operand.h"
#include "util/progress.h"
#include "util/xalloc.h"

static void
verdict(struct result *r)
{
	r->valid = ts_diags_errors(r->d) == 0;
	r->status = ts_diags_status(r->d);
}

/*
 * An archive: each bundle a result of its own, ARCHIVE:NAME, its
 * integrity (what the manifest says of its files) in it; the archive's
 * own problems (a member no bundle holds, a broken stream, the manifest
 * itself or its absence, no bundle at all) in r.
 */
static void
check_archive(const char *path, const struct opts *o,
    const struct ts_check_opts *co, struct result *r)
{
	const char *label = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct ts_bundles *bs;
	struct ts_bundle *bd;
	struct result *b;
	double t0;
	size_t i;

	r->archive = ts_xstrdup(label);
	if ((bs = ts_bundles_open(path, o->tmpdir, r->d)) == NULL)
		return;
	ts_bundles_split(bs);
	for (;;) {
		t0 = ts_seconds();
		r->sub = ts_xreallocarray(r->sub, r->nsub + 1, sizeof(*r->sub));
		b = &r->sub[r->nsub];
		memset(b, 0, sizeof(*b));
		b->d = ts_diags_new(o->max_per_rule, o->strict);
		if ((bd = ts_bundles_next(bs, NULL, b->d)) == NULL) {
			ts_diags_free(b->d);
			break;
		}
		r->nsub++;
		b->name = ts_xstrdup(ts_bundle_name(bd));
		b->path = ts_xasprintf("%s:%s", label, b->name);
		b->archive = ts_xstrdup(label);
		b->bundle = true;
		ts_check_bundle(bd, co, b->d);
		ts_bundle_free(bd);
		b->seconds = ts_seconds() - t0;
	}
	if (r->nsub == 0 && ts_diags_errors(r->d) == 0)
		ts_diag(r->d, TS_SEV_ERROR, label, 0, 0, TS_RULE_B5,
		    "the archive holds no bundle");
	for (i = 0; i < r->nsub; i++) {
		ts_bundles_verdict(bs, r->sub[i].name, r->sub[i].d);
		verdict(&r->sub[i]);
	}
	ts_bundles_close(bs);
}

void
result_free(struct result *r)
{
	size_t i;

	for (i = 0; i < r->nsub; i++)
		result_free(&r->sub[i]);
	free(r->sub);
	ts_diags_free(r->d);
	free(r->path);
	free(r->name);
	free(r->archive);
}

void
check_operand(const char *path, const struct opts *o, struct result *r)
{
	struct ts_check_opts co = { o->quick, o->mem_limit, o->tmpdir,
	    o->jobs > 1 ? 1 : 0, NULL, false };
	struct ts_bundle *bd;
	double t0 = ts_seconds();
	size_t i;

	memset(r, 0, sizeof(*r));
	r->path = ts_xstrdup(path);
	r->d = ts_diags_new(o->max_per_rule, o->strict);
	switch (fe_operand_kind(path, r->d)) {
	case FE_OPERAND_NONE:
		break;
	case FE_OPERAND_BUNDLE:
		r->bundle = true;
		if ((bd = ts_bundle_open(path, r->d)) != NULL) {
			r->name = ts_xstrdup(ts_bundle_name(bd));
			ts_check_bundle(bd, &co, r->d);
		}
		ts_bundle_free(bd);
		break;
	case FE_OPERAND_ARCHIVE:
		check_archive(path, o, &co, r);
		break;
	case FE_OPERAND_DATA:
		fe_check_data(path, o->meta, &co, &r->name, r->d);
		break;
	}
	verdict(r);
	r->seconds = ts_seconds() - t0;
	for (i = 0; i < r->nsub; i++)
		r->seconds -= r->sub[i].seconds;
}
