/*
 * lalib.h - libarchive, loaded when an archive, a compressed stream or
 * a zip is first read or written (lalib.c, util/dlib.h) rather than
 * linked: it and what it pulls in (libxml2, ICU, nettle, liblzma,
 * libbz2, liblz4, libacl) cost every run of every tool 4 ms of dynamic
 * linking, where a bundle of plain files never needs it.
 *
 * Included after <archive.h> and <archive_entry.h> by the files that
 * call libarchive (archive/archive_read.c, archive/archive_write.c,
 * io/compress.c, io/decompress.c, format/zip.c): its calls go through
 * the table ts_la, filled by ts_la_load, which each of them calls
 * before it makes an archive object.  Internal to libtensorsuite.
 */
#ifndef TS_UTIL_LALIB_H
#define TS_UTIL_LALIB_H

#include <archive.h>
#include <archive_entry.h>

/* The functions of libarchive called. */
#define TS_LA_FUNCS(X) \
	X(archive_entry_filetype) X(archive_entry_free) \
	X(archive_entry_hardlink) X(archive_entry_mtime) \
	X(archive_entry_mtime_is_set) X(archive_entry_new) \
	X(archive_entry_pathname) X(archive_entry_perm) \
	X(archive_entry_set_filetype) X(archive_entry_set_gid) \
	X(archive_entry_set_mtime) X(archive_entry_set_pathname) \
	X(archive_entry_set_perm) X(archive_entry_set_size) \
	X(archive_entry_set_uid) X(archive_entry_size) \
	X(archive_entry_size_is_set) X(archive_entry_sparse_count) \
	X(archive_entry_symlink) X(archive_errno) X(archive_error_string) \
	X(archive_filter_code) X(archive_filter_count) X(archive_read_data) \
	X(archive_read_free) X(archive_read_new) X(archive_read_next_header) \
	X(archive_read_open) X(archive_read_open1) \
	X(archive_read_open_filename) X(archive_read_set_callback_data) \
	X(archive_read_set_format_option) \
	X(archive_read_set_read_callback) X(archive_read_set_seek_callback) \
	X(archive_read_set_skip_callback) X(archive_read_support_filter_all) \
	X(archive_read_support_format_raw) \
	X(archive_read_support_format_tar) \
	X(archive_read_support_format_zip_seekable) X(archive_set_error) \
	X(archive_write_add_filter_by_name) X(archive_write_close) \
	X(archive_write_data) X(archive_write_free) X(archive_write_header) \
	X(archive_write_new) X(archive_write_open) X(archive_write_open2) \
	X(archive_write_set_bytes_in_last_block) \
	X(archive_write_set_bytes_per_block) \
	X(archive_write_set_filter_option) \
	X(archive_write_set_format_option) \
	X(archive_write_set_format_pax_restricted) \
	X(archive_write_set_format_raw) X(archive_write_set_format_zip) \
	X(archive_write_set_options)

struct ts_la_api {
#define TS_LA_FN(name)	__typeof__(name) *p_##name;
	TS_LA_FUNCS(TS_LA_FN)
#undef TS_LA_FN
};

extern struct ts_la_api ts_la;

/*
 * libarchive loaded (once, whatever the thread) and the table filled:
 * 0, or -1 with errno ELIBACC (ts_dl_error says why:
 * "libarchive.so.13: cannot open shared object file: ...").
 */
int		 ts_la_load(void);

/* The name it is loaded by. */
extern const char ts_la_soname[];

