// attention/topk_sparse against the dense decode it replaces, attention/decode_splitkv, on the CPU
// (issue 46, acceptance 2): batch 1, 8 heads, seq_k 32768, head_dim 128, r = 16 label channels,
// k = seq_k / 16 keys, on inputs with 4 outlier channels per head. Checks both, then prints the
// median times (runs interleaved), the speed-up, the KV bytes each reads and the cache level that
// holds them, and topk_sparse's error against dense attention (approx.rel_l2) with and without
// outlier channels; then, under cuda-emu at a smaller shape, topk_sparse's DRAM bytes against its
// model. Each ISA the host runs, or the one --isa names (MEMWALL_ISA is honoured as everywhere);
// --heads N sets the heads, so that K and V can outgrow a large last-level cache.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "core/errors.hpp"
#include "core/isa.hpp"
#include "core/machine.hpp"
#include "cuda_emu/traffic.hpp"
#include "kernels/attention/cuda/topk_case.hpp"
#include "kernels/attention/decode.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "metrics/memory_hierarchy.hpp"

namespace {

using namespace memwall;

double seconds_of(auto&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> t) {
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// The catalogue's default num_splits of the CPU decode_splitkv.
int default_splits() {
    Catalogue c;
    register_attention(c);
    return static_cast<int>(std::get<std::int64_t>(
        c.variant("attention", "decode_splitkv", Backend::cpu).tunables.front().defaults.front()));
}

struct TopkOutput {
    std::vector<std::int32_t> channels;
    std::vector<float> label, out;
    std::vector<std::int32_t> selected;
};

TopkOutput prepare_topk(const AttentionWorkload& w, const TopkSizes& t) {
    const AttentionProblem& p = w.problem();
    TopkOutput x;
    x.channels = topk_calibrate(p, w.k().data(), t.channels);
    x.label = topk_label_cache(p, w.k().data(), x.channels, t.channels);
    x.out.assign(topk_output_floats(p), std::numeric_limits<float>::quiet_NaN());
    x.selected.resize(static_cast<std::size_t>(p.heads_total() * t.tokens));
    return x;
}

void run_topk(const AttentionWorkload& w, const TopkSizes& t, TopkOutput& x) {
    attention_topk_sparse(w.problem(), t, w.q().data(), w.k().data(), w.v().data(), x.label.data(), x.channels.data(),
                          x.out.data(), x.selected.data());
}

void print_check(const char* name, const Check& c) {
    std::printf("check %-14s %s: relative L2 error %.2e (tolerance %.0e)%s%s\n", name, c.ok ? "ok    " : "FAILED",
                c.error, c.tolerance, c.ok ? "" : ": ", c.message.c_str());
}

AttentionProblem decode_problem(std::int64_t heads, std::int64_t seq_k, std::int64_t outliers) {
    AttentionProblem p;
    p.heads = heads;
    p.seq_q = 1;
    p.seq_k = seq_k;
    p.head_dim = 128;
    p.outliers = outliers;
    return p;
}

// topk_sparse under cuda-emu: DRAM bytes read and written against topk_traffic's.
bool emu_against_model() {
    const AttentionWorkload w(decode_problem(2, 4096, 4), 1);
    const TopkSizes t{16, 256};
    const attention_cuda::TopkTuning tuning{16, 256, 4, 256};
    std::vector<std::int32_t> channels = topk_calibrate(w.problem(), w.k().data(), 16);
    const std::vector<float> label = topk_label_cache(w.problem(), w.k().data(), channels, 16);
    auto c = attention_cuda::cuda_emu::make_topk_case(
        cuda_shape(w.problem()), tuning, {w.q().data(), w.k().data(), w.v().data(), label.data(), channels, ""});
    c->poison();
    emu::TrafficScope scope;
    c->run();
    const TopkTraffic model = topk_traffic(w.problem(), t, topk_cuda_plan(tuning.splits));
    const auto& s = scope.stats();
    std::vector<float> out(c->output_size());
    c->download(out.data());
    const Check check = topk_check(w, channels, t, out.data());
    std::printf(
        "cuda-emu, 2 heads, seq_k 4096, d 128, r 16, k 256: check %s; DRAM read %llu B (model %.0f), "
        "written %llu B (model %.0f); KV read %.0f B = %.4f of dense\n",
        check.ok ? "ok" : "FAILED", static_cast<unsigned long long>(s.dram_read_bytes), model.reads,
        static_cast<unsigned long long>(s.dram_write_bytes), model.writes, topk_kv_bytes(w.problem(), t),
        topk_kv_bytes(w.problem(), t) / (8.0 * static_cast<double>(w.problem().kv_size())));
    return check.ok && static_cast<double>(s.dram_read_bytes) == model.reads &&
           static_cast<double>(s.dram_write_bytes) == model.writes;
}

// decode_splitkv against topk_sparse with the kernels of `isa`; false when a check fails.
bool bench(Isa isa, const AttentionWorkload& w, const TopkSizes& t, int dense_splits) {
    set_active_isa(isa);
    std::printf("\nkernels %s\n", isa_summary().c_str());
    const AttentionProblem& p = w.problem();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> o(p.q_size(), nan), work(decode_splitkv_workspace_floats(p, dense_splits));
    auto dense = [&] {
        attention_decode_splitkv(p, dense_splits, w.q().data(), w.k().data(), w.v().data(), o.data(), work.data());
    };
    TopkOutput x = prepare_topk(w, t);
    auto sparse = [&] { run_topk(w, t, x); };
    dense();
    sparse();
    const Check dense_check = w.check(o.data()), sparse_check = topk_check(w, x.channels, t, x.out.data());
    print_check("decode_splitkv", dense_check);
    print_check("topk_sparse", sparse_check);

    std::vector<double> td, ts;
    for (int r = 0; r < 21; ++r) {
        td.push_back(seconds_of(dense));
        ts.push_back(seconds_of(sparse));
    }
    const double dense_s = median(td), sparse_s = median(ts);
    const double dense_kv = 2.0 * 4.0 * static_cast<double>(p.kv_size()), sparse_kv = topk_kv_bytes(p, t);
    std::printf("%-15s %12s %14s %10s\n", "", "median ms", "KV bytes", "KV GB/s");
    std::printf("%-15s %12.3f %14.0f %10.1f\n", "decode_splitkv", 1e3 * dense_s, dense_kv, dense_kv / dense_s / 1e9);
    std::printf("%-15s %12.3f %14.0f %10.1f\n", "topk_sparse", 1e3 * sparse_s, sparse_kv, sparse_kv / sparse_s / 1e9);
    std::printf("topk_sparse / decode_splitkv: %.2fx faster, KV bytes %.4f of dense (targets: >= 4x, <= 1/8)\n",
                dense_s / sparse_s, sparse_kv / dense_kv);
    return dense_check.ok && sparse_check.ok;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<Isa> isas = {active_isa()};
    if (active_isa() == Isa::avx512) isas.push_back(Isa::avx2);
    std::int64_t heads = 8;
    try {
        for (int i = 1; i < argc; ++i) {
            if (std::strcmp(argv[i], "--isa") == 0 && i + 1 < argc) {
                isas = {parse_isa(argv[++i])};
            } else if (std::strcmp(argv[i], "--heads") == 0 && i + 1 < argc) {
                char* end = nullptr;
                heads = std::strtoll(argv[++i], &end, 10);
                if (*end != '\0' || heads < 1)
                    throw UsageError(std::string("--heads takes a positive count, not '") + argv[i] + "'");
            } else {
                std::fprintf(stderr, "usage: %s [--isa avx2|avx512] [--heads N]\n", argv[0]);
                return 2;
            }
        }
    } catch (const UsageError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    const std::int64_t seq_k = 32768;
    const AttentionWorkload w(decode_problem(heads, seq_k, 4), 1);
    const TopkSizes t{16, seq_k / 16};
    const int dense_splits = default_splits();
    const double kv_bytes = 2.0 * 4.0 * static_cast<double>(w.problem().kv_size());
    const MemoryHierarchy mh = detect_memory_hierarchy();
    std::printf("host: %s\n", cpu_description().c_str());
    std::printf(
        "decode b=1 h=%lld s_k=%lld d=128 fp32, 4 outlier channels per head; decode_splitkv num_splits=%d, "
        "topk_sparse r=%lld k=%lld; K and V %.0f MiB, each thread's share held by %s\n",
        static_cast<long long>(heads), static_cast<long long>(seq_k), dense_splits, static_cast<long long>(t.channels),
        static_cast<long long>(t.tokens), kv_bytes / (1 << 20), mh.level_holding(kv_bytes / mh.cpus).c_str());
    bool ok = true;
    for (Isa isa : isas) ok = bench(isa, w, t, dense_splits) && ok;

    TopkOutput x = prepare_topk(w, t);
    run_topk(w, t, x);
    const AttentionWorkload plain(decode_problem(heads, seq_k, 0), 1);
    TopkOutput y = prepare_topk(plain, t);
    run_topk(plain, t, y);
    std::printf("\napprox.rel_l2 against dense attention: %.4f with 4 outlier channels per head, %.4f without\n",
                topk_approx_error(w, x.out.data()).value, topk_approx_error(plain, y.out.data()).value);
    const bool emu_ok = emu_against_model();
    return ok && emu_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
