// What `memwall tune` tunes live: one variant on one backend, one problem (so its workload is
// built once), and the space of the variant's tunable axes with their constraints.
//
// A tunable the user gives no --axis for is searched over a default range derived from its
// bounds: the powers of two and their midpoints 3*2^k within [min, max] (integer axes; both
// values of a boolean, every choice of a string axis), and the variant's default value, so the
// constraints (multiples of a granule, a shared-memory budget) prune what the kernel cannot run.
// When that gives more than kMaxDefaultConfigurations, the midpoints are dropped: exhaustive
// search stays affordable (e.g. cpu flash: Br 8..256 x Bc 16..256 gives 80 configurations with
// AVX-512).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/catalogue.hpp"
#include "metrics/device_specs.hpp"
#include "tuner/tuning_space.hpp"

namespace memwall {

inline constexpr std::size_t kMaxDefaultConfigurations = 128;

struct LiveTarget {
    const Family* family = nullptr;
    const Variant* variant = nullptr;
    Params problem;
    TuningSpace space;
    std::vector<std::string> ranged;  // tunables searched over their default range
    // Problem axes the user left with several values, fixed to those of the first valid point.
    Params defaulted;
    // The variant's default configuration, or the space's first where that is not valid for the
    // problem: the anchor a noisy backend times every configuration beside (LiveObjective). It
    // need not be in the space the user restricted.
    Params anchor;
    // The anchor's id in space, where the space holds it (the default ranges hold the defaults).
    std::optional<std::size_t> anchor_id;
};

// Throws UsageError for an unknown family, variant or axis, a malformed value, a variant
// without tunable axes, a problem axis given several values, one member of a zipped group
// given without the others, or a space the constraints leave empty.
LiveTarget live_target(const Catalogue& catalogue, const std::string& family, const std::string& variant,
                       Backend backend, const std::vector<std::string>& overrides);

// The default range of a tunable axis (see above); empty when the axis has none (no bounds),
// and then its own default values are searched.
std::vector<Value> default_tuning_values(const Axis& axis, bool midpoints);

// What a session's times are about, and what `run --tuned` looks the best up by: the CPU or
// GPU on cpu and cuda, the named device whose roofline predicts them on cuda-emu.
std::string tuning_device(Backend backend, const DeviceSpec* predicted_for);

}  // namespace memwall
