/*
 * pipeline.c - the one flow of ts-convert and ts-sort: find out what the
 * input is and what its attributes are (reading it once to infer them
 * when nothing states them), then decode it into batches, change types
 * and bases on the way, sort when asked, and encode to every output,
 * which appears whole or not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <archive.h>
#include <jansson.h>

#include "tensorsuite.h"

#define BATCH	8192

static const char *const kindnames[] = { "auto", "bundle", "tns", "tnsb",
    "frostt", "mtx", "cutensor" };

/* One open input: a data file decoded by the reader or the mtx reader. */
struct input {
	struct ts_source	 src;
	struct ts_reader	*rd;
	struct ts_mtx_reader	*mx;
	bool			 open;
};

struct job {
	const struct ts_pipe_opts	*o;
	struct ts_diags		 d;
	enum ts_pkind		 from, to;
	enum ts_pkind		 src_kind;	/* what SRC was, for README */
	char			*path;		/* data file to read */
	char			*spool;		/* stdin copied here */
	int			 spool_fd;	/* ... and unlinked */
	char			*dstdir;	/* bundle DST, no trailing / */
	const char		*sname;		/* SRC in messages */
	struct ts_bundle	 bd;		/* bundle input */
	bool			 have_bundle;
	struct ts_meta		 m;		/* attributes (output) */
	struct ts_meta		*mp;		/* &bd.meta or &m */
	bool			 meta_known;
	struct ts_layout	 in;		/* how to read */
	struct ts_header	 hdr;		/* block extents etc. */
	int			 status;
};

