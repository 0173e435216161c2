// A benchmark declared in one chain (<memwall/bench.hpp>): axes by value, arrays sized by
// expressions of the axes, the kernel for cpu or CUDA, and optionally a reference, a byte model
// and FLOPs. The kit makes it a family with one variant per backend (bench_family.hpp): inputs
// filled from the seed, outputs poisoned, bytes moved defaulting to the arrays (each input read
// once, each output written once), and without a reference its cases stored `unchecked`.
// C++17 and free of CUDA headers: nvcc compiles it with a benchmark's .cu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/kit/device_case.hpp"

namespace memwall::kit {

// The element types a benchmark's arrays may hold.
enum class Dtype { f32, f64, bf16, i32, i64, u8 };
const char* dtype_name(Dtype d);
std::size_t dtype_size(Dtype d);

// The Dtype of a C++ element type; bf16's (__nv_bfloat16) is given with the CUDA types
// (kit/cuda/bench_case.cuh).
template <class T, class = void>
struct dtype_of;
template <>
struct dtype_of<float> : std::integral_constant<Dtype, Dtype::f32> {};
template <>
struct dtype_of<double> : std::integral_constant<Dtype, Dtype::f64> {};
template <>
struct dtype_of<std::uint8_t> : std::integral_constant<Dtype, Dtype::u8> {};
template <class T>
struct dtype_of<T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4>>
    : std::integral_constant<Dtype, Dtype::i32> {};
template <class T>
struct dtype_of<T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 8>>
    : std::integral_constant<Dtype, Dtype::i64> {};

// An axis value as a kernel takes it: converts to any arithmetic type (an integer axis's value
// to a float, too), and `str()` for a string axis.
class AxisValue {
  public:
    AxisValue() = default;
    explicit AxisValue(double number, std::string text = "") : number_(number), text_(std::move(text)) {}
    template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
    operator T() const {
        return static_cast<T>(number_);
    }
    const std::string& str() const { return text_; }

  private:
    double number_ = 0;
    std::string text_;
};

// One array of a case: its declaration and, for a case, where its elements are.
struct BenchArray {
    std::string name;
    Dtype dtype = Dtype::f32;
    std::string size;    // an expression of the axes: "n", "rows * cols"
    std::string lo, hi;  // an input's range, expressions ("" for the type's default)
    bool output = false;
    void* data = nullptr;   // host or device memory, per use
    std::size_t count = 0;  // elements
};

// Throws std::logic_error unless `a` holds `d` (and is an output, when `output`).
void check_array(const BenchArray& a, Dtype d, bool output);

// An array as a kernel takes it: converts to a pointer to its element type (const T* for an
// input), and throws std::logic_error when that is not the type it was declared with.
class ArrayRef {
  public:
    explicit ArrayRef(const BenchArray& a) : a_(&a) {}
    template <class T>
    operator T*() const {
        check_array(*a_, dtype_of<std::remove_const_t<T>>::value, !std::is_const_v<T>);
        return static_cast<T*>(a_->data);
    }

  private:
    const BenchArray* a_;
};

// What a kernel body and a reference see: the point's axis values and the arrays, as device
// pointers in a CUDA body and host pointers on the CPU. `out` in a reference is the expected
// output it fills.
class BenchArgs {
  public:
    ArrayRef in(const std::string& name) const { return ArrayRef(find(name)); }
    ArrayRef out(const std::string& name) const { return ArrayRef(find(name)); }
    // Elements of an array.
    std::size_t size(const std::string& name) const { return find(name).count; }
    AxisValue operator[](const std::string& axis) const;

    std::vector<BenchArray> arrays;
    std::vector<std::pair<std::string, AxisValue>> axes;

