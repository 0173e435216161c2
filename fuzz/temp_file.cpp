#include "fuzz/temp_file.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace memwall::fuzz {

TempFile::TempFile(const std::string& name) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "memwall-fuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temp folder under " + tmpl);
    dir_ = tmpl;
    path_ = (dir_ / name).string();
}

TempFile::~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void TempFile::write(const std::uint8_t* data, std::size_t size) const {
    std::error_code ec;
    for (const char* suffix : {"-wal", "-shm", "-journal"}) std::filesystem::remove(path_ + suffix, ec);
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) throw std::runtime_error("cannot write " + path_);
}

}  // namespace memwall::fuzz
