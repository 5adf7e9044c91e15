/*
 * rule.c - the rules of the format, one row each: the id every
 * diagnostic names, the section of tensorsuite(5) that states the rule,
 * and a line that says what it asks.  Some rules are reported under
 * another id (E4 and K2, whose coordinates in range are S1, checked on
 * the entries; B4, which X6 checks), and two bind writers only (M2, E5):
 * the table says so, and tests/docs.bats holds it and tensorsuite(5)
 * to each other.  It lives with the diagnostics, the bottom of the
 * library, since every layer reports under it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "tensorsuite.h"

struct rule {
	const char	*id, *section, *text;
	const char	*under;		/* reported under these ids; NULL */
	bool		 writers;	/* binds writers: no reader checks it */
};

static const struct rule rules[] = {
	[TS_RULE_NONE] = { "", "", "", NULL, false },
	[TS_RULE_B1] = { "B1", "Bundle",
	    "a bundle is a directory NAME/ with NAME_metadata.json, a data "
	    "file and README.md",
	    NULL, false },
	[TS_RULE_B2] = { "B2", "Bundle",
	    "NAME is [A-Za-z0-9][A-Za-z0-9._-]*, at most 200 bytes, the "
	    "same as the folder, the files' prefix and the metadata's name",
	    NULL, false },
	[TS_RULE_B3] = { "B3", "Bundle",
	    "files names the bundle's files, each one that exists, at least"
	    " one data file, each file once",
	    NULL, false },
	[TS_RULE_B4] = { "B4", "Bundle",
	    "both data files hold the same entries in the same order",
	    "X6", false },
	[TS_RULE_B5] = { "B5", "Bundle",
	    "a bundle in a tar archive is NAME/... members, metadata first",
	    NULL, false },
	[TS_RULE_B6] = { "B6", "Bundle",
	    "a bundle's one folder, pictures/, of regular files drawn from "
	    "its entries",
	    NULL, true },
	[TS_RULE_A1] = { "A1", "Archive manifest",
	    "an archive ends with a SHA256SUMS manifest of every member, in"
	    " the format sha256sum -c reads",
	    NULL, false },
	[TS_RULE_M1] = { "M1", "Metadata",
	    "UTF-8 JSON, one object, no duplicate keys, every key of the "
	    "table with its type and allowed values",
	    NULL, false },
	[TS_RULE_M2] = { "M2", "Metadata",
	    "writers emit the canonical form: keys in order, two-space "
	    "indent, arrays on one line",
	    NULL, true },
	[TS_RULE_M3] = { "M3", "Metadata",
	    "endianness is none exactly when there is no binary file",
	    NULL, false },
	[TS_RULE_M4] = { "M4", "Metadata",
	    "index_type holds every coordinate: dimension - 1 + index_base",
	    NULL, false },
	[TS_RULE_M5] = { "M5", "Metadata",
	    "numerical_symmetry is no stronger than pattern_symmetry; full "
	    "needs equal dimensions, partial two",
	    NULL, false },
	[TS_RULE_M6] = { "M6", "Metadata",
	    "dense_modes: [] for element and block, every mode for no, a "
	    "proper ascending subset for semi",
	    NULL, false },
	[TS_RULE_M7] = { "M7", "Metadata",
	    "block_partitions and nnz_block are set exactly for block "
	    "tensors, within the dimensions",
	    NULL, false },
	[TS_RULE_M8] = { "M8", "Metadata",
	    "binary values are 0 or 1; with explicit zeros disallowed, "
	    "every value is 1",
	    "S4 S5", false },
	[TS_RULE_M9] = { "M9", "Metadata",
	    "sort_order is a permutation of 1..order when sorted is "
	    "lexicographic, else []",
	    NULL, false },
	[TS_RULE_H1] = { "H1", "Data-file header",
	    "line 1 is %%TensorSuite-TNS (text) or %%TensorSuite-TNSB "
	    "(binary)",
	    NULL, false },
	[TS_RULE_H2] = { "H2", "Data-file header",
	    "then % version: 0.1 and % name: NAME",
	    NULL, false },
	[TS_RULE_H3] = { "H3", "Data-file header",
	    "the size line: order, dimensions, nnz",
	    NULL, false },
	[TS_RULE_H4] = { "H4", "Data-file header",
	    "a block file's block size line and partition lines",
	    NULL, false },
	[TS_RULE_H5] = { "H5", "Data-file header",
	    "nothing else precedes the entries",
	    NULL, false },
	[TS_RULE_E1] = { "E1", "Element entries",
	    "a text row is the coordinates and, with values, one value",
	    NULL, false },
	[TS_RULE_E2] = { "E2", "Element entries",
	    "values are integers for integer types, decimal literals, inf "
	    "or nan for floats",
	    NULL, false },
	[TS_RULE_E3] = { "E3", "Element entries",
	    "a binary file holds exactly nnz packed records after its "
	    "header",
	    NULL, false },
	[TS_RULE_E4] = { "E4", "Element entries",
	    "coordinates lie in [index_base, dimension - 1 + index_base]",
	    "S1", false },
	[TS_RULE_E5] = { "E5", "Element entries",
	    "a tool that must emit values for a value-less tensor writes 1,"
	    " or a pattern",
	    NULL, true },
	[TS_RULE_K1] = { "K1", "Block entries",
	    "a block file lists the non-zero blocks' coordinates in the "
	    "block grid, without values",
	    NULL, false },
	[TS_RULE_K2] = { "K2", "Block entries",
	    "a block coordinate lies within its mode's sections",
	    "S1", false },
	[TS_RULE_K3] = { "K3", "Block entries",
	    "nnz is the sum of the elements of the non-zero blocks",
	    NULL, false },
	[TS_RULE_K4] = { "K4", "Block entries",
	    "a block tensor maps onto cuTENSOR's block-sparse descriptor",
	    NULL, false },
	[TS_RULE_X1] = { "X1", "Cross-checks",
	    "the magic line matches the file's kind",
	    NULL, false },
	[TS_RULE_X2] = { "X2", "Cross-checks",
	    "% version equals version",
	    NULL, false },
	[TS_RULE_X3] = { "X3", "Cross-checks",
	    "% name equals name",
	    NULL, false },
	[TS_RULE_X4] = { "X4", "Cross-checks",
	    "the size line equals order, dimensions and nnz",
	    NULL, false },
	[TS_RULE_X5] = { "X5", "Cross-checks",
	    "the block size line equals block_partitions and nnz_block; "
	    "partitions sum to dimensions",
	    NULL, false },
	[TS_RULE_X6] = { "X6", "Cross-checks",
	    "text and binary files hold the same entries in the same order",
	    NULL, false },
	[TS_RULE_X7] = { "X7", "Cross-checks",
	    "the entries present number nnz (nnz_block)",
	    NULL, false },
	[TS_RULE_X8] = { "X8", "Cross-checks",
	    "a binary file's size is exactly header + records",
	    NULL, false },
	[TS_RULE_S1] = { "S1", "Semantics",
	    "every coordinate is in range (E4, K2)",
	    NULL, false },
	[TS_RULE_S2] = { "S2", "Semantics",
	    "sorted: entries in non-decreasing order of sort_order, "
	    "strictly without duplicates",
	    NULL, false },
	[TS_RULE_S3] = { "S3", "Semantics",
	    "duplicates disallowed: no coordinate tuple repeats",
	    NULL, false },
	[TS_RULE_S4] = { "S4", "Semantics",
	    "explicit zeros disallowed: no stored value is zero",
	    NULL, false },
	[TS_RULE_S5] = { "S5", "Semantics",
	    "values fit value_domain and value_type",
	    NULL, false },
	[TS_RULE_S6] = { "S6", "Semantics",
	    "every row has a value when values_provided, none otherwise",
	    NULL, false },
	[TS_RULE_S7] = { "S7", "Semantics",
	    "pattern_symmetry holds for the set of coordinates",
	    NULL, false },
	[TS_RULE_S8] = { "S8", "Semantics",
	    "numerical_symmetry holds: mirrored entries hold equal values",
	    NULL, false },
	[TS_RULE_S9] = { "S9", "Semantics",
	    "sparsity_type no, semi, block: every position, dense modes "
	    "complete, K3",
	    NULL, false },
	[TS_RULE_P1] = { "P1", "Streams",
	    "a data file written without its metadata is 1-based unless the"
	    " user names another base",
	    NULL, false },
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) == TS_RULE_COUNT,
    "a row for every rule of enum ts_rule");

static const struct rule *
row(enum ts_rule r)
{
	return (unsigned)r < TS_RULE_COUNT ? &rules[r] : &rules[0];
}

const char *
ts_rule_id(enum ts_rule r)
{
	return row(r)->id;
}

int
ts_rule_of_id(const char *id)
{
	int r;

	for (r = 1; id != NULL && r < TS_RULE_COUNT; r++)
		if (strcmp(rules[r].id, id) == 0)
			return r;
	return -1;
}

const char *
ts_rule_section(enum ts_rule r)
{
	return row(r)->section;
}

const char *
ts_rule_text(enum ts_rule r)
{
	return row(r)->text;
}

const char *
ts_rule_under(enum ts_rule r)
{
	return row(r)->under;
}

bool
ts_rule_binds_writers(enum ts_rule r)
{
	return row(r)->writers;
}
