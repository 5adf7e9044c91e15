/*
 * model.h - what the metadata's files share inside libtensorsuite (not
 * installed): the words of its enumerated keys, NULL-terminated, indexed
 * by their enums; and the end of a bundle's reading.
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
extern const char *const ts_allowed_names[];
extern const char *const ts_srctype_names[];

/*
 * Done reading bd's files: its directory is no longer held (bundle.c),
 * so that a writer that replaces it, this program too, need not wait
 * for it; what is still asked is found by path.
 */
struct ts_bundle;
void	 ts_bundle_unhold(struct ts_bundle *bd);

#endif
