#include "core/catalogue.hpp"
#include "kernels/attention/register.hpp"
#include "kernels/conv/register.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kernels/lora/register.hpp"
#include "kernels/register_builtin.hpp"
#include "kernels/spgemm/register.hpp"
#include "kernels/stream/register.hpp"

namespace memwall {

void register_builtin_kernels(Catalogue& c) {
    register_attention(c);
    register_conv(c);
    register_kv_offload(c);
    register_lora(c);
    register_spgemm(c);
    register_stream(c);
}

}  // namespace memwall
