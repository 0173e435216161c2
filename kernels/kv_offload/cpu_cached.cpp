// cached: an LRU of hot pages in DRAM in front of the file. A step's pages that the cache holds
// are hits; only the misses are read, through io_uring (uring_reader.hpp), straight into the
// slots they take. As in uring, pages are attended on this thread while reads are in flight: the
// hits once the misses are submitted, then each miss as it arrives (phase overlapped). The cache starts empty in every
// run, so a run's hits are those its own steps earn (the reuse between consecutive steps), never left over from the run
// before.
#include <algorithm>
#include <vector>

#include "kernels/kv_offload/cpu_kernels.hpp"
#include "kernels/kv_offload/uring_reader.hpp"

namespace memwall::kv_cpu {

namespace {

class Cached final : public Kernel {
  public:
    Cached(const KvWorkload& w, unsigned depth, std::int64_t capacity)
        : w_(w),
          capacity_(static_cast<std::size_t>(capacity)),
          slots_(capacity_ * w.problem().page_bytes()),
          reader_(w.file(), depth, direct_reads(w), slots_),
          slot_of_(static_cast<std::size_t>(w.problem().pages())),
          page_of_(capacity_),
          last_use_(capacity_),
          attention_(w) {}

    void run(float* out, kit::PhaseTimes& phases) override {
        const KvProblem& p = w_.problem();
        tally_ = {};
        reader_.reset_requests();
        std::fill(slot_of_.begin(), slot_of_.end(), kNone);
        used_ = 0;
        for (std::int64_t s = 0; s < p.steps; ++s) {
            const auto& sel = w_.selections()[static_cast<std::size_t>(s)];
            requests_.clear();
            missed_.clear();
            hit_pages_.clear();
            for (std::size_t i = 0; i < sel.size(); ++i) {
                const std::size_t page = static_cast<std::size_t>(sel[i]);
                if (slot_of_[page] == kNone) {
                    missed_.push_back(i);
                } else {
                    last_use_[slot_of_[page]] = s;  // so no miss of this step evicts it
                    hit_pages_.push_back(page_at(slot_of_[page]));
                    ++tally_.hits;
                }
            }
            take_slots(s, missed_.size());
            for (std::size_t k = 0; k < missed_.size(); ++k) {
                const std::size_t slot = victims_[k], page = static_cast<std::size_t>(sel[missed_[k]]);
                if (page_of_[slot] != kNone && slot_of_[page_of_[slot]] == slot) slot_of_[page_of_[slot]] = kNone;
                slot_of_[page] = slot;
                page_of_[slot] = page;
                last_use_[slot] = s;
                requests_.push_back({slots_.data() + slot * p.page_bytes(), page * p.page_bytes(), p.page_bytes()});
            }
            attention_.begin(s);
            reader_.read(
                requests_, [&](std::size_t k) { attention_.add(reinterpret_cast<const float*>(requests_[k].to)); },
                [&] {
                    for (const float* page : hit_pages_) attention_.add(page);
                });
            attention_.finish(out + s * p.heads * p.head_dim);
            tally_.bytes += requests_.size() * p.page_bytes();
            phases.lap("overlapped");
        }
        tally_.requests = reader_.requests();
    }
    bool reads_file() const override { return true; }
    bool bypasses_page_cache() const override { return reader_.direct(); }
    std::uint64_t evict() override { return w_.file().evict(); }
    std::string notes() const override {
        return "LRU of " + std::to_string(capacity_) + " pages, empty at the start of each run; misses by " +
               uring_notes(w_, reader_);
    }

  private:
    static constexpr std::size_t kNone = ~std::size_t{0};

    const float* page_at(std::size_t slot) const {
        return reinterpret_cast<const float*>(slots_.data() + slot * w_.problem().page_bytes());
    }

    // victims_[0, n): free slots first, then the least recently used (oldest step, then lowest
    // page: the order cached_hits() models). A step never evicts its own pages: the capacity is
    // at least a step's selection.
    void take_slots(std::int64_t step, std::size_t n) {
        victims_.clear();
        const std::size_t filled = used_;  // slots holding pages before this step
        while (victims_.size() < n && used_ < capacity_) {
            page_of_[used_] = kNone;
            victims_.push_back(used_++);
        }
        if (victims_.size() == n) return;
        candidates_.clear();
        for (std::size_t slot = 0; slot < filled; ++slot)
            if (last_use_[slot] < step) candidates_.push_back(slot);
        const std::size_t more = n - victims_.size();
        auto older = [&](std::size_t a, std::size_t b) {
            return last_use_[a] != last_use_[b] ? last_use_[a] < last_use_[b] : page_of_[a] < page_of_[b];
        };
        std::nth_element(candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(more - 1),
                         candidates_.end(), older);
        victims_.insert(victims_.end(), candidates_.begin(), candidates_.begin() + static_cast<std::ptrdiff_t>(more));
    }

    const KvWorkload& w_;
    std::size_t capacity_, used_ = 0;
    DirectBuffer slots_;
    UringReader reader_;
    std::vector<std::size_t> slot_of_, page_of_;
    std::vector<std::int64_t> last_use_;
    StepAttention attention_;
    std::vector<const float*> hit_pages_;
    std::vector<ReadRequest> requests_;
    std::vector<std::size_t> missed_, victims_, candidates_;
};

}  // namespace

std::unique_ptr<Kernel> make_cached(const KvWorkload& w, unsigned depth, std::int64_t capacity) {
    return std::make_unique<Cached>(w, depth, capacity);
}

}  // namespace memwall::kv_cpu
