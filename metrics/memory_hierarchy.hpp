// The CPU's cache levels as the OS reports them; models use capacities to decide which level
// a variant's re-read working set lives in.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace memwall {

struct CacheLevel {
    std::string name;       // "l1", "l2", "llc"
    std::size_t bytes = 0;  // capacity of one instance
    int shared_by = 1;      // logical CPUs sharing one instance
};

struct MemoryHierarchy {
    std::vector<CacheLevel> caches;  // innermost first, data/unified caches only
    int cpus = 1;                    // logical CPUs used by the kernels

    // Capacity one thread can count on at `level` (instance size / sharers); 0 for a level
    // this machine lacks.
    std::size_t per_thread_bytes(const std::string& level) const;
    // The innermost level whose per-thread capacity holds `bytes`; "dram" if none.
    std::string level_holding(double bytes) const;
};

// Reads /sys/devices/system/cpu/cpu0/cache; falls back to common sizes when unreadable.
MemoryHierarchy detect_memory_hierarchy();

// The same from one CPU's sysfs cache folder (index*/{level,type,size,shared_cpu_list}) for
// `cpus` kernel threads; a parameter so tests can point it at a fake tree. Falls back to
// 32 KiB / 1 MiB / 32 MiB when the folder holds no readable data or unified cache.
MemoryHierarchy read_memory_hierarchy(const std::filesystem::path& cache_dir, int cpus);

}  // namespace memwall
