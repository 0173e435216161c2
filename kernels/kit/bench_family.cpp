#include "kernels/kit/bench_family.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <random>
#include <set>

#include "core/errors.hpp"
#include "kernels/kit/bench_expr.hpp"
#include "kernels/kit/cuda_variants.hpp"
#include "kernels/kit/output_check.hpp"
#include "metrics/byte_model.hpp"

namespace memwall::kit {

namespace {

// Host memory of an array, 64-byte aligned (whole cache lines, any vector width).
class HostArray {
  public:
    explicit HostArray(std::size_t bytes)
        : p_(std::aligned_alloc(64, (std::max<std::size_t>(bytes, 1) + 63) / 64 * 64), &std::free) {
        if (!p_) throw std::bad_alloc();
    }
    void* data() const { return p_.get(); }

  private:
    std::unique_ptr<void, void (*)(void*)> p_;
};

bool is_float(Dtype d) { return d == Dtype::f32 || d == Dtype::f64 || d == Dtype::bf16; }

std::uint16_t bf16_bits(float f) {
    std::uint32_t b = 0;
    std::memcpy(&b, &f, 4);
    b += 0x7FFF + ((b >> 16) & 1);  // round to nearest even
    return static_cast<std::uint16_t>(b >> 16);
}

void store(Dtype d, void* data, std::size_t i, double x) {
    switch (d) {
        case Dtype::f32: static_cast<float*>(data)[i] = static_cast<float>(x); return;
        case Dtype::f64: static_cast<double*>(data)[i] = x; return;
        case Dtype::bf16: static_cast<std::uint16_t*>(data)[i] = bf16_bits(static_cast<float>(x)); return;
        case Dtype::i32: static_cast<std::int32_t*>(data)[i] = static_cast<std::int32_t>(x); return;
        case Dtype::i64: static_cast<std::int64_t*>(data)[i] = static_cast<std::int64_t>(x); return;
        case Dtype::u8: static_cast<std::uint8_t*>(data)[i] = static_cast<std::uint8_t>(x); return;
    }
}

double load(Dtype d, const void* data, std::size_t i) {
    switch (d) {
        case Dtype::f32: return static_cast<const float*>(data)[i];
        case Dtype::f64: return static_cast<const double*>(data)[i];
        case Dtype::bf16: {
            const std::uint32_t b = static_cast<std::uint32_t>(static_cast<const std::uint16_t*>(data)[i]) << 16;
            float f = 0;
            std::memcpy(&f, &b, 4);
            return f;
        }
        case Dtype::i32: return static_cast<double>(static_cast<const std::int32_t*>(data)[i]);
        case Dtype::i64: return static_cast<double>(static_cast<const std::int64_t*>(data)[i]);
        case Dtype::u8: return static_cast<const std::uint8_t*>(data)[i];
    }
    return 0;
}

double default_tolerance(Dtype d) { return d == Dtype::f64 ? 1e-12 : d == Dtype::bf16 ? 1e-2 : 1e-5; }

ExprValue at_point(const std::string& expr, const Params& point) {
    return evaluate(expr, [&](const std::string& name) -> std::optional<ExprValue> {
        if (!point.has(name)) return std::nullopt;
        const Value& v = point.at(name);
        if (const auto* i = std::get_if<std::int64_t>(&v)) return ExprValue{static_cast<double>(*i), true};
        if (const auto* r = std::get_if<double>(&v)) return ExprValue{*r, false};
        return std::nullopt;  // a string axis is no number
    });
}

std::size_t count_of(const BenchArray& a, const Params& point) {
    const ExprValue v = at_point(a.size, point);
    if (!v.integral || v.value < 1)
        throw UsageError("array " + a.name + ": its size " + a.size + " is " + std::to_string(v.value) + " at " +
                         point.label() + ", not a positive integer");
    return static_cast<std::size_t>(v.value);
}

// The workload's arguments with the case's tunable axes added.
BenchArgs with_config(const BenchArgs& args, const BenchSpec& spec, const Params& point) {
    BenchArgs out = args;
    for (const BenchAxis& axis : spec.axes)
        if (axis.tunable) out.axes.emplace_back(axis.name, AxisValue(static_cast<double>(point.integer(axis.name))));
    return out;
}

// Uniform in [lo, hi] when the array has a range, else never zero: ±[0.5, 1.5] or 1..100.
void fill(const BenchArray& a, void* data, const Params& point, std::mt19937_64& gen) {
    const bool ranged = !a.lo.empty();
    const double lo = ranged ? at_point(a.lo, point).value : is_float(a.dtype) ? 0.5 : 1;
    const double hi = ranged ? at_point(a.hi, point).value : is_float(a.dtype) ? 1.5 : 100;
    if (!(lo <= hi)) throw UsageError("input " + a.name + ": its range is empty at " + point.label());
    if (!is_float(a.dtype)) {
        const double top = a.dtype == Dtype::u8    ? 255
                           : a.dtype == Dtype::i32 ? std::numeric_limits<std::int32_t>::max()
                                                   : 9.0e18;
        const double bottom = a.dtype == Dtype::u8 ? 0 : -top;
        if (lo < bottom || hi > top)
            throw UsageError("input " + a.name + ": its range exceeds " + dtype_name(a.dtype) + " at " + point.label());
        std::uniform_int_distribution<long long> pick(static_cast<long long>(std::ceil(lo)),
                                                      static_cast<long long>(std::floor(hi)));
        for (std::size_t i = 0; i < a.count; ++i) store(a.dtype, data, i, static_cast<double>(pick(gen)));
        return;
    }
    std::uniform_real_distribution<double> pick(lo, hi);
    for (std::size_t i = 0; i < a.count; ++i) {
        const double x = pick(gen);
        store(a.dtype, data, i, ranged || gen() % 2 ? x : -x);
    }
}

std::string element(const BenchArray& a, std::size_t i) { return a.name + "[" + std::to_string(i) + "]"; }

// The inputs of one problem from the seed, and the reference's expected outputs.
class BenchWorkload final : public Workload {
  public:
    BenchWorkload(std::shared_ptr<const BenchSpec> spec, const Params& problem, std::uint64_t seed)
        : spec_(std::move(spec)) {
        for (const BenchAxis& axis : spec_->axes) {
            if (axis.tunable) continue;  // the case's, with_config
            const Value& v = problem.at(axis.name);
            if (const auto* s = std::get_if<std::string>(&v))
                args_.axes.emplace_back(axis.name, AxisValue(0, *s));
            else
                args_.axes.emplace_back(axis.name, AxisValue(at_point(axis.name, problem).value, to_string(v)));
        }
        std::mt19937_64 gen(seed);
        args_.arrays = spec_->arrays;
        for (BenchArray& a : args_.arrays) {
            a.count = count_of(a, problem);
            held_.emplace_back(a.output ? 0 : a.count * dtype_size(a.dtype));
            if (!a.output) fill(a, held_.back().data(), problem, gen);
            a.data = a.output ? nullptr : held_.back().data();
        }
        if (!spec_->reference) return;
        BenchArgs expected = args_;
        for (BenchArray& a : expected.arrays) {
            expected_.emplace_back(a.output ? a.count * dtype_size(a.dtype) : 0);
            if (!a.output) continue;
            a.data = expected_.back().data();
            std::memset(a.data, 0xFF, a.count * dtype_size(a.dtype));  // NaN where the reference writes nothing
        }
        spec_->reference(expected);
    }

