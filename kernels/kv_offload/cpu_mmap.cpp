// mmap: the file mapped read-only; each step touches its pages once per OS page, so the faults
// (and the kernel's readahead) bring them in during the io phase, then attends over the mapping
// with no copy.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "kernels/kv_offload/cpu_kernels.hpp"

namespace memwall::kv_cpu {

namespace {

class Mmap final : public Kernel {
  public:
    explicit Mmap(const KvWorkload& w)
        : w_(w),
          size_(w.file().size()),
          os_page_(static_cast<std::size_t>(::sysconf(_SC_PAGESIZE))),
          pages_(static_cast<std::size_t>(w.problem().selected())) {
        // The file's own descriptor, never its name (scratch_file.hpp).
        map_ = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, w.file().fd(), 0);
        if (map_ == MAP_FAILED)
            throw EnvironmentError("kv_offload: cannot map " + w.file().path().string() + ": " + std::strerror(errno));
    }
    ~Mmap() override { ::munmap(map_, size_); }
    Mmap(const Mmap&) = delete;
    Mmap& operator=(const Mmap&) = delete;

    void run(float* out, kit::PhaseTimes& phases) override {
        const KvProblem& p = w_.problem();
        const std::size_t bytes = p.page_bytes();
        const auto* base = static_cast<const float*>(map_);
        tally_ = {};
        for (std::int64_t s = 0; s < p.steps; ++s) {
            const auto& sel = w_.selections()[static_cast<std::size_t>(s)];
            for (std::size_t i = 0; i < sel.size(); ++i) {
                pages_[i] = base + static_cast<std::size_t>(sel[i]) * p.page_floats();
                const auto* b = reinterpret_cast<const volatile unsigned char*>(pages_[i]);
                for (std::size_t at = 0; at < bytes; at += os_page_) {
                    (void)b[at];  // a volatile read: the fault happens here
                    ++tally_.requests;
                }
                tally_.bytes += bytes;
            }
            phases.lap("io");
            kv_attend_step(p, w_, s, pages_.data(), out + s * p.heads * p.head_dim);
            phases.lap("attention");
        }
    }
    bool reads_file() const override { return true; }
    std::uint64_t evict() override {
        // Pages still mapped by this process are not dropped by fadvise: unmap them first.
        ::madvise(map_, size_, MADV_DONTNEED);
        return w_.file().evict();
    }

  private:
    const KvWorkload& w_;
    std::size_t size_, os_page_;
    void* map_ = nullptr;
    std::vector<const float*> pages_;
};

}  // namespace

std::unique_ptr<Kernel> make_mmap(const KvWorkload& w) { return std::make_unique<Mmap>(w); }

}  // namespace memwall::kv_cpu
