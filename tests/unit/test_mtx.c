/*
 * test_mtx.c - unit tests of the Matrix Market reader and writer
 * (src/lib/mtx.c) on the files in tests/data/mtx (provenance in
 * SOURCES.md there) and on small files written here.  Prints TAP; exit
 * status 1 when a test fails.  Data is found under $TS_TOP (set by
 * tests/run.sh), else under the current directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensorsuite.h"
#include "format/mtx.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ts-mtx-XXXXXX";

static const char *
datapath(const char *name)
{
	static char buf[4096];
	const char *top = getenv("TS_TOP");

	snprintf(buf, sizeof(buf), "%s/tests/data/mtx/%s",
	    top != NULL && *top != '\0' ? top : ".", name);
	return buf;
}

/* A whole matrix as read, entries in the order the reader gave them. */
struct mat {
	struct ts_mtx_info info;
	int	 status;	/* 0 read, 1 refused by open, 2 by next */
	size_t	 n, cap;
	uint64_t *rc;		/* row, col per entry (0-based) */
	double	*f;
	int64_t	*iv;
	uint64_t *loc;
	char	**txt;		/* value texts, copied */
	bool	 has_values, is_int;
	bool	 first_ok;	/* every batch's first counted right */
	size_t	 batches;
	struct ts_diags *d;
};

static void
mat_free(struct mat *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->txt[i]);
	free(m->rc);
	free(m->f);
	free(m->iv);
	free(m->loc);
	free(m->txt);
	ts_diags_free(m->d);
	memset(m, 0, sizeof(*m));
}

static void
mat_add(struct mat *m, const struct ts_batch *b, size_t i)
{
	size_t k = m->n;

	if (k == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->rc = realloc(m->rc, m->cap * 2 * sizeof(uint64_t));
		m->f = realloc(m->f, m->cap * sizeof(double));
		m->iv = realloc(m->iv, m->cap * sizeof(int64_t));
		m->loc = realloc(m->loc, m->cap * sizeof(uint64_t));
		m->txt = realloc(m->txt, m->cap * sizeof(char *));
		if (!m->rc || !m->f || !m->iv || !m->loc || !m->txt)
			abort();
	}
	m->rc[2 * k] = b->coords[2 * i];
	m->rc[2 * k + 1] = b->coords[2 * i + 1];
	m->f[k] = b->has_values && !b->is_int ? b->fval[i] : 0;
	m->iv[k] = b->has_values && b->is_int ? b->ival[i] : 0;
	m->loc[k] = b->loc[i];
	m->txt[k] = NULL;
	if (b->has_values && b->vtext != NULL) {
		m->txt[k] = malloc(b->vlen[i] + 1);
		memcpy(m->txt[k], b->vtext[i], b->vlen[i]);
		m->txt[k][b->vlen[i]] = '\0';
	}
	m->n++;
}

/* Read path whole with batches of cap entries. */
static int
mat_read(struct mat *m, const char *path, size_t cap)
{
	static const struct ts_layout mtx = { TS_KIND_MTX, false, -1,
	    TS_VTYPE_FLOAT64, TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct ts_source *src;
	struct ts_decoder *r;
	struct ts_batch b;
	long n;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->d = ts_diags_new(0, false);
	m->first_ok = true;
	if ((src = ts_source_open_file(path)) == NULL) {
		perror(path);
		m->status = 1;
		return -1;
	}
	if ((r = ts_decoder_open(src, &mtx, m->d)) == NULL) {
		ts_source_close(src);
		m->status = 1;
		return -1;
	}
	m->info = *ts_mtx_info(r);
	ts_batch_init(&b, 2, cap);
	while ((n = ts_decoder_next(r, &b)) > 0) {
		if (b.first != m->n || (size_t)n != b.n || b.n > b.cap)
			m->first_ok = false;
		m->has_values = b.has_values;
		m->is_int = b.is_int;
		for (i = 0; i < b.n; i++)
			mat_add(m, &b, i);
		m->batches++;
	}
	m->has_values = b.has_values;
	m->is_int = b.is_int;
	if (n < 0)
		m->status = 2;
	else if (ts_decoder_next(r, &b) != 0)	/* the end stays the end */
		m->first_ok = false;
	ts_batch_free(&b);
	ts_decoder_close(r);
	ts_source_close(src);
	return n < 0 ? -1 : 0;
}

/* Index of entry (i, j) (1-based, as in the file), or -1. */
static long
mat_find(const struct mat *m, uint64_t i, uint64_t j)
{
	size_t k;

	for (k = 0; k < m->n; k++)
		if (m->rc[2 * k] == i - 1 && m->rc[2 * k + 1] == j - 1)
			return (long)k;
	return -1;
}

static bool
same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* Has entry (i, j) (1-based) with a value of exactly this text? */
static bool
has_real(const struct mat *m, uint64_t i, uint64_t j, const char *text)
{
	long k = mat_find(m, i, j);

	return k >= 0 && same_bits(m->f[k], strtod(text, NULL)) &&
	    m->txt[k] != NULL && strcmp(m->txt[k], text) == 0;
}

static bool
has_int(const struct mat *m, uint64_t i, uint64_t j, int64_t v)
{
	long k = mat_find(m, i, j);

	return k >= 0 && m->iv[k] == v;
}

static bool
has(const struct mat *m, uint64_t i, uint64_t j)
{
	return mat_find(m, i, j) >= 0;
}

static void
write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "wb");

	if (fp == NULL || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
		perror(path);
		exit(1);
	}
}

/* Write text to a temporary file and read it; returns its path. */
static const char *
mat_text(struct mat *m, const char *text, size_t cap)
{
	static char path[256];
	static int seq;

	snprintf(path, sizeof(path), "%s/t%d.mtx", tmpdir, seq++);
	write_file(path, text, strlen(text));
	mat_read(m, path, cap);
	return path;
}

/* The first diagnostic's message contains s, at line `line`. */
static bool
diag_is(const struct mat *m, uint64_t line, const char *s)
{
	const struct ts_diag *g = ts_diags_at(m->d, 0);

	return g != NULL && g->sev == TS_SEV_ERROR && g->line == line &&
	    strstr(g->msg, s) != NULL;
}

/* ---- the files in tests/data/mtx ---- */

