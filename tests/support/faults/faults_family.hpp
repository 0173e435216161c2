// A test-only family whose variants fail the ways real kernels do: a segfault, a hang in
// set-up, an allocation without bound, next to a correct variant. It lives only in the test
// executable memwall_with_faults, which proves that such a case costs that case alone.
#pragma once

#include "core/catalogue.hpp"

namespace memwall::test {

void register_faults(Catalogue& c);

}  // namespace memwall::test
