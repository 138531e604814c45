// Activation memory of one training micro-batch.
//
// Reference: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models", which counts what autograd keeps for backward in a GPT layer: s*b*h*(34 + 5*a*s/h)
// bytes in 16-bit (no recomputation, no sequence parallelism). The same count is redone here per
// tensor for today's layers, in elements of the activation dtype:
//   attention : norm input h, q/k/v projection input h, q (n_head*d_k), k and v (n_head_kv*d),
//               the attention output kept by the fused kernel and the copy fed to o_proj
//               (n_head*d_v each). Flash/SDPA attention keeps no a*s*s score matrix (their
//               5*a*s/h term is gone) and there is no dropout (their masks are gone).
//   gated MLP : norm input h, gate/up input h, then gate and up outputs (2f) when the SiLU*up
//               product is recomputed by a fused kernel (torch.compile), or gate, SiLU(gate),
//               up and the product (4f) with eager PyTorch (transformers).
//   plain MLP : norm input h, up input h, GELU input f (+ its output f in eager).
//   MoE       : the routed experts' intermediates for n_expert_used experts, the shared expert,
//               and the tokens copied to each chosen expert (n_expert_used*h).
//   eager RMSNorm (HF, torchtune without compile) also keeps an fp32 copy of its input: +4 bytes*h.
// Gradient checkpointing keeps each layer's input (h per token) and recomputes one layer at a
// time in backward.
// Encoder-decoders (T5): the encoder's and the decoder's layers both run over --seq tokens (the
// source and the target are taken as equally long); a decoder layer's cross-attention keeps what a
// self-attention does (its k and v over the source). T5Attention is eager (the relative position
// bias is added to the scores), so each attention also keeps its n_head x seq x seq probabilities:
// softmax(scores.float()) saves its fp32 output, the matmul with v keeps the dropout output and
// its one-byte mask (or the cast back to 16-bit without dropout), and backward holds the gradients
// of the probabilities and of the scores (the widest intermediate becomes n_head x seq).
#include "detail/checked_number.h"
#include "estimate/training_detail.h"

#include <algorithm>

