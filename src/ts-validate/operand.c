/*
 * operand.c - one operand of ts-validate, checked: a bundle, a lone data
 * file or standard input, or a tar archive of bundles, each as
 * fe/operand.c tells them apart, into a result that report.c prints.
 */
#include <string.h>

#include "validate.h"
#include "operand.h"
#include "util/progress.h"
#include "util/xalloc.h"

void
check_operand(const char *path, const struct opts *o, struct result *r)
{
	struct ts_check_opts co = { o->quick, o->mem_limit, o->tmpdir,
	    o->jobs > 1 ? 1 : 0, NULL };
	struct ts_bundle *bd;
	double t0 = ts_seconds();

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
		r->bundle = true;
		ts_check_archive(path, &co, r->d);
		break;
	case FE_OPERAND_DATA:
		fe_check_data(path, o->meta, &co, &r->name, r->d);
		break;
	}
	r->valid = ts_diags_errors(r->d) == 0;
	r->status = ts_diags_status(r->d);
	r->seconds = ts_seconds() - t0;
}
