#include "kernels/kit/bench.hpp"

#include <algorithm>

#include "kernels/kit/bench_family.hpp"

namespace memwall::kit {

const char* dtype_name(Dtype d) {
    switch (d) {
        case Dtype::f32: return "f32";
        case Dtype::f64: return "f64";
        case Dtype::bf16: return "bf16";
        case Dtype::i32: return "i32";
        case Dtype::i64: return "i64";
        case Dtype::u8: return "u8";
    }
    return "?";
}

std::size_t dtype_size(Dtype d) {
    switch (d) {
        case Dtype::f32: return 4;
        case Dtype::f64: return 8;
        case Dtype::bf16: return 2;
        case Dtype::i32: return 4;
        case Dtype::i64: return 8;
        case Dtype::u8: return 1;
    }
    return 0;
}

AxisValue BenchArgs::operator[](const std::string& axis) const {
    for (const auto& [name, value] : axes)
        if (name == axis) return value;
    throw std::logic_error("no axis '" + axis + "'");
}

const BenchArray& BenchArgs::find(const std::string& name) const {
    for (const BenchArray& a : arrays)
        if (a.name == name) return a;
    throw std::logic_error("no array '" + name + "'");
}

void check_array(const BenchArray& a, Dtype d, bool output) {
    if (a.dtype != d)
        throw std::logic_error("array '" + a.name + "' holds " + dtype_name(a.dtype) + ", not " + dtype_name(d));
    if (output && !a.output) throw std::logic_error("array '" + a.name + "' is an input: a kernel reads it as const");
}

Bench& Bench::axis(std::string name, std::initializer_list<double> values) {
    BenchAxis a;
    a.kind = BenchAxis::Kind::real;
    a.name = std::move(name);
    a.reals = values;
    spec_.axes.push_back(std::move(a));
    return *this;
}

Bench& Bench::axis(std::string name, std::initializer_list<const char*> values) {
    BenchAxis a;
    a.kind = BenchAxis::Kind::text;
    a.name = std::move(name);
    a.texts.assign(values.begin(), values.end());
    spec_.axes.push_back(std::move(a));
    return *this;
}

Bench& Bench::add_integers(std::string name, std::vector<long long> values) {
    BenchAxis a;
    a.name = std::move(name);
    a.integers = std::move(values);
    spec_.axes.push_back(std::move(a));
    return *this;
}

Bench& Bench::array(std::string name, Dtype d, std::string size, bool output, std::string lo, std::string hi) {
    BenchArray a;
    a.name = std::move(name);
    a.dtype = d;
    a.size = std::move(size);
    a.output = output;
    a.lo = std::move(lo);
    a.hi = std::move(hi);
    spec_.arrays.push_back(std::move(a));
    return *this;
}

namespace {
std::vector<RegisteredBench>& registry() {
    static std::vector<RegisteredBench> r;
    return r;
}
}  // namespace

bool register_bench(const char* id, Bench (*define)(), BenchBuild build) {
    registry().push_back({id, define, build});
    return true;
}

const std::vector<RegisteredBench>& registered_benches() { return registry(); }

}  // namespace memwall::kit
