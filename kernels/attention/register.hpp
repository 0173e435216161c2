#pragma once

namespace memwall {
class Catalogue;
// Adds the attention family and its variants to `c`: cpu naive and flash, and the CUDA kernels
// naive, flash and decode_splitkv on cuda-emu and cuda (register_cuda.cpp), and the decode variants.
void register_attention(Catalogue& c);
// The decode variants (register_decode.cpp): cpu decode_splitkv and topk_sparse, and topk_sparse on
// cuda-emu and cuda; register_attention calls it.
void register_attention_decode(Catalogue& c);
}  // namespace memwall
