// Small spgemm problems for the CUDA tests: the generators at emulation sizes, and matrices
// written here as Matrix Market files (empty rows, a dense row, a single column; a 1-row A).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "kernels/spgemm/spgemm.hpp"

namespace memwall::spgemm_test {

struct Entry {
    std::int64_t i, j;
    double v;
};

// A Matrix Market file of `entries` (0-based) in a temporary directory, removed with the object.
class MtxFile {
  public:
    MtxFile(const std::string& name, std::int64_t rows, std::int64_t cols, const std::vector<Entry>& entries)
        : path_(std::filesystem::temp_directory_path() /
                ("memwall-spgemm-" + std::to_string(::getpid()) + "-" + name + ".mtx")) {
        std::ofstream out(path_);
        out << "%%MatrixMarket matrix coordinate real general\n"
            << rows << " " << cols << " " << entries.size() << "\n";
        out.precision(17);
        for (const Entry& e : entries) out << e.i + 1 << " " << e.j + 1 << " " << e.v << "\n";
    }
    ~MtxFile() { std::filesystem::remove(path_); }
    MtxFile(const MtxFile&) = delete;
    MtxFile& operator=(const MtxFile&) = delete;
    std::string path() const { return path_.string(); }

  private:
    std::filesystem::path path_;
};

inline MatrixSpec rmat_spec(int scale) {
    MatrixSpec m;
    m.source = MatrixSource::rmat;
    m.scale = scale;
    m.degree = 16;
    m.a = 0.57;
    m.b = 0.19;
    m.c = 0.19;
    return m;
}

inline MatrixSpec poisson27_spec(std::int64_t nx) {
    MatrixSpec m;
    m.source = MatrixSource::poisson3d27;
    m.nx = nx;
    return m;
}

inline MatrixSpec banded_spec(std::int64_t n, std::int64_t half_width) {
    MatrixSpec m;
    m.source = MatrixSource::banded;
    m.n = n;
    m.half_width = half_width;
    return m;
}

inline MatrixSpec file_spec(const std::string& path) {
    MatrixSpec m;
    m.source = MatrixSource::file;
    m.path = path;
    return m;
}

inline SpgemmProblem problem(MatrixSpec a, SpgemmProblem::Op op = SpgemmProblem::Op::aa, bool sorted = false,
                             MatrixSpec b = {}) {
    SpgemmProblem p;
    p.a = std::move(a);
    p.op = op;
    p.b = std::move(b);
    p.sorted = sorted;
    return p;
}

// kAwkwardN x kAwkwardN: rows 0..9 empty, rows 10..13 dense (every column), column 0 full (every
// row from 14 on), a few scattered entries, and every fourth row reaching the dense rows: its
// square has rows of 4 x kAwkwardN products (over 2048: esc's global sort) and more.
inline constexpr std::int64_t kAwkwardN = 600;

inline std::vector<Entry> awkward_entries() {
    const std::int64_t n = kAwkwardN;
    std::vector<Entry> e;
    for (std::int64_t i = 10; i < 14; ++i)
        for (std::int64_t j = 0; j < n; ++j) e.push_back({i, j, 0.5 + static_cast<double>((i + j) % 7) * 0.125});
    for (std::int64_t i = 14; i < n; ++i) {
        e.push_back({i, 0, -0.75 - static_cast<double>(i % 5) * 0.0625});
        const std::int64_t j = (i * 37) % n;
        if (i % 3 == 0 && j > 13) e.push_back({i, j, 0.875});
        if (i % 4 == 1)
            for (std::int64_t d = 10; d < 14; ++d) e.push_back({i, d, -0.5});
    }
    return e;
}

}  // namespace memwall::spgemm_test
