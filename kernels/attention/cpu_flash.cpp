// attention/flash: FlashAttention-2 on the CPU. Parallel over (head, query tile of br rows);
// each tile walks the key tiles of bc keys with an online softmax, so the score tensor never
// leaves the cache. QK^T and PV are one register-blocked micro-kernel, C (+)= A B with B packed
// in strips of the micro-tile's columns: K (transposed, panels of d x bc) and V (panels of
// bc x d) are packed per head beforehand, zero-padded, so the micro-kernel streams contiguous
// vectors. A block mask (flash_blocksparse) drops the key tiles of its masked blocks: they are
// neither multiplied nor read.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/attention/attention.hpp"
#include "kernels/kit/kernel_isa.hpp"

MEMWALL_KERNEL_BEGIN
#include "kernels/kit/simd.hpp"

namespace memwall {

namespace {

using namespace kit::simd;
constexpr int kMr = kFlashRowsGranule;
// Rows of one micro-tile, and its widest block of columns: 8 x 3 vectors = 24 accumulators with
// AVX-512's 32 registers, 4 x 3 = 12 with AVX2's 16, so the accumulators, B's vectors and A's
// broadcast stay in registers, and more accumulators than the FMA units' latency x throughput (8)
// keep them busy: 4 x 2 and 8 x 2 measured 3-5% slower (paired runs, one thread, Xeon of the
// Sapphire Rapids class, s = 1024, d = 128).
constexpr int kKr = lanes == 16 ? 8 : 4;
constexpr int kNvMax = 3;
static_assert(kMr % kKr == 0);
constexpr float kLog2e = 1.4426950408889634f;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Horizontal max and sum as a tree of halvings: kit::simd's hmax and hsum walk the lanes one
// after another, a chain of 16 dependent scalar operations per score row and key tile.
// (Vector shuffles, not _mm512_reduce_* or _mm512_extractf32x8_ps: GCC 12's headers trip
// -Wmaybe-uninitialized on those.)
using v8f = float __attribute__((vector_size(8 * sizeof(float))));
using v4f = float __attribute__((vector_size(4 * sizeof(float))));
template <class V>
V vmax_of(V a, V b) {
    return a > b ? a : b;
}
template <bool sum>
float reduce(vf v) {
    auto op = [](auto a, auto b) { return sum ? a + b : vmax_of(a, b); };
#if defined(MEMWALL_SIMD_512)
    const v8f y = op(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7),
                     __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15));
#else
    const v8f y = v;
#endif
    const v4f x = op(__builtin_shufflevector(y, y, 0, 1, 2, 3), __builtin_shufflevector(y, y, 4, 5, 6, 7));
    const v4f z = op(x, __builtin_shufflevector(x, x, 2, 3, 0, 1));
    const v4f w = op(z, __builtin_shufflevector(z, z, 1, 0, 3, 2));
    return w[0];
}
float row_max(vf v) { return reduce<false>(v); }
float row_sum(vf v) { return reduce<true>(v); }

