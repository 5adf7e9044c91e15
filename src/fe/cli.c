/*
 * cli.c - the small front-end helpers every tool's main() shares (see
 * fe.h).
 */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fe.h"
#include "util/escape.h"
#include "util/progress.h"
#include "util/size.h"
#include "util/sysres.h"
#include "util/xalloc.h"

const char *fe_progname = "tensorsuite";

void
fe_init(const char *progname)
{
#ifdef M_ARENA_MAX
	struct rlimit rl;

	/* Under RLIMIT_AS, each thread's malloc arena (glibc's) reserves
	 * 64 MiB of address space, which the limit counts though no page
	 * of it is used: with one arena, the memory -S plans for is the
	 * memory there is. */
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		mallopt(M_ARENA_MAX, 1);
#endif
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
	/* Blocks up to 32 MiB from the heap, and freed memory kept up to
	 * 64 MiB: a buffer a library allocates and frees again and again
	 * (libhdf5's, a megabyte a read) then reuses its pages instead of
	 * mapping new ones, each a page fault, which a virtual machine
	 * with shadow page tables makes dear (reading 20M entries of a
	 * .bsp.h5: 6,900 faults, 0.30 s; now 4,400, 0.26 s).  glibc's own
	 * threshold rises so only after the first free of such a block. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
	fe_progname = progname;
	ts_progname = progname;
}

/* "prog: message" on stderr, the progress line out of the way; the
 * names in the message shown safely, as a diagnostic's are. */
static void
vwarnx(const char *fmt, va_list ap)
{
	char buf[1024];

	ts_progress_clear();
	vsnprintf(buf, sizeof(buf), fmt, ap);
	ts_text_sanitize(buf);
	fprintf(stderr, "%s: %s\n", fe_progname, buf);
}

void
fe_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

void
fe_warn(const char *fmt, ...)
{
	va_list ap;
	int e = errno;
	char buf[1024];

	ts_progress_clear();
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ts_text_sanitize(buf);
	fprintf(stderr, "%s: %s: %s\n", fe_progname, buf, strerror(e));
}

void
fe_try_help(void)
{
	fprintf(stderr, "Try '%s --help'.\n", fe_progname);
}

const char *
fe_filter_src(int argc, char *const *argv, void (*usage)(FILE *))
{
	if (argc <= 1)
		return argc == 1 ? argv[0] : "-";
	fe_warnx("give one SRC");
	usage(stderr);
	fe_try_help();
	exit(TS_EXIT_USAGE);
}

void
fe_stdin_once(const char *opt, int n, char *const *operands)
{
	int i, k = opt != NULL && strcmp(opt, "-") == 0;

	for (i = 0; i < n; i++)
		k += strcmp(operands[i], "-") == 0;
	if (k > 1)
		fe_usage_error("'-' (standard input) is given twice; it can be "
		    "read only once");
}

void
fe_stdout_once(const char *a, const char *b)
{
	if (a != NULL && b != NULL && strcmp(a, "-") == 0 &&
	    strcmp(b, "-") == 0)
		fe_usage_error("'-' (standard output) is given twice; it can "
		    "be written only once");
}

void
fe_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fe_try_help();
	exit(TS_EXIT_USAGE);
}

const char *const fe_bases[] = { "0", "1", NULL };

int
fe_pick(const char *opt, const char *arg, const char *const *list)
{
	int i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(arg, list[i]) == 0)
			return i;
	/* The allowed values, so that nobody needs the manual for them
	 * (and tests/lint.sh reads them from here). */
	ts_progress_clear();
	fprintf(stderr, "%s: %s: '%s': expected one of", fe_progname, opt, arg);
	for (i = 0; list[i] != NULL; i++)
		fprintf(stderr, "%s %s", i ? "," : "", list[i]);
	fputc('\n', stderr);
	fe_try_help();
	exit(TS_EXIT_USAGE);
}

