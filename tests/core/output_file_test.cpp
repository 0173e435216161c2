#include "core/output_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "tests/support/temp_dir.hpp"

namespace memwall {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;

void expect_refused(const std::string& out, const std::vector<std::string>& guarded) {
    EXPECT_THROW(refuse_overwriting(out, guarded, "the database"), UsageError) << out;
}

TEST(RefuseOverwriting, TheSameFileHoweverNamed) {
    TempDir dir;
    const std::string db = dir.file("t.db");
    write_file(db, "data");
    std::filesystem::create_directory(dir.file("sub"));
    std::filesystem::create_symlink(db, dir.file("link.db"));
    ASSERT_EQ(::link(db.c_str(), dir.file("hard.db").c_str()), 0);
    const std::vector<std::string> files = {db, db + "-wal", db + "-shm"};
    expect_refused(db, files);
    expect_refused(dir.file("sub/../t.db"), files);
    expect_refused(dir.file("link.db"), files);
    expect_refused(dir.file("hard.db"), files);
    expect_refused(db + "-wal", files);  // does not exist yet: compared by path
    EXPECT_NO_THROW(refuse_overwriting(dir.file("out.csv"), files, "the database"));
    try {
        refuse_overwriting(dir.file("link.db"), files, "the database t.db");
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string(e.what()), dir.file("link.db") + " is the database t.db; refusing to overwrite it");
    }
}

TEST(OutputFile, ReplacesTheFileOnlyOnCommit) {
    TempDir dir;
    const std::string path = dir.file("out.csv");
    write_file(path, "old");
    {
        OutputFile out(path);
        out.stream() << "new";
        EXPECT_EQ(read_file(path), "old");
        EXPECT_EQ(dir.entries().size(), 2u);  // the temporary beside it
    }
    EXPECT_EQ(read_file(path), "old");  // not committed: the old file stays, the temporary goes
    EXPECT_EQ(dir.entries(), std::set<std::string>{"out.csv"});
    OutputFile out(path);
    out.stream() << "new";
    out.commit();
    EXPECT_EQ(read_file(path), "new");
    EXPECT_EQ(dir.entries(), std::set<std::string>{"out.csv"});
}

TEST(OutputFile, KeepsTheModeAndWritesThroughASymbolicLink) {
    TempDir dir;
    const std::string target = dir.file("target.csv");
    write_file(target, "old");
    ASSERT_EQ(::chmod(target.c_str(), 0640), 0);
    std::filesystem::create_symlink(target, dir.file("link.csv"));
    OutputFile out(dir.file("link.csv"));
    out.stream() << "new";
    out.commit();
    EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.csv")));
    EXPECT_EQ(read_file(target), "new");
    struct stat st {};
    ASSERT_EQ(::stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(OutputFile, ADirectoryOrAMissingDirectoryIsAnEnvironmentError) {
    TempDir dir;
    EXPECT_THROW(OutputFile{dir.file("")}, EnvironmentError);
    EXPECT_THROW(OutputFile{dir.file("no/such/dir/out.csv")}, EnvironmentError);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFile, ADeviceIsWrittenDirectly) {
    OutputFile out("/dev/null");
    out.stream() << "discarded";
    out.commit();
    EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

}  // namespace
}  // namespace memwall
