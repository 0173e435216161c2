#include "cli/isa_option.hpp"

#include "core/errors.hpp"

namespace memwall::cli {

void add_isa_option(CLI::App* cmd) {
    cmd->add_option_function<std::string>(
        "--isa", [](const std::string& name) { set_active_isa(parse_isa(name)); },
        "ISA of the CPU kernels: avx2 (x86-64-v3) or avx512 (x86-64-v4, where the CPU has it); default "
        "$MEMWALL_ISA, else the CPU's");
}

std::optional<Isa> isa_from_arguments(const std::vector<std::string>& args) {
    std::optional<Isa> isa;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--isa") {
            if (i + 1 == args.size()) throw UsageError("--isa needs a value: avx2 or avx512");
            isa = parse_isa(args[++i]);
        } else if (args[i].starts_with("--isa=")) {
            isa = parse_isa(args[i].substr(6));
        }
    }
    return isa;
}

}  // namespace memwall::cli
