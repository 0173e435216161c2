#include "cuda_emu/warp_matrix.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuda_emu/launch.hpp"
#include "cuda_emu/recorder.hpp"
#include "cuda_emu/scheduler.hpp"

namespace memwall::emu {

namespace {

using detail::Site;

// Keys under which ldmatrix's and stmatrix's shared accesses form warp requests: the
// instruction's own address is not known here, and every lane executes it together anyway.
constinit const char ldmatrix_key = 0;
constinit const char stmatrix_key = 0;

unsigned lane_of_thread() {
    const uint3 t = detail::thread_index();
    const dim3 b = detail::block_dims();
    return (t.x + b.x * (t.y + b.y * t.z)) % 32;
}

std::string hex(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

// A row address of ldmatrix or stmatrix: 16 bytes, 16-byte aligned, in shared memory.
void check_row(const char* instruction, const void* row, unsigned lane, const Site& site) {
    const char* problem = nullptr;
    if (reinterpret_cast<std::uintptr_t>(row) % 16 != 0)
        problem = "is not 16-byte aligned";
    else if (!detail::in_shared_memory(row, 16))
        problem = "is not in the block's shared memory";
    if (problem)
        throw cuda::LaunchError(std::string(instruction) + " (" + where(site) + "): lane " + std::to_string(lane) +
                                "'s row address " + hex(row) + " " + problem);
}

std::uint16_t half_of(std::uint32_t reg, unsigned h) { return static_cast<std::uint16_t>(reg >> (16 * h)); }

float f16_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    if (exponent == 0) {  // zero or subnormal: mantissa x 2^-24, exact in fp32
        const float v = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -v : v;
    }
    if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | mantissa << 13);
    return std::bit_cast<float>(sign | (exponent + 112) << 23 | mantissa << 13);
}

float element(MmaType type, std::uint32_t reg, unsigned h) {
    switch (type) {
        case MmaType::bf16: return std::bit_cast<float>(std::uint32_t{half_of(reg, h)} << 16);
        case MmaType::f16: return f16_to_float(half_of(reg, h));
        case MmaType::tf32: return std::bit_cast<float>(reg & 0xffffe000u);
    }
    return 0;
}

const char* mma_name(MmaType type) {
    switch (type) {
        case MmaType::bf16: return "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
        case MmaType::f16: return "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
        case MmaType::tf32: return "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    }
    return "mma.sync";
}

struct MmaLane {
    MmaType type;
    const std::uint32_t* a;
    const std::uint32_t* b;
    const float* c;
    float d[4];
};

// D = A B + C from every lane's fragments, by the PTX ISA's tables (mma.cuh has them); each
// product is exact in fp32 and the sum runs from C in k order.
template <MmaType Type>
void combine_mma(void* const (&payloads)[32]) {
    constexpr int K = Type == MmaType::tf32 ? 8 : 16;
    float A[16][K], B[K][8], C[16][8];
    for (unsigned l = 0; l < 32; ++l) {
        const auto& p = *static_cast<const MmaLane*>(payloads[l]);
        const unsigned g = l / 4, t = l % 4;
        for (unsigned r = 0; r < 4; ++r) {
            const unsigned row = g + 8 * (r & 1);
            if (K == 16) {
                const unsigned col = 2 * t + 8 * (r >> 1);
                A[row][col] = element(Type, p.a[r], 0);
                A[row][col + 1] = element(Type, p.a[r], 1);
            } else {
                A[row][t + 4 * (r >> 1)] = element(Type, p.a[r], 0);
            }
        }
        for (unsigned r = 0; r < 2; ++r) {
            if (K == 16) {
                B[2 * t + 8 * r][g] = element(Type, p.b[r], 0);
                B[2 * t + 8 * r + 1][g] = element(Type, p.b[r], 1);
            } else {
                B[t + 4 * r][g] = element(Type, p.b[r], 0);
            }
        }
        for (unsigned i = 0; i < 4; ++i) C[g + 8 * (i >> 1)][2 * t + (i & 1)] = p.c[i];
    }
    for (unsigned l = 0; l < 32; ++l) {
        auto& p = *static_cast<MmaLane*>(payloads[l]);
        const unsigned g = l / 4, t = l % 4;
        for (unsigned i = 0; i < 4; ++i) {
            const unsigned m = g + 8 * (i >> 1), n = 2 * t + (i & 1);
            float acc = C[m][n];
            for (int k = 0; k < K; ++k) acc += A[m][k] * B[k][n];
            p.d[i] = acc;
        }
    }
    if (detail::Recorder* r = detail::active_recorder) {
        constexpr std::uint64_t flops = 2 * 16 * 8 * K;
        TensorFlops& f = r->tensor();
        (Type == MmaType::bf16 ? f.bf16 : Type == MmaType::f16 ? f.f16 : f.tf32) += flops;
    }
}

detail::WarpCombine mma_combine(MmaType type) {
    switch (type) {
        case MmaType::bf16: return combine_mma<MmaType::bf16>;
        case MmaType::f16: return combine_mma<MmaType::f16>;
        case MmaType::tf32: return combine_mma<MmaType::tf32>;
    }
    return nullptr;
}

struct MatrixLane {
    unsigned char row[16];  // the row this lane reads (ldmatrix) or writes (stmatrix)
    std::uint32_t r[4];     // its registers
};

std::uint16_t row_half(const MatrixLane& l, unsigned i) {
    std::uint16_t h;
    std::memcpy(&h, l.row + 2 * i, 2);
    return h;
}

// ldmatrix: r[k] of lane l is row l / 4, columns 2 (l % 4) and the next, of matrix k, whose rows
// lanes 8k..8k+7 read; with Trans, of its transpose: rows 2 (l % 4) and the next, column l / 4.
template <int N, bool Trans>
void combine_ldmatrix(void* const (&payloads)[32]) {
    for (unsigned l = 0; l < 32; ++l) {
        auto& p = *static_cast<MatrixLane*>(payloads[l]);
        for (unsigned k = 0; k < N; ++k) {
            if (!Trans) {
                std::memcpy(&p.r[k], static_cast<const MatrixLane*>(payloads[8 * k + l / 4])->row + 4 * (l % 4), 4);
            } else {
                const auto& lo = *static_cast<const MatrixLane*>(payloads[8 * k + 2 * (l % 4)]);
                const auto& hi = *static_cast<const MatrixLane*>(payloads[8 * k + 2 * (l % 4) + 1]);
                p.r[k] = std::uint32_t{row_half(lo, l / 4)} | std::uint32_t{row_half(hi, l / 4)} << 16;
            }
        }
    }
}

// stmatrix, the inverse: lane 8k + i writes row i of matrix k, whose words j are r[k] of lanes
// 4i + j; with Trans, column i, whose elements c are in lanes 4c + i / 2, half i % 2.
template <int N, bool Trans>
void combine_stmatrix(void* const (&payloads)[32]) {
    for (unsigned k = 0; k < N; ++k) {
        for (unsigned i = 0; i < 8; ++i) {
            auto& p = *static_cast<MatrixLane*>(payloads[8 * k + i]);
            for (unsigned j = 0; j < 4; ++j) {
                std::uint32_t w;
                if (!Trans) {
                    w = static_cast<const MatrixLane*>(payloads[4 * i + j])->r[k];
                } else {
                    const auto& lo = *static_cast<const MatrixLane*>(payloads[4 * (2 * j) + i / 2]);
                    const auto& hi = *static_cast<const MatrixLane*>(payloads[4 * (2 * j + 1) + i / 2]);
                    w = std::uint32_t{half_of(lo.r[k], i % 2)} | std::uint32_t{half_of(hi.r[k], i % 2)} << 16;
                }
                std::memcpy(p.row + 4 * j, &w, 4);
            }
        }
    }
}

template <int N, bool Trans>
struct Ld {
    static constexpr detail::WarpCombine kCombine = combine_ldmatrix<N, Trans>;
};
template <int N, bool Trans>
struct St {
    static constexpr detail::WarpCombine kCombine = combine_stmatrix<N, Trans>;
};

template <template <int, bool> class F>
detail::WarpCombine by_shape(int count, bool trans) {
    switch (count * 2 + trans) {
        case 2: return F<1, false>::kCombine;
        case 3: return F<1, true>::kCombine;
        case 4: return F<2, false>::kCombine;
        case 5: return F<2, true>::kCombine;
        case 8: return F<4, false>::kCombine;
        case 9: return F<4, true>::kCombine;
        default: return nullptr;
    }
}

constexpr const char* kLdmatrixNames[2][3] = {
    {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
     "ldmatrix.sync.aligned.m8n8.x4.shared.b16"},
    {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
     "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}};
constexpr const char* kStmatrixNames[2][3] = {
    {"stmatrix.sync.aligned.m8n8.x1.shared.b16", "stmatrix.sync.aligned.m8n8.x2.shared.b16",
     "stmatrix.sync.aligned.m8n8.x4.shared.b16"},
    {"stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
     "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}};

int shape_index(int count) { return count == 1 ? 0 : count == 2 ? 1 : 2; }

void check_count(const char* instruction, int count) {
    if (count != 1 && count != 2 && count != 4)
        throw cuda::LaunchError(std::string(instruction) + ": " + std::to_string(count) +
                                " matrices; x1, x2 or x4 only");
}

}  // namespace

void mma(MmaType type, float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], const float (&c)[4],
         const detail::Site& site) {
    MmaLane lane{type, a, b, c, {}};
    detail::warp_exchange(mma_name(type), &lane, mma_combine(type), site);
    std::memcpy(d, lane.d, sizeof d);
}

void ldmatrix(std::uint32_t* r, int count, bool trans, const void* row, const detail::Site& site) {
    check_count("ldmatrix", count);
    const char* name = kLdmatrixNames[trans][shape_index(count)];
    const unsigned lane = lane_of_thread();
    MatrixLane me{};
    if (lane < 8u * static_cast<unsigned>(count)) {
        check_row(name, row, lane, site);
        std::memcpy(me.row, row, 16);
        detail::record_access(row, 16, detail::AccessKind::load, reinterpret_cast<std::uintptr_t>(&ldmatrix_key));
    }
    detail::warp_exchange(name, &me, by_shape<Ld>(count, trans), site);
    std::memcpy(r, me.r, sizeof(std::uint32_t) * static_cast<std::size_t>(count));
}

void stmatrix(void* row, const std::uint32_t* r, int count, bool trans, const detail::Site& site) {
    check_count("stmatrix", count);
    const char* name = kStmatrixNames[trans][shape_index(count)];
    const unsigned lane = lane_of_thread();
    const bool writes = lane < 8u * static_cast<unsigned>(count);
    if (writes) check_row(name, row, lane, site);
    MatrixLane me{};
    std::memcpy(me.r, r, sizeof(std::uint32_t) * static_cast<std::size_t>(count));
    detail::warp_exchange(name, &me, by_shape<St>(count, trans), site);
    if (writes) {
        std::memcpy(row, me.row, 16);
        detail::record_access(row, 16, detail::AccessKind::store, reinterpret_cast<std::uintptr_t>(&stmatrix_key));
    }
}

std::uint32_t round_to_tf32(float x) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
    if ((u & 0x7f800000u) == 0x7f800000u)  // infinity as it is, NaN quiet
        return (u & 0x7fffffu) != 0 ? (u | 0x00400000u) & 0xffffe000u : u;
    // Ties away from zero: add half of the last kept bit to the magnitude, then drop 13 bits.
    return (u + 0x1000u) & 0xffffe000u;
}

}  // namespace memwall::emu
