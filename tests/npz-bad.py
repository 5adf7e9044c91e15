# npz-bad.py: write, in the current directory, one bad .npz or .bsp.npz
# a family of faults (tests/ts-convert.bats reads each; npz-bad.txt
# says the message each must draw).
import io
import json
import zipfile

import numpy as np

i8 = np.array([0, 1], np.int64)
u8 = np.array([0, 1], np.uint64)
f8 = np.array([1.0, 2.0])
coo = dict(shape=np.array([2, 2]), format=np.asarray(b"coo"))


def desc(**kw):
    d = {"version": "0.1", "format": "COO", "shape": [2, 2],
         "number_of_stored_values": 2,
         "data_types": {"indices_0": "uint64", "indices_1": "uint64",
                        "values": "float64"}}
    d.update(kw)
    return np.asarray(json.dumps({"binsparse": d}, indent=2))


np.savez("empty.npz", other=i8)
np.savez("negative.npz", row=np.array([0, -1]), col=i8, data=f8, **coo)
np.savez("short.npz", row=i8, col=i8, data=np.array([1.0]), **coo)
np.savez("beyond.npz", row=np.array([0, 2]), col=i8, data=f8, **coo)
np.savez("complex.npz", row=i8, col=i8, data=np.array([1j, 2]), **coo)
np.savez("version.bsp.npz", indices_0=u8, indices_1=u8, values=f8,
         binsparse=desc(version="0.2"))
np.savez("dtype.bsp.npz", indices_0=u8,
         indices_1=np.array([0, 1], np.uint32), values=f8, binsparse=desc())


def npy(a):
    f = io.BytesIO()
    np.save(f, a)
    return f.getvalue()


# a member cut short, one that is no .npy, a corrupt deflated member
b = io.BytesIO()
np.save(b, np.arange(4, dtype=np.int64).reshape(1, 4))
whole = b.getvalue()
b = io.BytesIO()
np.save(b, np.arange(4, dtype=np.float64))
with zipfile.ZipFile("truncated.npz", "w") as z:
    z.writestr("coords.npy", whole[:-8])
    z.writestr("data.npy", b.getvalue())
    z.writestr("shape.npy", npy(np.array([4])))
with zipfile.ZipFile("magic.npz", "w") as z:
    z.writestr("row.npy", b"\x93NUMPX" + npy(i8)[6:])
    z.writestr("col.npy", npy(i8))
    z.writestr("data.npy", npy(f8))
    z.writestr("shape.npy", npy(np.array([2, 2])))
    z.writestr("format.npy", npy(np.asarray(b"coo")))
with zipfile.ZipFile("deflate.npz", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("coords.npy", npy(np.arange(4000).reshape(1, 4000)))
    z.writestr("data.npy", npy(np.arange(4000.0)))
    z.writestr("shape.npy", npy(np.array([4000])))
raw = bytearray(open("deflate.npz", "rb").read())
raw[200:260] = b"\xff" * 60
open("deflate.npz", "wb").write(bytes(raw))
with open("text.npz", "w") as f:
    f.write("1 1 1 2.5\n")


# a byte of an array's data changed (stored members: only the CRC-32
# tells), in a member read ahead (values) and in one that is not
def flip(name, member, at):
    h = zipfile.ZipFile(name).getinfo(member).header_offset
    raw = bytearray(open(name, "rb").read())
    # the local header's own name and extra lengths
    start = h + 30 + raw[h + 26] + 256 * raw[h + 27] + raw[h + 28] + \
        256 * raw[h + 29]
    raw[start + at] ^= 0x01
    open(name, "wb").write(bytes(raw))


np.savez("crc.bsp.npz", indices_0=u8, indices_1=u8, values=f8,
         binsparse=desc())
flip("crc.bsp.npz", "indices_1.npy", 130)
np.savez("crcvalues.npz", row=i8, col=i8, data=f8, **coo)
flip("crcvalues.npz", "data.npy", 135)
# ... in the last row of pydata's coords, whose readers after the first
# leave the check to the first
np.savez("crcrow.npz", coords=np.array([[0, 1], [0, 1], [0, 1]], np.int64),
         data=f8, shape=np.array([2, 2, 2]), fill_value=np.array(0.0))
flip("crcrow.npz", "coords.npy", 128 + 40)
