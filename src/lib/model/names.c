/*
 * names.c - the words of the metadata's enumerated keys, in the order of
 * their enums, for reading, writing and messages alike.
 */
#include <stddef.h>

#include "tensorsuite.h"
#include "model/model.h"

const char *const ts_vtype_names[] = { "float32", "float64", "int32", "int64",
    NULL };
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

const char *
ts_vtype_name(enum ts_vtype t)
{
	return ts_vtype_names[t];
}

const char *
ts_itype_name(enum ts_itype t)
{
	return ts_itype_names[t];
}

size_t
ts_vtype_size(enum ts_vtype t)
{
	return (t == TS_VTYPE_FLOAT32 || t == TS_VTYPE_INT32) ? 4 : 8;
}

size_t
ts_itype_size(enum ts_itype t)
{
	return t == TS_ITYPE_UINT32 ? 4 : 8;
}
