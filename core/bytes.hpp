// Byte sizes as people type and read them.
#pragma once

#include <cstdint>
#include <string>

namespace memwall {

// "1.5 GiB": three significant digits and a binary unit.
std::string format_bytes(double bytes);

// "4GiB", "512 MiB", "512M", "64k", "1e9", "1000000": K/M/G/T with or without "iB" are powers of
// 1024, kB/MB/GB/TB powers of 1000, a plain number is bytes. Throws UsageError naming `what`
// when malformed, not positive, or over 2^63 bytes.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

}  // namespace memwall
