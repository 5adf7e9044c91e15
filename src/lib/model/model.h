/*
 * model.h - what the metadata's files share inside libtensorsuite (not
 * installed): the words of its enumerated keys, NULL-terminated, indexed
 * by their enums.
 */
#ifndef TS_MODEL_H
#define TS_MODEL_H

/* The largest metadata file a reader takes, and so a writer writes. */
#define TS_META_MAX	(16u << 20)

extern const char *const ts_vtype_names[];
extern const char *const ts_itype_names[];
extern const char *const ts_domain_names[];
extern const char *const ts_sym_names[];
extern const char *const ts_sparsity_names[];
extern const char *const ts_endian_names[];
extern const char *const ts_sorted_names[];
extern const char *const ts_dup_names[];
extern const char *const ts_srctype_names[];

#endif
