#include "kernels/kv_offload/scratch_file.hpp"

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
#include <system_error>
#include <vector>

#include "core/bytes.hpp"
#include "core/errors.hpp"
#include "core/machine.hpp"
#include "core/owner.hpp"

namespace memwall {

namespace {

namespace fs = std::filesystem;

constexpr const char* prefix = "memwall-kv.";

std::string why(int err) { return std::strerror(err); }

std::string os_error(const std::string& what, const fs::path& p, int err) {
    return "kv_offload: " + what + " " + p.string() + ": " + why(err);
}

// The start time of this process in clock ticks (Owner::start without the boot id, which the
// tick count makes redundant for telling a reused pid apart on the same boot).
std::string start_ticks(std::int64_t pid) {
    const std::string s = process_start(pid);
    const auto slash = s.find('/');
    return slash == std::string::npos ? "" : s.substr(slash + 1);
}

struct NameParts {
    std::string host, ticks;
    std::int64_t pid = 0;
};

// memwall-kv.<host>.<pid>.<ticks>.<n>: the host may hold dots, so fields count from the end.
bool parse_name(const std::string& name, NameParts& out) {
    if (name.rfind(prefix, 0) != 0) return false;
    std::string rest = name.substr(std::strlen(prefix));
    std::vector<std::string> tail;
    for (int i = 0; i < 3; ++i) {
        const auto dot = rest.rfind('.');
        if (dot == std::string::npos) return false;
        tail.push_back(rest.substr(dot + 1));
        rest.resize(dot);
    }
    if (rest.empty()) return false;
    for (const auto& f : tail)
        if (f.empty() || f.find_first_not_of("0123456789") != std::string::npos) return false;
    out.host = rest;
    out.ticks = tail[1];
    out.pid = std::stoll(tail[2]);
    return true;
}

}  // namespace

fs::path kv_scratch_directory() {
    if (const char* s = std::getenv("MEMWALL_SCRATCH"); s && *s) return s;
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    return ec ? fs::path("/tmp") : tmp;
}

void check_scratch_directory(const fs::path& dir, std::uint64_t file_bytes) {
    const std::string hint = " (give another with --scratch DIR)";
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw EnvironmentError("kv_offload: scratch directory " + dir.string() + " is not a directory" + hint);
    // Creating a file is the only test that also holds for root and read-only mounts.
    const fs::path probe = dir / (std::string(prefix) + "probe." + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw EnvironmentError("kv_offload: cannot create files in scratch directory " + dir.string() + ": " +
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

bool is_scratch_file_name(const std::string& name) {
    NameParts parts;
    return parse_name(name, parts);
}

std::size_t remove_stale_scratch_files(const fs::path& dir) {
    std::size_t removed = 0;
    std::error_code ec;
    const std::string host = host_name();
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        NameParts n;
        if (!parse_name(e.path().filename().string(), n) || n.host != host) continue;
        const std::string now = start_ticks(n.pid);
        if (!now.empty() && now == n.ticks) continue;  // its owner still runs
        std::error_code rm;
        if (fs::remove(e.path(), rm)) ++removed;
    }
    return removed;
}

ScratchFile::ScratchFile(const fs::path& dir, std::uint64_t bytes, const void* chunk, std::uint64_t chunk_bytes)
    : size_(bytes) {
    remove_stale_scratch_files(dir);
    static std::atomic<std::uint64_t> next{0};
    const auto pid = static_cast<std::int64_t>(::getpid());
    path_ = dir / (std::string(prefix) + host_name() + "." + std::to_string(pid) + "." + start_ticks(pid) + "." +
                   std::to_string(next++));
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) throw EnvironmentError(os_error("cannot create the KV file", path_, errno));
    const auto* p = static_cast<const char*>(chunk);
    for (std::uint64_t done = 0; done < bytes;) {
        const std::uint64_t at = done % chunk_bytes;
        const ssize_t n = ::pwrite(fd_, p + at, std::min(bytes - done, chunk_bytes - at), static_cast<off_t>(done));
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            ::close(fd_);
            ::unlink(path_.c_str());
            throw EnvironmentError(os_error("cannot write the KV file", path_, err));
        }
        done += static_cast<std::uint64_t>(n);
    }
    ::fdatasync(fd_);
    struct statfs s {};
    in_memory_ = ::fstatfs(fd_, &s) == 0 && (s.f_type == TMPFS_MAGIC || s.f_type == RAMFS_MAGIC);
    const int direct = ::open(path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    o_direct_ = direct >= 0;
    if (direct >= 0) ::close(direct);
}

ScratchFile::~ScratchFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
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
