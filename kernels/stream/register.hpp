#pragma once

namespace memwall {
class Catalogue;
// Adds the stream family and its variants to `c`: cpu loop and nontemporal, and the CUDA kernel
// grid_stride on cuda-emu and cuda.
void register_stream(Catalogue& c);
}  // namespace memwall
