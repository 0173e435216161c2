// Launchers of mma_probe.cuh: device buffers from and to host vectors around one-warp launches.
// Standard headers (through mma_probe.hpp) before cuda-emu's macros (kit/cuda/common.cuh says why).
#include "mma_probe.hpp"

#include <stdexcept>
#include <string>

#include "mma_probe.cuh"

namespace memwall::kit_test::MEMWALL_CUDA_NS {

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class T>
class Buffer {
  public:
    explicit Buffer(std::size_t n) : n_(n) {
        check(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(T)), "cudaMalloc");
    }
    explicit Buffer(const std::vector<T>& host) : Buffer(host.size()) {
        check(cudaMemcpy(p_, host.data(), n_ * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    ~Buffer() { cudaFree(p_); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    T* get() const { return p_; }
    std::vector<T> download() const {
        std::vector<T> host(n_);
        check(cudaDeviceSynchronize(), "kernel");
        check(cudaMemcpy(host.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return host;
    }

  private:
    T* p_ = nullptr;
    std::size_t n_;
};

cuda::LaunchConfig warp(std::size_t shared_bytes, unsigned threads = 32) {
    cuda::LaunchConfig c;
    c.block = dim3(threads);
    c.dynamic_shared = shared_bytes;
    return c;
}

void check_count(int count) {
    if (count != 1 && count != 2 && count != 4) throw std::invalid_argument("count is 1, 2 or 4");
}

}  // namespace

std::vector<std::uint32_t> ldmatrix_probe(int count, bool trans, const std::vector<std::uint16_t>& matrices) {
    check_count(count);
    if (matrices.size() != 64u * static_cast<unsigned>(count))
        throw std::invalid_argument("ldmatrix_probe: 64 elements per matrix");
    Buffer<std::uint16_t> in(matrices);
    Buffer<std::uint32_t> out(32u * static_cast<unsigned>(count));
    const auto c = warp(128u * static_cast<unsigned>(count));
    if (count == 1) cuda::launch(c, ldmatrix_kernel<1>, in.get(), out.get(), trans);
    if (count == 2) cuda::launch(c, ldmatrix_kernel<2>, in.get(), out.get(), trans);
    if (count == 4) cuda::launch(c, ldmatrix_kernel<4>, in.get(), out.get(), trans);
    return out.download();
}

std::vector<std::uint16_t> stmatrix_probe(int count, bool trans, bool shuffles,
                                          const std::vector<std::uint32_t>& regs) {
    check_count(count);
    if (regs.size() != 32u * static_cast<unsigned>(count))
        throw std::invalid_argument("stmatrix_probe: 32 registers per matrix");
    Buffer<std::uint32_t> in(regs);
    Buffer<std::uint16_t> out(64u * static_cast<unsigned>(count));
    const auto c = warp(128u * static_cast<unsigned>(count));
    if (count == 1) cuda::launch(c, stmatrix_kernel<1>, in.get(), out.get(), trans, shuffles);
    if (count == 2) cuda::launch(c, stmatrix_kernel<2>, in.get(), out.get(), trans, shuffles);
    if (count == 4) cuda::launch(c, stmatrix_kernel<4>, in.get(), out.get(), trans, shuffles);
    return out.download();
}

std::vector<float> mma_probe(int kind, const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                             const std::vector<float>& c) {
    if (a.size() != 128 || b.size() != 64 || c.size() != 128)
        throw std::invalid_argument("mma_probe: 4, 2 and 4 registers per lane");
    Buffer<std::uint32_t> da(a), db(b);
    Buffer<float> dc(c), dd(128);
    cuda::launch(warp(0), mma_kernel, kind, da.get(), db.get(), dc.get(), dd.get());
    return dd.download();
}

std::vector<std::uint32_t> convert_probe(const std::vector<float>& x) {
    if (x.size() != 64) throw std::invalid_argument("convert_probe: 64 values");
    Buffer<float> dx(x);
    Buffer<std::uint32_t> out(64);
    cuda::launch(warp(0), convert_kernel, dx.get(), out.get(), out.get() + 32);
    return out.download();
}

std::vector<std::uint32_t> cp_async_probe(const std::vector<std::uint32_t>& source) {
    if (source.size() != 512) throw std::invalid_argument("cp_async_probe: 16 words per lane");
    Buffer<std::uint32_t> in(source), out(512);
    cuda::launch(warp(352 * 4), cp_async_kernel, in.get(), out.get());
    return out.download();
}

void counted_probe(bool ca) {
    Buffer<std::uint16_t> in(std::vector<std::uint16_t>(256, 0x3f80));
    Buffer<float> out(128);
    cuda::launch(warp(768), counted_kernel, in.get(), out.get(), ca);
}

void fault_probe(int mode, unsigned threads) {
    Buffer<std::uint32_t> g(std::vector<std::uint32_t>(64, 1));
    cuda::launch(warp(512, threads), matrix_fault_kernel, mode, g.get());
}

}  // namespace memwall::kit_test::MEMWALL_CUDA_NS
