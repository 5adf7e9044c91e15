/*
 * test_sort.c - unit tests of the sorter (sort/): random entries sorted
 * in memory and through many spilled runs, checked against qsort by
 * (coordinates in priority order, input position); every duplicates
 * policy; value text carried byte for byte; errors; and a speed check
 * printed as TAP comments.  Prints TAP; exit status 1 when a test fails.
 *
 * Usage: test_sort [--big] [--seed N]
 *	--big	the speed check sorts 20 million entries, in memory and with
 *		mem_limit 256 MiB (default: 2 million, and 25.6 MiB)
 */
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "tap.h"


static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t
next64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t
below(uint64_t n)
{
	return n == 0 ? next64() : next64() % n;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the process, all threads: user and system. */
static double
cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec *
	    1e-6 + (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec *
	    1e-6;
}

static char tmpdir[] = "/tmp/ts-sort-unit-XXXXXX";

/* Entries in the temporary directory (spill files are unlinked, so this
 * should be 0 whenever we look). */
static int
tmp_entries(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/*
 * Bytes in open, deleted spill files in our temporary directory, found
 * through /proc/self/fd; -1 when /proc is not there.  Lets the tests see
 * that a sort really spilled, and how much, without a hook in the
 * library.
 */
static long long
spilled_bytes(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long long sum = 0;
	char path[300], link[512];
	struct stat st;
	ssize_t len;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (strncmp(link, tmpdir, strlen(tmpdir)) != 0 ||
		    strstr(link, "/ts-sort-") == NULL)
			continue;
		if (stat(path, &st) == 0)
			sum += (long long)st.st_size;
	}
	closedir(d);
	return sum;
}

/* ---- random input and the reference ---- */

enum { R_TINY, R_SMALL, R_MID, R_BIG, R_FULL, NRANGE };
static const uint64_t range_max[NRANGE] = { 3, 12, 2000, (uint64_t)1 << 32,
	0 };
static const char *range_name[NRANGE] = { "tiny", "small", "mid", "big",
	"full" };

struct tcase {
	int		 order, prio[TS_MAXORDER], range[TS_MAXORDER];
	bool		 grow;		/* coordinates widen as entries come */
	bool		 hv, isint, kt, notext;
	bool		 tonly;		/* texts_only */
	uint64_t	 expect;
	enum ts_dup_policy	 dups;
	size_t		 limit, n, maxbatch;
	int		 threads;
};

struct input {
	size_t		 n;
	int		 order;
	uint64_t	*c, *v;
	char		*tb;
	size_t		*to;
	uint32_t	*tl;
};

static const char *dups_name[] = { "keep", "sum", "first", "last",
	"error" };

static uint64_t
dbits_(double x)
{
	uint64_t u;

	memcpy(&u, &x, 8);
	return u;
}

/* The same bits; any NaN is as good as another (a sum of NaNs takes
 * its sign from the compiler's choice of operand order). */
static bool
same_double(double x, uint64_t want)
{
	double w;

	memcpy(&w, &want, 8);
	return dbits_(x) == want || (isnan(x) && isnan(w));
}

/* Append n random digits at p; the first is not 0 when nz. */
static char *
gen_digits(char *p, int n, bool nz)
{
	int i;

	for (i = 0; i < n; i++)
		*p++ = (char)('0' + (i == 0 && nz ? 1 + below(9) : below(10)));
	return p;
}

/*
 * A value's text as files have them, at buf (room for 80 bytes), and
 * in *v the value it reads as: mostly shortest texts; also signs,
 * leading and trailing zeros, exponents in either case, too many
 * digits to code, inf and nan (which the sorter keeps in its arena).
 */
static uint32_t
gen_text(const struct tcase *tc, char *buf, uint64_t *v)
{
	static const char *const special[] = { "inf", "-Infinity", "nan",
	    "+NaN", "INF" };
	char *p = buf;
	uint64_t k = below(8);

	if (tc->isint) {
		int64_t x = (int64_t)below(2000001) - 1000000;

		if (k == 0) {
			p += sprintf(p, "%s%0*lld", x >= 0 ? "+" : "",
			    (int)below(8), (long long)x);
		} else if (k == 1)
			p += sprintf(p, "%lld", (long long)(below(2) ?
			    INT64_MIN + (int64_t)below(3) :
			    INT64_MAX - (int64_t)below(3)));
		else
			p += sprintf(p, "%lld", (long long)x);
		*p = '\0';
		*v = (uint64_t)strtoll(buf, NULL, 10);
		return (uint32_t)(p - buf);
	}
	if (k <= 3) {
		double x = ((double)below(1 << 20) - (1 << 19)) /
		    (double)(1 << below(12));

		if (k == 0) {
			uint64_t u = next64();

			memcpy(&x, &u, 8);
			if (isnan(x) || isinf(x))
				x = -0.0;
		}
		p += ts_fmt_double(p, x);
	} else if (k == 4)
		p += sprintf(p, "%s", special[below(5)]);
	else {
		/* [sign] int [. frac] [e [sign] exp], lengths 0 to 22 */
		int ni = (int)below(23), nf = (int)below(23);

		if (below(3) == 0)
			*p++ = below(2) ? '-' : '+';
		if (below(4) == 0)
			for (k = below(6); k > 0; k--)
				*p++ = '0';
		p = gen_digits(p, ni, below(2));
		if (ni == 0 || below(2)) {
			*p++ = '.';
			p = gen_digits(p, nf == 0 && ni == 0 ? 1 : nf, false);
		}
		if (below(2)) {
			*p++ = below(2) ? 'e' : 'E';
			if (below(2))
				*p++ = below(2) ? '-' : '+';
			p = gen_digits(p, 1 + (int)below(below(4) ? 3 : 12),
			    false);
		}
	}
	*p = '\0';
	{
		double x = strtod(buf, NULL);

		memcpy(v, &x, 8);
	}
	return (uint32_t)(p - buf);
}

static void
gen_input(struct input *in, const struct tcase *tc)
{
	size_t i, tbn = 0, tbcap;
	int k;

	in->n = tc->n;
	in->order = tc->order;
	in->c = malloc((tc->n ? tc->n : 1) * (size_t)tc->order * 8);
	in->v = malloc((tc->n ? tc->n : 1) * 8);
	in->to = malloc((tc->n ? tc->n : 1) * sizeof(size_t));
	in->tl = malloc((tc->n ? tc->n : 1) * sizeof(uint32_t));
	tbcap = tc->kt ? tc->n * 12 + 64 : 1;
	in->tb = malloc(tbcap);
	for (i = 0; i < tc->n; i++) {
		for (k = 0; k < tc->order; k++) {
			uint64_t m = range_max[tc->range[k]];

			if (tc->grow && m == 0)
				m = ~(uint64_t)0;
			if (tc->grow)	/* grows with i, to m at the end */
				m = (uint64_t)((double)m * (double)(i + 1) /
				    (double)tc->n) + 1;
			in->c[i * (size_t)tc->order + (size_t)k] = below(m);
		}
		if (tc->isint)
			in->v[i] = (uint64_t)((int64_t)below(2000001) -
			    1000000);
		else {
			double x;

			if (below(4) == 0) {
				uint64_t u = next64();

				memcpy(&x, &u, 8);
				if (isnan(x) || isinf(x))
					x = -0.0;
			} else
				x = ((double)below(1 << 20) - (1 << 19)) /
				    (double)(1 << below(12));
			memcpy(&in->v[i], &x, 8);
		}
		if (tc->kt) {
			/* The value is what its text says (keep_text). */
			uint32_t len;

			if (tbn + 80 > tbcap) {
				tbcap = 2 * tbcap + 80;
				in->tb = realloc(in->tb, tbcap);
			}
			len = gen_text(tc, in->tb + tbn, &in->v[i]);
			in->to[i] = tbn;
			in->tl[i] = len;
			tbn += len;
		} else {
			in->to[i] = 0;
			in->tl[i] = 0;
		}
	}
}

static void
free_input(struct input *in)
{
	free(in->c);
	free(in->v);
	free(in->tb);
	free(in->to);
	free(in->tl);
}

static const struct input *cmp_in;
static const int *cmp_prio;

static int
cmp_ref(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const uint64_t *ci = cmp_in->c + i * (size_t)cmp_in->order;
	const uint64_t *cj = cmp_in->c + j * (size_t)cmp_in->order;
	int k;

	for (k = 0; k < cmp_in->order; k++) {
		uint64_t x = ci[cmp_prio[k]], y = cj[cmp_prio[k]];

		if (x != y)
			return x < y ? -1 : 1;
	}
	return i < j ? -1 : i > j;
}

/* The expected output: entries with their value and text. */
struct expect {
	size_t		 n;
	size_t		*idx;		/* coordinates from this entry */
	uint64_t	*v;
	char		(*fmt)[TS_NUMBUF];	/* formatted text */
	const char	**t;
	uint32_t	*tl;
	int		 rc;		/* of ts_sorter_finish */
	int		 err;		/* errno when rc is -1 */
	size_t		 dup;		/* entry of the repeated tuple */
};

static bool
same_tuple(const struct input *in, size_t i, size_t j)
{
	return memcmp(in->c + i * (size_t)in->order, in->c + j *
	    (size_t)in->order, (size_t)in->order * 8) == 0;
}

static int
fmt_value(const struct tcase *tc, char *buf, uint64_t v)
{
	double x;

	if (tc->isint)
		return ts_fmt_i64(buf, (int64_t)v);
	memcpy(&x, &v, 8);
	return ts_fmt_double(buf, x);
}

static void
reference(const struct input *in, const struct tcase *tc, struct expect *e)
{
	size_t *ord = malloc((in->n ? in->n : 1) * sizeof(size_t));
	size_t i, j, u, n = in->n;

	memset(e, 0, sizeof(*e));
	e->idx = malloc((n ? n : 1) * sizeof(size_t));
	e->v = malloc((n ? n : 1) * 8);
	e->fmt = malloc((n ? n : 1) * TS_NUMBUF);
	e->t = malloc((n ? n : 1) * sizeof(char *));
	e->tl = malloc((n ? n : 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++)
		ord[i] = i;
	cmp_in = in;
	cmp_prio = tc->prio;
	qsort(ord, n, sizeof(size_t), cmp_ref);
	for (i = 0; i < n; i = j) {
		size_t pick = ord[i], o = e->n++;
		uint64_t v = in->v[ord[i]];
		bool summed = false;

		for (j = i + 1; j < n && same_tuple(in, ord[i], ord[j]); j++)
			;
		if (tc->dups == TS_DUP_KEEP) {
			e->n--;
			for (u = i; u < j; u++) {
				o = e->n++;
				e->idx[o] = ord[u];
				e->v[o] = in->v[ord[u]];
				e->t[o] = in->tb + in->to[ord[u]];
				e->tl[o] = in->tl[ord[u]];
			}
			continue;
		}
		if (j - i > 1) {
			switch (tc->dups) {
			case TS_DUP_ERROR:
				if (e->rc == 0) {
					e->rc = -1;
					e->err = EEXIST;
					e->dup = ord[i];
				}
				break;
			case TS_DUP_LAST:
				pick = ord[j - 1];
				v = in->v[pick];
				break;
			case TS_DUP_SUM:
				if (!tc->hv)
					break;
				for (u = i + 1; u < j; u++) {
					if (tc->isint) {
						int64_t r;

						if (__builtin_add_overflow(
						    (int64_t)v,
						    (int64_t)in->v[ord[u]],
						    &r) && e->rc == 0) {
							e->rc = -1;
							e->err = ERANGE;
						}
						v = (uint64_t)r;
					} else {
						double a, x;

						memcpy(&a, &v, 8);
						memcpy(&x, &in->v[ord[u]], 8);
						a += x;
						memcpy(&v, &a, 8);
					}
				}
				summed = true;
				break;
			default:
				break;
			}
		}
		e->idx[o] = pick;
		e->v[o] = v;
		if (summed && tc->kt) {
			e->tl[o] = (uint32_t)fmt_value(tc, e->fmt[o], v);
			e->t[o] = e->fmt[o];
		} else {
			e->t[o] = in->tb + in->to[pick];
			e->tl[o] = in->tl[pick];
		}
	}
	if (tc->dups == TS_DUP_ERROR && e->rc == 0) {
		/* No repeated tuple: as KEEP (n entries, in order). */
		for (i = 0; i < n; i++) {
			e->t[i] = in->tb + in->to[ord[i]];
			e->tl[i] = in->tl[ord[i]];
		}
	}
	if (tc->notext && tc->kt)
		/* Without text in the batches, the sorter formats it. */
		for (i = 0; i < e->n; i++) {
			e->tl[i] = (uint32_t)fmt_value(tc, e->fmt[i], e->v[i]);
			e->t[i] = e->fmt[i];
		}
	free(ord);
}

static void
free_expect(struct expect *e)
{
	free(e->idx);
	free(e->v);
	free(e->fmt);
	free(e->t);
	free(e->tl);
}

/* Feed [lo, hi) of in to s in batches of random sizes up to maxbatch. */
static int
feed(struct ts_sorter *s, const struct input *in, const struct tcase *tc,
    size_t lo, size_t hi)
{
	struct ts_batch b;
	size_t i = lo, j, m;

	ts_batch_init(&b, in->order, tc->maxbatch);
	while (i < hi) {
		m = 1 + below(tc->maxbatch);
		if (m > hi - i)
			m = hi - i;
		b.n = m;
		b.has_values = tc->hv;
		b.is_int = tc->isint;
		memcpy(b.coords, in->c + i * (size_t)in->order,
		    m * (size_t)in->order * 8);
		for (j = 0; j < m; j++) {
			if (tc->isint)
				b.ival[j] = (int64_t)in->v[i + j];
			else
				memcpy(&b.fval[j], &in->v[i + j], 8);
			if (tc->kt) {
				b.vtext[j] = in->tb + in->to[i + j];
				b.vlen[j] = in->tl[i + j];
			}
			/* Garbage where the sorter must not look. */
			b.loc[j] = ~(uint64_t)0;
		}
		/* Binary input brings no texts. */
		b.texts = tc->kt && !tc->notext;
		if (ts_sorter_add(s, &b) != 0) {
			ts_batch_free(&b);
			return -1;
		}
		i += m;
	}
	ts_batch_free(&b);
	return 0;
}

static void
describe(char *buf, size_t len, const struct tcase *tc)
{
	int k, o;

	o = snprintf(buf, len, "n %zu order %d prio", tc->n, tc->order);
	for (k = 0; k < tc->order; k++)
		o += snprintf(buf + o, len - (size_t)o, "%c%d", k ? ',' : ' ',
		    tc->prio[k]);
	o += snprintf(buf + o, len - (size_t)o, " ranges");
	for (k = 0; k < tc->order; k++)
		o += snprintf(buf + o, len - (size_t)o, "%c%s", k ? ',' : ' ',
		    range_name[tc->range[k]]);
	snprintf(buf + o, len - (size_t)o, "%s, %s%s, dups %s, %s, %d "
	    "thread%s", tc->grow ? " growing" : "", !tc->hv ? "no values" :
	    tc->isint ? "int" : "double", tc->kt ? (tc->notext ?
	    " +formatted text" : " +text") : "", dups_name[tc->dups],
	    tc->limit == 0 ? "in memory" : tc->limit < (1 << 20) ?
	    "limit 64 KiB" : tc->limit == (1 << 20) ? "limit 1 MiB" :
	    "limit", tc->threads, tc->threads > 1 ? "s" : "");
}

/*
 * Sort the case's input and compare everything with the reference.
 * min_spill: fail unless at least that many bytes were spilled.
 */
static int
run_case(const struct tcase *tc, long long min_spill)
{
	struct ts_sort_opts o;
	struct ts_sorter *s;
	struct input in;
	struct expect e;
	struct ts_batch b;
	char what[512];
	size_t got = 0, i, cap;
	long long sp = 0;
	int rc, good = 1, k;
	long m;

	describe(what, sizeof(what), tc);
	gen_input(&in, tc);
	reference(&in, tc, &e);
	memset(&o, 0, sizeof(o));
	o.order = tc->order;
	memcpy(o.prio, tc->prio, sizeof(o.prio));
	o.has_values = tc->hv;
	o.vtype = tc->isint ? TS_VTYPE_INT64 : TS_VTYPE_FLOAT64;
	o.keep_text = tc->kt;
	o.texts_only = tc->tonly;
	o.expect = tc->expect;
	o.mem_limit = tc->limit;
	o.tmpdir = tmpdir;
	o.threads = tc->threads;
	o.dups = tc->dups;
	s = ts_sorter_new(&o);
	if (s == NULL || feed(s, &in, tc, 0, in.n) != 0) {
		printf("# add failed: %s\n", strerror(errno));
		good = 0;
		goto done;
	}
	if (min_spill > 0 && (sp = spilled_bytes()) >= 0 && sp < min_spill) {
		printf("# only %lld bytes spilled, wanted %lld\n", sp,
		    min_spill);
		good = 0;
	}
	errno = 0;
	rc = ts_sorter_finish(s);
	if (rc != e.rc || (rc == -1 && errno != e.err)) {
		printf("# finish returned %d (%s), expected %d\n", rc,
		    strerror(errno), e.rc);
		good = 0;
		goto done;
	}
	if (tmp_entries() != 0) {
		printf("# files left in %s\n", tmpdir);
		good = 0;
	}
	if (rc == -1 && e.err == EEXIST) {
		const uint64_t *dp = ts_sorter_dup(s);

		if (dp == NULL || memcmp(dp, in.c + e.dup * (size_t)in.order,
		    (size_t)in.order * 8) != 0) {
			printf("# wrong repeated tuple\n");
			good = 0;
		}
		goto done;
	}
	if (rc != 0)
		goto done;
	if (ts_sorter_count(s) != e.n) {
		printf("# count %llu, expected %zu\n",
		    (unsigned long long)ts_sorter_count(s), e.n);
		good = 0;
	}
	cap = 1 + below(3000);
	ts_batch_init(&b, tc->order, cap);
	while (good && (m = ts_sorter_next(s, &b)) > 0) {
		if ((size_t)m != b.n || b.n > cap || b.texts != tc->kt ||
		    b.has_values != tc->hv) {
			printf("# bad batch\n");
			good = 0;
			break;
		}
		for (i = 0; i < b.n && good; i++, got++) {
			size_t x;

			if (got >= e.n) {
				printf("# more entries than expected\n");
				good = 0;
				break;
			}
			x = e.idx[got];
			if (memcmp(b.coords + i * (size_t)tc->order, in.c +
			    x * (size_t)tc->order, (size_t)tc->order * 8) !=
			    0) {
				printf("# entry %zu: coordinates", got);
				for (k = 0; k < tc->order; k++)
					printf(" %llu/%llu",
					    (unsigned long long)b.coords[i *
					    (size_t)tc->order + (size_t)k],
					    (unsigned long long)in.c[x *
					    (size_t)tc->order + (size_t)k]);
				printf("\n");
				good = 0;
			} else if (tc->hv && !tc->tonly && (tc->isint ?
			    (uint64_t)b.ival[i] != e.v[got] :
			    !same_double(b.fval[i], e.v[got]))) {
				printf("# entry %zu: value differs (%016llx, "
				    "expected %016llx)\n", got,
				    (unsigned long long)(tc->isint ?
				    (uint64_t)b.ival[i] : dbits_(b.fval[i])),
				    (unsigned long long)e.v[got]);
				good = 0;
			} else if (tc->kt && (b.vlen[i] != e.tl[got] ||
			    memcmp(b.vtext[i], e.t[got], e.tl[got]) != 0)) {
				printf("# entry %zu: text differs\n", got);
				good = 0;
			}
		}
	}
	if (good && got != e.n) {
		printf("# %zu entries, expected %zu\n", got, e.n);
		good = 0;
	}
	ts_batch_free(&b);
done:
	ts_sorter_free(s);
	if (tmp_entries() != 0) {
		printf("# files left in %s after free\n", tmpdir);
		good = 0;
	}
	free_expect(&e);
	free_input(&in);
	ok(good, "%s%s", what, e.rc == -1 && e.err == EEXIST ?
	    " (repeated tuple found)" : e.rc == -1 ? " (overflow found)" : "");
	return good;
}

static void
random_prio(struct tcase *tc)
{
	int k, j, t;

	for (k = 0; k < tc->order; k++)
		tc->prio[k] = k;
	for (k = tc->order - 1; k > 0; k--) {
		j = (int)below((uint64_t)k + 1);
		t = tc->prio[k];
		tc->prio[k] = tc->prio[j];
		tc->prio[j] = t;
	}
}

static void
random_case(struct tcase *tc)
{
	int k, r;

	memset(tc, 0, sizeof(*tc));
	tc->order = 1 + (int)below(6);
	random_prio(tc);
	r = (int)below(NRANGE + 1);
	for (k = 0; k < tc->order; k++)
		tc->range[k] = r < NRANGE ? r : (int)below(NRANGE);
	tc->grow = below(6) == 0;
	tc->hv = below(4) != 0;
	tc->isint = tc->hv && below(2) == 0;
	tc->kt = tc->hv && below(2) == 0;
	tc->notext = tc->kt && below(5) == 0;
	tc->dups = (enum ts_dup_policy)below(5);
	tc->limit = below(3) == 0 ? 0 : below(2) == 0 ? (size_t)64 << 10 :
	    (size_t)1 << 20;
	tc->threads = 1 + (int)below(2);
	tc->n = below(5) == 0 ? below(100) : below(40000);
	tc->maxbatch = 1 + below(below(2) ? 100 : 5000);
	tc->tonly = tc->kt && below(3) == 0 && tc->dups != TS_DUP_SUM;
	tc->expect = below(3) == 0 ? 0 : below(2) ? tc->n : tc->n / 2 +
	    below(tc->n + 1);
}

/* ---- specific cases ---- */

/*
 * Texts at the edges of what the sorter codes into a record word rather
 * than keeping in its arena: each must come back byte for byte with its
 * value, in memory and through runs, float64 and float32.  The list is
 * fed in reverse order of a one-mode key, so every text moves.
 */
/* What the reader would make of a text (junk here: 0). */
static double
text_value(const char *t, int f32)
{
	const char *e = t + strlen(t);
	double x = 0;
	float f = 0;

	if (f32) {
		(void)ts_parse_float(t, e, &f);
		return f;
	}
	(void)ts_parse_double(t, e, &x);
	return x;
}

static void
test_texts(void)
{
	static const char *const fixed[] = {
		"0", "-0", "+0", "00", "0.000", "-0.0e0", ".5", "5.", "-.5e-3",
		"12345678901234567", "123456789012345678",	/* 17, 18 */
		"0.00000000000000012345678901234567",
		"1234567890123456.7", "1.00000000000000000",
		"99999999999999999", "1E+5", "1e-0007", "2.5E012",
		"1e123456789", "1e1234567890", "1e", "e5", ".", "-", "+",
		"", "inf", "-nan", "0x1p3", " 1", "1 ", "1.5.5", "--1",
		"0000000000000000000000000000000000000001",	/* 40 */
		"00000000000000000000000000000000000000001",	/* 41 */
		"1.2345678901234567e-300", "4.9e-324", "1.7976931348623157e308",
		/* Parts of 8, 9, 16, 17 and 24 digits, written by groups
		 * of eight from their ends: each must leave its neighbours
		 * (and the sign) whole. */
		"-12345678.12345678", "+123456789.123456789", "-.12345678",
		"1234567812345678.9", "-9.1234567812345678",
		"00000000000000000000001.5", "-0.0000000000000000000001",
		"+000000000000000012345678", "0.00000000123456789012345678",
		"12345678", "-123456789", "1.e5", "-0.5E-7",
		"0.12345678901234567", "-7.00000000000000001",
	};
	enum { NFIX = sizeof(fixed) / sizeof(fixed[0]), NGEN = 400 };
	char gen[NGEN][48];
	const char *txt[NFIX + NGEN];
	struct ts_sort_opts o;
	struct ts_sorter *s;
	struct ts_batch b;
	size_t i, n = NFIX + NGEN, got;
	int mode, f32, good;
	long m;

	/* More ways of writing than the sorter's table of them holds. */
	for (i = 0; i < NGEN; i++) {
		snprintf(gen[i], sizeof(gen[i]), "%s%.*f%s%d",
		    i % 3 ? "" : "-", (int)(i % 19), 1.0 / (double)(i + 1),
		    i % 2 ? "e" : "E", (int)(i / 38));
		txt[NFIX + i] = gen[i];
	}
	for (i = 0; i < NFIX; i++)
		txt[i] = fixed[i];
	for (mode = 0; mode < 2; mode++)
		for (f32 = 0; f32 < 2; f32++) {
			memset(&o, 0, sizeof(o));
			o.order = 1;
			o.has_values = o.keep_text = true;
			o.vtype = f32 ? TS_VTYPE_FLOAT32 : TS_VTYPE_FLOAT64;
			o.threads = 1;
			o.tmpdir = tmpdir;
			o.mem_limit = mode ? 1 : 0;
			s = ts_sorter_new(&o);
			ts_batch_init(&b, 1, n);
			for (i = 0; i < n; i++) {
				b.coords[i] = n - 1 - i;
				b.vtext[i] = txt[i];
				b.vlen[i] = (uint32_t)strlen(txt[i]);
				b.fval[i] = text_value(txt[i], f32);
			}
			b.n = n;
			b.has_values = b.texts = true;
			good = s != NULL && ts_sorter_add(s, &b) == 0 &&
			    ts_sorter_finish(s) == 0;
			got = 0;
			while (good && (m = ts_sorter_next(s, &b)) > 0)
				for (i = 0; i < b.n && good; i++, got++) {
					const char *t = txt[n - 1 - got];
					double x = text_value(t, f32);

					if (b.vlen[i] != strlen(t) ||
					    memcmp(b.vtext[i], t, b.vlen[i]) !=
					    0 || (memcmp(&b.fval[i], &x, 8) !=
					    0 && !(isnan(x) &&
					    isnan(b.fval[i])))) {
						printf("# text '%s' came back "
						    "as '%.*s' (%g)\n", t,
						    (int)b.vlen[i],
						    b.vtext[i], b.fval[i]);
						good = 0;
					}
				}
			ok(good && got == n, "texts and their values kept "
			    "byte for byte (%s, %s)", f32 ? "float32" :
			    "float64", mode ? "runs" : "in memory");
			ts_batch_free(&b);
			ts_sorter_free(s);
		}
}

static void
test_random(int count)
{
	struct tcase tc;
	int i;

	for (i = 0; i < count; i++) {
		random_case(&tc);
		run_case(&tc, 0);
	}
}

/*
 * In memory and large enough for the in-place sort (its chunks, its
 * moves of other buckets' chunks out of the way, its fallback when one
 * bucket is too big), any shape of key, every policy.
 */
static void
test_inplace(int count)
{
	struct tcase tc;
	int i;

	for (i = 0; i < count; i++) {
		random_case(&tc);
		tc.limit = 0;
		tc.n = 70000 + below(330000);
		tc.maxbatch = 1 + below(8000);
		tc.tonly = tc.kt && below(3) == 0 && tc.dups != TS_DUP_SUM;
		tc.expect = below(2) ? tc.n : 0;
		run_case(&tc, 0);
	}
}

/* Sizes and layouts where the fast paths and the many-run paths matter. */
static void
test_large(void)
{
	struct tcase tc;
	int k;

	/* Many runs of 16-byte records, merged in two levels. */
	memset(&tc, 0, sizeof(tc));
	tc.order = 3;
	random_prio(&tc);
	for (k = 0; k < 3; k++)
		tc.range[k] = R_MID;
	tc.hv = true;
	tc.dups = TS_DUP_KEEP;
	tc.limit = (size_t)1 << 20;
	tc.threads = 2;
	tc.n = 2000000;
	tc.maxbatch = 4096;
	run_case(&tc, 20LL << 20);

	/* Text and SUM through many runs, int values, many repeats. */
	memset(&tc, 0, sizeof(tc));
	tc.order = 4;
	random_prio(&tc);
	for (k = 0; k < 4; k++)
		tc.range[k] = k < 2 ? R_SMALL : R_MID;
	tc.hv = tc.isint = tc.kt = true;
	tc.dups = TS_DUP_SUM;
	tc.limit = (size_t)1 << 20;
	tc.threads = 1;
	tc.n = 1000000;
	tc.maxbatch = 3000;
	run_case(&tc, 10LL << 20);

	/* LAST through many runs with widths that grow as runs are
	 * written (the merge repacks old runs), two threads. */
	memset(&tc, 0, sizeof(tc));
	tc.order = 2;
	random_prio(&tc);
	tc.range[0] = R_FULL;
	tc.range[1] = R_SMALL;
	tc.grow = true;
	tc.hv = tc.kt = true;
	tc.dups = TS_DUP_LAST;
	tc.limit = (size_t)64 << 10;
	tc.threads = 2;
	tc.n = 300000;
	tc.maxbatch = 1000;
	run_case(&tc, 1LL << 20);

	/* The threaded radix sort in memory: several words per key, and
	 * records of 1, 2, 3 and 5 words. */
	memset(&tc, 0, sizeof(tc));
	tc.order = 5;
	random_prio(&tc);
	for (k = 0; k < 5; k++)
		tc.range[k] = k == 0 ? R_FULL : R_BIG;
	tc.hv = tc.kt = true;
	tc.threads = 2;
	tc.n = 300000;
	tc.maxbatch = 5000;
	run_case(&tc, 0);
	tc.hv = tc.kt = false;
	tc.order = 3;
	random_prio(&tc);
	tc.range[0] = tc.range[1] = tc.range[2] = R_MID;
	run_case(&tc, 0);
	tc.hv = true;
	run_case(&tc, 0);
	tc.kt = true;
	tc.dups = TS_DUP_FIRST;
	run_case(&tc, 0);
	tc.threads = 3;
	tc.dups = TS_DUP_KEEP;
	tc.n = 500000;
	run_case(&tc, 0);

	/* One thread, in memory, past the size where the sort starts with
	 * its MSD pass: a skewed first mode (few, big buckets), then
	 * wide keys with text and repeats. */
	memset(&tc, 0, sizeof(tc));
	tc.order = 3;
	random_prio(&tc);
	tc.range[tc.prio[0]] = R_TINY;
	tc.range[tc.prio[1]] = tc.range[tc.prio[2]] = R_MID;
	tc.hv = true;
	tc.threads = 1;
	tc.n = 400000;
	tc.maxbatch = 5000;
	run_case(&tc, 0);
	tc.order = 4;
	random_prio(&tc);
	tc.range[0] = tc.range[1] = R_SMALL;
	tc.range[2] = R_MID;
	tc.range[3] = R_FULL;
	tc.isint = tc.kt = true;
	tc.dups = TS_DUP_LAST;
	tc.n = 300000;
	run_case(&tc, 0);
}

/* Every policy on every storage, with text, on one small input. */
static void
test_policies(void)
{
	struct tcase tc;
	int d, mem, th;

	for (d = 0; d < 5; d++)
		for (mem = 0; mem < 2; mem++)
			for (th = 1; th <= 2; th++) {
				memset(&tc, 0, sizeof(tc));
				tc.order = 3;
				random_prio(&tc);
				tc.range[0] = tc.range[1] = R_SMALL;
				tc.range[2] = d == TS_DUP_ERROR ? R_BIG :
				    R_TINY;
				tc.hv = true;
				tc.isint = d % 2 == 0;
				tc.kt = true;
				tc.dups = (enum ts_dup_policy)d;
				tc.limit = mem ? (size_t)64 << 10 : 0;
				tc.threads = th;
				tc.n = d == TS_DUP_ERROR ? 5000 : 70000;
				tc.maxbatch = 2000;
				run_case(&tc, 0);
			}
}

/*
 * Sort four hand-made entries; with pad, 200000 distinct ones around
 * them (two first, two last), fed in small batches so that a 64 KiB
 * limit spills many runs between the repeats.
 */
static void
sort_small(const struct ts_sort_opts *o, const uint64_t *c,
    const int64_t *iv, bool pad, int *rc, int *err)
{
	struct ts_sorter *s = ts_sorter_new(o);
	struct ts_batch b;
	size_t i, n = pad ? 200004 : 4, j;
	int r = 0;

	ts_batch_init(&b, 2, 1000);
	for (i = 0; i < n && r == 0; i += b.n) {
		b.n = n - i < 1000 ? n - i : 1000;
		b.has_values = b.is_int = true;
		for (j = 0; j < b.n; j++) {
			size_t x = i + j, k = x < 2 ? x : x >= n - 2 ?
			    x - (n - 4) : 4;

			if (k < 4) {
				b.coords[2 * j] = c[2 * k];
				b.coords[2 * j + 1] = c[2 * k + 1];
				b.ival[j] = iv[k];
			} else {
				b.coords[2 * j] = 100 + x;
				b.coords[2 * j + 1] = x;
				b.ival[j] = 0;
			}
		}
		r = ts_sorter_add(s, &b);
	}
	errno = 0;
	*rc = r == 0 ? ts_sorter_finish(s) : r;
	*err = errno;
	ts_batch_free(&b);
	ts_sorter_free(s);
}

static void
test_errors(void)
{
	struct ts_sort_opts o;
	struct ts_sorter *s;
	struct ts_batch b;
	uint64_t c[8] = { 1, 2, 0, 0, 5, 5, 1, 2 };
	/* entries 0 and 3 repeat (1, 2) */
	int64_t v[4] = { INT64_MAX, 7, 2, 1 };
	int64_t w[4] = { INT64_MIN, 7, 2, -1 };
	int64_t z[4] = { INT64_MAX, 7, 2, -1 };
	int rc, err, mem;
	size_t i, big = 200000;
	uint64_t *bc;
	int64_t *bv;

	memset(&o, 0, sizeof(o));
	o.order = 2;
	o.prio[0] = 1;
	o.prio[1] = 0;
	o.has_values = true;
	o.vtype = TS_VTYPE_INT64;
	o.threads = 1;
	o.tmpdir = tmpdir;
	o.dups = TS_DUP_SUM;
	for (mem = 0; mem < 2; mem++) {
		o.mem_limit = mem ? 1 : 0;	/* 1: the smallest limit */
		sort_small(&o, c, v, mem, &rc, &err);
		ok(rc == -1 && err == ERANGE, "int64 SUM overflow upwards "
		    "fails with ERANGE (%s)", mem ? "runs" : "in memory");
		sort_small(&o, c, w, mem, &rc, &err);
		ok(rc == -1 && err == ERANGE, "int64 SUM overflow downwards "
		    "fails with ERANGE (%s)", mem ? "runs" : "in memory");
		sort_small(&o, c, z, mem, &rc, &err);
		ok(rc == 0, "int64 SUM to INT64_MAX - 1 is fine (%s)",
		    mem ? "runs" : "in memory");
	}

	/* ERROR: the first repeated tuple in sort order, not input order:
	 * with priority (1, 0), (2, 1) sorts before (0, 5). */
	bc = malloc(big * 2 * 8);
	bv = calloc(big, 8);
	for (i = 0; i < big; i++) {
		bc[2 * i] = i;
		bc[2 * i + 1] = 1000 + i;
	}
	bc[2 * 10] = 0;
	bc[2 * 10 + 1] = 5;
	bc[2 * 20] = 0;
	bc[2 * 20 + 1] = 5;	/* (0, 5) twice, early in input */
	bc[2 * (big - 2)] = 2;
	bc[2 * (big - 2) + 1] = 1;
	bc[2 * (big - 1)] = 2;
	bc[2 * (big - 1) + 1] = 1;	/* (2, 1) twice, late in input */
	o.dups = TS_DUP_ERROR;
	for (mem = 0; mem < 2; mem++) {
		const uint64_t *dp;

		o.mem_limit = mem ? (size_t)64 << 10 : 0;
		s = ts_sorter_new(&o);
		ts_batch_init(&b, 2, big);
		b.n = big;
		b.has_values = b.is_int = true;
		memcpy(b.coords, bc, big * 2 * 8);
		memcpy(b.ival, bv, big * 8);
		rc = ts_sorter_add(s, &b);
		errno = 0;
		rc = rc == 0 ? ts_sorter_finish(s) : rc;
		dp = ts_sorter_dup(s);
		ok(rc == -1 && errno == EEXIST && dp != NULL && dp[0] == 2 &&
		    dp[1] == 1,
		    "ERROR gives the first repeated tuple in sort order (%s)",
		    mem ? "runs" : "in memory");
		ts_batch_free(&b);
		ts_sorter_free(s);
	}
	free(bc);
	free(bv);

	/* A spill that cannot be written is an I/O error, with errno. */
	o.dups = TS_DUP_KEEP;
	o.mem_limit = 1;
	o.tmpdir = "/nonexistent/ts-sort-test";
	s = ts_sorter_new(&o);
	ts_batch_init(&b, 2, 1000);
	b.n = 1000;
	b.has_values = b.is_int = true;
	for (i = 0; i < 1000; i++) {
		b.coords[2 * i] = i;
		b.coords[2 * i + 1] = 0;
		b.ival[i] = 0;
	}
	for (i = 0, rc = 0; i < 100 && rc == 0; i++)
		rc = ts_sorter_add(s, &b);
	err = errno;
	ok(rc == -1 && err == ENOENT && ts_sorter_add(s, &b) == -1 &&
	    ts_sorter_finish(s) == -1, "a spill to a missing directory "
	    "fails with ENOENT, and so does every later call");
	ts_batch_free(&b);
	ts_sorter_free(s);
	o.tmpdir = tmpdir;
	o.mem_limit = 0;

	/* Bad options, empty input, calls out of order. */
	o.prio[1] = 1;
	ok(ts_sorter_new(&o) == NULL && errno == EINVAL,
	    "a priority that is not a permutation is refused");
	o.prio[1] = 0;
	o.dups = TS_DUP_KEEP;
	s = ts_sorter_new(&o);
	ts_batch_init(&b, 2, 10);
	ok(ts_sorter_next(s, &b) == -1, "next before finish fails");
	ok(ts_sorter_finish(s) == 0 && ts_sorter_count(s) == 0 &&
	    ts_sorter_next(s, &b) == 0, "no entries: count 0, next 0");
	ok(ts_sorter_add(s, &b) == -1, "add after finish fails");
	ts_batch_free(&b);
	ts_sorter_free(s);
}

/* ---- speed ---- */

/* A line of /proc/self/status in KiB ("VmHWM:", "VmRSS:"); -1 if none. */
static long
status_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	size_t kl = strlen(key);
	long kib = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, kl) == 0)
			kib = strtol(line + kl, NULL, 10);
	fclose(f);
	return kib;
}

