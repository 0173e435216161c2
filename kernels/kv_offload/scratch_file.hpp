// The slow tier of the kv_offload family: a real file in a scratch directory, written once per
// workload and removed with it. A run that is killed leaves its file; the file's name carries
// the owning process (host, pid and start time), so the next run removes the files whose owner
// is gone and never those of a run still going.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace memwall {

// $MEMWALL_SCRATCH, else the temp directory ($TMPDIR, else /tmp).
std::filesystem::path kv_scratch_directory();

// Throws EnvironmentError (one line) unless `dir` is a directory this process can create files
// in, with at least `file_bytes` free (statvfs).
void check_scratch_directory(const std::filesystem::path& dir, std::uint64_t file_bytes);

// Removes the scratch files in `dir` whose owner on this host is gone; returns how many.
std::size_t remove_stale_scratch_files(const std::filesystem::path& dir);

// Whether `name` is a scratch file's name (memwall-kv.<host>.<pid>.<start>.<n>).
bool is_scratch_file_name(const std::string& name);

class ScratchFile {
public:
    // Creates the file in `dir`, writes `bytes` of `data` and syncs it (so its pages are clean
    // and can be evicted). Throws EnvironmentError when the machine refuses.
    ScratchFile(const std::filesystem::path& dir, const void* data, std::uint64_t bytes)
        : ScratchFile(dir, bytes, data, bytes) {}
    // The same, `bytes` long, `chunk` (of `chunk_bytes`) written over and over.
    ScratchFile(const std::filesystem::path& dir, std::uint64_t bytes, const void* chunk, std::uint64_t chunk_bytes);
    ~ScratchFile();
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::uint64_t size() const { return size_; }
    // The file's pages of the OS page size.
    std::uint64_t os_pages() const;
    // Its pages in the page cache now (mincore over a mapping that touches nothing).
    std::uint64_t resident_pages() const;
    // Drops its pages from the page cache (posix_fadvise DONTNEED); returns resident_pages()
    // after. Pages mapped by a process stay: unmap or madvise them away first.
    std::uint64_t evict() const;
    // The file system keeps files in memory (tmpfs): no slower tier, and eviction keeps them.
    bool in_memory() const { return in_memory_; }
    // The file system accepts O_DIRECT opens.
    bool o_direct() const { return o_direct_; }
    // What a reader of a case needs about where the file is: tmpfs, no O_DIRECT. Empty: nothing.
    std::string notes() const;

private:
    std::filesystem::path path_;
    std::uint64_t size_ = 0;
    int fd_ = -1;
    bool in_memory_ = false, o_direct_ = false;
};

}  // namespace memwall
