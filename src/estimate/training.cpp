// Training memory per GPU: weights, gradients, optimizer states, fp32 master copy, LoRA adapters,
// activations and the runtime's own memory, for full fine-tuning, LoRA and QLoRA, on one GPU or
// data parallel with ZeRO 1/2/3 (FSDP), optionally with the optimizer offloaded to the CPU.
//
// What differs between trainers (which gradients are alive, the optimizer step's temporaries, the
// k-bit preparation, the loss, dropout, checkpoint placement, how batches vary in length) is a row
// of the trainer table (trainers.cpp, --trainer) with per-run overrides; nothing here branches on a
// trainer's name.
#include "detail/bnb_layout.h"
#include "detail/checked_number.h"
#include "detail/size_units.h"
#include "estimate/runtime.h"
#include "estimate/training_detail.h"
#include "llmplan/units.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace llmplan {
namespace {

using detail::train_habits;
using detail::trained_tensor;

std::string two_decimals(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

using detail::ceil_div;

// Optimizer state bytes of one trained tensor.
std::uint64_t optimizer_bytes(const trained_tensor& t, optimizer_kind k, std::uint64_t state_b) {
    const std::uint64_t n = t.n_elements();
    switch (k) {
    case optimizer_kind::adamw:
        return 2 * n * state_b; // exp_avg and exp_avg_sq
    case optimizer_kind::adamw_8bit:
        // bitsandbytes: two uint8 states + one f32 absmax per 256-element block each; tensors under
        // min_8bit_size = 4096 elements keep 32-bit states.
        if (n < 4096) return 2 * n * 4;
        return 2 * n + 2 * 4 * ceil_div(n, 256);
    case optimizer_kind::sgd:
        return n * state_b; // momentum buffer
    case optimizer_kind::adafactor:
        // factored second moment: a row and a column vector per matrix (Shazeer & Stern 2018;
        // transformers' Adafactor keeps them in fp32, no first moment by default).
        if (t.cols <= 1) return n * 4;
        return (t.rows + t.cols) * t.count * 4;
    }
    return 0;
}

status validate(const model_desc& m, const training_params& p) {
    auto bad = [](std::string msg, std::string ctx) {
        return make_error(error_code::invalid_params, std::move(msg), std::move(ctx));
    };
    if (p.micro_batch == 0) return bad("micro-batch 0; expected at least 1 sequence", "--micro-batch");
    if (p.seq == 0) return bad("sequence length 0; expected at least 1 token", "--seq");
    if (p.gpus == 0) return bad("0 GPUs; expected at least 1", "--gpus");
    if (p.grad_accum == 0 || p.grad_accum > (std::uint64_t{1} << 20))
        return bad("gradient accumulation of " + std::to_string(p.grad_accum) + " micro-steps; expected 1 to 2^20",
                   "--grad-accum");
    if (p.zero_stage > 3)
        return bad("ZeRO stage " + std::to_string(p.zero_stage) + "; expected 0, 1, 2 or 3", "--zero");
    // Bounds that keep every byte count below 2^64 (a 2^26-token sequence is far beyond any model).
    if (p.seq > (std::uint64_t{1} << 26) || p.micro_batch > (std::uint64_t{1} << 16) ||
        p.seq * p.micro_batch > (std::uint64_t{1} << 30))
        return bad("seq x micro-batch of " + std::to_string(p.seq) + " x " + std::to_string(p.micro_batch) +
                       " tokens; expected at most 2^30 tokens",
                   "--seq");
    if (p.gpus > (1u << 20)) return bad("more than 2^20 GPUs", "--gpus");
    if (m.tensors.empty() || m.n_layer == 0 || m.n_embd == 0)
        return make_error(error_code::missing_field,
                          "model has no layers or tensors; expected a described architecture", m.id);
    if (m.n_embd > (std::uint64_t{1} << 20) || m.n_vocab > (std::uint64_t{1} << 24))
        return make_error(error_code::inconsistent_dims, "hidden size or vocabulary out of range", m.id);
    if (p.method == train_method::qlora && m.from_gguf)
        return bad(
            "QLoRA of a GGUF file: its weights are already llama.cpp-quantized and cannot be re-quantized to NF4; "
            "expected the Hugging Face checkpoint",
            m.id);
    if (p.weights.format == weight_format::gguf)
        return bad("GGUF weight types cannot be trained by PyTorch; expected f32, bf16, f16, int8, nf4 or gptq-int4",
                   "--weights");
    if (p.method == train_method::full && p.weights.format != weight_format::native &&
        p.weights.format != weight_format::f32 && p.weights.format != weight_format::f16 &&
        p.weights.format != weight_format::bf16)
        return bad("full fine-tuning of quantized weights; expected --method lora/qlora or 16/32-bit weights",
                   "--weights");
    return ok();
}

} // namespace

result<training_estimate> estimate_training(const model_desc& m, const training_params& p) {
    if (auto v = validate(m, p); !v) return make_error(v.error().code, v.error().message, v.error().context);
    auto hr = detail::resolve_habits(p);
    if (!hr) return make_error(hr.error().code, hr.error().message, hr.error().context);
    const train_habits& h      = *hr;
    const trainer_profile& row = *h.row;

    training_estimate est;
    const bool full       = p.method == train_method::full;
    const bool mixed      = p.precision == train_precision::bf16_mixed || p.precision == train_precision::fp16_mixed;
    const std::uint64_t N = p.gpus;
    const std::uint64_t dense_b = p.precision == train_precision::fp32 ? 4 : 2; // 16-bit everywhere but fp32 training
    auto note                   = [&est](std::string s) { est.assumptions.push_back(std::move(s)); };

    // ---- what is trained, and the frozen base
    std::vector<trained_tensor> trained;
    detail::lora_plan lora;
    if (!full) {
        auto lp = detail::plan_lora(m, p.lora_rank, p.lora_targets);
        if (!lp) return make_error(lp.error().code, lp.error().message, lp.error().context);
        lora            = std::move(lp.value());
        trained         = lora.matrices;
        est.lora_params = lora.params;
    }
    std::uint64_t largest_tensor = 0, largest_global = 0, global_bytes = 0, full_bytes = 0, largest_matrix = 0;
    std::vector<std::uint64_t> layer_bytes(m.n_layer, 0);
    for (const auto& t : m.tensors) {
        const std::uint64_t n = t.n_elements();
        if (t.layer < 0) {
            largest_global = std::max(largest_global, n * dense_b);
            global_bytes += n * dense_b;
        }
        if (is_quantizable_matrix(t)) largest_matrix = std::max(largest_matrix, n);
        if (!full) continue;
        trained_tensor tt{n, 1, 1};
        if (t.shape.size() >= 2) {
            tt.cols = t.shape.back();
            for (std::size_t i = 0; i + 2 < t.shape.size(); ++i)
                tt.count *= t.shape[i];
            tt.rows = n / (tt.cols * tt.count);
        }
        trained.push_back(tt);
        largest_tensor = std::max(largest_tensor, n);
        full_bytes += n * dense_b;
        if (t.layer >= 0 && static_cast<std::uint32_t>(t.layer) < m.n_layer) layer_bytes[t.layer] += n * dense_b;
    }
    if (full && h.untied_head && m.tied_embd) {
        // The trainer's own output layer (training_habits.cpp: LitGPT's lm_head is always a Linear of its own,
        // filled with a copy of a tied embedding): one more vocab x hidden matrix, trained in full with its
        // gradient and optimizer states, in the root unit under FSDP.
        const std::uint64_t n = m.n_vocab * m.n_embd;
        trained.push_back(trained_tensor{m.n_vocab, m.n_embd, 1});
        largest_tensor = std::max(largest_tensor, n);
        largest_global = std::max(largest_global, n * dense_b);
        global_bytes += n * dense_b;
        full_bytes += n * dense_b;
        note("the trainer builds its own output layer: an untied, trained copy of the tied embedding (+" +
             gib_text(static_cast<double>(n * dense_b), 2) + " of weights)");
    }
    std::uint64_t base_bytes = 0, upcast_bytes = 0, transient_weight_bytes = 0;
    bool fp32_residual = false;
    detail::saved_weight_bytes gptq_saved;
    if (!full) {
        // The frozen base: the compute dtype for LoRA (checkpoints are loaded with torch_dtype=bf16/fp16),
        // NF4 for QLoRA (bitsandbytes, as QLoRA's paper), or what --weights / the checkpoint says.
        weight_choice base = p.weights;
        if (base.format == weight_format::native && m.quant.method == quant_method::none)
            base.format = p.method == train_method::qlora              ? weight_format::nf4
                          : p.precision == train_precision::fp32       ? weight_format::f32
                          : p.precision == train_precision::fp16_mixed ? weight_format::f16
                                                                       : weight_format::bf16;
        base   = resolve_weight_choice(m, base);
        auto w = estimate_weights(m, base);
        if (!w) return make_error(w.error().code, w.error().message, w.error().context);
        base_bytes  = w->bytes;
        layer_bytes = w->layer_bytes;
        layer_bytes.resize(m.n_layer, 0);
        note("frozen base weights: " + w->how);
        // The output layer as the trainer builds it (training_habits.cpp): an untied copy of a tied
        // embedding, and under its 4-bit path an NF4 one (0.5 byte a weight + an fp32 absmax per 64:
        // bitsandbytes' blocksize; Fabric's "nf4" mode has no double quantization).
        const std::uint64_t head_elems = m.n_vocab * m.n_embd;
        const bool bnb4                = base.format == weight_format::nf4;
        const bool head_4bit           = bnb4 && h.quantizes_head;
        const std::uint64_t head_nf4   = detail::bnb4_matrix_bytes(head_elems, false);
        if (h.untied_head && m.tied_embd) {
            const std::uint64_t copy = head_4bit ? head_nf4 : head_elems * dense_b;
            base_bytes += copy;
            note("the trainer builds its own output layer: an untied copy of the tied embedding (+" +
                 gib_text(static_cast<double>(copy), 2) + (head_4bit ? ", in NF4)" : ")"));
        } else if (head_4bit && head_elems * 2 > head_nf4) {
            base_bytes -= std::min(base_bytes, head_elems * 2 - head_nf4);
            note("the trainer's 4-bit path quantizes the output layer too (NF4)");
        }
        if (head_4bit) largest_matrix = std::max(largest_matrix, head_elems);
        if (bnb4 && h.nf4_plain_absmax) {
            // The trainer's NF4 has no double quantization (training_habits.cpp): an fp32 absmax per block of
            // 64 where the nf4 format above counts an 8-bit one and an fp32 scale per 256 blocks.
            std::uint64_t extra = 0;
            for (const auto& t : m.tensors) {
                if (!is_quantizable_matrix(t) || t.role == tensor_role::output || t.shape.size() < 2) continue;
                const std::uint64_t per_mat = t.shape[t.shape.size() - 2] * t.shape.back();
                const std::uint64_t n_mat   = t.n_elements() / std::max<std::uint64_t>(per_mat, 1);
                const std::uint64_t plain   = detail::bnb4_absmax_bytes(per_mat, false);
                const std::uint64_t dq      = detail::bnb4_absmax_bytes(per_mat, true);
                const std::uint64_t more    = n_mat * (plain > dq ? plain - dq : 0);
                extra += more;
                if (t.layer >= 0 && static_cast<std::uint32_t>(t.layer) < m.n_layer) layer_bytes[t.layer] += more;
            }
            base_bytes += extra;
            note("the trainer's NF4 keeps an fp32 absmax per 64 weights, without double quantization (+" +
                 gib_text(static_cast<double>(extra), 2) + ")");
        }
        // Torch's own linear (16-bit) and auto-gptq's torch-op path keep no input of a frozen weight;
        // bitsandbytes' and AWQ's autograd functions do (training_activations.cpp, unsaved_inputs). So does
        // DeepSpeed ZeRO-3: zero.Init (memory_efficient_linear, on by default) replaces
        // torch.nn.functional.linear with zero3_linear_wrap for good ("This will persist unless manually
        // reset"), whose LinearFunctionForZeroStage3 runs `ctx.save_for_backward(input, weight, bias)` for
        // every linear (microsoft/DeepSpeed deepspeed/runtime/zero/partition_parameters.py and
        // deepspeed/runtime/zero/linear.py @ 38327e07).
        const bool zero3_linear = row.deepspeed_zero && p.zero_stage == 3;
        gptq_saved.base_keeps_inputs =
            zero3_linear || !(base.format == weight_format::f32 || base.format == weight_format::f16 ||
                              base.format == weight_format::bf16 || base.format == weight_format::gptq_int4 ||
                              base.format == weight_format::gptq_int8);
        // bitsandbytes' autograd functions keep that input on their context, not via save_for_backward
        // (training_activations.cpp, ctx_held): a non-reentrant checkpoint cannot drop it.
        gptq_saved.ctx_held_inputs = base.format == weight_format::nf4 || base.format == weight_format::int8;
        if (base.format == weight_format::gptq_int4 || base.format == weight_format::gptq_int8) {
            // auto-gptq's QuantLinear trains through plain torch ops (qlinear_cuda_old.py forward, taken when the
            // tokens reach kernel_switch_threshold = 128 or the layer is trainable): it unpacks qweight, forms
            // `weight = scales * (weight - zeros)` in fp16 and runs `torch.matmul(x, weight)`, and autograd keeps
            // that fp16 weight for x's gradient (matmul's backward for the input needs the other operand). So
            // each GPTQ linear holds a 16-bit copy of itself until its backward: every layer's without
            // checkpointing, the recomputed layer's with it. (AutoAWQ's WQLinearMMFunction keeps x and the
            // packed weight and dequantizes again in backward: nothing of this size.)
            std::vector<std::uint64_t> per_layer(m.n_layer, 0);
            for (const auto& t : m.tensors)
                if (is_quantizable_matrix(t) && t.layer >= 0 && static_cast<std::uint32_t>(t.layer) < m.n_layer)
                    per_layer[t.layer] += t.n_elements() * 2;
            for (const std::uint64_t b : per_layer) {
                gptq_saved.largest_layer = std::max(gptq_saved.largest_layer, b);
                gptq_saved.all_layers += b;
            }
            note("GPTQ linears dequantize to fp16 with torch ops and autograd keeps that copy for the input "
                 "gradient (" +
                 gib_text(static_cast<double>(p.grad_checkpointing ? gptq_saved.largest_layer : gptq_saved.all_layers),
                          2) +
                 (p.grad_checkpointing ? ", the recomputed layer's)" : ", every layer's)"));
        }
        if (is_quantized(base.format)) {
            // A quantized matmul dequantizes its weight to 16-bit for forward and again for the input
            // gradient (bitsandbytes MatMul4Bit, auto-gptq's training path): one matrix at a time; two
            // copies at once where the 4-bit state is fp16 and the compute dtype bf16 (dequant_via_fp16).
            const bool two_copies  = bnb4 && h.dequant_via_fp16 && p.precision == train_precision::bf16;
            transient_weight_bytes = largest_matrix * (two_copies ? 4 : 2);
            if (base.format == weight_format::gptq_int4 || base.format == weight_format::gptq_int8) {
                // auto-gptq's torch path unpacks through int32 first (qlinear_cuda_old.py, the same in v0.4.2 @
                // ef442d9f and v0.5.1 @ f4c96810, l.244 in v0.5.1): torch.bitwise_right_shift over qweight expanded
                // to every weight is an int32 tensor (4 bytes a weight), and its .to(int8) (4-bit; int16 for
                // 8-bit) copy exists beside it; `scales * (weight - zeros)` later holds that copy, the difference
                // and the fp16 result (1 + 1 + 2 bytes; 2 + 2 + 2 for 8-bit). The peak: 5 bytes a weight of the
                // largest matrix for 4-bit, 6 for 8-bit, where 2 (the fp16 weight) were counted.
                transient_weight_bytes = largest_matrix * (base.format == weight_format::gptq_int8 ? 6 : 5);
            }
            const bool bnb = base.format == weight_format::nf4 || base.format == weight_format::int8;
            if (bnb && row.kbit_upcast) {
                // prepare_model_for_kbit_training: every 16-bit parameter left (embeddings, norms,
                // lm_head) becomes fp32; autocast then makes a 16-bit copy of lm_head for its matmul,
                // and the fp32 embeddings make the residual stream (and its checkpoints) fp32.
                upcast_bytes = w->unquantized_bytes;
                transient_weight_bytes += largest_global;
                fp32_residual = true;
                note("k-bit preparation: embeddings, norms and lm_head upcast to fp32 (+" +
                     gib_text(static_cast<double>(upcast_bytes), 2) + ")");
            }
        }
    }
    const std::uint64_t largest_layer =
        layer_bytes.empty() ? 0 : *std::max_element(layer_bytes.begin(), layer_bytes.end());

    std::uint64_t P = 0;
    for (const auto& t : trained)
        P += t.n_elements();
    // PEFT modules_to_save (LoRA targets embed/lm_head): a trainable copy at the base module's dtype
    // (fp32 after a k-bit upcast); under DeepSpeed mixed precision an fp32 master and fp32 states, else
    // torch's states follow the param (zeros_like).
    const std::uint64_t Ps          = full ? 0 : lora.saved_params;
    const std::uint64_t saved_b     = upcast_bytes > 0 || p.precision == train_precision::fp32 ? 4 : dense_b;
    const bool ds_mixed             = row.deepspeed_zero && p.zero_stage > 0 && mixed;
    const std::uint64_t saved_mst_b = ds_mixed && saved_b == 2 ? 4 : 0;
    const std::uint64_t saved_st_b  = saved_mst_b > 0 ? 4 : saved_b;
    est.trainable_params            = P + Ps;

    // ---- bytes a trained parameter costs
    // Full: params and grads at the training dtype, fp32 master copy under mixed precision.
    // LoRA: adapters in fp32 under mixed precision (PEFT's autocast_adapter_dtype=True upcasts 16-bit
    // ones, PEFT >= 0.12; the other trainers keep the trainable parameters in fp32), in bf16 when the
    // run is pure bf16 (every trained tensor bf16: train_habits::fp32_adapters).
    const std::uint64_t param_b  = full ? dense_b : (p.precision != train_precision::bf16 ? 4 : 2);
    const std::uint64_t grad_b   = param_b;
    const std::uint64_t master_b = (full && mixed) ? 4 : 0;
    // Optimizer states follow the fp32 master/adapters, or the 16-bit params in pure bf16 (torch
    // creates them with zeros_like(param)).
    const std::uint64_t state_b = full ? (p.precision == train_precision::bf16 ? 2 : 4) : param_b;
    std::uint64_t opt_total     = 0;
    for (const auto& t : trained)
        opt_total += optimizer_bytes(t, p.optimizer, state_b);
    std::uint64_t opt_saved = 0;
    for (const auto& t : lora.saved)
        opt_saved += optimizer_bytes(t, p.optimizer, saved_st_b);

    const bool zero_ds             = row.deepspeed_zero && p.zero_stage > 0;
    const bool sharded             = N > 1 && p.zero_stage >= 1;
    const std::uint64_t shard_opt  = sharded ? N : 1;
    const std::uint64_t shard_grad = (N > 1 && p.zero_stage >= 2) ? N : 1;
    const std::uint64_t shard_w    = (N > 1 && p.zero_stage >= 3) ? N : 1;

    // A VLM's vision tower (m.vision: encoder + projector, src/model/vision.cpp) is loaded with the model
    // and frozen by the recipes' defaults (Qwen-VL finetune.py fix_vit=True; LLaVA trains only the
    // projector and the LM): its weights at the checkpoint's 16-bit dtype (fp32 when training in fp32 or
    // after a k-bit upcast, which turns every non-quantized parameter to fp32), no gradient, no optimizer
    // state; the frozen encoder keeps no activation for backward (neither its inputs nor its
    // parameters need a gradient).
    const std::uint64_t tower_b = p.precision == train_precision::fp32 || upcast_bytes > 0 ? 4 : 2;
    const std::uint64_t tower   = m.vision.n_layer > 0 ? m.vision.n_params * tower_b : 0;

    memory_parts g;
    g.weights        = ceil_div((full ? full_bytes : base_bytes + upcast_bytes) + tower, shard_w);
    g.adapters       = full ? 0 : ceil_div(P * param_b, shard_w);
    g.gradients      = ceil_div(P * grad_b, shard_grad);
    g.optimizer      = ceil_div(opt_total, shard_opt);
    g.master_weights = ceil_div(P * master_b, shard_opt);
    g.compute        = transient_weight_bytes;

    if (h.in_backward) {
        g.gradients = largest_tensor * grad_b;
        note("the optimizer steps each parameter as soon as its gradient is ready (optimizer in backward): only "
             "the largest gradient is alive");
    } else {
        note("every gradient is kept until the optimizer step (gradient accumulation)");
    }
    if (Ps > 0) {
        g.adapters += ceil_div(Ps * saved_b, shard_w);
        g.gradients += ceil_div(Ps * saved_b, shard_grad);
        g.optimizer += ceil_div(opt_saved, shard_opt);
        g.master_weights += ceil_div(Ps * saved_mst_b, shard_opt);
        note("modules trained whole (PEFT modules_to_save): " + std::to_string(Ps) + " params, a trainable " +
             std::to_string(saved_b * 8) + "-bit copy beside the frozen original");
    }

    // ---- data-parallel buffers
    std::uint64_t ds3_flat_tmp = 0; // DeepSpeed ZeRO-3's 16-bit flattened gradient sub-group at the step
    if (N > 1 && p.zero_stage == 0) {
        g.gradients += P * grad_b + Ps * saved_b; // DDP's flat gradient buckets (gradient_as_bucket_view=False)
        note("DDP keeps a second copy of the gradients in its all-reduce buckets");
    } else if (p.zero_stage >= 1 && p.zero_stage <= 2 && row.deepspeed_zero) {
        // DeepSpeed ZeRO-1/2: every backward() allocates the gradient-reduction (IPG) buffer, reduce_bucket_size
        // elements of the model's 16-bit dtype, and a second one with overlap_comm (stage_1_and_2.py; the config
        // below sets both), whatever the number of trained parameters and on one GPU as on several.
        g.gradients += 2 * detail::ds_bucket_elements * dense_b;
    } else if (p.zero_stage == 3 && (N > 1 || row.deepspeed_zero)) {
        if (row.deepspeed_zero) {
            // DeepSpeed ZeRO-3 keeps gathered 16-bit parameters alive up to stage3_max_live_parameters
            // (1e9 in the config below and Qwen's ds_config_zero3.json), re-gathered ones within
            // stage3_max_reuse_distance not released: the base's params up to that count.
            const std::uint64_t total_params = full ? full_bytes / dense_b : base_bytes / 2;
            g.weights += std::min(detail::ds_sub_group_elements, total_params) * 2;
            if (!p.offload_optimizer) {
                // DeepSpeed ZeRO-3 steps sub-groups of sub_group_size params with an fp32 gradient copy
                // (stage3.py _prepare_fp32_grad_for_sub_group: flatten(averaged_gradients).to(fp32)); the
                // 16-bit flat that flatten() makes is alive while .to() copies it: a step temporary.
                const std::uint64_t sub_group = std::min(detail::ds_sub_group_elements, ceil_div(P + Ps, N));
                g.gradients += sub_group * 4;
                ds3_flat_tmp = sub_group * grad_b;
            }
        } else {
            // FSDP: the unsharded unit in use and the next one prefetched (forward/backward_prefetch). Where
            // only the decoder layers are units (trainers.cpp, root column), the embeddings, final norm and
            // lm_head are the root unit, which stays gathered from the forward's start to the backward's
            // end (the root is never resharded after forward). Full fine-tuning also holds a unit's
            // unsharded gradient before its reduce-scatter, and, with a gathered root, lm_head's from the
            // backward's first op to the root's reduce-scatter at its end. (After a k-bit upcast the
            // root's weights are fp32.)
            if (row.fsdp_root_gathered) {
                const std::uint64_t root = global_bytes * (upcast_bytes > 0 ? 2 : 1);
                g.weights += root + 2 * largest_layer;
                if (full) g.gradients += largest_global + largest_layer;
                note("FSDP: the root unit (embeddings, norm, lm_head: " + gib_text(static_cast<double>(root), 2) +
                     ") stays gathered through forward and backward, beside the layer in use and the one "
                     "prefetched");
            } else {
                g.weights += std::max(largest_layer, largest_global) + largest_layer;
                if (full) g.gradients += std::max(largest_layer, largest_global);
            }
        }
    }

    // ---- FSDP gradients: units mixing adapters and frozen weights, and accumulation without sync
    // (Said only when the run asked for it: an older release's mixed units need no word where nothing shards.)
    if (p.overrides.fsdp_mixed_units.value_or(false) && (row.deepspeed_zero || N == 1 || p.zero_stage < 2))
        note(std::string("--fsdp-units mixed has no effect here: ") +
             (N == 1 || p.zero_stage < 2 ? "no FSDP sharding (it needs several GPUs and --zero 2 or 3)"
                                         : "this trainer shards with DeepSpeed ZeRO (gradients of trained parameters "
                                           "only)"));
    if (!row.deepspeed_zero && N > 1 && p.zero_stage >= 2) {
        // An FSDP1 FlatParameter's gradient has the flat parameter's size: with LoRA adapters in the same
        // unit as frozen weights (LitGPT's Block wrapping before 2025-08) autograd produces the gradient
        // of the whole unit, frozen part included (torch FSDP notes: mixing requires_grad in one
        // FlatParameter with use_orig_params=True gives "higher than expected gradient memory usage").
        const std::uint64_t frozen_grad  = !full && h.fsdp_mixed_units ? base_bytes + upcast_bytes : 0;
        const std::uint64_t trained_grad = P * grad_b + Ps * saved_b;
        if (p.grad_accum > 1 && row.no_sync_accumulation) {
            // Accumulation micro-steps skip the reduce-scatter (FSDP1 no_sync(): "FSDP will accumulate
            // the full model gradients (instead of gradient shards) until the eventual sync"; FSDP2
            // set_requires_gradient_sync(False); accelerate's accumulate() and Fabric's no_backward_sync
            // use them): every GPU holds the unsharded gradients until the last micro-step.
            const std::uint64_t held = ceil_div(P * grad_b, shard_grad) + ceil_div(Ps * saved_b, shard_grad);
            g.gradients += trained_grad - std::min(trained_grad, held) + frozen_grad;
            note("gradient accumulation over " + std::to_string(p.grad_accum) +
                 " micro-steps without the gradient sync: each GPU holds the unsharded gradients (" +
                 gib_text(static_cast<double>(trained_grad + frozen_grad), 2) + ")");
        } else if (frozen_grad > 0) {
            g.gradients += ceil_div(frozen_grad, N);
        }
        if (frozen_grad > 0)
            note("FSDP units hold LoRA adapters with frozen weights: the flat gradient covers the frozen " +
                 gib_text(static_cast<double>(frozen_grad), 2) + " too");
    }

    // ---- optimizer offload
    memory_parts host;
    if (p.offload_optimizer) {
        host.optimizer      = opt_total + opt_saved;
        host.master_weights = P * master_b + Ps * saved_mst_b;
        host.gradients      = row.deepspeed_zero ? (P + Ps) * 4 : 0; // ZeRO-Offload's fp32 gradient copy
        g.optimizer = g.master_weights = 0;
        note("optimizer states (and DeepSpeed's fp32 gradient copy) live in host RAM, summed over all GPUs");
    }

    // ---- activations, and the optimizer step's temporaries
    const auto act           = detail::estimate_activations(m, p, h, full ? nullptr : &lora, fp32_residual, gptq_saved);
    g.activations            = act.peak_bytes;
    const bool foreach_temps = row.step == optimizer_step::foreach_temps && !zero_ds && !h.in_backward &&
                               p.optimizer == optimizer_kind::adamw && !p.offload_optimizer;
    // DeepSpeed ZeRO-1/2 steps on an fp32 copy of this rank's flattened gradient partition
    // (stage_1_and_2.py: single_grad_partition ... .to(fp32)), made and freed at each step.
    const bool ds_fp32_grads  = zero_ds && p.zero_stage <= 2 && !p.offload_optimizer && full;
    std::uint64_t step_excess = 0;
    if (foreach_temps || ds_fp32_grads || ds3_flat_tmp > 0) {
        // torch.optim.AdamW (foreach) allocates sqrt(exp_avg_sq) for all params at once in step();
        // activations are freed by then, so only what exceeds them raises the peak.
        const std::uint64_t step_tmp = foreach_temps   ? ceil_div(P * state_b + Ps * saved_st_b, shard_opt)
                                       : ds_fp32_grads ? ceil_div(P, N) * 4
                                                       : ds3_flat_tmp;
        if (step_tmp > g.activations) step_excess = step_tmp - g.activations;
        g.optimizer += step_excess;
    }

    // ---- the runtime outside the allocated peak: CUDA context, allocator slack and reserve, NCCL
    const auto rt = detail::add_training_runtime(g, h.lengths, act.transient_bytes, act.record_block_bytes, step_excess,
                                                 N, p.device_memory_bytes);
    const std::uint64_t slack = rt.slack_bytes, reclaimable = rt.reclaimable_bytes;
    const bool reserve_capped = rt.capped;
    est.reclaimable_bytes     = reclaimable;

    // ---- devices
    for (std::uint64_t i = 0; i < N; ++i) {
        device_breakdown d;
        d.device = "cuda:" + std::to_string(i);
        d.kind   = device_kind::cuda;
        d.parts  = g;
        d.notes  = {"weights " + gib_text(static_cast<double>(g.weights), 2) +
                        (full ? " (trained copy)" : " (frozen base)"),
                    "activations " + gib_text(static_cast<double>(g.activations), 2) + " (logits peak " +
                        gib_text(static_cast<double>(act.logits_peak_bytes), 2) +
                        (p.grad_checkpointing
                             ? ", checkpointed layer inputs " + gib_text(static_cast<double>(act.checkpoint_bytes), 2)
                             : "") +
                        ")"};
        est.devices.push_back(std::move(d));
    }
    if (p.offload_optimizer) {
        device_breakdown d;
        d.device = "cpu";
        d.kind   = device_kind::cpu;
        d.parts  = host;
        est.devices.push_back(std::move(d));
    }

    // ---- FLOPs per token: forward 2N, backward 4N (2N for frozen weights: no weight gradient),
    // plus one more forward (2N) with recomputation. Embedding lookups are not matmuls.
    const param_counts pc  = count_params(m);
    const double active    = static_cast<double>(pc.active - std::min(pc.active, pc.embedding));
    const double recompute = p.grad_checkpointing ? 2.0 : 0.0;
    est.flops_per_token =
        full ? (6.0 + recompute) * active : (4.0 + recompute) * active + 6.0 * static_cast<double>(est.lora_params);

    // A DeepSpeed config only for the trainers started with one (the launch column); the others' commands
    // come from the plan (src/plan/train_launch.cpp).
    if (row.launch == launcher::deepspeed) est.launch_config_json = detail::deepspeed_config_json(p, m.n_embd);

    // ---- what was assumed
    est.trainer = {std::string(row.name), std::string(row.what),
                   h.lora_dropout,        h.loss,
                   h.in_backward,         foreach_temps,
                   upcast_bytes > 0,      h.lengths,
                   h.fsdp_mixed_units,    row.no_sync_accumulation,
                   p.trainer_release};
    est.band    = training_band(p);
    if (est.band) {
        std::int64_t peak = 0;
        for (const auto& d : est.devices)
            if (d.kind == device_kind::cuda) peak = std::max(peak, d.total_bytes());
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "expected %s per GPU; measured runs of this kind (%s, %u dev cases): %+.0f%% to %+.0f%%",
                      gib_text(static_cast<double>(peak), 1).c_str(), est.band->kind.c_str(), est.band->cases,
                      est.band->low * 100.0, est.band->high * 100.0);
        est.band->text = buf;
        // The middle 8 in 10 says more than the extremes once there are enough runs (10: one each side).
        if (est.band->cases >= 10) {
            std::snprintf(buf, sizeof buf, "; the middle 8 in 10: %+.0f%% to %+.0f%%", est.band->p10 * 100.0,
                          est.band->p90 * 100.0);
            est.band->text += buf;
        }
    }
    note(trainer_note(p, h));
    note("loss: " + std::string(to_string(h.loss)) + " cross-entropy over the vocabulary");
    if (foreach_temps) note("torch AdamW (foreach): the step allocates one parameter-sized temporary");
    if (ds_fp32_grads) note("DeepSpeed ZeRO-1/2: the step makes an fp32 copy of this rank's gradient partition");
    if (ds3_flat_tmp > 0)
        note("DeepSpeed ZeRO-3: the step flattens each sub-group's 16-bit gradients before its fp32 copy");
    if (!full)
        note("LoRA adapters in " +
             std::string(param_b == 2      ? "16-bit"
                         : h.fp32_adapters ? "fp32 (PEFT autocast_adapter_dtype=True)"
                                           : "fp32 (mixed precision)") +
             ", rank " + std::to_string(p.lora_rank) + ", " + std::to_string(lora.params) + " params; lora_dropout " +
             two_decimals(h.lora_dropout) +
             (h.lora_dropout > 0 ? " (a dropped-out copy of each adapted input is kept)" : ""));
    if (act.ctx_held_bytes > 0)
        note("the trainer's gradient checkpointing is non-reentrant, and bitsandbytes keeps each quantized linear's "
             "input outside its reach: every layer's linear inputs stay until that layer's backward (+" +
             gib_text(static_cast<double>(act.ctx_held_bytes), 2) + ")");
    if (act.last_step_held_bytes > 0)
        note("the trainer's loop keeps the last step's outputs into the next forward, and with them the input "
             "bitsandbytes keeps for each 4-bit linear: the last micro-batch's linear inputs stay until that forward "
             "ends (+" +
             gib_text(static_cast<double>(act.last_step_held_bytes), 2) + ")");
    if (act.bias_bytes > 0)
        note("the model's remote code builds its ALiBi position bias as a dense heads x seq x seq matrix, cached "
             "and once more per sequence combined with the padding mask (+" +
             gib_text(static_cast<double>(act.bias_bytes), 2) + ")");
    if (m.eager_attn_scores)
        note("attention run eagerly (" + m.arch +
             ": a relative position bias is added to the scores): each attention keeps its heads x seq x seq "
             "probabilities" +
             (m.train_dropout ? " with their dropout mask" : ""));
    else if (h.eager_softcap && detail::softcapped_attention(m))
        note("attention with capped logits run eagerly by the trainer's model code: each attention keeps its "
             "capped scores, fp32 probabilities and their 16-bit copy (heads x seq x seq each)");
    else
        note("attention by a flash/SDPA kernel: no seq x seq score matrix is kept");
    if (m.is_encoder_decoder())
        note("encoder-decoder: source and target both taken as --seq " + std::to_string(p.seq) + " tokens; the " +
             std::to_string(m.n_layer_enc) + " encoder layers run over the source, the " +
             std::to_string(m.n_layer - m.n_layer_enc) +
             " decoder layers over the target with cross-attention to the source; the loss over the target tokens");
    if (tower > 0)
        note("vision tower frozen (" + two_decimals(static_cast<double>(m.vision.n_params) / 1e9) + " B params, " +
             gib_text(static_cast<double>(tower), 2) +
             " in weights): no gradient, state or kept activation; an image's tokens count in --seq");
    if (p.zero_stage > 0 && N == 1)
        note("ZeRO stage " + std::to_string(p.zero_stage) + " on one GPU shards over a single rank" +
             (p.offload_optimizer ? "; the offload still applies" : ""));
    if (p.zero_stage > 0 && !row.deepspeed_zero) note("--zero taken as FSDP sharding (this trainer has no DeepSpeed)");
    note("overhead: CUDA context 1 GiB + caching-allocator slack " + gib_text(static_cast<double>(slack), 2) +
         (h.lengths == batch_lengths::variable ? " (batches of varying length: cached blocks of earlier sizes)" : "") +
         (N > 1 ? " + NCCL 0.5 GiB" : ""));
    if (reclaimable > 0 || reserve_capped)
        note("of that slack, " + gib_text(static_cast<double>(reclaimable), 2) +
             " is the reserve of earlier steps' blocks, which the allocator frees before an out-of-memory error: "
             "what must fit is the total less it" +
             (reserve_capped ? std::string(" (the reserve stops at the GPU's memory, --device-memory)") : ""));
    return est;
}

} // namespace llmplan
