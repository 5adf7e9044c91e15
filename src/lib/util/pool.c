/*
 * pool.c - worker threads around one mutex (pool.h): each worker takes
 * its owner's jobs through take() until the pool stops.
 */
#include <pthread.h>
#include <stdbool.h>

#include "util/pool.h"

static void *
worker_main(void *arg)
{
	struct ts_pool_worker *w = arg;
	struct ts_pool *p = w->pool;

	pthread_mutex_lock(&p->mu);
	while (!p->quit)
		if (!p->take(p, w->id))
			pthread_cond_wait(&p->work, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void
ts_pool_init(struct ts_pool *p, void *ctx, ts_pool_take_fn *take)
{
	p->ctx = ctx;
	p->take = take;
	p->quit = false;
	p->nt = 0;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
}

int
ts_pool_start(struct ts_pool *p, int n)
{
	int i;

	for (i = 0; i < n && p->nt < TS_POOL_MAX; i++) {
		p->w[p->nt].pool = p;
		p->w[p->nt].id = p->nt;
		if (pthread_create(&p->tid[p->nt], NULL, worker_main,
		    &p->w[p->nt]) != 0)
			break;
		p->nt++;
	}
	return p->nt;
}

void
ts_pool_wake(struct ts_pool *p, bool all)
{
	if (all)
		pthread_cond_broadcast(&p->work);
	else
		pthread_cond_signal(&p->work);
}

void
ts_pool_stop(struct ts_pool *p)
{
	int i;

	pthread_mutex_lock(&p->mu);
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (i = 0; i < p->nt; i++)
		pthread_join(p->tid[i], NULL);
	p->nt = 0;
}

void
ts_pool_destroy(struct ts_pool *p)
{
	ts_pool_stop(p);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
}
