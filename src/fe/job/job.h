/*
 * job.h - the work of ts-convert and ts-sort (and the tools built like
 * them): find out what SRC is and what its attributes are, reading it
 * once to infer them when nothing states them; then run one flow,
 * decoder -> bounds -> type change -> sort -> encoders, into DST, which
 * appears whole or not at all.  Internal to libtensorsuite: the tools'
 * front ends use it, a C program uses the flow itself (tensorsuite.h).
 */
#ifndef TS_JOB_H
#define TS_JOB_H

#include "tensorsuite.h"

enum ts_pkind { TS_PK_AUTO, TS_PK_BUNDLE, TS_PK_TNS, TS_PK_TNSB,
	TS_PK_FROSTT, TS_PK_MTX, TS_PK_CUTENSOR };

/* "auto", "bundle", "tns", "tnsb", "frostt", "mtx", "cutensor", NULL */
extern const char *const ts_pkind_names[];

struct ts_job_opts {
	const char	*src, *dst, *meta;
	const char	*member;	/* the bundle of an archive SRC */
	enum ts_pkind	 from, to;
	bool		 force, e16, no_values;
	bool		 want_text, want_binary;
	int		 in_base, in_itype, in_vtype, in_endian;	/* -1 */
	int		 out_base, out_itype, out_vtype, out_endian;	/* -1 */
	uint64_t	 dims[TS_MAXORDER];
	int		 ndims;
	const char	*name, *group, *id, *time, *source, *source_url;
	const char	*source_type;
	/* sorting (ts-sort) */
	bool		 sort;
	bool		 check;		/* only tell whether SRC is sorted */
	bool		 inplace;	/* dst is src's bundle: keep README */
	int		 prio[TS_MAXORDER];	/* 0-based; nprio 0: from the
						 * metadata, else 1..N */
	int		 nprio;
	enum ts_dups	 dups;
	size_t		 mem_limit;
	const char	*tmpdir;
	int		 threads;	/* 0: the machine's cores */
	/* generating values (ts-gen-values): the generator's options, or
	 * NULL; a block tensor's elements, with values (expand); its
	 * blocks' dense values to a file (blocks_out; dst NULL: only) */
	const struct ts_genvalues_opts *gen;
	bool		 expand;
	const char	*blocks_out;
	/* the program and the command line, for the README of a bundle */
	const char	*program;
	const char	*command;
};

/* No changes asked (-1 everywhere), keep duplicates, one thread. */
void	 ts_job_opts_init(struct ts_job_opts *);
/* Run: every problem goes to d; returns the exit status (TS_EXIT_*). */
int	 ts_job_run(const struct ts_job_opts *, struct ts_diags *);

#endif
