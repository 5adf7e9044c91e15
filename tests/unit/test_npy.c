/*
 * test_npy.c - unit tests of NumPy's .npy header (src/lib/format/npy.c),
 * the zip container of .npz files (zip.c) and the binsparse descriptor
 * (binsparse.c): what is written parses back to itself, every header
 * numpy writes for the types read is read, and each malformation is an
 * error at its place.  Prints TAP; exit status 1 when a test fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tensorsuite.h"
#include "format/binsparse.h"
#include "format/npy.h"
#include "tap.h"

/* A header as numpy would write it: prefix v1.0, dict d, padded. */
static size_t
mkhdr(unsigned char *buf, int version, const char *d)
{
	size_t pre = version == 1 ? 10 : 12, len = strlen(d), total;

	total = (pre + len + 1 + 63) / 64 * 64;
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)version;
	buf[7] = 0;
	buf[8] = (unsigned char)((total - pre) & 0xff);
	buf[9] = (unsigned char)((total - pre) >> 8);
	if (pre == 12)
		buf[10] = buf[11] = 0;
	memcpy(buf + pre, d, len);
	memset(buf + pre + len, ' ', total - pre - len - 1);
	buf[total - 1] = '\n';
	return total;
}

static void
test_header_roundtrip(void)
{
	static const uint64_t shapes[][3] = { { 0 }, { 7 }, { 3, 5 },
	    { 2, 0, 4 } };
	char buf[TS_NPY_HDRMAX];
	struct ts_npy a;
	struct ts_npy_err e;
	int t, s, i;
	size_t n;
	bool good;

	for (t = TS_NPY_BOOL; t <= TS_NPY_BYTES; t++)
		for (s = 0; s < 4; s++) {
			n = ts_npy_header(buf, sizeof(buf), (enum ts_npy_type)t,
			    12, s, shapes[s]);
			good = n > 0 && n % 64 == 0 && ts_npy_parse(
			    (unsigned char *)buf, n, &a, &e) == 0 &&
			    a.type == (enum ts_npy_type)t && a.ndim == s &&
			    !a.fortran && !a.big && a.data_off == n;
			for (i = 0; good && i < s; i++)
				good = a.shape[i] == shapes[s][i];
			ok(good, "header of %s, %d dimensions, reads back",
			    ts_npy_type_name((enum ts_npy_type)t), s);
		}
	n = ts_npy_header(buf, sizeof(buf), TS_NPY_UNICODE, 40, 0, NULL);
	ok(n > 0 && ts_npy_parse((unsigned char *)buf, n, &a, &e) == 0 &&
	    a.itemsize == 40 && a.count == 1 && a.bytes == 40,
	    "a 0-d '<U10' array: one item of 40 bytes");
	n = ts_npy_header(buf, sizeof(buf), TS_NPY_BOOL, 0, 1, shapes[1]);
	ok(n == 128 && memcmp(buf, "\x93NUMPY\x01\x00\x76\x00{'descr': '|b1', "
	    "'fortran_order': False, 'shape': (7,), }     ", 68) == 0 &&
	    buf[127] == '\n', "written as numpy writes it: '|b1', (7,)");
}

static void
test_header_numpy(void)
{
	/* Headers as numpy 1.x and 2.x write them (np.save). */
	static const struct {
		const char *d;
		enum ts_npy_type t;
		int ndim;
		bool big, fortran;
	} ok_cases[] = {
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
		    TS_NPY_INT32, 1, false, false },
		{ "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
		    TS_NPY_FLOAT64, 2, false, true },
		{ "{'descr': '>u8', 'fortran_order': False, 'shape': (), }",
		    TS_NPY_UINT64, 0, true, false },
		{ "{'shape': (5,), 'descr': '|b1', 'fortran_order': False}",
		    TS_NPY_BOOL, 1, false, false },
		{ "{\"descr\":\"<f4\",\"fortran_order\":False,\"shape\":(1,)}",
		    TS_NPY_FLOAT32, 1, false, false },
		{ "{'descr': '|u1', 'fortran_order': False, 'shape': (4L,), }",
		    TS_NPY_UINT8, 1, false, false },
		{ "{'descr': '<U7', 'fortran_order': False, 'shape': (), }",
		    TS_NPY_UNICODE, 0, false, false },
		{ "{'descr': '|S3', 'fortran_order': False, 'shape': (), }",
		    TS_NPY_BYTES, 0, false, false },
	};
	unsigned char buf[512];
	struct ts_npy a;
	struct ts_npy_err e;
	size_t i, n;
	int v;

	for (v = 1; v <= 3; v++)
		for (i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
			n = mkhdr(buf, v, ok_cases[i].d);
			ok(ts_npy_parse(buf, n, &a, &e) == 0 && a.type ==
			    ok_cases[i].t && a.ndim == ok_cases[i].ndim &&
			    a.big == ok_cases[i].big && a.fortran ==
			    ok_cases[i].fortran && a.version == v,
			    "version %d.0 header %s", v, ok_cases[i].d);
		}
}

