// attention/flash under cuda-emu at seq 1024, head_dim 64 (b = 1, h = 1, non-causal, 4 warps):
// global bytes loaded for Br = Bc in {16, 32, 64}, in fp32 and bf16, beside the IO model's
// prediction, and how fast the emulator ran them.
//
// Model: Q is read once and each of the ceil(N/Br) query blocks streams all of K and V, so
//   loads = e * (N*d + ceil(N/Br) * 2*N*d) bytes (e = 4 for fp32, 2 for bf16),
// whose K/V term is 2e * N^2 * d^2 / M with M = Br * d, the elements of Q a block keeps on chip:
// the Theta(N^2 d^2 / M) of FlashAttention's IO analysis with constant 2e (K and V).
// Emulator speed over the CPU time of one forward pass (one core), from the kernel's structure:
// __syncthreads passages (threads * barriers; a block passes 2 per K/V tile plus 1), warp
// synchronisations (lanes * intrinsics; each query row of each tile costs its warp 5 max and 5
// sum shuffles and a __syncwarp), and counted global accesses.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/attention/attention.hpp"
#include "kernels/attention/cuda/device_case.hpp"
#include "kernels/attention/register_cuda.hpp"

int main() {
    using namespace memwall;
    constexpr std::int64_t n = 1024, d = 64;
    constexpr int warps = 4;
    std::printf("attention/flash on cuda-emu: N = %lld, d = %lld, b = h = 1, non-causal, %d warps\n",
                static_cast<long long>(n), static_cast<long long>(d), warps);
    std::printf(
        "model: loads = e*(N*d + ceil(N/Br)*2*N*d) B, e = element bytes; K/V term = 2e*N^2*d^2/M, "
        "M = Br*d elements\n\n");
    std::printf("%-5s %-6s %12s %12s %7s %12s %7s %14s %14s %11s  %s\n", "dtype", "Br=Bc", "loaded B", "model B",
                "ratio", "DRAM read B", "CPU s", "thr*barrier/s", "lane*warpsync/s", "accesses/s", "check");
    for (AttentionDtype dtype : {AttentionDtype::fp32, AttentionDtype::bf16}) {
        AttentionProblem p;
        p.seq_q = n;
        p.seq_k = n;
        p.head_dim = d;
        p.dtype = dtype;
        const AttentionWorkload w(p, 1);
        for (int tile : {16, 32, 64}) {
            auto device = attention_cuda::cuda_emu::make_device_case(
                cuda_shape(p), {.algorithm = attention_cuda::Algorithm::flash, .br = tile, .bc = tile, .warps = warps},
                {w.q().data(), w.k().data(), w.v().data()});
            device->poison();
            emu::TrafficScope scope;
            const std::clock_t c0 = std::clock();
            device->run();
            const double seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
            std::vector<float> o(p.q_size());
            device->download(o.data());
            const Check check = w.check(o.data());

            const emu::TrafficStats& s = scope.stats();
            const std::int64_t blocks = (n + tile - 1) / tile, tiles = (n + tile - 1) / tile;
            const double model = p.element_bytes() * static_cast<double>(n * d + blocks * 2 * n * d);
            const double passages = static_cast<double>(blocks * warps * 32 * (2 * tiles + 1));
            const double warp_syncs = static_cast<double>(blocks * tiles * tile * 32 * 11);
            const double accesses = static_cast<double>(s.load.accesses + s.store.accesses);
            std::printf("%-5s %-6d %12llu %12.0f %7.4f %12llu %7.2f %14.3g %14.3g %11.3g  %s\n",
                        dtype == AttentionDtype::bf16 ? "bf16" : "fp32", tile,
                        static_cast<unsigned long long>(s.load.bytes), model, static_cast<double>(s.load.bytes) / model,
                        static_cast<unsigned long long>(s.dram_read_bytes), seconds, passages / seconds,
                        warp_syncs / seconds, accesses / seconds, check.ok ? "ok" : check.message.c_str());
        }
    }
    std::printf(
        "\nDRAM read B: the emulator's L2 model (H100: 50 MiB) holds all of K and V, so it stays at\n"
        "the compulsory Q + K + V bytes whatever the tiles; the loaded bytes are what an L2 serves.\n");
    return 0;
}