static long
peak_kib(void)
{
	return status_kib("VmHWM:");
}

/* Let VmHWM measure from here (Linux: "5" to clear_refs). */
static void
reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");

	if (f != NULL) {
		fputs("5", f);
		fclose(f);
	}
}

/*
 * The last sort in memory, in place, with threads, where two buckets of
 * its first pass (by the 7 bits of the first mode) hold 45% of the
 * entries each: the threads' buffers of
 * a bucket each would take more than the records (which the memory
 * limit leaves room for twice: the second array the in-place sort does
 * without), so the sort must do with the two buffers of one thread.
 * Its peak above what the records take is at most their size.
 */
static void
test_inplace_memory(void)
{
	const size_t n = 3000000, bs = 4096, rec = n * 8 / 1024;
	struct ts_sort_opts o;
	struct ts_sorter *s;
	struct ts_batch b;
	uint64_t r = 777, prev = 0, got = 0, key;
	size_t i, j;
	long base, peak, m;
	bool sorted = true;

	if (getenv("TS_SANITIZE") != NULL || status_kib("VmRSS:") < 0) {
		ok(1, "# SKIP the peak memory means nothing here");
		return;
	}
	memset(&o, 0, sizeof(o));
	o.order = 2;
	o.prio[0] = 0;
	o.prio[1] = 1;
	o.threads = 2;
	o.tmpdir = tmpdir;
	o.expect = n;
	ts_batch_init(&b, 2, bs);
	s = ts_sorter_new(&o);
	for (i = 0; i < n; i += b.n) {
		b.n = n - i < bs ? n - i : bs;
		for (j = 0; j < b.n; j++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			b.coords[2 * j] = (i + j) % 100 < 45 ? 5 :
			    (i + j) % 100 < 90 ? 40 : (r >> 57);
			b.coords[2 * j + 1] = (r >> 20) & 0xFFFFF;
		}
		ts_sorter_add(s, &b);
	}
#ifdef __GLIBC__
	/* Memory earlier tests freed, given back: the buffers the sort
	 * takes now show in its peak. */
	malloc_trim(0);
#endif
	base = status_kib("VmRSS:");
	reset_peak();
	ts_sorter_finish(s);
	peak = peak_kib();
	while ((m = ts_sorter_next(s, &b)) > 0)
		for (j = 0; j < b.n; j++, got++) {
			key = b.coords[2 * j] << 20 | b.coords[2 * j + 1];
			if (key < prev)
				sorted = false;
			prev = key;
		}
	ts_sorter_free(s);
	ts_batch_free(&b);
	ok(sorted && got == n, "in place, two huge buckets, two threads: "
	    "sorted");
	ok(peak - base <= (long)rec + 4096, "in place, two huge buckets, two "
	    "threads: %ld KiB above the records' %zu KiB (at most their "
	    "size and 4 MiB)", peak - base, rec);
}

