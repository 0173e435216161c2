// kv_offload's byte models, read through the catalogue as a run reads them.
#include <gtest/gtest.h>

#include "core/catalogue.hpp"
#include "kernels/kv_offload/register.hpp"
#include "kv_test_support.hpp"
#include "metrics/counter.hpp"

using namespace memwall;

namespace {

MemoryHierarchy two_cores(std::size_t llc_bytes) {
    MemoryHierarchy mh;
    mh.cpus = 2;
    mh.caches = {{"l1", 32 << 10, 1}, {"l2", 1 << 20, 1}, {"llc", llc_bytes, 2}};
    return mh;
}

double value(const std::vector<Counter>& cs, std::string_view name) {
    const Counter* c = find_counter(cs, name);
    EXPECT_NE(c, nullptr) << name;
    return c ? c->value : 0;
}

}  // namespace

// Resident's runs read the KV they leave behind: from the last-level cache where all of it fits
// there (a 16 MiB KV was counted from DRAM on a host with a 480 MiB LLC and read at 146% of the
// DRAM roof), from DRAM where it does not. The tiers' variants read their pages into DRAM anew.
TEST(KvOffloadModels, ResidentPagesComeFromTheLevelThatHoldsTheKv) {
    Catalogue c;
    register_kv_offload(c);
    const Params point = kv_test::small_params();  // 16 pages of 256 B
    const KvProblem p = KvProblem::from(point);
    const auto& resident = c.variant("kv_offload", "resident", Backend::cpu);
    const auto large = resident.model(point, two_cores(std::size_t{480} << 20));
    EXPECT_EQ(value(large, counters::bytes_at("dram")), 0);
    EXPECT_EQ(value(large, counters::bytes_at("l2")), 0);  // 2 KiB a thread: its L1 holds it
    EXPECT_DOUBLE_EQ(value(large, counters::bytes_at("l1")), p.min_bytes());

    Params big = point;
    big.set("context", std::int64_t{1} << 17);  // 16 MiB of KV
    const KvProblem q = KvProblem::from(big);
    EXPECT_DOUBLE_EQ(value(resident.model(big, two_cores(std::size_t{480} << 20)), counters::bytes_at("llc")),
                     q.min_bytes());
    EXPECT_EQ(value(resident.model(big, two_cores(std::size_t{480} << 20)), counters::bytes_at("dram")), 0);
    EXPECT_DOUBLE_EQ(value(resident.model(big, two_cores(std::size_t{8} << 20)), counters::bytes_at("dram")),
                     q.min_bytes());

    const auto& mmap = c.variant("kv_offload", "mmap", Backend::cpu);
    EXPECT_GE(value(mmap.model(big, two_cores(std::size_t{480} << 20)), counters::bytes_at("dram")), q.min_bytes());
}
