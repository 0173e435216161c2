#!/usr/bin/env python3
"""The lora peer on the GPU: cuBLAS's bf16 GEMM (torch.matmul, fp32 accumulation) and PyTorch's
LoRA (x @ W + scale * (dropout(x) @ A) @ B, each pass its own kernel) at the shapes of memwall's
lora cuda cases in the database (runs tagged kit=lora), timed as memwall times: L2 flushed, CUDA
events, median of 30. Prints a Markdown table per problem: each variant's median in ms and
TFLOP/s (2*M*K*N of the GEMM; the adapter's 2*M*r*(K+N) beside it), the best config of each of
base_tc, fused_tc and unfused_tc, and the ratios issue 45 asks for: base_tc over cuBLAS's GEMM
(>= 0.8x, goal 1.0x), fused_tc over base_tc (<= 1.10x) and cublas_unfused over fused_tc (>= 1.2x).
Printed, not asserted.
    lora_peer.py DB"""
import json
import sys

import torch

from peer_kit import l2_flush_buffer, median_ms, tagged_cases, timed_ms


def main(argv):
    db, rows = tagged_cases(argv, __doc__, "lora", "lora")
    l2 = l2_flush_buffer()
    print(f"PyTorch {torch.__version__}, {torch.cuda.get_device_name(0)}, bf16 in and out, fp32 accumulation\n")
    problems = {}
    for cid, variant, config, problem, status in rows:
        p = json.loads(problem)
        if p.get("dtype") != "bf16":
            continue
        key = (p["M"], p["K"], p["N"], p["r"], p["adapters"])
        ms = median_ms(db, cid)
        best = problems.setdefault(key, {})
        kept = best.get(variant)
        if ms is not None and (kept is None or kept[0] is None or ms < kept[0]):
            best[variant] = (ms, config)
        elif kept is None:
            best[variant] = (None, status)
    print("| M K N r adapters | variant (config) | ms | GEMM TFLOP/s |")
    print("|---|---|---|---|")
    for (m, k, n, r, adapters), best in sorted(problems.items()):
        gemm_flop = 2.0 * m * k * n
        x = torch.randn(m, k, dtype=torch.bfloat16, device="cuda")
        w = torch.randn(k, n, dtype=torch.bfloat16, device="cuda")
        a = torch.randn(k, r, dtype=torch.bfloat16, device="cuda")
        b = torch.randn(r, n, dtype=torch.bfloat16, device="cuda")
        drop = torch.nn.Dropout(0.1)
        cublas_ms = timed_ms(lambda: torch.matmul(x, w), l2)
        pytorch_ms = timed_ms(lambda: torch.matmul(x, w) + 16.0 * torch.matmul(torch.matmul(drop(x), a), b), l2)
        shape = f"{m} {k} {n} {r} {adapters}"
        for variant, (ms, config) in sorted(best.items()):
            cell = f"{ms:.4g} | {gemm_flop / ms / 1e9:.0f}" if ms else f"{config} | "
            print(f"| {shape} | {variant} ({config if ms else ''}) | {cell} |")
        print(f"| {shape} | cuBLAS bf16 GEMM (torch.matmul) | {cublas_ms:.4g} | {gemm_flop / cublas_ms / 1e9:.0f} |")
        print(f"| {shape} | PyTorch LoRA (matmul, dropout, matmul, matmul, add) | {pytorch_ms:.4g} | "
              f"{gemm_flop / pytorch_ms / 1e9:.0f} |")
        t = {v: best[v][0] for v in best if best[v][0]}
        ratios = []
        if "base_tc" in t:
            ratios.append(f"base_tc speed over cuBLAS GEMM {cublas_ms / t['base_tc']:.2f}x (asked >= 0.8)")
        if "fused_tc" in t and "base_tc" in t:
            ratios.append(f"fused_tc time over base_tc {t['fused_tc'] / t['base_tc']:.2f}x (asked <= 1.10)")
        if "fused_tc" in t and "cublas_unfused" in t:
            ratios.append(f"fused_tc speed-up over cublas_unfused {t['cublas_unfused'] / t['fused_tc']:.2f}x "
                          "(asked >= 1.2)")
        if "fused_tc" in t and "unfused_tc" in t:
            ratios.append(f"over unfused_tc {t['unfused_tc'] / t['fused_tc']:.2f}x")
        if ratios:
            print(f"| {shape} | ratios | {'; '.join(ratios)} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
