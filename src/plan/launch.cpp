// Launch lines for a plan: llama-server, rpc-server, Ollama, vllm serve and Ray, transformers in Python.
#include "estimate/engine_traits.h"
#include "plan/detail.h"
#include "plan/launch_engines.h"
#include "plan/launch_source.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <optional>

namespace llmplan::detail {
namespace {

/// The GGUF file to load: the one the user named, else the name llama.cpp's convert + quantize
/// would give the catalog model.
std::string gguf_name(const model_desc& m, const inference_params& p) {
    if (m.from_gguf) return m.gguf_path.empty() ? m.id : m.gguf_path;
    std::string base        = m.id.substr(m.id.find_last_of('/') + 1);
    const std::string ftype = p.weights.format == weight_format::gguf ? p.weights.gguf_ftype : "f16";
    return base + "-" + ftype + ".gguf";
}

/// Ollama (runs GGUF files on llama.cpp) sets the context per model in a Modelfile line
/// `PARAMETER num_ctx N` and the GPU layers in `PARAMETER num_gpu N` (docs/modelfile.md); parallel
/// requests, flash attention and the KV type are the server's environment (docs/faq.md):
/// OLLAMA_NUM_PARALLEL, OLLAMA_FLASH_ATTENTION=1, OLLAMA_KV_CACHE_TYPE (f16, q8_0 or q4_0, which
/// needs flash attention on). Ollama allocates num_ctx x OLLAMA_NUM_PARALLEL slots, as llama-server's -c.
/// Ollama has no option to keep experts in RAM: no line then.
std::optional<std::string> ollama_line(const std::string& gguf, const inference_params& p) {
    if (p.cpu_moe_layers > 0) return std::nullopt;
    if (p.kv_type && *p.kv_type != dtype::f16 && *p.kv_type != dtype::q8_0 && *p.kv_type != dtype::q4_0)
        return std::nullopt;
    std::string tag = gguf.substr(0, gguf.rfind(".gguf"));
    tag             = tag.substr(tag.find_last_of('/') + 1);
    std::transform(tag.begin(), tag.end(), tag.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    // num_ctx always: without it Ollama picks the context from the VRAM it finds (>= 47 GiB 262144,
    // >= 23 GiB 32768, else 4096 tokens: ollama/ollama server/routes.go "vram-based default context",
    // commit fb30760, 2026-08-21), not the context this estimate is for.
    std::string params = fmt::format("PARAMETER num_ctx {}\\n", p.ctx);
    if (p.gpu_layers >= 0 || p.device == device_kind::cpu)
        params += fmt::format("PARAMETER num_gpu {}\\n", p.device == device_kind::cpu ? 0 : p.gpu_layers);
    // An Ollama library tag ("llama3.1:8b") is pulled and named as it is; a file is read from ./.
    const bool library = gguf.find(':') != std::string::npos && gguf.find('/') == std::string::npos;
    if (library) {
        tag = gguf;
        std::replace(tag.begin(), tag.end(), ':', '-');
        tag += fmt::format("-ctx{}", p.ctx);
    }
    std::string s = fmt::format("printf 'FROM {}\\n{}' > Modelfile && ollama create {} -f Modelfile && ollama run {}",
                                gguf.find('/') == std::string::npos && !library ? "./" + gguf : gguf, params, tag, tag);
    if (gguf.starts_with("hf.co/") || library)
        s = fmt::format("ollama pull {} && ", gguf) + s; // FROM names a pulled model
    std::string env;
    if (p.batch > 1) env += fmt::format("OLLAMA_NUM_PARALLEL={} ", p.batch);
    if (p.flash_attn) env += "OLLAMA_FLASH_ATTENTION=1 ";
    if (p.kv_type && *p.kv_type != dtype::f16) env += fmt::format("OLLAMA_KV_CACHE_TYPE={} ", name(*p.kv_type));
    if (!env.empty()) s = env + "ollama serve & " + s;
    return s;
}

/// llama.cpp's --n-cpu-moe N, or --cpu-moe when N covers every layer (common/arg.cpp: both add
/// overrides of the layers' `ffn_(up|down|gate)_exps` tensors to the CPU buffer, as `-ot exps=CPU`).
std::string cpu_moe_flags(const model_desc& m, const inference_params& p) {
    if (p.cpu_moe_layers == 0 || p.device == device_kind::cpu) return {};
    return p.cpu_moe_layers >= m.n_layer ? " --cpu-moe" : fmt::format(" --n-cpu-moe {}", p.cpu_moe_layers);
}

/// transformers has no server of its own that takes a model on its command line across versions, so its
/// line is a Python one-liner through pipeline("text-generation") (transformers docs, "Pipelines"):
/// torch_dtype (dtype from transformers 5) as the plan sizes the weights ("auto" = the checkpoint's
/// torch_dtype; without it 4.x from_pretrained loads float32, twice the planned bytes), device_map "auto" (accelerate
/// places the layers on the GPUs, then RAM) or "cpu", and bitsandbytes' BitsAndBytesConfig for int8 and NF4
/// (transformers docs, "bitsandbytes"). Formats that need a pre-quantized checkpoint of their own
/// (fp8, int4, GPTQ, AWQ, GGUF) get no line: the checkpoint named is not that one.
std::optional<std::string> transformers_line(const model_desc& m, const inference_params& p) {
    // transformers 5 names the argument dtype (torch_dtype deprecated since 4.56) and defaults it to
    // "auto" (engine_versions.cpp); the line still says it, so that it reads the same in every release.
    const bool v5       = behaviour_of(engine_kind::transformers, p.version).dtype_auto_default;
    const std::string k = v5 ? "dtype" : "torch_dtype";
    std::string dtype_arg;
    switch (p.weights.format) {
    case weight_format::native:
        dtype_arg = k + "='auto'";
        break;
    case weight_format::f32:
        dtype_arg = k + "='float32'";
        break;
    case weight_format::f16:
        dtype_arg = k + "='float16'";
        break;
    case weight_format::bf16:
        dtype_arg = k + "='bfloat16'";
        break;
    case weight_format::int8:
        dtype_arg = k + "='auto', model_kwargs={'quantization_config': BitsAndBytesConfig(load_in_8bit=True)}";
        break;
    case weight_format::nf4:
        dtype_arg = k + "='auto', model_kwargs={'quantization_config': "
                        "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4')}";
        break;
    default:
        return std::nullopt;
    }
    const std::string model = python_model_args(m);
    if (m.from_gguf || m.id.empty() || model.empty()) return std::nullopt;
    const bool bnb = p.weights.format == weight_format::int8 || p.weights.format == weight_format::nf4;
    return fmt::format("python3 -c \"from transformers import pipeline{}; "
                       "p = pipeline('text-generation', {}, {}, device_map='{}'); "
                       "print(p('Hello', max_new_tokens=64)[0]['generated_text'])\"",
                       bnb ? ", BitsAndBytesConfig" : "", model, dtype_arg,
                       p.device == device_kind::cpu ? "cpu" : "auto");
}

} // namespace

std::vector<std::pair<std::string, std::string>> launch_lines(const model_desc& m, const inference_params& p,
                                                              unsigned count, unsigned nodes, bool bf16_ok) {
    std::vector<std::pair<std::string, std::string>> out;
    using launch     = detail::engine_traits::launch_kind;
    const launch how = detail::traits_of(p.engine).launch;
    if (how == launch::llama_server) {
        // A catalog model with a GGUF repo known to carry this quant is fetched from it (-hf REPO:QUANT);
        // else "-m FILE" or, for a GGUF read from the Hub, "-hf ORG/NAME:QUANT".
        const std::string ftype = p.weights.format == weight_format::gguf ? p.weights.gguf_ftype : std::string();
        const std::string known = known_gguf_repo_tag(m, ftype);
        const std::string model = known.empty() ? llama_model_arg(m, gguf_name(m, p)) : "-hf " + known;
        // llama-server's -c is the context of all slots together: ctx x parallel sequences.
        std::string s = fmt::format("llama-server {} -c {} -ngl {} -np {}", model, p.ctx * p.batch,
                                    p.device == device_kind::cpu ? 0
                                    : p.gpu_layers >= 0          ? p.gpu_layers
                                                                 : 99,
                                    p.batch);
        // A quantized V cache needs flash attention (llama-context.cpp refuses it otherwise).
        const bool fa = p.flash_attn || (p.kv_type && info(*p.kv_type).is_quantized);
        if (fa) s += " -fa on";
        if (p.kv_type) s += fmt::format(" -ctk {0} -ctv {0}", name(*p.kv_type));
        s += cpu_moe_flags(m, p);
        if (count > 1 && p.device != device_kind::cpu) {
            // Layer split (the default --split-mode), equal shares for equal GPUs.
            std::string ts = "1";
            for (unsigned i = 1; i < count / nodes; ++i)
                ts += ",1";
            s += fmt::format(" -sm layer -ts {}", ts);
        }
        if (nodes > 1) {
            // llama.cpp spans machines through its RPC backend (tools/rpc): one rpc-server per other
            // node, listed with --rpc; layers are split over local and remote devices. 50052 is
            // rpc-server's default port (tools/rpc/README.md).
            std::string hosts;
            for (unsigned i = 1; i < nodes; ++i)
                hosts += fmt::format("{}node{}:50052", i > 1 ? "," : "", i);
            s += " --rpc " + hosts;
            out.emplace_back("llama.cpp rpc (on each other node)", "rpc-server -H 0.0.0.0 -p 50052");
        }
        out.emplace_back("llama.cpp", std::move(s));
        if (nodes == 1)
            if (auto o = ollama_line(
                    [&] {
                        // The library's tag, else the known Hub repo (Ollama pulls hf.co/REPO:QUANT), else the file.
                        const auto tag = ollama_library_tag(m, ftype);
                        return !tag.empty()     ? tag
                               : !known.empty() ? "hf.co/" + known
                                                : ollama_model(m, gguf_name(m, p));
                    }(),
                    p))
                out.emplace_back("ollama", std::move(*o));
    } else if (how == launch::vllm_serve && p.device == device_kind::cuda) {
        const unsigned pp = std::max(1u, p.pipeline_parallel);
        std::string s     = fmt::format("vllm serve {} --tensor-parallel-size {}", vllm_model_arg(m), count / pp);
        if (pp > 1) s += fmt::format(" --pipeline-parallel-size {}", pp);
        s += fmt::format(" --max-model-len {} --gpu-memory-utilization {} --max-num-seqs {}", p.ctx,
                         gpu_memory_utilization(p), p.batch);
        if (p.kv_type && *p.kv_type == dtype::f8_e4m3) s += " --kv-cache-dtype fp8";
        // a bf16 checkpoint on a chip without bf16: vLLM stops unless told to compute in fp16
        if (!bf16_ok && (m.torch_dtype == dtype::bf16 || p.weights.format == weight_format::bf16))
            s += " --dtype float16";
        if (pp > 1) {
            // vLLM runs multi-node through a Ray cluster (docs: "Distributed inference and serving");
            // 6379 is Ray's default head port.
            out.emplace_back("ray (node0)", "ray start --head --port 6379");
            out.emplace_back("ray (each other node)", "ray start --address node0:6379");
            s += " --distributed-executor-backend ray";
        }
        out.emplace_back("vllm", vllm_env(m) + s);
    } else if (how == launch::sglang_server && p.device == device_kind::cuda && nodes == 1) {
        out.emplace_back("sglang", sglang_launch_line(m, p, count));
    } else if (how == launch::mlx_lm && p.device == device_kind::metal && nodes == 1) {
        out.emplace_back("mlx-lm", mlx_generate_line(m, p));
        out.emplace_back("mlx-lm server", mlx_server_line(m));
    } else if (how == launch::python_pipeline && nodes == 1) {
        if (auto line = transformers_line(m, p)) out.emplace_back("transformers", std::move(*line));
    }
    return out;
}

} // namespace llmplan::detail