struct good {
	const char	*name;
	bool		 coordinate;
	enum ts_mtx_field field;
	enum ts_mtx_sym	 sym;
	uint64_t	 rows, cols, stored, entries;
};

static const struct good goods[] = {
	{ "west0067.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 67, 67, 294,
	    294 },
	{ "lp_afiro.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 27, 51, 102,
	    102 },
	{ "bcsstk13.mtx", true, TS_MTX_REAL, TS_MTX_SYMMETRIC, 2003, 2003,
	    42943, 83883 },
	{ "LFAT5.mtx", true, TS_MTX_REAL, TS_MTX_SYMMETRIC, 14, 14, 30, 46 },
	{ "karate.mtx", true, TS_MTX_PATTERN, TS_MTX_SYMMETRIC, 34, 34, 78,
	    156 },
	{ "jagmesh7.mtx", true, TS_MTX_PATTERN, TS_MTX_SYMMETRIC, 1138, 1138,
	    4294, 7450 },
	{ "tols4000.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 4000, 4000, 8784,
	    8784 },
	{ "rbs480a.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 480, 480, 17088,
	    17088 },
	{ "abb313.mtx", true, TS_MTX_PATTERN, TS_MTX_GENERAL, 313, 176, 1557,
	    1557 },
	{ "fmm__array_skew-symmetric.mtx", false, TS_MTX_REAL, TS_MTX_SKEW,
	    3, 3, 3, 6 },
	{ "fmm__dim_over_32_bit.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL,
	    1099511627776ull, 1099511627776ull, 3, 3 },
	{ "fmm__eye3_str.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 3, 3, 3,
	    3 },
	{ "fmm__graphblas_matrix_bool.mtx", true, TS_MTX_REAL,
	    TS_MTX_GENERAL, 3, 1, 4, 4 },
	{ "fmm__nist_ex1_freeformat.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL,
	    5, 5, 8, 8 },
	{ "fmm__overflow_index_gt_int8.mtx", true, TS_MTX_REAL,
	    TS_MTX_GENERAL, 1000, 1000, 1, 1 },
	{ "fmm__permissive_banner_leading_spaces_eye3.mtx", true,
	    TS_MTX_REAL, TS_MTX_GENERAL, 3, 3, 3, 3 },
	{ "fmm__permissive_banner_one_percent_eye3.mtx", true, TS_MTX_REAL,
	    TS_MTX_GENERAL, 3, 3, 3, 3 },
	{ "fmm__permissive_lines_indented.mtx", true, TS_MTX_REAL,
	    TS_MTX_GENERAL, 1, 1, 1, 1 },
	{ "fmm__windows_lineendings_nist_ex1_more_freeformat.mtx", true,
	    TS_MTX_REAL, TS_MTX_GENERAL, 5, 5, 8, 8 },
	{ "lagraph__empty.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 3, 4, 0,
	    0 },
	{ "lagraph__full_symmetric.mtx", false, TS_MTX_REAL,
	    TS_MTX_SYMMETRIC, 4, 4, 10, 16 },
	{ "lagraph__mangled14.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 3, 4,
	    3, 3 },
	{ "lagraph__mangled_skew.mtx", true, TS_MTX_INTEGER, TS_MTX_SKEW, 6,
	    6, 10, 20 },
	{ "lagraph__skew_fp64.mtx", true, TS_MTX_REAL, TS_MTX_SKEW, 6, 6, 10,
	    20 },
	{ "lagraph__skew_int64.mtx", true, TS_MTX_INTEGER, TS_MTX_SKEW, 6, 6,
	    10, 20 },
	{ "lagraph__west0067_jumbled.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL,
	    67, 67, 294, 294 },
	{ "mlir__wide.mtx", true, TS_MTX_INTEGER, TS_MTX_GENERAL, 4, 256, 17,
	    17 },
	{ "mlir__zero.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 5, 5, 0, 0 },
	{ "scipy__symmetric_pattern_example.mtx", true, TS_MTX_PATTERN,
	    TS_MTX_SYMMETRIC, 5, 5, 7, 9 },
	{ "taco__2tensor.mtx", true, TS_MTX_REAL, TS_MTX_GENERAL, 32, 32, 3,
	    3 },
};

/* Entries known from the files (1-based, as written there). */
static void
known_entries(const char *name, const struct mat *m)
{
	if (strcmp(name, "west0067.mtx") == 0)
		ok(has_real(m, 5, 1, "-.2788416") &&
		    has_real(m, 6, 1, "-.2680186") &&
		    has_real(m, 49, 67, "-.2541193") &&
		    has_real(m, 55, 67, "1"), "%s: known entries", name);
	else if (strcmp(name, "lp_afiro.mtx") == 0)
		ok(has_real(m, 3, 1, "1") && has_real(m, 27, 50, "1") &&
		    has_real(m, 16, 51, "1") && m->rc[0] == 2 &&
		    m->rc[1] == 0 && m->loc[0] == 66, "%s: known entries, "
		    "first one from line 66 after 64 comment lines", name);
	else if (strcmp(name, "bcsstk13.mtx") == 0)
		ok(has_real(m, 1, 1, "277281165.183") &&
		    has_real(m, 2, 1, "3101923.80092") &&
		    has_real(m, 1, 2, "3101923.80092") &&
		    has_real(m, 2003, 2002, "-1.86264514923e-9") &&
		    has_real(m, 2002, 2003, "-1.86264514923e-9") &&
		    has_real(m, 2003, 2003, "5552681.3139"),
		    "%s: known entries and their mirrors", name);
	else if (strcmp(name, "LFAT5.mtx") == 0)
		ok(has_real(m, 4, 1, "-94.2528") &&
		    has_real(m, 1, 4, "-94.2528") &&
		    has_real(m, 14, 13, ".78544") &&
		    has_real(m, 13, 14, ".78544"), "%s: known entries and "
		    "their mirrors", name);
	else if (strcmp(name, "karate.mtx") == 0)
		ok(has(m, 2, 1) && has(m, 1, 2) && has(m, 34, 33) &&
		    has(m, 33, 34) && !has(m, 1, 1) && !m->has_values,
		    "%s: known pattern entries and mirrors, no values", name);
	else if (strcmp(name, "jagmesh7.mtx") == 0)
		ok(has(m, 1, 1) && has(m, 1138, 1137) && has(m, 1137, 1138) &&
		    has(m, 1138, 1138), "%s: known entries", name);
	else if (strcmp(name, "tols4000.mtx") == 0)
		ok(has_real(m, 801, 1, "-.20027148E+03") &&
		    has_real(m, 802, 1, "-.58580362E+00") &&
		    has_real(m, 4000, 4000, "-.36294000E+02"),
		    "%s: Fortran-style values", name);
	else if (strcmp(name, "rbs480a.mtx") == 0)
		ok(has_real(m, 1, 1, "-2.20000000E+01") &&
		    has_real(m, 13, 1, "-4.50000000E+01") &&
		    has_real(m, 477, 480, "-5.60000000E+01"),
		    "%s: Fortran E-format values", name);
	else if (strcmp(name, "abb313.mtx") == 0)
		ok(has(m, 4, 1) && has(m, 313, 176) && !has(m, 176, 313),
		    "%s: known entries of a rectangular pattern", name);
	else if (strcmp(name, "fmm__array_skew-symmetric.mtx") == 0)
		ok(m->n == 6 && m->rc[0] == 1 && m->rc[1] == 0 &&
		    has_real(m, 2, 1, "22") && has_real(m, 1, 2, "-22") &&
		    has_real(m, 3, 1, "33") && has_real(m, 1, 3, "-33") &&
		    has_real(m, 3, 2, "44") && has_real(m, 2, 3, "-44"),
		    "%s: the part below the diagonal, column by column, "
		    "mirrors negated", name);
	else if (strcmp(name, "fmm__dim_over_32_bit.mtx") == 0)
		ok(has_real(m, 1099511627775ull, 1099511627775ull, "1"),
		    "%s: index 2^40 - 1", name);
	else if (strcmp(name, "fmm__eye3_str.mtx") == 0)
		ok(has_real(m, 1, 1, "1") && has_real(m, 2, 2, "1.0") &&
		    has_real(m, 3, 3, "1E0") && m->f[2] == 1,
		    "%s: 1, 1.0 and 1E0", name);
	else if (strcmp(name, "fmm__nist_ex1_freeformat.mtx") == 0 ||
	    strcmp(name, "fmm__windows_lineendings_nist_ex1_more_freeformat."
	    "mtx") == 0)
		ok(has_real(m, 3, 3, "1.5e-2") &&
		    has_real(m, 4, 4, "-2.8E2") && has_real(m, 5, 5, "12.") &&
		    has_real(m, 4, 5, "33.32") && m->f[3] == -280,
		    "%s: free-format entries", name);
	else if (strcmp(name, "lagraph__full_symmetric.mtx") == 0)
		ok(m->rc[0] == 0 && m->rc[1] == 0 &&
		    has_real(m, 2, 1, "18.18952178955078") &&
		    has_real(m, 1, 2, "18.18952178955078") &&
		    has_real(m, 4, 4, "3.9635860919952393") &&
		    has_real(m, 3, 4, "19.899736404418945"),
		    "%s: lower triangle by columns, mirrored", name);
	else if (strcmp(name, "lagraph__mangled_skew.mtx") == 0)
		ok(has_int(m, 4, 1, 12) && has_int(m, 1, 4, -12) &&
		    has_int(m, 4, 3, 0) && has_int(m, 3, 4, 0) &&
		    m->is_int, "%s: integer mirrors negated", name);
	else if (strcmp(name, "lagraph__skew_fp64.mtx") == 0)
		ok(has_real(m, 5, 1, "inf") && has_real(m, 1, 5, "-inf") &&
		    has_real(m, 4, 1, "-.12565458736262625") &&
		    has_real(m, 1, 4, ".12565458736262625"),
		    "%s: inf and its mirror -inf, texts negated", name);
	else if (strcmp(name, "lagraph__skew_int64.mtx") == 0)
		ok(has_int(m, 5, 1, INT64_MAX) &&
		    has_int(m, 1, 5, -INT64_MAX) &&
		    has_int(m, 6, 5, -18) && has_int(m, 5, 6, 18),
		    "%s: INT64_MAX and its mirror", name);
	else if (strcmp(name, "mlir__wide.mtx") == 0)
		ok(has_int(m, 1, 1, -1) && has_int(m, 4, 256, -17) &&
		    has_int(m, 1, 127, 2) && m->is_int, "%s: known integer "
		    "entries", name);
	else if (strcmp(name, "scipy__symmetric_pattern_example.mtx") == 0)
		ok(has(m, 4, 2) && has(m, 2, 4) && has(m, 5, 4) &&
		    has(m, 4, 5) && has(m, 1, 1), "%s: mirrors", name);
	else if (strcmp(name, "taco__2tensor.mtx") == 0)
		ok(has_real(m, 1, 1, "101.0") && has_real(m, 6, 3, "307.1") &&
		    m->loc[0] == 7, "%s: values before trailing spaces", name);
	else if (strcmp(name, "fmm__graphblas_matrix_bool.mtx") == 0)
		ok(m->n == 4 && m->rc[4] == 2 && m->rc[6] == 2,
		    "%s: the duplicate (3, 1) is passed on", name);
}

static void
test_good_files(void)
{
	size_t g;

	for (g = 0; g < sizeof(goods) / sizeof(goods[0]); g++) {
		const struct good *e = &goods[g];
		struct mat m;
		int rv = mat_read(&m, datapath(e->name), 4096);

		ok(rv == 0 && ts_diags_len(m.d) == 0 &&
		    m.info.coordinate == e->coordinate &&
		    m.info.field == e->field && m.info.sym == e->sym &&
		    m.info.rows == e->rows && m.info.cols == e->cols &&
		    m.info.stored == e->stored && m.n == e->entries &&
		    m.first_ok &&
		    m.has_values == (e->field != TS_MTX_PATTERN) &&
		    m.is_int == (e->field == TS_MTX_INTEGER),
		    "%s: read, %llu x %llu, %llu stored, %llu entries", e->name,
		    (unsigned long long)e->rows, (unsigned long long)e->cols,
		    (unsigned long long)e->stored,
		    (unsigned long long)e->entries);
		if (rv != 0 || ts_diags_len(m.d) > 0)
			ts_diags_print(m.d, stdout, NULL);
		known_entries(e->name, &m);
		mat_free(&m);
	}
}

struct bad {
	const char	*name;
	int		 stage;		/* 1 open, 2 next */
	uint64_t	 line;
	const char	*msg;		/* part of the message */
};

static const struct bad bads[] = {
	{ "fmm__array_hermitian.mtx", 1, 1, "no complex value type" },
	{ "fmm__coordinate_hermitian_real_row.mtx", 1, 1, "hermitian" },
	{ "fmm__invalid_bad_banner.mtx", 1, 1, "not a Matrix Market file" },
	{ "fmm__invalid_bad_banner_2.mtx", 1, 1, "not a Matrix Market file" },
	{ "fmm__invalid_bad_field.mtx", 1, 1, "unknown field" },
	{ "fmm__invalid_bad_format.mtx", 1, 1, "unknown format" },
	{ "fmm__invalid_bad_object.mtx", 1, 1, "unknown object" },
	{ "fmm__invalid_bad_symmetry.mtx", 1, 1, "unknown symmetry" },
	{ "fmm__invalid_bad_value.mtx", 1, 1, "unknown field 'double'" },
	{ "fmm__invalid_dimensions_out_of_range_1.mtx", 1, 3, "negative" },
	{ "fmm__invalid_indices_out_of_range_1.mtx", 2, 5,
	    "row index 5000 is out of range 1..7" },
	{ "fmm__invalid_indices_out_of_range_3.mtx", 2, 5,
	    "row index 0 is out of range" },
	{ "fmm__invalid_indices_out_of_range_5.mtx", 2, 5,
	    "row index '-1' is not positive" },
	{ "fmm__invalid_matrix_coord_too_long.mtx", 2, 7,
	    "more entries than the 3" },
	{ "fmm__invalid_symmetry_vector.mtx", 1, 1, "'vector' objects" },
	{ "fmm__invalid_truncated_header_1.mtx", 1, 2,
	    "ends before the size line" },
	{ "fmm__invalid_truncated_header_2.mtx", 1, 1,
	    "banner ends before the symmetry" },
	{ "fmm__invalid_truncated_line_1.mtx", 2, 5,
	    "line ends before the value" },
	{ "fmm__invalid_truncated_lines.mtx", 1, 1, "unknown field 'double'" },
	{ "fmm__longdouble_coordinate.mtx", 2, 4,
	    "'1E310' is beyond the range of a double" },
	{ "fmm__matrix_coordinate_complex_hermitian.mtx", 1, 1,
	    "no complex value type" },
	{ "fmm__matrix_coordinate_real_general.mtx.gz", 1, 1, "gzip" },
	{ "fmm__overflow_dim_gt_int64.mtx", 1, 2, "does not fit in 64 bits" },
	{ "fmm__overflow_index_gt_int64.mtx", 2, 6,
	    "does not fit in 64 bits" },
	{ "fmm__overflow_value_gt_float128.mtx", 2, 4,
	    "beyond the range of a double" },
	{ "fmm__overflow_value_gt_int64.mtx", 2, 6,
	    "beyond the range of a 64-bit integer" },
	{ "fmm__skew-symmetric_with_diagonal.mtx", 2, 6,
	    "diagonal entry (3, 3)" },
	{ "fmm__vector_array.mtx", 1, 1, "'vector' objects" },
	{ "fmm__vector_coordinate.mtx", 1, 1, "'vector' objects" },
	{ "fmm__vector_coordinate_dupes.mtx", 1, 1, "'vector' objects" },
	{ "fmm__windows_newlines_cr_only.mtx", 1, 1,
	    "bare carriage return" },
	{ "lagraph__complex.mtx", 1, 1, "no complex value type" },
	{ "lagraph__full_noheader.mtx", 1, 1, "no banner" },
	{ "lagraph__mangled1.mtx", 1, 1, "unknown object 'mangled'" },
	{ "lagraph__mangled10.mtx", 2, 6, "ends after 2 of the 3 entries" },
	{ "lagraph__mangled11.mtx", 2, 5, "column index 'zero'" },
	{ "lagraph__mangled13.mtx", 2, 7, "column index 9999" },
	{ "lagraph__mangled15.mtx", 2, 5, "unexpected '.959'" },
	{ "lagraph__mangled5.mtx", 1, 1, "hermitian" },
	{ "lagraph__mangled6.mtx", 1, 1, "hermitian" },
	{ "lagraph__mangled8.mtx", 1, 4, "this one has 1 number" },
	{ "lagraph__mangled9.mtx", 1, 4, "must be square" },
	{ "lagraph__mangled_format.mtx", 1, 1, "'array pattern'" },
	{ "lagraph__full_noheader.mtx", 1, 1, "no banner" },
	{ "cholmod__3by0.mtx", 1, 2, "dimension 2 is 0" },
	{ "scipy__64bit_integer_sparse_skew.mtx", 2, 3,
	    "diagonal entry (1, 1)" },
	{ "scipy__bad_array_header_fields.mtx", 1, 2,
	    "this one has 3 numbers" },
	{ "scipy__bad_coordinate_header_fields.mtx", 1, 2,
	    "this one has 4 numbers" },
	{ "scipy__gh11389_complex_symmetric_no_newline.mtx", 1, 1,
	    "no complex value type" },
	{ "scipy__hermitian_example.mtx", 1, 1, "no complex value type" },
	{ "scipy__over64bit_integer_dense.mtx", 2, 6,
	    "'9223372036854775808' is beyond the range" },
	{ "scipy__over64bit_integer_sparse.mtx", 2, 4,
	    "beyond the range of a 64-bit integer" },
	{ "scipy__skew_example_with_diagonal.mtx", 2, 3,
	    "diagonal entry (1, 1)" },
};

static void
test_bad_files(void)
{
	size_t k;

	for (k = 0; k < sizeof(bads) / sizeof(bads[0]); k++) {
		const struct bad *e = &bads[k];
		struct mat m;
		int rv = mat_read(&m, datapath(e->name), 4096);

		ok(rv == -1 && m.status == e->stage && diag_is(&m, e->line,
		    e->msg) && ts_diags_count(m.d, TS_SEV_ERROR) == 1, "%s: "
		    "refused by %s at line %llu: %s", e->name, e->stage == 1 ?
		    "open" : "next", (unsigned long long)e->line, e->msg);
		if (!(rv == -1 && m.status == e->stage && diag_is(&m, e->line,
		    e->msg)))
			ts_diags_print(m.d, stdout, NULL);
		mat_free(&m);
	}
}

/* ---- values against strtod ---- */

/*
 * Read the file line by line with stdio and strtod/strtoull, the slow
 * obvious way, and compare every entry (and mirror) with what the reader
 * gave: coordinates, value bits, value text, line number.
 */
static void
test_strtod(const char *name)
{
	char line[1024], *p, *q;
	struct mat m;
	FILE *fp;
	uint64_t ln = 0;
	size_t k = 0, bad = 0, stored = 0;
	bool header = true, sym;

	mat_read(&m, datapath(name), 4096);
	sym = m.info.sym == TS_MTX_SYMMETRIC;
	if ((fp = fopen(datapath(name), "r")) == NULL) {
		ok(0, "%s: open for strtod", name);
		mat_free(&m);
		return;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long i, j;
		double v;

		ln++;
		p = line + strspn(line, " \t");
		if (*p == '%' || *p == '\n')
			continue;
		if (header) {
			header = false;	/* the size line */
			continue;
		}
		i = strtoull(p, &p, 10);
		j = strtoull(p, &p, 10);
		p += strspn(p, " \t");
		q = p;
		v = strtod(p, &p);
		*p = '\0';
		stored++;
		if (k >= m.n || m.rc[2 * k] != i - 1 ||
		    m.rc[2 * k + 1] != j - 1 || !same_bits(m.f[k], v) ||
		    strcmp(m.txt[k], q) != 0 || m.loc[k] != ln)
			bad++;
		k++;
		if (sym && i != j) {
			if (k >= m.n || m.rc[2 * k] != j - 1 ||
			    m.rc[2 * k + 1] != i - 1 || !same_bits(m.f[k], v) ||
			    strcmp(m.txt[k], q) != 0 || m.loc[k] != ln)
				bad++;
			k++;
		}
	}
	fclose(fp);
	ok(bad == 0 && k == m.n && stored == m.info.stored && m.n > 0,
	    "%s: all %zu values are bit-identical to strtod of the same token "
	    "(%zu mismatches)", name, stored, bad);
	mat_free(&m);
}

/* Reading with any batch size gives the same entries and texts. */
static void
test_batch_sizes(const char *name)
{
	static const size_t caps[] = { 1, 2, 3, 5, 64 };
	struct mat ref, m;
	size_t c, k;

	mat_read(&ref, datapath(name), 4096);
	for (c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		bool same;

		mat_read(&m, datapath(name), caps[c]);
		same = m.status == 0 && m.n == ref.n && m.first_ok;
		for (k = 0; same && k < m.n; k++)
			same = m.rc[2 * k] == ref.rc[2 * k] &&
			    m.rc[2 * k + 1] == ref.rc[2 * k + 1] &&
			    same_bits(m.f[k], ref.f[k]) &&
			    m.iv[k] == ref.iv[k] && m.loc[k] == ref.loc[k] &&
			    (m.txt[k] == NULL ? ref.txt[k] == NULL :
			    strcmp(m.txt[k], ref.txt[k]) == 0);
		ok(same, "%s: batches of %zu give the same %zu entries as "
		    "batches of 4096", name, caps[c], ref.n);
		mat_free(&m);
	}
	mat_free(&ref);
}

/* ---- the writer ---- */

/* The Matrix Market writer: the generic encoder on a descriptor. */
struct mtxw {
	struct ts_sink		*k;
	struct ts_encoder	*e;
	struct ts_header	 h;
};

static struct mtxw *
mtxw_open(int fd, uint64_t rows, uint64_t cols, uint64_t nnz,
    enum ts_mtx_field field, const char *comment, enum ts_mtx_sym sym)
{
	struct ts_encode_opts eo = { .valfmt = TS_VALFMT_SHORTEST,
	    .name = "m", .comment = comment, .mtx_sym = (int)sym };
	struct ts_layout l = { TS_KIND_MTX, false, field != TS_MTX_PATTERN,
	    field == TS_MTX_INTEGER ? TS_VTYPE_INT64 : TS_VTYPE_FLOAT64,
	    TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct mtxw *w = calloc(1, sizeof(*w));

	w->h.order = 2;
	w->h.dims[0] = rows;
	w->h.dims[1] = cols;
	w->h.nnz = nnz;
	w->k = ts_sink_open_fd(fd, "w", false);
	w->e = ts_encoder_open(w->k, &w->h, &l, &eo, NULL);
	return w;
}

static int
mtxw_put(struct mtxw *w, const struct ts_batch *b)
{
	return ts_encoder_put(w->e, b);
}

static int
mtxw_close(struct mtxw *w)
{
	int rv = ts_encoder_close(w->e), e = errno;

	ts_sink_commit(w->k);
	free(w);
	errno = e;
	return rv;
}


/* Write m with the writer to path; returns the close status. */
static int
mat_write(const struct mat *m, const char *path, enum ts_mtx_field field,
    const char *comment, size_t cap, enum ts_mtx_sym sym, uint64_t nnz)
{
	struct mtxw *w;
	struct ts_batch b;
	size_t k = 0, i;
	int fd, rv = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return -1;
	w = mtxw_open(fd, m->info.rows, m->info.cols, nnz, field,
	    comment, sym);
	ts_batch_init(&b, 2, cap);
	b.has_values = m->has_values;
	b.is_int = m->is_int;
	while (k < m->n) {
		for (i = 0; i < cap && k < m->n; i++, k++) {
			b.coords[2 * i] = m->rc[2 * k];
			b.coords[2 * i + 1] = m->rc[2 * k + 1];
			b.fval[i] = m->f[k];
			b.ival[i] = m->iv[k];
		}
		b.n = i;
		if (mtxw_put(w, &b) != 0)
			rv = -1;
	}
	if (mtxw_close(w) != 0)
		rv = -1;
	ts_batch_free(&b);
	close(fd);
	return rv;
}

/* A symmetric or skew-symmetric file, read (expanded) and written as
 * such: the lower triangle, which reads back to the same entries in the
 * same order. */
static void
test_symmetric_write(const char *name, enum ts_mtx_field field)
{
	char path[256];
	struct mat a, c;
	size_t k;
	bool same;

	snprintf(path, sizeof(path), "%s/sym-%s", tmpdir, name);
	mat_read(&a, datapath(name), 4096);
	ok(mat_write(&a, path, field, NULL, 1000, a.info.sym, a.info.stored)
	    == 0, "%s: written %s, %llu of %zu entries", name,
	    a.info.sym == TS_MTX_SKEW ? "skew-symmetric" : "symmetric",
	    (unsigned long long)a.info.stored, a.n);
	mat_read(&c, path, 4096);
	same = c.status == 0 && c.n == a.n && c.info.sym == a.info.sym &&
	    c.info.stored == a.info.stored;
	for (k = 0; same && k < a.n; k++)
		same = c.rc[2 * k] == a.rc[2 * k] && c.rc[2 * k + 1] ==
		    a.rc[2 * k + 1] && same_bits(c.f[k], a.f[k]) &&
		    c.iv[k] == a.iv[k];
	ok(same, "%s: read back, the same entries in the same order", name);
	mat_free(&a);
	mat_free(&c);
}

/* No triangle of a matrix that is not square, nor a pattern
 * skew-symmetric one: refused. */
static void
test_symmetric_refused(void)
{
	char path[256];
	int fd;
	struct mtxw *w, *v;

	snprintf(path, sizeof(path), "%s/sym-refused", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	errno = 0;
	w = mtxw_open(fd, 2, 3, 0, TS_MTX_REAL, NULL, TS_MTX_SYMMETRIC);
	v = mtxw_open(fd, 2, 2, 0, TS_MTX_PATTERN, NULL, TS_MTX_SKEW);
	ok(w->e == NULL && v->e == NULL && errno == EINVAL, "no symmetric "
	    "2 x 3 file, no pattern skew-symmetric one: refused (EINVAL)");
	ts_sink_abort(w->k);
	ts_sink_abort(v->k);
	free(w);
	free(v);
	close(fd);
}

static void
test_roundtrip(const char *name, enum ts_mtx_field field)
{
	char path[256], head[256];
	struct mat a, c;
	size_t k;
	bool same;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/rt-%s", tmpdir, name);
	mat_read(&a, datapath(name), 4096);
	ok(mat_write(&a, path, field, "written by test_mtx\n two lines", 1000,
	    TS_MTX_GENERAL, a.n) == 0, "%s: written back", name);
	mat_read(&c, path, 4096);
	same = c.status == 0 && ts_diags_len(c.d) == 0 && c.n == a.n &&
	    c.info.rows == a.info.rows && c.info.cols == a.info.cols &&
	    c.info.stored == a.n && c.info.field == field &&
	    c.info.sym == TS_MTX_GENERAL && c.info.coordinate;
	for (k = 0; same && k < a.n; k++)
		same = c.rc[2 * k] == a.rc[2 * k] &&
		    c.rc[2 * k + 1] == a.rc[2 * k + 1] &&
		    same_bits(c.f[k], a.f[k]) && c.iv[k] == a.iv[k];
	ok(same, "%s: read back as %s general, %zu entries with the same "
	    "coordinates and value bits", name, field == TS_MTX_REAL ?
	    "real" : field == TS_MTX_INTEGER ? "integer" : "pattern", a.n);
	head[0] = '\0';
	if ((fp = fopen(path, "r")) != NULL) {
		n = fread(head, 1, sizeof(head) - 1, fp);
		head[n] = '\0';
		fclose(fp);
	}
	ok(strncmp(head, "%%MatrixMarket matrix coordinate ", 33) == 0 &&
	    strstr(head, " general\n%written by test_mtx\n% two lines\n") !=
	    NULL, "%s: banner and comment lines", name);
	mat_free(&a);
	mat_free(&c);
}

static void
test_writer_errors(void)
{
	struct mtxw *w;
	struct ts_batch b;
	char path[256];
	int fd, rv, e;

	ts_batch_init(&b, 2, 4);
	b.n = 1;
	b.coords[0] = 0;
	b.coords[1] = 0;
	b.fval[0] = 1.5;
	b.has_values = true;
	b.is_int = false;

	snprintf(path, sizeof(path), "%s/w.mtx", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = mtxw_open(fd, 2, 2, 2, TS_MTX_REAL, NULL,
	    TS_MTX_GENERAL);
	rv = mtxw_put(w, &b);
	errno = 0;
	ok(rv == 0 && mtxw_close(w) == -1 && errno == EINVAL,
	    "writer: closing after 1 of 2 announced entries is EINVAL");
	close(fd);

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = mtxw_open(fd, 2, 2, 1, TS_MTX_INTEGER, NULL,
	    TS_MTX_GENERAL);
	errno = 0;
	rv = mtxw_put(w, &b);
	e = errno;
	b.coords[1] = 2;
	b.is_int = true;
	b.ival[0] = 7;
	ok(rv == -1 && e == EINVAL && mtxw_put(w, &b) == -1 &&
	    errno == EINVAL, "writer: float values for an integer file and a "
	    "column outside the size are refused");
	b.coords[1] = 1;
	ok(mtxw_put(w, &b) == 0 && mtxw_put(w, &b) == -1 &&
	    mtxw_close(w) == 0, "writer: no more entries than "
	    "announced");
	close(fd);

	if ((fd = open("/dev/full", O_WRONLY)) >= 0) {
		w = mtxw_open(fd, 2, 2, 1, TS_MTX_INTEGER, "x",
	    TS_MTX_GENERAL);
		rv = mtxw_put(w, &b);
		errno = 0;
		ok(rv == 0 && mtxw_close(w) == -1 && errno == ENOSPC,
		    "writer: a failed write(2) is returned (ENOSPC on "
		    "/dev/full)");
		close(fd);
	} else
		ok(1, "writer: /dev/full # SKIP not available");
	ts_batch_free(&b);
}

/* ---- small files written here ---- */

static void
test_small(void)
{
	struct mat m;
	char *big;
	size_t n, k;

	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "3 3 2\n1 1 1\n2 1 not_a_double\n", 64);
	ok(m.status == 2 && diag_is(&m, 4, "'not_a_double' is not a number") &&
	    ts_diags_at(m.d, 0)->col == 5, "a real value that is not a number: refused "
	    "at 4:5");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "3 3 1\n1 1 1.0D+03\n", 64);
	ok(m.status == 2 && diag_is(&m, 3, "Fortran D exponent"),
	    "a Fortran D exponent: refused, saying so");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate real symmetric\n"
	    "3 3 2\n1 2 5\n3 3 -.5\n", 64);
	ok(m.status == 0 && m.n == 3 && m.rc[0] == 0 && m.rc[1] == 1 &&
	    m.rc[2] == 1 && m.rc[3] == 0 && m.f[1] == 5 && m.f[2] == -0.5,
	    "symmetric: an entry above the diagonal is taken and mirrored "
	    "(as scipy.io.mmread)");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate integer skew-symmetric\n"
	    "3 3 4\n2 1 +5\n3 1 -9223372036854775807\n3 3 0\n"
	    "3 2 -9223372036854775808\n", 1);
	ok(m.status == 2 && m.n == 5 && strcmp(m.txt[0], "+5") == 0 &&
	    strcmp(m.txt[1], "-5") == 0 && m.iv[1] == -5 &&
	    strcmp(m.txt[3], "9223372036854775807") == 0 &&
	    m.iv[3] == INT64_MAX && m.iv[4] == 0 &&
	    diag_is(&m, 6, "no negation in 64 bits"), "skew-symmetric "
	    "integers: mirror texts negated, a zero diagonal taken, "
	    "INT64_MIN refused");
	mat_free(&m);

	mat_text(&m, "%%matrixmarket matrix coordinate real general\n", 64);
	ok(m.status == 1 && diag_is(&m, 1, "not a Matrix Market file"),
	    "the word MatrixMarket is matched exactly, as fmm does");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket Matrix ARRAY Integer GENERAL\r\n"
	    "% comment\r\n\r\n2 3\r\n1\r\n2\r\n3\r\n4\r\n5\r\n6", 4);
	ok(m.status == 0 && m.n == 6 && m.is_int && m.rc[0] == 0 &&
	    m.rc[1] == 0 && m.rc[2] == 1 && m.rc[3] == 0 && m.rc[4] == 0 &&
	    m.rc[5] == 1 && m.rc[10] == 1 && m.rc[11] == 2 && m.iv[5] == 6 &&
	    m.info.header_lines == 4 && m.loc[5] == 10, "array general: "
	    "column-major positions; keywords in any case; CRLF; no final "
	    "newline");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix array real general\n"
	    "8589934592 8589934592\n", 64);
	ok(m.status == 1 && diag_is(&m, 2, "more than 2^64 values"),
	    "array: rows * cols beyond 2^64 refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix array real general\n"
	    "2 1\n1\n2\n3\n", 64);
	ok(m.status == 2 && diag_is(&m, 5, "more values than the 2"),
	    "array: too many values refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate pattern "
	    "skew-symmetric\n2 2 1\n2 1\n", 64);
	ok(m.status == 1 && diag_is(&m, 1, "'pattern skew-symmetric'"),
	    "pattern skew-symmetric refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate real general extra\n"
	    "1 1 0\n", 64);
	ok(m.status == 1 && diag_is(&m, 1, "unexpected 'extra'"),
	    "a fifth word in the banner refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "2 2 2\n1 1 1\r2 2 2\n", 64);
	ok(m.status == 2 && diag_is(&m, 3, "bare \\r"),
	    "a bare CR between entries refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate pattern general\n"
	    "2 2 1\n1 1 1\n", 64);
	ok(m.status == 2 && diag_is(&m, 3, "an entry line is 'row column'"),
	    "a value in a pattern file refused");
	mat_free(&m);

	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "0 0 0\n", 64);
	ok(m.status == 1 && diag_is(&m, 2, "dimension 1 is 0") &&
	    ts_diags_at(m.d, 0)->col == 1,
	    "a 0 x 0 matrix is refused at its size line");
	mat_free(&m);
	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "3 0 0\n", 64);
	ok(m.status == 1 && diag_is(&m, 2, "dimension 2 is 0; TensorSuite "
	    "dimensions are positive") && ts_diags_at(m.d, 0)->col == 3,
	    "a 3 x 0 matrix is refused at the column of its 0");
	mat_free(&m);
	mat_text(&m, "%%MatrixMarket matrix coordinate real general\n"
	    "0 4 0\n", 64);
	ok(m.status == 1 && diag_is(&m, 2, "dimension 1 is 0"),
	    "a 0 x 4 matrix is refused");
	mat_free(&m);

	mat_text(&m, "67 67 2\n1 1 0.5\n67 2 -1\n", 64);
	ok(m.status == 0 && m.n == 2 && m.info.rows == 67 &&
	    ts_diags_len(m.d) == 1 && ts_diags_at(m.d, 0)->sev == TS_SEV_NOTE &&
	    strstr(ts_diags_at(m.d, 0)->msg, "no %%MatrixMarket banner") !=
	    NULL, "no banner, a size line whose count matches: read as "
	    "coordinate real general, with a note");
	mat_free(&m);
	mat_text(&m, "67 67 3\n1 1 0.5\n67 2 -1\n", 64);
	ok(m.status == 2 && ts_diags_len(m.d) == 2 &&
	    ts_diags_at(m.d, 1)->line == 3 && strstr(ts_diags_at(m.d, 1)->msg,
	    "the file has no banner: --from frostt reads it as FROSTT") !=
	    NULL, "no banner, a size line whose "
	    "count does not match: refused, naming --from frostt");
	mat_free(&m);
	mat_text(&m, "67 67\n1 1 0.5\n", 64);
	ok(m.status == 1 && diag_is(&m, 1, "no banner") &&
	    diag_is(&m, 1, "--from frostt"), "no banner and no size line of "
	    "three numbers: refused");
	mat_free(&m);

	mat_text(&m, "", 64);
	ok(m.status == 1 && diag_is(&m, 1, "empty file"), "an empty file "
	    "refused");
	mat_free(&m);

	/* A comment line longer than the read buffer makes it grow. */
	n = 600000;
	big = malloc(n + 200);
	strcpy(big, "%%MatrixMarket matrix coordinate real general\n%");
	k = strlen(big);
	memset(big + k, 'x', n);
	strcpy(big + k + n, "\n1 1 1\n1 1 7.25\n");
	mat_text(&m, big, 64);
	ok(m.status == 0 && m.n == 1 && m.f[0] == 7.25 && m.loc[0] == 4,
	    "a 600 kB comment line is skipped");
	mat_free(&m);
	free(big);
}

