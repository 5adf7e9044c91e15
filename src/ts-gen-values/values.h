/*
 * values.h - what ts-gen-values adds to a job (values.c): the value
 * stage and, for a block tensor, the dense block writer (--blocks-out)
 * and the expansion into elements (--expand).
 */
#ifndef TS_VALUES_PART_H
#define TS_VALUES_PART_H

#include "fe.h"
#include "job/job.h"
#include "values/genvalues.h"

struct values_part {
	/* the request */
	struct fe_genvalues_opts o;
	bool		 expand;
	const char	*blocks_out;	/* or NULL */
	/* the job's */
	struct ts_genvalues *g;
	struct ts_sink	*blk;		/* --blocks-out */
	struct fe_job_part part;
};

/* The options' defaults, and p->part, whose arg is p. */
void	 values_part_init(struct values_part *);

#endif
