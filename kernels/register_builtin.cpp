#include "core/catalogue.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall {

void register_builtin_kernels(Catalogue& c) {
    register_attention(c);
}

}  // namespace memwall
