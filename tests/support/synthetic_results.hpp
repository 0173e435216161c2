// A synthetic memwall database of any size, for the explorer's load benchmark and tests: one
// run with plausible ceilings and attention-like cases over a grid of problems and tiles, with
// model bytes for most variants and emu-measured bytes for cuda-emu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace memwall::gui {

// Creates (or extends) the database at `path` with one run of `cases` cases; returns the run id.
std::int64_t write_synthetic_run(const std::string& path, std::size_t cases, std::uint64_t seed = 1,
                                 const std::string& tag_value = "synthetic");

}  // namespace memwall::gui
