// Small kv_offload problems, the family's catalogue and a scratch directory of their own for the
// tests.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "core/catalogue.hpp"
#include "core/params.hpp"
#include "kernels/kv_offload/kv_offload.hpp"
#include "kernels/kv_offload/register.hpp"
#include "tests/support/builtin_catalogue.hpp"

namespace memwall::kv_test {

// The kv_offload family alone, registered once per test binary.
inline const Catalogue& catalogue() { return testing::registered_catalogue<register_kv_offload>(); }

// 16 pages of 4 tokens, 2 heads of 8; 4 pages a step, 2 of them the previous step's; 3 steps.
inline Params small_params() {
    Params p;
    p.set("context", std::int64_t{64});
    p.set("page_tokens", std::int64_t{4});
    p.set("heads", std::int64_t{2});
    p.set("head_dim", std::int64_t{8});
    p.set("dtype", std::string("fp32"));
    p.set("select", 0.25);
    p.set("reuse", 0.5);
    p.set("steps", std::int64_t{3});
    p.set("tier", std::string("file"));
    p.set("warm", std::int64_t{0});
    return p;
}

// A fresh directory under the temp directory, removed with everything in it.
struct ScratchDir {
    ScratchDir() {
        std::string t = (std::filesystem::temp_directory_path() / "memwall-kv-test-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~ScratchDir() { std::filesystem::remove_all(path); }
    std::size_t files() const {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(path)) ++n;
        return n;
    }
    std::filesystem::path path;
};

}  // namespace memwall::kv_test
