// llmplan estimate MODEL [options] [--json]: memory per device for inference or training.
#include "cmd_estimate.h"

#include "commands.h"
#include "llmplan/load.h"
#include "llmplan/report.h"
#include "llmplan/text_report.h"
#include "llmplan/units.h"

#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace llmplan::cli {
namespace {

template <class E>
E pick(const std::string& v, const char* option, std::initializer_list<std::pair<const char*, E>> rows) {
    std::string allowed;
    for (const auto& [n, e] : rows) {
        if (v == n) return e;
        allowed += std::string(allowed.empty() ? "" : " ") + n;
    }
    fail(fmt::format("{}: \"{}\"; expected one of: {}", option, v, allowed));
}

bool on_off(const std::string& v, const char* option) {
    return pick<bool>(v, option,
                      {
                          {"on",  true },
                          {"off", false}
    });
}

} // namespace

void add_estimate_options(CLI::App* cmd, estimate_options& o) {
    cmd->add_option("MODEL", o.model, "catalog id, config.json, model folder, or .gguf file")->required();
    cmd->add_option("--task", o.task, "infer or train")->check(CLI::IsMember({"infer", "train"}));
    cmd->add_option("--engine", o.engine, "llama.cpp | vllm | transformers [llama.cpp for GGUF, else transformers]");
    cmd->add_option("--device", o.device, "cpu | cuda | metal [cuda]");
    cmd->add_option("--gpus", o.gpus, "number of GPUs [1]");
    cmd->add_option("--weights", o.weights, "f32 f16 bf16 fp8 int8 int4 nf4 gptq-int8 gptq-int4 awq or a GGUF type");
    cmd->add_option("--ctx", o.ctx, "tokens per sequence, prompt plus generated [4096]");
    cmd->add_option("--prompt", o.prompt, "tokens in one prefill pass [= ctx]");
    cmd->add_option("--batch", o.batch, "sequences held at once [1]");
    cmd->add_option("--kv-type", o.kv_type, "f32 f16 bf16 fp8 q8_0 q4_0");
    cmd->add_option("--n-batch", o.n_batch, "llama.cpp logical batch [2048]");
    cmd->add_option("--ubatch", o.ubatch, "llama.cpp physical batch [512]");
    cmd->add_option("--flash-attn", o.flash_attn, "on | off [off]");
    cmd->add_option("--gpu-layers", o.gpu_layers, "llama.cpp layers on the GPU [all]");
    cmd->add_option("--mmap", o.mmap, "on | off [on]");
    cmd->add_option("--gpu-memory-utilization", o.gpu_mem_util, "vLLM fraction of GPU memory [0.9]");
    cmd->add_option("--max-num-seqs", o.max_num_seqs, "vLLM sequences per step [256]");
    cmd->add_option("--pipeline-parallel", o.pipeline_parallel,
                    "vLLM pipeline stages; --gpus = tensor parallel x stages (multi-node) [1]");
    cmd->add_option("--device-memory", o.device_memory, "each GPU's memory, e.g. 80GiB");
    cmd->add_option("--memory", o.memory,
                    "a memory budget per device (e.g. 24GiB): also answer the longest context, the most "
                    "sequences and the best precision that fit");
    // training
    cmd->add_option("--method", o.method, "full | lora | qlora [lora]");
    cmd->add_option("--optimizer", o.optimizer, "adamw | adamw-8bit | sgd | adafactor [adamw]");
    cmd->add_option("--precision", o.precision, "fp32 | bf16-mixed | fp16-mixed | bf16 [bf16-mixed]");
    cmd->add_option("--seq", o.seq, "training sequence length [2048]");
    cmd->add_option("--micro-batch", o.micro_batch, "sequences per GPU step [1]");
    cmd->add_option("--grad-checkpointing", o.grad_ckpt, "on | off [off]");
    cmd->add_option("--lora-rank", o.lora_rank, "LoRA rank [16]");
    cmd->add_option("--lora-targets", o.lora_targets, "all-linear or a list q,k,v,o,gate,up,down [all-linear]");
    cmd->add_option("--zero", o.zero, "DeepSpeed ZeRO stage 0-3 [0]");
    cmd->add_option("--offload-optimizer", o.offload, "on | off [off]");
    cmd->add_option("--train-tokens", o.train_tokens,
                    "plan --task train: tokens the run trains on, e.g. 100M, 2B, 5e8 [100M]");
    cmd->add_flag("--json", o.json, "print JSON (../shared/cli-contract.md)");
    cmd->add_option("--draft", o.draft, "a draft model for speculative decoding, on the same device (MODEL)");
    cmd->add_option("--mmproj", o.mmproj, "llama.cpp: a multimodal projector GGUF loaded beside the model");
    cmd->add_option("--image-size", o.image_size, "pixels per side of one image for a VLM's encoder [the config's]");
    cmd->add_option("--reserve", o.reserve, "memory other processes hold on each device, e.g. 2GiB [0]");
}

