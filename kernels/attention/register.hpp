#pragma once

namespace memwall {
class Catalogue;
struct Variant;
// Adds the attention family and its variants to `c`: cpu naive and flash, and the CUDA kernels
// naive, flash and decode_splitkv on cuda-emu and cuda (register_cuda.cpp), flash_blocksparse on
// all three (register_blocksparse.cpp), and the decode variants (register_decode.cpp).
void register_attention(Catalogue& c);
// The cpu flash variant (flash_blocksparse is flash on a masked problem).
Variant flash_variant();
// Adds flash_blocksparse's variants to the attention family; register_attention calls it.
void register_attention_blocksparse(Catalogue& c);
// The decode variants: cpu decode_splitkv and topk_sparse, and topk_sparse on cuda-emu and cuda;
// register_attention calls it.
void register_attention_decode(Catalogue& c);
}  // namespace memwall
