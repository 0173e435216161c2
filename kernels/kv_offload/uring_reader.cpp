#include "kernels/kv_offload/uring_reader.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <vector>

#include "core/errors.hpp"

namespace memwall {

DirectBuffer::DirectBuffer(std::size_t bytes) : bytes_(bytes == 0 ? kDirectAlignment : bytes) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    if (bytes_ >= (std::size_t{2} << 20)) ::madvise(p, bytes_, MADV_HUGEPAGE);  // advice only
    data_ = static_cast<char*>(p);
}

DirectBuffer::~DirectBuffer() { ::munmap(data_, bytes_); }

struct UringReader::Ring {
    io_uring ring{};
};

UringReader::UringReader(const ScratchFile& file, unsigned depth, bool direct, const DirectBuffer& buffer)
    : ring_(std::make_unique<Ring>()), path_(file.path()), depth_(depth), direct_(direct) {
    fd_ = direct ? file.open_direct() : ::fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0)
        throw EnvironmentError("kv_offload: cannot open " + path_.string() + (direct ? " with O_DIRECT" : " again") +
                               ": " + std::strerror(errno));
    if (const int rc = io_uring_queue_init(depth, &ring_->ring, 0); rc < 0) {
        ::close(fd_);
        throw EnvironmentError(
            "kv_offload: io_uring is unavailable (io_uring_queue_init: " + std::string(std::strerror(-rc)) + ")");
    }
    // Fixed buffers are limited to 1 GiB each; larger buffers are read into unregistered.
    iovec v{buffer.data(), buffer.size()};
    registered_ = buffer.size() <= (std::size_t{1} << 30) && io_uring_register_buffers(&ring_->ring, &v, 1) == 0;
}

UringReader::~UringReader() {
    io_uring_queue_exit(&ring_->ring);
    ::close(fd_);
}

void UringReader::read(std::span<const ReadRequest> requests, const std::function<void(std::size_t)>& arrived,
                       const std::function<void()>& submitted) {
    io_uring* ring = &ring_->ring;
    struct InFlight {
        ReadRequest r;
        std::size_t index = 0;  // in `requests`
    };
    std::vector<InFlight> slots(depth_), retry;
    std::vector<unsigned> free(depth_);
    for (unsigned i = 0; i < depth_; ++i) free[i] = depth_ - 1 - i;
    std::vector<std::size_t> done;  // arrived, not yet handed to `arrived`
    std::size_t next = 0;
    unsigned in_flight = 0;
    std::string failure;  // the first failed read; in-flight reads are drained before it is thrown
    bool told_submitted = false;
    auto queue = [&](const InFlight& f) {
        io_uring_sqe* sqe = io_uring_get_sqe(ring);  // never null: at most depth_ in flight
        const unsigned slot = free.back();
        free.pop_back();
        slots[slot] = f;
        if (registered_)
            io_uring_prep_read_fixed(sqe, fd_, f.r.to, static_cast<unsigned>(f.r.bytes), f.r.offset, 0);
        else
            io_uring_prep_read(sqe, fd_, f.r.to, static_cast<unsigned>(f.r.bytes), f.r.offset);
        io_uring_sqe_set_data64(sqe, slot);
        ++in_flight;
        ++requests_;
    };
    auto more = [&] { return failure.empty() && (next < requests.size() || !retry.empty()); };
    while (in_flight > 0 || more() || !done.empty() || (submitted && !told_submitted)) {
        while (more() && in_flight < depth_) {
            if (!retry.empty()) {
                queue(retry.back());
                retry.pop_back();
            } else {
                queue({requests[next], next});
                ++next;
            }
        }
        // With work to do (arrived requests, or `submitted` once), submit without waiting and work
        // while the reads run.
        const bool first = static_cast<bool>(submitted) && !told_submitted;
        const int rc =
            done.empty() && !first && in_flight > 0 ? io_uring_submit_and_wait(ring, 1) : io_uring_submit(ring);
        if (rc < 0 && rc != -EINTR)
            throw EnvironmentError("kv_offload: io_uring_submit on " + path_.string() +
                                   " failed: " + std::strerror(-rc));
        if (first) {
            told_submitted = true;
            submitted();
        }
        if (!done.empty()) {
            if (failure.empty())
                for (const std::size_t i : done) arrived(i);
            done.clear();
        }
        unsigned head = 0, seen = 0;
        io_uring_cqe* cqe = nullptr;
        io_uring_for_each_cqe(ring, head, cqe) {
            ++seen;
            const auto slot = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
            const InFlight f = slots[slot];
            free.push_back(slot);
            --in_flight;
            const int res = cqe->res;
            if (res <= 0) {
                if (failure.empty())
                    failure = "kv_offload: reading " + path_.string() + " at " + std::to_string(f.r.offset) +
                              " failed: " + (res < 0 ? std::strerror(-res) : "unexpected end of file");
            } else if (static_cast<std::size_t>(res) < f.r.bytes) {
                const auto n = static_cast<std::size_t>(res);
                retry.push_back({{f.r.to + n, f.r.offset + n, f.r.bytes - n}, f.index});
            } else if (arrived) {
                done.push_back(f.index);
            }
        }
        io_uring_cq_advance(ring, seen);
    }
    if (!failure.empty()) throw EnvironmentError(failure);
}

}  // namespace memwall
