// What the runtime's atomics need from the scheduler (defined in scheduler.cpp).
#pragma once

namespace memwall::emu::detail {

// After an atomic by a kernel thread: lets the other threads run now and then, and at once
// after a failed compare-and-swap, so spin locks between threads of a block make progress.
void after_atomic(bool failed_compare);

}  // namespace memwall::emu::detail
