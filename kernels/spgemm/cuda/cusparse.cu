// The peer cusparse on a GPU: cusparseSpGEMM with CUSPARSE_SPGEMM_DEFAULT, FP64 values and int32
// indices, in its documented sequence each run: work estimation (buffer size, then the call),
// compute (likewise), C's size, C's arrays set, copy. Its work buffers and C's arrays grow to
// what a run needs and are kept for the next, as memwall's own kernels keep C; the descriptors
// are made each run. GPU-only (cuSPARSE cannot run under cuda-emu); compiled by nvcc alone
// (memwall_add_family's GPU_ONLY).
//
// cuSPARSE is opened at the first case (dlopen), not linked, for the reason conv's cuBLAS is
// (kernels/conv/cuda/im2col_gemm.cu): a GPU library linked into memwall maps its large writable
// segments in every memwall process, case workers under a --case-memory limit included.
#include <cusparse.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "kernels/spgemm/cuda/device_case.hpp"

#include "kernels/spgemm/cuda/buffers.cuh"

namespace memwall::spgemm_cuda::cuda_gpu {

namespace {

// The cuSPARSE functions the case calls, from the library of the major version memwall was
// built with. Opened once per process.
struct Cusparse {
    decltype(&cusparseCreate) create = nullptr;
    decltype(&cusparseDestroy) destroy = nullptr;
    decltype(&cusparseGetErrorString) error_string = nullptr;
    decltype(&cusparseCreateCsr) create_csr = nullptr;
    decltype(&cusparseDestroySpMat) destroy_sp_mat = nullptr;
    decltype(&cusparseSpMatGetSize) sp_mat_get_size = nullptr;
    decltype(&cusparseCsrSetPointers) csr_set_pointers = nullptr;
    decltype(&cusparseSpGEMM_createDescr) create_descr = nullptr;
    decltype(&cusparseSpGEMM_destroyDescr) destroy_descr = nullptr;
    decltype(&cusparseSpGEMM_workEstimation) work_estimation = nullptr;
    decltype(&cusparseSpGEMM_compute) compute = nullptr;
    decltype(&cusparseSpGEMM_copy) copy = nullptr;
};

const Cusparse& cusparse() {
    static const Cusparse api = [] {
        const std::string name = "libcusparse.so." + std::to_string(CUSPARSE_VER_MAJOR);
        void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) throw std::runtime_error("cusparse: cannot load cuSPARSE: " + std::string(dlerror()));
        auto bind = [lib, &name](auto& f, const char* symbol) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, symbol));
            if (!f) throw std::runtime_error("cusparse: " + name + " lacks " + symbol);
        };
        Cusparse c;
        bind(c.create, "cusparseCreate");
        bind(c.destroy, "cusparseDestroy");
        bind(c.error_string, "cusparseGetErrorString");
        bind(c.create_csr, "cusparseCreateCsr");
        bind(c.destroy_sp_mat, "cusparseDestroySpMat");
        bind(c.sp_mat_get_size, "cusparseSpMatGetSize");
        bind(c.csr_set_pointers, "cusparseCsrSetPointers");
        bind(c.create_descr, "cusparseSpGEMM_createDescr");
        bind(c.destroy_descr, "cusparseSpGEMM_destroyDescr");
        bind(c.work_estimation, "cusparseSpGEMM_workEstimation");
        bind(c.compute, "cusparseSpGEMM_compute");
        bind(c.copy, "cusparseSpGEMM_copy");
        return c;
    }();
    return api;
}

void check_cusparse(cusparseStatus_t e, const char* what) {
    if (e != CUSPARSE_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + cusparse().error_string(e));
}

// Descriptors of one run, destroyed however it ends.
struct RunDescriptors {
    cusparseSpMatDescr_t a = nullptr, b = nullptr, c = nullptr;
    cusparseSpGEMMDescr_t spgemm = nullptr;
    RunDescriptors() = default;
    RunDescriptors(const RunDescriptors&) = delete;
    RunDescriptors& operator=(const RunDescriptors&) = delete;
    ~RunDescriptors() {
        if (spgemm) cusparse().destroy_descr(spgemm);
        for (cusparseSpMatDescr_t m : {a, b, c})
            if (m) cusparse().destroy_sp_mat(m);
    }
};

