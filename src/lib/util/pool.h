/*
 * pool.h - worker threads around one mutex: the one way the library's
 * parallel stages (the parser of parallel.c, the printer of print_par.c,
 * the in-place sort's placers, the values' helpers) and ts-gen's
 * producers run their jobs on other cores.  Internal to libtensorsuite
 * (not installed).
 *
 * The owner keeps its jobs and their states; the pool keeps the threads,
 * the mutex that guards those states and two conditions.  A worker,
 * holding the mutex, asks the owner's take() for a job; take() runs one
 * (releasing the mutex while it works, holding it again when it returns)
 * and says so, or says there is none, and the worker waits on `work`
 * until ts_pool_wake() or ts_pool_stop().  `done` is the owner's to wait
 * on for what its workers finish (a take() broadcasts it).
 */
#ifndef TS_POOL_H
#define TS_POOL_H

#include <pthread.h>
#include <stdbool.h>

/* The most threads a pool runs. */
#define TS_POOL_MAX	64

struct ts_pool;

/* Run one job and return true, or return false when none is there now;
 * called with the pool's mutex held, and returns with it held.  id is
 * the worker's number, 0 to the pool's threads - 1. */
typedef bool	 ts_pool_take_fn(struct ts_pool *, int id);

struct ts_pool_worker {
	struct ts_pool	*pool;
	int		 id;
};

struct ts_pool {
	pthread_mutex_t	 mu;
	pthread_cond_t	 work;		/* a job may be there, or stop */
	pthread_cond_t	 done;		/* the owner's: a job is finished */
	void		*ctx;		/* the owner's */
	ts_pool_take_fn	*take;
	bool		 quit;
	int		 nt;		/* threads running */
	pthread_t	 tid[TS_POOL_MAX];
	struct ts_pool_worker w[TS_POOL_MAX];
};

/* Ready a pool whose workers will take jobs from take(), with ctx the
 * owner's (pool->ctx); no thread yet. */
void	 ts_pool_init(struct ts_pool *, void *ctx, ts_pool_take_fn *take);
/* Start up to n threads (no more than TS_POOL_MAX in all); returns how
 * many run, which may be fewer, 0 when the system gives none: the owner
 * then does the work itself. */
int	 ts_pool_start(struct ts_pool *, int n);
/* With the mutex held: a job was queued, wake a worker (all: every
 * waiting worker may find one). */
void	 ts_pool_wake(struct ts_pool *, bool all);
/* Stop: no worker takes another job; those running finish theirs; the
 * threads are joined.  Call without the mutex; again is harmless. */
void	 ts_pool_stop(struct ts_pool *);
/* Stop, and free what ts_pool_init() made. */
void	 ts_pool_destroy(struct ts_pool *);

#endif
