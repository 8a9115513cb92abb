#!/usr/bin/env python3
"""SASS of the kernels a wgpu pipeline cache file holds (NVIDIA's Vulkan driver 580.x).

Usage: sass.py <Vulkan-10de-...bin from WGPU_MSM_CACHE_DIR> <out dir> [nvdisasm]

The file is wgpu's header and the driver's cache; each compiled kernel is a zstd frame
(28 b5 2f fd). Decompressed, a blob's instructions start at byte 312 and end with its
one EXIT (4d 79 00 00 00 00 00 00, 16-byte instructions); `nvdisasm -b SM90` reads
that range. Blobs with more than one function or another header do not decode this
way (the MSM kernels of call 3 did not); the `arith` kernels do. nvdisasm comes from
the `nvidia-cuda-nvdisasm` wheel (pip download --no-deps nvidia-cuda-nvdisasm).
Needs `pip install zstandard`.
"""
import os, subprocess, sys
import zstandard

src, out = sys.argv[1], sys.argv[2]
nd = sys.argv[3] if len(sys.argv) > 3 else "nvdisasm"
os.makedirs(out, exist_ok=True)
data = open(src, "rb").read()
i, n = 0, 0
while (i := data.find(b"\x28\xb5\x2f\xfd", i)) >= 0:
    blob = zstandard.ZstdDecompressor().decompressobj().decompress(data[i:])
    end = blob.find(bytes.fromhex("4d79000000000000"))
    if end > 312:
        code = os.path.join(out, f"blob{n}.code")
        open(code, "wb").write(blob[312 : end + 16])
        r = subprocess.run([nd, "-b", "SM90", code], capture_output=True, text=True)
        open(os.path.join(out, f"blob{n}.sass"), "w").write(r.stdout + r.stderr)
        print(f"blob{n}: {len(blob)} bytes, {r.stdout.count(';')} instructions")
    n += 1
    i += 4
