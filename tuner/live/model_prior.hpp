// What live tuning knows before it measures anything: the variant's analytic model (FLOPs,
// bytes.min, and the bytes each level of this machine's memory hierarchy moves) for every
// configuration of the space, as guided's CounterPrior. The counts are exact for the model and
// cost nothing to compute; what each byte costs here is what guided learns from the measurements
// (and a model that misranks the configurations loses its weight to the prior-free model).
#pragma once

#include "metrics/memory_hierarchy.hpp"
#include "tuner/live/live_tuning.hpp"
#include "tuner/strategies/counter_prior.hpp"

namespace memwall {

// Empty when the variant's model needs its inputs (Variant::input_model: SpGEMM's counts follow
// from the matrix) or it has none.
CounterPrior model_counter_prior(const LiveTarget& target, const MemoryHierarchy& mh);

}  // namespace memwall