namespace llmplan::detail {
namespace {

struct layer_bytes {
    std::uint64_t saved_per_token = 0; ///< bytes kept for backward, per token
    std::uint64_t widest          = 0; ///< widest intermediate (elements per token)
};

/// Bytes a softcapping attention written eagerly keeps per query token over `keys` tokens (LitGPT
/// litgpt/model.py @ 00af8b0d, CausalSelfAttention.scaled_dot_product_attention: "with softcapping we cannot
/// use SDPA"): `scores = q @ k.mT * scale`, `torch.tanh(scores / cap) * cap` (tanh keeps its output),
/// `softmax(scores + mask, dim=-1, dtype=torch.float)` (keeps its fp32 output), `.to(q.dtype)` and
/// `scores @ v` (the matmul keeps that 16-bit copy).
std::uint64_t softcap_scores_per_token(const model_desc& m, const layer_desc& l, std::uint64_t act_b,
                                       std::uint64_t keys, bool eager_softcap) {
    if (!eager_softcap || !softcapped_attention(m)) return 0;
    return std::uint64_t{l.n_head} * keys * (act_b + 4 + (act_b < 4 ? act_b : 0));
}

/// Bytes an eager attention keeps per query token for its probabilities over `keys` tokens.
std::uint64_t eager_scores_per_token(const model_desc& m, const layer_desc& l, std::uint64_t act_b,
                                     std::uint64_t keys) {
    if (!m.eager_attn_scores) return 0;
    // The fp32 softmax output (softmax's backward), then what the matmul with v keeps: the dropout
    // output and its mask, or without dropout the cast back to 16-bit (fp32 runs: no cast).
    const std::uint64_t per_elem = 4 + (m.train_dropout ? act_b + 1 : (act_b < 4 ? act_b : 0));
    return std::uint64_t{l.n_head} * keys * per_elem;
}

layer_bytes layer_activation(const model_desc& m, const layer_desc& l, std::uint64_t act_b, bool fused,
                             std::uint64_t seq, const train_habits& habits, std::uint8_t unsaved_inputs,
                             bool qkv_buffer) {
    const bool eager_softcap = habits.eager_softcap;
    const std::uint64_t h    = m.n_embd;
    // bytes of one fp32 norm-input copy kept by an eager RMSNorm/LayerNorm (x.float() is saved)
    const std::uint64_t eager_norm_extra = fused ? 0 : 4 * h;
    std::uint64_t elems                  = 0;
    std::uint64_t extra                  = 0;
    std::uint64_t widest                 = h;
    if (l.has_kv()) {
        const std::uint64_t q_w = std::uint64_t{l.n_head} * l.head_dim_k;
        // Grouped keys and values repeated to every query head before the attention kernel (expands_kv):
        // the attention keeps those full-width copies.
        const std::uint64_t kv_heads = habits.expands_kv ? l.n_head : l.n_head_kv;
        const std::uint64_t k_w      = kv_heads * l.head_dim_k;
        const std::uint64_t v_w      = kv_heads * l.head_dim_v;
        const std::uint64_t o_w      = std::uint64_t{l.n_head} * l.head_dim_v;
        // A decoder layer's cross-attention (T5LayerCrossAttention) repeats the block over the source.
        const std::uint64_t blocks = l.cross_attn ? 2 : 1;
        elems += blocks * (h + h + q_w + k_w + v_w + 2 * o_w);
        // One fused q/k/v output whose value goes to the kernel as a view (qkv_buffer): the kernel saves that view,
        // so the whole buffer stays, its q and k parts beside the roped copies counted above.
        if (qkv_buffer && l.n_head_kv == l.n_head && !l.cross_attn)
            elems += q_w + std::uint64_t{l.n_head_kv} * l.head_dim_k;
        // A frozen q/k/v or o projection keeps no input (see unsaved_inputs in estimate_activations).
        elems -=
            blocks * (((unsaved_inputs & lora_in_qkv) != 0 ? h : 0) + ((unsaved_inputs & lora_in_o) != 0 ? o_w : 0));
        const std::uint64_t softcap = softcap_scores_per_token(m, l, act_b, seq, eager_softcap);
        extra += blocks * (eager_norm_extra + eager_scores_per_token(m, l, act_b, seq) + softcap);
        widest = std::max({widest, q_w, o_w, m.eager_attn_scores || softcap > 0 ? std::uint64_t{l.n_head} * seq : 0});
    }
    std::uint64_t f        = l.n_ff;
    std::uint64_t dispatch = 0;
    bool gated             = m.ffn == ffn_kind::gated;
    if (l.is_moe) {
        f        = std::uint64_t{m.moe.n_expert_used} * m.moe.n_ff_expert + m.moe.n_ff_shexp;
        dispatch = std::uint64_t{m.moe.n_expert_used} * h;
        gated    = true; // every MoE family in the catalog uses SwiGLU experts
    }
    if (f > 0) {
        const std::uint64_t mid = gated ? (fused ? 2 * f : 4 * f) : (fused ? f : 2 * f);
        elems += (m.parallel_block ? 0 : h) + h + mid + dispatch;
        // Frozen dense up/gate and down projections keep no input: the norm's output and, in eager mode, the
        // product (or activation output) that only down's weight gradient needed. MoE experts are left as they are.
        if (!l.is_moe)
            elems -= ((unsaved_inputs & lora_in_gate_up) != 0 ? h : 0) +
                     ((unsaved_inputs & lora_in_down) != 0 && !fused ? f : 0);
        extra += m.parallel_block ? 0 : eager_norm_extra;
        widest = std::max(widest, f);
    }
    if (m.post_norms) elems += 2 * h; // Gemma-2/3, OLMo-2: a norm after attention and after the MLP
    return {elems * act_b + extra, widest};
}

/// Elements per token of the distinct inputs a layer's linears take: what bitsandbytes' autograd functions hold
/// (ctx_held below). Linears fed the same tensor share it: q, k and v take the attention norm's output, gate and
/// up the MLP norm's (a parallel block feeds its MLP the attention's input); o_proj takes the attention output,
/// down the gated product (or the activation's output). A MoE layer copies each routed token to its experts
/// (n_expert_used inputs of h, and as many expert products), beside the shared expert's product. A decoder
/// layer's cross-attention repeats the attention's two inputs.
std::uint64_t bnb_linear_input_elems(const model_desc& m, const layer_desc& l) {
    const std::uint64_t h = m.n_embd;
    std::uint64_t elems   = 0;
    if (l.has_kv()) elems += (l.cross_attn ? 2 : 1) * (h + std::uint64_t{l.n_head} * l.head_dim_v);
    const std::uint64_t mlp_input = m.parallel_block && l.has_kv() ? 0 : h;
    if (l.is_moe)
        elems += mlp_input + std::uint64_t{m.moe.n_expert_used} * (h + m.moe.n_ff_expert) + m.moe.n_ff_shexp;
    else if (l.n_ff > 0)
        elems += mlp_input + l.n_ff;
    return elems;
}

} // namespace

bool softcapped_attention(const model_desc& m) {
    // Gemma-2 caps its attention logits (tanh(scores / 50) * 50): attn_logit_softcapping 50.0 in every Gemma-2
    // config (transformers configuration_gemma2.py default); Gemma 1 and Gemma 3 have none.
    return m.arch == "gemma2";
}

bool logits_upcast_before_loss(const model_desc& m) {
    // transformers' causal-LM heads make the whole logits fp32 before the loss: `logits = logits.float()` in
    // LlamaForCausalLM, MistralForCausalLM and Qwen2ForCausalLM.forward from 4.36 to 4.45, and ForCausalLMLoss
    // (`logits = logits.float()`, src/transformers/loss/loss_utils.py) for every causal LM since 4.46. ChatGLM's
    // remote code does it too (THUDM chatglm3-6b modeling_chatglm.py, ChatGLMForConditionalGeneration.forward:
    // `lm_logits = lm_logits.to(torch.float32)`, then the shifted copy and the cross-entropy). Two remote-code
    // families hand their 16-bit logits to CrossEntropyLoss and leave the fp32 copy to autocast: Qwen-1
    // (modeling_qwen.py QWenLMHeadModel.forward: `shift_logits = lm_logits[..., :-1, :].contiguous()`) and
    // Baichuan 1/2 (modeling_baichuan.py BaichuanForCausalLM.forward, the same with its z-loss).
    return m.arch != "qwen" && m.arch != "baichuan";
}

activation_estimate estimate_activations(const model_desc& m, const training_params& p, const train_habits& h,
                                         const lora_plan* lora, bool fp32_residual, saved_weight_bytes saved_weights) {
    // 16-bit activations under bf16/fp16 (mixed or pure); fp32 training keeps fp32 ones.
    const std::uint64_t act_b  = p.precision == train_precision::fp32 ? 4 : 2;
    const bool fused           = h.row->fused_kernels;
    const std::uint64_t tokens = p.seq * p.micro_batch;

    // LoRA's dropout copy (below): per element of each adapted module's input.
    const bool dropout       = h.lora_dropout > 0;
    const bool recast        = h.fp32_adapters && act_b == 2;
    const bool autocast      = p.precision == train_precision::bf16_mixed || p.precision == train_precision::fp16_mixed;
    const std::uint64_t copy = recast ? (autocast ? act_b : 4) : dropout ? act_b : 0;
    const bool own_kernels   = h.row->own_lora_kernels && h.lora_dropout == 0;

    // A frozen linear keeps no input: autograd saves a matmul operand only for the gradient that needs it
    // (pytorch/pytorch tools/autograd/gen_variable_type.py @ 9e69e821, `guard_for`: `mm`/`addmm` save `self`
    // under `grad_fn->should_compute_output(1)`, i.e. only when the weight requires a gradient). Under LoRA the
    // base's torch linears (16-bit, or auto-gptq's dequantized `torch.matmul`) therefore keep nothing; what
    // keeps a module's input is its adapter: lora_A takes x itself when there is no dropout and no cast (its
    // weight gradient needs it), else the dropped-out or cast copy counted below. bitsandbytes' MatMul4Bit
    // and MatMul8bitLt and AutoAWQ's WQLinearMMFunction are custom autograd functions that save their input
    // whatever the weight (`ctx.tensors = (A, B)`), and unsloth's LoRA kernels save X: those keep it.
    std::uint8_t unsaved_inputs = 0;
    if (lora != nullptr && !saved_weights.base_keeps_inputs && !own_kernels)
        unsaved_inputs = static_cast<std::uint8_t>((lora_in_qkv | lora_in_o | lora_in_gate_up | lora_in_down) &
                                                   ~(copy == 0 ? lora->input_groups : 0));

    // A fused q/k/v projection (LitGPT's `attn` always; the checkpoint's c_attn, W_pack, qkv_proj or
    // query_key_value under transformers) is split into views: `q, k, v = qkv.split(...)` (litgpt/model.py @
    // 43c44323 l.217-236), `qkv[..., query_pos + ...:]` (transformers Phi-3), `mixed_x_layer.split(...)` (Qwen-1's
    // remote code). RoPE makes new q and k, but v reaches the attention kernel as a view, and the kernel saves
    // its inputs for backward (SDPA's flash/efficient nodes; flash_attn's FlashAttnFunc `save_for_backward(q, k,
    // v, ...)`, whose maybe_contiguous copies only a tensor whose last stride is not 1), so the whole qkv output
    // stays until that layer's backward: its q and k parts are kept beside their roped copies. With grouped heads
    // LitGPT's expand-and-reshape copies v (counted by expands_kv) and the buffer goes; with all heads (MHA) the view
    // keeps it, so only MHA layers are counted.
    const bool qkv_buffer = h.qkv == qkv_source::fused || (h.qkv == qkv_source::checkpoint && m.fused_qkv);

    activation_estimate a;
    std::uint64_t widest = m.n_embd;
    for (const auto& l : m.layers) {
        const layer_bytes lb = layer_activation(m, l, act_b, fused, p.seq, h, unsaved_inputs, qkv_buffer);
        a.per_layer_saved_bytes += lb.saved_per_token * tokens;
        a.largest_layer_bytes = std::max(a.largest_layer_bytes, lb.saved_per_token * tokens);
        widest                = std::max(widest, lb.widest);
    }
    // LoRA dropout (p > 0) feeds lora_A a dropped-out copy of the module's input, which autograd keeps
    // for lora_A's weight gradient, with its mask (one byte per element): PEFT's LoraLayer
    // `lora_B(lora_A(dropout(x)))`. With fp32 adapters PEFT casts x to the adapter dtype first
    // (`_cast_input_dtype(x, lora_A.weight.dtype)`); under autocast (mixed precision) the matmul casts it
    // back to 16-bit and that 16-bit copy is what lora_A keeps, dropout or not; without autocast (pure
    // bf16) lora_A runs in fp32 and keeps the fp32 copy (4 bytes). 16-bit adapters with p = 0 keep x
    // itself (nothing new).
    // unsloth's own LoRA kernels (taken at dropout 0) save the module input once and cast the adapters
    // to its dtype: no copy at all (fast_lora.py LoRA_QKV/LoRA_MLP/LoRA_W, matmul_lora `A.to(dtype)`).
    if (lora != nullptr && !own_kernels) {
        const std::uint64_t per_elem = copy + (dropout ? 1 : 0);
        a.per_layer_saved_bytes += lora->total_inputs * per_elem * tokens;
        a.largest_layer_bytes += lora->largest_layer_inputs * per_elem * tokens;
    }
    // Dequantized weights autograd keeps (see saved_weight_bytes): every layer's without recomputation, the
    // recomputed layer's with checkpointing.
    a.per_layer_saved_bytes += saved_weights.all_layers;
    a.largest_layer_bytes += saved_weights.largest_layer;
    // A non-reentrant checkpoint (training_habits.cpp: ms-swift) runs the forward with its autograd graph and drops
    // only what save_for_backward saved, through its saved-tensor hooks (torch/utils/checkpoint.py, _checkpoint_hook).
    // bitsandbytes' MatMul4Bit and MatMul8bitLt keep their input A as a plain attribute of the context instead
    // (bitsandbytes/autograd/_functions.py @ c75b6de, 0.41.3.post1: `ctx.tensors = (A, B)`;
    // `ctx.tensors = (CAt, subA, A)`), so every layer's quantized linears hold their inputs, in the compute dtype
    // (Linear4bit.forward `x = x.to(self.compute_dtype)`), from the forward to that layer's backward, as the
    // layer inputs do. (A reentrant checkpoint runs the forward without a graph: no context is kept. AutoAWQ's
    // WQLinearMMFunction and auto-gptq's torch ops save through save_for_backward: the hooks drop theirs.)
    // The inputs of every layer's bitsandbytes linears, a token (both mechanisms below hold them).
    std::uint64_t bnb_input_elems = 0;
    if (saved_weights.ctx_held_inputs)
        for (const auto& l : m.layers)
            bnb_input_elems += bnb_linear_input_elems(m, l);
    if (p.grad_checkpointing && h.non_reentrant_checkpoint && saved_weights.ctx_held_inputs)
        a.ctx_held_bytes = bnb_input_elems * act_b * tokens;
    // A training loop that keeps the last step's graph (keeps_last_graph: LitGPT 0.1-0.5.4, trainer_releases.cpp)
    // keeps what bitsandbytes' MatMul4Bit put on each context, `ctx.tensors = (A, B)`, past that step's backward:
    // the input of every 4-bit linear whose input needed a gradient, the output layer's too where the trainer
    // quantizes it (quantizes_head; the final norm's output, h a token). They stay while the next forward saves its
    // own activations and go when `logits` is bound again after it returns, before the loss and backward: they add
    // to the forward's end, counted here on the step's peak (the loss's chunk gradients, counted in that peak, come
    // after them: a few MB over). The last micro-batch is taken as long as this one (--seq: the longest the run
    // pads to). Layer 0's q/k/v input, the frozen embedding's normed output, needs no gradient and is not held:
    // counted anyway, h a token over. With checkpointing, a reentrant forward builds no graph to keep.
    if (h.keeps_last_graph && saved_weights.ctx_held_inputs && (!p.grad_checkpointing || h.non_reentrant_checkpoint))
        a.last_step_held_bytes = (bnb_input_elems + (h.quantizes_head ? m.n_embd : 0)) * act_b * tokens;
    // Checkpointing keeps the input of every layer (one h-wide activation per token each): fp32 when
    // the k-bit preparation made the embeddings fp32 (the residual stream stays fp32), none on the GPU
    // but the two in transfer when they are offloaded to host RAM (unsloth).
    const std::uint64_t ckpt_b = fp32_residual ? 4 : act_b;
    const std::uint64_t kept   = h.row->offload_checkpoints ? std::min<std::uint64_t>(2, m.n_layer) : m.n_layer;
    a.checkpoint_bytes         = kept * m.n_embd * ckpt_b * tokens;
    // Backward of one layer holds the incoming gradient and the one being produced for its widest
    // intermediate, plus the residual stream's gradient twice (h each).
    a.backward_work_bytes = (2 * widest + 2 * m.n_embd) * act_b * tokens;

    const std::uint64_t logit_elems = tokens * m.n_vocab;
    switch (h.loss) {
    case loss_impl::full:
        // transformers: 16-bit logits (2) + the fp32 copy cross-entropy takes (autocast, or the
        // loss function's .float(): 4) + log_softmax's fp32 output (4) + the shifted copy (2: the
        // 16-bit logits in Qwen-style remote code; the labels only in transformers >= 4.50) = 12
        // bytes at the forward peak; backward holds the saved log_softmax, its gradient and the input
        // gradient, 12 again. fp32 training: 4 + 4 + 4.
        // The same 12 in transformers' own classes up to 4.45 (LlamaForCausalLM.forward rebinds `logits =
        // logits.float()` and shifts that copy: 4 + 4 + 4) and after PR #35646 (2025-01; the labels are padded:
        // 10 forward, 12 in backward). The window between, 14, is --loss full-shift (below), not a trainer's
        // default: no option says the release (bench/accuracy_train.md, sixth pass).
        a.logits_peak_bytes = logit_elems * 12;
        // The step's fp32 logits-sized tensor, which the caching allocator's reserve is counted in when
        // lengths vary (training_runtime.cpp): with 16-bit logits only the loss's own copies are fp32.
        if (logits_upcast_before_loss(m)) a.record_block_bytes = logit_elems * 4;
        break;
    case loss_impl::full_shift:
        // transformers 4.46.0 (2024-10-24) until PR #35646 (2025-01): ForCausalLMLoss (loss/loss_utils.py) takes
        // `logits = logits.float()` (4) and `shift_logits = logits[..., :-1, :].contiguous()` (4 more) while the
        // model's forward still holds the 16-bit logits it passed in (2), and cross-entropy's log_softmax keeps its
        // fp32 output (4): 14 bytes a logit at the forward peak (backward: 12, as above). fp32 training: 4 + 4 + 4.
        a.logits_peak_bytes = logit_elems * (act_b < 4 ? 14 : 12);
        break;
    case loss_impl::chunked:
        // torchtune: the output projection in 8 chunks (num_output_chunks) kept in bf16 (2 bytes for
        // all); CEWithChunkedOutputLoss upcasts one chunk at a time: fp32 copy, log_softmax and its
        // gradient (12 bytes) for an eighth of the tokens.
        a.logits_peak_bytes = logit_elems * act_b + logit_elems * 12 / 8;
        // LitGPT (chunk_ce_16bit, training_habits.cpp): cross-entropy on each 16-bit chunk of 128 tokens, every
        // chunk's 16-bit log-softmax kept beside the logits the loop holds: 2 x 16-bit for all, and one chunk's
        // gradients (nll's and log-softmax's) in backward.
        if (h.chunk_ce_16bit)
            a.logits_peak_bytes =
                2 * logit_elems * act_b + 2 * act_b * m.n_vocab * std::min<std::uint64_t>(128, p.seq) * p.micro_batch;
        break;
    case loss_impl::fused:
        // unsloth's Fast_CrossEntropyLoss: 16-bit logits, a fp32 logsumexp per token, the gradient
        // written into the logits in place.
        a.logits_peak_bytes = logit_elems * act_b + tokens * 4;
        break;
    case loss_impl::head_chunked: {
        // TRL's chunked_nll (trl/trainer/sft_trainer.py _chunked_cross_entropy_loss @ f2cd57710, 2026-07-24; the SFT
        // default from v1.7.0, 2026-06-25): the final hidden states of the labelled tokens are gathered to the front
        // (`hidden[order]`, a copy, kept for backward: h a token) and each chunk of 256 runs lm_head and the
        // cross-entropy under a non-reentrant checkpoint, so one chunk's logits and the loss's fp32 copies (12 bytes
        // a logit, as `full`) are alive at a time, in forward and again in its recomputed backward. The whole
        // logits never exist. Counted for every token of the micro-batch (the labelled share is not an option).
        constexpr std::uint64_t trl_chunk_tokens = 256; // _CHUNKED_LM_HEAD_CHUNK_SIZE
        a.logits_peak_bytes =
            std::min<std::uint64_t>(trl_chunk_tokens, tokens) * m.n_vocab * 12 + tokens * m.n_embd * act_b;
        break;
    }
    case loss_impl::linear:
        // Cut Cross-Entropy (unsloth_zoo loss_utils fused_linear_cross_entropy, on by default:
        // UNSLOTH_ENABLE_CCE=1): the output projection and the loss run block by block in one kernel,
        // forward and backward; what stays is the fp32 logsumexp of each token.
        a.logits_peak_bytes = tokens * 4;
        break;
    }

    // Baichuan 2 13B's remote code (modeling_baichuan.py, BaichuanModel.forward in training) builds its ALiBi
    // bias dense: get_alibi_mask -> _buffered_future_mask(...).to(inputs_embeds), n_head x seq x seq in the
    // activation dtype, cached on the model (self.alibi_mask), and, as the collators pass a 2-D attention mask,
    // `inverted_mask + alibi_mask.unsqueeze(0)`: one more micro-batch x n_head x seq x seq. Both stay alive from
    // the forward's start to the backward's end (the combined mask is an input of every checkpointed layer, and
    // xformers' memory_efficient_attention keeps it as attn_bias). Other ALiBi models (BLOOM, MPT in
    // transformers) broadcast a per-key bias and hold no such matrix.
    if (m.pos == pos_kind::alibi && m.arch == "baichuan" && !m.layers.empty()) {
        const std::uint64_t heads = m.layers.front().n_head;
        const double bytes        = static_cast<double>(1 + p.micro_batch) * static_cast<double>(heads) *
                             static_cast<double>(p.seq) * static_cast<double>(p.seq) * static_cast<double>(act_b);
        a.bias_bytes = saturate<std::uint64_t>(bytes, rounding::toward_zero); // seq 2^26 would pass 2^64
    }

    if (p.grad_checkpointing) {
        // Logits are freed before the first layer is recomputed: the two peaks do not overlap.
        a.peak_bytes =
            a.checkpoint_bytes + std::max(a.logits_peak_bytes, a.largest_layer_bytes + a.backward_work_bytes);
    } else {
        a.peak_bytes = a.per_layer_saved_bytes + std::max(a.logits_peak_bytes, a.backward_work_bytes);
    }
    a.peak_bytes += a.bias_bytes + a.ctx_held_bytes + a.last_step_held_bytes;
    a.transient_bytes = p.grad_checkpointing
                            ? std::max(a.logits_peak_bytes, a.largest_layer_bytes + a.backward_work_bytes)
                            : std::max(a.logits_peak_bytes, a.backward_work_bytes);
    return a;
}

} // namespace llmplan::detail
