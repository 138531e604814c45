// The engine table (engine_traits.h): one row per engine_kind, in the enum's order. Each column's
// source is beside its declaration in engine_traits.h.
#include "engine_traits.h"

#include "detail/enum_names.h"
#include "llmplan/dtype.h"

#include <array>

namespace llmplan::detail {
namespace {

using launch_via = engine_traits::launch_kind;
using mla        = engine_traits::mla_kind;

constexpr std::array<engine_traits, 5> engines{
    {
     {
            .kind                         = engine_kind::llama_cpp,
            .name                         = "llama.cpp",
            .display                      = "llama.cpp",
            .on_cpu                       = true,
            .on_cuda                      = true,
            .on_metal                     = true,
            .kv_pool                      = false,
            .runs_gguf                    = true,
            .pads_kv                      = true,
            .kv_types                     = "f32 f16 bf16 q8_0 q4_0",
            .kv_default_f16               = true,
            .smaller_kv_types             = "q8_0 q4_0",
            .quantized_v_needs_flash_attn = true,
            .mla                          = mla::latent_k_and_v,
            .conv_state_whole_kernel      = false,
            .projector_file               = true,
            .offloads_to_host             = true,
            .quantizes_on_load            = false,
            .spans_nodes                  = true,
            .pipeline_stages              = false,
            .tensor_parallel              = false,
            .ggml_kernels                 = true,
            .hopper_kernels               = false,
            .dequant_alu_bound            = false,
            .python_per_layer             = false,
            .own_options                  = engine_scope::llama_cpp,
            .launch                       = launch_via::llama_server,
            // release v0.3.0 (Aug 2026), the first with a semantic version (engine_versions.cpp)
            .current       = {0, 3, 0, true},
            .build_numbers = true,
        }, {
            // vLLM: CUDA GPUs only (its estimate covers the CUDA worker).
            .kind                         = engine_kind::vllm,
            .name                         = "vllm",
            .display                      = "vLLM",
            .on_cpu                       = false,
            .on_cuda                      = true,
            .on_metal                     = false,
            .kv_pool                      = true,
            .runs_gguf                    = false,
            .pads_kv                      = true,
            .kv_types                     = "f32 f16 bf16 fp8",
            .kv_default_f16               = false,
            .smaller_kv_types             = "fp8",
            .quantized_v_needs_flash_attn = false,
            .mla                          = mla::latent_one_row,
            .conv_state_whole_kernel      = false,
            .projector_file               = false,
            .offloads_to_host             = false,
            .quantizes_on_load            = false,
            .spans_nodes                  = true,
            .pipeline_stages              = true,
            .tensor_parallel              = true,
            .ggml_kernels                 = false,
            .hopper_kernels               = true,
            .dequant_alu_bound            = true,
            .python_per_layer             = false,
            .own_options                  = engine_scope::vllm,
            .launch                       = launch_via::vllm_serve,
            // v0.30.0: "Vllm's latest official release is v0.30.0" (AMD-AGI/TraceLens issue 1055,
            // 2026-09-23); a later one (0.31) is answered with the newest row, with a note.
            .current       = {0, 30, 0},
            .build_numbers = false,
        }, {
            .kind                         = engine_kind::transformers,
            .name                         = "transformers",
            .display                      = "transformers",
            .on_cpu                       = true,
            .on_cuda                      = true,
            .on_metal                     = true,
            .kv_pool                      = false,
            .runs_gguf                    = false,
            .pads_kv                      = false,
            .kv_types                     = "f32 f16 bf16 q8_0",
            .kv_default_f16               = false,
            .smaller_kv_types             = "",
            .quantized_v_needs_flash_attn = false,
            .mla                          = mla::per_head,
            .conv_state_whole_kernel      = true,
            .projector_file               = false,
            .offloads_to_host             = false,
            .quantizes_on_load            = true,
            .spans_nodes                  = false,
            .pipeline_stages              = false,
            .tensor_parallel              = false,
            .ggml_kernels                 = false,
            .hopper_kernels               = false,
            .dequant_alu_bound            = false,
            .python_per_layer             = true,
            .own_options                  = engine_scope::any,
            .launch                       = launch_via::python_pipeline,
            // 5.15.1: "Upgrade transformer 5.15.1 instead of RC version" (OpenCSGs/csghub-sdk PR 134,
            // 2026-08-21); the newest release found (5.13.1 was in vllm-project/vllm issue 49224's
            // environment, Jul 2026). No memory rule of 5.15 found that differs from the 5+ row.
            .current       = {5, 15, 1},
            .build_numbers = false,
        }, {
            // SGLang (sgl-project/sglang): CUDA GPUs here (its estimate covers the CUDA model runner).
            // Page size 1 (server_args.py page_size default 1: RadixAttention's token-to-KV pool
            // holds single tokens, no block padding); --kv-cache-dtype auto/bf16/fp8_e4m3/fp8_e5m2; DeepSeek's
            // MLA layers in MLATokenToKVPool, one row of kv_lora_rank + qk_rope_head_dim a token
            // (mem_cache/memory_pool.py); --tp splits heads as vLLM does; Hopper kernels (fa3, the
            // default attention backend on SM90) and Marlin for int4 checkpoints.
            .kind                         = engine_kind::sglang,
            .name                         = "sglang",
            .display                      = "SGLang",
            .on_cpu                       = false,
            .on_cuda                      = true,
            .on_metal                     = false,
            .kv_pool                      = true,
            .runs_gguf                    = false,
            .pads_kv                      = false,
            .kv_types                     = "f32 f16 bf16 fp8",
            .kv_default_f16               = false,
            .smaller_kv_types             = "fp8",
            .quantized_v_needs_flash_attn = false,
            .mla                          = mla::latent_one_row,
            .conv_state_whole_kernel      = false,
            .projector_file               = false,
            .offloads_to_host             = false,
            .quantizes_on_load            = false,
            .spans_nodes                  = true,
            .pipeline_stages              = false,
            .tensor_parallel              = true,
            .ggml_kernels                 = false,
            .hopper_kernels               = true,
            .dequant_alu_bound            = true,
            .python_per_layer             = false,
            .own_options                  = engine_scope::any,
            .launch                       = launch_via::sglang_server,
            // v0.5.19: "SGLang's latest official release is v0.5.19" (AMD-AGI/TraceLens issue 1006,
            // 2026-09-07; llm-d issue 2524, 2026-09-17, release notes tag v0.5.19)
            .current       = {0, 5, 19},
            .build_numbers = false,
        }, {
            // mlx-lm (ml-explore/mlx-lm) on Apple silicon's GPU (Metal) only. Its KVCache grows in
            // steps of 256 tokens (mlx_lm/models/cache.py KVCache.step = 256); --kv-bits 8/4 keeps a
            // QuantizedKVCache (group 64, a scale and a bias in the model's dtype per group: 8.5 and 4.5
            // bits an element, the sizes of q8_0 and q4_0); no tensor parallelism, no offload.
            .kind                         = engine_kind::mlx,
            .name                         = "mlx",
            .display                      = "mlx-lm",
            .on_cpu                       = false,
            .on_cuda                      = false,
            .on_metal                     = true,
            .kv_pool                      = false,
            .runs_gguf                    = false,
            .pads_kv                      = true,
            .kv_types                     = "f32 f16 bf16 q8_0 q4_0",
            .kv_default_f16               = false,
            .smaller_kv_types             = "q8_0 q4_0",
            .quantized_v_needs_flash_attn = false,
            // not read in mlx-lm's deepseek_v3.py here: taken as transformers' per-head K and V
            .mla                     = mla::per_head,
            .conv_state_whole_kernel = false,
            .projector_file          = false,
            .offloads_to_host        = false,
            .quantizes_on_load       = false,
            .spans_nodes             = false,
            .pipeline_stages         = false,
            .tensor_parallel         = false,
            .ggml_kernels            = false,
            .hopper_kernels          = false,
            .dequant_alu_bound       = false,
            .python_per_layer        = false,
            .own_options             = engine_scope::any,
            .launch                  = launch_via::mlx_lm,
            // 0.32.0: ml-explore/mlx-lm PR 1753 (2026-08-18) "Update to MLX 0.32.1 and bump mlx-lm's
            // version to 0.32.0"
            .current       = {0, 32, 0},
            .build_numbers = false,
        }, }
};

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

std::vector<std::string_view> words_of(std::string_view list) {
    std::vector<std::string_view> out;
    for (std::size_t pos = 0; pos < list.size();) {
        auto end = list.find(' ', pos);
        if (end == std::string_view::npos) end = list.size();
        if (end > pos) out.push_back(list.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

bool offers_kv_type(const engine_traits& t, dtype type) {
    for (std::string_view word : words_of(t.kv_types))
        if (dtype_from_name(word) == type) return true;
    return false;
}

engine_kind engine_on(engine_kind asked, device_kind device) {
    return runs_on(traits_of(asked), device) ? asked : engine_kind::llama_cpp;
}

} // namespace llmplan::detail

namespace llmplan {

std::string_view engine_name(engine_kind e) {
    return detail::traits_of(e).name;
}

} // namespace llmplan