static void
note(const struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
note(const struct job *j, const char *fmt, ...)
{
	va_list ap;

	if (j->o->quiet)
		return;
	ts_progress_clear();
	fprintf(stderr, "%s: ", ts_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Print what the collector holds and set the status it implies. */
static int
flush_diags(struct job *j)
{
	int rv = TS_EXIT_OK;

	ts_diags_print(&j->d, stderr);
	if (j->d.io_failed)
		rv = TS_EXIT_IO;
	else if (ts_diags_errors(&j->d) > 0)
		rv = TS_EXIT_DATA;
	ts_diags_free(&j->d);
	ts_diags_init(&j->d, 20, false);
	if (rv > j->status)
		j->status = rv;
	return rv;
}

static bool
has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && strcmp(s + n - k, suf) == 0;
}

static const char *
basename_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The kind of a data file, from its first bytes. */
static enum ts_pkind
sniff(struct ts_source *src)
{
	const char *p;
	long n = ts_source_peek(src, &p, 64);
	long i = 0;

	if (n >= 18 && memcmp(p, "%%TensorSuite-TNSB", 18) == 0)
		return TS_PK_TNSB;
	if (n >= 17 && memcmp(p, "%%TensorSuite-TNS", 17) == 0)
		return TS_PK_TNS;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (n - i >= 14 && (strncasecmp(p + i, "%%MatrixMarket", 14) == 0 ||
	    strncasecmp(p + i, "%MatrixMarket", 13) == 0))
		return TS_PK_MTX;
	return TS_PK_FROSTT;
}

/* gzip, zstd, xz or bzip2: libarchive undoes them on the way in. */
static bool
compressed(struct ts_source *src)
{
	const unsigned char *p;
	long n = ts_source_peek(src, (const char **)&p, 64);

	return (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) ||
	    (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd) ||
	    (n >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0) ||
	    (n >= 3 && memcmp(p, "BZh", 3) == 0);
}

struct arsrc {
	struct ts_source	*src;
	char			 buf[1 << 16];
};

static la_ssize_t
ar_read(struct archive *a, void *ud, const void **out)
{
	struct arsrc *as = ud;
	long n = ts_source_read(as->src, as->buf, sizeof(as->buf));

	if (n < 0) {
		archive_set_error(a, errno, "read error");
		return -1;
	}
	*out = as->buf;
	return n;
}

/* Copy standard input to a temporary (removed at exit), for two passes;
 * with unzip, decompress it on the way. */
static int
spool_from(struct job *j, struct ts_source *in, bool unzip)
{
	const char *dir = getenv("TMPDIR");
	char *buf;
	uint64_t done = 0;
	long n;
	int fd;

	j->spool = ts_xasprintf("%s/%s.XXXXXX", dir && *dir ? dir : "/tmp",
	    ts_progname);
	if ((fd = mkstemp(j->spool)) == -1) {
		ts_warn("%s", j->spool);
		free(j->spool);
		j->spool = NULL;
		j->status = TS_EXIT_IO;
		return -1;
	}
	/* Unlinked at once: nothing is left behind, even after a kill. */
	unlink(j->spool);
	j->spool_fd = fd;
	buf = ts_xmalloc(1 << 20);
	if (unzip) {
		struct archive *a = archive_read_new();
		struct archive_entry *e;
		struct arsrc *as = ts_xmalloc(sizeof(*as));

		as->src = in;
		archive_read_support_filter_all(a);
		archive_read_support_format_raw(a);
		if (archive_read_open(a, as, NULL, ar_read, NULL) !=
		    ARCHIVE_OK || archive_read_next_header(a, &e) !=
		    ARCHIVE_OK)
			n = -2;
		else
			while ((n = (long)archive_read_data(a, buf, 1 << 20)) >
			    0) {
				if (write(fd, buf, (size_t)n) != n) {
					n = -1;
					break;
				}
				ts_progress(done += (uint64_t)n, 0, true,
				    "decompressing %s", j->sname);
			}
		if (n < -1) {
			ts_warnx("%s: cannot decompress: %s", j->sname,
			    archive_error_string(a) ? archive_error_string(a) :
			    "unknown error");
			j->status = TS_EXIT_DATA;
		}
		archive_read_free(a);
		free(as);
	} else
		while ((n = ts_source_read(in, buf, 1 << 20)) > 0) {
			if (write(fd, buf, (size_t)n) != n) {
				n = -1;
				break;
			}
			ts_progress(done += (uint64_t)n, 0, true,
			    "copying %s", j->sname);
		}
	free(buf);
	if (n < 0) {
		if (j->status == 0) {
			ts_warn("copying %s to '%s'", j->sname, j->spool);
			j->status = TS_EXIT_IO;
		}
		return -1;
	}
	if (in->is_stdin) {
		free(j->path);
		j->path = ts_xstrdup("<stdin>");
	}
	return 0;
}

static int
input_open(struct job *j, struct input *in, const struct ts_layout *lay)
{
	memset(in, 0, sizeof(*in));
	if (j->spool != NULL) {
		int fd = dup(j->spool_fd);

		if (fd == -1 || lseek(fd, 0, SEEK_SET) == -1 ||
		    ts_source_open_fd(&in->src, fd, "<stdin>") != 0) {
			ts_warn("%s", j->spool);
			j->status = TS_EXIT_IO;
			return -1;
		}
	} else if (ts_source_open(&in->src, j->path) != 0) {
		ts_warn("%s", j->path);
		j->status = TS_EXIT_IO;
		return -1;
	}
	if (j->from == TS_PK_MTX)
		in->mx = ts_mtx_open(&in->src, &j->d);
	else
		in->rd = ts_reader_open(&in->src, lay, &j->d);
	if (in->mx == NULL && in->rd == NULL) {
		ts_source_close(&in->src);
		flush_diags(j);
		return -1;
	}
	in->open = true;
	return 0;
}

/* The next batch; verb says what is done with it, for the progress
 * line. */
static long
input_next(struct job *j, struct input *in, struct ts_batch *b,
    const char *verb)
{
	ts_progress(in->src.nread, in->src.size, true, "%s %s", verb,
	    j->sname);
	return in->mx ? ts_mtx_next(in->mx, b) : ts_reader_next(in->rd, b);
}

static void
input_close(struct input *in)
{
	if (!in->open)
		return;
	if (in->mx)
		ts_mtx_close(in->mx);
	if (in->rd)
		ts_reader_close(in->rd);
	ts_source_close(&in->src);
	in->open = false;
}

/* Where the attributes of a bare data file come from (SPEC section 8). */
static int
find_meta(struct job *j)
{
	const char *b = basename_of(j->o->src);
	char *mp = NULL;
	struct stat st;

	if (j->o->meta != NULL)
		mp = ts_xstrdup(j->o->meta);
	else if (strcmp(j->o->src, "-") != 0 && (has_suffix(b, ".tns") ||
	    has_suffix(b, ".tnsb"))) {
		/* A file inside its bundle: NAME/NAME.tns(b). */
		size_t stem = strlen(b) - (has_suffix(b, ".tns") ? 4 : 5);

		mp = ts_xasprintf("%.*s%.*s_metadata.json",
		    (int)(b - j->o->src), j->o->src, (int)stem, b);
		if (stat(mp, &st) != 0) {
			free(mp);
			mp = NULL;
		}
	}
	if (mp == NULL)
		return 0;
	ts_meta_read(&j->m, mp, &j->d);
	free(mp);
	if (ts_diags_errors(&j->d) > 0)
		return flush_diags(j), -1;
	ts_diags_free(&j->d);
	ts_diags_init(&j->d, 20, false);
	j->meta_known = true;
	return 0;
}

static void
layout_from_meta(struct job *j)
{
	const struct ts_meta *m = j->mp;

	j->in.block = m->sparsity == TS_SP_BLOCK;
	j->in.values = m->values_provided;
	j->in.vtype = m->value_type;
	j->in.itype = m->index_type;
	j->in.endian = m->endianness;
	j->in.base = m->index_base;
}

/* A bare binary stream needs its layout spelled out (SPEC section 8). */
static int
layout_from_flags(struct job *j)
{
	const struct ts_pipe_opts *o = j->o;
	char missing[200] = "";

	j->in.values = o->no_values ? 0 : j->from == TS_PK_TNSB ? 1 : -1;
	j->in.vtype = o->in_vtype >= 0 ? (enum ts_vtype)o->in_vtype :
	    TS_FLOAT64;
	j->in.itype = o->in_itype >= 0 ? (enum ts_itype)o->in_itype :
	    TS_UINT64;
	j->in.endian = o->in_endian >= 0 ? (enum ts_endian)o->in_endian :
	    TS_END_LITTLE;
	j->in.base = o->in_base >= 0 ? o->in_base : 1;
	if (j->from == TS_PK_TNSB) {
		if (o->in_itype < 0)
			strcat(missing, " --input-index-type");
		if (o->in_vtype < 0 && !o->no_values)
			strcat(missing, " --input-value-type (or --no-values)");
		if (o->in_endian < 0)
			strcat(missing, " --input-endian");
		if (o->in_base < 0)
			strcat(missing, " --input-base");
		if (*missing != '\0') {
			ts_warnx("'%s': a binary data file does not describe "
			    "itself; give --meta FILE or%s", j->sname,
			    missing);
			return -1;
		}
	}
	if (j->from == TS_PK_TNS && o->in_base < 0)
		note(j, "'%s': no metadata; assuming 1-based coordinates "
		    "(--input-base to change)", j->sname);
	return 0;
}

/* ---- inference, for inputs that state no attributes ---- */

struct stats {
	uint64_t	 n;
	uint64_t	 max[TS_MAXORDER], min[TS_MAXORDER];
	uint64_t	 prev[TS_MAXORDER];
	bool		 fwd, rev;	/* sorted in 1..N / N..1 priority */
	bool		 light;		/* no tuples: a file output */
	bool		 zero, neg, nonbin;
	struct ts_tuples t;
};

static int
lexcmp(const uint64_t *a, const uint64_t *b, int order, bool rev)
{
	int i;

	for (i = 0; i < order; i++) {
		int k = rev ? order - 1 - i : i;

		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	}
	return 0;
}

static void
stats_batch(struct stats *s, const struct ts_batch *b)
{
	const int order = b->order;
	size_t i;
	int k;

	for (i = 0; i < b->n; i++) {
		const uint64_t *c = b->coords + i * (size_t)order;

		for (k = 0; k < order; k++) {
			if (s->n == 0 || c[k] > s->max[k])
				s->max[k] = c[k];
			if (s->n == 0 || c[k] < s->min[k])
				s->min[k] = c[k];
		}
		if (s->n > 0) {
			int f = lexcmp(s->prev, c, order, false);

			if (f > 0)
				s->fwd = false;
			if (lexcmp(s->prev, c, order, true) > 0)
				s->rev = false;
		}
		memcpy(s->prev, c, (size_t)order * sizeof(*c));
		if (b->has_values) {
			double v = b->is_int ? (double)b->ival[i] : b->fval[i];

			s->zero |= v == 0;
			s->neg |= !(v >= 0);
			s->nonbin |= v != 0 && v != 1;
		}
		s->n++;
		if (s->light)
			continue;
		if (s->t.n == s->t.cap) {
			s->t.cap = s->t.cap ? 2 * s->t.cap : 65536;
			s->t.tup = ts_xreallocarray(s->t.tup, s->t.cap,
			    (size_t)order * sizeof(uint64_t));
			if (b->has_values && b->is_int)
				s->t.iv = ts_xreallocarray(s->t.iv, s->t.cap,
				    sizeof(int64_t));
			else if (b->has_values)
				s->t.fv = ts_xreallocarray(s->t.fv, s->t.cap,
				    sizeof(double));
		}
		memcpy(s->t.tup + s->t.n * (size_t)order, c, (size_t)order *
		    sizeof(*c));
		if (s->t.iv)
			s->t.iv[s->t.n] = b->ival[i];
		if (s->t.fv)
			s->t.fv[s->t.n] = b->fval[i];
		s->t.n++;
	}
}

static char *
today(void)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[16];

	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	return ts_xstrdup(buf);
}

/*
 * Read the input once and fill the attributes it does not state:
 * order, dimensions, nnz, index base, sortedness, duplicates, zeros,
 * value domain, symmetry.  Keeps the coordinates, so memory grows with
 * nnz: only imports pay for it.
 */
static int
infer(struct job *j, bool light)
{
	struct ts_meta *m = &j->m;
	struct ts_layout lay = j->in;
	struct ts_inferred inf;
	struct stats s;
	struct ts_batch b;
	struct input in;
	const struct ts_header *h = NULL;
	struct ts_header hc;
	int order, k, base;
	long r;

	memset(&s, 0, sizeof(s));
	s.fwd = s.rev = true;
	if (j->from == TS_PK_FROSTT)
		lay.base = 0;	/* read raw; the base is found below */
	if (input_open(j, &in, &lay) != 0)
		return -1;
	if (in.mx) {
		const struct ts_mtx_info *mi = ts_mtx_info(in.mx);

		order = 2;
		m->dims[0] = mi->rows;
		m->dims[1] = mi->cols;
		m->values_provided = mi->field != TS_MTX_PATTERN;
		m->value_type = mi->field == TS_MTX_INTEGER ? TS_INT64 :
		    TS_FLOAT64;
		base = 1;
	} else {
		h = ts_reader_header(in.rd);
		order = h->order;
		m->values_provided = ts_reader_layout(in.rd)->values > 0;
		m->value_type = lay.vtype;
		base = lay.base;
	}
	s.t.order = order;
	s.light = light;
	ts_batch_init(&b, order, BATCH);
	/* A TensorSuite header says all a file output needs; one batch
	 * tells whether the rows hold values. */
	while ((r = input_next(j, &in, &b, "scanning")) > 0) {
		stats_batch(&s, &b);
		if (light && h != NULL && j->from != TS_PK_FROSTT)
			break;
	}
	if (h != NULL && h->name != NULL && m->name == NULL)
		m->name = ts_xstrdup(h->name);
	if (in.rd && !m->values_provided)
		m->values_provided = ts_reader_layout(in.rd)->values > 0;
	if (h != NULL) {
		/* The reader and its header go; keep the numbers. */
		hc = *h;
		hc.version = hc.name = NULL;
		memset(hc.extents, 0, sizeof(hc.extents));
		h = &hc;
	}
	ts_batch_free(&b);
	input_close(&in);
	if (r < 0 || ts_diags_errors(&j->d) > 0) {
		flush_diags(j);
		free(s.t.tup);
		free(s.t.fv);
		free(s.t.iv);
		return -1;
	}
	m->order = order;
	m->nnz = s.n;
	if (j->from == TS_PK_FROSTT) {
		bool zero = false;

		for (k = 0; k < order; k++)
			zero |= s.n > 0 && s.min[k] == 0;
		base = j->o->in_base >= 0 ? j->o->in_base : zero ? 0 : 1;
		if (zero && j->o->in_base < 0)
			note(j, "'%s': a coordinate is 0, so the file is read "
			    "as 0-based (--input-base to change)", j->sname);
		for (k = 0; k < order; k++) {
			if (s.n > 0 && s.min[k] < (uint64_t)base) {
				ts_warnx("'%s': coordinate 0 in mode %d of a "
				    "1-based file", j->sname, k + 1);
				j->status = TS_EXIT_DATA;
				goto fail;
			}
			m->dims[k] = s.n ? s.max[k] + 1 - (uint64_t)base : 1;
		}
		for (size_t i = 0; i < s.t.n * (size_t)order; i++)
			s.t.tup[i] -= (uint64_t)base;
		if (j->o->ndims > 0) {
			if (j->o->ndims != order) {
				ts_warnx("--dims gives %d dimensions; the "
				    "tensor has order %d", j->o->ndims, order);
				j->status = TS_EXIT_USAGE;
				goto fail;
			}
			for (k = 0; k < order; k++) {
				if (j->o->dims[k] < m->dims[k]) {
					ts_warnx("--dims: mode %d has a "
					    "coordinate beyond %llu", k + 1,
					    (unsigned long long)j->o->dims[k]);
					j->status = TS_EXIT_DATA;
					goto fail;
				}
				m->dims[k] = j->o->dims[k];
			}
		}
	} else if (h != NULL) {
		memcpy(m->dims, h->dims, (size_t)order * sizeof(*h->dims));
		if (light)
			m->nnz = s.n = h->nnz;
		if (h->nnz != s.n) {
			ts_warnx("'%s': the size line says %llu entries; the "
			    "file holds %llu", j->sname,
			    (unsigned long long)h->nnz,
			    (unsigned long long)s.n);
			j->status = TS_EXIT_DATA;
			goto fail;
		}
	}
	j->in.base = base;
	j->in.vtype = m->value_type;	/* mtx integer files give int64 */
	m->index_base = base;
	/* uint64 as the reference writes, unless --index-type narrows it:
	 * a bare binary file does not say which it holds.  A binary input
	 * described by flags keeps its layout. */
	m->index_type = j->from == TS_PK_TNSB ? j->in.itype : TS_UINT64;
	m->endianness = j->from == TS_PK_TNSB ? j->in.endian : TS_END_NONE;
	memset(&inf, 0, sizeof(inf));
	inf.dups = true;	/* nothing is claimed without looking */
	if (!light)
		ts_infer_tuples(&s.t, m->dims, &inf);
	m->sorted = !light && (s.fwd || s.rev);
	m->nsort = m->sorted ? order : 0;
	for (k = 0; k < m->nsort; k++)
		m->sort_order[k] = s.fwd ? k : order - 1 - k;
	m->dups_allowed = inf.dups;
	m->zeros_allowed = s.zero;
	m->value_domain = !m->values_provided ? TS_DOM_GENERAL : !s.nonbin ?
	    TS_DOM_BINARY : !s.neg ? TS_DOM_NONNEGATIVE : TS_DOM_GENERAL;
	m->psym = inf.psym;
	m->nsym = m->values_provided ? inf.nsym : TS_SYM_NO;
	m->sparsity = TS_SP_ELEMENT;
	m->ndense = 0;
	if (m->source_type == NULL)
		m->source_type = ts_xstrdup("real");
	free(s.t.tup);
	free(s.t.fv);
	free(s.t.iv);
	return 0;
fail:
	free(s.t.tup);
	free(s.t.fv);
	free(s.t.iv);
	return -1;
}

/* ---- type changes: refuse what does not fit, never change it ---- */

static int
bad_value(struct job *j, const struct ts_batch *b, size_t i, const char *what)
{
	const char *f = j->path;

	if (j->in.kind == TS_BINARY)
		ts_warnx("%s:+%llu: %s", f, (unsigned long long)b->loc[i],
		    what);
	else
		ts_warnx("%s:%llu: %s", f, (unsigned long long)b->loc[i],
		    what);
	j->status = TS_EXIT_DATA;
	return -1;
}

/* S1: a conversion must not carry a coordinate outside the tensor. */
static int
check_bounds(struct job *j, const struct ts_batch *b, const uint64_t *lim)
{
	char msg[160];
	size_t i;
	int k;

	for (i = 0; i < b->n; i++)
		for (k = 0; k < b->order; k++)
			if (b->coords[i * (size_t)b->order + k] >= lim[k]) {
				uint64_t base = (uint64_t)j->in.base;

				snprintf(msg, sizeof(msg), "coordinate %llu of "
				    "mode %d is outside %llu..%llu [S1]",
				    (unsigned long long)(b->coords[i *
				    (size_t)b->order + k] + base), k + 1,
				    (unsigned long long)base,
				    (unsigned long long)(lim[k] - 1 + base));
				return bad_value(j, b, i, msg);
			}
	return 0;
}

static int
convert_values(struct job *j, struct ts_batch *b, enum ts_vtype from,
    enum ts_vtype to)
{
	bool fint = from == TS_INT32 || from == TS_INT64;
	bool tint = to == TS_INT32 || to == TS_INT64;
	char msg[160], nb[TS_NUMBUF];
	size_t i;

	if (!b->has_values || from == to)
		return 0;
	b->keep_text = false;
	for (i = 0; i < b->n; i++) {
		if (fint && tint) {
			int64_t v = b->ival[i];

			if (to == TS_INT32 && (v < INT32_MIN || v > INT32_MAX)) {
				snprintf(msg, sizeof(msg), "value %lld does "
				    "not fit int32", (long long)v);
				return bad_value(j, b, i, msg);
			}
		} else if (fint) {
			int64_t v = b->ival[i];
			double d = to == TS_FLOAT32 ? (double)(float)v :
			    (double)v;

			/* Exact when it converts back; 2^63 itself does not
			 * fit int64, so compare in double first. */
			if (d >= 9223372036854775808.0 || (int64_t)d != v) {
				snprintf(msg, sizeof(msg), "value %lld is not "
				    "exact in %s", (long long)v,
				    ts_vtype_name(to));
				return bad_value(j, b, i, msg);
			}
			b->fval[i] = d;
		} else if (tint) {
			double v = b->fval[i];
			double lo = to == TS_INT32 ? -2147483648.0 :
			    -9223372036854775808.0;

			if (!(v == floor(v) && v >= lo && v < -lo)) {
				ts_fmt_double(nb, v);
				snprintf(msg, sizeof(msg), "value %s is not an "
				    "integer of %s", nb, ts_vtype_name(to));
				return bad_value(j, b, i, msg);
			}
			b->ival[i] = (int64_t)v;
		} else if (to == TS_FLOAT32) {
			double v = b->fval[i];

			if (isfinite(v) && isinf((float)v)) {
				ts_fmt_double(nb, v);
				snprintf(msg, sizeof(msg), "value %s overflows "
				    "float32", nb);
				return bad_value(j, b, i, msg);
			}
			if (v != 0 && (float)v == 0) {
				ts_fmt_double(nb, v);
				snprintf(msg, sizeof(msg), "value %s underflows "
				    "float32 to 0", nb);
				return bad_value(j, b, i, msg);
			}
			b->fval[i] = (float)v;
		}
	}
	b->is_int = tint;
	return 0;
}

/* ---- outputs ---- */

struct output {
	enum ts_pkind		 kind;
	struct ts_layout	 lay;
	struct ts_sink		 sink;
	bool			 sink_open;
	int			 fd;
	struct ts_writer	*w;
	struct ts_mtx_writer	*mw;
};

static enum ts_pkind
kind_of_dst(const char *dst)
{
	if (strcmp(dst, "-") == 0)
		return TS_PK_TNS;
	if (has_suffix(dst, ".tnsb"))
		return TS_PK_TNSB;
	if (has_suffix(dst, ".tns"))
		return TS_PK_TNS;
	if (has_suffix(dst, ".mtx"))
		return TS_PK_MTX;
	if (has_suffix(dst, ".json"))
		return TS_PK_CUTENSOR;
	return TS_PK_BUNDLE;
}

static int
output_start(struct job *j, struct output *out, int fd,
    const struct ts_header *h)
{
	const struct ts_meta *m = j->mp;

	out->fd = fd;
	if (out->kind == TS_PK_MTX) {
		enum ts_mtx_field f = !m->values_provided ? TS_MTX_PATTERN :
		    (m->value_type == TS_INT32 || m->value_type == TS_INT64) ?
		    TS_MTX_INTEGER : TS_MTX_REAL;
		char *c = ts_xasprintf(" written by %s %s from %s",
		    ts_progname, TS_VERSION, j->sname);

		out->mw = ts_mtx_writer_open(fd, m->dims[0], m->dims[1],
		    m->nnz, f, c);
		free(c);
		return out->mw ? 0 : -1;
	}
	out->w = ts_writer_open(fd, m->name, h, &out->lay,
	    j->o->e16 ? TS_FMT_E16 : TS_FMT_SHORTEST);
	return 0;
}

static int
output_put(struct output *out, const struct ts_batch *b)
{
	return out->mw ? ts_mtx_writer_put(out->mw, b) :
	    ts_writer_put(out->w, b);
}

static int
output_end(struct output *out)
{
	int rv = 0;

	if (out->mw)
		rv = ts_mtx_writer_close(out->mw);
	else if (out->w)
		rv = ts_writer_close(out->w);
	out->mw = NULL;
	out->w = NULL;
	return rv;
}

static char *
command_line(const struct ts_pipe_opts *o)
{
	size_t n = 1;
	char *s, *p;
	int i;

	for (i = 0; i < o->argc; i++)
		n += strlen(o->argv[i]) + 3;
	s = p = ts_xmalloc(n);
	for (i = 0; i < o->argc; i++) {
		bool q = strpbrk(o->argv[i], " \t'\"$\\") != NULL;

		p += sprintf(p, "%s%s%s%s", i ? " " : "", q ? "'" : "",
		    o->argv[i], q ? "'" : "");
	}
	return s;
}

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t n = strlen(text), off = 0;

	if (fd == -1)
		return -1;
	while (off < n) {
		ssize_t r = write(fd, text + off, n - off);

		if (r < 0) {
			close(fd);
			return -1;
		}
		off += (size_t)r;
	}
	return close(fd);
}