static void
test_header_bad(void)
{
	/* Each error at the first byte of its marker in the dictionary. */
	static const struct {
		const char *d, *at, *msg;
	} bad[] = {
		{ "{'descr': '<i4', 'fortran_order': False}", "}",
		    "no 'shape'" },
		{ "{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, "
		    "'shape': (1,)}", " 'descr': '<i4', 'f", "twice" },
		{ "{'descr': '<c16', 'fortran_order': False, 'shape': (1,)}",
		    "'<", "not a type read" },
		{ "{'descr': '<f2', 'fortran_order': False, 'shape': (1,)}",
		    "'<", "not a type read" },
		{ "{'descr': [('a', '<i4')], 'fortran_order': False, "
		    "'shape': (1,)}", "[", "structured" },
		{ "{'descr': '<i4', 'fortran_order': 0, 'shape': (1,)}", "0",
		    "True or False" },
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': [1]}", "[",
		    "'(' expected" },
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': (1,-2)}",
		    "-", "a dimension" },
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': "
		    "(99999999999999999999,)}", "9,", "too large" },
		{ "{'descr': '<i8', 'fortran_order': False, 'shape': "
		    "(4294967296, 4294967296)}", "(", "overflows" },
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), "
		    "'x': 1}", " 'x'", "none of" },
		{ "{'descr': '<i4', 'fortran_order': False, 'shape': (1,)} x",
		    "x", "after the dictionary" },
		{ "['descr']", "[", "no dictionary" },
	};
	unsigned char buf[512];
	struct ts_npy a;
	struct ts_npy_err e;
	uint64_t want;
	size_t i, n;
	int r;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = mkhdr(buf, 1, bad[i].d);
		want = 10 + (uint64_t)(strstr(bad[i].d, bad[i].at) - bad[i].d) +
		    (bad[i].at[0] == ' ' || bad[i].at[0] == ',' ? 1 : 0);
		r = ts_npy_parse(buf, n, &a, &e);
		ok(r == -1 && e.off == want && strstr(e.msg, bad[i].msg) !=
		    NULL, "bad header %s: at byte %llu, '%s' (got %llu, '%s')",
		    bad[i].d, (unsigned long long)want, bad[i].msg,
		    (unsigned long long)e.off, e.msg);
	}
	n = mkhdr(buf, 1, "{'descr': '<i4', 'fortran_order': False, "
	    "'shape': (1,)}");
	buf[n - 1] = ' ';
	ok(ts_npy_parse(buf, n, &a, &e) == -1 && e.off == n - 1 &&
	    strstr(e.msg, "newline") != NULL, "a header without its newline");
	ok(ts_npy_parse(buf, 30, &a, &e) == -1 && e.off == 30 && strstr(e.msg,
	    "ends in its header") != NULL, "a truncated header");
	buf[6] = 4;
	ok(ts_npy_parse(buf, n, &a, &e) == -1 && e.off == 6 && strstr(e.msg,
	    "version 4.0") != NULL, "version 4.0");
	buf[3] = 'X';
	ok(ts_npy_parse(buf, n, &a, &e) == -1 && e.off == 3 && strstr(e.msg,
	    "magic") != NULL, "a bad magic, at its byte");
	buf[3] = 'M';
	buf[6] = 2;
	buf[10] = 0xff;
	ok(ts_npy_parse(buf, n, &a, &e) == -1 && e.off == 8 && strstr(e.msg,
	    "too large") != NULL, "a header length over the limit");
	ok(ts_npy_parse(buf, 5, &a, &e) == -1 && e.off == 5,
	    "an array shorter than its magic");
}

