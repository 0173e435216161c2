// Input files: a FIFO or a device is refused with one line; files, directories and missing
// paths are left to their callers.
#include "core/input_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"

namespace memwall {
namespace {

namespace fs = std::filesystem;

std::string refusal(const std::string& path) {
    try {
        refuse_special_file(path);
        return "";
    } catch (const InputError& e) {
        return e.what();
    }
}

TEST(InputFile, SpecialFilesAreRefusedOthersPass) {
    const fs::path dir = fs::temp_directory_path() / ("memwall-input-" + std::to_string(::getpid()));
    fs::create_directory(dir);
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
    fs::create_symlink("/dev/null", dir / "null.db");
    std::ofstream(dir / "file") << "x";
    EXPECT_EQ(refusal((dir / "fifo").string()),
              (dir / "fifo").string() + ": is a FIFO (named pipe), not a regular file");
    EXPECT_EQ(refusal((dir / "null.db").string()),
              (dir / "null.db").string() + ": is a character device, not a regular file");
    EXPECT_EQ(refusal("/dev/zero"), "/dev/zero: is a character device, not a regular file");
    for (const auto& ok : {dir / "file", dir, dir / "missing"}) EXPECT_EQ(refusal(ok.string()), "") << ok;
    fs::remove_all(dir);
}

}  // namespace
}  // namespace memwall
