#!/usr/bin/python3
"""Write a tar archive member by member, hostile ones included.

usage: mktar.py ARCHIVE MEMBER...

Each MEMBER is TYPE:NAME or TYPE:NAME=ARG, in the order they go in:

  file:NAME=@PATH   a regular file with the bytes of PATH
  file:NAME=TEXT    a regular file holding TEXT
  dir:NAME          a directory
  sym:NAME=TARGET   a symbolic link
  hard:NAME=TARGET  a hard link
  chr:NAME          a character device (1, 3: /dev/null)
  fifo:NAME         a FIFO
  big:NAME=SIZE     a regular file whose header declares SIZE bytes, with
                    no data after it (the archive ends there)
  short:NAME=@PATH  a regular file with the bytes of PATH, whose header
                    declares half as many (the rest reads as a header)

ARCHIVE ending in .gz is compressed with gzip; the format is pax.
"""

import gzip
import io
import sys
import tarfile


def main():
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    out = sys.argv[1]
    raw = io.BytesIO()
    tf = tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT)
    big = None
    for spec in sys.argv[2:]:
        kind, _, rest = spec.partition(":")
        name, _, arg = rest.partition("=")
        ti = tarfile.TarInfo(name)
        ti.mtime = 0
        ti.mode = 0o644
        data = None
        if kind == "file":
            if arg.startswith("@"):
                with open(arg[1:], "rb") as f:
                    data = f.read()
            else:
                data = arg.encode()
            ti.size = len(data)
        elif kind == "dir":
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
        elif kind == "sym":
            ti.type = tarfile.SYMTYPE
            ti.linkname = arg
        elif kind == "hard":
            ti.type = tarfile.LNKTYPE
            ti.linkname = arg
        elif kind == "chr":
            ti.type = tarfile.CHRTYPE
            ti.devmajor, ti.devminor = 1, 3
        elif kind == "fifo":
            ti.type = tarfile.FIFOTYPE
        elif kind == "big":
            ti.size = int(arg)
            big = ti
            break
        elif kind == "short":
            with open(arg[1:], "rb") as f:
                data = f.read()
            ti.size = len(data) // 2
            # The header, then all the data, padded to whole blocks.
            raw.write(ti.tobuf(tarfile.PAX_FORMAT))
            raw.write(data + b"\0" * (-len(data) % 512))
            tf.offset = raw.tell()
            continue
        else:
            sys.stderr.write("mktar.py: unknown member type %r\n" % kind)
            return 2
        tf.addfile(ti, io.BytesIO(data) if data is not None else None)
    if big is not None:
        # The header alone: the data it declares never comes.
        raw.write(big.tobuf(tarfile.PAX_FORMAT))
        raw.write(b"\0" * 1024)
    else:
        tf.close()
    body = raw.getvalue()
    if out.endswith(".gz"):
        body = gzip.compress(body, mtime=0)
    with open(out, "wb") as f:
        f.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