// C[kKr x nv*lanes] = A[kKr x k] B[k x nv*lanes], or, when accumulating,
// C = diag(alpha) C + A B. The kKr*nv accumulators stay in registers for the whole k loop.
template <int nv, bool accumulate>
[[gnu::always_inline]] inline void micro_tile(const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                                              std::int64_t kdim, float* c, std::int64_t ldc, const float* alpha) {
    vf acc[kKr][nv];
#pragma GCC unroll 8
    for (int r = 0; r < kKr; ++r)
#pragma GCC unroll 4
        for (int x = 0; x < nv; ++x) acc[r][x] = accumulate ? load(c + r * ldc + x * lanes) * alpha[r] : vf{};
    for (std::int64_t kk = 0; kk < kdim; ++kk) {
        vf bv[nv];
#pragma GCC unroll 4
        for (int x = 0; x < nv; ++x) bv[x] = load(b + kk * ldb + x * lanes);
#pragma GCC unroll 8
        for (int r = 0; r < kKr; ++r) {
            // QK^T's A (the query tile) is packed in micro-panels (see query_tile): the kKr
            // broadcasts of a step read consecutive floats.
            const float ar = accumulate ? a[r * lda + kk] : a[kk * kKr + r];
#pragma GCC unroll 4
            for (int x = 0; x < nv; ++x) acc[r][x] += ar * bv[x];
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < kKr; ++r)
#pragma GCC unroll 4
        for (int x = 0; x < nv; ++x) store(c + r * ldc + x * lanes, acc[r][x]);
}

// B is packed in strips of columns, the micro-tiles' widths (strip_vectors), each strip kdim
// rows of its width contiguous, so a micro-tile streams B as one contiguous run of vectors. The
// strip at column c0 starts at c0 * rows, where rows (>= kdim) are the rows packed.
// Widths: 3 vectors while more than 4 are left, then 2 + 2, 2 or 1: 16 vectors are
// 3+3+3+3+2+2, 8 are 3+3+2, 4 are 2+2, never a 1-vector tile whose few accumulators would wait
// on the FMA latency.
constexpr int strip_vectors(std::int64_t left) {
    return left == 4 ? 2 : static_cast<int>(std::min<std::int64_t>(left, kNvMax));
}

// C[m x n] (= or +=) A[m x k] B[k x n] with m a multiple of kKr and n of lanes, B packed.
// Strip by strip, all row blocks of A: the strip (k x 3 vectors: 24 KiB with k = 128 and
// AVX-512) stays in L1 while A's tile streams past it.
template <bool accumulate>
void gemm(std::int64_t m, std::int64_t n, std::int64_t kdim, const float* a, std::int64_t lda, const float* b,
          std::int64_t brows, float* c, std::int64_t ldc, const float* alpha) {
    for (std::int64_t c0 = 0; c0 < n;) {
        const int nv = strip_vectors((n - c0) / lanes);
        const float* bs = b + c0 * brows;
        for (std::int64_t r0 = 0; r0 < m; r0 += kKr) {
            const float* ar = a + r0 * lda;
            float* cr = c + r0 * ldc + c0;
            const float* al = accumulate ? alpha + r0 : nullptr;
            if (nv == 3)
                micro_tile<3, accumulate>(ar, lda, bs, 3 * lanes, kdim, cr, ldc, al);
            else if (nv == 2)
                micro_tile<2, accumulate>(ar, lda, bs, 2 * lanes, kdim, cr, ldc, al);
            else
                micro_tile<1, accumulate>(ar, lda, bs, lanes, kdim, cr, ldc, al);
        }
        c0 += nv * lanes;
    }
}

// Panel kb of head bh, for QK^T: keys kb*bc .. kb*bc+bc-1 as the columns of a d x bc matrix (K
// transposed), in strips (see gemm); keys past seq_k zero (their scores are masked anyway; zeros
// keep them finite).
void pack_k_panel(const AttentionProblem& p, int bc, const float* kh, std::int64_t kb, float* panel) {
    const std::int64_t d = p.head_dim;
    for (std::int64_t c0 = 0; c0 < bc;) {
        const std::int64_t w = strip_vectors((bc - c0) / lanes) * lanes;
        float* strip = panel + c0 * d;
        for (std::int64_t j = 0; j < w; ++j) {
            const std::int64_t key = kb * bc + c0 + j;
            for (std::int64_t c = 0; c < d; ++c) strip[c * w + j] = key < p.seq_k ? kh[key * d + c] : 0.0f;
        }
        c0 += w;
    }
}

// The same keys of V, for PV: a bc x d matrix in strips of its d columns; keys past seq_k zero
// (their probabilities are 0, and 0 times a stale value could be NaN).
void pack_v_panel(const AttentionProblem& p, int bc, const float* vh, std::int64_t kb, float* panel) {
    const std::int64_t d = p.head_dim;
    for (std::int64_t c0 = 0; c0 < d;) {
        const std::int64_t w = strip_vectors((d - c0) / lanes) * lanes;
        float* strip = panel + c0 * bc;
        for (std::int64_t j = 0; j < bc; ++j) {
            const std::int64_t key = kb * bc + j;
            for (std::int64_t c = 0; c < w; ++c) strip[j * w + c] = key < p.seq_k ? vh[key * d + c0 + c] : 0.0f;
        }
        c0 += w;
    }
}

struct TileState {
    float* qs;     // br x d: the query tile times scale*log2(e), padding rows zero, in micro-panels
    float* s;      // br x bc: scores, then probabilities (log2 domain, so exp2 applies)
    float* oacc;   // br x d: unnormalised output
    float* m;      // br: running max
    float* l;      // br: running sum
    float* alpha;  // br: exp2(m_old - m_new), the rescale of oacc
};

// Online softmax over one score tile: masks keys a row does not see (nvis keys visible from
// the tile's first key j0), updates m and l, turns scores into exp2(s - m) and sets alpha.
void online_softmax(const AttentionProblem& p, std::int64_t i0, std::int64_t rows, std::int64_t mrows, std::int64_t j0,
                    int bc, TileState& t) {
    const vf neg_inf = splat(-std::numeric_limits<float>::infinity());
    for (std::int64_t r = 0; r < mrows; ++r) {
        // Padding rows past the tile's real rows copy the last real row's mask.
        const std::int64_t i = i0 + std::min(r, rows - 1);
        const std::int64_t nvis = std::clamp<std::int64_t>(p.visible_keys(i) - j0, 0, bc);
        float* row = t.s + r * bc;
        vf mx = neg_inf;
        for (int c0 = 0; c0 < bc; c0 += lanes) {
            vf x = load(row + c0);
            if (nvis < bc) {
                x = (iota() + c0) < static_cast<std::int32_t>(nvis) ? x : neg_inf;
                store(row + c0, x);
            }
            mx = vmax(mx, x);
        }
        const float m_old = t.m[r];
        const float m_new = std::max(m_old, row_max(mx));
        // A row that has seen no key yet keeps m = -inf; subtract 0 so exp2 gives 0, not NaN.
        const float m_use = std::isinf(m_new) ? 0.0f : m_new;
        const vf mu = splat(m_use);
        vf sum{};
        for (int c0 = 0; c0 < bc; c0 += lanes) {
            const vf e = vexp2(load(row + c0) - mu);
            store(row + c0, e);
            sum += e;
        }
        t.alpha[r] = std::exp2(m_old - m_use);
        t.l[r] = t.l[r] * t.alpha[r] + row_sum(sum);
        t.m[r] = m_new;
    }
}

void query_tile(const AttentionProblem& p, FlashTiles tiles, const float* q, float* o, const float* packed_k,
                const float* packed_v, std::int64_t bh, std::int64_t qb, TileState& t) {
    const std::int64_t d = p.head_dim;
    const int br = tiles.br;
    const int bc = tiles.bc;
    const std::int64_t i0 = qb * br;
    const std::int64_t rows = std::min<std::int64_t>(br, p.seq_q - i0);
    const std::int64_t mrows = ceil_div(rows, kMr) * kMr;

    // Fold scale and log2(e) into the copy, so scores come out ready for exp2.
    const float qscale = p.scale() * kLog2e;
    const float* qt = q + p.q_offset(bh) + i0 * d;
    // Packed in micro-panels of kKr rows, column by column (row r, column c at
    // (r / kKr) * kKr * d + c * kKr + r % kKr), as the micro-kernel reads A for QK^T.
    for (std::int64_t r = 0; r < mrows; ++r) {
        float* panel = t.qs + (r / kKr) * kKr * d + r % kKr;
        for (std::int64_t c = 0; c < d; ++c) panel[c * kKr] = r < rows ? qt[r * d + c] * qscale : 0.0f;
    }
    std::fill(t.oacc, t.oacc + mrows * d, 0.0f);
    std::fill(t.m, t.m + mrows, -std::numeric_limits<float>::infinity());
    std::fill(t.l, t.l + mrows, 0.0f);

    // The tile's last row sees the most keys; tiles past them are skipped (causal).
    const std::int64_t kend = p.visible_keys(i0 + rows - 1);
    const std::int64_t nkb = ceil_div(p.seq_k, bc);
    for (std::int64_t j0 = 0; j0 < kend; j0 += bc) {
        if (!p.key_kept(i0, j0)) continue;
        const std::int64_t panel = (bh * nkb + j0 / bc) * d * bc;
        gemm<false>(mrows, bc, d, t.qs, d, packed_k + panel, d, t.s, bc, nullptr);
        online_softmax(p, i0, rows, mrows, j0, bc, t);
        // Probabilities past the last visible key are 0: the reduction stops there.
        const std::int64_t kdim = std::min<std::int64_t>(bc, kend - j0);
        gemm<true>(mrows, d, kdim, t.s, bc, packed_v + panel, bc, t.oacc, d, t.alpha);
    }

    float* ot = o + p.q_offset(bh) + i0 * d;
    for (std::int64_t r = 0; r < rows; ++r) {
        const float inv = t.l[r] > 0 ? 1.0f / t.l[r] : 0.0f;  // no key seen: zeros
        for (std::int64_t c = 0; c < d; c += lanes) store(ot + r * d + c, load(t.oacc + r * d + c) * inv);
    }
}

}  // namespace

