/*
 * escape.h - how a file name or a message is written into each kind of
 * report, so that no name can break one (internal; the library's
 * diagnostics and the tools' reports share it).
 *
 * A name is a path as the system gives it: any bytes but NUL and none
 * of them to be trusted.  A message is the library's text with names and
 * file contents inside it.  The rules, one per kind of output:
 *
 *   a line of text (diagnostics, verdicts, stderr): a name as it is when
 *   that is safe, else quoted as GNU ls's shell-escape style quotes it
 *   ('a'$'\n''b'), a shell word that gives the bytes back; a message
 *   with '?' for what cannot be shown (ts_text_sanitize, done once when
 *   a diagnostic is recorded);
 *   JSON: the name exactly when it is UTF-8, else its quoted form and
 *   the raw bytes in base64 beside it;
 *   XML: the text form, its markup escaped;
 *   GitHub workflow commands: the runner's own escapes, on the name
 *   exactly when it is printable UTF-8 (so the annotation lands on the
 *   file), else on the text form;
 *   a CSV cell of text: empty for an empty text, else the text form
 *   (so that the file is UTF-8, one line a row, and no control reaches
 *   a terminal), with a single quote before it when it starts as a
 *   spreadsheet formula does with =, +, - or @ (a tab or a CR at the
 *   start puts the text form in quotes already): OWASP's advice
 *   against CSV injection; then
 *   quoted as RFC 4180 quotes a field when it holds a comma or a
 *   double quote, or was so marked.  A reader tells the three apart: a
 *   plain name holds no single quote, a marked one is a quote and a
 *   plain name, a quoted text form holds two quotes at least;
 *   a Markdown link to a file: its path percent-encoded, every byte
 *   but the unreserved of RFC 3986 and '/', so that no name ends the
 *   link or starts a line, markup or HTML.
 *
 * "Safe" for a line of text means: one line, no byte a terminal acts on
 * (C0 and C1 controls, DEL), valid UTF-8, and nothing a GitHub Actions
 * runner reads as a workflow command: it trims leading white space and
 * takes "::" as a command; it takes "##[" anywhere in a line as one of
 * the old syntax.
 */
#ifndef TS_ESCAPE_H
#define TS_ESCAPE_H

#include <stdbool.h>
#include <stdio.h>

/* Is s UTF-8 (RFC 3629: no overlong form, no surrogate, at most
 * U+10FFFF)? */
bool	 ts_utf8_valid(const char *s);

/* Can the name s be written as it is on a line of text?  Not when it is
 * empty, holds a byte that is not printable UTF-8, a single quote
 * (quoted forms are told by theirs) or "##[", or starts with white
 * space or ':'. */
bool	 ts_name_plain(const char *s);
/* The name in the text form: as it is when plain (unless always), else
 * in single quotes, with each run of unprintable bytes as $'...' (\n,
 * \t, ... or \ooo), a quote as \', and "##[" split as "##''[".
 * always gives 'x' for a plain x: a name inside a message.  Malloc'd. */
char	*ts_quote(const char *s, bool always);
/* Write the text form (always false) to fp. */
void	 ts_fput_name(FILE *fp, const char *s);

/* Make a message safe for a line of text, in place: '?' for each
 * control byte, each byte of an invalid UTF-8 sequence and each
 * unprintable character, and for the '[' of "##[". */
void	 ts_text_sanitize(char *s);

/* A JSON string holding the UTF-8 text s exactly (a byte of an invalid
 * sequence as U+FFFD); controls, U+2028/9 and the '[' of "##[" as \u
 * escapes, so that the line is safe to print too. */
void	 ts_fput_json(FILE *fp, const char *s);
/* "key": the name s (null when NULL): the JSON string of s when it is
 * UTF-8; else of its text form, then , "key_base64": its bytes. */
void	 ts_fput_json_name(FILE *fp, const char *key, const char *s);

/* The CSV cell of the text s (NULL: empty) by the rule above,
 * malloc'd. */
char	*ts_csv_cell(const char *s);

/* The path s as a Markdown link's destination (see above). */
void	 ts_fput_md_url(FILE *fp, const char *s);

/* XML character data (attr false) or an attribute value (true) holding
 * the safe text s: &, <, >, " escaped, tab and CR (and LF in an
 * attribute) as character references, the '[' of "##[" as &#91;;
 * anything XML 1.0 cannot hold as '?'. */
void	 ts_fput_xml(FILE *fp, const char *s, bool attr);
/* The text form of the name s in an XML attribute value. */
void	 ts_fput_xml_name(FILE *fp, const char *s);

/* Text in a GitHub workflow command, escaped as the runner unescapes
 * it: '%', CR and LF; ':' and ',' too in a property (prop). */
void	 ts_fput_gh(FILE *fp, const char *s, bool prop);
/* The value of a file= property: the name s itself when it is UTF-8
 * with no control but CR and LF, else its text form; escaped. */
void	 ts_fput_gh_name(FILE *fp, const char *s);

#endif
