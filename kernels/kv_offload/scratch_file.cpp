#include "kernels/kv_offload/scratch_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <vector>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/owner.hpp"
#include "kernels/kv_offload/scratch_name.hpp"

namespace memwall {

namespace {

namespace fs = std::filesystem;

std::string why(int err) { return std::strerror(err); }

std::string os_error(const std::string& what, const fs::path& p, int err) {
    return "kv_offload: " + what + " " + p.string() + ": " + why(err);
}

const std::string hint = " (give another with --scratch DIR)";

// The start time of this process in clock ticks (Owner::start without the boot id, which the
// tick count makes redundant for telling a reused pid apart on the same boot).
std::string start_ticks(std::int64_t pid) {
    const std::string s = process_start(pid);
    const auto slash = s.find('/');
    return slash == std::string::npos ? "" : s.substr(slash + 1);
}

// Another user could rename or remove memwall's files in a directory writable by all without
// the sticky bit (/tmp has it): refused, so what memwall cleans up and reads stays its own.
void refuse_unsafe(const struct stat& st, const fs::path& dir) {
    if ((st.st_mode & S_IWOTH) != 0 && (st.st_mode & S_ISVTX) == 0)
        throw EnvironmentError("kv_offload: scratch directory " + dir.string() +
                               " is writable by every user and has no sticky bit, so others could replace "
                               "memwall's files there (chmod +t it)" +
                               hint);
}

// The directory, opened once: every file of it is then named relative to this descriptor, so a
// path component replaced during the run changes nothing.
int open_directory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            throw EnvironmentError("kv_offload: scratch directory " + dir.string() + " is not a directory" + hint);
        throw EnvironmentError(os_error("cannot open scratch directory", dir, err) + hint);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        throw EnvironmentError(os_error("cannot read scratch directory", dir, err));
    }
    try {
        refuse_unsafe(st, dir);
    } catch (...) {
        ::close(fd);
        throw;
    }
    return fd;
}

std::uint64_t random_number() {
    static std::mt19937_64 gen{std::random_device{}()};
    static std::mutex m;
    const std::lock_guard lock(m);
    return gen();
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

std::size_t remove_stale(int dir_fd) {
    const int list_fd = ::dup(dir_fd);  // closedir closes it
    DIR* list = list_fd < 0 ? nullptr : ::fdopendir(list_fd);
    if (!list) {
        if (list_fd >= 0) ::close(list_fd);
        return 0;
    }
    ::rewinddir(list);  // the duplicate shares dir_fd's offset: list from the start whatever came before
    std::size_t removed = 0;
    const std::string host = host_name();
    const uid_t me = ::geteuid();
    while (const dirent* e = ::readdir(list)) {
        const auto name = parse_scratch_name(e->d_name);
        if (!name || name->host != host) continue;
        const std::string now = start_ticks(name->pid);
        if (!now.empty() && now == name->ticks) continue;  // its owner still runs
        // Only what memwall made: a regular file of this user with one link. Another user's file
        // in a shared directory stays, even for root, and unlinkat without AT_REMOVEDIR never
        // removes a directory.
        struct stat st {};
        if (::fstatat(dir_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_uid != me ||
            st.st_nlink != 1)
            continue;
        if (::unlinkat(dir_fd, e->d_name, 0) == 0) ++removed;
    }
    ::closedir(list);
    return removed;
}

}  // namespace

fs::path kv_scratch_directory() {
    if (const char* s = std::getenv("MEMWALL_SCRATCH"); s && *s) return s;
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    return ec ? fs::path("/tmp") : tmp;
}

void check_scratch_directory(const fs::path& dir, std::uint64_t file_bytes) {
    const int dir_fd = open_directory(dir);
    ::close(dir_fd);
    // Creating a file is the only test that also holds for root and read-only mounts. Its name
    // is random (mkostemp tries others while one exists), so no other user can take it first.
    std::string probe = (dir / (std::string(kScratchNamePrefix) + "probe.XXXXXX")).string();
    const int fd = ::mkostemp(probe.data(), O_CLOEXEC);
    if (fd < 0)
        throw EnvironmentError("kv_offload: cannot create files in scratch directory " + dir.string() + ": " +
                               why(errno) + hint);
    ::close(fd);
    ::unlink(probe.c_str());
    struct statvfs v {};
    if (::statvfs(dir.c_str(), &v) != 0) throw EnvironmentError(os_error("cannot read the free space of", dir, errno));
    const auto free = static_cast<std::uint64_t>(v.f_bavail) * v.f_frsize;
    if (file_bytes > free)
        throw EnvironmentError("kv_offload: the KV file needs " + format_bytes(static_cast<double>(file_bytes)) +
                               " but scratch directory " + dir.string() + " has " +
                               format_bytes(static_cast<double>(free)) + " free" + hint);
}

std::size_t remove_stale_scratch_files(const fs::path& dir) {
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) return 0;
    const std::size_t removed = remove_stale(dir_fd);
    ::close(dir_fd);
    return removed;
}

