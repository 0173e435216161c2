#pragma once

namespace memwall {
class Catalogue;
// Adds the attention family and its variants (cpu naive and flash, ...) to `c`.
void register_attention(Catalogue& c);
}  // namespace memwall
