#include "harness/gbench.hpp"

#include "core/errors.hpp"

namespace memwall {

GbenchFlags gbench_flags(std::vector<std::string> args) {
    GbenchFlags f;
    for (const auto& a : args) {
        const std::string flag = "--benchmark_repetitions=";
        f.own_report = f.own_report || a.rfind("--benchmark_format", 0) == 0;
        if (a.rfind(flag, 0) != 0) continue;
        try {
            std::size_t end = 0;
            f.repetitions = std::stoi(a.substr(flag.size()), &end);
            if (end != a.size() - flag.size()) throw std::invalid_argument(a);
        } catch (const std::exception&) {
            throw UsageError("malformed " + a);
        }
        if (f.repetitions < 1) throw UsageError(a + ": repetitions must be >= 1");
    }
    f.args = std::move(args);
    return f;
}

void init_google_benchmark(const GbenchFlags& flags) {
    // Google Benchmark keeps argv[0] for its report's context: the strings must outlive the run.
    static std::vector<std::string> storage;
    storage = {"memwall"};
    storage.insert(storage.end(), flags.args.begin(), flags.args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    int argc = static_cast<int>(argv.size());
    benchmark::Initialize(&argc, argv.data());
    if (argc > 1) throw UsageError(std::string("unknown Google Benchmark flag ") + argv[1]);
}

}  // namespace memwall
