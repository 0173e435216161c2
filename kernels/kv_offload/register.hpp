#pragma once

#include "core/catalogue.hpp"

namespace memwall {

// The kv_offload family: resident, pread and mmap on cpu, the KV pages in a scratch file
// ($MEMWALL_SCRATCH, else the temp directory).
void register_kv_offload(Catalogue& c);

}  // namespace memwall
