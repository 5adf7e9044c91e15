/*
 * model.h - what the metadata's files share inside libtensorsuite (not
 * installed): the words of its enumerated keys, NULL-terminated, indexed
 * by their enums; and the end of a bundle's reading.
 */
#ifndef TS_MODEL_H
#define TS_MODEL_H

/* The largest metadata file a reader takes, and so a writer writes. */
#define TS_META_MAX	(16u << 20)

#include <stdbool.h>
#include <stddef.h>

extern const char *const ts_itype_names[];
extern const char *const ts_domain_names[];
extern const char *const ts_sym_names[];
extern const char *const ts_sparsity_names[];
extern const char *const ts_endian_names[];
extern const char *const ts_sorted_names[];
extern const char *const ts_allowed_names[];
extern const char *const ts_srctype_names[];

/* The values the rules of 'time' and 'source_url' take (meta.c): a
 * date that exists, YYYY-MM-DD; empty, or an absolute http(s) URL. */
bool	 ts_valid_date(const char *);
bool	 ts_valid_url(const char *);

/*
 * Metadata of the reference generator's previous profile made 0.1
 * (upgrade.c): text[0..len) of file with a numeric 'id' as a string of
 * four digits, a 0-based 'sort_order' 1-based, and the missing keys
 * that the others tell ('source_url', 'dense_modes', 'block_partitions',
 * 'nnz_block'); each change a note in d, their count in *changes.
 * Malloc'd JSON, or NULL when text is no JSON object.
 */
char	*ts_meta_upgrade(const char *text, size_t len, const char *file,
	    struct ts_diags *d, int *changes);
/* ts_meta_read, the text upgraded first (meta.c). */
struct ts_diags;
struct ts_meta;
struct ts_source;
int	 ts_meta_read_upgraded(struct ts_meta *, struct ts_source *,
	    struct ts_diags *);

/* ts_bundle_open, its metadata upgraded as it is read (bundle.c). */
struct ts_bundle *ts_bundle_open_upgraded(const char *path,
	    struct ts_diags *);

/* A file of a bundle, as an archive packs it (bundle_files.c). */
struct ts_bundle_file {
	char		*name;		/* FILE */
	char		*shown;		/* its path, for messages */
	const char	*left_out;	/* why an archive leaves it out; NULL */
	bool		 named;		/* ... though the metadata names it */
	int		 rank;		/* packed 0-3 first (the metadata, the
					 * README, the text, the binary file),
					 * the others (4) after, by name */
};
struct ts_bundle;
/* The files of bd by name (bytes), n of them in *v, freed with
 * ts_bundle_files_free: 0, or -1 with errno when they cannot be
 * listed. */
int	 ts_bundle_files(struct ts_bundle *, struct ts_bundle_file **v,
	    size_t *n);
void	 ts_bundle_files_free(struct ts_bundle_file *, size_t n);
/* Why an archive leaves fname of bd out ("a symbolic link", "a folder",
 * "a hidden file", "not a regular file", or what
 * ts_file_name_refused says), or NULL. */
const char *ts_bundle_left_out(struct ts_bundle *, const char *fname);
/*
 * May a file of a bundle have the name s (n bytes) in an archive?  NULL
 * when it may; else why not ("a hidden file", "a file whose name holds
 * a control character", ...).  The one policy of both sides: the
 * writer leaves such a file out (ts_bundle_left_out), every reader
 * refuses such a member (ts_member_check).
 */
const char *ts_file_name_refused(const char *s, size_t n);

/*
 * Done reading bd's files: its directory is no longer held (bundle.c),
 * so that a writer that replaces it, this program too, need not wait
 * for it; what is still asked is found by path.
 */
void	 ts_bundle_unhold(struct ts_bundle *bd);

#endif
