// uring: each step's pages read through io_uring (uring_reader.hpp): one request per page, up to
// the queue depth in flight, with O_DIRECT into a registered, page-aligned staging buffer when the
// file system accepts O_DIRECT and the pages are whole 4 KiB blocks (else buffered, and said).
// Each page is attended as it arrives, on this thread, while the step's other reads are in flight
// (phase overlapped): the attention hides under the reads, and no OpenMP team spins through them
// (on a 2-vCPU virtual machine a spinning team cost the reads 45% of the tier's bandwidth).
#include <vector>

#include "kernels/kv_offload/cpu_kernels.hpp"
#include "kernels/kv_offload/uring_reader.hpp"

namespace memwall::kv_cpu {

namespace {

class Uring final : public Kernel {
  public:
    Uring(const KvWorkload& w, unsigned depth)
        : w_(w),
          staging_(static_cast<std::size_t>(w.problem().selected()) * w.problem().page_bytes()),
          reader_(w.file(), depth, direct_reads(w), staging_),
          attention_(w),
          pages_(static_cast<std::size_t>(w.problem().selected())),
          requests_(pages_.size()) {
        const std::size_t bytes = w.problem().page_bytes();
        for (std::size_t i = 0; i < pages_.size(); ++i) {
            pages_[i] = reinterpret_cast<const float*>(staging_.data() + i * bytes);
            requests_[i] = {staging_.data() + i * bytes, 0, bytes};
        }
    }

    void run(float* out, kit::PhaseTimes& phases) override {
        const KvProblem& p = w_.problem();
        tally_ = {};
        reader_.reset_requests();
        for (std::int64_t s = 0; s < p.steps; ++s) {
            const auto& sel = w_.selections()[static_cast<std::size_t>(s)];
            for (std::size_t i = 0; i < sel.size(); ++i)
                requests_[i].offset = static_cast<std::uint64_t>(sel[i]) * p.page_bytes();
            attention_.begin(s);
            reader_.read(requests_, [&](std::size_t i) { attention_.add(pages_[i]); });
            attention_.finish(out + s * p.heads * p.head_dim);
            tally_.bytes += sel.size() * p.page_bytes();
            phases.lap("overlapped");
        }
        tally_.requests = reader_.requests();
    }
    bool reads_file() const override { return true; }
    bool bypasses_page_cache() const override { return reader_.direct(); }
    std::uint64_t evict() override { return w_.file().evict(); }
    std::string notes() const override { return uring_notes(w_, reader_); }

  private:
    const KvWorkload& w_;
    DirectBuffer staging_;
    UringReader reader_;
    StepAttention attention_;
    std::vector<const float*> pages_;
    std::vector<ReadRequest> requests_;
};

}  // namespace

bool direct_reads(const KvWorkload& w) {
    return w.file().o_direct() && w.problem().page_bytes() % kDirectAlignment == 0;
}

std::string uring_notes(const KvWorkload& w, const UringReader& r) {
    std::string n = "io_uring, queue depth " + std::to_string(r.depth()) + ", ";
    if (r.direct())
        n += "O_DIRECT";
    else if (!w.file().o_direct())
        n += "buffered (the file system refuses O_DIRECT)";
    else
        n += "buffered (pages of " + std::to_string(w.problem().page_bytes()) +
             " B are not whole 4 KiB blocks, as O_DIRECT needs)";
    n += r.registered() ? ", registered buffers" : ", unregistered buffers (the kernel refused to register them)";
    return n;
}

std::unique_ptr<Kernel> make_uring(const KvWorkload& w, unsigned depth) { return std::make_unique<Uring>(w, depth); }

}  // namespace memwall::kv_cpu