int
fe_pick_named(const char *opt, const char *arg, int first,
    const char *(*word)(int))
{
	const char *w[16];
	int n = 0;

	while (n < 15 && (w[n] = word(first + n)) != NULL)
		n++;
	w[n] = NULL;
	return first + fe_pick(opt, arg, w);
}

static const char *
vtype_word(int v)
{
	return ts_vtype_name((enum ts_vtype)v);
}

static const char *
itype_word(int v)
{
	return ts_itype_name((enum ts_itype)v);
}

static const char *
endian_word(int v)
{
	return ts_endian_name((enum ts_endian)v);
}

static const char *
domain_word(int v)
{
	return ts_domain_name((enum ts_domain)v);
}

static const char *
dup_policy_word(int v)
{
	return ts_dup_policy_name((enum ts_dup_policy)v);
}

enum ts_vtype
fe_pick_vtype(const char *opt, const char *arg)
{
	return (enum ts_vtype)fe_pick_named(opt, arg, 0, vtype_word);
}

enum ts_itype
fe_pick_itype(const char *opt, const char *arg)
{
	return (enum ts_itype)fe_pick_named(opt, arg, 0, itype_word);
}

enum ts_endian
fe_pick_endian(const char *opt, const char *arg)
{
	return (enum ts_endian)fe_pick_named(opt, arg, TS_ENDIAN_LITTLE,
	    endian_word);
}

enum ts_domain
fe_pick_domain(const char *opt, const char *arg)
{
	return (enum ts_domain)fe_pick_named(opt, arg, 0, domain_word);
}

enum ts_dup_policy
fe_pick_dup_policy(const char *opt, const char *arg)
{
	return (enum ts_dup_policy)fe_pick_named(opt, arg, 0, dup_policy_word);
}

enum ts_dup_policy
fe_pick_unique_policy(const char *opt, const char *arg)
{
	char w[FE_WORDS];

	if (strcmp(arg, ts_dup_policy_name(TS_DUP_KEEP)) == 0)
		fe_usage_error("%s: '%s' leaves repeats, which an output of "
		    "unique entries cannot hold: give %s", opt, arg,
		    fe_words(w, TS_DUP_KEEP + 1, dup_policy_word));
	return (enum ts_dup_policy)fe_pick_named(opt, arg, TS_DUP_KEEP + 1,
	    dup_policy_word);
}

/* "a, b or c": n words, into buf (room for FE_WORDS bytes). */
static const char *
join(char *buf, const char *const *w, int n)
{
	int i;

	*buf = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), FE_WORDS - strlen(buf), "%s%s",
		    i == 0 ? "" : i == n - 1 ? " or " : ", ", w[i]);
	return buf;
}

const char *
fe_words(char *buf, int first, const char *(*word)(int))
{
	const char *w[32];
	int n = 0;

	while (n < 32 && (w[n] = word(first + n)) != NULL)
		n++;
	return join(buf, w, n);
}

const char *
fe_vtype_words(char *buf)
{
	return fe_words(buf, 0, vtype_word);
}

const char *
fe_kind_words(char *buf, bool output, bool bundle)
{
	const char *w[TS_KIND_BUNDLE + 1];
	int k, n = 0;

	if (bundle)
		w[n++] = ts_kind_name(TS_KIND_BUNDLE);
	for (k = 0; k < TS_KIND_BUNDLE; k++)
		if (output ? ts_kind_writable((enum ts_kind)k) :
		    ts_kind_readable((enum ts_kind)k))
			w[n++] = ts_kind_name((enum ts_kind)k);
	return join(buf, w, n);
}

