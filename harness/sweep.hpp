// A sweep: which families, variants and backends, and which axis values. It is stored with
// the run as JSON, so `memwall run --resume` can expand exactly the same cases again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/backend.hpp"
#include "core/catalogue.hpp"
#include "core/params.hpp"
#include "core/space.hpp"
#include "harness/sampler.hpp"

namespace memwall {

// The part of a sweep one process measures: the index-th of count disjoint parts (shard.hpp).
struct Shard {
    std::size_t index = 0, count = 1;  // count 1: the whole sweep
    bool operator==(const Shard&) const = default;
};

struct SweepSpec {
    std::vector<std::string> families;  // empty: all
    std::vector<std::string> variants;  // empty: all
    std::vector<Backend> backends{Backend::cpu};
    std::vector<std::string> overrides;          // "name=spec", as typed
    std::vector<std::vector<std::string>> zips;  // added to the families' default zips
    bool unzip = false;                          // drop the families' default zips
    std::uint64_t seed = 1;                      // inputs
    SamplerSettings sampler;
    Shard shard;  // stored only when the sweep is split, so a whole sweep's JSON is as before

    nlohmann::json to_json() const;
    static SweepSpec from_json(const nlohmann::json& j);  // throws InputError
};

// One case to measure.
struct PlannedCase {
    const Family* family = nullptr;
    const Variant* variant = nullptr;
    Params problem;
    Params config;

    std::string name() const;  // "family/variant/backend/problem-label/config-label"
};

// A sweep planned over the catalogue without holding its cases, so that a sweep of a million
// points starts measuring as promptly as one of ten and honours an interrupt while it is
// planned. The constructor checks everything the user typed (UsageError for unknown names,
// malformed or unknown axes, unavailable backends, a point a family's validator rejects, an
// empty sweep) by walking every point once, counting the cases and keeping none; it throws
// Interrupted once stop_requested is set under an InterruptScope (harness/interrupt.hpp).
class SweepPlan {
  public:
    SweepPlan(const SweepSpec& spec, const Catalogue& cat);
    SweepPlan(const SweepPlan&) = delete;  // a pass points into its spaces
    SweepPlan& operator=(const SweepPlan&) = delete;

    // A variant with at least one case, and its space as the sweep sets it.
    struct Member {
        const Family* family;
        const Variant* variant;
        Space space;
    };
    const std::vector<Member>& members() const { return members_; }
    std::size_t size() const { return size_; }  // cases (of the shard, when the sweep is split)

    // Problems of each variant a batch holds.
    static constexpr std::size_t kBatchProblems = 64;

    // The cases (of the spec's shard alone), a batch at a time, problem-major (cases of one problem adjacent, so its
    // workload is built once): a batch holds the next kBatchProblems problems of each variant of
    // one family, ordered by first appearance; a problem split between two batches has its
    // workload built twice. A sweep of up to kBatchProblems problems per variant is one batch
    // per family.
    class Pass {
      public:
        explicit Pass(const SweepPlan& plan) : plan_(&plan) {}
        std::vector<PlannedCase> next();  // empty once every case has been given

      private:
        std::vector<PlannedCase> next_of_whole();  // the next batch of the whole sweep
        const SweepPlan* plan_;
        std::size_t first_ = 0, end_ = 0;          // the members of the family being given
        std::vector<Space::Cursor> cursors_;       // one per member of that family
        std::vector<std::optional<Params>> held_;  // a point read past its batch's last problem
        std::size_t at_ = 0;                       // the whole sweep's cases given or passed over
    };
    Pass pass() const { return Pass(*this); }

  private:
    std::vector<Member> members_;
    std::size_t size_ = 0;
    // A split sweep: whether each case of the whole sweep, in a pass's order, is this shard's.
    std::vector<bool> mine_;
};

// Every case of the sweep at once, in a pass's order: for suites, whose sweeps are small.
std::vector<PlannedCase> expand_sweep(const SweepSpec& spec, const Catalogue& cat);

}  // namespace memwall
