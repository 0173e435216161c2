#include "harness/catalogue.hpp"
#include "kernels/attention/register.hpp"

namespace memwall {

void register_builtin_kernels(Catalogue& c) {
    register_attention(c);
}

}  // namespace memwall
