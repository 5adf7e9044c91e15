/*
 * h5lib.h - libhdf5, loaded when a .bsp.h5 file is first read or
 * written (h5lib.c) rather than linked: the library and the thirty it
 * pulls in (libcurl, libcrypto's TLS, Kerberos, LDAP, ICU) cost every
 * run of every tool 10 ms of dynamic linking, and a program that never
 * meets an HDF5 file now runs without libhdf5 installed.
 *
 * Included after <hdf5.h> by the one file that calls libhdf5
 * (bsp_h5.c): its calls and the type and class identifiers it names
 * (H5T_NATIVE_INT64, H5P_DATASET_CREATE, ...) go through the table
 * ts_h5, filled by ts_h5_load.  Internal to libtensorsuite.
 */
#ifndef TS_H5LIB_H
#define TS_H5LIB_H

#include <hdf5.h>

/* The functions of libhdf5 called, and its variables read. */
#define TS_H5_FUNCS(X) \
	X(H5open) X(H5check_version) X(H5Aclose) X(H5Acreate2) X(H5Aexists) \
	X(H5Aget_space) X(H5Aget_type) X(H5Aopen) X(H5Aread) X(H5Awrite) \
	X(H5Dclose) X(H5Dcreate2) X(H5Dget_create_plist) X(H5Dget_space) \
	X(H5Dget_type) X(H5Dopen2) X(H5Dread) X(H5Dwrite) X(H5Eset_auto2) \
	X(H5Fclose) X(H5Fcreate) X(H5Fis_hdf5) X(H5Fopen) X(H5Lexists) \
	X(H5Pclose) X(H5Pcreate) X(H5Pget_layout) X(H5Pget_nfilters) \
	X(H5Pset_chunk) X(H5Pset_chunk_cache) X(H5Pset_fill_time) \
	X(H5Pset_obj_track_times) X(H5Sclose) X(H5Screate) \
	X(H5Screate_simple) X(H5Sget_simple_extent_dims) \
	X(H5Sget_simple_extent_ndims) X(H5Sget_simple_extent_npoints) \
	X(H5Sselect_hyperslab) X(H5Tclose) X(H5Tcopy) X(H5Tget_class) \
	X(H5Tget_cset) X(H5Tget_sign) X(H5Tget_size) X(H5Tis_variable_str) \
	X(H5Tset_cset) X(H5Tset_size) X(H5free_memory)

#define TS_H5_VARS(X) \
	X(H5T_NATIVE_INT32_g) X(H5T_NATIVE_UINT32_g) X(H5T_NATIVE_INT64_g) \
	X(H5T_NATIVE_UINT64_g) X(H5T_NATIVE_FLOAT_g) X(H5T_NATIVE_DOUBLE_g) \
	X(H5T_STD_I32LE_g) X(H5T_STD_U32LE_g) X(H5T_STD_I64LE_g) \
	X(H5T_STD_U64LE_g) X(H5T_IEEE_F32LE_g) X(H5T_IEEE_F64LE_g) \
	X(H5T_C_S1_g) X(H5P_CLS_FILE_CREATE_ID_g) \
	X(H5P_CLS_DATASET_CREATE_ID_g) X(H5P_CLS_DATASET_ACCESS_ID_g)

struct ts_h5_api {
#define TS_H5_FN(name)	__typeof__(name) *p_##name;
#define TS_H5_VAR(name)	hid_t *p_##name;
	TS_H5_FUNCS(TS_H5_FN)
	TS_H5_VARS(TS_H5_VAR)
#undef TS_H5_FN
#undef TS_H5_VAR
};

extern struct ts_h5_api ts_h5;

/*
 * libhdf5 loaded (once, whatever the thread) and initialised, and the
 * table filled: NULL, or why not ("libhdf5_serial.so.103: cannot open
 * shared object file: ...").
 */
const char	*ts_h5_load(void);

/* The name it is loaded by. */
extern const char ts_h5_soname[];