  private:
    const BenchArray& find(const std::string& name) const;
};

using BenchBody = std::function<void(BenchArgs&)>;

struct BenchAxis {
    enum class Kind { integer, real, text } kind = Kind::integer;
    std::string name;
    bool tunable = false;  // how the kernel computes (threads, tile sizes), searched by `tune`
    std::vector<long long> integers;
    std::vector<double> reals;
    std::vector<std::string> texts;
};

// The declaration, as the builder collects it.
struct BenchSpec {
    std::string family;
    std::vector<BenchAxis> axes;
    std::vector<BenchArray> arrays;
    BenchBody cpu, cuda, reference;
    std::string bytes, flops;  // expressions; bytes "" for the arrays' own
    double tolerance = -1;     // relative L2 for float outputs; < 0: the output type's
};

class Bench {
  public:
    explicit Bench(std::string family) { spec_.family = std::move(family); }
    Bench& axis(std::string name, std::initializer_list<int> values) {
        return add_integers(std::move(name), std::vector<long long>(values.begin(), values.end()));
    }
    Bench& axis(std::string name, std::initializer_list<long long> values) {
        return add_integers(std::move(name), std::vector<long long>(values));
    }
    Bench& axis(std::string name, std::initializer_list<double> values);
    Bench& axis(std::string name, std::initializer_list<const char*> values);
    // A tunable axis: how the kernel computes (threads per block, a tile size), not what; its
    // values are the configurations `run` measures and `tune` searches.
    Bench& tunable(std::string name, std::initializer_list<int> values) {
        add_integers(std::move(name), std::vector<long long>(values.begin(), values.end()));
        spec_.axes.back().tunable = true;
        return *this;
    }
    // An input of `size` elements, filled from the seed: uniform in [lo, hi] when both are given
    // (expressions: "0", "m - 1"), else never zero (floats in ±[0.5, 1.5], integers 1..100).
    template <class T>
    Bench& input(std::string name, std::string size, std::string lo = "", std::string hi = "") {
        return array(std::move(name), dtype_of<T>::value, std::move(size), false, std::move(lo), std::move(hi));
    }
    // An output of `size` elements, poisoned (every byte 0xFF: NaN, -1) before the checked run.
    template <class T>
    Bench& output(std::string name, std::string size) {
        return array(std::move(name), dtype_of<T>::value, std::move(size), true, "", "");
    }
    Bench& cpu(BenchBody body) { return set(spec_.cpu, std::move(body)); }
    Bench& cuda(BenchBody body) { return set(spec_.cuda, std::move(body)); }
    // Fills every output's expected values from the inputs, on the host.
    Bench& reference(BenchBody body) { return set(spec_.reference, std::move(body)); }
    // Bytes moved and FLOPs per run, as expressions of the axes.
    Bench& bytes(std::string expr) { return set(spec_.bytes, std::move(expr)); }
    Bench& flops(std::string expr) { return set(spec_.flops, std::move(expr)); }
    // The bound on float outputs' relative L2 error (default: f64 1e-12, f32 1e-5, bf16 1e-2).
    Bench& tolerance(double relative_l2) {
        spec_.tolerance = relative_l2;
        return *this;
    }
    const BenchSpec& spec() const { return spec_; }

  private:
    Bench& add_integers(std::string name, std::vector<long long> values);
    Bench& array(std::string name, Dtype d, std::string size, bool output, std::string lo, std::string hi);
    template <class F>
    Bench& set(F& field, F value) {
        field = std::move(value);
        return *this;
    }
    BenchSpec spec_;
};

// A CUDA case of a benchmark: the arrays of `host` (inputs filled, outputs sized) on the device.
class BenchDeviceCase : public DeviceCase {
  public:
    std::size_t output_size() const override { return 0; }  // outputs are typed: download_output
    void download(float*) const override { throw std::logic_error("a benchmark's outputs download typed"); }
    // Waits for the device and copies output array `index` (of the case's arrays) to `host`.
    virtual void download_output(std::size_t index, void* host) const = 0;
};

// Which build of a source registered a benchmark, and for CUDA builds how it makes its cases.
struct BenchBuild {
    enum class Kind { cpu, cuda_emu, cuda } kind = Kind::cpu;
    std::unique_ptr<BenchDeviceCase> (*device)(const BenchBody& body, const BenchArgs& host) = nullptr;
};

// Called by MEMWALL_BENCH's static registrars: keeps `define` under `id` until main registers
// every benchmark (bench_family.hpp). No CUDA runs before main.
bool register_bench(const char* id, Bench (*define)(), BenchBuild build);

}  // namespace memwall::kit
