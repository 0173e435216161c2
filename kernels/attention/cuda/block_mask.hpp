// flash_blocksparse's block mask (the FlashAttention paper's block-sparse attention): the score
// matrix of each head cut into blocks of `block` query rows by `block` keys, each block kept or
// masked whole. It is a rule, not a stored bitmap, so the CPU kernel, flash_tc on the device, the
// reference and the models all evaluate the same function and nothing more is read from memory.
// C++17 and free of CUDA headers: nvcc, the host compiler under cuda-emu and the host sources
// include it.
//
// Each query block has a diagonal key block: the one holding the key its first row sees last
// under bottom-right alignment (key i0 + s_k - s_q, clamped to the blocks), so every pattern
// keeps it and every row keeps a key it sees, causal or not (a causal row that sees no key at all
// outputs zeros, as without a mask).
#pragma once

#include <cstdint>

// Inlined on the device: a call from flash_tc's key loop would spill its registers.
#if defined(__CUDACC__)
#define MEMWALL_ATTENTION_HD __host__ __device__ __forceinline__
#else
#define MEMWALL_ATTENTION_HD inline
#endif

namespace memwall::attention_cuda {

// none: every block (dense attention). local: blocks within `window` of the diagonal. global:
// the diagonal, the first `window` key blocks (every query sees them) and the first `window`
// query blocks (they see every key): Longformer's and BigBird's global tokens. random: the
// diagonal and each other block with probability `keep` (seeded). butterfly: key blocks whose
// index differs from the diagonal's in at most one bit (the flat butterfly of Pixelated
// Butterfly, as in FlashAttention's block-sparse experiments): 1 + log2 of them per row.
enum class MaskKind { none, local, global, random, butterfly };

struct BlockMask {
    MaskKind kind = MaskKind::none;
    int block = 128;              // query rows and keys per block
    int q_blocks = 1;             // ceil(s_q / block)
    int k_blocks = 1;             // ceil(s_k / block)
    int key_offset = 0;           // s_k - s_q: the bottom-right alignment
    int window = 1;               // local, global
    std::uint32_t seed = 0;       // random
    std::uint64_t threshold = 0;  // random: an off-diagonal block is kept when its hash is below
};

MEMWALL_ATTENTION_HD int diagonal_block(const BlockMask& m, int qb) {
    const int key = qb * m.block + m.key_offset;
    const int kb = key < 0 ? 0 : key / m.block;
    return kb < m.k_blocks ? kb : m.k_blocks - 1;
}

// A 32-bit mix of (seed, qb, kb) (MurmurHash3's finaliser): independent enough per block.
MEMWALL_ATTENTION_HD std::uint32_t block_hash(std::uint32_t seed, int qb, int kb) {
    std::uint32_t h =
        seed ^ (static_cast<std::uint32_t>(qb) * 0x9e3779b1u) ^ (static_cast<std::uint32_t>(kb) * 0x85ebca77u);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// Whether query block qb visits key block kb.
MEMWALL_ATTENTION_HD bool block_kept(const BlockMask& m, int qb, int kb) {
    if (m.kind == MaskKind::none) return true;
    const int diag = diagonal_block(m, qb);
    if (kb == diag) return true;
    switch (m.kind) {
        case MaskKind::local: return (kb > diag ? kb - diag : diag - kb) <= m.window;
        case MaskKind::global: return kb < m.window || qb < m.window;
        case MaskKind::random: return block_hash(m.seed, qb, kb) < m.threshold;
        case MaskKind::butterfly: {
            const int x = kb ^ diag;
            return (x & (x - 1)) == 0;
        }
        case MaskKind::none: break;
    }
    return true;
}

}  // namespace memwall::attention_cuda
