#include "core/catalogue.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/attention/register_cuda.hpp"
#include "kernels/register_builtin.hpp"

namespace memwall {

void register_builtin_kernels(Catalogue& c) {
    register_attention(c);
    register_attention_cuda(c);
}

}  // namespace memwall
