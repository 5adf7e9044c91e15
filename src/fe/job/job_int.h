/*
 * job_int.h - the state of one job, shared by its files: input.c (what
 * SRC is, its source and layout), import.c (attributes inferred by
 * reading), output.c (DST: sinks, encoders, the bundle's metadata and
 * README) and run.c (the flow between them, and what a tool's part
 * sees of the job).
 */
#ifndef TS_JOB_INT_H
#define TS_JOB_INT_H

#include "tensorsuite.h"
#include "job/job.h"

#define JOB_BATCH	8192

struct job {
	const struct ts_job_opts *o;
	struct ts_diags		*d;
	int			 from, to;	/* enum ts_kind; TS_JOB_AUTO */
	enum ts_kind		 src_kind;	/* what SRC was, for README */
	const char		*sname;		/* SRC in messages */
	struct ts_bundle	*bd;		/* bundle input, or NULL */
	struct ts_bundles	*ar;		/* ... the archive it is in */
	bool			 dst_archive;	/* DST is a .tar.zst, ... */
	const char		*data_file;	/* ... its data file */
	struct ts_source	*src;		/* the data */
	bool			 used;		/* src was read: rewind it */
	struct ts_meta		 m;		/* attributes (output) */
	struct ts_meta		*mp;		/* the bundle's, or &m */
	bool			 meta_known;
	struct ts_layout	 in;		/* how to read */
	char			*dstdir;	/* bundle DST, no trailing / */
	bool			 stream;	/* DST is '-', a device, a FIFO */
	const struct ts_job_part *part;		/* the tool's, or NULL */
	bool			 out_text;	/* outputs copy texts */
	struct ts_sink		*sink;		/* file DST, opened first */
	struct ts_bundle_out	*bo;		/* bundle DST, opened first */
	void			*written;	/* files the part put in it:
						 * names, as JSON keys */
};

/* input.c */
int	 ts_job_input(struct job *);
/* A file name whose suffix formats share (.bin) names none: a usage
 * error asking for opt (--from, --to); -1 then, else 0. */
int	 ts_job_shared_suffix(struct job *, const char *path, const char *opt);
int	 ts_job_input_end(struct job *);
void	 ts_job_input_free(struct job *);
/* import.c */
int	 ts_job_infer(struct job *, bool light);
/* output.c */
int	 ts_job_open_output(struct job *);
void	 ts_job_describe(struct job *);
int	 ts_job_write(struct job *);

#endif
