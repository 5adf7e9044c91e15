#!/bin/sh
# Install what the TensorSuite toolkit needs on Debian (or say what is
# missing).  Usage: scripts/deps.sh [--bench]
# Build and test: a C compiler, a C++ one (the public header must compile
# as C++), make, pkg-config, jansson, libarchive,
# bats with bats-support and bats-assert, mandoc, python3-jsonschema,
# python3-scipy (the Matrix Market round trips are checked with mmread),
# clang with libFuzzer (the fuzzing harnesses), strace (the fault
# suite), valgrind (make check-valgrind), libxml2-utils (xmllint: the
# JUnit reports are parsed by a real XML parser), bash-completion, zsh
# and fish (the completions are tried in each), libpng-dev (ts-stat's
# pictures), python3-numpy (ts-stat's figures are checked against it),
# libssl-dev (libcrypto's SHA-256, for archives' manifests),
# libzstd-dev (zstd frames with their content checksum), zlib1g-dev
# (gzip undone with its CRC32 checked), libyaml-dev (ts-gen reads the
# reference generators' YAML configurations), libhdf5-dev (binsparse's
# HDF5 container, .bsp.h5) and python3-h5py (h5py reads our .bsp.h5
# files in the tests).
# --bench adds GNU time, and python3-yaml for the reference generator
# the bench runs beside ts-gen (SYNTENSORGEN=DIR).
set -eu

pkgs="make gcc g++ pkg-config libjansson-dev libarchive-dev bats \
bats-support bats-assert mandoc python3 python3-jsonschema python3-scipy \
zstd jq clang libclang-rt-dev strace valgrind libxml2-utils \
bash-completion zsh fish libpng-dev python3-numpy libssl-dev libzstd-dev \
zlib1g-dev libyaml-dev libhdf5-dev python3-h5py"
[ "${1:-}" = "--bench" ] && pkgs="$pkgs time python3-yaml"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (install them with your" \
	    "package manager)" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
