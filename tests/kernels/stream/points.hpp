// Shared by the stream family's tests: points of its problem, counters by name.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "metrics/counter.hpp"

namespace memwall::stream_test {

inline Params point(const std::string& op, std::int64_t n) {
    Params p;
    p.set("op", op);
    p.set("n", n);
    return p;
}

inline const std::vector<std::string> ops{"copy", "scale", "add", "triad"};

inline double counter(const std::vector<Counter>& cs, const std::string& name) {
    const Counter* c = find_counter(cs, name);
    return c ? c->value : std::nan("");
}

}  // namespace memwall::stream_test
