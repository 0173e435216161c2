// The CUDA conv variants (kernels/conv/cuda) in the catalogue: direct, im2win, implicit_gemm and
// the tensor-core implicit_gemm_tc and im2win_tc for cuda-emu (the kernels run on the CPU, their
// global-memory traffic counted) and for cuda (a real GPU); im2col_gemm (cuBLAS) and the peer
// cudnn for cuda only. The kit
// (kit/cuda_variants.hpp) adds the instances.
//
// Models (cuda/traffic_model.hpp): each kernel's own global loads and stores given its tiling
// (bytes.l1; exact for the emulatable kernels, so cuda-emu's emu.global_load_bytes and
// emu.global_store_bytes must match them), and estimates of the bytes reaching L2 and DRAM in
// cuda-emu's cache models, not the host's. workspace.bytes is what the device allocates; cuDNN's
// is known only at run time and goes to the case's detail instead.
#include "kernels/conv/register_cuda.hpp"

#include <stdexcept>

#include "kernels/conv/cuda/resources.hpp"
#include "kernels/conv/cuda/traffic_model.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/register_tiling_constraints.hpp"

namespace memwall {

namespace {

using conv_cuda::Algorithm;

conv_cuda::Inputs inputs_of(const ConvWorkload& w) { return {w.input(), w.filter()}; }

int tunable_int(const Params& point, const char* name) { return static_cast<int>(point.integer(name)); }

// What every CUDA conv kernel shares: the check, the model, emulation's default problems.
kit::CudaKernel kernel_of(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k;
    k.name = std::move(name);
    k.description = std::move(description);
    k.checked_on_gpu = kit::gpu_runs::kH100_2026_11_27;
    k.check = [](const Workload& w, const float* out) { return workload_as<ConvWorkload>(w).check(out); };
    k.model = [algorithm](const Params& point, const MemoryHierarchy&) {
        return conv_cuda_model(ConvProblem::from(point), cuda_tuning(algorithm, point));
    };
    // Emulation runs every CUDA thread on the CPU: problems it finishes in seconds, RGB-like and
    // wider inputs, stride 1 and 2.
    k.emu_default_axes = {"layer=custom", "batch=1", "C=3,16", "H=16",       "W=16",
                          "K=16",         "R=3",     "S=3",    "stride=1,2", "pad=1"};
    return k;
}

// The emulatable kernels: both device cases from device_cases.cu. A workspace larger than this
// machine's memory is refused before emulation allocates it.
kit::CudaKernel emulatable(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k = kernel_of(algorithm, std::move(name), std::move(description));
    k.emu = [algorithm, variant = k.name](const Workload& wl, const Params& point) {
        const auto& w = workload_as<ConvWorkload>(wl);
        const conv_cuda::Shape s = cuda_shape(w.problem());
        refuse_oversized_workspace(variant, 4.0 * static_cast<double>(conv_cuda::workspace_floats(s, algorithm)));
        return conv_cuda::cuda_emu::make_device_case(s, cuda_tuning(algorithm, point), inputs_of(w));
    };
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [algorithm](const Workload& wl, const Params& point) {
        const auto& w = workload_as<ConvWorkload>(wl);
        return conv_cuda::cuda_gpu::make_device_case(cuda_shape(w.problem()), cuda_tuning(algorithm, point),
                                                     inputs_of(w));
    };
#endif
    return k;
}

bool register_tile(const Params& p, const char* name) { return conv_cuda::register_tile(tunable_int(p, name)); }

kit::CudaKernel direct_kernel() {
    kit::CudaKernel k = emulatable(Algorithm::direct, "direct",
                                   "direct convolution: a thread per output pixel (consecutive along q) for "
                                   "k_per_thread filters, input taps reused from registers, no shared memory");
    Axis threads = tunable(int_axis("threads", {128}, "threads per block, one output pixel each"));
    Axis kpt = tunable(int_axis("k_per_thread", {4}, "filters each thread accumulates (1, 2, 4 or 8)"));
    k.tunables = {bounded(threads, 32, conv_cuda::kMaxThreads), bounded(kpt, 1, 8)};
    k.constraints = {
        {"threads is a multiple of 32 (whole warps)", [](const Params& p) { return p.integer("threads") % 32 == 0; }},
        {"k_per_thread is 1, 2, 4 or 8", [](const Params& p) { return register_tile(p, "k_per_thread"); }},
    };
    return k;
}

kit::CudaKernel im2win_kernel() {
    kit::CudaKernel k = emulatable(
        Algorithm::im2win, "im2win",
        "the im2win paper's GPU method: a transform writes the input in window order (per output row, each "
        "padded column's R elements; workspace N*C*P*(W+2pad)*R floats), then blocks of tile_k filters x "
        "tile_p x tile_q outputs stage filter tiles and contiguous window strips of tile_c channels in shared "
        "memory, k_per_thread filters per thread");
    Axis tile_k = tunable(int_axis("tile_k", {16}, "filters per block"));
    Axis tile_p = tunable(int_axis("tile_p", {4}, "output rows per block"));
    Axis tile_q = tunable(int_axis("tile_q", {16}, "output columns per block"));
    Axis tile_c = tunable(int_axis("tile_c", {2}, "channels staged in shared memory at a time"));
    Axis kpt = tunable(int_axis("k_per_thread", {4}, "filters each thread accumulates (1, 2, 4 or 8)"));
    k.tunables = {bounded(tile_k, 4, 128), bounded(tile_p, 1, 32), bounded(tile_q, 4, 128), bounded(tile_c, 1, 32),
                  bounded(kpt, 1, 8)};
    k.constraints = {
        {"k_per_thread is 1, 2, 4 or 8", [](const Params& p) { return register_tile(p, "k_per_thread"); }},
        {"tile_k is a multiple of k_per_thread",
         [](const Params& p) { return p.integer("tile_k") % p.integer("k_per_thread") == 0; }},
        {"tile_p * tile_q * tile_k / k_per_thread threads are whole warps, at most 1024",
         [](const Params& p) {
             const conv_cuda::Tuning t = cuda_tuning(Algorithm::im2win, p);
             const int threads = conv_cuda::im2win_threads(t);
             return threads % 32 == 0 && threads <= conv_cuda::kMaxThreads;
         }},
        {"the filter and window tiles fit in 48 KiB of shared memory",
         [](const Params& p) {
             return conv_cuda::im2win_shared_bytes(cuda_shape(ConvProblem::from(p)),
                                                   cuda_tuning(Algorithm::im2win, p)) <= conv_cuda::kMaxSharedBytes;
         }},
    };
    return k;
}

kit::CudaKernel implicit_gemm_kernel() {
    kit::CudaKernel k = emulatable(
        Algorithm::implicit_gemm, "implicit_gemm",
        "implicit GEMM (M = K filters, N = batch*P*Q pixels, depth C*R*S), im2col never materialised: BM x BK "
        "filter and BK x BN input tiles gathered into shared memory with index math, a TM x TN register tile "
        "per thread, fp32 FMA");
    Axis bm = tunable(int_axis("BM", {64}, "filters per block tile"));
    Axis bn = tunable(int_axis("BN", {64}, "output pixels per block tile"));
    Axis bk = tunable(int_axis("BK", {8}, "taps (of C*R*S) per shared-memory stage"));
    Axis tm = tunable(int_axis("TM", {4}, "filters per thread (1, 2, 4 or 8)"));
    Axis tn = tunable(int_axis("TN", {4}, "output pixels per thread (1, 2, 4 or 8)"));
    k.tunables = {bounded(bm, 8, 256), bounded(bn, 8, 256), bounded(bk, 2, 64), bounded(tm, 1, 8), bounded(tn, 1, 8)};
    const auto tiles_fit = [](const Params& p) {
        return conv_cuda::implicit_gemm_shared_bytes(tunable_int(p, "BM"), tunable_int(p, "BN"),
                                                     tunable_int(p, "BK")) <= conv_cuda::kMaxSharedBytes;
    };
    k.constraints = kit::register_tiling_constraints();
    k.constraints.push_back({"the filter and input tiles fit in 48 KiB of shared memory", tiles_fit});
    return k;
}

// The tensor-core kernels: dtype bf16 or tf32, and only the compiled tiles (tc_tiles.hpp).
kit::CudaKernel tc_kernel(Algorithm algorithm, std::string name, std::string description) {
    kit::CudaKernel k = emulatable(algorithm, std::move(name), std::move(description));
    k.checked_on_gpu = {};  // no GPU run has checked it
    if (const std::string figures = conv_cuda::conv_tc_resource_summary(algorithm); !figures.empty())
        k.description +=
            ". Static figures on sm_90 (" + std::string(conv_cuda::conv_tc_sm90_resources().evidence) + "): " + figures;
    Axis bm = tunable(int_axis("BM", {64}, "filters per block tile"));
    Axis bn = tunable(int_axis("BN", {64}, "output pixels per block tile"));
    Axis stages = tunable(int_axis("stages", {3}, "shared-memory stages in flight, 64 bytes of depth each"));
    k.tunables = {bounded(bm, 64, 128), bounded(bn, 64, 128), bounded(stages, 2, 4)};
    // A sweep of every dtype gives these only their tensor-core points, the others only fp32.
    k.default_axes = {"dtype=bf16,tf32"};
    // Channels 3 and 20 and 24 filters: no multiple of a chunk or a tile.
    k.emu_default_axes = {"layer=custom", "batch=1", "C=3,20",     "H=12",  "W=12",           "K=24",
                          "R=3",          "S=3",     "stride=1,2", "pad=1", "dtype=bf16,tf32"};
    k.constraints = {
        {"dtype is bf16 or tf32 (tensor cores; fp32 runs on the other variants)",
         [](const Params& p) { return ConvProblem::dtype_of(p) != ConvDtype::fp32; }},
        {"(BM, BN, stages) is a compiled tile: " + conv_cuda::conv_tc_tile_list(),
         [](const Params& p) {
             return conv_cuda::conv_tc_tile_index(tunable_int(p, "BM"), tunable_int(p, "BN"),
                                                  tunable_int(p, "stages")) >= 0;
         }},
    };
    return k;
}

kit::CudaKernel implicit_gemm_tc_kernel() {
    return tc_kernel(
        Algorithm::implicit_gemm_tc, "implicit_gemm_tc",
        "implicit GEMM on tensor cores (bf16 m16n8k16, or tf32 m16n8k8 on fp32 storage; fp32 accumulators): NHWC "
        "input and output, KRSC filter, C padded to 16-byte chunks; BM filters x BN pixels per block of 4 warps, "
        "the im2col gather done by cp.async of 16-byte chunks (zero-filled in the padding) through `stages` "
        "swizzled shared-memory stages, read by ldmatrix");
}

kit::CudaKernel im2win_tc_kernel() {
    return tc_kernel(
        Algorithm::im2win_tc, "im2win_tc",
        "im2win on implicit_gemm_tc's tensor-core GEMM: the window transform, channels last (N*P*(W+2pad)*R*C "
        "elements of workspace), makes each pixel's window S*R*C contiguous elements, which cp.async copies with "
        "no index math; KSRC filter");
}

kit::CudaKernel im2col_gemm_kernel() {
    kit::CudaKernel k = kernel_of(Algorithm::im2col_gemm, "im2col_gemm",
                                  "im2col kernel (workspace N*C*R*S*P*Q floats), then cublasSgemmStridedBatched over "
                                  "the images; CUBLAS_DEFAULT_MATH: plain FP32 FMA, no TF32");
    k.gpu_only_reason = "calls cuBLAS (cublasSgemmStridedBatched), which cuda-emu cannot run";
#ifdef MEMWALL_HAVE_CUDA
    k.gpu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<ConvWorkload>(wl);
        return conv_cuda::cuda_gpu::make_im2col_gemm_case(cuda_shape(w.problem()), inputs_of(w));
    };
#endif
    return k;
}

kit::CudaKernel cudnn_kernel() {
    kit::CudaKernel k = kernel_of(Algorithm::cudnn, "cudnn",
                                  "the peer: cuDNN 9's cudnnConvolutionForward with the algorithm its heuristics rank "
                                  "first (cudnnGetConvolutionForwardAlgorithm_v7), CUDNN_FMA_MATH: plain FP32, no "
                                  "TF32; its workspace and algorithm are in each case's message");
    k.gpu_only_reason = "calls cuDNN (cudnnConvolutionForward), which cuda-emu cannot run";
#if defined(MEMWALL_HAVE_CUDA) && defined(MEMWALL_HAVE_CUDNN)
    k.gpu = [](const Workload& wl, const Params&) {
        const auto& w = workload_as<ConvWorkload>(wl);
        return conv_cuda::cuda_gpu::make_cudnn_case(cuda_shape(w.problem()), inputs_of(w));
    };
#elif defined(MEMWALL_HAVE_CUDA)
    k.gpu = [](const Workload&, const Params&) -> std::unique_ptr<kit::DeviceCase> {
        throw std::runtime_error("conv/cudnn: memwall was built without cuDNN (not found beside the CUDA toolkit)");
    };
#endif
    return k;
}

}  // namespace

