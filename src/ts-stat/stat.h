/*
 * stat.h - what the files of ts-stat share: its options, and one tensor
 * (a bundle, a bundle of an archive, or a lone data file) with its
 * statistics, which main.c makes, report.c prints, plot.c (spy.c,
 * hist.c, on image.c) draws and readme.c writes into its bundle.
 */
#ifndef TS_STAT_H
#define TS_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fe.h"
#include "model/model.h"
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
	bool		 plot;		/* --plot */
	const char	*plot_dir;	/* --plot=DIR; NULL: each bundle's
					 * pictures folder */
	int		 size;		/* --size */
};

/* A picture of a tensor (plot.c). */
struct picture {
	char		*file;		/* its file's name */
	char		*what;		/* what it shows */
	char		*png;		/* its bytes; NULL: not drawn */
	size_t		 len;
	char		*path;		/* where it was written, or found the
					 * same; NULL: nowhere */
	bool		 inside;	/* ... in its bundle's pictures */
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
	struct fe_record rec;		/* its index record's metadata and
					 * files (--json, --csv) */
	struct picture	*pic;		/* its pictures, in the order a page
					 * shows them */
	size_t		 npic;
	/* --readme, or --plot into the bundle: the writer of its bundle,
	 * opened (its lock taken) before the entries are read, so that
	 * what goes in says what the bundle holds; NULL when none could
	 * be */
	struct ts_bundle_out *bo;
};

/* report.c */
void	 report_start(const struct opts *);
/* Print t in the format asked; false when it could not be read. */
void	 report(const struct tensor *, const struct opts *);
/* The text table of t, as report prints it, to fp (markdown: as the
 * README's section holds it). */
void	 report_table(FILE *fp, const struct tensor *, bool markdown);

/*
 * plot.c: the pictures of t into t->pic: named (draw false: those ts-stat
 * draws of its statistics), or drawn too (draw true; its statistics
 * were gathered with grids); -1 when one could not be encoded (reported
 * to t->d).  plot_write: into o->plot_dir/NAME/, each file written
 * beside its place and renamed into it; one that holds the same bytes is
 * left alone, one that holds others is replaced only with -f; -1 when
 * one could not be (reported to t->d).
 */
int	 plot(struct tensor *, const struct opts *, bool draw);
int	 plot_write(struct tensor *, const struct opts *);
/* Does the file at path hold the n bytes at p?  Read as a file of a
 * bundle is: never through a link, never anything but a regular file. */
bool	 same_file(const char *path, const char *p, size_t n);
/* The name of a bundle's folder of pictures. */
#define PICTURES	TS_BUNDLE_PICTURES

/*
 * readme.c: what ts-stat writes into a bundle directory t->dir: the
 * "Statistics" section of its README.md (--readme) and its pictures
 * folder (--plot without a directory).  bundle_lock takes its lock,
 * before its entries are read (t->bo; reported to t->d when it cannot
 * be taken); bundle_write writes what changed, or nothing when nothing
 * did, t->bo committed or given up: -1 when it could not be (reported
 * to t->d).
 */
void	 bundle_lock(struct tensor *);
int	 bundle_write(struct tensor *, const struct opts *);

#endif
