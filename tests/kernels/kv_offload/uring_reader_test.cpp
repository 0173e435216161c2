// io_uring reads of the scratch file: the bytes land where asked, with more requests than the
// queue is deep, O_DIRECT or buffered; a read past the end is an error naming the file; the
// file is read, never what its name became.
#include "kernels/kv_offload/uring_reader.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include "core/errors.hpp"
#include "kernels/kv_offload/scratch_file.hpp"
#include "kv_test_support.hpp"

using namespace memwall;

namespace {

std::vector<unsigned char> pattern(std::size_t n) {
    std::vector<unsigned char> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 7 + i / 4096);
    return v;
}

}  // namespace

TEST(KvOffloadUringReader, ReadsEveryRequestWhereAsked) {
    kv_test::ScratchDir d;
    const std::size_t block = 4096, blocks = 64;
    const auto data = pattern(block * blocks);
    const ScratchFile file(d.path, data.data(), data.size());
    for (const bool direct : {false, file.o_direct()})
        for (const unsigned depth : {1u, 4u}) {
            SCOPED_TRACE("direct " + std::to_string(direct) + " depth " + std::to_string(depth));
            DirectBuffer buffer(10 * block);
            UringReader reader(file, depth, direct, buffer);
            EXPECT_EQ(reader.direct(), direct);
            // Ten blocks, out of order, more than the queue holds.
            std::vector<ReadRequest> requests;
            for (std::size_t i = 0; i < 10; ++i)
                requests.push_back({buffer.data() + i * block, ((i * 37) % blocks) * block, block});
            std::memset(buffer.data(), 0xAB, buffer.size());
            reader.read(requests);
            EXPECT_EQ(reader.requests(), 10u);
            for (std::size_t i = 0; i < 10; ++i)
                EXPECT_EQ(std::memcmp(buffer.data() + i * block, data.data() + requests[i].offset, block), 0) << i;
            // Told of each request once, its bytes already in when it is told.
            std::memset(buffer.data(), 0xAB, buffer.size());
            std::vector<int> told(10, 0);
            int submitted = 0;
            reader.read(
                requests,
                [&](std::size_t i) {
                    EXPECT_EQ(submitted, 1);  // told first
                    ++told.at(i);
                    EXPECT_EQ(std::memcmp(buffer.data() + i * block, data.data() + requests[i].offset, block), 0) << i;
                },
                [&] { ++submitted; });
            EXPECT_EQ(told, std::vector<int>(10, 1));
            EXPECT_EQ(submitted, 1);
            // With nothing to read, `submitted` is still called once.
            reader.read({}, {}, [&] { ++submitted; });
            EXPECT_EQ(submitted, 2);
        }
}

TEST(KvOffloadUringReader, AReadPastTheEndNamesTheFile) {
    kv_test::ScratchDir d;
    const auto data = pattern(8192);
    const ScratchFile file(d.path, data.data(), data.size());
    DirectBuffer buffer(8192);
    UringReader reader(file, 2, false, buffer);
    const std::vector<ReadRequest> past = {{buffer.data(), 8192, 4096}};
    try {
        reader.read(past);
        FAIL() << "no error";
    } catch (const EnvironmentError& e) {
        EXPECT_NE(std::string(e.what()).find(file.path().string()), std::string::npos) << e.what();
    }
    // A read that ends past the end stops at it, and says so too.
    const std::vector<ReadRequest> straddling = {{buffer.data(), 4096, 8192}};
    EXPECT_THROW(reader.read(straddling), EnvironmentError);
}

// The name replaced by a link to another file after the file was made: the reader, buffered or
// O_DIRECT, still reads the file memwall wrote (it never opens the name).
TEST(KvOffloadUringReader, ReadsTheFileNotWhatItsNameBecame) {
    kv_test::ScratchDir d;
    const auto data = pattern(8192);
    const std::vector<unsigned char> decoy(8192, 0x5A);
    std::ofstream(d.path / "decoy", std::ios::binary).write(reinterpret_cast<const char*>(decoy.data()), 8192);
    const ScratchFile file(d.path, data.data(), data.size());
    std::filesystem::rename(file.path(), d.path / "moved");
    std::filesystem::create_symlink(d.path / "decoy", file.path());
    for (const bool direct : {false, file.o_direct()}) {
        DirectBuffer buffer(8192);
        UringReader reader(file, 2, direct, buffer);
        const std::vector<ReadRequest> all = {{buffer.data(), 0, 8192}};
        reader.read(all);
        EXPECT_EQ(std::memcmp(buffer.data(), data.data(), 8192), 0) << "direct " << direct;
    }
}