static void
test_utf32(void)
{
	const char *s = "{\"a\": \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}";
	struct ts_npy_err e;
	unsigned char *u, bad[8] = { 'a', 0, 0, 0, 0, 0xd8, 0, 0 };
	uint64_t n;
	char *back;

	u = ts_npy_utf8_to_utf32(s, &n);
	back = u != NULL ? ts_npy_utf32_to_utf8(u, n, false, &e) : NULL;
	ok(u != NULL && n == 12 && back != NULL && strcmp(back, s) == 0,
	    "UTF-8 to UTF-32LE and back");
	free(u);
	free(back);
	ok(ts_npy_utf8_to_utf32("\xc3", &n) == NULL &&
	    ts_npy_utf8_to_utf32("\xc0\xaf", &n) == NULL,
	    "UTF-8 cut short or overlong is refused");
	ok(ts_npy_utf32_to_utf8(bad, 2, false, &e) == NULL && e.off == 4,
	    "a surrogate in UTF-32 is an error at its offset");
}

static void
test_zip(void)
{
	char path[] = "/tmp/ts-npy-XXXXXX";
	const char *names[] = { "a.npy", "b.npy" };
	char big[100000], got[100000], other[10], **list;
	int64_t *sizes;
	struct ts_npy_err e;
	struct ts_zip_out *zo;
	struct ts_source *src;
	struct ts_sink *k;
	struct ts_zip *z[2];
	long n, r;
	size_t i, total;
	int fd, d, j;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 % 251);
	for (d = 0; d < 2; d++) {
		fd = mkstemp(path);
		close(fd);
		k = ts_sink_open(path, TS_SINK_FORCE);
		zo = ts_zip_out_new(k, d);
		for (j = 0; j < 2; j++) {
			ts_zip_add_begin(zo, names[j], sizeof(big) - (size_t)j);
			ts_zip_add_data(zo, big + j, sizeof(big) - (size_t)j);
		}
		ok(ts_zip_out_finish(zo, NULL) == 0 && ts_sink_commit(k) == 0,
		    "a zip of two members written (%s)", d ? "deflate" :
		    "store");
		src = ts_source_open_file(path);
		n = ts_zip_list(src, &list, &sizes, &e);
		ok(n == 2 && strcmp(list[0], "a.npy") == 0 &&
		    strcmp(list[1], "b.npy") == 0 && sizes[0] == sizeof(big) &&
		    sizes[1] == sizeof(big) - 1, "its members listed");
		for (i = 0; i < (size_t)(n > 0 ? n : 0); i++)
			free(list[i]);
		free(list);
		free(sizes);
		/* Both read at once, in turns. */
		z[0] = ts_zip_open(src, "a.npy", true, &e);
		z[1] = ts_zip_open(src, "b.npy", true, &e);
		total = 0;
		while (z[0] != NULL && (r = ts_zip_read(z[0], got + total,
		    1000, &e)) > 0) {
			total += (size_t)r;
			ts_zip_read(z[1], other, sizeof(other), &e);
		}
		ok(total == sizeof(big) && memcmp(got, big, total) == 0,
		    "a member read back while another is read");
		ts_zip_close(z[0]);
		ts_zip_close(z[1]);
		ok(ts_zip_open(src, "c.npy", true, &e) == NULL && strstr(e.msg,
		    "no member 'c.npy'") != NULL, "a missing member");
		ts_source_close(src);
		unlink(path);
	}
	src = ts_source_open_mem("PK\3\4 not a zip", 15, "x.npz");
	ok(ts_zip_list(src, &list, &sizes, &e) == -1 && e.off == 0,
	    "a file that is no zip: '%s'", e.msg);
	ts_source_close(src);
}

/* The CRC-32 of n zero bytes, by doubling. */
static uint32_t
zeros_crc(uint64_t n)
{
	static const unsigned char z[4096];
	uLong c = crc32(0, z, sizeof(z)), r = crc32(0, NULL, 0);
	uint64_t len = sizeof(z);

	/* n a multiple of 4096: its bits, low to high, each a block of
	 * zeros twice the one before. */
	for (n /= sizeof(z); n > 0; n >>= 1) {
		if (n & 1)
			r = crc32_combine(r, c, (z_off_t)len);
		c = crc32_combine(c, c, (z_off_t)len);
		len *= 2;
	}
	return (uint32_t)r;
}

