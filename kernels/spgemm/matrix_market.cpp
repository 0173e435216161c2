// The strict Matrix Market reader (matrix_market.hpp).
#include "kernels/spgemm/matrix_market.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace memwall {

namespace {

struct Entry {
    std::int64_t row, col;
    double value;
    std::int64_t line;
};

std::vector<std::string_view> tokens(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool integer(std::string_view t, std::int64_t& out) {
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && end == t.data() + t.size();
}

bool number(std::string_view t, double& out) {
    if (!t.empty() && t.front() == '+') t.remove_prefix(1);
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && end == t.data() + t.size() && std::isfinite(out);
}

class Reader {
  public:
    Reader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

    // The next line as it is (without a trailing CR); false at the end.
    bool raw(std::string& line) {
        if (!std::getline(in_, line)) return false;
        ++line_;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find('\0') != std::string::npos) fail("a NUL byte: not a text file");
        return true;
    }
    // The next line that is neither blank nor a comment; false at the end.
    bool next(std::string& line) {
        while (raw(line))
            if ((line.empty() || line.front() != '%') && !tokens(line).empty()) return true;
        return false;
    }

    [[noreturn]] void fail(const std::string& why) const {
        throw InputError(name_ + ":" + std::to_string(line_) + ": " + why);
    }
    std::int64_t line() const { return line_; }

  private:
    std::istream& in_;
    const std::string& name_;
    std::int64_t line_ = 0;
};

}  // namespace

std::int64_t supported_dimension(std::int64_t entries) {
    return std::max(kDimensionFloor, entries > std::numeric_limits<std::int64_t>::max() / kDimensionPerEntry
                                         ? std::numeric_limits<std::int64_t>::max()
                                         : entries * kDimensionPerEntry);
}

