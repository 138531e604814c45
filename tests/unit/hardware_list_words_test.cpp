// `llmplan hardware list` as a person reads it (issue 25, finding 10: it typed desktops as laptops and
// mixed GB and GiB): the desktop builds of laptops.csv (form "desktop") are typed desktop, and every
// row's memory is in GiB, as the table's own note says.
#include "unit/cli_run.h"

#include <gtest/gtest.h>
#include <sstream>

namespace llmplan {
namespace {

TEST(hardware_list_words, desktops_are_desktops_and_memory_is_in_gib) {
    const auto r = test::run_cli("hardware list \"Desktop: RTX\"");
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(r.out);
    int desktops = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("Desktop: RTX", 0) != 0) continue;
        ++desktops;
        EXPECT_NE(line.find(" desktop "), std::string::npos) << line;
        EXPECT_EQ(line.find(" laptop "), std::string::npos) << line;
        EXPECT_NE(line.find(" GiB "), std::string::npos) << line; // MEMORY
    }
    EXPECT_EQ(desktops, 2) << r.out; // the RTX 4090 and RTX 5090 builds (laptops.csv, form desktop)
    EXPECT_NE(r.out.find("MEMORY: what a model can use, in GiB (2^30 bytes)"), std::string::npos) << r.out;
}

} // namespace
} // namespace llmplan