const char *
fe_suffix_words(char *buf)
{
	const char *w[3 * TS_KIND_BUNDLE];
	char x[32];
	int k, i, n = 0;

	/* Not a suffix formats share (.bin), which names none. */
	for (k = 0; k < TS_KIND_BUNDLE; k++)
		for (i = 0; ts_kind_writable((enum ts_kind)k) &&
		    ts_kind_suffix((enum ts_kind)k, i) != NULL; i++) {
			snprintf(x, sizeof(x), "x%s", ts_kind_suffix((enum
			    ts_kind)k, i));
			if (ts_kind_of_path(x, NULL) == k)
				w[n++] = ts_kind_suffix((enum ts_kind)k, i);
		}
	return join(buf, w, n);
}

void
fe_help_wrap(FILE *fp, const char *lead, const char *text)
{
	const size_t col = *lead != '\0' ? 27 : 0;
	size_t at, w;
	const char *p = text, *sp;

	at = (size_t)fprintf(fp, "%-*s", (int)col, lead);
	while (*p != '\0') {
		sp = strchr(p, ' ');
		w = sp != NULL ? (size_t)(sp - p) : strlen(p);
		if (at > col && at + 1 + w > 79)
			at = (size_t)fprintf(fp, "\n%*s", (int)col, "") - 1;
		else if (at > col)
			at += (size_t)fprintf(fp, " ");
		at += fwrite(p, 1, w, fp);
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}

void
fe_output_help(FILE *fp, const char *stream)
{
	char sfx[FE_WORDS], to[FE_WORDS], text[3 * FE_WORDS];

	snprintf(text, sizeof(text), "bundle directory or archive (.tar.zst, "
	    "...), or a %s file, possibly .gz, .zst, .xz or .bz2, or '-'",
	    fe_suffix_words(sfx));
	fe_help_wrap(fp, "  -o, --output DST", text);
	snprintf(text, sizeof(text), "%s (default: from DST; to a stream, %s)",
	    fe_kind_words(to, true, true), stream);
	fe_help_wrap(fp, "      --to KIND", text);
}

void
fe_input_help(FILE *fp)
{
	char it[FE_WORDS], vt[FE_WORDS], en[FE_WORDS];

	fe_words(it, 0, itype_word);
	fe_vtype_words(vt);
	fe_words(en, TS_ENDIAN_LITTLE, endian_word);
	fprintf(fp,
	    "      --input-base 0|1     index base of a bare data file or "
	    "stream\n"
	    "      --input-index-type T %s (a bare binary stream)\n"
	    "      --input-value-type T %s\n"
	    "      --input-endian E     %s (a bare binary stream)\n"
	    "      --no-values          a bare data file or stream holds "
	    "coordinates only\n", it, vt, en);
}

/* A bundle first, then the formats read (--from) or written (--to), as
 * the formats' table says. */
enum ts_kind
fe_pick_kind(const char *opt, const char *arg, bool output)
{
	const char *w[TS_KIND_BUNDLE + 2];
	enum ts_kind v[TS_KIND_BUNDLE + 1];
	int k = ts_kind_of_name(arg), n = 0;

	if (k >= 0 && !output && !ts_kind_readable((enum ts_kind)k))
		fe_usage_error("%s %s: %s is written, not read", opt, arg,
		    ts_kind_title((enum ts_kind)k));
	v[n++] = TS_KIND_BUNDLE;
	for (k = 0; k < TS_KIND_BUNDLE; k++)
		if (output ? ts_kind_writable((enum ts_kind)k) :
		    ts_kind_readable((enum ts_kind)k))
			v[n++] = (enum ts_kind)k;
	for (k = 0; k < n; k++)
		w[k] = ts_kind_name(v[k]);
	w[n] = NULL;
	return v[fe_pick(opt, arg, w)];
}

int
fe_close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fe_warn("write error on standard output");
		return TS_EXIT_IO;
	}
	return status;
}

int
fe_version(void)
{
	printf("%s (TensorSuite) %s\n", fe_progname, TS_VERSION);
	return fe_close_stdout(TS_EXIT_OK);
}


int
fe_parse_jobs(const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end != '\0' || n < 1 || n > 256) {
		fe_warnx("-j: '%s' is not a thread count", arg);
		exit(TS_EXIT_USAGE);
	}
	return (int)n;
}

