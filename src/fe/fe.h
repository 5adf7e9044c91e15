/*
 * fe.h - the front end the tools share (not installed), as
 * libarchive_fe serves bsdtar and bsdcat: the program name, err(3)-style
 * messages, option values picked from lists (a bad one is a usage error
 * and exits), standard output closed with its errors checked, the
 * progress line drawn on a terminal, and diagnostics printed as they
 * come.
 */
#ifndef TS_FE_H
#define TS_FE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensorsuite.h"

/* The tools' exit statuses: the worst status of what they report. */
enum { TS_EXIT_OK = TS_STATUS_OK, TS_EXIT_DATA = TS_STATUS_DATA,
	TS_EXIT_USAGE = TS_STATUS_USAGE, TS_EXIT_IO = TS_STATUS_IO };

/* Set once by each tool's main(); also names the out-of-memory line. */
void	 fe_init(const char *progname);
extern const char *fe_progname;

void	 fe_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 fe_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
/* The last line of every usage error, as GNU tools end theirs:
 * "Try 'PROG --help'." on stderr. */
void	 fe_try_help(void);
/* The one SRC operand of a filter, "-" without one; more than one is a
 * usage error, said with the tool's usage message (exits 2). */
const char *fe_filter_src(int argc, char *const *argv,
	    void (*usage)(FILE *));
/*
 * Standard input is read once, standard output written once: '-' more
 * than once among an option's value (when not NULL) and the n operands,
 * or among the outputs, is a usage error (exits 2) before anything is
 * read or written.
 */
