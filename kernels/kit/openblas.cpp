// Loading OpenBLAS at run time (openblas.hpp says why).
#include "kernels/kit/openblas.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/isa.hpp"

namespace memwall::kit::openblas {

namespace {

// The build's OpenBLAS (the OpenMP one, found by pkg-config) first; else any by its soname, as
// the loader finds it (LD_LIBRARY_PATH: a relocated memwall, such as the GPU kit's, carries its
// own copy).
// On the AVX2 path of an AVX-512 host, OpenBLAS's Haswell (AVX2) kernels, as an AVX2 host runs:
// its dynamic-arch build reads OPENBLAS_CORETYPE as it loads (a user's own choice stands).
void* library() {
    static void* const lib = [] {
        if (active_isa() != host_isa()) ::setenv("OPENBLAS_CORETYPE", "Haswell", 0);
        if (void* l = dlopen(MEMWALL_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL)) return l;
        const std::string first = dlerror();
        if (void* l = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL)) return l;
        throw std::runtime_error("cannot load OpenBLAS: " + first + "; " + std::string(dlerror()));
    }();
    return lib;
}

template <class F>
F symbol(const char* name) {
    auto f = reinterpret_cast<F>(dlsym(library(), name));
    if (!f) throw std::runtime_error(std::string("OpenBLAS lacks ") + name);
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
