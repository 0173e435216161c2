#include "harness/case_measurer.hpp"

namespace memwall {

CaseRecord InProcessMeasurer::measure(const PlannedCase& c, std::uint64_t seed, const MeasureOptions& opt) {
    if (opt.stage) opt.stage("set-up");
    try {
        return measure_case(c, workloads_.get(c, c.problem, seed), mh_, opt);
    } catch (const std::exception& e) {  // the workload itself could not be built
        CaseRecord rec;
        rec.key = key_of(c);
        rec.status = CaseStatus::failed;
        rec.message = e.what();
        return rec;
    }
}

}  // namespace memwall
