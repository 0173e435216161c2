// The spgemm problem: its axes, the presets that set aside the axes a matrix source does not
// use, and the validation of every point before a sweep starts.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "core/errors.hpp"
#include "kernels/spgemm/matrix_market.hpp"
#include "kernels/spgemm/spgemm.hpp"

namespace memwall {

namespace {

struct SourceName {
    MatrixSource source;
    const char* name;
    std::vector<const char*> uses;  // the generator axes it reads
};

const std::vector<SourceName>& sources() {
    static const std::vector<SourceName> s = {
        {MatrixSource::rmat, "rmat", {"scale", "degree", "rmat_a", "rmat_b", "rmat_c"}},
        {MatrixSource::er, "er", {"scale", "degree"}},
        {MatrixSource::poisson2d, "poisson2d", {"nx"}},
        {MatrixSource::poisson3d7, "poisson3d7", {"nx"}},
        {MatrixSource::poisson3d27, "poisson3d27", {"nx"}},
        {MatrixSource::banded, "banded", {"n", "half_width"}},
    };
    return s;
}

const std::vector<const char*> generator_axes = {"scale",  "degree", "rmat_a",     "rmat_b",
                                                 "rmat_c", "n",      "half_width", "nx"};

const SourceName* generator(const std::string& v) {
    for (const auto& s : sources())
        if (v == s.name) return &s;
    return nullptr;
}

// Every other string names a Matrix Market file.
bool is_file(const std::string& v) { return !generator(v) && v != "A" && v != "At"; }

MatrixSpec spec_of(const std::string& name, const Params& p) {
    MatrixSpec m;
    if (const SourceName* g = generator(name)) {
        m.source = g->source;
    } else {
        m.source = MatrixSource::file;
        m.path = name;
        return m;
    }
    m.scale = static_cast<int>(p.integer("scale"));
    m.degree = p.real("degree");
    m.a = p.real("rmat_a");
    m.b = p.real("rmat_b");
    m.c = p.real("rmat_c");
    m.n = p.integer("n");
    m.half_width = p.integer("half_width");
    m.nx = p.integer("nx");
    auto need = [&](bool ok, const std::string& why) {
        if (!ok) throw UsageError("matrix=" + name + ": " + why);
    };
    switch (m.source) {
        case MatrixSource::rmat:
            need(m.scale >= 1 && m.scale <= 30, "scale must be 1 to 30");
            need(m.degree > 0, "degree (edges per row) must be positive");
            need(m.a >= 0 && m.b >= 0 && m.c >= 0 && m.a + m.b + m.c <= 1 + 1e-12,
                 "rmat_a, rmat_b and rmat_c must be non-negative with a sum of at most 1");
            break;
        case MatrixSource::er:
            need(m.scale >= 1 && m.scale <= 30, "scale must be 1 to 30");
            need(m.degree > 0 && m.degree <= static_cast<double>(std::int64_t{1} << m.scale),
                 "degree must be positive and at most the row count");
            break;
        case MatrixSource::poisson2d: need(m.nx >= 1 && m.nx <= 46340, "nx must be 1 to 46340"); break;
        case MatrixSource::poisson3d7:
        case MatrixSource::poisson3d27: need(m.nx >= 1 && m.nx <= 1290, "nx must be 1 to 1290"); break;
        case MatrixSource::banded:
            need(m.n >= 1 && m.n <= std::numeric_limits<std::int32_t>::max(), "n must be 1 to 2^31 - 1");
            need(m.half_width >= 0 && m.half_width < m.n, "half_width must be 0 to n - 1");
            break;
        case MatrixSource::file: break;
    }
    return m;
}

// The rows (= columns) of a generated matrix, known without drawing it.
std::int64_t generated_order(const MatrixSpec& m) {
    switch (m.source) {
        case MatrixSource::rmat:
        case MatrixSource::er: return std::int64_t{1} << m.scale;
        case MatrixSource::poisson2d: return m.nx * m.nx;
        case MatrixSource::poisson3d7:
        case MatrixSource::poisson3d27: return m.nx * m.nx * m.nx;
        case MatrixSource::banded: return m.n;
        case MatrixSource::file: break;
    }
    throw std::logic_error("generated_order: a file is not generated");
}

}  // namespace

CsrMatrix MatrixSpec::make(std::uint64_t seed) const {
    switch (source) {
        case MatrixSource::rmat: return rmat(scale, degree, a, b, c, seed);
        case MatrixSource::er: return erdos_renyi(std::int64_t{1} << scale, degree, seed);
        case MatrixSource::poisson2d: return poisson_2d(nx);
        case MatrixSource::poisson3d7: return poisson_3d(nx, 7);
        case MatrixSource::poisson3d27: return poisson_3d(nx, 27);
        case MatrixSource::banded: return banded(n, half_width, seed);
        case MatrixSource::file: return read_matrix_market(path);
    }
    return {};
}

SpgemmProblem SpgemmProblem::from(const Params& p) {
    SpgemmProblem out;
    out.a = spec_of(p.str("matrix"), p);
    const std::string b = p.str("b");
    if (b == "A") {
        out.op = Op::aa;
    } else if (b == "At") {
        out.op = Op::aat;
    } else {
        out.op = Op::ab;
        out.b = spec_of(b, p);
    }
    out.sorted = p.integer("sorted") != 0;
    return out;
}

std::string SpgemmProblem::op_name() const {
    switch (op) {
        case Op::aa: return "A*A";
        case Op::aat: return "A*At";
        case Op::ab: return "A*B";
    }
    return {};
}

std::vector<Axis> spgemm_axes() {
    std::vector<std::string> names;
    for (const auto& s : sources()) names.emplace_back(s.name);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return {
        enum_axis("matrix", {}, {"rmat", "poisson3d27"},
                  "A: a generator (" + list +
                      ") or a Matrix Market file (coordinate real/integer/pattern; "
                      "general, symmetric, skew-symmetric)"),
        enum_axis("b", {}, {"A"},
                  "B: A (C = A*A), At (C = A*At), or a second input: a generator (drawn with the same axes and "
                  "another seed) or a Matrix Market file"),
        bounded(int_axis("scale", {12}, "rmat, er: 2^scale rows and columns"), 0, 30),
        bounded(real_axis("degree", {16},
                          "rmat: edges per row (edge factor; repeated edges kept once); er: mean "
                          "entries per row"),
                0, 1e6),
        bounded(real_axis("rmat_a", {0.57}, "rmat: probability of the top-left quadrant (Graph500: 0.57)"), 0, 1),
        bounded(real_axis("rmat_b", {0.19}, "rmat: top-right quadrant"), 0, 1),
        bounded(real_axis("rmat_c", {0.19}, "rmat: bottom-left quadrant (bottom-right: 1 - a - b - c)"), 0, 1),
        bounded(int_axis("nx", {16}, "poisson2d, poisson3d7, poisson3d27: grid side (nx^2 or nx^3 rows)"), 0, 46340),
        bounded(int_axis("n", {4096}, "banded: rows and columns"), 0, std::numeric_limits<std::int32_t>::max()),
        bounded(int_axis("half_width", {8}, "banded: entries with |i - j| <= half_width"), 0,
                std::numeric_limits<std::int32_t>::max()),
        bool_axis("sorted", {false}, "output rows sorted by column (variants that sort anyway say so)"),
    };
}

std::vector<Preset> spgemm_presets() {
    // A generator's unused axes are set to 0, so a sweep of them does not repeat its points
    // and an override that none of the swept sources reads is refused.
    auto unused = [](const std::vector<const char*>& uses) {
        Params p;
        for (const char* a : generator_axes)
            if (std::find_if(uses.begin(), uses.end(), [&](const char* u) { return std::string(u) == a; }) ==
                uses.end())
                p.set(a, std::string(a) == "degree" || a[0] == 'r' ? Value(0.0) : Value(std::int64_t{0}));
        return p;
    };
    std::vector<Preset> out;
    for (const auto& s : sources()) {
        // A generator B is drawn with A's axes: those axes are A's and B's together.
        out.push_back({"matrix", s.name, unused(s.uses), {}});
    }
    Preset file{"matrix", "PATH", unused({}), [](const std::string& v) { return is_file(v); }};
    out.push_back(std::move(file));
    return out;
}

void spgemm_validate(const Params& p) {
    const SpgemmProblem prob = SpgemmProblem::from(p);
    const std::string b = p.str("b");
    if (prob.op == SpgemmProblem::Op::ab && prob.b.source != MatrixSource::file && prob.a.source != prob.b.source)
        throw UsageError("b=" + b + ": a generated B uses A's generator axes, so it must be A's generator (" +
                         p.str("matrix") + ") or a file");
    std::int64_t a_rows = -1, a_cols = -1;
    if (prob.a.source == MatrixSource::file) {
        const CsrMatrix m = read_matrix_market(prob.a.path);
        a_rows = m.rows;
        a_cols = m.cols;
    }
    if (prob.op == SpgemmProblem::Op::ab && prob.b.source == MatrixSource::file) {
        const CsrMatrix m = read_matrix_market(prob.b.path);
        if (a_cols < 0) a_cols = generated_order(prob.a);
        if (m.rows != a_cols)
            throw UsageError("b=" + b + ": B has " + std::to_string(m.rows) + " rows, A has " + std::to_string(a_cols) +
                             " columns");
    } else if (prob.op == SpgemmProblem::Op::aa && a_rows >= 0 && a_rows != a_cols) {
        throw UsageError("matrix=" + prob.a.path + ": A*A needs a square matrix, this one is " +
                         std::to_string(a_rows) + " x " + std::to_string(a_cols) + " (b=At computes A*At)");
    }
}

}  // namespace memwall
