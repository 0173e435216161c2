// The conv problem: reading and validating its axes, FLOPs and compulsory bytes, and the im2win
// paper's layers.
#include <fstream>
#include <string>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "kernels/conv/conv.hpp"

namespace memwall {

namespace {
std::string shape_label(const Params& p) {
    return p.has("layer") && p.str("layer") != "custom" ? "conv layer=" + p.str("layer") : "conv";
}
}  // namespace

ConvProblem ConvProblem::from(const Params& p) {
    ConvProblem x;
    x.n = p.integer("batch");
    x.c = p.integer("C");
    x.h = p.integer("H");
    x.w = p.integer("W");
    x.k = p.integer("K");
    x.r = p.integer("R");
    x.s = p.integer("S");
    x.stride = p.integer("stride");
    x.pad = p.integer("pad");
    x.dtype = dtype_of(p);
    const std::string name = shape_label(p);
    if (x.n < 1 || x.c < 1 || x.h < 1 || x.w < 1 || x.k < 1 || x.r < 1 || x.s < 1)
        throw UsageError(name + ": batch, C, H, W, K, R and S must be at least 1");
    if (x.stride < 1) throw UsageError(name + ": stride must be at least 1");
    if (x.pad < 0) throw UsageError(name + ": pad must not be negative");
    if (x.r > x.h + 2 * x.pad || x.s > x.w + 2 * x.pad)
        throw UsageError(name + ": the " + std::to_string(x.r) + "x" + std::to_string(x.s) +
                         " filter is larger than the padded " + std::to_string(x.h + 2 * x.pad) + "x" +
                         std::to_string(x.w + 2 * x.pad) + " input");
    // A pad of R or more would add output rows that see padding only.
    if (x.pad >= x.r || x.pad >= x.s) throw UsageError(name + ": pad must be smaller than the filter (R and S)");
    return x;
}

ConvDtype ConvProblem::dtype_of(const Params& p) {
    if (!p.has("dtype")) return ConvDtype::fp32;
    const std::string d = p.str("dtype");
    return d == "bf16" ? ConvDtype::bf16 : d == "tf32" ? ConvDtype::tf32 : ConvDtype::fp32;
}

double ConvProblem::flops() const {
    return 2.0 * static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(window()) *
           static_cast<double>(p()) * static_cast<double>(q());
}

double ConvProblem::min_bytes() const {
    return element_bytes() * (static_cast<double>(input_size()) + static_cast<double>(filter_size()) +
                              static_cast<double>(output_size()));
}

const std::vector<ConvLayer>& conv_layers() {
    // design.md, from the im2win paper: C x H x W, K, R, stride.
    static const std::vector<ConvLayer> layers = {
        {"conv1", 3, 227, 227, 96, 11, 4},  {"conv2", 3, 231, 231, 96, 11, 4},  {"conv3", 3, 227, 227, 64, 7, 2},
        {"conv4", 32, 224, 224, 64, 7, 2},  {"conv5", 96, 24, 24, 256, 5, 1},   {"conv6", 256, 12, 12, 512, 3, 1},
        {"conv7", 3, 224, 224, 64, 3, 1},   {"conv8", 64, 112, 112, 128, 3, 1}, {"conv9", 64, 56, 56, 64, 3, 1},
        {"conv10", 128, 28, 28, 128, 3, 1}, {"conv11", 256, 14, 14, 256, 3, 1}, {"conv12", 512, 7, 7, 512, 3, 1},
    };
    return layers;
}

std::vector<Preset> conv_layer_presets() {
    std::vector<Preset> out;
    for (const ConvLayer& l : conv_layers()) {
        Params p;
        p.set("C", l.c);
        p.set("H", l.h);
        p.set("W", l.w);
        p.set("K", l.k);
        p.set("R", l.r);
        p.set("S", l.r);
        p.set("stride", l.stride);
        p.set("pad", std::int64_t{0});
        out.push_back({"layer", l.name, p});
    }
    return out;
}

void refuse_oversized_workspace(const std::string& variant, double workspace_bytes) {
    // MemAvailable: what the kernel can give without swapping.
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") break;
        meminfo.ignore(256, '\n');
        kib = 0;
    }
    if (kib <= 0) return;  // unknown: the allocation itself fails cleanly
    if (workspace_bytes > kib * 1024.0)
        throw UsageError("conv/" + variant + ": its workspace needs " + format_bytes(workspace_bytes) +
                         ", more than the " + format_bytes(kib * 1024.0) + " of memory available");
}

}  // namespace memwall