    // The inputs filled; the outputs sized, without memory.
    const BenchArgs& args() const { return args_; }
    const BenchSpec& spec() const { return *spec_; }

    // Compares each output, which `download(i, host)` copies to host (i: its index among the
    // arrays), with the reference's: float types finite and within the relative L2 tolerance,
    // integers equal. Without a reference the case is unchecked.
    Check check(const std::function<void(std::size_t, void*)>& download) const {
        Check c;
        c.ok = true;
        if (!spec_->reference) {
            c.unchecked = true;
            c.message = "unchecked: the benchmark has no reference";
            return c;
        }
        bool compared_floats = false;  // c holds the float output nearest its tolerance
        for (std::size_t i = 0; i < args_.arrays.size(); ++i) {
            const BenchArray& a = args_.arrays[i];
            if (!a.output) continue;
            const std::size_t size = dtype_size(a.dtype);
            HostArray got(a.count * size);
            download(i, got.data());
            const void* want = expected_[i].data();
            if (!is_float(a.dtype)) {
                for (std::size_t j = 0; j < a.count; ++j) {
                    if (std::memcmp(static_cast<const char*>(got.data()) + j * size,
                                    static_cast<const char*>(want) + j * size, size) == 0)
                        continue;
                    c.ok = false;
                    c.error = std::numeric_limits<double>::infinity();
                    c.message = element(a, j) + " is " + std::to_string(load(a.dtype, got.data(), j)) +
                                ", the reference's " + std::to_string(load(a.dtype, want, j));
                    return c;
                }
                continue;
            }
            const double tolerance = spec_->tolerance >= 0 ? spec_->tolerance : default_tolerance(a.dtype);
            RelativeL2 l2;
            for (std::size_t j = 0; j < a.count; ++j) {
                const double g = load(a.dtype, got.data(), j), w = load(a.dtype, want, j);
                if (!std::isfinite(g)) return not_finite(element(a, j), g, tolerance);
                if (!std::isfinite(w)) throw std::logic_error("the reference left " + element(a, j) + " unwritten");
                l2.add(g, w);
            }
            const Check r = l2.result(tolerance, "over " + a.name);
            if (!r.ok) return r;
            if (!compared_floats || r.error / r.tolerance >= c.error / c.tolerance) c = r;
            compared_floats = true;
        }
        return c;
    }

