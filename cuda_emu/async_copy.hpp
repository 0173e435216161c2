// cp.async on the CPU: each thread's copies from global to shared memory wait in its own queue
// of commit groups and land only when cp.async.wait_group lets them, so a kernel that reads a
// stage before waiting reads what was there before, as it may on a GPU.
#pragma once

#include "cuda_emu/device.hpp"

namespace memwall::emu {

// .ca caches the source in L1 (the L1 model sees it), .cg only in L2.
enum class CacheOp : std::uint8_t { ca, cg };

// cp.async.{ca,cg}.shared.global [smem], [gmem], bytes[, src_bytes]: bytes is 4, 8 or 16 (16 for
// cg), both addresses aligned to it; src_bytes (0 to bytes) are read from gmem now, the rest of
// the destination is filled with zeros when the copy lands.
void cp_async(void* smem, const void* gmem, int bytes, int src_bytes, CacheOp op, const detail::Site& site);
// cp.async.commit_group: the copies issued since the last commit become a group.
void cp_async_commit(const detail::Site& site);
// cp.async.wait_group n: lands every committed group but the newest n, oldest first.
void cp_async_wait(int n, const detail::Site& site);

namespace detail {
// The scheduler's: every block starts with empty queues (copies a thread never waited for are
// dropped), and a launch's end clears them.
void begin_block_copies(unsigned threads);
void end_launch_copies();
}  // namespace detail

}  // namespace memwall::emu