int
fe_parse_list(const char *arg, uint64_t lo, uint64_t hi, uint64_t *out,
    int max)
{
	const char *p = arg;
	char *end;
	int n = 0;

	while (*p != '\0') {
		unsigned long long v;

		if (n == max || *p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno != 0 || v < lo || v > hi)
			return -1;
		out[n++] = v;
		p = end;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return n > 0 ? n : -1;
}

uint64_t
fe_parse_size_min(const char *opt, const char *arg, uint64_t min)
{
	uint64_t v;
	char least[40] = "";

	if (ts_parse_size(arg, ts_mem_available(NULL), &v) == 0 && v >= min)
		return v;
	if (min >= (uint64_t)1 << 20 && min % ((uint64_t)1 << 20) == 0)
		snprintf(least, sizeof(least), " of at least %lluM",
		    (unsigned long long)(min >> 20));
	else if (min > 1)
		snprintf(least, sizeof(least), " of at least %llu bytes",
		    (unsigned long long)min);
	fe_usage_error("%s: '%s' is not a size%s, like 256M, 2G or 25%%", opt,
	    arg, least);
}

/* Bytes as a size option takes them, to one decimal: 900K, 1.5G, 24G. */
static void
human(char *buf, size_t n, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double x = (double)v;
	int u = -1;

	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, n, "%llu", (unsigned long long)v);
	else if (x < 10 && (double)(int)x != x)
		snprintf(buf, n, "%.1f%c", (double)(int)(x * 10) / 10, units[u]);
	else
		snprintf(buf, n, "%d%c", (int)x, units[u]);
}

const char *
fe_mem_default(const char *pct)
{
	static char buf[128];
	char a[16], b[16];
	const char *why;
	uint64_t whole = ts_mem_available(&why), v = 0;

	ts_parse_size(pct, whole, &v);
	human(a, sizeof(a), v);
	human(b, sizeof(b), whole);
	snprintf(buf, sizeof(buf), "%s here, of %s %s", a, b, why);
	return buf;
}

size_t
fe_default_size(const char *opt, const char *pct)
{
	const char *why;
	uint64_t whole = ts_mem_available(&why), v = 0;
	char a[16], b[16];

	if (ts_parse_size(pct, whole, &v) == 0 && v >= (uint64_t)1 << 20)
		return v > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)v;
	human(a, sizeof(a), v);
	human(b, sizeof(b), whole);
	fe_usage_error("%s: its default, %s of the memory it may use, is %s "
	    "here (of %s %s), less than the 1M it needs: give %s SIZE", opt,
	    pct, a, b, why, opt);
}

size_t
fe_parse_size(const char *opt, const char *arg)
{
	uint64_t v = fe_parse_size_min(opt, arg, (uint64_t)1 << 20);

	return v > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)v;
}

/*
 * The command as a README shows it, to be typed again elsewhere: the
 * program by its name, not by the path it was run from here (which is
 * this machine's, and would be published with the bundle); the operands
 * as given, a relative path still relative.  A word the shell would
 * take apart is quoted, a quote inside it as '\''.
 */
char *
fe_command_line(int argc, char *const argv[])
{
	static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkl"
	    "mnopqrstuvwxyz0123456789_-+=.,/:@%^";
	size_t n = 1;
	char *s, *p;
	const char *a, *c;
	int i;

	for (i = 0; i < argc; i++)
		n += 4 * strlen(argv[i]) + 3;
	s = p = ts_xmalloc(n + strlen(fe_progname));
	*p = '\0';
	for (i = 0; i < argc; i++) {
		a = i == 0 ? fe_progname : argv[i];
		if (i > 0)
			*p++ = ' ';
		if (*a != '\0' && strspn(a, plain) == strlen(a)) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (c = a; *c != '\0'; c++)
			if (*c == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *c;
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}