static char *
readme_text(struct job *j)
{
	const struct ts_meta *m = j->mp;
	char *cmd = command_line(j->o), *old = NULL, *s;
	char *date = today();

	if (j->have_bundle && m->f_readme != NULL) {
		char *p = ts_xasprintf("%s/%s", j->bd.dir, m->f_readme);
		FILE *fp = fopen(p, "r");

		if (fp != NULL) {
			size_t cap = 1 << 16, n;

			old = ts_xmalloc(cap + 1);
			n = fread(old, 1, cap, fp);
			old[n] = '\0';
			fclose(fp);
		}
		free(p);
	}
	s = ts_xasprintf("# %s\n\nWritten by %s %s on %s from `%s` "
	    "(%s).\n\nCommand:\n\n    %s\n%s%s", m->name, ts_progname,
	    TS_VERSION, date,
	    j->sname, kindnames[j->src_kind], cmd, old && *old ?
	    "\n## README of the source bundle\n\n" : "", old ? old : "");
	free(cmd);
	free(old);
	free(date);
	return s;
}

static void
setstr(char **dst, const char *v)
{
	if (v == NULL)
		return;
	free(*dst);
	*dst = ts_xstrdup(v);
}

/* Apply the descriptive flags and the defaults of a new bundle. */
static void
describe(struct job *j, const char *name)
{
	const struct ts_pipe_opts *o = j->o;
	struct ts_meta *m = j->mp;
	char *t;

	setstr(&m->version, TS_FORMAT);
	setstr(&m->name, name);
	if (m->group == NULL)
		m->group = ts_xstrdup("");
	if (m->id == NULL)
		m->id = ts_xstrdup("0000");
	if (m->time == NULL) {
		t = today();
		setstr(&m->time, t);
		free(t);
	}
	if (m->source_type == NULL)
		m->source_type = ts_xstrdup("real");
	if (m->source == NULL)
		m->source = ts_xstrdup(basename_of(o->src));
	if (m->source_url == NULL)
		m->source_url = ts_xstrdup("");
	setstr(&m->group, o->group);
	setstr(&m->id, o->id);
	setstr(&m->time, o->time);
	setstr(&m->source, o->source);
	setstr(&m->source_url, o->source_url);
	setstr(&m->source_type, o->source_type);
}

