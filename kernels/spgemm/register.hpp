#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The spgemm family: gustavson_dense, rowwise_hash, esc and the peers graphblas_hash and
// graphblas_gustavson on cpu; rowwise_hash and esc on cuda-emu and cuda, the peer cusparse on
// cuda (register_cuda.hpp).
void register_spgemm(Catalogue& c);

}  // namespace memwall
