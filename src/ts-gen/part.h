/*
 * part.h - ts-gen's part of a job (part.c): the request, the model it
 * sets up, and what the job adds for it.
 */
#ifndef TS_GEN_PART_H
#define TS_GEN_PART_H

#include "gen.h"

struct gen_part {
	struct gen	 g;
	bool		 setup;		/* g set up, its draws counted */
	int		 operand;	/* of a pair, the job's: 0 A, 1 B */
	/* values */
	struct fe_genvalues_opts vo;
	bool		 values;	/* asked for */
	int		 vtype, itype;	/* enum ts_vtype, ts_itype; -1 */
	enum ts_domain	 domain;	/* when --value-domain is not given */
	int		 base;		/* of a bundle */
	const char	*group, *id;	/* defaults of a configuration */
	/* a configuration file, and its text to copy into the bundle;
	 * the seed and DST it names */
	const char	*config;
	char		*config_text;
	bool		 config_copied;
	char		*config_seed, *config_dst, *config_name;
	/* the job's */
	struct ts_genvalues *gv;
	struct ts_sort_result sr, sr2;
	struct fe_job_part part;
};

/* The options (main.c has their names; opts.c the model's). */
enum {
	OPT_ALPHA = 256, OPT_CONFIG, OPT_CP_ALPHA, OPT_CP_DIMS, OPT_CP_LAMBDA,
	OPT_CP_NOISE, OPT_CP_RANK, OPT_COUNTS, OPT_DENSITY, OPT_DIMS, OPT_DUPS,
	OPT_EINSUM, OPT_LABEL_PARTS, OPT_LABEL_PSIZE, OPT_LAW, OPT_PARTS,
	OPT_PSIZE, OPT_COMMUNITIES, OPT_P_IN, OPT_P_OUT, OPT_SCALE, OPT_HIGH,
	OPT_INDEX_TYPE, OPT_INPUT_BASE, OPT_LEVELS, OPT_LOW, OPT_MODEL, OPT_NNZ,
	OPT_PERMUTE, OPT_SEED, OPT_SORT_ORDER, OPT_SORTED, OPT_SYMMETRIC,
	OPT_VTYPE
};

/* The defaults, and p->part, whose arg is p. */
void	 gen_part_init(struct gen_part *);
/* opts.c: the request's defaults; an option of the model, its entries
 * or its values into p (false: not one of them); what they ask, checked
 * (a usage error exits). */
void	 gen_opts_init(struct gen_part *);
bool	 gen_option(struct gen_part *, int ch, const char *name,
	    const char *arg);
void	 gen_check(struct gen_part *, const struct fe_job_opts *, int argc);

/* config.c: the request of the configuration file path (DST too, in
 * jo, unless dst_given): 0, or -1 (reported to d). */
int	 gen_config(struct gen_part *, struct fe_job_opts *jo,
	    const char *path, bool dst_given, struct ts_diags *d);
/* Free what the request holds. */
void	 gen_part_free(struct gen_part *);
/* "allow", "unique", "sum", NULL: --duplicates' words. */
const char *const *gen_dups_names(void);

#endif
