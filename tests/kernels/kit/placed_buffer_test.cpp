#include "kernels/kit/placed_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace memwall::kit {
namespace {

std::uintptr_t address(const PlacedBuffer& b) { return reinterpret_cast<std::uintptr_t>(b.data()); }

TEST(PlacedBuffer, LargeBuffersOfEachSlotKeepTheirOffsetBelow4KiB) {
    const std::size_t n = (4u << 20) / sizeof(float);  // above the 1 MiB threshold
    std::vector<PlacedBuffer> buffers;
    for (std::size_t slot = 0; slot < PlacedAllocator<float>::kSlots; ++slot)
        buffers.emplace_back(n, PlacedAllocator<float>(slot));
    for (std::size_t slot = 0; slot < buffers.size(); ++slot) {
        EXPECT_EQ(address(buffers[slot]) % PlacedAllocator<float>::kHugePage, slot * PlacedAllocator<float>::kShift);
        for (std::size_t other = 0; other < slot; ++other)
            EXPECT_NE(address(buffers[slot]) % 4096, address(buffers[other]) % 4096) << slot << " " << other;
    }
}

TEST(PlacedBuffer, SmallBuffersAreCacheLineAlignedAndBadSlotsRefused) {
    const PlacedBuffer small(100, PlacedAllocator<float>(3));
    EXPECT_EQ(address(small) % 64, 0u);
    EXPECT_THROW(PlacedAllocator<float>(PlacedAllocator<float>::kSlots), std::invalid_argument);
}

}  // namespace
}  // namespace memwall::kit