  private:
    std::shared_ptr<const BenchSpec> spec_;
    BenchArgs args_;
    std::vector<HostArray> held_, expected_;  // by array index
};

class BenchCpuInstance final : public Instance {
  public:
    BenchCpuInstance(const BenchWorkload& w, BenchBody body, const Params& point)
        : w_(w), body_(std::move(body)), args_(with_config(w.args(), w.spec(), point)) {
        for (BenchArray& a : args_.arrays) {
            outputs_.emplace_back(a.output ? a.count * dtype_size(a.dtype) : 0);
            if (a.output) a.data = outputs_.back().data();
        }
    }
    void poison() override {
        for (const BenchArray& a : args_.arrays)
            if (a.output) std::memset(a.data, 0xFF, a.count * dtype_size(a.dtype));
    }
    void run() override { body_(args_); }
    Check check() const override {
        return w_.check([this](std::size_t i, void* host) {
            const BenchArray& a = args_.arrays[i];
            std::memcpy(host, a.data, a.count * dtype_size(a.dtype));
        });
    }

  private:
    const BenchWorkload& w_;
    BenchBody body_;
    BenchArgs args_;
    std::vector<HostArray> outputs_;
};

std::vector<Counter> bench_model(const BenchSpec& s, const Params& point, const MemoryHierarchy& mh) {
    double bytes = 0;
    if (s.bytes.empty()) {
        for (const BenchArray& a : s.arrays)
            bytes += static_cast<double>(count_of(a, point)) * static_cast<double>(dtype_size(a.dtype));
    } else {
        bytes = at_point(s.bytes, point).value;
    }
    const double flops = s.flops.empty() ? 0 : at_point(s.flops, point).value;
    return byte_model(flops, bytes, 0, mh, {{std::numeric_limits<double>::infinity(), bytes}});
}

Axis family_axis(const BenchAxis& a) {
    switch (a.kind) {
        case BenchAxis::Kind::integer: return int_axis(a.name, {a.integers.begin(), a.integers.end()}, "");
        case BenchAxis::Kind::real: return real_axis(a.name, a.reals, "");
        case BenchAxis::Kind::text: return enum_axis(a.name, a.texts, a.texts, "");
    }
    throw std::logic_error("unknown axis kind");
}

// The first value of each axis; of the problem axes alone unless `tunables`.
Params first_point(const BenchSpec& s, bool tunables) {
    Params p;
    for (const BenchAxis& a : s.axes) {
        if (a.tunable && !tunables) continue;
        if (a.kind == BenchAxis::Kind::integer && !a.integers.empty()) p.set(a.name, std::int64_t{a.integers[0]});
        if (a.kind == BenchAxis::Kind::real && !a.reals.empty()) p.set(a.name, a.reals[0]);
        if (a.kind == BenchAxis::Kind::text && !a.texts.empty()) p.set(a.name, a.texts[0]);
    }
    return p;
}

// The declaration's mistakes, found when the program starts rather than in a case.
void validate(const std::string& id, const BenchSpec& s, BenchBuild::Kind kind) {
    const auto fail = [&](const std::string& why) { throw std::logic_error("MEMWALL_BENCH(" + id + "): " + why); };
    if (s.family.empty()) fail("the Bench has no name");
    if (kind == BenchBuild::Kind::cpu && s.cuda) fail(".cuda needs a CUDA source (.cu)");
    if (kind == BenchBuild::Kind::cpu && !s.cpu) fail("no .cpu body");
    if (kind != BenchBuild::Kind::cpu && s.cpu)
        fail(".cpu belongs in a C++ source: a .cu's host code is instrumented for cuda-emu");
    if (kind != BenchBuild::Kind::cpu && !s.cuda) fail("no .cuda body");
    if (s.arrays.empty()) fail("no arrays");
    std::set<std::string> names;
    for (const BenchAxis& a : s.axes) {
        if (!names.insert(a.name).second) fail("two axes or arrays named " + a.name);
        if (a.integers.empty() && a.reals.empty() && a.texts.empty()) fail("axis " + a.name + " has no values");
    }
    for (const BenchArray& a : s.arrays) {
        if (!names.insert(a.name).second) fail("two axes or arrays named " + a.name);
        if (a.lo.empty() != a.hi.empty()) fail("input " + a.name + " needs both ends of its range");
    }
    // Every expression evaluates at the first point, so a name or a syntax error shows now.
    try {
        const Params problem = first_point(s, false), point = first_point(s, true);
        for (const BenchArray& a : s.arrays) {
            at_point(a.size, problem);
            if (!a.lo.empty()) at_point(a.lo, problem), at_point(a.hi, problem);
        }
        if (!s.bytes.empty()) at_point(s.bytes, point);
        if (!s.flops.empty()) at_point(s.flops, point);
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    }
}

bool same_declaration(const BenchSpec& a, const BenchSpec& b) {
    if (a.axes.size() != b.axes.size() || a.arrays.size() != b.arrays.size()) return false;
    for (std::size_t i = 0; i < a.axes.size(); ++i) {
        const BenchAxis &x = a.axes[i], &y = b.axes[i];
        if (x.kind != y.kind || x.name != y.name || x.integers != y.integers || x.reals != y.reals ||
            x.texts != y.texts)
            return false;
    }
    for (std::size_t i = 0; i < a.arrays.size(); ++i) {
        const BenchArray &x = a.arrays[i], &y = b.arrays[i];
        if (x.name != y.name || x.dtype != y.dtype || x.size != y.size || x.output != y.output || x.lo != y.lo ||
            x.hi != y.hi)
            return false;
    }
    return true;
}

// A CUDA build's device cases of the benchmark's body.
std::function<std::unique_ptr<DeviceCase>(const Workload&, const Params&)> device(const Bench& b, BenchBuild build) {
    return [body = b.spec().cuda, make = build.device](const Workload& w,
                                                       const Params& point) -> std::unique_ptr<DeviceCase> {
        const auto& bench = workload_as<BenchWorkload>(w);
        return make(body, with_config(bench.args(), bench.spec(), point));
    };
}

}  // namespace

void add_benches(Catalogue& catalogue, const std::vector<RegisteredBench>& benches) {
    struct Builds {
        std::optional<Bench> cpu, emu, gpu;
        BenchBuild emu_build, gpu_build;
    };
    std::vector<std::string> order;
    std::map<std::string, Builds> by_id;
    for (const RegisteredBench& r : benches) {
        auto [it, fresh] = by_id.try_emplace(r.id);
        if (fresh) order.push_back(r.id);
        Builds& b = it->second;
        std::optional<Bench>& slot = r.build.kind == BenchBuild::Kind::cpu        ? b.cpu
                                     : r.build.kind == BenchBuild::Kind::cuda_emu ? b.emu
                                                                                  : b.gpu;
        if (slot) throw std::logic_error("MEMWALL_BENCH(" + r.id + ") is defined twice");
        slot = r.define();
        validate(r.id, slot->spec(), r.build.kind);
        if (r.build.kind == BenchBuild::Kind::cuda_emu) b.emu_build = r.build;
        if (r.build.kind == BenchBuild::Kind::cuda) b.gpu_build = r.build;
    }
    std::map<std::string, std::shared_ptr<const BenchSpec>> families;
    for (const std::string& id : order) {
        const Builds& b = by_id.at(id);
        if (b.cpu && (b.emu || b.gpu))
            throw std::logic_error("MEMWALL_BENCH(" + id + ") is defined in a C++ source and in a CUDA one");
        const Bench& bench = b.cpu ? *b.cpu : b.emu ? *b.emu : *b.gpu;
        auto spec = std::make_shared<const BenchSpec>(bench.spec());
        const std::string& family = spec->family;
        if (const auto it = families.find(family); it != families.end()) {
            if (!same_declaration(*it->second, *spec))
                throw std::logic_error("MEMWALL_BENCH(" + id + ") declares the axes or arrays of " + family +
                                       " unlike its other benchmarks");
        } else {
            Family f;
            f.name = family;
            f.description = "a benchmark (MEMWALL_BENCH)";
            for (const BenchAxis& a : spec->axes)
                if (!a.tunable) f.problem_axes.push_back(family_axis(a));
            f.make_workload = [spec](const Params& p, std::uint64_t seed) -> std::unique_ptr<Workload> {
                return std::make_unique<BenchWorkload>(spec, p, seed);
            };
            catalogue.add_family(std::move(f));
            families.emplace(family, spec);
        }
        auto model = [spec](const Params& point, const MemoryHierarchy& mh) { return bench_model(*spec, point, mh); };
        // The family's workload holds the reference: its first benchmark's, for all of them.
        const bool checked = static_cast<bool>(families.at(family)->reference);
        const std::string unchecked = checked ? "" : "; unchecked: no reference";
        std::vector<Axis> tunables;
        for (const BenchAxis& a : spec->axes)
            if (a.tunable) {
                Axis t = tunable(family_axis(a));
                const auto [lo, hi] = std::minmax_element(a.integers.begin(), a.integers.end());
                tunables.push_back(bounded(t, static_cast<double>(*lo), static_cast<double>(*hi)));
            }
        if (b.cpu) {
            Variant v;
            v.name = id;
            v.description = "MEMWALL_BENCH(" + id + ")" + unchecked;
            v.prepare = [body = spec->cpu](const Workload& w, const Params& point) -> std::unique_ptr<Instance> {
                return std::make_unique<BenchCpuInstance>(workload_as<BenchWorkload>(w), body, point);
            };
            v.tunables = tunables;
            v.model = model;
            v.unchecked = !checked;
            catalogue.add_variant(family, std::move(v));
            continue;
        }
        CudaKernel k;
        k.name = id;
        k.description = "MEMWALL_BENCH(" + id + ")" + unchecked;
        if (b.emu)
            k.emu = device(*b.emu, b.emu_build);
        else
            k.gpu_only_reason = "its source was built by nvcc alone";
        if (b.gpu) k.gpu = device(*b.gpu, b.gpu_build);
        k.check_case = [](const Workload& w, const DeviceCase& d) {
            const auto& bench_case = dynamic_cast<const BenchDeviceCase&>(d);
            return workload_as<BenchWorkload>(w).check(
                [&](std::size_t i, void* host) { bench_case.download_output(i, host); });
        };
        k.model = model;
        k.tunables = tunables;
        k.unchecked = !checked;
        add_cuda_variants(catalogue, family, k);
    }
}

void register_benches(Catalogue& catalogue) { add_benches(catalogue, registered_benches()); }

}  // namespace memwall::kit
