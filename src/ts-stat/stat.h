/*
 * stat.h - what the files of ts-stat share: its options, and one tensor
 * (a bundle, a bundle of an archive, or a lone data file) with its
 * statistics, which main.c makes, report.c prints, plot.c draws and
 * readme.c writes into its bundle's README.md.
 */
#ifndef TS_STAT_H
#define TS_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fe.h"
#include "statsout.h"
#include "stats/stats.h"

enum format { FMT_TEXT, FMT_JSON, FMT_CSV };

struct opts {
	enum format	 format;
	bool		 quiet, strict, recursive, force, readme;
	bool		 fibers, exact, fit;
	size_t		 max_per_rule;
	const char	*meta;		/* --meta: for lone data files */
	size_t		 mem_limit;	/* -S */
	const char	*tmpdir;	/* -T */
	const char	*plot;		/* --plot DIR */
	int		 size;		/* --size */
};

/* The files of a bundle, as sized in a report. */
enum { F_META, F_README, F_TEXT, F_BINARY, NFILES };

struct tensor {
	char		*path;		/* as shown: PATH, or ARCHIVE:NAME */
	char		*name;		/* the bundle's, or the file's stem */
	char		*dir;		/* a bundle directory, or NULL */
	char		*fname[NFILES];	/* a bundle's files, or NULL */
	int64_t		 bytes[NFILES];
	struct ts_diags	*d;
	struct fe_stats	 s;
	struct fe_verdict v;
	char		**pics;		/* the pictures written */
	char		**pic_what;	/* ... and what each shows */
	size_t		 npics;
	/* --readme: the writer of its bundle, opened (its lock taken)
	 * before the entries are read, so that the section says what the
	 * bundle it goes into holds; NULL when none could be */
	struct ts_bundle_out *bo;
};

/* report.c */
void	 report_start(const struct opts *);
/* Print t in the format asked; false when it could not be read. */
void	 report(const struct tensor *, const struct opts *);
/* The text table of t, as report prints it, to fp (markdown: as the
 * README's section holds it). */
void	 report_table(FILE *fp, const struct tensor *, bool markdown);

/* plot.c: the pictures of t in dir, named in t->pics; -1 when one
 * could not be written (reported to t->d). */
int	 plot(struct tensor *, const struct opts *);

/* readme.c: take the lock of t's bundle directory t->dir for its
 * README, before its entries are read (t->bo; reported to t->d when it
 * cannot be taken); then the "Statistics" section of its README.md,
 * written or replaced, t->bo committed or given up: -1 when it could
 * not be (reported to t->d). */
void	 readme_lock(struct tensor *);
int	 readme(struct tensor *, const struct opts *);

#endif
