/*
 * operand.h - what an operand of a tool that reads tensors whole is
 * (ts-validate, ts-stat): a bundle (its directory or metadata file); a
 * lone data file, read against the metadata beside it, --meta, or its
 * own header; standard input as such a file; a tar archive of bundles;
 * and, with -r, every bundle below a directory.  Not installed.
 */
#ifndef TS_FE_OPERAND_H
#define TS_FE_OPERAND_H

#include <stdbool.h>
#include <stddef.h>

#include "tensorsuite.h"

enum fe_operand { FE_OPERAND_NONE, FE_OPERAND_BUNDLE, FE_OPERAND_ARCHIVE,
	FE_OPERAND_DATA };

/* What path is; FE_OPERAND_NONE when there is nothing to read there
 * (said in d: an I/O error, or what the bundle's opener tells of a
 * missing bundle). */
enum fe_operand fe_operand_kind(const char *path, struct ts_diags *d);

/*
 * Check a lone data file, or standard input for "-", as co says: against
 * the metadata at meta (NULL: the NAME_metadata.json beside the file,
 * when there is one), else against what it says of itself.  *name gets
 * the metadata's name (malloc'd), or NULL.
 */
void	 fe_check_data(const char *path, const char *meta,
	    const struct ts_check_opts *co, char **name, struct ts_diags *d);

/* Every bundle below dir, sorted by path; the count, or -1 (said in
 * why) when dir cannot be read. */
int	 fe_find_bundles(const char *dir, char ***paths, struct ts_diags *why);

/*
 * The operands of argv, with -r's directories (recursive) expanded to
 * the bundles below them, into *out (n of them, malloc'd).  A directory
 * that gives none stays an operand, with why, in (*whyv)[i], in place of
 * its checks (NULL for the others): diagnostics made with max_per_rule
 * and strict.  Returns n.
 */
size_t	 fe_operands(int argc, char *argv[], bool recursive,
	    size_t max_per_rule, bool strict, char ***out,
	    struct ts_diags ***whyv);

#endif