/* The output attributes, with the flags' changes, checked. */
static int
change_attributes(struct job *j, bool text, bool binary)
{
	const struct ts_pipe_opts *o = j->o;
	struct ts_meta *m = j->mp;
	int k;

	if (o->out_base >= 0)
		m->index_base = o->out_base;
	if (o->out_itype >= 0)
		m->index_type = (enum ts_itype)o->out_itype;
	if (o->out_vtype >= 0 && m->values_provided)
		m->value_type = (enum ts_vtype)o->out_vtype;
	if (binary)
		m->endianness = o->out_endian >= 0 ?
		    (enum ts_endian)o->out_endian :
		    m->endianness != TS_END_NONE ? m->endianness :
		    TS_END_LITTLE;
	else
		m->endianness = TS_END_NONE;
	free(m->f_text);
	free(m->f_binary);
	free(m->f_readme);
	m->f_text = text ? ts_xasprintf("%s.tns", m->name) : NULL;
	m->f_binary = binary ? ts_xasprintf("%s.tnsb", m->name) : NULL;
	m->f_readme = ts_xstrdup("README.md");
	for (k = 0; k < m->order; k++)
		if (m->index_type == TS_UINT32 && m->dims[k] - 1 +
		    (uint64_t)m->index_base > UINT32_MAX) {
			ts_warnx("--index-type uint32 cannot hold the "
			    "coordinates of mode %d (dimension %llu)", k + 1,
			    (unsigned long long)m->dims[k]);
			j->status = TS_EXIT_DATA;
			return -1;
		}
	return 0;
}

/* Check the metadata we are about to write with our own checker. */
static int
meta_selfcheck(struct job *j, char **text)
{
	struct ts_meta chk;

	*text = ts_meta_canonical(j->mp);
	ts_meta_init(&chk);
	ts_meta_parse(&chk, *text, strlen(*text), "metadata", &j->d);
	ts_meta_free(&chk);
	if (ts_diags_errors(&j->d) > 0) {
		ts_warnx("the output metadata would be invalid:");
		flush_diags(j);
		j->status = TS_EXIT_USAGE;
		free(*text);
		*text = NULL;
		return -1;
	}
	ts_diags_free(&j->d);
	ts_diags_init(&j->d, 20, false);
	return 0;
}

