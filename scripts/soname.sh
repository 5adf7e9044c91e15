#!/bin/sh
# scripts/soname.sh PKG: the name the dynamic linker knows the shared
# library of pkg-config's PKG by (its SONAME, "libhdf5_serial.so.103"),
# for a library the toolkit loads at run time instead of linking it
# (format/h5lib.c).  The library file is looked for in the -L folders
# pkg-config gives, then where the C compiler would find it; without a
# SONAME, or without the file, the -l name's "libNAME.so" is printed.
pc=${PKG_CONFIG:-pkg-config}
cc=${CC:-cc}
libs=$($pc --libs "$1" 2>/dev/null) || libs=-l$1
name= dirs=
for w in $libs; do
	case $w in
	-L*) dirs="$dirs ${w#-L}" ;;
	-l*) [ -n "$name" ] || name=${w#-l} ;;
	esac
done
[ -n "$name" ] || name=$1
file=
for d in $dirs; do
	[ -e "$d/lib$name.so" ] && { file=$d/lib$name.so; break; }
done
if [ -z "$file" ]; then
	f=$($cc -print-file-name="lib$name.so" 2>/dev/null)
	case $f in /*) file=$f ;; esac
fi
so=
if [ -n "$file" ]; then
	so=$(objdump -p "$file" 2>/dev/null | awk '$1 == "SONAME" { print $2 }')
	[ -n "$so" ] || so=$(readelf -d "$file" 2>/dev/null |
	    sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
fi
echo "${so:-lib$name.so}"
