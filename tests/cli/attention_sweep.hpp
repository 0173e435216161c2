// The sweep the crash and interrupt tests run and cut short: attention's naive and flash at batch
// 1, 2 heads, head_dim 64, not causal, seq_q = seq_k from 32 to `longest` in steps of 32 (two
// cases per length), each case sampled once for `seconds` and timed out after as long, no
// ceilings, quiet, into s.db.
#pragma once

#include <string>
#include <vector>

namespace memwall::test {

inline std::vector<std::string> attention_sweep(const std::string& longest, const std::string& seconds) {
    const std::string lengths = "32:" + longest + ":32";
    return {"--db",
            "s.db",
            "run",
            "--family",
            "attention",
            "--variant",
            "naive,flash",
            "--axis",
            "batch=1",
            "--axis",
            "heads=2",
            "--axis",
            "seq_q=" + lengths,
            "--axis",
            "seq_k=" + lengths,
            "--axis",
            "head_dim=64",
            "--axis",
            "causal=0",
            "--ceilings",
            "none",
            "--quiet",
            "--min-samples",
            "1",
            "--min-time",
            seconds,
            "--max-noise",
            "1e-9",
            "--timeout",
            seconds};
}

}  // namespace memwall::test