conv_cuda::Shape cuda_shape(const ConvProblem& p) {
    const auto i = [](std::int64_t x) { return static_cast<int>(x); };
    return {.n = i(p.n),
            .c = i(p.c),
            .h = i(p.h),
            .w = i(p.w),
            .k = i(p.k),
            .r = i(p.r),
            .s = i(p.s),
            .stride = i(p.stride),
            .pad = i(p.pad),
            .p = i(p.p()),
            .q = i(p.q()),
            .dtype = p.dtype == ConvDtype::bf16   ? conv_cuda::Dtype::bf16
                     : p.dtype == ConvDtype::tf32 ? conv_cuda::Dtype::tf32
                                                  : conv_cuda::Dtype::fp32};
}

conv_cuda::Tuning cuda_tuning(Algorithm algorithm, const Params& point) {
    conv_cuda::Tuning t;
    t.algorithm = algorithm;
    switch (algorithm) {
        case Algorithm::direct:
            t.threads = tunable_int(point, "threads");
            t.k_per_thread = tunable_int(point, "k_per_thread");
            break;
        case Algorithm::im2win:
            t.tile_k = tunable_int(point, "tile_k");
            t.tile_p = tunable_int(point, "tile_p");
            t.tile_q = tunable_int(point, "tile_q");
            t.tile_c = tunable_int(point, "tile_c");
            t.k_per_thread = tunable_int(point, "k_per_thread");
            break;
        case Algorithm::implicit_gemm:
            t.bm = tunable_int(point, "BM");
            t.bn = tunable_int(point, "BN");
            t.bk = tunable_int(point, "BK");
            t.tm = tunable_int(point, "TM");
            t.tn = tunable_int(point, "TN");
            break;
        case Algorithm::implicit_gemm_tc:
        case Algorithm::im2win_tc:
            t.bm = tunable_int(point, "BM");
            t.bn = tunable_int(point, "BN");
            t.stages = tunable_int(point, "stages");
            break;
        case Algorithm::im2col_gemm:
        case Algorithm::cudnn: break;
    }
    return t;
}

Constraint conv_fp32_only() {
    return {"dtype is fp32 (the tensor-core variants take bf16 and tf32)",
            [](const Params& p) { return ConvProblem::dtype_of(p) == ConvDtype::fp32; }};
}

void register_conv_cuda(Catalogue& c) {
    for (kit::CudaKernel k :
         {direct_kernel(), im2win_kernel(), implicit_gemm_kernel(), im2col_gemm_kernel(), cudnn_kernel()}) {
        k.constraints.push_back(conv_fp32_only());
        kit::add_cuda_variants(c, "conv", k);
    }
    for (const kit::CudaKernel& k : {implicit_gemm_tc_kernel(), im2win_tc_kernel()})
        kit::add_cuda_variants(c, "conv", k);
}

}  // namespace memwall
