"""What the GPU kit's peer scripts (sdpa_peer.py, lora_peer.py) share: memwall's cuda cases of the
runs tagged kit=TAG, read from its database with their median times, and the timing of a PyTorch
call as memwall times its cases (L2 flushed before each run, CUDA events, the median)."""
import sqlite3
import statistics
import sys

import torch


def l2_flush_buffer():
    """A buffer larger than the device's L2, whose zeroing evicts it."""
    return torch.empty(torch.cuda.get_device_properties(0).L2_cache_size // 4 + 1, dtype=torch.float32, device="cuda")


def timed_ms(fn, l2, reps=30):
    """The median of `reps` runs of fn in ms, after one untimed run, each after zeroing `l2`."""
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


def tagged_cases(argv, doc, tag, family):
    """The database named by the script's one argument (else its usage, `doc`, and exit 2), and
    the cuda cases of `family` in runs tagged kit=`tag`: (id, variant, config, problem, status)."""
    if len(argv) != 2:
        print(doc, file=sys.stderr)
        sys.exit(2)
    db = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.id, c.variant, c.config, c.problem, c.status FROM cases c JOIN run_tags t ON t.run_id = c.run_id "
        "WHERE t.key = 'kit' AND t.value = ? AND c.family = ? AND c.backend = 'cuda'", (tag, family)).fetchall()
    return db, rows


def median_ms(db, case_id):
    """A case's median sample in ms, or None when it has none (a failed case)."""
    samples = [s for (s,) in db.execute("SELECT seconds FROM samples WHERE case_id = ?", (case_id,))]
    return 1e3 * statistics.median(samples) if samples else None