/*
 * A zip past 4 GiB (zip64: the members' sizes and offsets, the end of
 * its directory) written into a file, a member's 4 GiB placed in it as
 * the writers of .npz place their arrays (a hole: zeros), its sum given:
 * every member's sum put in place, as libarchive's reader checks them.
 */
static void
test_zip64_sums(void)
{
	char path[] = "/tmp/ts-npy64-XXXXXX";
	const uint64_t big = (uint64_t)4 << 30;
	char small[100], got[100], **list;
	unsigned char *buf = malloc(1 << 20);
	int64_t *sizes;
	struct ts_npy_err e;
	struct ts_zip_out *zo;
	struct ts_source *src;
	struct ts_sink *k;
	struct ts_zip *z;
	uint64_t total = 0, size = 0;
	long n = -1, r;
	int fd, rv, i;

	for (i = 0; i < (int)sizeof(small); i++)
		small[i] = (char)(i * 13 % 251);
	fd = mkstemp(path);
	close(fd);
	k = ts_sink_open(path, TS_SINK_FORCE);
	zo = ts_zip_out_new(k, false);
	rv = zo == NULL || !ts_zip_out_sums(zo) ||
	    ts_zip_add_begin(zo, "a.npy", sizeof(small)) != 0 ||
	    ts_zip_add_data(zo, small, sizeof(small)) != 0 ||
	    ts_zip_add_begin(zo, "big.npy", 10 + big) != 0 ||
	    ts_zip_add_data(zo, small, 10) != 0 ||
	    ts_zip_add_placed(zo, zeros_crc(big), big) != 0 ||
	    ts_zip_add_begin(zo, "c.npy", sizeof(small) - 1) != 0 ||
	    ts_zip_add_data(zo, small + 1, sizeof(small) - 1) != 0 ||
	    ts_zip_out_finish(zo, &size) != 0 || ts_sink_commit(k) != 0;
	ok(rv == 0 && size > big, "a zip of 4 GiB and more written, a "
	    "member placed in its file (%llu bytes)", (unsigned long long)
	    size);
	src = ts_source_open_file(path);
	if (rv == 0)
		n = ts_zip_list(src, &list, &sizes, &e);
	ok(n == 3 && sizes[1] == (int64_t)(10 + big) && strcmp(list[2],
	    "c.npy") == 0, "its members listed by libarchive's reader");
	for (i = 0; i < (int)n; i++)
		free(list[i]);
	if (n >= 0) {
		free(list);
		free(sizes);
	}
	/* Each read to its end: a sum not the data's is an error there. */
	z = ts_zip_open(src, "c.npy", true, &e);
	r = z != NULL ? ts_zip_read(z, got, sizeof(got), &e) : -1;
	ok(r == (long)sizeof(small) - 1 && memcmp(got, small + 1, (size_t)r)
	    == 0 && ts_zip_read(z, got, sizeof(got), &e) == 0,
	    "the member past 4 GiB read back, its sum right");
	ts_zip_close(z);
	z = ts_zip_open(src, "big.npy", true, &e);
	while (z != NULL && (r = ts_zip_read(z, buf, 1 << 20, &e)) > 0)
		total += (uint64_t)r;
	ok(z != NULL && r == 0 && total == 10 + big, "the placed member of "
	    "4 GiB read back, its sum right (%s)", r < 0 ? e.msg : "");
	ts_zip_close(z);
	ts_source_close(src);
	unlink(path);
	free(buf);
}

