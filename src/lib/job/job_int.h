/*
 * job_int.h - the state of one job, shared by its files: input.c (what
 * SRC is, its source and layout), import.c (attributes inferred by
 * reading), output.c (DST: sinks, encoders, the bundle's metadata and
 * README) and run.c (the flow between them).
 */
#ifndef TS_JOB_INT_H
#define TS_JOB_INT_H

#include "tensorsuite.h"
#include "job/job.h"

#define JOB_BATCH	8192

struct job {
	const struct ts_job_opts *o;
	struct ts_diags		*d;
	enum ts_pkind		 from, to;
	enum ts_pkind		 src_kind;	/* what SRC was, for README */
	const char		*sname;		/* SRC in messages */
	struct ts_bundle	*bd;		/* bundle input, or NULL */
	const char		*data_file;	/* ... its data file */
	struct ts_source	*src;		/* the data */
	bool			 used;		/* src was read: rewind it */
	struct ts_meta		 m;		/* attributes (output) */
	struct ts_meta		*mp;		/* the bundle's, or &m */
	bool			 meta_known;
	struct ts_layout	 in;		/* how to read */
	char			*dstdir;	/* bundle DST, no trailing / */
	struct ts_sink		*sink;		/* file DST, opened first */
	struct ts_bundle_out	*bo;		/* bundle DST, opened first */
};

/* input.c */
int	 job_input(struct job *);
struct ts_decoder *job_decoder(struct job *, const struct ts_layout *);
void	 job_input_free(struct job *);
/* import.c */
int	 job_infer(struct job *, bool light);
/* output.c */
int	 job_open_output(struct job *);
char	*job_today(void);
void	 job_describe(struct job *);
int	 job_write(struct job *);

#endif
