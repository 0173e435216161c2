// Catalogues for tests, each registered once per test binary: memwall's built-in kernels, or the
// families one registration function adds.
#pragma once

#include "core/catalogue.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall::testing {

template <void (*Register)(Catalogue&)>
const Catalogue& registered_catalogue() {
    static const Catalogue c = [] {
        Catalogue x;
        Register(x);
        return x;
    }();
    return c;
}

inline const Catalogue& builtin_catalogue() { return registered_catalogue<register_builtin_kernels>(); }

}  // namespace memwall::testing