static void
test_bsp_write(void)
{
	struct ts_meta m;
	struct ts_bsp b, r;
	struct ts_diags *d = ts_diags_new(0, false);
	static const int perm[3] = { 2, 0, 1 };
	char *text;

	ts_meta_init(&m);
	m.order = 3;
	m.dims[0] = 4, m.dims[1] = 5, m.dims[2] = 6;
	m.value_type = TS_VTYPE_INT32;
	m.index_type = TS_ITYPE_UINT32;
	m.values_provided = true;
	m.have = TS_HAVE_ORDER | TS_HAVE_DIMS | TS_HAVE_VTYPE | TS_HAVE_ITYPE |
	    TS_HAVE_VALUES;
	ts_bsp_of_meta(&b, &m, 9, perm);
	text = ts_bsp_write(&b, &m);
	ok(strstr(text, "\"format\": \"custom\"") != NULL && strstr(text,
	    "\"level_desc\": \"sparse\"") != NULL && strstr(text,
	    "\"transpose\"") != NULL && strstr(text, "\"values\": \"int32\"") !=
	    NULL && strstr(text, "\"indices_2\": \"uint32\"") != NULL,
	    "order 3: custom, sparse over element, transpose, types");
	ok(ts_bsp_parse(&r, text, strlen(text), "t", d) == 0 && r.order == 3 &&
	    r.nnz == 9 && r.shape[2] == 6 && r.perm[0] == 2 && r.perm[1] == 0 &&
	    r.vtype == TS_NPY_INT32 && r.itype[1] == TS_NPY_UINT32 && !r.iso &&
	    r.attrs == NULL, "and reads back; metadata that would not read "
	    "back whole (no id, no time) is not written beside it");
	ts_bsp_free(&r);
	free(text);
	m.order = 2;
	m.values_provided = false;
	ts_bsp_of_meta(&b, &m, 9, NULL);
	text = ts_bsp_write(&b, NULL);
	ok(strstr(text, "\"format\": \"COO\"") != NULL && strstr(text,
	    "\"values\": \"iso[int32]\"") != NULL && strstr(text,
	    "transpose") == NULL, "order 2: COO; value-less: iso");
	ok(ts_bsp_parse(&r, text, strlen(text), "t", d) == 0 && r.iso &&
	    r.attrs == NULL, "and reads back");
	free(text);
	b.perm[0] = 1, b.perm[1] = 0;
	text = ts_bsp_write(&b, NULL);
	ok(strstr(text, "\"COOC\"") != NULL && ts_bsp_parse(&r, text,
	    strlen(text), "t", d) == 0 && r.perm[0] == 1, "COOC, both ways");
	free(text);
	ok(ts_diags_errors(d) == 0, "no error said");
	ts_diags_free(d);
	ts_meta_free(&m);
}

static void
test_bsp_lenient(void)
{
	static const char *const good[] = {
		/* the Python reference: bare, format custom, custom beside */
		"{\"version\": \"0.1\", \"format\": \"custom\", \"custom\": "
		"{\"level\": {\"level_desc\": \"sparse\", \"rank\": 3, "
		"\"level\": {\"level_desc\": \"element\"}}}, \"shape\": [2, 3, "
		"4], \"number_of_stored_values\": 1, \"data_types\": "
		"{\"indices_0\": \"int64\", \"indices_1\": \"int64\", "
		"\"indices_2\": \"int64\", \"values\": \"float64\"}}",
		/* the C reference's tensors: no format, version 0.1.0 */
		"{\"binsparse\": {\"version\": \"0.1.0\", \"custom\": "
		"{\"transpose\": [0, 1, 2], \"level\": {\"level_desc\": "
		"\"sparse\", \"rank\": 3, \"level\": {\"level_desc\": "
		"\"element\"}}}, \"shape\": [2, 3, 4], "
		"\"number_of_stored_values\": 1, \"data_types\": "
		"{\"indices_0\": \"uint8\", \"indices_1\": \"uint16\", "
		"\"indices_2\": \"uint64\", \"values\": \"iso[bint8]\"}}}",
		/* format as an object holding custom */
		"{\"binsparse\": {\"version\": \"0.1\", \"format\": {\"custom\": "
		"{\"level\": {\"level_desc\": \"sparse\", \"rank\": 3, "
		"\"level\": {\"level_desc\": \"element\"}}}}, \"shape\": [2, 3, "
		"4], \"number_of_stored_values\": 1, \"data_types\": "
		"{\"indices_0\": \"int32\", \"indices_1\": \"int32\", "
		"\"indices_2\": \"int32\", \"values\": \"int8\"}}}",
	};
	struct ts_diags *d = ts_diags_new(0, false);
	struct ts_bsp b;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ok(ts_bsp_parse(&b, good[i], strlen(good[i]), "t", d) == 0 &&
		    b.order == 3 && b.shape[2] == 4 && b.perm[2] == 2,
		    "lenient descriptor %zu read", i);
		ts_bsp_free(&b);
	}
	ts_diags_free(d);
}

