// Runs a grid on the calling OS thread: the blocks one after another, each CUDA thread of a
// block on its own fiber (Boost.Context) over stacks pooled for the process. A thread runs
// until it waits in a barrier or a warp intrinsic, sleeps, fails a compare-and-swap, makes its
// 64th atomic, or returns; then the next ready thread runs. Fibers switch in nanoseconds where
// an OS thread per CUDA thread needs the kernel's scheduler, and cooperative scheduling makes
// runs deterministic (counts, cache models) and deadlocks exact: when no thread can run, the
// block is stuck, and the error says where each thread waits.

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda_emu/arena.hpp"
#include "cuda_emu/async_copy.hpp"
#include "cuda_emu/device.hpp"
#include "cuda_emu/launch.hpp"
#include "cuda_emu/recorder.hpp"
#include "cuda_emu/scheduler.hpp"
#include "cuda_emu/stack_pool.hpp"
#include "cuda_emu/traffic.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define MEMWALL_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMWALL_EMU_ASAN 1
#endif
#endif
#if defined(MEMWALL_EMU_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(MEMWALL_EMU_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace memwall::emu::detail {

constinit thread_local uint3 thread_idx{0, 0, 0};
constinit thread_local uint3 block_idx{0, 0, 0};
constinit thread_local dim3 block_dim{1, 1, 1};
constinit thread_local dim3 grid_dim{1, 1, 1};
constinit thread_local unsigned char* dynamic_shared = nullptr;
constinit thread_local std::size_t dynamic_shared_bytes = 0;

