#!/usr/bin/env python3
"""SASS of the kernels a wgpu pipeline cache file holds (NVIDIA's Vulkan driver 580.x).

Usage: sass.py <Vulkan-10de-...bin from WGPU_MSM_CACHE_DIR> <out dir> [nvdisasm]

The file is wgpu's header and the driver's cache; each compiled kernel is a zstd frame
(28 b5 2f fd). Decompressed, a blob's instructions end with its last EXIT (4d 79 00 00
00 00 00 00 at an offset of 8 mod 16; 16-byte instructions) and start after a header
of 312-472 bytes: the start is found by bisection as the earliest offset from which
`nvdisasm -b SM90` reads everything up to that EXIT without an error. nvdisasm comes
from the `nvidia-cuda-nvdisasm` wheel (pip download --no-deps nvidia-cuda-nvdisasm).
Needs `pip install zstandard`. Each blob's line says its instruction count, the highest
register it names and its commonest opcodes (the accumulation kernel is the MSM blob
with one atomic, the whole-waves counter).
"""
import collections, os, re, subprocess, sys
import zstandard

src, out = sys.argv[1], sys.argv[2]
nd = sys.argv[3] if len(sys.argv) > 3 else "nvdisasm"
os.makedirs(out, exist_ok=True)
data = open(src, "rb").read()
exit_op = bytes.fromhex("4d79000000000000")


def decodes(blob, start, end):
    path = os.path.join(out, "window.code")
    open(path, "wb").write(blob[start:end])
    r = subprocess.run([nd, "-b", "SM90", path], capture_output=True, text=True)
    return "error" not in r.stderr and "fatal" not in r.stderr, r.stdout


i, n = 0, 0
while (i := data.find(b"\x28\xb5\x2f\xfd", i)) >= 0:
    blob = zstandard.ZstdDecompressor().decompressobj().decompress(data[i:])
    exits = [m.start() for m in re.finditer(re.escape(exit_op), blob) if m.start() % 16 == 8]
    if exits:
        end = exits[-1] + 16
        starts = list(range(end - 16, 0, -16))
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if decodes(blob, starts[mid], end)[0]:
                lo = mid
            else:
                hi = mid - 1
        _, sass = decodes(blob, starts[lo], end)
        open(os.path.join(out, f"blob{n}.sass"), "w").write(sass)
        ops = collections.Counter(
            re.findall(r"^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9._]*)", sass, re.M)
        )
        regs = [int(x) for x in re.findall(r"\bR(\d+)\b", sass)]
        common = ", ".join(f"{k} {v}" for k, v in ops.most_common(6))
        print(f"blob{n}: {sum(ops.values())} instructions, R{max(regs, default=0)} | {common}")
    n += 1
    i += 4
