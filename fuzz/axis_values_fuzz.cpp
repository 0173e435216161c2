// Axis overrides as typed after --axis and --zip (core/axis.cpp, core/space.cpp): each line of
// the input is "name=spec", or "zip a,b" for a zipped group, applied to a space with an axis of
// every kind; the space is then expanded as a sweep expands it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/space.hpp"

using namespace memwall;

namespace {

Space make_space() {
    const Axis seq = bounded(int_axis("seq_q", {128, 256}, "query length"), 1, 1 << 20);
    std::vector<Axis> axes{seq, tunable(int_axis("tile", {16, 32}, "tile size")),
                           real_axis("scale", {0.5}, "softmax scale"),
                           bool_axis("causal", {false, true}, "causal mask"),
                           enum_axis("layout", {"nhd", "hnd"}, {"nhd"}, "memory layout")};
    Constraint tile_fits{"tile <= seq_q", [](const Params& p) { return p.integer("tile") <= p.integer("seq_q"); }};
    return Space(std::move(axes), {tile_fits});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Space initial = make_space();
    Space space = initial;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        while (!text.empty()) {
            const auto eol = text.find('\n');
            const std::string_view line = text.substr(0, eol);
            text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
            if (line.starts_with("zip ")) {
                space.zip(zip_names(line.substr(4)));
            } else {
                space.apply_override(line);
            }
        }
        // Spaces up to Space::kMaxPoints are legal but slow to expand here; larger ones must be refused.
        const std::size_t n = space.size_unconstrained();
        if (n <= 20000 || n > Space::kMaxPoints) (void)space.points();
    } catch (const UsageError&) {}
    return 0;
}
