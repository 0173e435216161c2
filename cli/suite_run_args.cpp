#include "cli/suite_run_args.hpp"

#include <nlohmann/json.hpp>

#include "core/errors.hpp"

namespace memwall::cli {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
}

// The shortest text that reads back as the same double.
std::string number(double x) { return nlohmann::json(x).dump(); }

}  // namespace

std::vector<std::string> suite_run_args(const Suite& suite) {
    const SweepSpec& s = suite.sweep;
    if (s.sampler.max_samples != SamplerSettings{}.max_samples)
        throw UsageError("suite " + suite.name + " sets max_samples, which memwall run cannot be given");
    std::vector<std::string> args;
    if (!s.families.empty()) args.insert(args.end(), {"--family", joined(s.families)});
    if (!s.variants.empty()) args.insert(args.end(), {"--variant", joined(s.variants)});
    std::vector<std::string> backends;
    for (Backend b : s.backends) backends.emplace_back(to_string(b));
    args.insert(args.end(), {"--backend", joined(backends)});
    for (const std::string& o : s.overrides) args.insert(args.end(), {"--axis", o});
    for (const auto& z : s.zips) args.insert(args.end(), {"--zip", joined(z)});
    if (s.unzip) args.emplace_back("--unzip");
    args.insert(args.end(),
                {"--seed", std::to_string(s.seed), "--warmup", std::to_string(s.sampler.warmup_runs), "--min-samples",
                 std::to_string(s.sampler.min_samples), "--min-time", number(s.sampler.min_time), "--max-noise",
                 number(s.sampler.max_noise), "--timeout", number(s.sampler.timeout)});
    args.push_back("--benchmark_repetitions=" + std::to_string(suite.repetitions));
    args.push_back(std::string("--benchmark_enable_random_interleaving=") + (suite.interleave ? "true" : "false"));
    args.insert(args.end(), {"--tag", "suite=" + suite.name});
    return args;
}

}  // namespace memwall::cli