namespace {

using cuda::LaunchError;
namespace bc = boost::context;
using Clock = std::chrono::steady_clock;

// Thrown at its suspension point into each thread of a failed block, to unwind its stack.
struct Abort {};

// The pool owns the stacks: a finished fiber must not free its own.
struct PooledStack {
    void deallocate(bc::stack_context&) noexcept {}
};

enum class State : std::uint8_t { ready, barrier, warp, exited };

struct Thread {
    bc::fiber fiber;      // the suspended thread; empty while it runs and once it returned
    bc::fiber scheduler;  // where it suspends to
    uint3 index{0, 0, 0};
    unsigned linear = 0;
    State state = State::ready;
    // What it waits in: the intrinsic, its arguments, and the result when it completes.
    BarrierOp barrier_op = BarrierOp::sync;
    WarpOp warp_op = WarpOp::sync;
    unsigned mask = 0;
    std::uint64_t value = 0;
    long long arg = 0;
    int width = 32;
    Site site;
    // A warp exchange's instruction, its operands and results, and what combines them.
    const char* instruction = nullptr;
    void* payload = nullptr;
    WarpCombine combine = nullptr;
    std::uint64_t result = 0;
    std::exception_ptr error;
    unsigned atomics = 0;
#if defined(MEMWALL_EMU_ASAN)
    void* fake_stack = nullptr;
#endif
#if defined(MEMWALL_EMU_TSAN)
    void* tsan_fiber = nullptr;
#endif
};

// An intrinsic some lanes of a warp wait in, keyed by its mask.
struct WarpGroup {
    WarpOp op;
    unsigned mask;
    unsigned arrived;
    unsigned first;  // the thread that arrived first
};

struct Warp {
    unsigned existing = 0;  // lanes the block has
    unsigned exited = 0;
    std::vector<WarpGroup> groups;
};

struct Barrier {
    unsigned arrived = 0;
    unsigned count = 0;  // arrived threads with a true predicate
    BarrierOp op = BarrierOp::sync;
    Site site;
    unsigned first = 0;  // the first thread that arrived
};

const char* name(BarrierOp op) {
    switch (op) {
        case BarrierOp::sync: return "__syncthreads";
        case BarrierOp::count: return "__syncthreads_count";
        case BarrierOp::all: return "__syncthreads_and";
        case BarrierOp::any: return "__syncthreads_or";
    }
    return "?";
}

const char* name(WarpOp op) {
    switch (op) {
        case WarpOp::sync: return "__syncwarp";
        case WarpOp::shfl: return "__shfl_sync";
        case WarpOp::shfl_up: return "__shfl_up_sync";
        case WarpOp::shfl_down: return "__shfl_down_sync";
        case WarpOp::shfl_xor: return "__shfl_xor_sync";
        case WarpOp::ballot: return "__ballot_sync";
        case WarpOp::any: return "__any_sync";
        case WarpOp::all: return "__all_sync";
        case WarpOp::active: return "__activemask";
        case WarpOp::exchange: return "a warp matrix instruction";
    }
    return "?";
}

// The intrinsic a thread waits in, by the name of its instruction for a warp exchange.
const char* name(const Thread& t) { return t.warp_op == WarpOp::exchange ? t.instruction : name(t.warp_op); }

bool is_shuffle(WarpOp op) {
    return op == WarpOp::shfl || op == WarpOp::shfl_up || op == WarpOp::shfl_down || op == WarpOp::shfl_xor;
}

bool same_site(const Site& a, const Site& b) {
    return a.line == b.line && a.column == b.column && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

std::string hex(unsigned mask) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", mask);
    return buf;
}

std::string dims(unsigned x, unsigned y, unsigned z) {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string what(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

// The lane whose value `lane` receives from a shuffle (itself when out of its segment).
long long source_lane(WarpOp op, long long lane, long long arg, long long width) {
    const long long segment = lane & ~(width - 1);
    switch (op) {
        case WarpOp::shfl: return segment + (arg & (width - 1));
        case WarpOp::shfl_up: return lane - segment >= arg ? lane - arg : lane;
        case WarpOp::shfl_down: return lane - segment + arg < width ? lane + arg : lane;
        case WarpOp::shfl_xor: {
            const long long src = lane ^ arg;
            return src >= 0 && src < segment + width ? src : lane;
        }
        default: return lane;
    }
}

constexpr unsigned kMaxThreads = 1024;
constexpr std::size_t kMaxDynamicShared = 227 * 1024;  // sm_90's opt-in maximum per block

void validate(const cuda::LaunchConfig& c) {
    const dim3& b = c.block;
    const dim3& g = c.grid;
    const std::string block = "block " + dims(b.x, b.y, b.z);
    const std::string grid = "grid " + dims(g.x, g.y, g.z);
    if (b.x == 0 || b.y == 0 || b.z == 0)
        throw LaunchError("cuda-emu: invalid launch: " + block + " has a zero dimension");
    if (g.x == 0 || g.y == 0 || g.z == 0)
        throw LaunchError("cuda-emu: invalid launch: " + grid + " has a zero dimension");
    if (b.x > kMaxThreads || b.y > kMaxThreads || b.z > 64 || std::uint64_t{b.x} * b.y * b.z > kMaxThreads)
        throw LaunchError("cuda-emu: invalid launch: " + block + " exceeds 1024 threads (x, y <= 1024, z <= 64)");
    if (g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
        throw LaunchError("cuda-emu: invalid launch: " + grid + " exceeds 2^31-1 x 65535 x 65535 blocks");
    if (c.dynamic_shared > kMaxDynamicShared)
        throw LaunchError("cuda-emu: invalid launch: " + std::to_string(c.dynamic_shared) +
                          " bytes of dynamic shared memory exceed the 227 KiB of sm_90");
}

std::mutex& launch_mutex() {
    static std::mutex m;
    return m;
}

StackPool& stack_pool() {
    static StackPool pool;
    return pool;
}

class Grid;
constinit thread_local Grid* running = nullptr;

struct FreeAligned {
    void operator()(unsigned char* p) const { ::operator delete (p, std::align_val_t{128}); }
};

class Grid {
  public:
    Grid(const cuda::LaunchConfig& config, void (*body)(void*), void* context, Recorder* recorder)
        : config_(config),
          body_(body),
          context_(context),
          recorder_(recorder),
          n_(config.block.x * config.block.y * config.block.z),
          threads_(n_),
          warps_((n_ + 31) / 32),
          ready_(n_) {
        for (unsigned t = 0; t < n_; ++t) {
            threads_[t].linear = t;
            threads_[t].index = {t % config.block.x, t / config.block.x % config.block.y,
                                 t / (config.block.x * config.block.y)};
        }
        for (unsigned w = 0; w < warps_.size(); ++w) {
            const unsigned lanes = std::min(32u, n_ - 32 * w);
            warps_[w].existing = lanes == 32 ? ~0u : (1u << lanes) - 1;
        }
        if (config.dynamic_shared > 0)
            dynamic_.reset(static_cast<unsigned char*>(::operator new (config.dynamic_shared, std::align_val_t{128})));
#if defined(MEMWALL_EMU_TSAN)
        tsan_main_ = __tsan_get_current_fiber();
        warp_sync_.resize(warps_.size());
#endif
    }

    void run() {
        const std::uint64_t gx = config_.grid.x, gy = config_.grid.y;
        std::vector<std::uint64_t> order(gx * gy * config_.grid.z);
        std::iota(order.begin(), order.end(), std::uint64_t{0});
        if (config_.emu.order == BlockOrder::reverse) {
            std::reverse(order.begin(), order.end());
        } else if (config_.emu.order == BlockOrder::shuffled) {
            // Fisher-Yates over mt19937_64, whose output the standard fixes: the same seed
            // gives the same order everywhere (std::shuffle's algorithm is not specified).
            std::mt19937_64 rng(config_.emu.seed);
            for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
        }
        block_dim = config_.block;
        grid_dim = config_.grid;
        dynamic_shared = dynamic_.get();
        dynamic_shared_bytes = dynamic_ ? config_.dynamic_shared : 0;
        deadline_ = Clock::now() + config_.emu.timeout;
        for (std::uint64_t b : order)
            run_block({static_cast<unsigned>(b % gx), static_cast<unsigned>(b / gx % gy),
                       static_cast<unsigned>(b / (gx * gy))});
#if defined(MEMWALL_EMU_TSAN)
        __tsan_acquire(&run_sync_);  // every thread happens before what the host does next
#endif
    }

    bool in_thread() const { return current_ != nullptr; }
    Thread& current() { return *current_; }

    void suspend(Thread& t) {
#if defined(MEMWALL_EMU_TSAN)
        __tsan_switch_to_fiber(tsan_main_, __tsan_switch_to_fiber_no_sync);
#endif
#if defined(MEMWALL_EMU_ASAN)
        __sanitizer_start_switch_fiber(&t.fake_stack, main_bottom_, main_size_);
#endif
        t.scheduler = std::move(t.scheduler).resume();
#if defined(MEMWALL_EMU_ASAN)
        __sanitizer_finish_switch_fiber(t.fake_stack, &main_bottom_, &main_size_);
#endif
        if (aborting_) throw Abort{};
    }

    void yield(Thread& t) {
        t.state = State::ready;
        suspend(t);
    }

    // Happens-before edges for ThreadSanitizer: threads switch without synchronising, so a
    // missing barrier is a race it reports; barriers and __syncwarp add the edges (shuffles
    // and votes do not order memory in CUDA either).
    void release(const Thread& t, bool block) {
#if defined(MEMWALL_EMU_TSAN)
        __tsan_release(block ? &barrier_sync_ : &warp_sync_[t.linear / 32]);
#else
        (void)t, (void)block;
#endif
    }
    void acquire(const Thread& t, bool block) {
#if defined(MEMWALL_EMU_TSAN)
        __tsan_acquire(block ? &barrier_sync_ : &warp_sync_[t.linear / 32]);
#else
        (void)t, (void)block;
#endif
    }

  private:
    void run_block(uint3 block) {
        block_ = block;
        block_idx = block;
#if defined(MEMWALL_EMU_TSAN)
        __tsan_acquire(&run_sync_);  // the threads of earlier blocks happen before the poison
#endif
        if (config_.emu.poison_shared) {
            if (__start_memwall_emu_shared != nullptr && __stop_memwall_emu_shared != nullptr)
                std::memset(__start_memwall_emu_shared, 0xff,
                            static_cast<std::size_t>(__stop_memwall_emu_shared - __start_memwall_emu_shared));
            if (dynamic_) std::memset(dynamic_.get(), 0xff, config_.dynamic_shared);
        }
#if defined(MEMWALL_EMU_TSAN)
        __tsan_release(&run_sync_);  // and the host's writes and the poison before this block
#endif
        if (recorder_) recorder_->begin_block();
        begin_block_copies(n_);
        barrier_ = Barrier{};
        for (Warp& w : warps_) {
            w.exited = 0;
            w.groups.clear();
        }
        finished_ = exited_ = 0;
        ready_head_ = ready_size_ = 0;
        for (Thread& t : threads_) {
            t.state = State::ready;
            t.error = nullptr;
            t.atomics = 0;
            const Stack& s = stack_pool().get(t.linear);
            bc::stack_context sc;
            sc.sp = s.top();
            sc.size = s.size;
#if defined(MEMWALL_EMU_TSAN)
            t.tsan_fiber = __tsan_create_fiber(0);
#endif
            t.fiber = bc::fiber(std::allocator_arg, bc::preallocated(s.top(), s.size, sc), PooledStack{},
                                [this, &t](bc::fiber&& scheduler) { return thread_main(t, std::move(scheduler)); });
            push_ready(t.linear);
        }
        try {
            schedule();
        } catch (...) {
            abort_block();
            throw;
        }
        destroy_tsan_fibers();
    }

    void schedule() {
        while (finished_ < n_) {
            if (ready_size_ == 0) throw LaunchError(deadlock_message());
            Thread& t = threads_[ready_[ready_head_]];
            ready_head_ = (ready_head_ + 1) % n_;
            --ready_size_;
            resume(t);
            switch (t.state) {
                case State::ready: push_ready(t.linear); break;
                case State::barrier: on_barrier(t); break;
                case State::warp: on_warp(t); break;
                case State::exited: on_exit(t); break;
            }
            if (++resumes_ % 256 == 0 && Clock::now() > deadline_)
                throw LaunchError(block_prefix() + "still running after the " +
                                  std::to_string(config_.emu.timeout.count()) +
                                  " ms timeout: a thread spins on a condition no thread changes");
        }
    }

    void push_ready(unsigned t) {
        ready_[(ready_head_ + ready_size_) % n_] = t;
        ++ready_size_;
    }

    void resume(Thread& t) {
        thread_idx = t.index;
        if (recorder_) recorder_->set_thread(t.linear);
        current_ = &t;
#if defined(MEMWALL_EMU_ASAN)
        void* fake_stack = nullptr;
        const Stack& s = stack_pool().get(t.linear);
        __sanitizer_start_switch_fiber(&fake_stack, s.bottom, s.size);
#endif
#if defined(MEMWALL_EMU_TSAN)
        __tsan_switch_to_fiber(t.tsan_fiber, __tsan_switch_to_fiber_no_sync);
#endif
        t.fiber = std::move(t.fiber).resume();
#if defined(MEMWALL_EMU_ASAN)
        __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
        current_ = nullptr;
    }

    bc::fiber thread_main(Thread& t, bc::fiber&& scheduler) {
        t.scheduler = std::move(scheduler);
#if defined(MEMWALL_EMU_ASAN)
        __sanitizer_finish_switch_fiber(nullptr, &main_bottom_, &main_size_);
#endif
#if defined(MEMWALL_EMU_TSAN)
        __tsan_acquire(&run_sync_);
#endif
        if (!aborting_) {
            try {
                body_(context_);
            } catch (const Abort&) {
            } catch (const bc::detail::forced_unwind&) {
                throw;  // Boost.Context unwinding a fiber it destroys
            } catch (...) {
                t.error = std::current_exception();
            }
        }
        t.state = State::exited;
#if defined(MEMWALL_EMU_TSAN)
        __tsan_release(&run_sync_);
        __tsan_switch_to_fiber(tsan_main_, __tsan_switch_to_fiber_no_sync);
#endif
#if defined(MEMWALL_EMU_ASAN)
        __sanitizer_start_switch_fiber(nullptr, main_bottom_, main_size_);
#endif
        return std::move(t.scheduler);
    }

    // Unwinds every unfinished thread of the block from where it waits.
    void abort_block() {
        aborting_ = true;
        for (Thread& t : threads_)
            if (t.fiber) resume(t);
        aborting_ = false;
        destroy_tsan_fibers();
    }

    void destroy_tsan_fibers() {
#if defined(MEMWALL_EMU_TSAN)
        for (Thread& t : threads_) __tsan_destroy_fiber(t.tsan_fiber);
#endif
    }

    void on_barrier(Thread& t) {
        Barrier& b = barrier_;
        if (b.arrived == 0) {
            b.op = t.barrier_op;
            b.site = t.site;
            b.first = t.linear;
            b.count = 0;
        } else if (t.barrier_op != b.op || !same_site(t.site, b.site)) {
            throw LaunchError(block_prefix() + "threads wait at different barriers: thread " + std::to_string(b.first) +
                              " at " + name(b.op) + " (" + where(b.site) + "), thread " + std::to_string(t.linear) +
                              " at " + name(t.barrier_op) + " (" + where(t.site) + ")");
        }
        if (config_.emu.barrier_rule == BarrierRule::strict && exited_ > 0)
            throw LaunchError(block_prefix() + "thread " + std::to_string(t.linear) + " waits at " +
                              name(t.barrier_op) + " (" + where(t.site) + ") but thread " +
                              std::to_string(first_exited_) + " has returned" + strict_rule_hint());
        ++b.arrived;
        b.count += t.value != 0;
        complete_barrier_if_ready();
    }

    void complete_barrier_if_ready() {
        Barrier& b = barrier_;
        const unsigned needed = config_.emu.barrier_rule == BarrierRule::strict ? n_ : n_ - exited_;
        if (b.arrived == 0 || b.arrived < needed) return;
        std::uint64_t result = 0;
        switch (b.op) {
            case BarrierOp::sync: break;
            case BarrierOp::count: result = b.count; break;
            case BarrierOp::all: result = b.count == b.arrived; break;
            case BarrierOp::any: result = b.count > 0; break;
        }
        for (Thread& w : threads_) {
            if (w.state != State::barrier) continue;
            w.result = result;
            w.state = State::ready;
            push_ready(w.linear);
        }
        b.arrived = 0;
        if (recorder_) recorder_->converge_block();
    }

    void on_warp(Thread& t) {
        const unsigned lane = t.linear % 32, bit = 1u << lane;
        auto who = [&] {
            return block_prefix() + "lane " + std::to_string(lane) + " of warp " + std::to_string(t.linear / 32) +
                   " in " + name(t) + " (" + where(t.site) + ")";
        };
        if ((t.mask & bit) == 0)
            throw LaunchError(who() + ": the mask " + hex(t.mask) + " leaves out the calling lane");
        if (is_shuffle(t.warp_op) && (t.width < 1 || t.width > 32 || (t.width & (t.width - 1))))
            throw LaunchError(who() + ": width " + std::to_string(t.width) + " is not a power of 2 up to 32");
        Warp& w = warps_[t.linear / 32];
        auto g = std::find_if(w.groups.begin(), w.groups.end(), [&](const WarpGroup& x) { return x.mask == t.mask; });
        if (g == w.groups.end()) {
            g = w.groups.insert(w.groups.end(), WarpGroup{t.warp_op, t.mask, 0, t.linear});
        } else if (g->op != t.warp_op) {
            throw LaunchError(who() + ": the other lanes of mask " + hex(t.mask) + " wait in " +
                              name(threads_[g->first]));
        } else if (t.warp_op == WarpOp::exchange) {
            const Thread& first = threads_[g->first];
            if (first.combine != t.combine || !same_site(first.site, t.site))
                throw LaunchError(who() + ": lane " + std::to_string(first.linear % 32) + " waits in " + name(first) +
                                  " (" + where(first.site) +
                                  "); the lanes of a warp must execute the same instruction");
        }
        g->arrived |= bit;
        complete_warp_if_ready(t.linear / 32, static_cast<std::size_t>(g - w.groups.begin()));
    }

    // Completes group gi of warp wi once every lane of its mask arrived or returned.
    bool complete_warp_if_ready(unsigned wi, std::size_t gi) {
        Warp& w = warps_[wi];
        const WarpGroup g = w.groups[gi];
        const unsigned present = g.arrived | w.exited | ~w.existing;
        if ((present & g.mask) != g.mask) return false;
        Thread* lanes = &threads_[wi * 32];
        if (g.op == WarpOp::exchange) {
            exchange(wi, g);
        } else {
            deliver(wi, g);
        }
        for (unsigned l = 0; l < 32; ++l) {
            if (!(g.arrived >> l & 1u)) continue;
            lanes[l].state = State::ready;
            push_ready(wi * 32 + l);
        }
        w.groups.erase(w.groups.begin() + static_cast<std::ptrdiff_t>(gi));
        if (recorder_ && g.arrived == (w.existing & ~w.exited)) recorder_->converge_warp(wi);
        return true;
    }

    // A warp exchange completes with every lane of the warp, never fewer.
    void exchange(unsigned wi, const WarpGroup& g) {
        const Warp& w = warps_[wi];
        Thread* lanes = &threads_[wi * 32];
        const Thread& first = threads_[g.first];
        if (g.arrived != ~0u) {
            const unsigned missing = ~g.arrived;
            const unsigned lane = static_cast<unsigned>(std::countr_zero(missing));
            throw LaunchError(block_prefix() + "lane " + std::to_string(lane) + " of warp " + std::to_string(wi) + " " +
                              ((w.existing >> lane & 1u) == 0 ? "is not in the block" : "has returned") +
                              " while the others wait in " + name(first) + " (" + where(first.site) +
                              "), which needs all 32 lanes of the warp");
        }
        void* payloads[32];
        for (unsigned l = 0; l < 32; ++l) payloads[l] = lanes[l].payload;
        first.combine(payloads);
    }

    // The results of a barrier-like warp intrinsic or a shuffle.
    void deliver(unsigned wi, const WarpGroup& g) {
        const Warp& w = warps_[wi];
        Thread* lanes = &threads_[wi * 32];
        unsigned ballot = 0;
        for (unsigned l = 0; l < 32; ++l)
            if ((g.arrived >> l & 1u) && lanes[l].value) ballot |= 1u << l;
        for (unsigned l = 0; l < 32; ++l) {
            if (!(g.arrived >> l & 1u)) continue;
            Thread& t = lanes[l];
            switch (g.op) {
                case WarpOp::sync: t.result = 0; break;
                case WarpOp::ballot: t.result = ballot; break;
                case WarpOp::any: t.result = ballot != 0; break;
                case WarpOp::all: t.result = ballot == g.arrived; break;
                case WarpOp::active: t.result = g.arrived; break;
                default: {
                    const long long src = source_lane(g.op, l, t.arg, t.width);
                    if (src != l && !(g.arrived >> src & 1u))
                        throw LaunchError(block_prefix() + "lane " + std::to_string(l) + " of warp " +
                                          std::to_string(wi) + " reads lane " + std::to_string(src) + " in " +
                                          name(g.op) + " (" + where(t.site) + "), which " +
                                          ((w.existing >> src & 1u) == 0 ? "the block does not have"
                                           : (w.exited >> src & 1u)      ? "has returned"
                                                                         : "is not in the mask " + hex(g.mask)));
                    t.result = lanes[src].value;
                }
            }
        }
    }

    void on_exit(Thread& t) {
        ++finished_;
        if (t.error)
            throw LaunchError(block_prefix() + "thread " + std::to_string(t.linear) + " threw: " + what(t.error));
        if (exited_++ == 0) first_exited_ = t.linear;
        Warp& w = warps_[t.linear / 32];
        w.exited |= 1u << (t.linear % 32);
        if (barrier_.arrived > 0) {
            if (config_.emu.barrier_rule == BarrierRule::strict)
                throw LaunchError(block_prefix() + "thread " + std::to_string(t.linear) + " returned while " +
                                  std::to_string(barrier_.arrived) + " threads wait at " + name(barrier_.op) + " (" +
                                  where(barrier_.site) + ")" + strict_rule_hint());
            complete_barrier_if_ready();
        }
        for (std::size_t g = 0; g < w.groups.size();)
            if (!complete_warp_if_ready(t.linear / 32, g)) ++g;
    }

    static std::string strict_rule_hint() {
        return "; CUDA requires every thread of a block to reach each barrier "
               "(BarrierRule::exited_threads_arrive counts returned threads as arrived, as "
               "sm_70+ GPUs do)";
    }

    std::string block_prefix() const {
        return "cuda-emu: block " + dims(block_.x, block_.y, block_.z) + " of grid " +
               dims(config_.grid.x, config_.grid.y, config_.grid.z) + " x block " +
               dims(config_.block.x, config_.block.y, config_.block.z) + ": ";
    }

    std::string waiting_at(const Thread& t) const {
        switch (t.state) {
            case State::exited: return "returned";
            case State::barrier: return "wait at " + std::string(name(t.barrier_op)) + " (" + where(t.site) + ")";
            case State::warp:
                return "wait at " + std::string(name(t)) + " with mask " + hex(t.mask) + " (" + where(t.site) + ")";
            case State::ready: break;
        }
        return "ready";
    }

    std::string deadlock_message() const {
        std::string msg = block_prefix() + "deadlock, no thread can continue:";
        const char* sep = " ";
        int groups = 0;
        for (unsigned i = 0; i < n_;) {
            const std::string state = waiting_at(threads_[i]);
            unsigned j = i + 1;
            while (j < n_ && waiting_at(threads_[j]) == state) ++j;
            if (++groups > 8) {
                msg += "; ...";
                break;
            }
            msg += sep;
            msg += j == i + 1 ? "thread " + std::to_string(i)
                              : "threads " + std::to_string(i) + "-" + std::to_string(j - 1);
            msg += " " + state;
            sep = "; ";
            i = j;
        }
        return msg;
    }

    const cuda::LaunchConfig& config_;
    void (*body_)(void*);
    void* context_;
    Recorder* recorder_;
    unsigned n_;
    std::vector<Thread> threads_;  // never resized: fibers refer to their Thread
    std::vector<Warp> warps_;
    Barrier barrier_;
    std::vector<unsigned> ready_;  // a ring of thread indices
    std::size_t ready_head_ = 0, ready_size_ = 0;
    unsigned finished_ = 0, exited_ = 0, first_exited_ = 0;
    bool aborting_ = false;
    Thread* current_ = nullptr;
    std::unique_ptr<unsigned char, FreeAligned> dynamic_;
    Clock::time_point deadline_;
    std::uint64_t resumes_ = 0;
    uint3 block_{0, 0, 0};
#if defined(MEMWALL_EMU_ASAN)
    const void* main_bottom_ = nullptr;
    std::size_t main_size_ = 0;
#endif
#if defined(MEMWALL_EMU_TSAN)
    void* tsan_main_ = nullptr;
    char run_sync_ = 0, barrier_sync_ = 0;
    std::vector<char> warp_sync_;
#endif
};

Grid& grid_for(const char* intrinsic) {
    Grid* g = running;
    if (!g || !g->in_thread()) throw LaunchError(std::string("cuda-emu: ") + intrinsic + " called outside a kernel");
    return *g;
}

}  // namespace

void run_grid(const cuda::LaunchConfig& config, void (*thread)(void*), void* context) {
    if (running) throw LaunchError("cuda-emu: a kernel cannot launch kernels");
    validate(config);
    std::lock_guard lock(launch_mutex());
#if defined(MEMWALL_EMU_TSAN)
    // ThreadSanitizer's own runtime owns the access hooks: no counting in this build.
    Recorder* recorder = nullptr;
#else
    Recorder counting(config.emu, Arena::instance().extent(), config.block.x * config.block.y * config.block.z);
    Recorder* recorder = &counting;
#endif
    Grid grid(config, thread, context, recorder);
    struct Running {
        Running(Grid* g, Recorder* r) {
            running = g;
            active_recorder = r;
            hooks_called = false;
        }
        ~Running() {
            running = nullptr;
            active_recorder = nullptr;
            thread_idx = block_idx = {0, 0, 0};
            dynamic_shared = nullptr;
            end_launch_copies();
            dynamic_shared_bytes = 0;
        }
    } scope(&grid, recorder);
    grid.run();
    TrafficStats stats;
    if (recorder) {
        stats = recorder->finish();
        stats.counted = hooks_called;
    }
    stats.launches = 1;
    publish_traffic(stats);
}

int block_barrier(BarrierOp op, int predicate, const Site& site) {
    Grid& g = grid_for(name(op));
    Thread& t = g.current();
    t.state = State::barrier;
    t.barrier_op = op;
    t.value = predicate != 0;
    t.site = site;
    g.release(t, true);
    g.suspend(t);
    g.acquire(t, true);
    return static_cast<int>(t.result);
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, long long arg, int width,
                              const Site& site) {
    Grid& g = grid_for(name(op));
    Thread& t = g.current();
    t.state = State::warp;
    t.warp_op = op;
    t.mask = mask;
    t.value = value;
    t.arg = arg;
    t.width = width;
    t.site = site;
    if (op == WarpOp::sync) g.release(t, false);
    g.suspend(t);
    if (op == WarpOp::sync) g.acquire(t, false);
    return t.result;
}

void warp_exchange(const char* instruction, void* payload, WarpCombine combine, const Site& site) {
    Grid& g = grid_for(instruction);
    Thread& t = g.current();
    t.state = State::warp;
    t.warp_op = WarpOp::exchange;
    t.mask = ~0u;
    t.instruction = instruction;
    t.payload = payload;
    t.combine = combine;
    t.site = site;
    g.suspend(t);
}

std::string where(const Site& s) {
    std::string_view file = s.file;
    if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
    return std::string(file) + ":" + std::to_string(s.line);
}

void after_atomic(bool failed_compare) {
    Grid* g = running;
    if (!g || !g->in_thread()) return;
    Thread& t = g->current();
    if (failed_compare || ++t.atomics % 64 == 0) g->yield(t);
}

void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

void nanosleep(unsigned ns) {
    Grid* g = running;
    if (g && g->in_thread())
        g->yield(g->current());
    else
        std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

long long clock_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

void trap(const Site& site) { throw LaunchError("__trap() at " + where(site)); }

}  // namespace memwall::emu::detail
