#!/usr/bin/env python3
"""Makes N rank traces from the two real ranks of HTA's trace_filter pair (tests/data/kineto/
trace_filter, PyTorch profiler traces of ranks 0 and 1 of a 128-rank job): rank r is a copy of
rank r % 2 with "distributedInfo.rank" = r and every timestamp moved by a clock offset of
(r % 7) x 40 us; rank SLOW (default N // 3) also starts LATE ms late (default 500), so that it is
the rank the others wait for. The two real ranks' clocks already differ by tens of milliseconds at
their collectives (rank 1's NCCL kernels start 35-63 ms after rank 0's), so a smaller lateness would
hide among them. Nothing but the rank and the times is changed.

    tests/benchmarks/make_ranks.py OUTDIR N [--slow RANK] [--late MS]

Used by tests/benchmarks/ranks.sh (docs/PERFORMANCE.md, "Thousands of ranks")."""
import argparse
import gzip
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = [os.path.join(HERE, '..', 'data', 'kineto', 'trace_filter', f'sampled_rank-{i}.json.gz') for i in (0, 1)]


def pieces(text):
    """[text, ts, text, ts, ..., text]: the timestamps (us, integers in these traces) split out once."""
    parts = re.split(r'("ts": )(\d+)', text)
    # re.split with two groups gives [text, '"ts": ', digits, text, ...]: fold the key into the text.
    out = [parts[0]]
    for i in range(1, len(parts), 3):
        out[-1] += parts[i]
        out.append(int(parts[i + 1]))
        out.append(parts[i + 2])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('outdir')
    parser.add_argument('n', type=int)
    parser.add_argument('--slow', type=int, default=None)
    parser.add_argument('--late', type=int, default=500)
    args = parser.parse_args()
    slow = args.n // 3 if args.slow is None else args.slow
    os.makedirs(args.outdir, exist_ok=True)
    sources = []
    for path in SOURCES:
        with gzip.open(path, 'rt') as f:
            text = f.read()
        # The rank appears once, in distributedInfo.
        head, sep, tail = text.partition('"rank": ')
        digits = re.match(r'\d+', tail).group(0)
        sources.append((pieces(head + sep), pieces(tail[len(digits):])))
    for r in range(args.n):
        before, after = sources[r % 2]
        offset = (r % 7) * 40 + (args.late * 1000 if r == slow else 0)
        out = []
        for part in (before, [str(r)], after):
            out.extend(str(p + offset) if isinstance(p, int) else p for p in part)
        with gzip.open(os.path.join(args.outdir, f'rank-{r:04d}.json.gz'), 'wt', compresslevel=1) as f:
            f.write(''.join(out))
    print(f'{args.n} traces in {args.outdir} (rank {slow} starts {args.late} ms late)')


if __name__ == '__main__':
    main()
