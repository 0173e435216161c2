#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The lora family: base, unfused, fused and multi_adapter on cpu (fp32 GEMMs by OpenBLAS, bf16
// by oneDNN).
void register_lora(Catalogue& c);

}  // namespace memwall
