// The names of kv_offload's scratch files, memwall-kv.<host>.<pid>.<start ticks>.<n>: the owning
// process is in the name so a later run can tell a killed run's file from a live one's. Any user
// can create files in a shared scratch directory, so the parser takes any bytes and never throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memwall {

struct ScratchName {
    std::string host;  // may hold dots: the other fields count from the end
    std::int64_t pid = 0;
    std::string ticks;  // the owner's start time in clock ticks, as /proc has it
};

inline constexpr std::string_view kScratchNamePrefix = "memwall-kv.";

// The owner named by `name`, or nothing when `name` is not a scratch file's name: another
// prefix, an empty host, a field that is not all digits, a pid outside 1..2^31-1.
std::optional<ScratchName> parse_scratch_name(std::string_view name);

// The name of this process's file number `n` (any number: it only has to be new).
std::string scratch_name(const ScratchName& owner, std::uint64_t n);

}  // namespace memwall
