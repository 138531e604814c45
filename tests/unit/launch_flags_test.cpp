// Every launch line a plan emits uses only flags its engine has, and keeps the engine's rules
// (issue 14, item 6). The flag lists are each engine's own:
//   llama-server: llama.cpp tools/server/README.md (= `llama-server --help`; Debian's llama-server(1)).
//   rpc-server:   llama.cpp tools/rpc/README.md (-H host, -p port).
//   vllm serve:   vLLM docs, "Engine Arguments" (vllm/engine/arg_utils.py); vLLM has no --gpus.
//   ray start:    Ray docs, "ray start" (--head, --port, --address).
//   transformers: python3 -c with pipeline("text-generation", ...) (transformers docs, "Pipelines").
//   Ollama:       docs/faq.md (OLLAMA_NUM_PARALLEL, OLLAMA_FLASH_ATTENTION, OLLAMA_KV_CACHE_TYPE: f16,
//                 q8_0 or q4_0, "flash attention must be enabled") and docs/modelfile.md (num_ctx, num_gpu).
#include "catalog_fixtures.h"
#include "llmplan/inference.h"
#include "llmplan/plan.h"
#include "plan/detail.h"
#include "unit/infer_fixture.h"

#include <cctype>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

namespace llmplan {
namespace {

using test::catalog_model;

const std::map<std::string, std::set<std::string>> known_flags = {
    {"llama-server",
     {"-m", "-hf", "-c", "-ngl", "-np", "-fa", "-ctk", "-ctv", "-sm", "-ts", "--rpc", "--n-cpu-moe", "--cpu-moe"}},
    {"rpc-server",   {"-H", "-p"}                                                                                },
    {"vllm",
     {"--tensor-parallel-size", "--pipeline-parallel-size", "--max-model-len", "--gpu-memory-utilization",
      "--max-num-seqs", "--kv-cache-dtype", "--distributed-executor-backend", "--dtype"}                         },
    {"ray",          {"--head", "--port", "--address"}                                                           },
    {"python3",      {"-c"}                                                                                      },
};
const std::set<std::string> ollama_env = {"OLLAMA_NUM_PARALLEL", "OLLAMA_FLASH_ATTENTION", "OLLAMA_KV_CACHE_TYPE"};

std::vector<std::string> words(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

/// The value after `flag` in `w` ("" when absent).
std::string value_of(const std::vector<std::string>& w, std::string_view flag) {
    for (std::size_t i = 0; i + 1 < w.size(); ++i)
        if (w[i] == flag) return w[i + 1];
    return {};
}

void check_line(const model_desc& m, const inference_params& p, const std::string& engine, const std::string& line) {
    const auto w = words(line);
    ASSERT_FALSE(w.empty()) << engine;
    if (engine == "ollama") {
        std::map<std::string, std::string> env;
        for (const auto& x : w) {
            const auto eq = x.find('=');
            if (eq == std::string::npos || x.rfind("OLLAMA_", 0) != 0) continue;
            EXPECT_TRUE(ollama_env.count(x.substr(0, eq))) << x;
            env[x.substr(0, eq)] = x.substr(eq + 1);
        }
        if (env.count("OLLAMA_KV_CACHE_TYPE")) {
            EXPECT_EQ(env["OLLAMA_FLASH_ATTENTION"], "1") << line;
            EXPECT_TRUE(std::set<std::string>({"f16", "q8_0", "q4_0"}).count(env["OLLAMA_KV_CACHE_TYPE"])) << line;
        }
        if (p.kv_type && *p.kv_type != dtype::f16) EXPECT_TRUE(env.count("OLLAMA_KV_CACHE_TYPE")) << line;
        return;
    }
    const std::string program = w[0] == "vllm" ? "vllm" : w[0];
    ASSERT_TRUE(known_flags.count(program)) << line;
    const auto& flags = known_flags.at(program);
    for (const auto& x : w)
        if (x.size() > 1 && x[0] == '-' && !std::isdigit(static_cast<unsigned char>(x[1])))
            EXPECT_TRUE(flags.count(x)) << x << " in: " << line;
    if (program == "llama-server") {
        const std::string ctv = value_of(w, "-ctv");
        if (!ctv.empty() && ctv != "f16" && ctv != "bf16" && ctv != "f32")
            EXPECT_EQ(value_of(w, "-fa"), "on") << "a quantized V cache needs flash attention: " << line;
    }
    if (program == "vllm") {
        const auto tp = static_cast<std::uint32_t>(std::stoul(value_of(w, "--tensor-parallel-size")));
        EXPECT_TRUE(tensor_parallel_divides_heads(m, tp)) << line;
        EXPECT_EQ(value_of(w, "--max-model-len"), std::to_string(p.ctx)) << line;
        EXPECT_EQ(value_of(w, "--max-num-seqs"), std::to_string(p.batch)) << line;
    }
}

void check_plan(const char* model, inference_params p) {
    const auto m = catalog_model(model);
    std::vector<const device_spec*> rows;
    for (const auto* d : builtin_hardware().candidates())
        rows.push_back(d);
    const auto r      = make_plan(m, p, rows);
    std::size_t lines = 0;
    for (const auto& c : r.candidates)
        for (const auto& [engine, line] : c.launch) {
            check_line(m, p, engine, line);
            ++lines;
        }
    EXPECT_GT(lines, 10u) << model;
}

TEST(launch_flags, llama_cpp_lines_with_a_quantized_cache_turn_flash_attention_on) {
    auto p    = test::infer_params(engine_kind::llama_cpp, "q4_k_m");
    p.kv_type = dtype::q8_0; // asked without --flash-attn: llama-server would refuse the V cache
    p.batch   = 4;
    check_plan("Qwen/Qwen2.5-7B-Instruct", p);
}

TEST(launch_flags, vllm_tensor_parallel_divides_a_28_head_model) {
    // Qwen2.5-7B: 28 attention heads, 4 KV heads. 8 GPUs cannot split 28 heads: 4 x 2 pipeline stages.
    const auto m = catalog_model("Qwen/Qwen2.5-7B-Instruct");
    EXPECT_TRUE(tensor_parallel_divides_heads(m, 4));
    EXPECT_FALSE(tensor_parallel_divides_heads(m, 8));
    EXPECT_FALSE(tensor_parallel_divides_heads(m, 3));
    EXPECT_EQ(largest_tensor_parallel(m, 8), 4u);
    inference_params p;
    p.engine = engine_kind::vllm;
    p.ctx    = 32768;
    p.batch  = 64;
    check_plan("Qwen/Qwen2.5-7B-Instruct", p);
    // `--gpus 3` for vLLM is refused by name rather than planned.
    p.gpus       = 3;
    const auto s = validate(m, p);
    ASSERT_FALSE(s.has_value());
    EXPECT_NE(std::string(s.error().what()).find("--gpus"), std::string::npos);
}

// transformers: a pipeline one-liner whose dtype is the one the plan sized (4.x from_pretrained without
// torch_dtype loads float32, twice a bf16 checkpoint; 5.x names it dtype, "auto" by default: PR 42883),
// device_map "auto" on a GPU, bitsandbytes for NF4.
TEST(launch_flags, transformers_lines_load_the_planned_dtype) {
    inference_params p;
    p.engine = engine_kind::transformers;
    check_plan("Qwen/Qwen2.5-7B-Instruct", p);
    const auto m    = catalog_model("Qwen/Qwen2.5-7B-Instruct");
    const auto line = [&](const inference_params& q) {
        for (const auto& [engine, l] : detail::launch_lines(m, q, 1, 1))
            if (engine == "transformers") return l;
        return std::string();
    };
    EXPECT_NE(line(p).find("model='Qwen/Qwen2.5-7B-Instruct', dtype='auto', device_map='auto'"), std::string::npos)
        << line(p); // the current release, 5.x
    auto v4    = p;
    v4.version = *parse_engine_version("transformers@4.57", engine_kind::transformers);
    EXPECT_NE(line(v4).find("model='Qwen/Qwen2.5-7B-Instruct', torch_dtype='auto', device_map='auto'"),
              std::string::npos)
        << line(v4);
    p.weights = *parse_weight_choice("nf4");
    EXPECT_NE(line(p).find("BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4')"), std::string::npos)
        << line(p);
    p.weights = *parse_weight_choice("awq"); // needs an AWQ checkpoint: not this one
    EXPECT_EQ(line(p), "");
}

TEST(launch_flags, moe_offload_lines_use_llama_cpp_s_own_flags) {
    inference_params p;
    p.engine = engine_kind::llama_cpp;
    check_plan("openai/gpt-oss-120b", p);
}

} // namespace
} // namespace llmplan
