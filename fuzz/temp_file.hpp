// A file in a fresh temp folder that a target rewrites with each input, for the parsers that
// read a path (suites, databases). The folder goes, with whatever SQLite left beside the file
// (-wal, -shm), when the TempFile does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace memwall::fuzz {

class TempFile {
  public:
    explicit TempFile(const std::string& name);
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile();

    const std::string& path() const { return path_; }
    // Replaces the file's content, and removes the files SQLite keeps beside it, so no input
    // sees what an earlier one left.
    void write(const std::uint8_t* data, std::size_t size) const;

  private:
    std::filesystem::path dir_;
    std::string path_;
};

}  // namespace memwall::fuzz
