// lora on cuda-emu: the DRAM bytes of base, unfused, fused and multi_adapter (default tiling) at
// one small shape, M 256 tokens, K = N = 512, r 16, one adapter (then four), α 16, dropout 0.1,
// in fp32 and, on the tensor-core versions (*_tc, default tile), in bf16, from the emulator's L2
// model, beside LoRAFusion's measured DRAM traffic of its fused
// kernels over PyTorch's LoRA on H100 (0.63–0.76x; bf16, K = N = 4096..8192, M 2048..8192).
//
// Two L2 models, cold at the forward pass's start and warm across its launches: H100's 50 MiB,
// which holds this shape's every operand and intermediate, so reads reach DRAM once and what
// separates the methods is mostly their writes (every launch writes back what it dirtied); and
// 1 MiB, half the shape's X + W + Y (2 MiB), as LoRAFusion's
// lorafusion4096 shape at M 4096 (X + W + Y of 96 MiB in bf16) is about twice H100's L2, so the
// GEMM's re-reads of X and W reach DRAM too. These are properties of the CUDA kernels' access
// streams counted on the CPU, not GPU measurements; the emulation time is this CPU's.
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "cuda_emu/traffic.hpp"
#include "kernels/lora/cuda/device_case.hpp"
#include "kernels/lora/cuda/traffic_model.hpp"
#include "kernels/lora/lora.hpp"
#include "kernels/lora/register_cuda.hpp"

namespace {

using namespace memwall;
using lora_cuda::Method;

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    return "unknown";
}

struct Row {
    std::string method;
    emu::TrafficStats s;
    double model_dram = 0;
    double seconds = 0;
    std::string check;
    double dram() const { return static_cast<double>(s.dram_read_bytes + s.dram_write_bytes); }
};

// The FMA variant of a method on an fp32 workload, its tensor-core version (default tile) on bf16.
Row run(const LoraWorkload& w, Method m, const std::string& name, const emu::EmulationOptions& options) {
    const LoraProblem& p = w.problem();
    const bool tc = p.dtype == LoraDtype::bf16;
    auto device =
        tc ? lora_cuda::cuda_emu::make_tensor_core_case(cuda_shape(p), m, lora_cuda::TcTuning{}, cuda_inputs(w),
                                                        options)
           : lora_cuda::cuda_emu::make_device_case(cuda_shape(p), m, lora_cuda::Tuning{}, cuda_inputs(w), options);
    device->poison();
    Row r;
    r.method = name;
    {
        emu::TrafficScope scope;
        const std::clock_t c0 = std::clock();
        device->run();
        r.seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        r.s = scope.stats();
    }
    std::vector<float> y(device->output_size());
    device->download(y.data());
    const Check ch = check_cuda_output(w, y.data(), m == Method::base);
    r.check = ch.ok ? "ok" : ch.message;
    r.model_dram =
        (tc ? lora_tc_traffic(p, m, lora_cuda::TcTuning{}) : lora_cuda_traffic(p, m, lora_cuda::Tuning{})).dram;
    return r;
}

double mib(std::size_t b) { return static_cast<double>(b) / (1 << 20); }

}  // namespace

int main() {
    std::printf(
        "lora on cuda-emu (CUDA kernels run on the CPU: %s): fp32 on the FMA variants, default tiling BM 64 "
        "BN 64 BK 8 TM 4 TN 4; bf16 on the *_tc variants, default tile BM 128 BN 128, 8 warps, 3 stages;\n"
        "emu figures are exact counts of the kernels' access streams and an L2-model DRAM estimate, not GPU "
        "measurements\n",
        cpu_model().c_str());
    for (LoraDtype dtype : {LoraDtype::fp32, LoraDtype::bf16})
        for (std::int64_t adapters : {1, 4}) {
            LoraProblem p;
            p.m = 256;
            p.k = 512;
            p.n = 512;
            p.r = 16;
            p.adapters = adapters;
            p.dropout = 0.1;
            p.alpha = 16;
            p.dtype = dtype;
            const LoraWorkload w(p, 1);
            const char* const suffix = dtype == LoraDtype::bf16 ? "_tc" : "";
            const double xwy =
                static_cast<double>(p.element_bytes()) * static_cast<double>(p.m * p.k + p.k * p.n + p.m * p.n);
            for (std::size_t l2 : {std::size_t{50} << 20, std::size_t{1} << 20}) {
                emu::EmulationOptions options;
                options.l2.bytes = l2;
                std::printf(
                    "\n%s: M %lld, K %lld, N %lld, r %lld, adapters %lld (X + W + Y %.2f MiB); L2 model %.0f MiB, "
                    "%zu-byte lines, %zu ways, LRU, warm across the pass's launches\n",
                    lora_dtype_name(dtype), static_cast<long long>(p.m), static_cast<long long>(p.k),
                    static_cast<long long>(p.n), static_cast<long long>(p.r), static_cast<long long>(adapters),
                    xwy / (1 << 20), mib(l2), options.l2.line_bytes, options.l2.ways);
                std::printf("%-16s %8s %14s %14s %14s %14s %14s  %-6s %6s\n", "method", "launches", "emu loads B",
                            "emu stores B", "DRAM read B", "DRAM write B", "DRAM B", "check", "CPU s");
                std::vector<Row> rows;
                for (const auto& [m, base_name] : {std::pair{Method::base, "base"},
                                                   {Method::unfused, "unfused"},
                                                   {Method::fused, "fused"},
                                                   {Method::multi_adapter, "multi_adapter"}}) {
                    const std::string name = std::string(base_name) + suffix;
                    rows.push_back(run(w, m, name, options));
                    const Row& r = rows.back();
                    std::printf(
                        "%-16s %8llu %14llu %14llu %14llu %14llu %14.0f  %-6s %6.2f\n", r.method.c_str(),
                        static_cast<unsigned long long>(r.s.launches), static_cast<unsigned long long>(r.s.load.bytes),
                        static_cast<unsigned long long>(r.s.store.bytes),
                        static_cast<unsigned long long>(r.s.dram_read_bytes),
                        static_cast<unsigned long long>(r.s.dram_write_bytes), r.dram(), r.check.c_str(), r.seconds);
                }
                const double unfused = rows[1].dram();
                std::printf(
                    "DRAM bytes over unfused%s: fused%s %.3f, multi_adapter%s %.3f, base%s %.3f (LoRAFusion, H100, "
                    "measured: fused 0.63-0.76)\n",
                    suffix, suffix, rows[2].dram() / unfused, suffix, rows[3].dram() / unfused, suffix,
                    rows[0].dram() / unfused);
                if (l2 == (std::size_t{50} << 20))
                    std::printf(
                        "pass-by-pass model (kernels/lora/cuda/traffic_model.hpp) DRAM B: base %.0f, unfused %.0f, "
                        "fused %.0f, multi_adapter %.0f\n",
                        rows[0].model_dram, rows[1].model_dram, rows[2].model_dram, rows[3].model_dram);
            }
        }
    std::printf(
        "\nunfused writes X', S and T and reads them back, and reads and writes Y once more (Y += a*T);\n"
        "fused reads X twice (down-projection, GEMM) and stores Y once, S*B_a added in the GEMM's registers;\n"
        "with several adapters fused makes one GEMM call per adapter, each reading all of W.\n");
    return 0;
}
