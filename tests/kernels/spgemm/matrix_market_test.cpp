#include "kernels/spgemm/matrix_market.hpp"

#include <filesystem>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "core/errors.hpp"

namespace memwall {
namespace {

CsrMatrix parse(const std::string& text, MatrixMarketHeader* h = nullptr) {
    std::istringstream in(text);
    return parse_matrix_market(in, "m.mtx", h);
}

TEST(MatrixMarket, GeneralRealToSortedCsr) {
    MatrixMarketHeader h;
    const CsrMatrix m = parse(
        "%%MatrixMarket matrix coordinate real general\n"
        "% a comment\n"
        "\n"
        "3 4 4\n"
        "3 1 -2.5e1\n"
        "1 4 0.5\n"
        "1 2 1\n"
        "\n"
        "3 3 +7\n",
        &h);
    EXPECT_EQ(h.field, "real");
    EXPECT_EQ(h.symmetry, "general");
    EXPECT_EQ(m.rows, 3);
    EXPECT_EQ(m.cols, 4);
    EXPECT_EQ(m.row_ptr, (std::vector<std::int64_t>{0, 2, 2, 4}));  // row 2 is empty
    EXPECT_EQ(m.col, (std::vector<std::int32_t>{1, 3, 0, 2}));
    EXPECT_EQ(m.val, (std::vector<double>{1, 0.5, -25, 7}));
}

TEST(MatrixMarket, SymmetricAndSkewSymmetricAreMirrored) {
    const CsrMatrix s = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n2 2 1\n");
    EXPECT_EQ(s.row_ptr, (std::vector<std::int64_t>{0, 2, 3, 4}));
    EXPECT_EQ(s.col, (std::vector<std::int32_t>{0, 2, 1, 0}));
    EXPECT_EQ(s.val, (std::vector<double>{2, 5, 1, 5}));
    const CsrMatrix k = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n");
    EXPECT_EQ(k.col, (std::vector<std::int32_t>{1, 0}));
    EXPECT_EQ(k.val, (std::vector<double>{-3, 3}));
}

TEST(MatrixMarket, PatternValuesAreOnesAndTheBannerIsCaseInsensitive) {
    const CsrMatrix m = parse("%%MatrixMarket MATRIX Coordinate Pattern General\r\n2 2 2\r\n2 1\r\n1 2\r\n");
    EXPECT_EQ(m.col, (std::vector<std::int32_t>{1, 0}));
    EXPECT_EQ(m.val, (std::vector<double>{1, 1}));
}

TEST(MatrixMarket, EmptyMatrices) {
    const CsrMatrix m = parse("%%MatrixMarket matrix coordinate real general\n0 0 0\n");
    EXPECT_EQ(m.rows, 0);
    EXPECT_EQ(m.nnz(), 0);
    EXPECT_EQ(parse("%%MatrixMarket matrix coordinate real general\n5 5 0\n").row_ptr.size(), 6u);
}

// Every file of the malformed corpus is refused with its name and the line named in the file
// name (name.L<line>.mtx), in one line.
TEST(MatrixMarket, EveryMalformedFileNamesItsLine) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(MEMWALL_MALFORMED_MTX_DIR)) {
        const std::string path = entry.path().string();
        const std::string stem = entry.path().stem().string();  // e.g. duplicate.L5
        const std::string line = stem.substr(stem.rfind(".L") + 2);
        ++files;
        try {
            (void)read_matrix_market(path);
            ADD_FAILURE() << path << " was accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(path + ":" + line + ": ", 0), 0u) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
    EXPECT_GE(files, 25);
}

TEST(MatrixMarket, AMissingFileIsAnEnvironmentError) {
    EXPECT_THROW(read_matrix_market("/nonexistent/m.mtx"), EnvironmentError);
}

TEST(MatrixMarket, ASizeLineClaimingBillionsOfEntriesAllocatesNothingForThem) {
    // 2^31 - 1 squared cells admit the count; the two entries present are all that is read.
    try {
        parse(
            "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 4000000000000000000\n1 1 1\n2 2 1\n");
        FAIL() << "a truncated file was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("truncated: 2 entries of the 4000000000000000000"), std::string::npos)
            << e.what();
    }
}

// Rows and columns the entries cannot fill are refused at the size line, before any row
// pointer is allocated (2^31 - 1 rows for one entry took 16 GiB and ended in bad_alloc).
TEST(MatrixMarket, DimensionsBeyondWhatTheEntriesFillAreRefused) {
    const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
    for (const std::string size : {"2147483647 2147483647 1", "1048577 1 1", "1 1048577 1"}) {
        try {
            parse(banner + size + "\n1 1 1\n");
            ADD_FAILURE() << size << " accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind("m.mtx:2: ", 0), 0u) << what;
            EXPECT_NE(what.find("at most 1048576 rows and columns"), std::string::npos) << what;
        }
    }
    EXPECT_EQ(parse(banner + "1048576 1048576 1\n1 1 1\n").rows, 1048576);  // the floor
    EXPECT_EQ(supported_dimension(100000), 1600000);
    EXPECT_EQ(supported_dimension(std::numeric_limits<std::int64_t>::max()), std::numeric_limits<std::int64_t>::max());
}

}  // namespace
}  // namespace memwall