/* Every name below, from here on, is the table's. */
#undef archive_entry_filetype
#define archive_entry_filetype (*ts_la.p_archive_entry_filetype)
#undef archive_entry_free
#define archive_entry_free (*ts_la.p_archive_entry_free)
#undef archive_entry_hardlink
#define archive_entry_hardlink (*ts_la.p_archive_entry_hardlink)
#undef archive_entry_mtime
#define archive_entry_mtime (*ts_la.p_archive_entry_mtime)
#undef archive_entry_mtime_is_set
#define archive_entry_mtime_is_set (*ts_la.p_archive_entry_mtime_is_set)
#undef archive_entry_new
#define archive_entry_new (*ts_la.p_archive_entry_new)
#undef archive_entry_pathname
#define archive_entry_pathname (*ts_la.p_archive_entry_pathname)
#undef archive_entry_perm
#define archive_entry_perm (*ts_la.p_archive_entry_perm)
#undef archive_entry_set_filetype
#define archive_entry_set_filetype (*ts_la.p_archive_entry_set_filetype)
#undef archive_entry_set_gid
#define archive_entry_set_gid (*ts_la.p_archive_entry_set_gid)
#undef archive_entry_set_mtime
#define archive_entry_set_mtime (*ts_la.p_archive_entry_set_mtime)
#undef archive_entry_set_pathname
#define archive_entry_set_pathname (*ts_la.p_archive_entry_set_pathname)
#undef archive_entry_set_perm
#define archive_entry_set_perm (*ts_la.p_archive_entry_set_perm)
#undef archive_entry_set_size
#define archive_entry_set_size (*ts_la.p_archive_entry_set_size)
#undef archive_entry_set_uid
#define archive_entry_set_uid (*ts_la.p_archive_entry_set_uid)
#undef archive_entry_size
#define archive_entry_size (*ts_la.p_archive_entry_size)
#undef archive_entry_size_is_set
#define archive_entry_size_is_set (*ts_la.p_archive_entry_size_is_set)
#undef archive_entry_sparse_count
#define archive_entry_sparse_count (*ts_la.p_archive_entry_sparse_count)
#undef archive_entry_symlink
#define archive_entry_symlink (*ts_la.p_archive_entry_symlink)
#undef archive_errno
#define archive_errno (*ts_la.p_archive_errno)
#undef archive_error_string
#define archive_error_string (*ts_la.p_archive_error_string)
#undef archive_filter_code
#define archive_filter_code (*ts_la.p_archive_filter_code)
#undef archive_filter_count
#define archive_filter_count (*ts_la.p_archive_filter_count)
#undef archive_read_data
#define archive_read_data (*ts_la.p_archive_read_data)
#undef archive_read_free
#define archive_read_free (*ts_la.p_archive_read_free)
#undef archive_read_new
#define archive_read_new (*ts_la.p_archive_read_new)
#undef archive_read_next_header
#define archive_read_next_header (*ts_la.p_archive_read_next_header)
#undef archive_read_open
#define archive_read_open (*ts_la.p_archive_read_open)
#undef archive_read_open1
#define archive_read_open1 (*ts_la.p_archive_read_open1)
#undef archive_read_open_filename
#define archive_read_open_filename (*ts_la.p_archive_read_open_filename)
#undef archive_read_set_callback_data
#define archive_read_set_callback_data (*ts_la.p_archive_read_set_callback_data)
#undef archive_read_set_format_option
#define archive_read_set_format_option (*ts_la.p_archive_read_set_format_option)
#undef archive_read_set_read_callback
#define archive_read_set_read_callback (*ts_la.p_archive_read_set_read_callback)
#undef archive_read_set_seek_callback
#define archive_read_set_seek_callback (*ts_la.p_archive_read_set_seek_callback)
#undef archive_read_set_skip_callback
#define archive_read_set_skip_callback (*ts_la.p_archive_read_set_skip_callback)
#undef archive_read_support_filter_all
#define archive_read_support_filter_all (*ts_la.p_archive_read_support_filter_all)
#undef archive_read_support_format_raw
#define archive_read_support_format_raw (*ts_la.p_archive_read_support_format_raw)
#undef archive_read_support_format_tar
#define archive_read_support_format_tar (*ts_la.p_archive_read_support_format_tar)
#undef archive_read_support_format_zip_seekable
#define archive_read_support_format_zip_seekable (*ts_la.p_archive_read_support_format_zip_seekable)
#undef archive_set_error
#define archive_set_error (*ts_la.p_archive_set_error)
#undef archive_write_add_filter_by_name
#define archive_write_add_filter_by_name (*ts_la.p_archive_write_add_filter_by_name)
#undef archive_write_close
#define archive_write_close (*ts_la.p_archive_write_close)
#undef archive_write_data
#define archive_write_data (*ts_la.p_archive_write_data)
#undef archive_write_free
#define archive_write_free (*ts_la.p_archive_write_free)
#undef archive_write_header
#define archive_write_header (*ts_la.p_archive_write_header)
#undef archive_write_new
#define archive_write_new (*ts_la.p_archive_write_new)
#undef archive_write_open
#define archive_write_open (*ts_la.p_archive_write_open)
#undef archive_write_open2
#define archive_write_open2 (*ts_la.p_archive_write_open2)
#undef archive_write_set_bytes_in_last_block
#define archive_write_set_bytes_in_last_block (*ts_la.p_archive_write_set_bytes_in_last_block)
#undef archive_write_set_bytes_per_block
#define archive_write_set_bytes_per_block (*ts_la.p_archive_write_set_bytes_per_block)
#undef archive_write_set_filter_option
#define archive_write_set_filter_option (*ts_la.p_archive_write_set_filter_option)
#undef archive_write_set_format_option
#define archive_write_set_format_option (*ts_la.p_archive_write_set_format_option)
#undef archive_write_set_format_pax_restricted
#define archive_write_set_format_pax_restricted (*ts_la.p_archive_write_set_format_pax_restricted)
#undef archive_write_set_format_raw
#define archive_write_set_format_raw (*ts_la.p_archive_write_set_format_raw)
#undef archive_write_set_format_zip
#define archive_write_set_format_zip (*ts_la.p_archive_write_set_format_zip)
#undef archive_write_set_options
#define archive_write_set_options (*ts_la.p_archive_write_set_options)

#endif
