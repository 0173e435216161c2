// --isa of the commands that measure CPU kernels (run, tune, ci): the ISA the kernels run at
// (core/isa.hpp), so an AVX-512 host can measure the path an AVX2 host runs. It sets MEMWALL_ISA,
// which the case workers inherit. The catalogue's default tiles follow the ISA, so run_cli
// applies the option before it registers the kernels (isa_from_arguments).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/isa.hpp"

namespace memwall::cli {

void add_isa_option(CLI::App* cmd);

// The value of "--isa NAME" or "--isa=NAME" among `args` (in command-line order), parsed;
// nullopt without one. Throws UsageError for a name that is not an ISA or a missing value.
std::optional<Isa> isa_from_arguments(const std::vector<std::string>& args);

}  // namespace memwall::cli
