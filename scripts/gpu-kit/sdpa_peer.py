#!/usr/bin/env python3
"""The attention peer on the GPU: PyTorch's scaled_dot_product_attention with its FlashAttention-2,
cuDNN and memory-efficient backends, at the shapes of memwall's attention/flash and flash_tc cuda
cases in the database (runs tagged kit=sdpa), timed as memwall times: L2 flushed, CUDA events,
median of 30. Prints a Markdown table: each median in ms and TFLOP/s (4*b*h*s_q*s_k*d, halved when
causal), and memwall's TFLOP/s over SDPA FlashAttention-2's (issue 42 asks flash_tc for >= 0.8).
SDPA's causal mask is top-left aligned, memwall's bottom-right: they agree only where s_q = s_k,
so causal cases with s_q != s_k are left out.
    sdpa_peer.py DB"""
import json
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.functional import scaled_dot_product_attention

from peer_kit import l2_flush_buffer, median_ms, tagged_cases, timed_ms

BACKENDS = [("flash2", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION)]


def main(argv):
    db, rows = tagged_cases(argv, __doc__, "sdpa", "attention")
    l2 = l2_flush_buffer()
    print(f"PyTorch {torch.__version__}, {torch.cuda.get_device_name(0)}\n")
    print("| b h s d causal dtype | memwall variant (config) | ms (TFLOP/s) | "
          + " | ".join(f"SDPA {n} ms (TFLOP/s)" for n, _ in BACKENDS) + " | memwall / SDPA flash2 |")
    print("|---|---|---|" + "---|" * len(BACKENDS) + "---|")
    for cid, variant, config, problem, status in rows:
        p = json.loads(problem)
        if variant not in ("flash", "flash_tc") or (p["causal"] and p["seq_q"] != p["seq_k"]):
            continue
        dtype = torch.bfloat16 if p.get("dtype") == "bf16" else torch.float32
        b, h, sq, sk, d = p["batch"], p["heads"], p["seq_q"], p["seq_k"], p["head_dim"]
        q = torch.randn(b, h, sq, d, dtype=dtype, device="cuda")
        k = torch.randn(b, h, sk, d, dtype=dtype, device="cuda")
        v = torch.randn(b, h, sk, d, dtype=dtype, device="cuda")
        flop = 4.0 * b * h * sq * sk * d / (2 if p["causal"] else 1)
        ours_ms = median_ms(db, cid)
        cells = [f"{variant} ({config})", f"{ours_ms:.4g} ({flop / ours_ms / 1e9:.0f})" if ours_ms else status]
        flash2_ms = None
        for name, backend in BACKENDS:
            try:
                with sdpa_kernel(backend):
                    ms = timed_ms(lambda: scaled_dot_product_attention(q, k, v, is_causal=bool(p["causal"])), l2)
                cells.append(f"{ms:.4g} ({flop / ms / 1e9:.0f})")
                flash2_ms = ms if name == "flash2" else flash2_ms
            except RuntimeError as e:
                cells.append("n/a (" + str(e).splitlines()[0][:60] + ")")
        cells.append(f"{flash2_ms / ours_ms:.2f}x" if ours_ms and flash2_ms else "n/a")
        print(f"| {b} {h} {sq} {d} {p['causal']} {p.get('dtype', 'fp32')} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
