// The catalogue of memwall's built-in kernels, registered once per test binary.
#pragma once

#include "core/catalogue.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall::testing {

inline const Catalogue& builtin_catalogue() {
    static const Catalogue c = [] {
        Catalogue x;
        register_builtin_kernels(x);
        return x;
    }();
    return c;
}

}  // namespace memwall::testing
