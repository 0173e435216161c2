// The slow tier of the kv_offload family: a real file in a scratch directory, written once per
// workload and removed with it. A run that is killed leaves its file; the file's name carries
// the owning process (host, pid and start time), so the next run removes the files whose owner
// is gone and never those of a run still going.
//
// The directory may be shared with other users (/tmp): the file is created new (O_EXCL, never
// through a symbolic link, mode 0600) and then used only through the descriptor that created it,
// never opened again by name, so a name replaced by another user's file, link or FIFO is never
// read. The cleanup removes only regular files of this user.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace memwall {

// $MEMWALL_SCRATCH, else the temp directory ($TMPDIR, else /tmp).
std::filesystem::path kv_scratch_directory();

// Throws EnvironmentError (one line) unless `dir` is a directory this process can create files
// in, with at least `file_bytes` free (statvfs), and not writable by every user without the
// sticky bit (where any user could remove or rename memwall's files).
void check_scratch_directory(const std::filesystem::path& dir, std::uint64_t file_bytes);

// Removes the scratch files in `dir` whose owner on this host is gone: regular files owned by
// this process's user with one link, never another user's file, a directory, a link or a FIFO.
// Returns how many; a name that cannot be read as a scratch file's is left alone.
std::size_t remove_stale_scratch_files(const std::filesystem::path& dir);

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

    // Its name, for messages; read it through fd() (the name may since be another file).
    const std::filesystem::path& path() const { return path_; }
    // The descriptor that created it, read and write; it stays open as long as this object.
    int fd() const { return fd_; }
    // A new read-only descriptor of the same file with O_DIRECT, opened through /proc/self/fd
    // (not the name) and checked to be the same inode; -1 where O_DIRECT or /proc is refused.
    // The caller closes it.
    int open_direct() const;
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
    // Empties the file, removes its name while the name is still this file, closes both descriptors.
    void release() noexcept;

    std::filesystem::path path_;
    std::string name_;  // in dir_fd_
    std::uint64_t size_ = 0;
    int fd_ = -1, dir_fd_ = -1;
    bool in_memory_ = false, o_direct_ = false;
};

}  // namespace memwall
