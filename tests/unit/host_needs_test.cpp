// What a card row needs around it: the PC's slots and power supply scale with the cards in the box.
#include "llmplan/hardware.h"

#include <gtest/gtest.h>

using namespace llmplan;

TEST(HostNeeds, SupplyCoversEveryCardInTheBox) {
    const auto d = builtin_hardware().lookup("geforce-rtx-5090");
    ASSERT_TRUE(d) << d.error().what();
    // RTX 5090: 575 W load (gpus.csv); NVIDIA asks a 1000 W supply for one card (its product page),
    // 575 + 400 W for the rest of the PC, rounded up to 50 W = 1000 W.
    EXPECT_EQ(host_needs(**d), "a PC with a PCIe x16 slot and a 1000 W power supply");
    // Two cards split a model and both draw their load at once: 2 x 575 + 400 = 1550 W.
    EXPECT_EQ(host_needs(**d, 2), "a PC with 2 PCIe x16 slots and a 1550 W power supply");
}

TEST(HostNeeds, MachinesAndInstancesNeedNothingAround) {
    const auto mac = builtin_hardware().lookup("Mac Studio M3 Ultra (28-core), 96GB");
    ASSERT_TRUE(mac) << mac.error().what();
    EXPECT_EQ(host_needs(**mac, 2), "");
}
