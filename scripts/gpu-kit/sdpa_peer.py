#!/usr/bin/env python3
"""The attention peer on the GPU: PyTorch's scaled_dot_product_attention with its FlashAttention-2,
cuDNN and memory-efficient backends, at the shapes of memwall's attention/flash cuda cases in the
database (runs tagged kit=sdpa), timed as memwall times: L2 flushed, CUDA events, median of 30.
Prints a Markdown table beside memwall's median.
    sdpa_peer.py DB"""
import json
import sqlite3
import statistics
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.functional import scaled_dot_product_attention

BACKENDS = [("flash2", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION)]


def timed_ms(fn, l2, reps=30):
    fn()
    times = []
    for _ in range(reps):
        l2.zero_()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    db = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.id, c.problem, c.status FROM cases c JOIN run_tags t ON t.run_id = c.run_id "
        "WHERE t.key = 'kit' AND t.value = 'sdpa' AND c.family = 'attention' AND c.variant = 'flash' "
        "AND c.backend = 'cuda'").fetchall()
    l2 = torch.empty(torch.cuda.get_device_properties(0).L2_cache_size // 4 + 1, dtype=torch.float32, device="cuda")
    print(f"PyTorch {torch.__version__}, {torch.cuda.get_device_name(0)}\n")
    print("| b h s d causal dtype | memwall flash ms | " + " | ".join(f"SDPA {n} ms" for n, _ in BACKENDS) + " |")
    print("|---|---|" + "---|" * len(BACKENDS))
    for cid, problem, status in rows:
        p = json.loads(problem)
        dtype = torch.bfloat16 if p.get("dtype") == "bf16" else torch.float32
        b, h, sq, sk, d = p["batch"], p["heads"], p["seq_q"], p["seq_k"], p["head_dim"]
        q = torch.randn(b, h, sq, d, dtype=dtype, device="cuda")
        k = torch.randn(b, h, sk, d, dtype=dtype, device="cuda")
        v = torch.randn(b, h, sk, d, dtype=dtype, device="cuda")
        ours = [s for (s,) in db.execute("SELECT seconds FROM samples WHERE case_id = ?", (cid,))]
        cells = [f"{1e3 * statistics.median(ours):.4g}" if ours else status]
        for _, backend in BACKENDS:
            try:
                with sdpa_kernel(backend):
                    cells.append(f"{timed_ms(lambda: scaled_dot_product_attention(q, k, v, is_causal=bool(p['causal'])), l2):.4g}")
            except RuntimeError as e:
                cells.append("n/a (" + str(e).splitlines()[0][:60] + ")")
        print(f"| {b} {h} {sq} {d} {p['causal']} {p.get('dtype', 'fp32')} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
