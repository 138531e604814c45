// llama.cpp: the buffers it reports (model, KV, compute, output) and what becomes resident.
// Buffer formulas were fitted on llama.cpp's own buffer lines in tests/data/truth/llamacpp_cpu_measured.json
// (llama.cpp as bundled in node-llama-cpp 3.21.1; notes in tests/data/truth/llamacpp_cpu_notes.md):
// the KV and output formulas are exact there, the compute formula within a few MiB.
#include "detail/checked_number.h"
#include "detail/size_units.h"
#include "estimate/engines.h"

#include <algorithm>
#include <fmt/format.h>

namespace llmplan {
namespace {

using detail::mib_bytes;

/// llama.cpp pads the context (KV cells) to a multiple of 256 (llama_context: GGML_PAD(n_ctx, 256)).
constexpr std::uint64_t ctx_pad = 256;
std::uint64_t pad(std::uint64_t n, std::uint64_t to) {
    return (n + to - 1) / to * to;
}

/// The graph's non-attention f32 intermediates beyond the logits: r = 5.4 * n_embd * n_ubatch * 4
/// bytes, the residual of the FA-off compute buffers in llamacpp_cpu_measured.json (5.3 to 5.5).
constexpr double fa_off_residual_per_embd = 5.4;

/// Tokenizer memory: llama_vocab keeps every token string and every BPE merge in maps. A vocab-only
/// load costs 160.8 MiB for Qwen2 (151,936 tokens + 151,387 merges) and 216.3 MiB for Llama-3
/// (128,256 tokens + 280,147 merges) (llamacpp_cpu_measured.json vocab_only_loads); solving the
/// two gives 557 and 554 bytes per token and per merge, i.e. one rate of ~556 bytes per entry.
constexpr std::uint64_t tokenizer_bytes_per_entry = 556;
/// BPE merges: the GGUF's own count when a file was read; for a config-only model the known counts
/// of the tokenizers above by vocabulary size; otherwise one merge per token.
std::uint64_t bpe_merges(const model_desc& m) {
    if (m.n_merges) return m.n_merges;
    const std::uint64_t n_vocab = m.n_vocab;
    if (n_vocab == 151936 || n_vocab == 152064) return 151387; // Qwen2/2.5/3 tokenizer
    if (n_vocab == 128256) return 280147;                      // Llama-3 tokenizer
    if (n_vocab == 32000 || n_vocab == 32064) return 0;        // SentencePiece (Llama-2, Phi-3): no merges
    return n_vocab;
}
/// Resident working set of an evaluation beyond the buffers: peak RSS minus (baseline + weights +
/// KV + output + tokenizer) was 20-22 MiB in the 64-token runs of llamacpp_cpu_measured.json.
constexpr std::uint64_t eval_working_set = 21 * mib_bytes;
/// CUDA context, cuBLAS handles and kernels loaded by the CUDA backend (nvidia-smi minus llama.cpp's
/// buffers; the common figure for a CUDA 12 context on Ampere/Hopper is 300-500 MiB).
constexpr std::uint64_t llamacpp_cuda_context_bytes = 400 * mib_bytes;
/// The CUDA backend takes over CPU-resident matrix products from this batch size up
/// (ggml_backend_cuda_device_offload_op: min_batch_size 32).
constexpr std::uint64_t offload_min_batch = 32;
/// llama-server's host prompt cache: --cache-ram's default, 8192 MiB (llama.cpp PR 16391; logged
/// "prompt cache is enabled, size limit: 8192 MiB", ollama issue 18072, Aug 2026), in builds from
/// b7200 (Dec 2025, after the Oct 2025 merge) and every semantic-version release.
constexpr std::uint64_t host_prompt_cache_mib        = 8192;
constexpr std::uint32_t host_prompt_cache_from_build = 7200;

} // namespace

result<inference_estimate> estimate_llamacpp(const model_desc& m, const inference_params& p,
                                             const weights_estimate& w) {
    inference_estimate r;
    r.weights      = w;
    const dtype kv = p.kv_type.value_or(dtype::f16);
    r.kv_type      = kv;

    // Context: n_ctx is the total over all sequences (llama.cpp -c with -np sequences).
    const std::uint64_t n_ctx   = pad(p.ctx * p.batch, ctx_pad);
    const std::uint64_t n_batch = std::min(p.n_batch, n_ctx);
    const std::uint64_t n_ub    = std::min(p.n_ubatch, n_batch);

    // KV: sliding-window layers keep min(n_ctx, pad(n_swa * n_seq + n_ubatch, 256)) cells
    // (llama_kv_cache_iswa); the rest keep n_ctx.
    std::vector<std::uint64_t> kv_layer(m.n_layer, 0);
    std::uint64_t kv_total = 0;
    for (std::uint32_t i = 0; i < m.n_layer; ++i) {
        const auto& l             = m.layers[i];
        const std::uint64_t cells = l.n_swa ? std::min(n_ctx, pad(l.n_swa * p.batch + n_ub, ctx_pad)) : n_ctx;
        // Linear-attention layers: one recurrent state slot per sequence (llama_memory_recurrent).
        kv_layer[i] = kv_layer_bytes(m, l, engine_kind::llama_cpp, kv, kv, cells) +
                      state_layer_bytes(l, engine_kind::llama_cpp, kv) * p.batch;
        kv_total += kv_layer[i];
        r.kv_bytes_per_token += kv_layer_bytes(m, l, engine_kind::llama_cpp, kv, kv, 1);
        r.state_bytes_per_sequence += state_layer_bytes(l, engine_kind::llama_cpp, kv);
    }

    // Compute buffer (the scheduler's reserve for one ubatch of n_ub tokens):
    //   logits for n_ub outputs plus two n_embd-wide f32 rows: n_ub * 4 * (n_vocab + 2 n_embd);
    //   without flash attention, the f32 KQ scores of every head and the mask over all n_ctx cells
    //   take over at long context: n_ub * n_ctx * 4 * (n_head + 1) + r.
    const std::uint64_t n_head = m.typical_layer().n_head;
    const std::uint64_t rows   = n_ub * 4 * 2 * m.n_embd;
    const std::uint64_t logits = n_ub * 4 * m.n_vocab + rows;
    std::uint64_t compute      = logits;
    // A GPU that does not hold the output layer (all but the last of a layer split) reserves the
    // graph of its layers only: no logits (Qwen3-32B Q5_K_M on two GPUs, ubatch 1024: 0.67 GiB of
    // compute in all, one logits-sized buffer; truth/llamacpp_issue_logs.json).
    std::uint64_t compute_no_head = rows;
    if (p.flash_attn) {
        if (kv != dtype::f16 && kv != dtype::bf16 && kv != dtype::f32) {
            compute += n_ub * m.n_embd * 4; // dequant row
            compute_no_head += n_ub * m.n_embd * 4;
        }
    } else {
        const auto kq =
            n_ub * n_ctx * 4 * (n_head + 1) +
            detail::saturate<std::uint64_t>(fa_off_residual_per_embd * static_cast<double>(m.n_embd * n_ub * 4),
                                            detail::rounding::toward_zero);
        compute         = std::max(compute, kq);
        compute_no_head = std::max(compute_no_head, kq);
    }
    // Output buffer: one row of f32 logits per sequence (llama_context::output_reserve).
    const std::uint64_t output = m.n_vocab * 4 * p.batch;

    const std::uint64_t tokenizer = tokenizer_bytes_per_entry * (m.n_vocab + bpe_merges(m));
    // A GPU build keeps a GPU compute buffer even with no layer offloaded: for batches of 32 tokens
    // and more the scheduler runs the CPU-resident matrix products on the GPU, copying each weight
    // into that buffer (ggml_backend_sched offload_op), so it is sized for the largest such weight,
    // the output matrix, on top of the graph (GLM-Z1-32B BF16, -ngl 0: CUDA0 compute 2084 MiB = its
    // 1776 MiB output matrix + the logits; truth/llamacpp_issue_logs.json, ik_llama.cpp PR 333).
    const bool on_gpu = p.device != device_kind::cpu;
    const bool repack = behaviour_of(engine_kind::llama_cpp, p.version).cpu_repack;

    if (!on_gpu) {
        device_breakdown cpu{"cpu", device_kind::cpu, {}, {}};
        // mmap: the mapped file is resident, and ggml-cpu's repacked copy of q4_0 matrices comes on top
        // (CPU_Mapped + CPU_REPACK buffers); without mmap the repacked copy replaces the original.
        cpu.parts.weights  = w.bytes + (p.mmap && repack ? w.repackable_bytes : 0);
        cpu.parts.kv_cache = kv_total;
        cpu.parts.compute  = compute + output;
        // Resident: weights, KV and output are written; of the reserved compute buffer only the
        // pages an evaluation touches become resident (eval_working_set); the tokenizer's maps come on top.
        const auto resident =
            static_cast<std::int64_t>(cpu.parts.weights + kv_total + output + tokenizer + eval_working_set);
        cpu.parts.overhead = resident - cpu.parts.allocated();
        cpu.notes.push_back("total is resident memory; the reserved compute buffer is mostly never touched");
        r.devices.push_back(std::move(cpu));
        return r;
    }

    // GPU: layers split over the GPUs (llama.cpp --split-mode layer); layers beyond --gpu-layers stay
    // on the CPU; token embeddings always stay in host memory (only rows are gathered).
    const std::uint32_t n_gpu_layers =
        p.gpu_layers < 0 ? m.n_layer : static_cast<std::uint32_t>(std::min<std::int64_t>(p.gpu_layers, m.n_layer));
    const std::uint32_t first_gpu_layer = m.n_layer - n_gpu_layers;
    std::uint64_t layer_sum             = 0;
    for (auto b : w.layer_bytes)
        layer_sum += b;
    // output head + norms (the input tensors, token and per-layer embeddings, stay in host memory)
    const std::uint64_t globals_other = w.bytes - layer_sum - w.token_embd_bytes - w.per_layer_embd_bytes;
    const std::uint64_t output_matrix = m.tied_embd ? w.token_embd_bytes : globals_other;

    device_breakdown cpu{"cpu", device_kind::cpu, {}, {}};
    cpu.parts.weights = w.token_embd_bytes + w.per_layer_embd_bytes;
    for (std::uint32_t i = 0; i < first_gpu_layer; ++i) {
        cpu.parts.weights += w.layer_bytes[i];
        cpu.parts.kv_cache += kv_layer[i];
    }
    cpu.parts.compute     = output;
    cpu.parts.overhead    = static_cast<std::int64_t>(tokenizer + eval_working_set);
    const bool all_on_gpu = n_gpu_layers == m.n_layer;
    if (!all_on_gpu) cpu.parts.weights += globals_other;

    const std::uint32_t gpus = std::max<std::uint32_t>(1, p.gpus);
    for (std::uint32_t g = 0; g < gpus; ++g) {
        device_breakdown d{"cuda:" + std::to_string(g), p.device, {}, {}};
        if (p.device == device_kind::metal) d.device = "metal";
        // Contiguous layer ranges, equal counts (llama.cpp's default tensor split is by free memory;
        // equal GPUs get equal shares).
        const std::uint32_t lo = first_gpu_layer + n_gpu_layers * g / gpus;
        const std::uint32_t hi = first_gpu_layer + n_gpu_layers * (g + 1) / gpus;
        for (std::uint32_t i = lo; i < hi; ++i) {
            // --n-cpu-moe: this layer's routed experts live in host RAM (CPU buffer), the rest here.
            const std::uint64_t experts =
                i < p.cpu_moe_layers && i < w.layer_expert_bytes.size() ? w.layer_expert_bytes[i] : 0;
            d.parts.weights += w.layer_bytes[i] - experts;
            cpu.parts.weights += experts;
            d.parts.kv_cache += kv_layer[i];
        }
        if (g == gpus - 1 && all_on_gpu) d.parts.weights += globals_other;
        // A tied output matrix is the token embedding, which stays in host memory: the loader creates
        // a second copy of it in the output layer's GPU buffer (llama_model::load_tensors,
        // TENSOR_DUPLICATED reuses a tensor only within the same buffer type). gemma-3-27b Q4_K_M,
        // -ngl 99: the buffers sum to the file + its 1.16 GB Q6_K token_embd
        // (truth/llamacpp_issue_logs.json).
        if (g == gpus - 1 && all_on_gpu && m.tied_embd) d.parts.weights += w.token_embd_bytes;
        // every backend reserves a graph buffer for its share; the head's logits on the last one
        d.parts.compute = g == gpus - 1 ? compute : compute_no_head;
        if (!all_on_gpu && g == gpus - 1 && p.device == device_kind::cuda && n_ub >= offload_min_batch)
            d.parts.compute += output_matrix;
        // The same copy-to-GPU for CPU-resident experts (--n-cpu-moe): the buffer holds the largest
        // such tensor, one of a layer's three (gate, up, down) expert stacks.
        if (p.cpu_moe_layers > 0 && g == 0 && p.device == device_kind::cuda && n_ub >= offload_min_batch) {
            std::uint64_t largest = 0;
            for (std::size_t i = 0; i < std::min<std::size_t>(p.cpu_moe_layers, w.layer_expert_bytes.size()); ++i)
                largest = std::max(largest, w.layer_expert_bytes[i] / 3);
            d.parts.compute += largest;
        }
        d.parts.overhead = static_cast<std::int64_t>(llamacpp_cuda_context_bytes);
        r.devices.push_back(std::move(d));
    }
    r.devices.insert(r.devices.begin(), std::move(cpu));
    // llama-server's host prompt cache (PR 16391, merged Oct 2025, in b7200 and later): idle slots'
    // KV state is saved to RAM when a slot takes a new prompt, up to --cache-ram 8192 MiB ("prompt
    // cache is enabled, size limit: 8192 MiB", ollama issue 18072); it grows with traffic, not at start.
    const engine_version v = p.version.known() ? p.version : default_engine_version(engine_kind::llama_cpp);
    if (v.key() >= engine_version{host_prompt_cache_from_build, 0, 0}.key())
        r.notes.push_back(fmt::format("llama-server may also hold up to {} MiB of earlier prompts in host RAM as "
                                      "it serves (--cache-ram; 0 turns it off), not counted here",
                                      host_prompt_cache_mib));
    return r;
}

} // namespace llmplan