static int
sink_fail(struct job *j, const char *what)
{
	ts_warn("%s", what);
	j->status = TS_EXIT_IO;
	return -1;
}

/* The second pass: decode, change, encode to every output. */
/* Open every output and write its header. */
static int
outputs_open(struct job *j, struct output *outs, int nout,
    const char *const *paths, bool inbundle, const struct ts_header *oh)
{
	int i;

	for (i = 0; i < nout; i++) {
		int fd;

		if (inbundle) {
			fd = open(paths[i], O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd == -1)
				return sink_fail(j, paths[i]);
		} else {
			if (ts_sink_open(&outs[i].sink, paths[i],
			    j->o->force) != 0) {
				if (errno == EEXIST)
					ts_warnx("'%s' exists (-f replaces "
					    "it)", paths[i]);
				else
					ts_warn("%s", paths[i]);
				j->status = errno == EEXIST ? TS_EXIT_USAGE :
				    TS_EXIT_IO;
				return -1;
			}
			outs[i].sink_open = true;
			fd = outs[i].sink.fd;
		}
		if (output_start(j, &outs[i], fd, oh) != 0)
			return sink_fail(j, paths[i]);
	}
	return 0;
}

static int
outputs_put(struct job *j, struct output *outs, int nout,
    const char *const *paths, const struct ts_batch *b)
{
	int i;

	for (i = 0; i < nout; i++)
		if (output_put(&outs[i], b) != 0)
			return sink_fail(j, outs[i].sink_open ?
			    outs[i].sink.name : paths[i]);
	return 0;
}

/*
 * A sum of duplicates may make a zero or leave the binary domain: the
 * metadata, written after the entries, must say what is there.
 */
static void
note_values(struct job *j, const struct ts_batch *b)
{
	struct ts_meta *m = j->mp;
	size_t i;

	if (!b->has_values)
		return;
	for (i = 0; i < b->n; i++) {
		double v = b->is_int ? (double)b->ival[i] : b->fval[i];

		if (v == 0 && !m->zeros_allowed)
			m->zeros_allowed = true;
		if (m->value_domain == TS_DOM_BINARY && v != 0 && v != 1)
			m->value_domain = TS_DOM_GENERAL;
	}
}

/* The sort stage: everything into the sorter, then the metadata. */
static void
sort_fail(struct job *j)
{
	const char *t = j->o->tmpdir ? j->o->tmpdir : getenv("TMPDIR");

	ts_warn("sorting (temporary directory '%s')", t && *t ? t : "/tmp");
	j->status = TS_EXIT_IO;
}

/*
 * How many entries the file may hold, going by the first batch: at most
 * a quarter more than its size over the bytes a row took so far, and
 * never more than the header said (n).
 */
static uint64_t
plausible(const struct input *in, uint64_t n)
{
	uint64_t rows = ts_reader_rows(in->rd), off = ts_reader_offset(in->rd);
	uint64_t est;

	if (rows == 0 || off == 0 || !in->src.is_regular)
		return n;
	est = (uint64_t)((double)in->src.size / ((double)off /
	    (double)rows) * 1.25) + BATCH;
	return est < n ? est : n;
}

static int
sort_all(struct job *j, struct input *in, struct ts_sorter **sp,
    bool keep, bool texts_only, uint64_t *rows, const uint64_t *lim)
{
	struct ts_meta *m = j->mp;
	struct ts_sort_opts so;
	struct ts_sorter *s;
	struct ts_batch b;
	char tb[256];
	size_t n = 0;
	long r;
	int k, rv;

	memset(&so, 0, sizeof(so));
	so.order = m->order;
	if (j->o->nprio > 0) {
		memcpy(so.prio, j->o->prio, sizeof(so.prio));
	} else if (j->meta_known && m->sorted && m->nsort == m->order) {
		memcpy(so.prio, m->sort_order, sizeof(so.prio));
	} else
		for (k = 0; k < m->order; k++)
			so.prio[k] = k;
	if (j->o->nprio > 0 && j->o->nprio != m->order) {
		ts_warnx("-k names %d modes; the tensor has order %d",
		    j->o->nprio, m->order);
		j->status = TS_EXIT_USAGE;
		return -1;
	}
	for (k = 0; k < m->order; k++)
		if (so.prio[k] >= m->order) {
			ts_warnx("-k: the tensor has no mode %d", so.prio[k] + 1);
			j->status = TS_EXIT_USAGE;
			return -1;
		}
	so.has_values = m->values_provided && m->sparsity != TS_SP_BLOCK;
	so.is_int = m->value_type == TS_INT32 || m->value_type == TS_INT64;
	so.is_float32 = m->value_type == TS_FLOAT32;
	so.keep_text = keep;
	so.texts_only = texts_only && so.dups != TS_DUP_SUM;
	so.mem_limit = j->o->mem_limit;
	so.tmpdir = j->o->tmpdir;
	/* The header's count, if the input can hold that many entries (a
	 * row takes two bytes a coordinate at least); after the first
	 * batch, no more than its rows' length says the file holds. */
	so.expect = m->sparsity == TS_SP_BLOCK ? m->nnz_block : m->nnz;
	if (!in->src.is_regular)
		so.expect = 0;
	else if (so.expect > in->src.size / (2 * (uint64_t)m->order))
		so.expect = in->src.size / (2 * (uint64_t)m->order);
	so.threads = j->o->threads;
	so.dups = j->o->dups;
	if (m->sparsity == TS_SP_BLOCK && so.dups != TS_DUP_KEEP &&
	    so.dups != TS_DUP_ERROR) {
		ts_warnx("a block tensor's entries are blocks without values: "
		    "use --duplicates keep or error");
		j->status = TS_EXIT_USAGE;
		return -1;
	}
	if ((*sp = s = ts_sorter_new(&so)) == NULL) {
		ts_warn("sorting");
		j->status = TS_EXIT_USAGE;
		return -1;
	}
	ts_batch_init(&b, m->order, BATCH);
	while ((r = input_next(j, in, &b, "reading")) > 0) {
		if (ts_diags_errors(&j->d) > 0)
			break;
		b.keep_text = keep;
		if (check_bounds(j, &b, lim) != 0 ||
		    convert_values(j, &b, j->in.vtype, m->value_type) != 0)
			break;
		if (*rows == 0 && in->rd != NULL)
			ts_sorter_expect(s, plausible(in, so.expect));
		*rows += b.n;
		if (ts_sorter_add(s, &b) != 0) {
			r = -1;
			sort_fail(j);
			break;
		}
		n++;
	}
	ts_batch_free(&b);
	if (r < 0 || ts_diags_errors(&j->d) > 0 || j->status != 0)
		return -1;
	ts_progress(0, 0, false, "sorting %s", j->sname);
	rv = ts_sorter_finish(s);
	if (rv == -2) {
		const uint64_t *t = ts_sorter_dup(s);
		size_t l = 0;

		for (k = 0; k < m->order && l + 24 < sizeof(tb); k++)
			l += (size_t)snprintf(tb + l, sizeof(tb) - l, "%s%llu",
			    k ? ", " : "", (unsigned long long)(t[k] +
			    (uint64_t)m->index_base));
		ts_warnx("'%s': entry (%s) repeats (--duplicates error)",
		    j->sname, tb);
		j->status = TS_EXIT_DATA;
		return -1;
	}
	if (rv != 0 && errno == ERANGE) {
		ts_warnx("'%s': a sum of repeated entries overflows %s",
		    j->sname, ts_vtype_name(m->value_type));
		j->status = TS_EXIT_DATA;
		return -1;
	}
	if (rv != 0) {
		sort_fail(j);
		return -1;
	}
	m->sorted = true;
	m->nsort = m->order;
	memcpy(m->sort_order, so.prio, sizeof(m->sort_order));
	if (so.dups != TS_DUP_KEEP) {
		m->dups_allowed = false;
		if (m->sparsity == TS_SP_BLOCK)
			m->nnz_block = ts_sorter_count(s);
		else
			m->nnz = ts_sorter_count(s);
	}
	return 0;
}

