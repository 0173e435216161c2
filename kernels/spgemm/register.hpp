#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The spgemm family: gustavson_dense, rowwise_hash, esc and the peers graphblas_hash and
// graphblas_gustavson on cpu.
void register_spgemm(Catalogue& c);

}  // namespace memwall
