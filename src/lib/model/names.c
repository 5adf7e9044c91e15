/*
 * names.c - the words of the enums, spelled once: the metadata's
 * enumerated keys and the duplicates policies, in the order of their
 * enums, for reading, writing, options and messages alike; and the
 * functions that turn one into the other.  (The value types and the
 * formats are tables of their own: util/vtype.c, format/formats.c.)
 */
#include <stddef.h>
#include <string.h>

#include "tensorsuite.h"
#include "model/model.h"

const char *const ts_itype_names[] = { "uint32", "uint64", NULL };
const char *const ts_domain_names[] = { "general", "nonnegative", "binary",
    NULL };
const char *const ts_sym_names[] = { "no", "partial", "full", NULL };
const char *const ts_sparsity_names[] = { "no", "semi", "element", "block",
    NULL };
const char *const ts_endian_names[] = { "none", "little", "big", NULL };
const char *const ts_sorted_names[] = { "none", "lexicographic", NULL };
const char *const ts_allowed_names[] = { "disallowed", "allowed", NULL };
const char *const ts_srctype_names[] = { "synthetic", "real", NULL };
static const char *const dup_policy_names[] = { "keep", "sum", "first",
    "last", "error", NULL };

#define N(list)	(sizeof(list) / sizeof(list[0]) - 1)

/* Each list is its enum, word for word (the value types are a table of
 * their own, util/vtype.c). */
_Static_assert(N(ts_itype_names) == TS_ITYPE_UINT64 + 1, "itype words");
_Static_assert(N(ts_domain_names) == TS_DOMAIN_BINARY + 1, "domain words");
_Static_assert(N(ts_sym_names) == TS_SYM_FULL + 1, "symmetry words");
_Static_assert(N(ts_sparsity_names) == TS_SPARSITY_BLOCK + 1,
    "sparsity words");
_Static_assert(N(ts_endian_names) == TS_ENDIAN_BIG + 1, "endian words");
_Static_assert(N(dup_policy_names) == TS_DUP_ERROR + 1, "policy words");

/* The word of value v of a list of n, or NULL. */
static const char *
word(const char *const *list, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? list[v] : NULL;
}

/* The value of word s in list, or -1. */
static int
value(const char *const *list, const char *s)
{
	int i;

	for (i = 0; s != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

const char *
ts_itype_name(enum ts_itype t)
{
	return word(ts_itype_names, N(ts_itype_names), (int)t);
}

int
ts_itype_of_name(const char *s)
{
	return value(ts_itype_names, s);
}

const char *
ts_domain_name(enum ts_domain d)
{
	return word(ts_domain_names, N(ts_domain_names), (int)d);
}

int
ts_domain_of_name(const char *s)
{
	return value(ts_domain_names, s);
}

const char *
ts_sym_name(enum ts_sym y)
{
	return word(ts_sym_names, N(ts_sym_names), (int)y);
}

int
ts_sym_of_name(const char *s)
{
	return value(ts_sym_names, s);
}

const char *
ts_sparsity_name(enum ts_sparsity p)
{
	return word(ts_sparsity_names, N(ts_sparsity_names), (int)p);
}

int
ts_sparsity_of_name(const char *s)
{
	return value(ts_sparsity_names, s);
}

const char *
ts_endian_name(enum ts_endian e)
{
	return word(ts_endian_names, N(ts_endian_names), (int)e);
}

int
ts_endian_of_name(const char *s)
{
	return value(ts_endian_names, s);
}

const char *
ts_dup_policy_name(enum ts_dup_policy p)
{
	return word(dup_policy_names, N(dup_policy_names), (int)p);
}

int
ts_dup_policy_of_name(const char *s)
{
	return value(dup_policy_names, s);
}

size_t
ts_itype_size(enum ts_itype t)
{
	return t == TS_ITYPE_UINT32 ? 4 : 8;
}