template <>
void attention_flash<kit::kKernelIsa>(const AttentionProblem& p, FlashTiles tiles, const float* q, const float* k,
                                      const float* v, float* o, float* packed_k) {
    validate_tiles(tiles, kit::kKernelIsa);
    validate_mask_tiles(p, tiles);
    const std::int64_t bhs = p.heads_total();
    const std::int64_t d = p.head_dim;
    const int bc = tiles.bc;
    const std::int64_t nkb = ceil_div(p.seq_k, bc);
    const std::int64_t nqb = ceil_div(p.seq_q, tiles.br);
    // K's panels, then V's (flash_workspace_floats counts both).
    float* packed_v = packed_k + bhs * nkb * d * bc;

#pragma omp parallel
    {
#pragma omp for collapse(2) schedule(static)
        for (std::int64_t bh = 0; bh < bhs; ++bh)
            for (std::int64_t kb = 0; kb < nkb; ++kb) {
                pack_k_panel(p, bc, k + p.kv_offset(bh), kb, packed_k + (bh * nkb + kb) * d * bc);
                pack_v_panel(p, bc, v + p.kv_offset(bh), kb, packed_v + (bh * nkb + kb) * d * bc);
            }

        std::vector<float> scratch(flash_scratch_floats(p, tiles));
        const std::int64_t br = tiles.br;
        TileState t;
        t.qs = scratch.data();
        t.s = t.qs + br * d;
        t.oacc = t.s + br * bc;
        t.m = t.oacc + br * d;
        t.l = t.m + br;
        t.alpha = t.l + br;
        // Dynamic: causal tiles differ in work; the last (heaviest) tiles of a head go first.
#pragma omp for schedule(dynamic)
        for (std::int64_t w = 0; w < bhs * nqb; ++w)
            query_tile(p, tiles, q, o, packed_k, packed_v, w / nqb, nqb - 1 - w % nqb, t);
    }
}

MEMWALL_KERNEL_END

}  // namespace memwall