/* The second pass: decode, change, (sort,) encode to every output. */
static int
pump(struct job *j, struct output *outs, int nout, const char *const *paths,
    struct ts_bundle_out *bo)
{
	struct ts_meta *m = j->mp;
	struct ts_sorter *sorter = NULL;
	struct ts_header oh;
	struct ts_batch b;
	struct input in;
	uint64_t rows = 0, want, lim[TS_MAXORDER];
	bool keep, block = false;
	long r = 0;
	int i, rv = -1;

	memset(&b, 0, sizeof(b));
	if (input_open(j, &in, &j->in) != 0)
		return -1;
	memset(&oh, 0, sizeof(oh));
	if (in.rd != NULL && ts_reader_header(in.rd)->block) {
		const struct ts_header *h = ts_reader_header(in.rd);

		block = oh.block = true;
		memcpy(oh.parts, h->parts, sizeof(oh.parts));
		memcpy(oh.extents, h->extents, sizeof(oh.extents));
	}
	keep = (j->in.kind == TS_TEXT || j->in.kind == TS_FROSTT ||
	    in.mx != NULL) &&
	    !j->o->e16 && (j->o->out_vtype < 0 ||
	    j->o->out_vtype == (int)j->in.vtype);
	want = block ? m->nnz_block : m->nnz;
	memcpy(lim, block ? oh.parts : m->dims, sizeof(lim));
	if (j->o->sort) {
		/* Text outputs alone need no values when texts are kept. */
		bool texts_only = true;

		for (i = 0; i < nout; i++)
			if (outs[i].kind != TS_PK_TNS &&
			    outs[i].kind != TS_PK_FROSTT)
				texts_only = false;
		if (sort_all(j, &in, &sorter, keep, texts_only, &rows,
		    lim) != 0)
			goto fail;
		if (rows != want)
			goto count;
	}
	oh.order = m->order;
	memcpy(oh.dims, m->dims, sizeof(oh.dims));
	oh.nnz = m->nnz;
	oh.nnz_block = m->nnz_block;
	if (outputs_open(j, outs, nout, paths, bo != NULL, &oh) != 0)
		goto out;
	ts_batch_init(&b, m->order, BATCH);
	if (sorter != NULL) {
		uint64_t done = 0, total = ts_sorter_count(sorter);
		const char *dst = bo != NULL ? j->dstdir :
		    strcmp(paths[0], "-") == 0 ? "<stdout>" : paths[0];

		while (ts_progress(done, total, false, "writing %s", dst),
		    (r = ts_sorter_next(sorter, &b)) > 0) {
			done += (uint64_t)r;
			/* A float32 sum is rounded to float32, and its text
			 * must say so: format rather than copy. */
			if (j->o->dups == TS_DUP_SUM && b.has_values &&
			    m->value_type == TS_FLOAT32) {
				b.keep_text = false;
				for (size_t e = 0; e < b.n; e++)
					b.fval[e] = (float)b.fval[e];
			}
			if (j->o->dups == TS_DUP_SUM && b.has_values &&
			    m->value_type == TS_INT32)
				for (size_t e = 0; e < b.n; e++)
					if (b.ival[e] < INT32_MIN ||
					    b.ival[e] > INT32_MAX) {
						ts_warnx("'%s': a sum of repeated "
						    "entries overflows int32",
						    j->sname);
						j->status = TS_EXIT_DATA;
						goto out;
					}
			if (j->o->dups == TS_DUP_SUM)
				note_values(j, &b);
			if (outputs_put(j, outs, nout, paths, &b) != 0)
				goto out;
		}
		if (r < 0) {
			sort_fail(j);
			goto out;
		}
	} else {
		while ((r = input_next(j, &in, &b, "converting")) > 0) {
			if (ts_diags_errors(&j->d) > 0)
				break;
			b.keep_text = keep;
			if (check_bounds(j, &b, lim) != 0 ||
			    convert_values(j, &b, j->in.vtype,
			    m->value_type) != 0)
				break;
			rows += b.n;
			if (outputs_put(j, outs, nout, paths, &b) != 0)
				goto out;
		}
	}
fail:
	if (ts_diags_errors(&j->d) > 0 || r < 0) {
		if (j->status == 0)
			flush_diags(j);
		else
			ts_diags_print(&j->d, stderr);
		if (j->status == 0)
			j->status = TS_EXIT_DATA;
		goto out;
	}
	if (j->status != 0)
		goto out;
count:
	if (rows != want) {
		ts_warnx("'%s': %llu entries read; its header says %llu",
		    j->sname, (unsigned long long)rows,
		    (unsigned long long)want);
		j->status = TS_EXIT_DATA;
		goto out;
	}
	for (i = 0; i < nout; i++) {
		if (output_end(&outs[i]) != 0) {
			sink_fail(j, paths[i]);
			goto out;
		}
		if (bo != NULL && close(outs[i].fd) != 0) {
			sink_fail(j, paths[i]);
			goto out;
		}
		if (outs[i].sink_open && ts_sink_commit(&outs[i].sink) != 0) {
			sink_fail(j, paths[i]);
			goto out;
		}
	}
	rv = 0;
out:
	if (b.coords != NULL)
		ts_batch_free(&b);
	for (i = 0; i < nout; i++) {
		output_end(&outs[i]);
		if (outs[i].sink_open) {
			ts_sink_abort(&outs[i].sink);
			ts_sink_free(&outs[i].sink);
		}
	}
	if (sorter != NULL)
		ts_sorter_free(sorter);
	input_close(&in);
	return rv;
}

static int
copy_file(const char *from, const char *to)
{
	char *buf = ts_xmalloc(1 << 16);
	int in = open(from, O_RDONLY), out = -1, rv = -1;
	ssize_t n;

	if (in == -1 || (out = open(to, O_WRONLY | O_CREAT | O_EXCL,
	    0644)) == -1)
		goto done;
	while ((n = read(in, buf, 1 << 16)) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto done;
	rv = n == 0 ? 0 : -1;
done:
	if (in != -1)
		close(in);
	if (out != -1 && close(out) != 0)
		rv = -1;
	free(buf);
	return rv;
}

/*
 * The other files of a source bundle (its config, notes, ...) come
 * along: a bundle rewritten in place must lose nothing.
 */
static int
copy_aux(struct job *j, struct ts_bundle_out *bo)
{
	const struct ts_bundle *bd = &j->bd;
	const char *skip[4];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int k, rv = 0;

	if (!j->have_bundle)
		return 0;
	skip[0] = basename_of(bd->meta_path);
	skip[1] = bd->text_path ? basename_of(bd->text_path) : "";
	skip[2] = bd->binary_path ? basename_of(bd->binary_path) : "";
	skip[3] = bd->meta.f_readme ? bd->meta.f_readme : "README.md";
	if ((d = opendir(bd->dir)) == NULL)
		return sink_fail(j, bd->dir);
	while (rv == 0 && (e = readdir(d)) != NULL) {
		char *from, *to;

		for (k = 0; k < 4; k++)
			if (strcmp(e->d_name, skip[k]) == 0)
				break;
		if (k < 4 || e->d_name[0] == '.')
			continue;
		from = ts_xasprintf("%s/%s", bd->dir, e->d_name);
		to = ts_bundle_out_path(bo, e->d_name);
		if (stat(from, &st) == 0 && S_ISREG(st.st_mode) &&
		    copy_file(from, to) != 0)
			rv = sink_fail(j, to);
		free(from);
		free(to);
	}
	closedir(d);
	return rv;
}

static bool
valid_bundle_name(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > TS_NAMEMAX)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];
		bool an = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z');

		if (!an && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return false;
	}
	return true;
}