/*
 * Sort n order-3 entries with coordinates below 2000 and double values,
 * made on the fly (so the peak memory is the sorter's), and print the
 * times of adding (with a limit, that includes sorting and writing the
 * full runs), of ts_sorter_finish (in memory: the whole sort) and of
 * reading back (with a limit: the merge).
 */
static void
speed(size_t n, int threads, size_t limit)
{
	struct ts_sort_opts o;
	struct ts_sorter *s;
	struct ts_batch b;
	const size_t bs = 4096;
	uint64_t prev[3] = { 0, 0, 0 }, got = 0, r = 12345;
	double t0, t1, t2, t3, c1, c2;
	size_t i, j;
	bool sorted = true;
	long m;

	memset(&o, 0, sizeof(o));
	o.order = 3;
	o.prio[0] = 0;
	o.prio[1] = 1;
	o.prio[2] = 2;
	o.has_values = true;
	o.mem_limit = limit;
	o.tmpdir = tmpdir;
	o.threads = threads;
	o.dups = TS_DUP_KEEP;
	reset_peak();
	ts_batch_init(&b, 3, bs);
	s = ts_sorter_new(&o);
	t0 = now();
	for (i = 0; i < n; i += b.n) {
		b.n = n - i < bs ? n - i : bs;
		b.has_values = true;
		for (j = 0; j < b.n * 3; j++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			b.coords[j] = (r >> 33) % 2000;
		}
		for (j = 0; j < b.n; j++)
			b.fval[j] = (double)(i + j);
		ts_sorter_add(s, &b);
	}
	t1 = now();
	c1 = cpu();
	ts_sorter_finish(s);
	c2 = cpu();
	t2 = now();
	while ((m = ts_sorter_next(s, &b)) > 0)
		for (j = 0; j < b.n; j++, got++) {
			const uint64_t *c = b.coords + 3 * j;

			if (c[0] < prev[0] || (c[0] == prev[0] &&
			    (c[1] < prev[1] || (c[1] == prev[1] &&
			    c[2] < prev[2]))))
				sorted = false;
			memcpy(prev, c, 24);
		}
	t3 = now();
	ts_sorter_free(s);
	ts_batch_free(&b);
	printf("# speed: %zu entries, %d thread%s, ", n, threads,
	    threads > 1 ? "s" : "");
	if (limit == 0)
		printf("in memory");
	else
		printf("mem_limit %zu MiB", limit >> 20);
	printf(": add %.3f s, finish %.3f s (cpu %.3f s), read back %.3f s, "
	    "total %.3f s; peak RSS %ld MiB\n", t1 - t0, t2 - t1, c2 - c1,
	    t3 - t2, t3 - t0, peak_kib() / 1024);
	ok(sorted && got == n, "speed run: %zu entries, %d thread%s, "
	    "limit %zu MiB: sorted", n, threads, threads > 1 ? "s" : "",
	    limit >> 20);
}

int
main(int argc, char **argv)
{
	size_t speed_n = 2000000;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--big") == 0)
			speed_n = 20000000;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			rng = strtoull(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: test_sort [--big] "
			    "[--seed N]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	/* 256 MiB for 20 million entries, scaled to the size: runs. */
	speed(speed_n, 1, ((size_t)256 << 20) / (20000000 / speed_n));
	speed(speed_n, 2, ((size_t)256 << 20) / (20000000 / speed_n));
	speed(speed_n, 1, 0);
	speed(speed_n, 2, 0);
	test_errors();
	test_texts();
	test_policies();
	test_large();
	test_inplace(24);
	test_inplace_memory();
	test_random(150);
	rmdir(tmpdir);
	return tap_done();
}
