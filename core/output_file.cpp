#include "core/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace memwall {

namespace {

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {};
    struct stat sb {};
    if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    // One of them does not exist yet: the same path once links and `..` are resolved.
    std::error_code ea, eb;
    const fs::path ca = fs::weakly_canonical(fs::absolute(a), ea);
    const fs::path cb = fs::weakly_canonical(fs::absolute(b), eb);
    return !ea && !eb && ca == cb;
}

[[noreturn]] void cannot_write(const std::string& path, int err) {
    throw EnvironmentError(path + ": cannot write (" + std::strerror(err) + ")");
}

}  // namespace

void refuse_overwriting(const std::string& path, const std::vector<std::string>& guarded, std::string_view what) {
    for (const std::string& g : guarded)
        if (same_file(path, g))
            throw UsageError(path + " is " + (g == guarded.front() ? "" : g + ", a file of ") + std::string(what) +
                             "; refusing to overwrite it");
}

OutputFile::OutputFile(const std::string& path) : path_(path) {
    std::error_code ec;
    destination_ = fs::weakly_canonical(fs::absolute(path), ec).string();
    if (ec) destination_ = path;
    const fs::file_status st = fs::status(destination_, ec);
    if (fs::is_directory(st)) throw EnvironmentError(path + ": is a directory");
    if (fs::exists(st) && !fs::is_regular_file(st)) {
        temporary_ = destination_;  // a device or a pipe: nothing to replace
        return;
    }
    // A name no other writer uses: this process's id and a count.
    static std::atomic<unsigned> count{0};
    const fs::path dest(destination_);
    for (;;) {
        const std::string name =
            "." + dest.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(count++);
        temporary_ = (dest.parent_path() / name).string();
        const int fd = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            struct stat old {};
            if (::stat(destination_.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
            ::close(fd);
            return;
        }
        if (errno != EEXIST) {
            const int err = errno;
            temporary_.clear();
            cannot_write(path, err);
        }
    }
}

OutputFile::~OutputFile() {
    if (committed_ || temporary_.empty() || temporary_ == destination_) return;
    out_.close();
    ::unlink(temporary_.c_str());
}

std::ostream& OutputFile::stream() {
    if (!out_.is_open()) {
        out_.open(temporary_, std::ios::binary | std::ios::trunc);
        if (!out_) cannot_write(path_, errno);
    }
    return out_;
}

void OutputFile::commit() {
    if (out_.is_open()) {
        errno = 0;
        out_.close();
        if (!out_) cannot_write(path_, errno ? errno : EIO);
    }
    if (temporary_ != destination_ && std::rename(temporary_.c_str(), destination_.c_str()) != 0)
        cannot_write(path_, errno);
    committed_ = true;
}

}  // namespace memwall
