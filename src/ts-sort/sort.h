/*
 * sort.h - what ts-sort adds to a job (sort.c): the sort, a stage after
 * the bounds whose options come from -k, --duplicates, -S and the
 * metadata; or, with -c, the order check, which reads SRC alone.
 */
#ifndef TS_SORT_PART_H
#define TS_SORT_PART_H

#include "fe.h"
#include "job/job.h"

struct sort_part {
	/* the request */
	int		 prio[TS_MAXORDER];	/* 0-based; nprio 0: from the
						 * metadata, else 1..N */
	int		 nprio;
	enum ts_dup_policy	 dups;
	size_t		 mem_limit;
	/* the sort under way */
	struct ts_sort_opts	 so;
	struct ts_sort_result	 sr;
	struct fe_job_part	 part;
};

/* The sort (check false) or the order check (-c) as a part of a job:
 * sets up p->part, whose arg is p. */
void	 sort_part_init(struct sort_part *, bool check);

#endif