static void
test_bsp_bad(void)
{
	/* Each error at the key its marker names (the first place it is
	 * written), at line 1 unless a newline comes before it; or at no
	 * line (at NULL); or where jansson says (line, col). */
	static const struct {
		const char *text, *msg, *at;
		uint64_t line, col;
	} bad[] = {
		{ "{\"binsparse\": {\"version\": \"0.2\"}}", "version '0.2'",
		    "\"version\"", 0, 0 },
		{ "{\"binsparse\": [1]}", "must be an object", "\"binsparse\"",
		    0, 0 },
		{ "{\"binsparse\": {\"version\": \"0.1\",\n\"shape\": [], "
		    "\"format\": \"COO\"}}", "'shape' must be", "\"shape\"", 0,
		    0 },
		{ "{\"version\": \"0.1\", \"shape\": [2], "
		    "\"number_of_stored_values\": -1}", "non-negative",
		    "\"number_of", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"format\": \"CSR\"}",
		    "format 'CSR' is not read", "\"format\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2, 2], "
		    "\"number_of_stored_values\": 1, \"format\": \"COO\"}",
		    "a matrix's", "\"shape\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1}", "no 'format'", NULL, 0,
		    0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"custom\": {\"level\": "
		    "{\"level_desc\": \"dense\", \"rank\": 1}}}",
		    "root level 'dense'", "\"level_desc\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"custom\": {\"transpose\": "
		    "[0, 0], \"level\": {\"level_desc\": \"sparse\", \"rank\": 2, "
		    "\"level\": {\"level_desc\": \"element\"}}}}",
		    "permutation", "\"transpose\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"format\": \"COO\", "
		    "\"data_types\": {\"indices_0\": \"uint64\", \"indices_1\": "
		    "\"float64\", \"values\": \"int8\"}}",
		    "indices of type 'float64'", "\"indices_1\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"format\": \"COO\", "
		    "\"data_types\": {\"indices_0\": \"uint64\", \"indices_1\": "
		    "\"uint64\", \"values\": \"complex[float64]\"}}",
		    "type 'complex[float64]'", "\"values\"", 0, 0 },
		{ "{\"version\": \"0.1\", \"shape\": [2, 2], "
		    "\"number_of_stored_values\": 1, \"format\": \"COO\", "
		    "\"structure\": \"symmetric_lower\"}", "'structure'",
		    "\"structure\"", 0, 0 },
		{ "{\"version\": \"0.1\",", "expected near end", NULL, 1, 18 },
		{ "[]", "not a JSON object", NULL, 0, 0 },
	};
	struct ts_diags *d = ts_diags_new(0, false);
	const struct ts_diag *g;
	const char *p, *nl;
	struct ts_bsp b;
	uint64_t line, col;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		line = bad[i].line, col = bad[i].col;
		if (bad[i].at != NULL) {
			p = strstr(bad[i].text, bad[i].at);
			nl = memchr(bad[i].text, '\n', (size_t)(p - bad[i].text));
			line = nl != NULL ? 2 : 1;
			col = (uint64_t)(p - (nl != NULL ? nl + 1 :
			    bad[i].text)) + 1;
		}
		ts_diags_clear(d);
		g = ts_bsp_parse(&b, bad[i].text, strlen(bad[i].text), "t",
		    d) == -1 && ts_diags_len(d) == 1 ? ts_diags_at(d, 0) : NULL;
		ok(g != NULL && strstr(g->msg, bad[i].msg) != NULL && g->line ==
		    line && g->col == col && g->status == 1,
		    "bad descriptor %zu: '%s' at %llu:%llu (got '%s' at "
		    "%llu:%llu)", i, bad[i].msg, (unsigned long long)line,
		    (unsigned long long)col, g ? g->msg : "",
		    g ? (unsigned long long)g->line : 0,
		    g ? (unsigned long long)g->col : 0);
	}
	ts_diags_free(d);
}

int
main(void)
{
	test_header_roundtrip();
	test_header_numpy();
	test_header_bad();
	test_utf32();
	test_zip();
	test_zip64_sums();
	test_bsp_write();
	test_bsp_lenient();
	test_bsp_bad();
	return tap_done();
}
