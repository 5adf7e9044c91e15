/*
 * flow.c - the runner: a decoder's batches through a list of stages into
 * the outputs.  A streaming stage changes a batch in place and the flow
 * passes it on; a stage that holds entries (a sort) keeps them until
 * the input ends, then hands them on through the stages after it.  The
 * outputs are added when the first batch is about to reach them, so
 * that what their headers say (nnz after a sort's duplicates policy) is
 * known.
 *
 * A stage that changes values (TS_STAGE_VALUES) makes the flow drop the
 * batch's value texts before it runs: a text encoder can then never
 * copy a text that no longer says the value.
 *
 * The local functions of the stages that see the batches as decoded
 * (every stage before them TS_STAGE_READS, none holding) are given to
 * the decoder, which runs them on the threads that parse a large text
 * file; each thread's state of each stage is made there on its first
 * batch and folded into its stage once the input is over.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tensorsuite.h"
#include "format/format.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define BATCH	8192

struct ts_stage {
	const struct ts_stage_ops *ops;
	const struct ts_stage_local_ops *lops;
	void		*self;
};

struct ts_flow {
	struct ts_decoder *dec;
	struct ts_diags	*d;
	const char	*what, *outwhat;
	bool		 keep_going;
	struct ts_stage	**st;
	int		 nst;
	struct ts_encoder **out;
	int		 nout;
	int		 (*ready)(void *);
	void		*arg;
	bool		 started, broken;
	uint64_t	 read, delivered;
	int		 nlocal;	/* stages seeing batches as decoded */
	int		 nthr;		/* threads that may parse */
	void		**loc;		/* nlocal * nthr states, or NULL */
};

struct ts_stage *
ts_stage_new(const struct ts_stage_ops *ops, void *self)
{
	struct ts_stage *s = ts_xmalloc(sizeof(*s));

	s->ops = ops;
	s->lops = NULL;
	s->self = self;
	return s;
}

void
ts_stage_set_local(struct ts_stage *s, const struct ts_stage_local_ops *l)
{
	s->lops = l;
}

void
ts_stage_free(struct ts_stage *s)
{
	if (s == NULL)
		return;
	if (s->ops->free != NULL)
		s->ops->free(s->self);
	free(s);
}

struct ts_flow *
ts_flow_new(struct ts_decoder *dec, struct ts_diags *d, const char *what)
{
	struct ts_flow *f = ts_xcalloc(1, sizeof(*f));

	f->dec = dec;
	f->d = d;
	f->what = what;
	return f;
}

void
ts_flow_keep_going(struct ts_flow *f, bool on)
{
	f->keep_going = on;
}

void
ts_flow_name_output(struct ts_flow *f, const char *name)
{
	f->outwhat = name;
}

void
ts_flow_add(struct ts_flow *f, struct ts_stage *s)
{
	if (s == NULL) {
		f->broken = true;	/* a stage that failed to be made */
		return;
	}
	f->st = ts_xreallocarray(f->st, (size_t)f->nst + 1, sizeof(*f->st));
	f->st[f->nst++] = s;
}

void
ts_flow_output(struct ts_flow *f, struct ts_encoder *e)
{
	f->out = ts_xreallocarray(f->out, (size_t)f->nout + 1,
	    sizeof(*f->out));
	f->out[f->nout++] = e;
	/* Text is formatted by as many threads as parse it (-j). */
	if (f->dec != NULL)
		ts_encoder_set_threads(e, f->dec->threads);
}

static int
deliver(struct ts_flow *f, const struct ts_batch *b)
{
	const size_t errs = ts_diags_errors(f->d);
	int i;

	if (!f->started) {
		f->started = true;
		if (f->ready != NULL && f->ready(f->arg) != 0)
			return -1;
	}
	for (i = 0; i < f->nout; i++)
		if (ts_encoder_put(f->out[i], b) != 0) {
			/* What the encoder said itself is said once. */
			if (ts_diags_errors(f->d) > errs)
				return -1;
			if (errno == EINVAL)
				ts_diag(f->d, TS_SEV_ERROR, ts_sink_name(
				    f->out[i]->sink), 0, 0, TS_RULE_NONE,
				    "the entries do not fit this output (%s)",
				    f->out[i]->ops->name);
			else
				ts_diag_io(f->d, ts_sink_name(f->out[i]->sink),
				    "write error: %s", strerror(errno));
			return -1;
		}
	f->delivered += b->n;
	return 0;
}

/* On a parsing thread: b through the local functions. */
static void
local_put(void *arg, int thread, struct ts_batch *b)
{
	struct ts_flow *f = arg;
	int i;

	for (i = 0; i < f->nlocal; i++) {
		const struct ts_stage_local_ops *l = f->st[i]->lops;
		void **st = &f->loc[(size_t)i * (size_t)f->nthr +
		    (size_t)thread];

		if (l == NULL)
			continue;
		if (*st == NULL)
			*st = l->start(f->st[i]->self);
		l->put(*st, b);
	}
}

