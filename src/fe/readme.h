/*
 * readme.h - the Statistics section ts-stat --readme writes into a
 * bundle's README.md (not installed): how it starts and where it ends,
 * so that ts-stat replaces it and every tool that rewrites the entries
 * (ts-sort -i, ts-gen-values, ts-convert, through the engine) takes out
 * what it would make false.
 */
#ifndef TS_FE_README_H
#define TS_FE_README_H

#include <stdbool.h>

/* Its heading, a line of its own. */
#define FE_README_HEADING	"## Statistics"

/* Take the section out of the README text (NUL-terminated), in place:
 * from its heading to the next heading of its level or above, or the
 * end.  Is there one? */
bool	 fe_readme_cut(char *text);

#endif
