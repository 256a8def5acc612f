"""bad_npy.py: writes malformed and unsupported .npy files (and a few good
ones in unusual forms) into DIR, one per case the reader must handle, each
sized for input x: f32[B, 3] with B = 2 where that matters.
Usage: python3 bad_npy.py DIR"""
import os
import struct
import sys

import numpy as np

DIR = sys.argv[1]
GOOD = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
DATA = np.arange(6, dtype=np.float32).tobytes()


def npy(header, data=DATA, version=(1, 0)):
    """Magic, version, length and header (padded to 64 bytes like NumPy)."""
    lsize = 2 if version[0] == 1 else 4
    text = header.encode("latin1")
    pad = 63 - (6 + 2 + lsize + len(text)) % 64
    text += b" " * pad + b"\n"
    fmt = "<H" if lsize == 2 else "<I"
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, len(text)) + text + data


def save(name, content):
    with open(os.path.join(DIR, name), "wb") as f:
        f.write(content)


def header(descr="'<f4'", fortran="False", shape="(2, 3)"):
    return f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"


save("empty.npy", b"")
save("bad_magic.npy", b"PK\x03\x04 this is a zip file, not a .npy file")
save("version4.npy", npy(GOOD, version=(4, 0)))
save("trunc_version.npy", b"\x93NUMPY\x01")
save("trunc_header.npy", npy(GOOD)[:40])
save("not_dict.npy", npy("[1, 2, 3]"))
save("junk_after.npy", npy(GOOD + " junk"))
save("no_descr.npy", npy("{'fortran_order': False, 'shape': (2, 3), }"))
save("no_fortran.npy", npy("{'descr': '<f4', 'shape': (2, 3), }"))
save("no_shape.npy", npy("{'descr': '<f4', 'fortran_order': False, }"))
save("extra_key.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}"))
save("bad_descr.npy", npy(header(descr="42")))
save("bad_fortran.npy", npy(header(fortran="'no'")))
save("bad_shape.npy", npy(header(shape="(2, 'three')")))
save("int_shape.npy", npy(header(shape="(6)")))
save("fortran.npy", npy(header(fortran="True")))
save("big_endian.npy", npy(header(descr="'>f4'"),
                           np.arange(6, dtype=">f4").tobytes()))
save("complex.npy", npy(header(descr="'<c16'"), b"\0" * 96))
save("uint8.npy", npy(header(descr="'|u1'"), b"\0" * 6))
save("float16.npy", npy(header(descr="'<f2'"), b"\0" * 12))
save("structured.npy", npy(header(descr="[('a', '<f4'), ('b', '<i4')]"), b"\0" * 48))
save("huge_itemsize.npy", npy(header(descr="'<f999999999'"), b"\0" * 12))
save("rank9.npy", npy(header(shape="(1, 1, 1, 1, 1, 1, 1, 1, 1)"), b"\0" * 4))
save("negative.npy", npy(header(shape="(-2, 3)")))
save("overflow.npy", npy(header(shape="(4611686018427387904, 3)")))
save("trunc_data.npy", npy(GOOD, DATA[:10]))
save("trailing.npy", npy(GOOD, DATA + b"extra bytes NumPy ignores"))
save("v2.npy", npy(GOOD, version=(2, 0)))
save("v3.npy", npy(GOOD, version=(3, 0)))
save("double_quotes.npy", npy(GOOD.replace("'", '"')))
np.save(os.path.join(DIR, "x64.npy"), np.zeros((2, 3)))
np.save(os.path.join(DIR, "x_fortran.npy"),
        np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
