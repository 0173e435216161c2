#include "kernels/kit/cuda_variants.hpp"

#include <chrono>
#include <stdexcept>

#include "core/errors.hpp"
#include "cuda_emu/host_waits.hpp"
#include "cuda_emu/traffic.hpp"
#ifdef MEMWALL_HAVE_CUDA
#include "gpu/cold_timer.hpp"
#include "gpu/context.hpp"
#include "gpu/nvtx_range.hpp"
#include "profiler/cupti_activity.hpp"
#include "profiler/cupti_range.hpp"
#endif

namespace memwall::kit {

namespace {

using Factory = std::function<std::unique_ptr<DeviceCase>(const Workload&, const Params&)>;
// The kernel's check: of a downloaded float output, or of the device case itself.
struct Checker {
    std::function<Check(const Workload&, const float*)> floats;
    std::function<Check(const Workload&, const DeviceCase&)> device;
    std::function<std::vector<Counter>(const Workload&, const DeviceCase&)> counters;
};

// A device case's rule broken (a tile too large for shared memory, ...) is the user's to fix.
std::unique_ptr<DeviceCase> make(const Factory& factory, const Workload& w, const Params& point) {
    try {
        return factory(w, point);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

// What both backends share: the device case, its output downloaded and checked (or checked
// on the device case, check_case).
class DeviceInstance : public Instance {
  public:
    DeviceInstance(const Workload& w, std::unique_ptr<DeviceCase> device, Checker check)
        : w_(w),
          device_(std::move(device)),
          check_(std::move(check)),
          out_(check_.floats ? device_->output_size() : 0) {}
    void poison() override { device_->poison(); }
    Check check() const override {
        return check_.floats ? check_.floats(w_, out_.data()) : check_.device(w_, *device_);
    }
    std::string detail() const override { return device_->detail(); }
    // The kernel's counters of its last output (Checker::counters).
    std::vector<Counter> output_counters() const {
        return check_.counters ? check_.counters(w_, *device_) : std::vector<Counter>{};
    }

  protected:
    void download() {
        if (check_.floats) device_->download(out_.data());
    }
    DeviceCase& device() { return *device_; }

  private:
    const Workload& w_;
    std::unique_ptr<DeviceCase> device_;
    Checker check_;
    std::vector<float> out_;
};

// cuda-emu: the kernels run on the CPU; the measured counters are the emulator's traffic of the
// last run(), the one the harness checks. Its times are emulation times, never GPU times.
class EmuInstance final : public DeviceInstance {
  public:
    EmuInstance(std::string kernel, bool waits_on_host, const Workload& w, std::unique_ptr<DeviceCase> device,
                Checker check)
        : DeviceInstance(w, std::move(device), std::move(check)),
          kernel_(std::move(kernel)),
          waits_on_host_(waits_on_host) {}
    void run() override {
        const auto waits = emu::host_waits();
        {
            emu::TrafficScope scope;
            device().run();
            traffic_ = scope.stats();
        }
        if (!waits_on_host_ && emu::host_waits() != waits)
            throw std::logic_error(kernel_ + ": its forward pass makes the host wait for the device, which would " +
                                   "deadlock the cold timer on a GPU; its CudaKernel must set waits_on_host");
        download();
    }
    double run_timed() override {
        const auto t0 = std::chrono::steady_clock::now();
        device().run();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    std::vector<Counter> measured_counters() const override {
        std::vector<Counter> out = emu::traffic_counters(traffic_);
        for (Counter& c : output_counters()) out.push_back(std::move(c));
        return out;
    }

  private:
    std::string kernel_;
    bool waits_on_host_;
    emu::TrafficStats traffic_;
};

#ifdef MEMWALL_HAVE_CUDA
// cuda: the kernels on the GPU, timed cold with CUDA events, inside an NVTX range for the whole
// case.
class GpuInstance final : public DeviceInstance {
  public:
    GpuInstance(const std::string& range, bool waits_on_host, const Workload& w, std::unique_ptr<DeviceCase> device,
                Checker check)
        : DeviceInstance(w, std::move(device), std::move(check)), range_(range), waits_on_host_(waits_on_host) {}
    void run() override {
        device().run();
        download();
    }
    double run_timed() override {
        const auto once = [this] { device().run(); };
        return waits_on_host_ ? timer_.seconds_waiting(once) : timer_.seconds(once);
    }
    std::vector<Counter> measured_counters() const override { return output_counters(); }
    // The kernels' GPU times (Activity API, which needs no profiling privilege), then the
    // metrics (range profiler, which a machine may reserve for administrators), each over more
    // runs that start as a timed run does: outputs poisoned again (a forward pass rewrites them,
    // as every timed run relies on), L2 flushed clean. One failing leaves the other's counters.
    Profile profile(const std::vector<std::string>& metrics) override {
        const auto prepare = [this] {
            device().poison();
            timer_.flush_l2_clean();
            gpu::synchronize();
        };
        const auto work = [this] {
            device().run();
            gpu::synchronize();
        };
        Profile out;
        try {
            prepare();
            out.counters = cupti::kernel_counters(cupti::kernel_times(work));
        } catch (const std::exception& e) {
            out.failures.push_back(std::string("kernel times not collected: ") + e.what());
        }
        try {
            cupti::RangeProfiler profiler(gpu::current_context(), gpu::current_device(), metrics);
            for (Counter& c : profiler.collect(prepare, work)) out.counters.push_back(std::move(c));
        } catch (const std::exception& e) {
            out.failures.push_back(std::string("counters not collected: ") + e.what());
        }
        return out;
    }

  private:
    gpu::NvtxRange range_;
    bool waits_on_host_;
    gpu::ColdTimer timer_;
};
#endif

Variant variant(const std::string& family, const CudaKernel& k, Backend backend) {
    Variant v;
    v.name = k.name;
    v.backend = backend;
    v.description = k.description +
                    (backend == Backend::cuda_emu ? " (CUDA source run on the CPU by cuda-emu; emu traffic counters)"
                     : k.checked_on_gpu.empty()
                         ? " (sm_80/sm_90 build; not yet run on a GPU)"
                         : " (sm_80/sm_90 build; matched the reference on " + std::string(k.checked_on_gpu) + ")");
    v.problem_axes = k.problem_axes;
    v.tunables = k.tunables;
    v.constraints = k.constraints;
    v.gpu_only_reason = k.gpu_only_reason;
    v.model = k.model;
    v.input_model = k.input_model;
    v.unchecked = k.unchecked;
    v.default_axes = k.default_axes;
    if (backend == Backend::cuda_emu) {
        v.default_axes.insert(v.default_axes.begin(), k.emu_default_axes.begin(), k.emu_default_axes.end());
        v.prepare = [kernel = family + "/" + k.name, waits = k.waits_on_host, emu = k.emu,
                     check = Checker{k.check, k.check_case, k.output_counters}](
                        const Workload& w, const Params& point) -> std::unique_ptr<Instance> {
            return std::make_unique<EmuInstance>(kernel, waits, w, make(emu, w, point), check);
        };
        return v;
    }
    const std::string kernel = family + "/" + k.name + "/cuda/";
#ifdef MEMWALL_HAVE_CUDA
    v.prepare = [kernel, waits = k.waits_on_host, gpu = k.gpu,
                 check = Checker{k.check, k.check_case, k.output_counters}](
                    const Workload& w, const Params& point) -> std::unique_ptr<Instance> {
        if (!gpu) throw std::runtime_error(kernel + ": no GPU build of the kernel");
        return std::make_unique<GpuInstance>(kernel + point.label(), waits, w, make(gpu, w, point), check);
    };
#else
    v.prepare = [kernel](const Workload&, const Params&) -> std::unique_ptr<Instance> {
        throw std::runtime_error(kernel + ": memwall was built without CUDA");
    };
#endif
    return v;
}

}  // namespace

void add_cuda_variants(Catalogue& catalogue, const std::string& family, const CudaKernel& kernel) {
    const std::string name = family + "/" + kernel.name;
    if (static_cast<bool>(kernel.check) == static_cast<bool>(kernel.check_case))
        throw std::logic_error(name + ": a CUDA kernel needs exactly one of check and check_case");
    if (static_cast<bool>(kernel.model) == static_cast<bool>(kernel.input_model))
        throw std::logic_error(name + ": a CUDA kernel needs exactly one of model and input_model");
    if (kernel.gpu_only_reason.empty()) catalogue.add_variant(family, variant(family, kernel, Backend::cuda_emu));
    catalogue.add_variant(family, variant(family, kernel, Backend::cuda));
}

}  // namespace memwall::kit
