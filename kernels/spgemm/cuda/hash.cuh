// rowwise_hash on a GPU, OpSparse's way. Rows are binned by their products (the bound on their
// entries); each bin is one launch of the symbolic and one of the numeric kernel. Small rows
// share a block, a group of threads_per_row threads per row; large rows get a whole block, whose
// warps take A's entries and whose lanes take B's row. A row's hash table is in shared memory,
// sized to its bin, unless its entries would fill that table to 80% or more: then the table is
// in global memory (the fallback), sized to the row. Keys are B's columns, inserted with
// atomicCAS from (col * 107) & (size - 1), probing linearly. Symbolic: key-only tables count
// C's entries per row. Numeric: key and value tables, values merged with atomicAdd, then each
// row's entries written to C: in table order (unsorted), or by rank, each entry's position being
// the number of smaller keys in the table (sorted); a fallback row sorts its part of C in place.
#pragma once

#include "kernels/spgemm/cuda/common.cuh"

namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS {

constexpr int kEmptyKey = -1;

// The binning rule (device_case.hpp, binning) as the kernels take it.
struct HashRule {
    int cols = 0;  // B's columns
    double factor = 1.5;
    int bin_min = 32;
    int bins = 8;
};

// One bin's launch.
struct HashLaunch {
    const int* rows = nullptr;  // the bin's rows
    int count = 0;              // how many
    int slots = 0;              // each row's shared table; 0: tables in global memory, per row
    int rows_per_block = 1;
    int team = 32;  // lanes that take one row of B together
};

// The bookkeeping of a row in its block's shared memory: the row, A's entries, C's first entry,
// and a counter (new keys, then C's entries written).
constexpr int kMetaInts = kRowMetaInts + 1;

// products[i], and each row's bin: rows of no products get C's count 0 now and no bin; a row
// that falls back is counted in bin `bins` and given a global table of table_slots(entries)
// slots at table_off[i]. meta[0..bins]: rows per bin; meta[bins + 1]: global table slots.
__global__ void hash_bin_kernel(DeviceCsr a, const int* b_row_ptr, int rows, HashRule r, int* products, int* counts,
                                unsigned long long* meta, long long* table_off) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < rows;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        const int p = row_products_of(a, b_row_ptr, i);
        products[i] = p;
        if (p == 0) {
            counts[i] = 0;
            continue;
        }
        int bin = binning::bin_of(p, r.bin_min, r.bins);
        if (binning::falls_back(p, r.cols, r.factor, r.bin_min, r.bins)) {
            bin = r.bins;
            const long long slots = binning::table_slots(p < r.cols ? p : r.cols, r.factor);
            table_off[i] = static_cast<long long>(atomicAdd(&meta[r.bins + 1], static_cast<unsigned long long>(slots)));
        }
        atomicAdd(&meta[bin], 1ull);
    }
}

// Each row with products into its bin's list: cursor[j] starts at bin j's first position.
__global__ void hash_fill_bins_kernel(const int* products, int rows, HashRule r, int* cursor, int* bin_rows) {
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < rows;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        const int p = products[i];
        if (p == 0) continue;
        const int bin = binning::falls_back(p, r.cols, r.factor, r.bin_min, r.bins)
                            ? r.bins
                            : binning::bin_of(p, r.bin_min, r.bins);
        bin_rows[atomicAdd(&cursor[bin], 1)] = i;
    }
}

// Where a thread works: its row's place in the block and its lane in the row's group and team.
struct HashThread {
    int local = 0;        // the row's index in the block
    int lane_in_row = 0;  // 0 .. threads per row
    int threads_per_row = 1;
    int team = 0, lane = 0, teams = 1;
};

__device__ __forceinline__ HashThread hash_thread(const HashLaunch& l) {
    HashThread t;
    t.threads_per_row = block_threads() / l.rows_per_block;
    t.local = thread_index() / t.threads_per_row;
    t.lane_in_row = thread_index() % t.threads_per_row;
    t.team = t.lane_in_row / l.team;
    t.lane = t.lane_in_row % l.team;
    t.teams = t.threads_per_row / l.team;
    return t;
}

// Lane 0 of each row's group: the row (-1 past the bin's end), A's entries, C's first entry
// (numeric), the counter zeroed; in global mode also the row's table (size and offset).
__device__ __forceinline__ void load_row_meta(const HashLaunch& l, const HashThread& t, DeviceCsr a,
                                              const int* c_row_ptr, const HashRule& r, const int* products,
                                              const long long* table_off, int* m, long long* table_base,
                                              int* table_size) {
    if (t.lane_in_row != 0) return;
    const int at = static_cast<int>(blockIdx.x) * l.rows_per_block + t.local;
    if (at < l.count) {
        const int row = l.rows[at];
        m[0] = row;
        m[1] = a.row_ptr[row];
        m[2] = a.row_ptr[row + 1];
        m[3] = c_row_ptr ? c_row_ptr[row] : 0;
        if (l.slots == 0) {
            const int p = products[row];
            *table_size = static_cast<int>(binning::table_slots(p < r.cols ? p : r.cols, r.factor));
            *table_base = table_off[row];
        }
    } else {
        m[0] = -1;
        m[1] = m[2] = m[3] = 0;
        if (l.slots == 0) {
            *table_size = 0;
            *table_base = 0;
        }
    }
    m[4] = 0;
}

