// Loading OpenBLAS at run time (openblas.hpp says why).
#include "kernels/kit/openblas.hpp"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace memwall::kit::openblas {

namespace {

void* library() {
    static void* const lib = [] {
        void* l = dlopen(MEMWALL_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (!l) throw std::runtime_error("cannot load OpenBLAS: " + std::string(dlerror()));
        return l;
    }();
    return lib;
}

template <class F>
F symbol(const char* name) {
    auto f = reinterpret_cast<F>(dlsym(library(), name));
    if (!f) throw std::runtime_error(std::string(MEMWALL_OPENBLAS_LIBRARY) + " lacks " + name);
    return f;
}

}  // namespace

Sgemm sgemm() {
    static const Sgemm f = symbol<Sgemm>("cblas_sgemm");
    return f;
}

Dgemm dgemm() {
    static const Dgemm f = symbol<Dgemm>("cblas_dgemm");
    return f;
}

}  // namespace memwall::kit::openblas