CsrMatrix parse_matrix_market(std::istream& in, const std::string& name, MatrixMarketHeader* header_out,
                              std::int64_t max_dimension) {
    Reader r(in, name);
    std::string line;
    // The header is line 1 exactly: the format's banner.
    if (!r.raw(line)) throw InputError(name + ":1: empty file: expected a %%MatrixMarket header");
    const auto h = tokens(line);
    if (h.empty() || h[0] != "%%MatrixMarket")
        throw InputError(name + ":1: not a Matrix Market file: the first line must start with %%MatrixMarket");
    if (h.size() != 5)
        throw InputError(name + ":1: the header needs 4 words after %%MatrixMarket: matrix coordinate FIELD SYMMETRY");
    if (lower(h[1]) != "matrix")
        throw InputError(name + ":1: object '" + std::string(h[1]) + "' is not supported: only matrix");
    if (lower(h[2]) != "coordinate")
        throw InputError(name + ":1: format '" + std::string(h[2]) + "' is not supported: only coordinate (sparse)");
    MatrixMarketHeader header;
    header.field = lower(h[3]);
    header.symmetry = lower(h[4]);
    if (header.field != "real" && header.field != "integer" && header.field != "pattern")
        throw InputError(name + ":1: field '" + std::string(h[3]) + "' is not supported: real, integer or pattern");
    if (header.symmetry != "general" && header.symmetry != "symmetric" && header.symmetry != "skew-symmetric")
        throw InputError(name + ":1: symmetry '" + std::string(h[4]) +
                         "' is not supported: general, symmetric or skew-symmetric");
    const bool pattern = header.field == "pattern";
    const bool symmetric = header.symmetry == "symmetric", skew = header.symmetry == "skew-symmetric";

    if (!r.next(line)) r.fail("truncated: no size line (rows columns entries)");
    const std::int64_t size_line = r.line();
    const auto size = tokens(line);
    std::int64_t rows = 0, cols = 0, entries = 0;
    if (size.size() != 3 || !integer(size[0], rows) || !integer(size[1], cols) || !integer(size[2], entries))
        r.fail("the size line must be three integers: rows columns entries");
    if (rows < 0 || cols < 0 || entries < 0) r.fail("the size line's counts must not be negative");
    if (rows > max_dimension || cols > max_dimension)
        r.fail("more than " + std::to_string(max_dimension) + " rows or columns");
    if ((symmetric || skew) && rows != cols) r.fail("a " + header.symmetry + " matrix must be square");
    const long double cells = static_cast<long double>(rows) * static_cast<long double>(cols);
    const long double allowed = symmetric ? (cells + static_cast<long double>(rows)) / 2
                                : skew    ? (cells - static_cast<long double>(rows)) / 2
                                          : cells;
    if (static_cast<long double>(entries) > allowed)
        r.fail(std::to_string(entries) + " entries cannot fit a " + std::to_string(rows) + " x " +
               std::to_string(cols) + " " + header.symmetry + " matrix");
    header.entries = entries;

    std::vector<Entry> read;
    const std::size_t arity = pattern ? 2 : 3;
    while (r.next(line)) {
        if (static_cast<std::int64_t>(read.size()) == entries)
            r.fail("more entries than the " + std::to_string(entries) + " the size line gives");
        const auto t = tokens(line);
        if (t.size() != arity)
            r.fail("an entry of a " + header.field + " matrix is " +
                   (pattern ? "2 numbers (row column)" : "3 numbers (row column value)") + ", got " +
                   std::to_string(t.size()));
        Entry e{0, 0, 1.0, r.line()};
        if (!integer(t[0], e.row) || !integer(t[1], e.col)) r.fail("row and column must be integers");
        if (e.row < 1 || e.row > rows || e.col < 1 || e.col > cols)
            r.fail("entry (" + std::to_string(e.row) + ", " + std::to_string(e.col) + ") is outside the " +
                   std::to_string(rows) + " x " + std::to_string(cols) + " matrix (indices start at 1)");
        if (!pattern) {
            std::int64_t whole = 0;
            if (header.field == "integer" ? !integer(t[2], whole) : !number(t[2], e.value))
                r.fail("value '" + std::string(t[2]) + "' is not " +
                       (header.field == "integer" ? "an integer" : "a finite number"));
            if (header.field == "integer") e.value = static_cast<double>(whole);
        }
        if (symmetric && e.col > e.row) r.fail("a symmetric file stores the lower triangle: entry above the diagonal");
        if (skew && e.col >= e.row)
            r.fail("a skew-symmetric file stores the strict lower triangle: entry on or above the diagonal");
        read.push_back(e);
    }
    if (static_cast<std::int64_t>(read.size()) < entries)
        r.fail("truncated: " + std::to_string(read.size()) + " entries of the " + std::to_string(entries) +
               " the size line gives");
    const std::int64_t supported = supported_dimension(entries);
    if (rows > supported || cols > supported)
        throw InputError(name + ":" + std::to_string(size_line) + ": a " + std::to_string(rows) + " x " +
                         std::to_string(cols) + " matrix with " + std::to_string(entries) +
                         " stored entries: memwall reads at most " + std::to_string(supported) +
                         " rows and columns for that many (" + std::to_string(kDimensionPerEntry) +
                         " per entry, at least " + std::to_string(kDimensionFloor) +
                         "), since empty rows and columns cost memory as full ones do");

    std::sort(read.begin(), read.end(), [](const Entry& a, const Entry& b) {
        return a.row != b.row ? a.row < b.row : a.col != b.col ? a.col < b.col : a.line < b.line;
    });
    for (std::size_t i = 1; i < read.size(); ++i)
        if (read[i].row == read[i - 1].row && read[i].col == read[i - 1].col)
            throw InputError(name + ":" + std::to_string(read[i].line) + ": duplicate entry (" +
                             std::to_string(read[i].row) + ", " + std::to_string(read[i].col) + "), first at line " +
                             std::to_string(read[i - 1].line));
    // The upper triangle of a symmetric or skew-symmetric matrix, mirrored.
    if (symmetric || skew) {
        const std::size_t stored = read.size();
        for (std::size_t i = 0; i < stored; ++i)
            if (read[i].row != read[i].col)
                read.push_back({read[i].col, read[i].row, skew ? -read[i].value : read[i].value, read[i].line});
        std::sort(read.begin(), read.end(),
                  [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
    }

    CsrMatrix m;
    m.rows = rows;
    m.cols = cols;
    m.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
    m.col.reserve(read.size());
    m.val.reserve(read.size());
    for (const Entry& e : read) {
        ++m.row_ptr[static_cast<std::size_t>(e.row)];
        m.col.push_back(static_cast<std::int32_t>(e.col - 1));
        m.val.push_back(e.value);
    }
    for (std::size_t i = 1; i < m.row_ptr.size(); ++i) m.row_ptr[i] += m.row_ptr[i - 1];
    if (header_out) *header_out = header;
    return m;
}

CsrMatrix read_matrix_market(const std::string& path, MatrixMarketHeader* header) {
    refuse_special_file(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw EnvironmentError(path + ": cannot open (" + std::strerror(errno) + ")");
    return parse_matrix_market(in, path, header);
}

}  // namespace memwall
