/*
 * mtx.h - what a Matrix Market file says of itself beyond what every
 * decoder says (order 2, dimensions, values or not, their type): its
 * banner and the count of its size line.  Internal to libtensorsuite;
 * the unit tests read it.
 */
#ifndef TS_MTX_H
#define TS_MTX_H

#include <stdbool.h>
#include <stdint.h>

#include "tensorsuite.h"

enum ts_mtx_field { TS_MTX_REAL, TS_MTX_INTEGER, TS_MTX_PATTERN,
	TS_MTX_COMPLEX };
enum ts_mtx_sym { TS_MTX_GENERAL, TS_MTX_SYMMETRIC, TS_MTX_SKEW,
	TS_MTX_HERMITIAN };

struct ts_mtx_info {
	bool		 coordinate;	/* false: array */
	enum ts_mtx_field field;
	enum ts_mtx_sym	 sym;
	uint64_t	 rows, cols;
	uint64_t	 stored;	/* entries in the file (size line) */
	uint64_t	 header_lines;	/* banner, comments, size line */
};

/* The banner and size line of a Matrix Market decoder; NULL for a
 * decoder of another format. */
const struct ts_mtx_info *ts_mtx_info(const struct ts_decoder *);

#endif