/* The stages that may run local functions; hand them to the decoder. */
static void
local_start(struct ts_flow *f)
{
	int i, n = 0;

	for (i = 0; i < f->nst; i++) {
		const struct ts_stage_ops *ops = f->st[i]->ops;

		if (f->st[i]->lops != NULL)
			n = i + 1;
		if (!(ops->flags & TS_STAGE_READS) || ops->next != NULL)
			break;
	}
	if (n == 0 || f->dec->threads < 2)
		return;
	f->nlocal = n;
	f->nthr = f->dec->threads;
	f->loc = ts_xcalloc((size_t)n * (size_t)f->nthr, sizeof(*f->loc));
	ts_decoder_set_local(f->dec, local_put, f);
}

/* No thread runs them any more: fold their states in. */
static void
local_end(struct ts_flow *f)
{
	size_t j;
	int i;

	if (f->loc == NULL)
		return;
	ts_decoder_set_local(f->dec, NULL, NULL);
	for (i = 0; i < f->nlocal; i++)
		for (j = 0; j < (size_t)f->nthr; j++) {
			void *st = f->loc[(size_t)i * (size_t)f->nthr + j];

			if (st != NULL && f->st[i]->lops->end != NULL)
				f->st[i]->lops->end(f->st[i]->self, st);
		}
	free(f->loc);
	f->loc = NULL;
}

/* b through stages i.. and to the outputs; 0, or -1 to stop. */
static int
push(struct ts_flow *f, int i, struct ts_batch *b)
{
	for (; i < f->nst; i++) {
		const struct ts_stage_ops *ops = f->st[i]->ops;

		if (i >= f->nlocal)
			b->local = b->local_cont = false;
		if (ops->flags & TS_STAGE_VALUES)
			b->texts = false;
		if (ops->put(f->st[i]->self, b) != 0)
			return -1;
		if (ops->next != NULL)
			return 0;	/* it holds them until the end */
	}
	return deliver(f, b);
}

/* The input is over: finish each stage, draining those that held. */
static int
drain(struct ts_flow *f, struct ts_batch *b)
{
	int i;
	long r;

	for (i = 0; i < f->nst; i++) {
		const struct ts_stage_ops *ops = f->st[i]->ops;
		void *self = f->st[i]->self;
		uint64_t done = 0, total;

		if (ops->finish != NULL && ops->finish(self) != 0)
			return -1;
		if (ops->next == NULL)
			continue;
		total = ops->count != NULL ? ops->count(self) : 0;
		for (;;) {
			ts_progress(done, total, false, "writing %s",
			    f->outwhat != NULL ? f->outwhat : f->what);
			if ((r = ops->next(self, b)) <= 0)
				break;
			done += (uint64_t)r;
			/* Later stages, then the outputs; not finished yet:
			 * this loop finishes them in turn. */
			if (push(f, i + 1, b) != 0)
				return -1;
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

int
ts_flow_run(struct ts_flow *f, int (*ready)(void *), void *arg)
{
	const struct ts_header *h = ts_decoder_header(f->dec);
	struct ts_source *src = ts_decoder_source(f->dec);
	bool holds = false;
	struct ts_batch b;
	uint64_t total;
	long r;
	int i, rv = -1;

	if (f->broken) {
		errno = EINVAL;
		return -1;
	}
	f->ready = ready;
	f->arg = arg;
	for (i = 0; i < f->nst; i++)
		holds |= f->st[i]->ops->next != NULL;
	ts_batch_init(&b, h->order, BATCH);
	local_start(f);
	/* A decoder of no source counts its progress in entries. */
	total = src == NULL ? (h->block ? h->nnz_block : h->nnz) :
	    ts_source_size(src) < 0 ? 0 : (uint64_t)ts_source_size(src);
	for (;;) {
		ts_progress(ts_decoder_offset(f->dec), total, src != NULL,
		    "%s %s", holds ? "reading" : f->nout > 0 || ready != NULL ?
		    "converting" : "checking", f->what);
		if ((r = ts_decoder_next(f->dec, &b)) <= 0)
			break;
		f->read += b.n;
		/* A bad row ends the work: what follows would be wrong. */
		if ((!f->keep_going && ts_diags_errors(f->d) > 0) ||
		    push(f, 0, &b) != 0)
			goto out;
	}
	local_end(f);
	if (r < 0 || (!f->keep_going && ts_diags_errors(f->d) > 0))
		goto out;
	if (holds)
		ts_progress(0, 0, false, "sorting %s", f->what);
	if (drain(f, &b) != 0)
		goto out;
	if (!f->started) {
		f->started = true;
		if (ready != NULL && ready(arg) != 0)
			goto out;
	}
	rv = 0;
out:
	local_end(f);
	ts_batch_free(&b);
	return rv;
}

uint64_t
ts_flow_delivered(const struct ts_flow *f)
{
	return f->delivered;
}

uint64_t
ts_flow_read(const struct ts_flow *f)
{
	return f->read;
}

void
ts_flow_free(struct ts_flow *f)
{
	int i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nst; i++)
		ts_stage_free(f->st[i]);
	free(f->st);
	free(f->out);
	free(f);
}