/* Many entries with random values: crosses buffer refills. */
static void
test_generated(void)
{
	char path[256];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct mat m;
	FILE *fp;
	size_t k, bad = 0, n = 200000;
	double *want;

	snprintf(path, sizeof(path), "%s/gen.mtx", tmpdir);
	want = malloc(n * sizeof(double));
	fp = fopen(path, "w");
	fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n"
	    "1000 1000 %zu\n", n);
	for (k = 0; k < n; k++) {
		char tok[64];
		uint64_t u;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		u = x;
		switch (k % 4) {
		case 0:
			snprintf(tok, sizeof(tok), "%.17g",
			    (double)(u >> 11) * 0x1p-53 - 0.5);
			break;
		case 1:
			snprintf(tok, sizeof(tok), "%.8E",
			    (double)(u >> 20) * 1e-9);
			break;
		case 2: {
			double d;

			memcpy(&d, &u, sizeof(d));
			if (d != d)
				d = 0.125;
			snprintf(tok, sizeof(tok), "%.17g", d);
			break;
		}
		default:
			snprintf(tok, sizeof(tok), "-.%u",
			    (unsigned)(u % 1000));
			break;
		}
		want[k] = strtod(tok, NULL);
		fprintf(fp, "%u %u %s\n", (unsigned)(u % 1000) + 1,
		    (unsigned)((u >> 32) % 1000) + 1, tok);
	}
	fclose(fp);
	mat_read(&m, path, 4096);
	for (k = 0; k < m.n && k < n; k++)
		if (!same_bits(m.f[k], want[k]))
			bad++;
	ok(m.status == 0 && m.n == n && bad == 0, "%zu generated values "
	    "(%%.17g, %%.8E, any bits, -.ddd) match strtod bit for bit", n);
	mat_free(&m);
	free(want);
}

