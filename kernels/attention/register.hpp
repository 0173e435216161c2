#pragma once

namespace memwall {
class Catalogue;
// Adds the attention family and its variants to `c`: cpu naive and flash, and the CUDA kernels
// naive, flash and decode_splitkv on cuda-emu and cuda (register_cuda.cpp).
void register_attention(Catalogue& c);
}  // namespace memwall
