// Helpers of the hybrid / state-space tests: a config from tests/data/models, the KV cache (with
// the recurrent state) an estimate puts on all its devices.
#pragma once

#include "llmplan/inference.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>
#include <string>

namespace llmplan::test {

/// tests/data/models/FOLDER/config.json, read as the CLI reads it (a failed read fails the test).
inline model_desc load_test_model(const std::string& folder) {
    auto m = load_model(std::string(LLMPLAN_TEST_DATA) + "/models/" + folder + "/config.json");
    EXPECT_TRUE(m.has_value()) << folder << ": " << (m ? "" : m.error().what());
    return m ? *m : model_desc{};
}

/// kv_cache summed over every device of the estimate.
inline std::uint64_t kv_bytes(const inference_estimate& e) {
    std::uint64_t s = 0;
    for (const auto& d : e.devices)
        s += d.parts.kv_cache;
    return s;
}

} // namespace llmplan::test
