// Reads of a file through io_uring, as the uring and cached variants and the tier ceiling issue
// them: up to `depth` requests in flight, submitted in batches (one io_uring_enter per refill, not
// per request), into one buffer registered with the ring (fixed buffers, so the kernel does not pin
// and unpin the pages on every read), with O_DIRECT where the file system and the sizes allow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "kernels/kv_offload/scratch_file.hpp"

namespace memwall {

// O_DIRECT needs offsets, sizes and addresses aligned to the device's logical block; 4 KiB holds
// for every block device in use.
inline constexpr std::size_t kDirectAlignment = 4096;

// Anonymous memory, page aligned (so O_DIRECT accepts it), advised to huge pages when large.
class DirectBuffer {
  public:
    explicit DirectBuffer(std::size_t bytes);
    ~DirectBuffer();
    DirectBuffer(const DirectBuffer&) = delete;
    DirectBuffer& operator=(const DirectBuffer&) = delete;
    char* data() const { return data_; }
    std::size_t size() const { return bytes_; }

  private:
    char* data_ = nullptr;
    std::size_t bytes_ = 0;
};

struct ReadRequest {
    char* to = nullptr;  // inside the reader's buffer
    std::uint64_t offset = 0;
    std::size_t bytes = 0;
};

class UringReader {
  public:
    // Reads `file` through a descriptor of its own (a duplicate of the file's, or its O_DIRECT
    // one when `direct`: never the name), with a ring of `depth` entries, and registers `buffer`.
    // Throws EnvironmentError (one line) when O_DIRECT is refused or the kernel refuses
    // io_uring; a refused registration only falls back to plain buffers, said by notes().
    UringReader(const ScratchFile& file, unsigned depth, bool direct, const DirectBuffer& buffer);
    ~UringReader();
    UringReader(const UringReader&) = delete;
    UringReader& operator=(const UringReader&) = delete;

    // Issues every request and returns when all have completed. Short reads (a buffered read may
    // stop early) are continued. `arrived`, when given, is called on this thread with the index of
    // each request whose bytes are all in, after the queue has been refilled, so work on one
    // request's bytes overlaps the reads still in flight. `submitted`, when given, is called once,
    // after the first requests are submitted and before any wait: work that needs none of them
    // (cached's hits) runs while they are read. Throws EnvironmentError on a failed read or one
    // past the end.
    void read(std::span<const ReadRequest> requests, const std::function<void(std::size_t)>& arrived = {},
              const std::function<void()>& submitted = {});

    unsigned depth() const { return depth_; }
    bool direct() const { return direct_; }
    bool registered() const { return registered_; }
    // Requests issued by read() so far, continuations included.
    std::uint64_t requests() const { return requests_; }
    void reset_requests() { requests_ = 0; }

  private:
    struct Ring;
    std::unique_ptr<Ring> ring_;
    std::filesystem::path path_;
    int fd_ = -1;
    unsigned depth_ = 0;
    bool direct_ = false, registered_ = false;
    std::uint64_t requests_ = 0;
};

}  // namespace memwall