/* Every name below, from here on, is the table's. */
#undef H5open
#define H5open (*ts_h5.p_H5open)
#undef H5check_version
#define H5check_version (*ts_h5.p_H5check_version)
#undef H5Aclose
#define H5Aclose (*ts_h5.p_H5Aclose)
#undef H5Acreate2
#define H5Acreate2 (*ts_h5.p_H5Acreate2)
#undef H5Aexists
#define H5Aexists (*ts_h5.p_H5Aexists)
#undef H5Aget_space
#define H5Aget_space (*ts_h5.p_H5Aget_space)
#undef H5Aget_type
#define H5Aget_type (*ts_h5.p_H5Aget_type)
#undef H5Aopen
#define H5Aopen (*ts_h5.p_H5Aopen)
#undef H5Aread
#define H5Aread (*ts_h5.p_H5Aread)
#undef H5Awrite
#define H5Awrite (*ts_h5.p_H5Awrite)
#undef H5Dclose
#define H5Dclose (*ts_h5.p_H5Dclose)
#undef H5Dcreate2
#define H5Dcreate2 (*ts_h5.p_H5Dcreate2)
#undef H5Dget_create_plist
#define H5Dget_create_plist (*ts_h5.p_H5Dget_create_plist)
#undef H5Dget_space
#define H5Dget_space (*ts_h5.p_H5Dget_space)
#undef H5Dget_type
#define H5Dget_type (*ts_h5.p_H5Dget_type)
#undef H5Dopen2
#define H5Dopen2 (*ts_h5.p_H5Dopen2)
#undef H5Dread
#define H5Dread (*ts_h5.p_H5Dread)
#undef H5Dwrite
#define H5Dwrite (*ts_h5.p_H5Dwrite)
#undef H5Eset_auto2
#define H5Eset_auto2 (*ts_h5.p_H5Eset_auto2)
#undef H5Fclose
#define H5Fclose (*ts_h5.p_H5Fclose)
#undef H5Fcreate
#define H5Fcreate (*ts_h5.p_H5Fcreate)
#undef H5Fis_hdf5
#define H5Fis_hdf5 (*ts_h5.p_H5Fis_hdf5)
#undef H5Fopen
#define H5Fopen (*ts_h5.p_H5Fopen)
#undef H5Lexists
#define H5Lexists (*ts_h5.p_H5Lexists)
#undef H5Pclose
#define H5Pclose (*ts_h5.p_H5Pclose)
#undef H5Pcreate
#define H5Pcreate (*ts_h5.p_H5Pcreate)
#undef H5Pget_layout
#define H5Pget_layout (*ts_h5.p_H5Pget_layout)
#undef H5Pget_nfilters
#define H5Pget_nfilters (*ts_h5.p_H5Pget_nfilters)
#undef H5Pset_chunk
#define H5Pset_chunk (*ts_h5.p_H5Pset_chunk)
#undef H5Pset_chunk_cache
#define H5Pset_chunk_cache (*ts_h5.p_H5Pset_chunk_cache)
#undef H5Pset_fill_time
#define H5Pset_fill_time (*ts_h5.p_H5Pset_fill_time)
#undef H5Pset_obj_track_times
#define H5Pset_obj_track_times (*ts_h5.p_H5Pset_obj_track_times)
#undef H5Sclose
#define H5Sclose (*ts_h5.p_H5Sclose)
#undef H5Screate
#define H5Screate (*ts_h5.p_H5Screate)
#undef H5Screate_simple
#define H5Screate_simple (*ts_h5.p_H5Screate_simple)
#undef H5Sget_simple_extent_dims
#define H5Sget_simple_extent_dims (*ts_h5.p_H5Sget_simple_extent_dims)
#undef H5Sget_simple_extent_ndims
#define H5Sget_simple_extent_ndims (*ts_h5.p_H5Sget_simple_extent_ndims)
#undef H5Sget_simple_extent_npoints
#define H5Sget_simple_extent_npoints (*ts_h5.p_H5Sget_simple_extent_npoints)
#undef H5Sselect_hyperslab
#define H5Sselect_hyperslab (*ts_h5.p_H5Sselect_hyperslab)
#undef H5Tclose
#define H5Tclose (*ts_h5.p_H5Tclose)
#undef H5Tcopy
#define H5Tcopy (*ts_h5.p_H5Tcopy)
#undef H5Tget_class
#define H5Tget_class (*ts_h5.p_H5Tget_class)
#undef H5Tget_cset
#define H5Tget_cset (*ts_h5.p_H5Tget_cset)
#undef H5Tget_sign
#define H5Tget_sign (*ts_h5.p_H5Tget_sign)
#undef H5Tget_size
#define H5Tget_size (*ts_h5.p_H5Tget_size)
#undef H5Tis_variable_str
#define H5Tis_variable_str (*ts_h5.p_H5Tis_variable_str)
#undef H5Tset_cset
#define H5Tset_cset (*ts_h5.p_H5Tset_cset)
#undef H5Tset_size
#define H5Tset_size (*ts_h5.p_H5Tset_size)
#undef H5free_memory
#define H5free_memory (*ts_h5.p_H5free_memory)
#define H5T_NATIVE_INT32_g (*ts_h5.p_H5T_NATIVE_INT32_g)
#define H5T_NATIVE_UINT32_g (*ts_h5.p_H5T_NATIVE_UINT32_g)
#define H5T_NATIVE_INT64_g (*ts_h5.p_H5T_NATIVE_INT64_g)
#define H5T_NATIVE_UINT64_g (*ts_h5.p_H5T_NATIVE_UINT64_g)
#define H5T_NATIVE_FLOAT_g (*ts_h5.p_H5T_NATIVE_FLOAT_g)
#define H5T_NATIVE_DOUBLE_g (*ts_h5.p_H5T_NATIVE_DOUBLE_g)
#define H5T_STD_I32LE_g (*ts_h5.p_H5T_STD_I32LE_g)
#define H5T_STD_U32LE_g (*ts_h5.p_H5T_STD_U32LE_g)
#define H5T_STD_I64LE_g (*ts_h5.p_H5T_STD_I64LE_g)
#define H5T_STD_U64LE_g (*ts_h5.p_H5T_STD_U64LE_g)
#define H5T_IEEE_F32LE_g (*ts_h5.p_H5T_IEEE_F32LE_g)
#define H5T_IEEE_F64LE_g (*ts_h5.p_H5T_IEEE_F64LE_g)
#define H5T_C_S1_g (*ts_h5.p_H5T_C_S1_g)
#define H5P_CLS_FILE_CREATE_ID_g (*ts_h5.p_H5P_CLS_FILE_CREATE_ID_g)
#define H5P_CLS_DATASET_CREATE_ID_g (*ts_h5.p_H5P_CLS_DATASET_CREATE_ID_g)
#define H5P_CLS_DATASET_ACCESS_ID_g (*ts_h5.p_H5P_CLS_DATASET_ACCESS_ID_g)

#endif
