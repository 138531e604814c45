// The engine table (engine_traits.h): one row per engine_kind, in the enum's order.
#include "engine_traits.h"

#include "detail/enum_names.h"
#include "llmplan/dtype.h"

#include <array>

namespace llmplan::detail {
namespace {

using launch = engine_traits::launch_kind;

// clang-format off
constexpr std::array<engine_traits, 3> engines{{
    //kind                      name            cpu    cuda  metal  kv_pool gguf   nodes  stages pads   launch                kv_types                     kv f16
    {engine_kind::llama_cpp,    "llama.cpp",    true,  true, true,  false,  true,  true,  false, true,  launch::llama_server, "f32 f16 bf16 q8_0 q4_0", true },
    // vLLM: CUDA GPUs only (its estimate covers the CUDA worker).
    {engine_kind::vllm,         "vllm",         false, true, false, true,   false, true,  true,  true,  launch::vllm_serve,   "f32 f16 bf16 fp8",       false},
    {engine_kind::transformers, "transformers", true,  true, true,  false,  false, false, false, false, launch::python_pipeline, "f32 f16 bf16 q8_0", false},
}};
// clang-format on

static_assert(rows_in_enum_order(engines, &engine_traits::kind), "engine table rows must follow the enum order");

} // namespace

const engine_traits& traits_of(engine_kind e) {
    return engines.at(static_cast<std::size_t>(e));
}

const engine_traits* engine_by_name(std::string_view name) {
    for (const auto& t : engines)
        if (t.name == name) return &t;
    return nullptr;
}

bool runs_on(const engine_traits& t, device_kind d) {
    return d == device_kind::cpu ? t.on_cpu : d == device_kind::cuda ? t.on_cuda : t.on_metal;
}

bool offers_kv_type(const engine_traits& t, dtype type) {
    for (std::size_t pos = 0; pos < t.kv_types.size();) {
        auto end = t.kv_types.find(' ', pos);
        if (end == std::string_view::npos) end = t.kv_types.size();
        if (dtype_from_name(t.kv_types.substr(pos, end - pos)) == type) return true;
        pos = end + 1;
    }
    return false;
}

} // namespace llmplan::detail

namespace llmplan {

std::string_view engine_name(engine_kind e) {
    return detail::traits_of(e).name;
}

} // namespace llmplan
