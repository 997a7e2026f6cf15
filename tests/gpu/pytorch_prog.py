#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small PyTorch training loop for the GPU bundle's PyTorch check (pytorch_check.py).

Every CUDA call happens inside torch.profiler when --trace is given (so the Kineto trace and a
`ridgeline capture` of the same process see the same kernels): a two-layer MLP, forward, backward
and SGD for --steps steps, one BF16 matmul and a softmax per step, then a synchronise.
Usage: python3 pytorch_prog.py [--trace TRACE.json] [--steps N]
"""
import argparse
import contextlib
import json
import sys

import torch


def work(steps):
    torch.manual_seed(0)
    x = torch.randn(2048, 1024, device="cuda")
    model = torch.nn.Sequential(
        torch.nn.Linear(1024, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 1024)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, foreach=False)
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.bfloat16)
    for step in range(steps):
        with torch.profiler.record_function(f"step {step}"):
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            torch.softmax(a @ a, dim=-1)
    torch.cuda.synchronize()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace", help="export a Kineto trace (torch.profiler) here")
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("pytorch_prog.py: no CUDA device", file=sys.stderr)
        return 2
    profiler = contextlib.nullcontext()
    if args.trace:
        profiler = torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA])
    with profiler as prof:
        work(args.steps)
    if args.trace:
        prof.export_chrome_trace(args.trace)
    print("pytorch_prog: " + json.dumps({"torch": torch.__version__, "cuda": torch.version.cuda,
                                         "device": torch.cuda.get_device_name(0), "steps": args.steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
