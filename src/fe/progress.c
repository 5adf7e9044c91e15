/*
 * progress.c - the progress line on standard error (see fe.h).  On a
 * terminal it is one line redrawn in place, five times a second, clipped
 * to the terminal's width as it is at each redraw (TIOCGWINSZ): a line
 * that wrapped could not be redrawn, and each redraw would leave a stale
 * line behind.  What is cut is the middle of what the work is on (its
 * path), so that the verb, the file's name and how far it is stay.
 * Into a log (TS_PROGRESS=always, standard error not a terminal) it is a
 * whole line every few seconds instead, which a log keeps readable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fe.h"
#include "util/escape.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define PROGRESS_AFTER	1.0	/* on a terminal, unless always */
#define PROGRESS_EVERY	0.2	/* on a terminal */
#define LOG_EVERY	5.0	/* into a log */

static int width;	/* of the line on screen; 0: none */
static bool utf8;	/* the terminal takes U+2026 for the cut */

/* Characters of s (UTF-8: continuation bytes are none). */
static size_t
chars(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n && s[i] != '\0'; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The bytes of s that hold its first c characters. */
static size_t
prefix(const char *s, size_t c)
{
	size_t i = 0;

	while (s[i] != '\0') {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c-- == 0)
			break;
		i++;
	}
	return i;
}

/* The columns of the terminal on standard error; 80 when it does not
 * say (a pty nobody sized), or COLUMNS. */
static int
columns(void)
{
	struct winsize ws;
	const char *e = getenv("COLUMNS");

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (e != NULL && atoi(e) > 0)
		return atoi(e);
	return 80;
}

/*
 * "PROG: WHAT: STATUS" in cols characters at most, into buf, when the
 * middle of what WHAT works on (after its verb) may give way, keeping a
 * few characters of its start and end; false when that is not enough.
 */
static bool
cut(char *buf, size_t n, const char *what, const char *status, int cols)
{
	const char *dots = utf8 ? "\xe2\x80\xa6" : "...";
	const char *obj = strchr(what, ' ');
	size_t fixed, room, head, tail, ocs;

	snprintf(buf, n, "%s: %s%s%s", fe_progname, what, status ? ": " : "",
	    status ? status : "");
	if (chars(buf, n) <= (size_t)cols)
		return true;
	if (obj == NULL)
		return false;
	obj++;
	ocs = chars(obj, strlen(obj));
	fixed = chars(buf, n) - ocs + chars(dots, 3);
	if ((size_t)cols < fixed + 8)
		return false;
	room = (size_t)cols - fixed;
	head = room / 2;
	tail = room - head;
	snprintf(buf, n, "%s: %.*s%.*s%s%s%s%s", fe_progname, (int)(obj - what),
	    what, (int)prefix(obj, head), obj, dots,
	    obj + prefix(obj, ocs - tail), status ? ": " : "",
	    status ? status : "");
	return true;
}

/* The line in cols characters: the path cut in its middle; then, if
 * need be, the status without its "(327 MB of 641 MB)", then without
 * the status; then the line's start, as much as fits. */
static void
fit(char *buf, size_t n, const char *what, const char *status, int cols)
{
	char st[96];

	if (cut(buf, n, what, status, cols))
		return;
	if (status != NULL) {
		snprintf(st, sizeof(st), "%.*s", (int)strcspn(status, "("),
		    status);
		while (strlen(st) > 0 && st[strlen(st) - 1] == ' ')
			st[strlen(st) - 1] = '\0';
		if (cut(buf, n, what, st, cols) || cut(buf, n, what, NULL,
		    cols))
			return;
	}
	buf[prefix(buf, (size_t)cols)] = '\0';
}

/* What the line says names a file, which must not reach the terminal
 * (or a log) raw: a copy with '?' for what cannot be shown. */
static char *
safe(const char *s)
{
	char *t;

	if (s == NULL)
		return NULL;
	t = ts_xstrdup(s);
	ts_text_sanitize(t);
	return t;
}

static void
draw(const char *what0, const char *status0, void *arg)
{
	char line[512], *what, *status;
	int w, cols;

	(void)arg;
	if (what0 == NULL) {
		if (width > 0)
			fprintf(stderr, "\r%*s\r", width, "");
		fflush(stderr);
		width = 0;
		return;
	}
	/* The last column left alone: a terminal wraps there. */
	cols = columns() - 1;
	what = safe(what0);
	status = safe(status0);
	fit(line, sizeof(line), what, status, cols < 1 ? 1 : cols);
	free(what);
	free(status);
	w = (int)chars(line, sizeof(line));
	fprintf(stderr, "\r%s", line);
	/* Pad over what a longer line left, within the width. */
	if (width > w)
		fprintf(stderr, "%*s", (width > cols ? cols : width) - w, "");
	fflush(stderr);
	width = w;
}

/* Into a log: whole lines, never taken back. */
static void
log_line(const char *what0, const char *status0, void *arg)
{
	char *what, *status;

	(void)arg;
	if (what0 == NULL)
		return;
	what = safe(what0);
	status = safe(status0);
	fprintf(stderr, "%s: %s%s%s\n", fe_progname, what, status ? ": " : "",
	    status ? status : "");
	fflush(stderr);
	free(what);
	free(status);
}

/* Whether the locale the terminal was started in is UTF-8 (the tools
 * themselves run in the C locale). */
static bool
utf8_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };
	const char *e;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if ((e = getenv(vars[i])) != NULL && *e != '\0')
			return strstr(e, "UTF-8") != NULL ||
			    strstr(e, "utf-8") != NULL ||
			    strstr(e, "UTF8") != NULL || strstr(e, "utf8") != NULL;
	return false;
}

void
fe_progress_init(bool quiet)
{
	const char *e = getenv("TS_PROGRESS");
	bool always = false, never = false, tty = isatty(STDERR_FILENO);

	if (e != NULL && strcmp(e, "always") == 0)
		always = true;
	else if (e != NULL && strcmp(e, "never") == 0)
		never = true;
	else if (e != NULL && *e != '\0' && strcmp(e, "auto") != 0 && !quiet)
		fe_warnx("TS_PROGRESS: '%s': expected always, auto or never; "
		    "taken as auto", e);
	utf8 = utf8_locale();
	if (quiet || never || (!tty && !always))
		ts_progress_hook(NULL, NULL, 0, 0);
	else if (tty)
		ts_progress_hook(draw, NULL, always ? 0 : PROGRESS_AFTER,
		    PROGRESS_EVERY);
	else
		ts_progress_hook(log_line, NULL, 0, LOG_EVERY);
}