// The slot of `key` in a table of mask + 1 slots, inserting it if absent; `inserted` says so.
__device__ __forceinline__ int hash_insert(int* keys, unsigned mask, int key, bool& inserted) {
    unsigned h = (static_cast<unsigned>(key) * 107u) & mask;
    for (;;) {
        const int old = atomicCAS(&keys[h], kEmptyKey, key);
        if (old == kEmptyKey || old == key) {
            inserted = old == kEmptyKey;
            return static_cast<int>(h);
        }
        h = (h + 1) & mask;
    }
}

// Symbolic: counts[row] = C's entries of each row of the bin.
__global__ void hash_symbolic_kernel(DeviceCsr a, DeviceCsr b, HashRule r, HashLaunch l, const int* products,
                                     const long long* table_off, int* global_keys, int* counts) {
    MEMWALL_DYNAMIC_SHARED(int, shared);
    __shared__ long long table_base;
    __shared__ int table_size;
    const HashThread t = hash_thread(l);
    const bool global = l.slots == 0;
    int* m = shared + (global ? 0 : l.rows_per_block * l.slots) + t.local * kMetaInts;
    load_row_meta(l, t, a, nullptr, r, products, table_off, m, &table_base, &table_size);
    __syncthreads();
    const int row = m[0];
    const int slots = global ? (row >= 0 ? table_size : 0) : l.slots;
    int* keys = global ? global_keys + table_base : shared + t.local * l.slots;
    for (int s = t.lane_in_row; s < slots; s += t.threads_per_row) keys[s] = kEmptyKey;
    __syncthreads();
    const unsigned mask = static_cast<unsigned>(slots - 1);
    int mine = 0;
    for (int e = m[1] + t.team; e < m[2]; e += t.teams) {
        const int k = a.col[e];
        const int f1 = b.row_ptr[k + 1];
        for (int f = b.row_ptr[k] + t.lane; f < f1; f += l.team) {
            bool inserted = false;
            hash_insert(keys, mask, b.col[f], inserted);
            mine += inserted;
        }
    }
    if (mine > 0) atomicAdd(&m[4], mine);
    __syncthreads();
    if (row >= 0 && t.lane_in_row == 0) counts[row] = m[4];
}

// Numeric: each row's entries of C, sorted by column when `sorted`.
__global__ void hash_numeric_kernel(DeviceCsr a, DeviceCsr b, HashRule r, HashLaunch l, const int* products,
                                    const long long* table_off, int* global_keys, double* global_vals,
                                    const int* c_row_ptr, int* c_col, double* c_val, bool sorted) {
    MEMWALL_DYNAMIC_SHARED(double, shared);
    __shared__ long long table_base;
    __shared__ int table_size;
    const HashThread t = hash_thread(l);
    const bool global = l.slots == 0;
    const int table = global ? 0 : l.rows_per_block * l.slots;  // slots in shared memory
    int* shared_keys = reinterpret_cast<int*>(shared + table);
    int* m = shared_keys + table + t.local * kMetaInts;
    load_row_meta(l, t, a, c_row_ptr, r, products, table_off, m, &table_base, &table_size);
    __syncthreads();
    const int row = m[0];
    const int slots = global ? (row >= 0 ? table_size : 0) : l.slots;
    int* keys = global ? global_keys + table_base : shared_keys + t.local * l.slots;
    double* vals = global ? global_vals + table_base : shared + t.local * l.slots;
    for (int s = t.lane_in_row; s < slots; s += t.threads_per_row) {
        keys[s] = kEmptyKey;
        vals[s] = 0.0;
    }
    __syncthreads();
    const unsigned mask = static_cast<unsigned>(slots - 1);
    for (int e = m[1] + t.team; e < m[2]; e += t.teams) {
        const int k = a.col[e];
        const double av = a.val[e];
        const int f1 = b.row_ptr[k + 1];
        for (int f = b.row_ptr[k] + t.lane; f < f1; f += l.team) {
            bool inserted = false;
            const int h = hash_insert(keys, mask, b.col[f], inserted);
            atomicAdd(&vals[h], av * b.val[f]);
        }
    }
    __syncthreads();
    const int c0 = m[3];
    if (sorted && !global) {
        // Rank by counting: an entry's position in its row is the number of smaller keys (empty
        // slots, -1, read as the largest unsigned).
        for (int s = t.lane_in_row; s < slots; s += t.threads_per_row) {
            const int key = keys[s];
            if (key == kEmptyKey) continue;
            int rank = 0;
            for (int u = 0; u < slots; ++u) rank += static_cast<unsigned>(keys[u]) < static_cast<unsigned>(key);
            c_col[c0 + rank] = key;
            c_val[c0 + rank] = vals[s];
        }
        return;
    }
    for (int s = t.lane_in_row; s < slots; s += t.threads_per_row) {
        const int key = keys[s];
        if (key == kEmptyKey) continue;
        const int at = c0 + atomicAdd(&m[4], 1);
        c_col[at] = key;
        c_val[at] = vals[s];
    }
    if (sorted) {  // a global table (one row per block): sort the row's part of C in place
        __syncthreads();
        block_sort(c_col + c0, c_val + c0, m[4]);
    }
}

}  // namespace memwall::spgemm_cuda::MEMWALL_CUDA_NS
