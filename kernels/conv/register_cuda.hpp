#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The CUDA conv variants (kernels/conv/cuda), added to the registered conv family.
void register_conv_cuda(Catalogue& c);

}  // namespace memwall
