// pread: one pread per selected page into a DRAM staging buffer, then attention over it. It reads
// through the file's own descriptor, never its name (scratch_file.hpp).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "kernels/kv_offload/cpu_kernels.hpp"

namespace memwall::kv_cpu {

namespace {

class Pread final : public Kernel {
  public:
    explicit Pread(const KvWorkload& w)
        : w_(w),
          staging_(static_cast<std::size_t>(w.problem().selected()) * w.problem().page_floats(),
                   kit::PlacedAllocator<float>(kv_slot::kStaging)),
          pages_(static_cast<std::size_t>(w.problem().selected())) {
        for (std::size_t i = 0; i < pages_.size(); ++i) pages_[i] = staging_.data() + i * w.problem().page_floats();
    }

    void run(float* out, kit::PhaseTimes& phases) override {
        const KvProblem& p = w_.problem();
        const std::size_t bytes = p.page_bytes();
        tally_ = {};
        for (std::int64_t s = 0; s < p.steps; ++s) {
            const auto& sel = w_.selections()[static_cast<std::size_t>(s)];
            for (std::size_t i = 0; i < sel.size(); ++i) {
                read_page(reinterpret_cast<char*>(staging_.data() + i * p.page_floats()),
                          static_cast<off_t>(static_cast<std::uint64_t>(sel[i]) * bytes), bytes);
                tally_.bytes += bytes;
            }
            phases.lap("io");
            kv_attend_step(p, w_, s, pages_.data(), out + s * p.heads * p.head_dim);
            phases.lap("attention");
        }
    }
    bool reads_file() const override { return true; }
    std::uint64_t evict() override { return w_.file().evict(); }

  private:
    // One request; a short read (which regular files give only at their end) is continued.
    void read_page(char* to, off_t at, std::size_t bytes) {
        ++tally_.requests;
        for (std::size_t done = 0; done < bytes;) {
            const ssize_t n = ::pread(w_.file().fd(), to + done, bytes - done, at + static_cast<off_t>(done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                throw EnvironmentError("kv_offload: reading " + w_.file().path().string() +
                                       " failed: " + (n < 0 ? std::strerror(errno) : "unexpected end of file"));
            done += static_cast<std::size_t>(n);
        }
    }

    const KvWorkload& w_;
    kit::PlacedBuffer staging_;
    std::vector<const float*> pages_;
};

}  // namespace

std::unique_ptr<Kernel> make_pread(const KvWorkload& w) { return std::make_unique<Pread>(w); }

}  // namespace memwall::kv_cpu