/* The comments a decoder on path keeps (malloc'd, "" when none), and
 * their length. */
static char *
comments_of(const char *path, size_t *len)
{
	static const struct ts_layout mtx = { TS_KIND_MTX, false, -1,
	    TS_VTYPE_FLOAT64, TS_ITYPE_UINT64, TS_ENDIAN_NONE, 1 };
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_source *src = ts_source_open_file(path);
	struct ts_decoder *r = src ? ts_decoder_open(src, &mtx, d) : NULL;
	const struct ts_header *h = r ? ts_decoder_header(r) : NULL;
	char *c = strdup(h && h->comments ? h->comments : "");

	*len = h ? h->comments_len : 0;
	ts_decoder_close(r);
	ts_source_close(src);
	ts_diags_free(d);
	return c;
}

/* The lines of a file before its size line that start with '%' after
 * blanks, but the banner, each ended by '\n' (malloc'd). */
static char *
comment_lines(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[4096], *all = calloc(1, 1 << 20);
	size_t n = 0, k;

	while (fp != NULL && fgets(line, sizeof(line), fp) != NULL) {
		k = strspn(line, " \t");
		if (line[k] != '%' && line[k] != '\n')
			break;
		if (line[k] != '%' || strncmp(line + k, "%%MatrixMarket", 14)
		    == 0)
			continue;
		k = strlen(line);
		memcpy(all + n, line, k);
		n += k;
	}
	if (fp != NULL)
		fclose(fp);
	return all;
}

