# Shared set-up for the bats suites.  Binaries come from $TS_BIN (set by
# tests/run.sh; defaults to build/bin), data from the repository.

TS_TOP=${TS_TOP:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
TS_BIN=${TS_BIN:-$TS_TOP/build/bin}
PATH="$TS_BIN:$PATH"
export LC_ALL=C

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

SHARE="$TS_TOP/share"
DATA="$TS_TOP/tests/data"

# mkbundle SRC NAME: copy bundle SRC (a path) into the test's temporary
# directory as bundle NAME, renaming its files and 'name' to match, and
# print the new bundle's path.
mkbundle() {
	local src=$1 name=$2 old dst f
	old=$(basename "$src")
	dst="$BATS_TEST_TMPDIR/$name"
	mkdir -p "$dst"
	for f in "$src"/*; do
		cp "$f" "$dst/$(basename "$f" | sed "s/^$old/$name/")"
	done
	chmod u+w "$dst"/*
	sed -i "s/\"$old/\"$name/g" "$dst/${name}_metadata.json"
	for f in "$dst/$name.tns" "$dst/$name.tnsb"; do
		[ -f "$f" ] && sed -i "1,3s/^% name: $old\$/% name: $name/" "$f"
	done
	echo "$dst"
}

# setmeta BUNDLE KEY JSON: set a top-level metadata key (jq), keeping
# the key order.
setmeta() {
	local b=$1 key=$2 val=$3 m
	m="$b/$(basename "$b")_metadata.json"
	jq --indent 2 ".$key = $val" "$m" >"$m.tmp" && mv "$m.tmp" "$m"
}

# delmeta BUNDLE KEY: remove a metadata key.
delmeta() {
	local b=$1 key=$2 m
	m="$b/$(basename "$b")_metadata.json"
	jq --indent 2 "del(.$key)" "$m" >"$m.tmp" && mv "$m.tmp" "$m"
}

# sans_a1_note: drop from $output and $lines the note that an archive
# holds no SHA256SUMS manifest (rule A1).  A test of ts-pack's archives
# calls it after `run`, so that what it checks holds whether ts-pack
# writes the manifest or not.
A1_NOTE=': note: it holds no SHA256SUMS manifest: '
sans_a1_note() {
	output=$(grep -vF -- "$A1_NOTE" <<<"$output" || true)
	lines=()
	[ -z "$output" ] || mapfile -t lines <<<"$output"
	return 0
}

# sysroot_deps ROOT: pkg-config's PKG_CONFIG_SYSROOT_DIR=ROOT prefixes
# every package's directories, so those of a dependency outside the
# compiler's own (Debian's hdf5-serial) are linked into ROOT, as a real
# sysroot would hold them.
sysroot_deps() {
	local d
	for d in $(pkg-config --libs-only-L --cflags-only-I hdf5); do
		d=${d#-[LI]}
		mkdir -p "$1${d%/*}"
		[ -e "$1$d" ] || ln -s "$d" "$1$d"
	done
}
