/*
 * job.h - the tools' engine (not installed): find out what SRC is and
 * what its attributes are, reading it once to infer them when nothing
 * states them; then run one flow, decoder -> bounds -> type change ->
 * the stages a tool adds -> encoders, into DST, which appears whole or
 * not at all.  The core job is what every such tool has (SRC, DST,
 * kinds, the input's layout and the metadata's attributes, threads, the
 * temporary directory); what one tool does besides (ts-sort's sort,
 * ts-gen-values' values) is a part it adds itself (struct fe_job_part),
 * so that the engine knows no tool.
 */
#ifndef FE_JOB_H
#define FE_JOB_H

#include "tensorsuite.h"

/* A kind not given: from DST's name, or SRC's data. */
#define FE_JOB_AUTO	(-1)

struct fe_job_part;

struct fe_job_opts {
	/* dst NULL: the part's alone() reads SRC, and nothing is written */
	const char	*src, *dst, *meta;
	const char	*member;	/* the bundle of an archive SRC */
	int		 from, to;	/* enum ts_kind, or FE_JOB_AUTO */
	bool		 force, e16, no_values;
	bool		 mtx_general;	/* Matrix Market: never symmetric */
	bool		 upgrade;	/* a bundle SRC of the older profile */
	bool		 want_text, want_binary;
	bool		 inplace;	/* dst is src's bundle: keep README */
	/* the input's layout, and the output's (-1: as it is) */
	int		 in_base, in_itype, in_vtype, in_endian;
	int		 out_base, out_itype, out_vtype, out_endian;
	uint64_t	 dims[TS_MAXORDER];
	int		 ndims;
	/* the metadata's descriptive attributes (NULL: as they are) */
	const char	*name, *group, *id, *time, *source, *source_url;
	const char	*source_type;
	const char	*tmpdir;
	/* -S: memory for the sort of an output that holds sorted unique
	 * entries, and for the arrays a format writes at its end, past
	 * which they spill to tmpdir (0: 25% of the memory it may use) */
	size_t		 mem_limit;
	/* What an output that holds unique entries makes of repeats: an
	 * enum ts_dup_policy other than TS_DUP_KEEP, or FE_JOB_AUTO (not
	 * given: refused, as TS_DUP_ERROR does); given for another output,
	 * a usage error */
	int		 dups;
	/* A block SRC: 1 its elements are written (without values, as
	 * its blocks have none), 0 its blocks; -1: the tool has no
	 * --expand (a refusal of blocks then names none) */
	int		 expand;
	int		 threads;	/* 0: the CPUs it may use */
	/* what the tool adds to the flow, or NULL */
	const struct fe_job_part *part;
	/* the program and the command line, for the README of a bundle */
	const char	*program;
	const char	*command;
};

/* No changes asked (-1 everywhere), no part, the CPUs it may use. */
void	 fe_job_opts_init(struct fe_job_opts *);
/* Run: every problem goes to d; returns the exit status (enum ts_status). */
int	 fe_job_run(const struct fe_job_opts *, struct ts_diags *);

/* ---- what a part sees of the job it is part of ---- */

struct fe_job;
const struct fe_job_opts *fe_job_opts(const struct fe_job *);
struct ts_diags *fe_job_diags(struct fe_job *);
/* SRC as messages name it ("<stdin>" for "-"). */
const char *fe_job_src_name(const struct fe_job *);
/* What SRC was read as (TS_KIND_TEXT, TS_KIND_FROSTT, ...);
 * is it a bundle, one in an archive? */
enum ts_kind fe_job_from(const struct fe_job *);
bool	 fe_job_src_bundle(const struct fe_job *);
bool	 fe_job_src_archive(const struct fe_job *);
/* The attributes of what is written, which a part may change; did
 * metadata state them (else they were inferred)? */
struct ts_meta *fe_job_meta(struct fe_job *);
bool	 fe_job_meta_known(const struct fe_job *);
/* What sums of repeated entries made (struct ts_sort_result's seen),
 * into the attributes: a zero allows zeros; a value other than 0 and 1
 * makes binary values general. */
void	 fe_job_sums_seen(struct fe_job *, unsigned seen);
/* How SRC is read. */
const struct ts_layout *fe_job_input_layout(const struct fe_job *);
/* SRC's size when known, else -1. */
int64_t	 fe_job_src_size(const struct fe_job *);
/* Is every output one that copies the values' texts (tns, FROSTT)? */
bool	 fe_job_outputs_text(const struct fe_job *);
/* Threads to use: -j, else the CPUs the process may use. */
int	 fe_job_threads(const struct fe_job *);
/* A decoder on SRC with layout lay (read again when it was read). */
struct ts_decoder *fe_job_decoder(struct fe_job *, const struct ts_layout *);
/* Today's date, UTC, as the metadata's 'time' says it (malloc'd). */
char	*fe_job_today(void);
/* Into a bundle DST being written (bo, as the part's aux hook has it):
 * the file fname holding the n bytes of text, named by the key of the
 * metadata's 'files' (NULL: none): 0, or -1 (reported). */
