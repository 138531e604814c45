// The built-in catalogs as tests use them: a hardware row and a model by name, failing the test
// (not crashing it) when the name is unknown.
#pragma once

#include "llmplan/hardware.h"
#include "llmplan/load.h"

#include <gtest/gtest.h>
#include <string_view>

namespace llmplan::test {

inline const device_spec& hardware_row(std::string_view name) {
    static const device_spec none{};
    auto d = builtin_hardware().lookup(name);
    EXPECT_TRUE(d.has_value()) << name;
    return d ? **d : none;
}

inline model_desc catalog_model(std::string_view id) {
    auto m = load_model(id);
    EXPECT_TRUE(m.has_value()) << id;
    return m ? *m : model_desc{};
}

} // namespace llmplan::test
