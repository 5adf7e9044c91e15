/*
 * validate.h - what the files of ts-validate share: its options, and the
 * outcome of one operand, which operand.c makes and report.c prints.
 */
#ifndef TS_VALIDATE_H
#define TS_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fe.h"

enum format { FMT_TEXT, FMT_JSON, FMT_GITHUB, FMT_JUNIT };

struct opts {
	enum format	 format;
	bool		 quick, quiet, strict, recursive;
	size_t		 max_per_rule;
	const char	*meta;		/* --meta: for lone data files */
	int		 jobs;
	size_t		 mem_limit;	/* -S: for the checks that sort */
	const char	*tmpdir;	/* -T */
	const char	*checksums;	/* --checksums FILE, or NULL */
};

/*
 * One operand, checked; or one bundle of an archive operand, whose
 * result holds those of its bundles (sub) and is itself the report of
 * the archive's own problems (its members, its manifest).
 */
struct result {
	char		*path;		/* as given (or found by -r), or
					 * ARCHIVE:NAME */
	char		*name;		/* the bundle's name, or NULL */
	char		*archive;	/* the archive it is or is in, or
					 * NULL */
	bool		 bundle;	/* a bundle, not a lone data file */
	struct ts_diags	*d;
	bool		 valid;
	int		 status;	/* TS_EXIT_* */
	double		 seconds;
	struct result	*sub;		/* an archive's bundles */
	size_t		 nsub;
};

/* operand.c: an operand checked into a result, which result_free
 * frees (not the struct). */
void	 check_operand(const char *path, const struct opts *,
	    struct result *);
void	 result_free(struct result *);

/* sums.c: --checksums FILE checked into *d; the folders of the files
 * it lists into *dirs. */
void	 check_sums(const char *file, const struct opts *,
	    struct ts_diags **d, char ***dirs, size_t *ndirs);

/* report.c: an archive's result is reported bundle by bundle, then
 * the archive's own. */
void	 report_start(const struct opts *);
void	 report(const struct result *, const struct opts *);
void	 report_end(const struct result *, size_t n, const struct opts *);
/* The worst status of r and, for an archive, of its bundles. */
int	 result_status(const struct result *);

#endif
