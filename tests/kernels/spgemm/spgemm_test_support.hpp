// What the spgemm tests share: the family's catalogue, points of its space, small matrices
// written to Matrix Market files.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "kernels/spgemm/register.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace memwall::spgemm_test {

inline Catalogue spgemm() {
    Catalogue c;
    register_spgemm(c);
    return c;
}

// The one point of the family's space with `overrides` ("name=value") applied.
inline Params point(const std::vector<std::string>& overrides, const std::string& variant = "esc") {
    const Catalogue c = spgemm();
    const Family& f = c.family("spgemm");
    Space s = f.space(*f.find(variant, Backend::cpu));
    for (const auto& o : overrides) s.apply_override(o);
    auto pts = s.points();
    if (pts.size() != 1) throw std::logic_error("expected one point, got " + std::to_string(pts.size()));
    return pts.front();
}

// A file in the test's temporary directory.
inline std::filesystem::path temp(const std::string& name) {
    return std::filesystem::path(::testing::TempDir()) / name;
}

// Writes a general real coordinate matrix (1-based entries i j v) to `path`.
struct Entry {
    std::int64_t i, j;
    double v;
};
inline std::string write_mtx(const std::filesystem::path& path, std::int64_t rows, std::int64_t cols,
                             const std::vector<Entry>& entries) {
    std::ofstream out(path);
    out << "%%MatrixMarket matrix coordinate real general\n" << rows << " " << cols << " " << entries.size() << "\n";
    for (const Entry& e : entries) out << e.i << " " << e.j << " " << e.v << "\n";
    return path.string();
}

}  // namespace memwall::spgemm_test