struct ts_bundle_out;
int	 fe_job_put_file(struct fe_job *, struct ts_bundle_out *bo,
	    const char *key, const char *fname, const char *text, size_t n);

/*
 * A tool's part of a job: the stages it adds to the flow and what they
 * change in what is written.  Every hook may be NULL, and is given arg.
 */
enum {
	/* To a stream, with no --to, the output keeps the input's kind
	 * (text or binary), as a filter does. */
	FE_JOB_FILTER = 1,
	/* The part makes the values: they are not converted. */
	FE_JOB_VALUES = 2,
	/* The part reads the coordinates as written, whatever the base:
	 * no note that a base is assumed. */
	FE_JOB_ANY_BASE = 4
};

struct fe_job_part {
	unsigned flags;		/* FE_JOB_* */
	/* A part that makes the entries rather than read them (a
	 * generator): the job opens no SRC (src only names the entries in
	 * messages), its input hook sets every attribute (fe_job_meta),
	 * and each time the job reads the entries this gives a decoder
	 * that makes them (ts_decoder_new), or NULL (reported). */
	struct ts_decoder *(*produce)(void *arg, struct fe_job *);
	/* With no DST: the job is SRC read through the part's own flow,
	 * once SRC is open: 0, or -1 (reported). */
	int	(*alone)(void *arg, struct fe_job *);
	/* SRC is open, DST too, nothing read: refuse what the part cannot
	 * take: 0, or -1 (reported). */
	int	(*input)(void *arg, struct fe_job *);
	/* SRC's attributes are known, DST not yet written: set up, and
	 * change the attributes of what is written: 0, or -1. */
	int	(*prepare)(void *arg, struct fe_job *);
	/* Its stages, after the bounds and the conversion, for the
	 * entries dec gives: 0, or -1. */
	int	(*stages)(void *arg, struct fe_job *, struct ts_flow *,
		    struct ts_decoder *dec);
	/* Every entry is read (a stage of the part held them), before the
	 * encoders write their headers: the attributes as they say them
	 * (a count that changed): 0, or -1. */
	int	(*ready)(void *arg, struct fe_job *);
	/* The flow has run: what its stages found, into the attributes. */
	void	(*done)(void *arg, struct fe_job *);
	/* A bundle DST, its data files written: the part's own files,
	 * through fe_job_put_file: 0, or -1 (reported). */
	int	(*aux)(void *arg, struct fe_job *, struct ts_bundle_out *);
	/* A section for the README of a bundle written, malloc'd. */
	char	*(*readme)(void *arg, struct fe_job *);
	/* The end (rv: the job's so far, 0 or -1): what the part writes
	 * beside DST appears or is removed; returns rv, or -1. */
	int	(*finish)(void *arg, struct fe_job *, int rv);
	void	*arg;
};

/* ---- the front end of a tool on the engine (cli.c) ---- */

/* Run a job, its messages printed on stderr as they come (notes only
 * when not quiet); returns its exit status. */
int	 fe_run_job(const struct fe_job_opts *, bool quiet);

/*
 * The options that describe an input, shared by the tools that read
 * one: give them the getopt value FE_OPT_INPUT and pass the long name
 * here: --input-base, --input-endian, --input-index-type,
 * --input-value-type, --member, --meta, --no-values, --require-checksums.
 */
#define FE_OPT_INPUT	0x1000
/* Their entries in a struct option array. */
#define FE_INPUT_LONGOPTS						\
	{ "input-base",		required_argument,	NULL, FE_OPT_INPUT }, \
	{ "input-endian",	required_argument,	NULL, FE_OPT_INPUT }, \
	{ "input-index-type",	required_argument,	NULL, FE_OPT_INPUT }, \
	{ "input-value-type",	required_argument,	NULL, FE_OPT_INPUT }, \
	{ "member",		required_argument,	NULL, FE_OPT_INPUT }, \
	{ "meta",		required_argument,	NULL, FE_OPT_INPUT }, \
	{ "no-values",		no_argument,		NULL, FE_OPT_INPUT }, \
	{ "require-checksums",	no_argument,		NULL, FE_OPT_INPUT }
void	 fe_input_opt(struct fe_job_opts *, const char *name, const char *arg);

/*
 * The options that describe what is written, shared by the tools that
 * write a tensor of their own making or conversion (ts-convert, ts-gen):
 * the getopt value FE_OPT_OUTPUT, the long name passed here: --binary,
 * --endian, --group, --id, --index-base, --name, --source-url, --text,
 * --time, --to.  A bad value is a usage error (exits).
 */
#define FE_OPT_OUTPUT	0x1002
#define FE_OUTPUT_LONGOPTS						\
	{ "binary",		no_argument,		NULL, FE_OPT_OUTPUT }, \
	{ "endian",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "group",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "id",			required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "index-base",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "name",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "source-url",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "text",		no_argument,		NULL, FE_OPT_OUTPUT }, \
	{ "time",		required_argument,	NULL, FE_OPT_OUTPUT }, \
	{ "to",			required_argument,	NULL, FE_OPT_OUTPUT }
void	 fe_output_opt(struct fe_job_opts *, const char *name, const char *arg);

#endif