ScratchFile::ScratchFile(const fs::path& dir, std::uint64_t bytes, const void* chunk, std::uint64_t chunk_bytes)
    : size_(bytes), dir_fd_(open_directory(dir)) {
    remove_stale(dir_fd_);
    const auto pid = static_cast<std::int64_t>(::getpid());
    const ScratchName self{host_name(), pid, start_ticks(pid)};
    // A random number: a name another user made first (any name of this pid can be guessed) only
    // costs another try.
    for (int attempt = 0; fd_ < 0; ++attempt) {
        name_ = scratch_name(self, random_number());
        path_ = dir / name_;
        fd_ = ::openat(dir_fd_, name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd_ < 0 && (errno != EEXIST || attempt == 15)) {
            const int err = errno;
            ::close(dir_fd_);
            throw EnvironmentError(os_error("cannot create the KV file", path_, err));
        }
    }
    const auto* p = static_cast<const char*>(chunk);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t at = done % chunk_bytes;
        const ssize_t n = ::pwrite(fd_, p + at, std::min(bytes - done, chunk_bytes - at), static_cast<off_t>(done));
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            release();
            throw EnvironmentError(os_error("cannot write the KV file", path_, err));
        }
        done += static_cast<std::uint64_t>(n);
    }
    ::fdatasync(fd_);
    struct statfs s {};
    in_memory_ = ::fstatfs(fd_, &s) == 0 && (s.f_type == TMPFS_MAGIC || s.f_type == RAMFS_MAGIC);
    const int direct = open_direct();
    o_direct_ = direct >= 0;
    if (direct >= 0) ::close(direct);
}

ScratchFile::~ScratchFile() { release(); }

void ScratchFile::release() noexcept {
    // Emptied through the descriptor first: if another user moved the name elsewhere, what is
    // left there holds no data. The name is removed only while it is still this file.
    ::ftruncate(fd_, 0);
    struct stat mine {
    }, named{};
    if (::fstat(fd_, &mine) == 0 && ::fstatat(dir_fd_, name_.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        same_file(mine, named))
        ::unlinkat(dir_fd_, name_.c_str(), 0);
    ::close(fd_);
    ::close(dir_fd_);
}

int ScratchFile::open_direct() const {
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    const int fd = ::open(self.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat mine {
    }, opened{};
    if (::fstat(fd_, &mine) != 0 || ::fstat(fd, &opened) != 0 || !same_file(mine, opened)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

std::uint64_t ScratchFile::os_pages() const {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    return (size_ + page - 1) / page;
}

std::uint64_t ScratchFile::resident_pages() const {
    if (size_ == 0) return 0;
    void* map = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
    if (map == MAP_FAILED) throw EnvironmentError(os_error("cannot map the KV file", path_, errno));
    std::vector<unsigned char> in(os_pages());
    const int rc = ::mincore(map, size_, in.data());
    const int err = errno;
    ::munmap(map, size_);
    if (rc != 0) throw EnvironmentError(os_error("mincore failed on the KV file", path_, err));
    std::uint64_t n = 0;
    for (unsigned char c : in) n += c & 1u;
    return n;
}

std::uint64_t ScratchFile::evict() const {
    if (const int rc = ::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        throw EnvironmentError(os_error("cannot evict the page cache of", path_, rc));
    return resident_pages();
}

std::string ScratchFile::notes() const {
    std::string out;
    if (in_memory_) out = "the scratch file is on tmpfs, in memory: no slower tier";
    if (!o_direct_) out += std::string(out.empty() ? "" : "; ") + "its file system refuses O_DIRECT";
    return out;
}

}  // namespace memwall
