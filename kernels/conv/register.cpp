// The conv family in the catalogue: its axes, the im2win layers as presets, the workload and
// the CPU variants.
#include "kernels/conv/register.hpp"

#include "kernels/conv/conv.hpp"
#include "kernels/conv/register_cuda.hpp"

namespace memwall {

namespace {

Axis sized(Axis a, double min, double max) {
    bounded(a, min, max);
    return a;
}

std::vector<std::string> layer_names() {
    std::vector<std::string> names;
    for (const ConvLayer& l : conv_layers()) names.push_back(l.name);
    return names;
}

}  // namespace

void register_conv(Catalogue& c) {
    Family f;
    f.name = "conv";
    f.description = "2D convolution, fp32, NCHW input and output, KCRS filter (out = in * filter, stride, zero padding)";
    std::vector<std::string> choices = {"custom"};
    for (const auto& n : layer_names()) choices.push_back(n);
    f.problem_axes = {
        enum_axis("layer", choices, layer_names(),
                  "the im2win paper's layers conv1..conv12 (set C, H, W, K, R, S, stride; pad 0), or custom"),
        sized(int_axis("batch", {1}, "images N (the paper uses 128; 1 keeps a CPU sweep of the twelve layers "
                                     "to a few minutes)"),
              1, 1 << 16),
        sized(int_axis("C", {64}, "input channels"), 1, 1 << 16),
        sized(int_axis("H", {56}, "input height"), 1, 1 << 16),
        sized(int_axis("W", {56}, "input width"), 1, 1 << 16),
        sized(int_axis("K", {64}, "filters (output channels)"), 1, 1 << 16),
        sized(int_axis("R", {3}, "filter height"), 1, 1 << 10),
        sized(int_axis("S", {3}, "filter width"), 1, 1 << 10),
        sized(int_axis("stride", {1}, "stride (both dimensions)"), 1, 1 << 10),
        sized(int_axis("pad", {1}, "zero padding on each side (both dimensions)"), 0, 1 << 10),
    };
    f.zipped = {{"R", "S"}};
    f.presets = conv_layer_presets();
    f.validate = [](const Params& p) { (void)ConvProblem::from(p); };
    f.make_workload = [](const Params& problem, std::uint64_t seed) -> std::unique_ptr<Workload> {
        return std::make_unique<ConvWorkload>(ConvProblem::from(problem), seed);
    };
    c.add_family(std::move(f));
    register_conv_cuda(c);
}

}  // namespace memwall