static void
test_comments(void)
{
	static const char *const files[] = { "LFAT5.mtx", "lp_afiro.mtx",
	    "karate.mtx", "taco__2tensor.mtx", "lagraph__west0067_jumbled.mtx",
	    "abb313.mtx" };
	char path[256], *got, *want;
	size_t i, n, k;
	FILE *fp;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		got = comments_of(datapath(files[i]), &n);
		want = comment_lines(datapath(files[i]));
		ok(strcmp(got, want) == 0 && n == strlen(want), "%s: the "
		    "header's comment lines are kept as written (%zu bytes)",
		    files[i], strlen(want));
		free(got);
		free(want);
	}
	/* A header of 1 MiB of comments: the first 64 KiB, whole lines. */
	snprintf(path, sizeof(path), "%s/comments.mtx", tmpdir);
	fp = fopen(path, "w");
	fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n");
	for (k = 0; k < 65536; k++)
		fprintf(fp, "%% line %08zu\n", k);
	fprintf(fp, "1 1 1\n1 1 2.5\n");
	fclose(fp);
	got = comments_of(path, &n);
	ok(n == strlen(got) && n <= TS_COMMENTS_MAX && n > TS_COMMENTS_MAX -
	    16 && n % 16 == 0 && strncmp(got, "% line 00000000\n", 16) == 0,
	    "a header of 1 MiB of comments: its first %zu bytes are kept, "
	    "whole lines", n);
	free(got);
}

