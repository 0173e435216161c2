// The CPU peer: SuiteSparse:GraphBLAS's GrB_mxm (PLUS_TIMES over FP64) with the method chosen by
// descriptor (GxB_AxB_HASH or GxB_AxB_GUSTAVSON), A and B held by row, sparse. GraphBLAS is
// started once per process with counting allocation functions, so each product's peak
// allocation is known.
#pragma once

#include <memory>
#include <string>

#include "kernels/spgemm/spgemm.hpp"

namespace memwall::spgemm_cpu {

enum class GraphblasMethod { hash, gustavson };

class GraphblasProduct {
  public:
    GraphblasProduct(const SpgemmWorkload& w, GraphblasMethod method);
    ~GraphblasProduct();
    GraphblasProduct(const GraphblasProduct&) = delete;
    GraphblasProduct& operator=(const GraphblasProduct&) = delete;

    // C = A*B in a new matrix; with sorted=1 materialised as well (GrB_wait sorts the rows
    // GrB_mxm leaves jumbled); seconds.
    double multiply();
    // The last product in CSR (extracted outside any timing), and its peak allocation.
    CsrMatrix result() const;
    double peak_bytes() const { return peak_bytes_; }
    std::string detail() const;

  private:
    struct Handles;
    const SpgemmWorkload& w_;
    GraphblasMethod method_;
    std::unique_ptr<Handles> h_;
    double peak_bytes_ = 0;
};

}  // namespace memwall::spgemm_cpu
