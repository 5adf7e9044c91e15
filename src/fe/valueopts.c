/*
 * valueopts.c - the options that choose generated values (SPEC section
 * 9), shared by the tools that make them (ts-gen-values, ts-gen): one
 * parser and one help text, so that a value means the same to both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "model/model.h"
#include "values/genvalues.h"

double
fe_parse_number(const char *opt, const char *s, size_t n, int64_t *iv,
    bool *isint)
{
	const char *e = s + n, *p;
	double v;

	p = (*s == '-' || *s == '+') ? s + 1 : s;
	*isint = p < e && strspn(p, "0123456789") >= (size_t)(e - p);
	if (*isint) {
		char buf[32];
		char *end;

		errno = 0;
		snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
		*iv = strtoll(buf, &end, 10);
		if (n >= sizeof(buf) || errno != 0)
			*isint = false;
	}
	if (n == 0 || ts_parse_double(s, e, &v) != e)
		fe_usage_error("%s: '%.*s' is not a number", opt, (int)n, s);
	return v;
}

uint64_t
fe_parse_seed(const char *opt, const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno != 0)
		fe_usage_error("%s: '%s' is not an integer from 0 to "
		    "18446744073709551615", opt, arg);
	return v;
}

static void
parse_range(struct fe_genvalues_opts *g, const char *arg)
{
	const char *colon = strchr(arg, ':');
	bool a, b;

	if (colon == NULL)
		fe_usage_error("--range: '%s' is not LO:HI", arg);
	g->lo = fe_parse_number("--range", arg, (size_t)(colon - arg), &g->ilo,
	    &a);
	g->hi = fe_parse_number("--range", colon + 1, strlen(colon + 1),
	    &g->ihi, &b);
	g->has_range = true;
	g->range_int = a && b;
}

static const char *
dist_word(int v)
{
	return fe_gen_dist_name((enum fe_gen_dist)v);
}

void
fe_value_opt(struct fe_genvalues_opts *g, const char *name, const char *arg)
{
	int64_t iv;		/* of numbers that need not be integers */
	bool isint;

	if (strcmp(name, "binary-zeros") == 0)
		g->binary_zeros = fe_parse_number("--binary-zeros", arg,
		    strlen(arg), &iv, &isint);
	else if (strcmp(name, "dist") == 0)
		g->dist = (enum fe_gen_dist)fe_pick_named("--dist", arg,
		    FE_GEN_DIST_UNIFORM, dist_word);
	else if (strcmp(name, "explicit-zeros") == 0)
		g->zeros = fe_pick("--explicit-zeros", arg, ts_allowed_names);
	else if (strcmp(name, "mean") == 0) {
		g->mean = fe_parse_number("--mean", arg, strlen(arg), &iv,
		    &isint);
		g->has_mean = true;
	} else if (strcmp(name, "range") == 0)
		parse_range(g, arg);
	else if (strcmp(name, "std") == 0) {
		g->std = fe_parse_number("--std", arg, strlen(arg), &iv,
		    &isint);
		g->has_std = true;
	} else if (strcmp(name, "value") == 0) {
		g->value = fe_parse_number("--value", arg, strlen(arg),
		    &g->ivalue, &g->value_int);
		g->has_value = true;
	} else if (strcmp(name, "value-domain") == 0)
		g->domain = fe_pick_domain("--value-domain", arg);
}

void
fe_value_usage(FILE *fp)
{
	fputs("      --dist DIST          uniform, normal, constant or integers\n"
	    "                           (default: integers for integer "
	    "types, else uniform)\n"
	    "      --range LO:HI        uniform on [LO,HI), integers in "
	    "[LO,HI], normal\n"
	    "                           clipped to [LO,HI] (default [-1,1), "
	    "[0,1) if\n"
	    "                           nonnegative; integers -100:100)\n"
	    "      --mean M, --std S    normal (default 0 and 1)\n"
	    "      --value V            constant (default 1)\n"
	    "      --binary-zeros P     binary domain: a 0 with probability P "
	    "(default 0)\n"
	    "      --value-domain D     general, nonnegative or binary\n"
	    "      --explicit-zeros Z   allowed or disallowed\n", fp);
}