int
main(void)
{
	char cmd[128];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_good_files();
	test_comments();
	test_bad_files();
	test_strtod("west0067.mtx");
	test_strtod("lp_afiro.mtx");
	test_strtod("tols4000.mtx");
	test_strtod("rbs480a.mtx");
	test_strtod("bcsstk13.mtx");
	test_batch_sizes("bcsstk13.mtx");
	test_batch_sizes("lagraph__skew_fp64.mtx");
	test_batch_sizes("karate.mtx");
	test_batch_sizes("lagraph__full_symmetric.mtx");
	test_roundtrip("lp_afiro.mtx", TS_MTX_REAL);
	test_roundtrip("bcsstk13.mtx", TS_MTX_REAL);
	test_roundtrip("mlir__wide.mtx", TS_MTX_INTEGER);
	test_roundtrip("abb313.mtx", TS_MTX_PATTERN);
	test_symmetric_write("bcsstk13.mtx", TS_MTX_REAL);
	test_symmetric_write("karate.mtx", TS_MTX_PATTERN);
	test_symmetric_write("lagraph__skew_fp64.mtx", TS_MTX_REAL);
	test_symmetric_write("lagraph__skew_int64.mtx", TS_MTX_INTEGER);
	test_symmetric_refused();
	test_writer_errors();
	test_small();
	test_generated();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		ok(0, "remove %s", tmpdir);
	return tap_done();
}
