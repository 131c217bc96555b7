#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""png-check.py FILE: print WIDTH HEIGHT DISTINCT for a PNG, DISTINCT being
the number of distinct pixel rows, 1 for a blank picture (standard library
only: the rows are the inflated IDAT data, unfiltered rows compared as they
are, which is enough to tell a uniform picture from a drawn one)."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    print("0 0 0")
    sys.exit(1)
pos, idat, width, height, bpp = 8, b"", 0, 0, 4
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, color = struct.unpack(">IIBB", body[:10])
        bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color] * max(1, depth // 8)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * bpp + 1
rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(height)}
print(width, height, len(rows))
