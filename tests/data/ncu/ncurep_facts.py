#!/usr/bin/env python3
# Prints what the tests of real .ncu-rep files expect, read with this standalone protobuf wire
# decoder (no protobuf package, nothing of Ridgeline's): per result, the mangled name, grid,
# gpu__time_duration.sum (ns), ncu's Speed-of-Light inputs (%), and the device attributes; then
# launches and total time per mangled name. Framing as docs/NCU-REP.md; the string table is every
# block's names appended in file order.  Usage: ncurep_facts.py FILE.ncu-rep
# `ncurep_facts.py FILE.ncu-rep --without-sources OUT` writes a copy without the blocks whose payload
# holds sources and no result (the kernels' code, which the importer skips), every other byte as is:
# how sglang-h800/profile-nosource.ncu-rep was made.
import math, struct, sys
from collections import OrderedDict

def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return r, i

def fields(b):
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i); f, wt = key >> 3, key & 7
        if wt == 0: v, i = varint(b, i)
        elif wt == 1: v = b[i:i + 8]; i += 8
        elif wt == 5: v = b[i:i + 4]; i += 4
        elif wt == 2: n, i = varint(b, i); v = b[i:i + n]; i += n
        else: raise ValueError(wt)
        out.append((f, wt, v))
    return out

def get(fs, f): return [v for (g, _, v) in fs if g == f]
def u32(b, i): return struct.unpack_from('<I', b, i)[0]

def value(v):
    fs = fields(v)
    if not fs: return 0.0  # an empty value message: 0
    f, _, x = fs[0]
    return {1: lambda: x.decode(), 2: lambda: struct.unpack('<f', x)[0], 3: lambda: struct.unpack('<d', x)[0]}.get(f, lambda: float(x))()

data = open(sys.argv[1], 'rb').read()
assert data[:4] == b'NVR\0'
if len(sys.argv) == 4 and sys.argv[2] == '--without-sources':
    n = u32(data, 4); out = bytearray(data[:8 + n]); i = 8 + n
    while i < len(data):
        n = u32(data, i); h = fields(data[i + 4:i + 4 + n]); end = i + 4 + n + (get(h, 5) or [0])[0]
        if not ((get(h, 1) or [0])[0] > 0 and (get(h, 2) or [0])[0] == 0):
            out += data[i:end]
        i = end
    open(sys.argv[3], 'wb').write(out)
    sys.exit(0)
n = u32(data, 4); version = get(fields(data[8:8 + n]), 1); i = 8 + n
strings, results, made = [], [], []
while i < len(data):
    n = u32(data, i); h = fields(data[i + 4:i + 4 + n]); i += 4 + n
    for details in get(h, 3):  # session details: field 8 {1 name, 2 value} names a version
        for entry in get(fields(details), 8):
            e = fields(entry)
            if get(e, 1) == [b'Nsight Compute Target']: made.append(get(e, 2)[0].decode())
    for t in get(h, 4): strings += [s.decode() for s in get(fields(t), 1)]
    j = i
    for _ in range((get(h, 1) or [0])[0]): j += 4 + u32(data, j)
    for _ in range((get(h, 2) or [0])[0]):
        m = u32(data, j); results.append(data[j + 4:j + 4 + m]); j += 4 + m
    i += (get(h, 5) or [0])[0]
print('format version', version, 'Nsight Compute Target', made, 'names', len(strings), 'results', len(results))
SOL = ('sm__throughput.avg.pct_of_peak_sustained_elapsed', 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed')
DEV = ('display_name', 'compute_capability_major', 'compute_capability_minor', 'multiprocessor_count')
per = OrderedDict()
for k, r in enumerate(results):
    rf = fields(r)
    name = (get(rf, 5) or get(rf, 6) or [b''])[0].decode()
    grid = [(get(fields(g), 1) or [0])[0] for g in get(rf, 10)]
    ms = {}
    for m in get(rf, 13):
        mf = fields(m); v = get(mf, 2)
        ms[strings[(get(mf, 1) or [0])[0]]] = value(v[0]) if v else 0.0
    d = ms.get('gpu__time_duration.sum')
    d = d if isinstance(d, float) and math.isfinite(d) else None
    print(k, name[:70], 'grid.x', grid, 'ns', d, 'sol', [ms.get(s) for s in SOL],
          'device', [ms.get('device__attribute_' + a) for a in DEV])
    c = per.setdefault(name, [0, 0]); c[0] += 1; c[1] += round(d) if d is not None else 0
for name, (launches, ns) in per.items():
    print('kernel', name[:70], 'launches', launches, 'ns', ns)
