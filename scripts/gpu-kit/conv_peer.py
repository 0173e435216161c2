#!/usr/bin/env python3
"""The conv peer on the GPU: PyTorch's conv2d on cuDNN (cudnn.benchmark, so cuDNN times its own
algorithms and keeps the fastest) at the shapes of memwall's conv/implicit_gemm_tc and im2win_tc
cuda cases in the database (runs tagged kit=convtc), in the same math mode: bf16 tensors, or fp32
tensors with TF32 allowed (torch.backends.cudnn.allow_tf32); NHWC (channels_last) as memwall's
kernels take them. Timed as memwall times: L2 flushed, CUDA events, median of 30. Prints a Markdown
table: each median in ms and TFLOP/s (2*N*K*C*R*S*P*Q), and memwall's time over cuDNN's (issue 45
asks implicit_gemm_tc for <= 1.5 on conv5-conv12 at batch 32). Printed, not asserted.
    conv_peer.py DB"""
import json
import sys

import torch
import torch.nn.functional as F

from peer_kit import l2_flush_buffer, median_ms, tagged_cases, timed_ms


def cudnn_ms(p, l2):
    """cuDNN's median for problem p (the case's axes), or why it could not run."""
    torch.backends.cudnn.allow_tf32 = p.get("dtype") == "tf32"
    t = torch.bfloat16 if p.get("dtype") == "bf16" else torch.float32
    x = torch.randn(p["batch"], p["C"], p["H"], p["W"], dtype=t, device="cuda").to(memory_format=torch.channels_last)
    f = torch.randn(p["K"], p["C"], p["R"], p["S"], dtype=t, device="cuda").to(memory_format=torch.channels_last)
    try:
        return timed_ms(lambda: F.conv2d(x, f, stride=p["stride"], padding=p["pad"]), l2)
    except RuntimeError as e:
        return "n/a (" + str(e).splitlines()[0][:60] + ")"


def main(argv):
    db, rows = tagged_cases(argv, __doc__, "convtc", "conv")
    torch.backends.cudnn.benchmark = True
    l2 = l2_flush_buffer()
    print(f"PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name(0)}\n")
    print("| layer N C HxW K RxS stride pad dtype | memwall variant (config) | ms (TFLOP/s) | cuDNN ms (TFLOP/s) "
          "| memwall / cuDNN time |")
    print("|---|---|---|---|---|")
    peer = {}
    for cid, variant, config, problem, status in rows:
        if variant not in ("implicit_gemm_tc", "im2win_tc"):
            continue
        p = json.loads(problem)
        n, c, h, w, k, r, s, stride, pad = (p[a] for a in ("batch", "C", "H", "W", "K", "R", "S", "stride", "pad"))
        flop = 2.0 * n * k * c * r * s * ((h + 2 * pad - r) // stride + 1) * ((w + 2 * pad - s) // stride + 1)
        key = (n, c, h, w, k, r, s, stride, pad, p.get("dtype"))
        if key not in peer:
            peer[key] = cudnn_ms(p, l2)
        ours, theirs = median_ms(db, cid), peer[key]
        cells = [f"{variant} ({config})", f"{ours:.4g} ({flop / ours / 1e9:.0f})" if ours else status,
                 f"{theirs:.4g} ({flop / theirs / 1e9:.0f})" if isinstance(theirs, float) else theirs,
                 f"{ours / theirs:.2f}x" if ours and isinstance(theirs, float) else "n/a"]
        print(f"| {p.get('layer', 'custom')} {n} {c} {h}x{w} {k} {r}x{s} {stride} {pad} {p.get('dtype')} | "
              + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