void	 fe_stdin_once(const char *opt, int n, char *const *operands);
void	 fe_stdout_once(const char *a, const char *b);
/* A usage error: the message, the line above, exit(TS_EXIT_USAGE). */
void	 fe_usage_error(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* The index of arg in the NULL-terminated list; else a usage error
 * naming opt and the allowed values ("--to: 'foo': expected one of
 * bundle, tns, ..."). */
int	 fe_pick(const char *opt, const char *arg, const char *const *list);
/* The same among the words the library gives an enum's values (the
 * list of each enum is spelled once, in the library), from first on
 * until word() gives NULL: the value named. */
int	 fe_pick_named(const char *opt, const char *arg, int first,
	    const char *(*word)(int));
/* The same for a value among the words of an enum, which the library
 * spells (ts_vtype_name(), ...): the value named; an endianness is
 * little or big; a kind is a bundle first, then the data files, and
 * cutensor only for an output. */
enum ts_vtype fe_pick_vtype(const char *opt, const char *arg);
enum ts_itype fe_pick_itype(const char *opt, const char *arg);
enum ts_endian fe_pick_endian(const char *opt, const char *arg);
enum ts_domain fe_pick_domain(const char *opt, const char *arg);
enum ts_dup_policy fe_pick_dup_policy(const char *opt, const char *arg);
/* A policy that leaves no repeat (sum, first, last or error): keep is a
 * usage error that says why. */
enum ts_dup_policy fe_pick_unique_policy(const char *opt, const char *arg);
enum ts_kind fe_pick_kind(const char *opt, const char *arg, bool output);
/* "0", "1": an index base. */
extern const char *const fe_bases[];
/*
 * The words an option takes, as --help lists them, from the library's
 * tables ("float32, float64, int32 or int64"), into buf (FE_WORDS
 * bytes), which is returned: those of word(first), word(first + 1), ...
 * until NULL; the value types; the kinds --from reads (output false) or
 * --to writes (a bundle first, when bundle); the suffixes that name the
 * kinds written.
 * fe_input_help prints the help lines of FE_INPUT_LONGOPTS.
 */
#define FE_WORDS	256
const char *fe_words(char *buf, int first, const char *(*word)(int));
const char *fe_vtype_words(char *buf);
const char *fe_kind_words(char *buf, bool output, bool bundle);
const char *fe_suffix_words(char *buf);
void	 fe_input_help(FILE *);
/* text after lead (what goes in the option column, padded to it; ""
 * for a paragraph), wrapped at 79 columns under the column's start. */
void	 fe_help_wrap(FILE *, const char *lead, const char *text);
/* The help lines of -o and --to of a tool on the engine, whose stream
 * output is of the kind stream says ("text", "SRC's kind"). */
void	 fe_output_help(FILE *, const char *stream);
/* A failed write to stdout is an error (jq's habit): flush and check;
 * returns status, or TS_EXIT_IO after a message. */
int	 fe_close_stdout(int status);
/* -V: "PROG (TensorSuite) VERSION" on stdout, checked like any output. */
int	 fe_version(void);
/* -j N: threads, 1..256; else a usage message and exit. */
int	 fe_parse_jobs(const char *arg);
/* A list like "3,1,2": at most max integers in [lo, hi] into out.
 * Returns the count, or -1 when arg is not such a list. */
int	 fe_parse_list(const char *arg, uint64_t lo, uint64_t hi,
	    uint64_t *out, int max);
/* SIZE, as ts_parse_size() reads it (bytes with an optional K, M, G, T
 * suffix, or N% of the memory ts_mem_available() finds), at least min;
 * else a usage error naming opt.  The one parser of every size option. */
uint64_t fe_parse_size_min(const char *opt, const char *arg, uint64_t min);
/* -S SIZE: as above, at least 1M. */
size_t	 fe_parse_size(const char *opt, const char *arg);
/* -S's default, the percentage pct ("25%") of the memory the process may
 * use, worked out when it is needed (not before --help); when that is
 * less than the 1M a sort takes, a usage error that says so and why. */
size_t	 fe_default_size(const char *opt, const char *pct);
/* What the percentage pct ("25%") of the memory comes to, and of what,
 * for --help: "6.0G here, of 24G physical memory" (a static buffer). */
const char *fe_mem_default(const char *pct);
/* The command line as typed, the program by its name (fe_progname),
 * words quoted for the shell where needed (malloc'd). */
char	*fe_command_line(int argc, char *const argv[]);

/* The progress line on standard error: redrawn in place within the
 * terminal's width when it is a terminal (after a second, or at once
 * with TS_PROGRESS=always); a whole line every few seconds with
 * TS_PROGRESS=always into a file or pipe; never when quiet or
 * TS_PROGRESS=never.  Another value of TS_PROGRESS is warned of and
 * taken as auto, the default. */
void	 fe_progress_init(bool quiet);

/* Print each diagnostic of d on standard error as it comes, notes
 * only when not quiet. */
void	 fe_diags_live(struct ts_diags *, bool quiet);

/*
 * The options that choose generated values (SPEC section 9), shared by
 * the tools that make values (ts-gen-values, ts-gen): give them the
 * getopt value FE_OPT_VALUE and pass the long name here: --binary-zeros,
 * --dist, --explicit-zeros, --mean, --range, --std, --value,
 * --value-domain.  A bad value is a usage error (exits).  The lines
 * their --help gives them, as fe_value_usage prints them.
 */
#define FE_OPT_VALUE	0x1001
#define FE_VALUE_LONGOPTS						\
	{ "binary-zeros",	required_argument,	NULL, FE_OPT_VALUE }, \
	{ "dist",		required_argument,	NULL, FE_OPT_VALUE }, \
	{ "explicit-zeros",	required_argument,	NULL, FE_OPT_VALUE }, \
	{ "mean",		required_argument,	NULL, FE_OPT_VALUE }, \
	{ "range",		required_argument,	NULL, FE_OPT_VALUE }, \
	{ "std",		required_argument,	NULL, FE_OPT_VALUE }, \
	{ "value",		required_argument,	NULL, FE_OPT_VALUE }, \
	{ "value-domain",	required_argument,	NULL, FE_OPT_VALUE }
struct fe_genvalues_opts;
void	 fe_value_opt(struct fe_genvalues_opts *, const char *name,
	    const char *arg);
void	 fe_value_usage(FILE *);
/* --seed N: an integer of 0 to 2^64-1, else a usage error naming opt. */
uint64_t fe_parse_seed(const char *opt, const char *arg);
/* The n bytes at s as a number, a decimal literal read exactly; *isint
 * when it is an integer of int64, in *iv.  Else a usage error naming
 * opt. */
double	 fe_parse_number(const char *opt, const char *s, size_t n,
	    int64_t *iv, bool *isint);

#endif
