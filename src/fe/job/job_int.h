/*
 * job_int.h - the state of one job, shared by its files: input.c (what
 * SRC is, its source and layout), import.c (attributes inferred by
 * reading), output.c (DST: sinks, encoders, the bundle's metadata and
 * README) and run.c (the flow between them, and what a tool's part
 * sees of the job).
 */
#ifndef FE_JOB_INT_H
#define FE_JOB_INT_H

#include "tensorsuite.h"
#include "job/job.h"

#define JOB_BATCH	8192

struct fe_job {
	const struct fe_job_opts *o;
	struct ts_diags		*d;
	int			 from, to;	/* enum ts_kind; FE_JOB_AUTO */
	enum ts_kind		 src_kind;	/* what SRC was, for README */
	const char		*sname;		/* SRC in messages */
	struct ts_bundle	*bd;		/* bundle input, or NULL */
	struct ts_bundles	*ar;		/* ... the archive it is in */
	bool			 dst_archive;	/* DST is a .tar.zst, ... */
	const char		*data_file;	/* ... its data file */
	struct ts_source	*src;		/* the data */
	bool			 used;		/* src was read: rewind it */
	/* The inference's decoder when it read no entry (its header
	 * said what it needed): the next to ask for one with its layout
	 * takes it, rather than open the file again. */
	struct ts_decoder	*spare;
	struct ts_layout	 spare_lay;	/* ... the layout it asked */
	struct ts_meta		 m;		/* attributes (output) */
	struct ts_meta		*mp;		/* the bundle's, or &m */
	bool			 meta_known;
	bool			 kept;		/* ... from the file itself */
	struct ts_layout	 in;		/* how to read */
	char			*dstdir;	/* bundle DST, no trailing / */
	bool			 stream;	/* DST is '-', a device, a FIFO */
	const struct fe_job_part *part;		/* the tool's, or NULL */
	bool			 out_text;	/* outputs copy texts */
	struct ts_sink		*sink;		/* file DST, opened first */
	struct ts_bundle_out	*bo;		/* bundle DST, opened first */
	void			*written;	/* files the part put in it:
						 * names, as JSON keys */
	char			*provenance;	/* README section of what
						 * SRC's header says, or NULL */
};

/* input.c */
int	 fe_job_input(struct fe_job *);
/* A file name whose suffix formats share (.bin) names none: a usage
 * error asking for opt (--from, --to); -1 then, else 0. */
int	 fe_job_shared_suffix(struct fe_job *, const char *path, const char *opt);
int	 fe_job_input_end(struct fe_job *);
void	 fe_job_input_free(struct fe_job *);
/* import.c */
int	 fe_job_infer(struct fe_job *, bool light);
/* provenance.c: what the comment lines of SRC's header say (NULL:
 * none), in a README section and, from the SuiteSparse Matrix
 * Collection's, in the descriptive keys of the metadata. */
void	 fe_job_provenance(struct fe_job *, const char *comments);
/* symmetry.c: how a Matrix Market DST is written: *sym the
 * ts_encode_opts' mtx_sym, *stored the entries its size line counts: 0,
 * or -1 (reported). */
int	 fe_job_mtx_symmetry(struct fe_job *, int *sym, uint64_t *stored);
/* output.c */
int	 fe_job_open_output(struct fe_job *);
void	 fe_job_describe(struct fe_job *);
int	 fe_job_write(struct fe_job *);

#endif
