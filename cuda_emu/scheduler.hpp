// What the runtime's atomics and warp matrix instructions need from the scheduler (defined in
// scheduler.cpp).
#pragma once

#include <string>

#include "cuda_emu/device.hpp"

namespace memwall::emu::detail {

// After an atomic by a kernel thread: lets the other threads run now and then, and at once
// after a failed compare-and-swap, so spin locks between threads of a block make progress.
void after_atomic(bool failed_compare);

// "file.cpp:42": where an intrinsic was called, for error messages.
std::string where(const Site& site);

// Called once per warp instruction with each lane's payload, indexed by lane, while every lane
// waits: it reads the operands and writes the results there.
using WarpCombine = void (*)(void* const (&payloads)[32]);

// A warp instruction that needs every lane's operands (mma.sync, ldmatrix, stmatrix): waits
// until all 32 lanes of the warp arrive at the same call site with the same combine, then
// calls it. A lane that has returned, a partial warp, or lanes elsewhere end the launch.
void warp_exchange(const char* instruction, void* payload, WarpCombine combine, const Site& site);

}  // namespace memwall::emu::detail