class CusparseCase final : public SpgemmBuffers {
  public:
    CusparseCase(const CsrMatrix& a, const CsrMatrix& b)
        : SpgemmBuffers(a, b), inner_(static_cast<int>(a.cols)), nnz_a_(a.nnz()), nnz_b_(b.nnz()) {
        check_cusparse(cusparse().create(&handle_), "cusparseCreate");
    }
    ~CusparseCase() override { cusparse().destroy(handle_); }
    CusparseCase(const CusparseCase&) = delete;
    CusparseCase& operator=(const CusparseCase&) = delete;

    void run() override {
        const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
        const auto alg = CUSPARSE_SPGEMM_DEFAULT;
        const double alpha = 1.0, beta = 0.0;
        RunDescriptors r;
        const auto csr = [](cusparseSpMatDescr_t* m, std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                            void* row_ptr, void* col, void* val) {
            check_cusparse(cusparse().create_csr(m, rows, cols, nnz, row_ptr, col, val, CUSPARSE_INDEX_32I,
                                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                           "cusparseCreateCsr");
        };
        csr(&r.a, rows_, inner_, nnz_a_, a_.row_ptr.get(), a_.col.get(), a_.val.get());
        csr(&r.b, inner_, cols_, nnz_b_, b_.row_ptr.get(), b_.col.get(), b_.val.get());
        csr(&r.c, rows_, cols_, 0, c_row_ptr_.get(), nullptr, nullptr);
        check_cusparse(cusparse().create_descr(&r.spgemm), "cusparseSpGEMM_createDescr");

        std::size_t size1 = 0, size2 = 0;
        check_cusparse(cusparse().work_estimation(handle_, op, op, &alpha, r.a, r.b, &beta, r.c, CUDA_R_64F, alg,
                                                  r.spgemm, &size1, nullptr),
                       "cusparseSpGEMM_workEstimation");
        buffer1_.ensure(size1);
        check_cusparse(cusparse().work_estimation(handle_, op, op, &alpha, r.a, r.b, &beta, r.c, CUDA_R_64F, alg,
                                                  r.spgemm, &size1, buffer1_.get()),
                       "cusparseSpGEMM_workEstimation");
        check_cusparse(cusparse().compute(handle_, op, op, &alpha, r.a, r.b, &beta, r.c, CUDA_R_64F, alg, r.spgemm,
                                          &size2, nullptr),
                       "cusparseSpGEMM_compute");
        buffer2_.ensure(size2);
        check_cusparse(cusparse().compute(handle_, op, op, &alpha, r.a, r.b, &beta, r.c, CUDA_R_64F, alg, r.spgemm,
                                          &size2, buffer2_.get()),
                       "cusparseSpGEMM_compute");
        std::int64_t c_rows = 0, c_cols = 0, c_nnz = 0;
        check_cusparse(cusparse().sp_mat_get_size(r.c, &c_rows, &c_cols, &c_nnz), "cusparseSpMatGetSize");
        ensure_c(static_cast<int>(c_nnz));
        check_cusparse(cusparse().csr_set_pointers(r.c, c_row_ptr_.get(), c_col_.get(), c_val_.get()),
                       "cusparseCsrSetPointers");
        check_cusparse(cusparse().copy(handle_, op, op, &alpha, r.a, r.b, &beta, r.c, CUDA_R_64F, alg, r.spgemm),
                       "cusparseSpGEMM_copy");
        sizes_[0] = size1;
        sizes_[1] = size2;
    }

    std::string detail() const override {
        return "cuSPARSE SpGEMM, CUSPARSE_SPGEMM_DEFAULT, FP64; work buffers " + std::to_string(sizes_[0]) + " + " +
               std::to_string(sizes_[1]) + " bytes";
    }

  private:
    int inner_;
    std::int64_t nnz_a_, nnz_b_;
    cusparseHandle_t handle_ = nullptr;
    Growable<unsigned char> buffer1_, buffer2_;
    std::size_t sizes_[2] = {0, 0};
};

}  // namespace

std::unique_ptr<SpgemmCase> make_cusparse_case(const CsrMatrix& a, const CsrMatrix& b) {
    validate_inputs(a, b);
    return std::make_unique<CusparseCase>(a, b);
}

}  // namespace memwall::spgemm_cuda::cuda_gpu