resolved_estimate run_estimate(const estimate_options& o) {
    auto m = load_model(o.model);
    if (!m) fail(m.error());
    resolved_estimate r{std::move(*m), {}, std::nullopt, {}, std::nullopt, std::nullopt};
    if (o.task == "train") {
        training_params& t = r.train;
        t.method           = pick<train_method>(
            o.method, "--method",
            {
                          {"full",  train_method::full },
                          {"lora",  train_method::lora },
                          {"qlora", train_method::qlora}
        });
        t.optimizer          = pick<optimizer_kind>(o.optimizer, "--optimizer",
                                           {
                                                        {"adamw",      optimizer_kind::adamw     },
                                                        {"adamw-8bit", optimizer_kind::adamw_8bit},
                                                        {"sgd",        optimizer_kind::sgd       },
                                                        {"adafactor",  optimizer_kind::adafactor }
        });
        t.precision          = pick<train_precision>(o.precision, "--precision",
                                            {
                                                         {"fp32",       train_precision::fp32      },
                                                         {"bf16-mixed", train_precision::bf16_mixed},
                                                         {"fp16-mixed", train_precision::fp16_mixed},
                                                         {"bf16",       train_precision::bf16      }
        });
        t.seq                = o.seq;
        t.micro_batch        = o.micro_batch;
        t.grad_checkpointing = on_off(o.grad_ckpt, "--grad-checkpointing");
        t.lora_rank          = o.lora_rank;
        t.lora_targets.clear();
        for (auto& s : CLI::detail::split(o.lora_targets, ','))
            t.lora_targets.push_back(s);
        t.gpus              = o.gpus;
        t.zero_stage        = o.zero;
        t.offload_optimizer = on_off(o.offload, "--offload-optimizer");
        if (o.zero > 3) fail(fmt::format("--zero: {}; expected 0, 1, 2 or 3", o.zero));
        auto e = estimate_training(r.model, t);
        if (!e) fail(e.error());
        r.training = std::move(*e);
        return r;
    }
    inference_params& p = r.infer;
    // Default engine: llama.cpp for a GGUF file or a GGUF type asked of any model, else transformers.
    if (!o.weights.empty()) {
        auto w = parse_weight_choice(o.weights);
        if (!w) fail(w.error());
        p.weights = *w;
    }
    const bool gguf_asked = p.weights.format == weight_format::gguf;
    const std::string engine =
        !o.engine.empty() ? o.engine : (r.model.from_gguf || gguf_asked ? "llama.cpp" : "transformers");
    p.engine = pick<engine_kind>(engine, "--engine",
                                 {
                                     {"llama.cpp",    engine_kind::llama_cpp   },
                                     {"vllm",         engine_kind::vllm        },
                                     {"transformers", engine_kind::transformers}
    });
    p.device =
        pick<device_kind>(o.device, "--device",
                          {
                              {"cpu",   device_kind::cpu  },
                              {"cuda",  device_kind::cuda },
                              {"metal", device_kind::metal}
    });
    p.gpus              = o.gpus;
    p.pipeline_parallel = o.pipeline_parallel;
    p.ctx               = o.ctx;
    p.prompt            = o.prompt;
    p.batch             = o.batch;
    if (!o.kv_type.empty()) {
        auto k = dtype_from_name(o.kv_type);
        if (!k) fail(fmt::format("--kv-type: \"{}\"; expected f32 f16 bf16 fp8 q8_0 q4_0", o.kv_type));
        p.kv_type = *k;
    }
    p.n_batch                = o.n_batch;
    p.n_ubatch               = o.ubatch;
    p.flash_attn             = on_off(o.flash_attn, "--flash-attn");
    p.gpu_layers             = o.gpu_layers;
    p.mmap                   = on_off(o.mmap, "--mmap");
    p.gpu_memory_utilization = o.gpu_mem_util;
    p.max_num_seqs           = o.max_num_seqs;
    if (!o.device_memory.empty()) {
        auto b = parse_size_bytes(o.device_memory, "--device-memory");
        if (!b) fail(b.error());
        p.device_memory_bytes = *b;
    }
    if (!o.draft.empty()) {
        auto d = load_model(o.draft);
        if (!d) fail(fmt::format("--draft: {}", d.error().what()));
        p.draft = std::make_shared<const model_desc>(std::move(*d));
    }
    if (!o.mmproj.empty()) {
        auto b = projector_file_bytes(o.mmproj);
        if (!b) fail(fmt::format("--mmproj: {}", b.error().what()));
        p.mmproj_bytes = *b;
    }
    if (!o.reserve.empty()) {
        auto b = parse_size_bytes(o.reserve, "--reserve");
        if (!b) fail(b.error());
        p.reserve_bytes = *b;
    }
    p.image_size = o.image_size;
    auto e       = estimate_inference(r.model, p);
    if (!e) fail(e.error());
    r.inference = std::move(*e);
    if (!o.memory.empty()) {
        auto b = parse_size_bytes(o.memory, "--memory");
        if (!b) fail(b.error());
        r.fit = fit_in_memory(r.model, p, *b);
    }
    return r;
}

nlohmann::json to_json(const resolved_estimate& r) {
    if (r.training) return training_to_json(r.model, r.train, *r.training);
    auto j = inference_to_json(r.model, r.infer, *r.inference);
    if (r.fit) j["fit"] = fit_to_json(*r.fit);
    return j;
}

void add_estimate_command(CLI::App& app) {
    auto opt  = std::make_shared<estimate_options>();
    auto* cmd = app.add_subcommand("estimate", "Memory per device to run or train a model, as a breakdown");
    add_estimate_options(cmd, *opt);
    cmd->callback([opt] {
        const auto r = run_estimate(*opt);
        if (opt->json)
            print_json(to_json(r));
        else if (r.training)
            std::fputs(training_to_text(r.model, r.train, *r.training).c_str(), stdout);
        else {
            std::fputs(inference_to_text(r.model, r.infer, *r.inference).c_str(), stdout);
            if (r.fit) std::fputs(fit_to_text(*r.fit).c_str(), stdout);
        }
    });
}

} // namespace llmplan::cli