static int
write_bundle(struct job *j, bool text, bool binary)
{
	struct ts_bundle_out bo;
	struct output outs[2];
	char *paths[2] = { NULL, NULL }, *mtext = NULL, *readme, *p;
	int n = 0, rv = -1, i;

	memset(outs, 0, sizeof(outs));
	if (change_attributes(j, text, binary) != 0 ||
	    meta_selfcheck(j, &mtext) != 0)
		return -1;
	if (ts_bundle_out_open(&bo, j->dstdir, j->o->force) != 0) {
		if (errno == EEXIST) {
			ts_warnx("'%s' exists (-f replaces it)", j->o->dst);
			j->status = TS_EXIT_USAGE;
		} else if (errno == ENOTEMPTY) {
			ts_warnx("'%s' exists and is not a bundle: -f replaces "
			    "only a bundle", j->o->dst);
			j->status = TS_EXIT_USAGE;
		} else
			sink_fail(j, j->o->dst);
		free(mtext);
		return -1;
	}
	if (text) {
		outs[n].kind = TS_PK_TNS;
		outs[n].lay = j->in;
		outs[n].lay.kind = TS_TEXT;
		paths[n++] = ts_bundle_out_path(&bo, j->mp->f_text);
	}
	if (binary) {
		outs[n].kind = TS_PK_TNSB;
		outs[n].lay = j->in;
		outs[n].lay.kind = TS_BINARY;
		paths[n++] = ts_bundle_out_path(&bo, j->mp->f_binary);
	}
	for (i = 0; i < n; i++) {
		outs[i].lay.base = j->mp->index_base;
		outs[i].lay.itype = j->mp->index_type;
		outs[i].lay.vtype = j->mp->value_type;
		outs[i].lay.endian = j->mp->endianness;
		outs[i].lay.values = j->mp->values_provided;
	}
	if (pump(j, outs, n, (const char *const *)paths, &bo) != 0)
		goto out;
	/* Sorting changed what the metadata says. */
	free(mtext);
	if (meta_selfcheck(j, &mtext) != 0 ||
	    (!j->o->inplace && copy_aux(j, &bo) != 0))
		goto out;
	readme = j->o->inplace ? NULL : readme_text(j);
	p = ts_bundle_out_path(&bo, "README.md");
	if (readme != NULL && write_file(p, readme) != 0) {
		sink_fail(j, p);
		free(p);
		free(readme);
		goto out;
	}
	free(p);
	free(readme);
	/* Metadata last: a reader that finds it finds the rest. */
	p = ts_xasprintf("%s/%s_metadata.json", bo.tmp, j->mp->name);
	if (write_file(p, mtext) != 0 || (j->o->inplace ?
	    ts_bundle_out_commit_files(&bo) : ts_bundle_out_commit(&bo)) != 0) {
		sink_fail(j, j->o->dst);
		free(p);
		goto out;
	}
	free(p);
	rv = 0;
out:
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(mtext);
	ts_bundle_out_free(&bo);
	return rv;
}

static int
write_single(struct job *j)
{
	struct ts_meta *m = j->mp;
	struct output out;
	const char *path = j->o->dst;

	memset(&out, 0, sizeof(out));
	out.kind = j->to;
	if (j->to == TS_PK_MTX && m->order != 2) {
		ts_warnx("Matrix Market holds matrices; '%s' has order %d",
		    j->sname, m->order);
		return j->status = TS_EXIT_DATA, -1;
	}
	if ((j->to == TS_PK_MTX || j->to == TS_PK_FROSTT) &&
	    m->sparsity == TS_SP_BLOCK) {
		ts_warnx("'%s' is block-sparse: its entries are blocks, which "
		    "%s cannot hold", j->sname, kindnames[j->to]);
		return j->status = TS_EXIT_DATA, -1;
	}
	if (change_attributes(j, j->to != TS_PK_TNSB, j->to == TS_PK_TNSB) != 0)
		return -1;
	out.lay = j->in;
	out.lay.kind = j->to == TS_PK_TNSB ? TS_BINARY : j->to == TS_PK_FROSTT ?
	    TS_FROSTT : TS_TEXT;
	out.lay.base = j->to == TS_PK_FROSTT && j->o->out_base < 0 ? 1 :
	    m->index_base;
	out.lay.itype = m->index_type;
	out.lay.vtype = m->value_type;
	out.lay.endian = m->endianness;
	out.lay.values = m->values_provided;
	return pump(j, &out, 1, &path, NULL);
}

/* --to cutensor: the block coordinates, then the descriptor arrays. */
static int
write_cutensor(struct job *j)
{
	struct ts_cutensor ct;
	struct ts_batch b;
	struct ts_sink k;
	struct input in;
	uint64_t *all = NULL, n = 0, cap = 0;
	char err[200];
	FILE *fp;
	long r;
	int rv = -1, e;

	if (j->mp->sparsity != TS_SP_BLOCK) {
		ts_warnx("'%s' is not block-sparse: cuTENSOR's block-sparse "
		    "descriptor holds blocks", j->sname);
		j->status = TS_EXIT_DATA;
		return -1;
	}
	if (input_open(j, &in, &j->in) != 0)
		return -1;
	ts_batch_init(&b, j->mp->order, BATCH);
	while ((r = input_next(j, &in, &b, "reading")) > 0) {
		const uint64_t *h = ts_reader_header(in.rd)->parts;

		if (ts_diags_errors(&j->d) > 0 || check_bounds(j, &b, h) != 0)
			break;
		if (n + b.n > cap) {
			cap = 2 * (n + b.n);
			all = ts_xreallocarray(all, (size_t)cap,
			    (size_t)j->mp->order * sizeof(*all));
		}
		memcpy(all + n * (uint64_t)j->mp->order, b.coords, b.n *
		    (size_t)j->mp->order * sizeof(*all));
		n += b.n;
	}
	ts_batch_free(&b);
	if (r < 0 || ts_diags_errors(&j->d) > 0 || j->status != 0) {
		if (j->status == 0)
			flush_diags(j);
		goto out;
	}
	if (ts_cutensor_fill(&ct, ts_reader_header(in.rd), all, n, err,
	    sizeof(err)) != 0) {
		ts_warnx("'%s': %s", j->sname, err);
		j->status = TS_EXIT_DATA;
		goto out;
	}
	if (ts_sink_open(&k, j->o->dst, j->o->force) != 0) {
		e = errno;
		if (e == EEXIST)
			ts_warnx("'%s' exists (-f replaces it)", j->o->dst);
		else
			ts_warn("%s", j->o->dst);
		j->status = e == EEXIST ? TS_EXIT_USAGE : TS_EXIT_IO;
		ts_cutensor_free(&ct);
		goto out;
	}
	if ((fp = fdopen(dup(k.fd), "w")) == NULL ||
	    ts_cutensor_write_json(&ct, fp) != 0 || fclose(fp) != 0 ||
	    ts_sink_commit(&k) != 0) {
		sink_fail(j, k.name);
		ts_sink_abort(&k);
	} else
		rv = 0;
	ts_sink_free(&k);
	ts_cutensor_free(&ct);
out:
	free(all);
	input_close(&in);
	return rv;
}

