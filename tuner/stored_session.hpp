// A stored tuning session as a recorded space: what a session measured on one machine, replayed
// (tune --replay, tune-eval) or given as a prior to a session on another (tune --prior).
// memwall's own kernels have no Kernel Tuner or KTT recordings; their sessions are theirs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "results/store.hpp"
#include "tuner/recorded_space.hpp"

namespace memwall {

struct SessionReference {
    std::string database;
    std::int64_t session = 0;
};

// "FILE#ID" names session ID of the memwall database FILE; nullopt for anything else.
std::optional<SessionReference> session_reference(std::string_view spec);

// Its trials, one per configuration (the first where one repeats), with time, samples, counters
// and failures; the parameters are the configurations' names, each with the values its trials
// took. The device is the session's, the kernel "family/variant" (a replay's: the recording's).
// Throws InputError for an unknown session, one without trials, or a trial whose configuration
// or status is malformed.
RecordedSpace recorded_space_from_session(const Store& store, std::int64_t session_id, std::string origin);

}  // namespace memwall