int
ts_pipe_run(const struct ts_pipe_opts *o)
{
	struct job j;
	struct stat st;
	const char *name;
	char *dname = NULL;
	bool text, binary;

	memset(&j, 0, sizeof(j));
	j.o = o;
	j.spool_fd = -1;
	j.sname = strcmp(o->src, "-") == 0 ? "<stdin>" : o->src;
	ts_diags_init(&j.d, 20, false);
	ts_meta_init(&j.m);
	j.mp = &j.m;
	j.from = o->from;
	j.path = ts_xstrdup(o->src);
	if (j.from == TS_PK_AUTO && strcmp(o->src, "-") != 0 &&
	    ((stat(o->src, &st) == 0 && S_ISDIR(st.st_mode)) ||
	    has_suffix(o->src, "_metadata.json")))
		j.from = TS_PK_BUNDLE;
	if (j.from == TS_PK_BUNDLE) {
		if (ts_bundle_open(&j.bd, o->src, &j.d) != 0 ||
		    ts_diags_errors(&j.d) > 0) {
			flush_diags(&j);
			goto done;
		}
		j.have_bundle = true;
		j.mp = &j.bd.meta;
		j.meta_known = true;
		free(j.path);
		j.path = ts_xstrdup(j.bd.text_path ? j.bd.text_path :
		    j.bd.binary_path);
		j.from = j.bd.text_path ? TS_PK_TNS : TS_PK_TNSB;
		j.in.kind = j.bd.text_path ? TS_TEXT : TS_BINARY;
		layout_from_meta(&j);
	} else {
		if (j.from == TS_PK_AUTO) {
			struct ts_source src;

			if (ts_source_open(&src, o->src) != 0) {
				ts_warn("%s", o->src);
				j.status = TS_EXIT_IO;
				goto done;
			}
			j.from = sniff(&src);
			/* stdin: what was peeked must not be lost */
			if (src.is_stdin || compressed(&src)) {
				bool z = compressed(&src);

				if (spool_from(&j, &src, z) != 0) {
					ts_source_close(&src);
					goto done;
				}
				if (z) {
					struct ts_source t;
					int fd = dup(j.spool_fd);

					lseek(fd, 0, SEEK_SET);
					ts_source_open_fd(&t, fd, j.sname);
					j.from = sniff(&t);
					ts_source_close(&t);
				}
			}
			ts_source_close(&src);
		} else if (strcmp(o->src, "-") == 0) {
			struct ts_source src;
			int r;

			ts_source_open(&src, "-");
			r = spool_from(&j, &src, compressed(&src));
			ts_source_close(&src);
			if (r != 0)
				goto done;
		}
		j.in.kind = j.from == TS_PK_TNSB ? TS_BINARY : j.from ==
		    TS_PK_FROSTT ? TS_FROSTT : TS_TEXT;
		if ((j.from == TS_PK_TNS || j.from == TS_PK_TNSB) &&
		    find_meta(&j) != 0)
			goto done;
		if (j.meta_known)
			layout_from_meta(&j);
		else if (layout_from_flags(&j) != 0) {
			j.status = TS_EXIT_USAGE;
			goto done;
		}
	}
	j.src_kind = j.have_bundle ? TS_PK_BUNDLE : j.from;
	j.to = o->to != TS_PK_AUTO ? o->to : kind_of_dst(o->dst);
	/* ts-sort to stdout: a filter keeps its input's kind. */
	if (o->sort && o->to == TS_PK_AUTO && strcmp(o->dst, "-") == 0)
		j.to = j.in.kind == TS_BINARY ? TS_PK_TNSB : TS_PK_TNS;
	if (!j.meta_known && infer(&j, j.to != TS_PK_BUNDLE) != 0)
		goto done;
	if (o->inplace && !j.have_bundle) {
		ts_warnx("'%s': -i rewrites a bundle; this is not one", o->src);
		j.status = TS_EXIT_USAGE;
		goto done;
	}
	if (j.to == TS_PK_BUNDLE) {
		size_t n;

		dname = ts_xstrdup(o->inplace ? j.bd.dir : o->dst);
		n = strlen(dname);
		while (n > 1 && dname[n - 1] == '/')
			dname[--n] = '\0';
		name = o->inplace ? j.bd.name : basename_of(dname);
		j.dstdir = dname;
		if (!valid_bundle_name(name) || (o->name != NULL &&
		    strcmp(o->name, name) != 0)) {
			ts_warnx("'%s': a bundle's name is its folder's name, "
			    "[A-Za-z0-9][A-Za-z0-9._-]*%s", name, o->name ?
			    "; --name must agree" : "");
			j.status = TS_EXIT_USAGE;
			goto done;
		}
		describe(&j, name);
		text = o->want_text;
		binary = o->want_binary;
		if (!text && !binary) {
			/* The kinds the source has; imports get both. */
			if (j.have_bundle) {
				text = j.bd.text_path != NULL;
				binary = j.bd.binary_path != NULL;
			} else {
				text = j.from != TS_PK_TNSB;
				binary = j.from != TS_PK_TNS;
			}
		}
		write_bundle(&j, text, binary);
	} else if (j.to == TS_PK_CUTENSOR) {
		write_cutensor(&j);
	} else {
		if (j.mp->name == NULL || o->name != NULL) {
			const char *b = basename_of(o->dst);
			size_t n = strlen(b);

			if (o->name != NULL)
				setstr(&j.mp->name, o->name);
			else if (strcmp(o->dst, "-") == 0)
				setstr(&j.mp->name, "tensor");
			else {
				/* The file's stem: only the known suffix
				 * goes, a name may hold dots. */
				if (has_suffix(b, ".tnsb"))
					n -= 5;
				else if (has_suffix(b, ".tns") ||
				    has_suffix(b, ".mtx"))
					n -= 4;
				free(j.mp->name);
				j.mp->name = ts_xasprintf("%.*s", (int)n, b);
			}
		}
		if (!valid_bundle_name(j.mp->name)) {
			ts_warnx("'%s' is not a valid tensor name "
			    "([A-Za-z0-9][A-Za-z0-9._-]*): give --name",
			    j.mp->name);
			j.status = TS_EXIT_USAGE;
			goto done;
		}
		write_single(&j);
	}
done:
	if (ts_diags_errors(&j.d) > 0 || j.d.n > 0)
		flush_diags(&j);
	if (j.spool != NULL) {
		close(j.spool_fd);
		free(j.spool);
	}
	ts_bundle_free(&j.bd);
	ts_meta_free(&j.m);
	ts_diags_free(&j.d);
	free(j.path);
	free(dname);
	ts_progress_clear();
	return j.status;
}

void
ts_pipe_opts_init(struct ts_pipe_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->in_base = o->out_base = -1;
	o->in_itype = o->out_itype = -1;
	o->in_vtype = o->out_vtype = -1;
	o->in_endian = o->out_endian = -1;
	o->dups = TS_DUP_KEEP;
	o->threads = 1;
}

void
ts_pipe_input_opt(struct ts_pipe_opts *o, const char *name, const char *arg)
{
	static const char *const bases[] = { "0", "1", NULL };
	static const char *const endians[] = { "little", "big", NULL };
	static const char *const itypes[] = { "uint32", "uint64", NULL };
	static const char *const vtypes[] = { "float32", "float64", "int32",
	    "int64", NULL };
	char opt[40];

	snprintf(opt, sizeof(opt), "--%s", name);
	if (strcmp(name, "input-base") == 0)
		o->in_base = ts_pick(opt, arg, bases);
	else if (strcmp(name, "input-endian") == 0)
		o->in_endian = TS_END_LITTLE + ts_pick(opt, arg, endians);
	else if (strcmp(name, "input-index-type") == 0)
		o->in_itype = ts_pick(opt, arg, itypes);
	else if (strcmp(name, "input-value-type") == 0)
		o->in_vtype = ts_pick(opt, arg, vtypes);
	else if (strcmp(name, "meta") == 0)
		o->meta = arg;
	else if (strcmp(name, "no-values") == 0)
		o->no_values = true;
}
