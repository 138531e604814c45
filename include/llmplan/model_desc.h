// The one description of a model that every reader fills and every estimator reads.
//
// Readers (config.json, safetensors, GGUF) produce a model_desc; estimators are pure functions of
// it. Per-layer facts live in `layers` so that alternating (sliding/full), hybrid and
// heterogeneous (DeciLM/Nemotron) stacks are just different arrays. The vocabulary follows
// llama.cpp's hparams (n_layer, n_embd, n_head_kv, n_ff, n_swa ...).
#pragma once

#include "llmplan/dtype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llmplan {

/// How a layer attends. `none` = the layer has no attention (no-op block, linear replacement).
enum class attn_kind : std::uint8_t { mha, gqa, mqa, mla, none };
/// Feed-forward shape: gated (SwiGLU/GeGLU: gate, up, down), plain (up, down), moe (experts).
enum class ffn_kind : std::uint8_t { gated, plain, moe, none };
enum class norm_kind : std::uint8_t { rms, layer };
/// Position encoding: rotary, learned absolute table, ALiBi biases, none.
enum class pos_kind : std::uint8_t { rope, learned, alibi, none };

/// Roles of weight tensors, GGUF-style names (llama.cpp's LLM_TENSOR_*).
enum class tensor_role : std::uint8_t {
    token_embd,
    pos_embd,
    token_embd_norm,
    token_types,
    output_norm,
    output,
    attn_norm,
    attn_q,
    attn_k,
    attn_v,
    attn_qkv,
    attn_output,
    attn_q_norm,
    attn_k_norm,
    attn_q_a,
    attn_q_a_norm,
    attn_q_b,
    attn_kv_a,
    attn_kv_a_norm,
    attn_kv_b,
    attn_sinks,
    attn_post_norm,
    ffn_norm,
    ffn_post_norm,
    ffn_gate,
    ffn_up,
    ffn_down,
    ffn_gate_inp, ///< MoE router
    ffn_gate_exps,
    ffn_up_exps,
    ffn_down_exps,
    ffn_gate_up_exps,
    ffn_gate_shexp,
    ffn_up_shexp,
    ffn_down_shexp,
    ffn_gate_inp_shexp,
    // linear-attention / state-space mixers (llama.cpp's LLM_TENSOR_SSM_*: Gated DeltaNet, Mamba)
    ssm_in,      ///< input projection (Qwen3-Next in_proj_qkvz; Mamba in_proj)
    ssm_ba,      ///< Gated DeltaNet's beta/alpha projection (in_proj_ba)
    ssm_conv1d,  ///< depthwise causal convolution [channels, 1, kernel]
    ssm_dt,      ///< per-head time-step bias
    ssm_a,       ///< per-head decay (A_log)
    ssm_norm,    ///< gated RMSNorm over one value head (Gated DeltaNet) or the inner width (Mamba2)
    ssm_out,     ///< output projection
    ssm_x,       ///< Mamba1 x_proj: dt_rank + 2 d_state rows
    ssm_d,       ///< skip coefficient D (Mamba1: per channel; Mamba2: per head)
    ssm_dt_norm, ///< Jamba's RMSNorms on dt, B and C
    ssm_b_norm,
    ssm_c_norm,
    /// Gemma 3n / Gemma 4 per-layer embeddings (PLE): a [vocab, n_layer x width] table read by row
    /// like token_embd (llama.cpp's LLM_TENSOR_PER_LAYER_TOKEN_EMBD, an input tensor kept in host memory)
    per_layer_token_embd,
    // DeepSeek Sparse Attention's lightning indexer (llama.cpp's LLM_TENSOR_INDEXER_*)
    indexer_q_b,    ///< wq_b: index queries from the q latent [index_n_heads x index_head_dim, q_lora_rank]
    indexer_k,      ///< wk: one index key head [index_head_dim, n_embd]
    indexer_k_norm, ///< k_norm: a LayerNorm (weight and bias) over the index key
    indexer_proj,   ///< weights_proj: per-head score weights [index_n_heads, n_embd]
    other,
    count
};
std::string_view role_name(tensor_role r);
std::string_view attn_kind_name(attn_kind k); ///< "mha", "gqa", "mqa", "mla", "none"
/// A matrix that a linear layer multiplies by (LoRA-targetable, quantizable).
bool is_linear(tensor_role r);
/// Stored per expert (the tensor's elements are split over n_expert; only n_expert_used are read).
bool is_expert(tensor_role r);

/// One weight tensor: from a file (GGUF/safetensors) or generated from the architecture.
struct tensor_desc {
    std::string name; ///< as in the file, or GGUF-style when generated
    tensor_role role = tensor_role::other;
    int layer        = -1;            ///< block index, -1 for global tensors
    std::vector<std::uint64_t> shape; ///< logical dims, outermost first (HF order: [out, in])
    dtype type          = dtype::f16;
    std::uint64_t bytes = 0; ///< exact stored bytes
    bool is_bias        = false;

    [[nodiscard]] std::uint64_t n_elements() const;
};

struct layer_desc {
    attn_kind attn           = attn_kind::gqa;
    std::uint32_t n_head     = 0;
    std::uint32_t n_head_kv  = 0;
    std::uint32_t head_dim_k = 0; ///< per-head K (and Q) width; MLA: qk_nope + qk_rope
    std::uint32_t head_dim_v = 0; ///< per-head V width
    std::uint32_t n_swa      = 0; ///< sliding window in tokens; 0 = full attention
    std::uint64_t n_ff       = 0; ///< dense FFN intermediate size; 0 when the layer has none
    bool is_moe              = false;
    bool in_encoder          = false; ///< encoder-decoder (T5): an encoder layer; the decoder's follow the encoder's
    bool cross_attn          = false; ///< encoder-decoder decoder layer: + cross-attention (norm, q, k, v, o)
    bool attn_linear         = false; ///< attention replaced by one n_embd x n_embd matrix (DeciLM)
    bool ffn_linear          = false; ///< FFN replaced by one n_embd x n_embd matrix (DeciLM)
    /// Gemma 3n / Gemma 4 num_kv_shared_layers: the layer attends over the K and V of the last earlier
    /// layer of its kind and caches none of its own (llama.cpp n_layer_kv_from_start, vLLM
    /// kv_sharing_target_layer_name, transformers shared_kv_states).
    bool kv_shared          = false;
    bool kv_weights_dropped = false; ///< ... and has no k_proj / v_proj / k_norm (Gemma 4; Gemma 3n keeps them)
    /// Gemma 4 attention_k_eq_v (full-attention layers): no v_proj, V is the projected K. Engines still
    /// cache V beside K (llama.cpp and vLLM feed K into both slots).
    bool v_from_k = false;
    /// DeepSeek Sparse Attention: the layer has its own lightning indexer (weights and a key cache of
    /// mla_desc::index_head_dim per token; model/arch/dsa_indexer.cpp, estimate/kv_cache.cpp).
    bool indexer = false;
    /// A linear-attention / state-space layer: constant state per sequence, whatever the context
    /// (src/model/recurrent.cpp and state_space.cpp read it; kv_cache.cpp sizes it per engine). Most
    /// hybrids replace attention by it (attn = none); Falcon-H1 runs both side by side.
    struct recurrent_state {
        /// Which mixer: Gated DeltaNet (Qwen3-Next), Mamba (selective scan, Jamba), Mamba2 (SSD heads).
        enum class mixer : std::uint8_t { gated_delta, mamba1, mamba2 };
        mixer kind                  = mixer::gated_delta;
        std::uint64_t conv_channels = 0; ///< channels of the causal convolution (Gated DeltaNet: 2 key_dim + value_dim)
        std::uint32_t conv_kernel   = 0; ///< its kernel width; engines keep kernel - 1 (or kernel) past inputs
        std::uint64_t state_elems   = 0; ///< the recurrent state (Gated DeltaNet: v_heads x k_dim x v_dim)
        std::uint32_t v_heads       = 0; ///< heads the state is split into (tensor parallel shards them)
        std::uint64_t value_width   = 0; ///< v_heads x head_v_dim: the mixer's output width (Mamba: d_inner)
        // Mamba / Mamba2 (state_space.cpp):
        std::uint32_t d_state  = 0;     ///< SSM state size per channel (Mamba) or per head dim (Mamba2)
        std::uint32_t n_groups = 0;     ///< Mamba2 B/C groups (conv_channels = d_inner + 2 n_groups d_state)
        std::uint32_t dt_rank  = 0;     ///< Mamba1 time-step projection rank
        bool conv_bias         = false; ///< conv1d carries a bias
        bool proj_bias         = false; ///< in_proj / out_proj carry biases
        bool bcdt_norms        = false; ///< Jamba: RMSNorms on dt, B and C
        bool gated_norm        = false; ///< Mamba2: gated RMSNorm over d_inner before out_proj
        /// vLLM keeps this family's SSM state in f32 unless told otherwise (a per-model config hook).
        bool vllm_ssm_f32 = false;
    } recurrent;

    /// DeepSeek-V4's compressed attention (model/arch/compressed_attention.cpp reads it; kv_cache.cpp
    /// sizes its cache per engine): every layer keeps the rows of its last `window` tokens, and a layer
    /// with ratio > 1 also one compressed row every `ratio` tokens of the whole context (config
    /// compress_ratios[layer]), plus, with an indexer, one index key every `ratio` tokens.
    struct compressed_attention {
        std::uint32_t ratio     = 0; ///< 4 or 128; 1 = the window only (compress_ratios 0); 0 = not this attention
        std::uint32_t window    = 0; ///< sliding_window: uncompressed rows kept for the last tokens
        std::uint32_t rope_dim  = 0; ///< qk_rope_head_dim: the rotary part of each head_dim_k-wide row
        std::uint32_t index_dim = 0; ///< index_head_dim of the layer's indexer; 0 = the layer has none
    } compressed;

    [[nodiscard]] bool has_kv() const { return attn != attn_kind::none; }
    [[nodiscard]] bool has_state() const { return recurrent.conv_kernel > 0 || recurrent.state_elems > 0; }
};

/// "gated_delta", "mamba", "mamba2": the mixer of a layer with a constant state.
std::string_view mixer_name(layer_desc::recurrent_state::mixer k);

struct moe_desc {
    std::uint32_t n_expert        = 0;
    std::uint32_t n_expert_used   = 0;
    std::uint32_t n_expert_shared = 0;     ///< count of shared experts (DeepSeek) folded into n_ff_shexp
    std::uint64_t n_ff_expert     = 0;     ///< intermediate size of one routed expert
    std::uint64_t n_ff_shexp      = 0;     ///< total intermediate size of the shared expert(s)
    bool shexp_gate               = false; ///< Qwen2-MoE: sigmoid gate on the shared expert
    bool router_bias              = false; ///< router carries a bias (gpt-oss)
    bool score_bias               = false; ///< DeepSeek-V3 e_score_correction_bias per expert
    bool expert_bias              = false; ///< expert matrices carry biases (gpt-oss)
    bool fused_gate_up            = false; ///< gate and up stored as one expert tensor (gpt-oss)
    bool plain_experts            = false; ///< experts (and shared expert) are up/down only, no gate (Nemotron-H)
};

struct mla_desc {
    std::uint32_t q_lora_rank      = 0; ///< 0: q is a plain projection
    std::uint32_t kv_lora_rank     = 0;
    std::uint32_t qk_nope_head_dim = 0;
    std::uint32_t qk_rope_head_dim = 0;
    std::uint32_t v_head_dim       = 0;
    // DeepSeek Sparse Attention (DeepSeek-V3.2, GLM-5): the lightning indexer's sizes, 0 = none.
    std::uint32_t index_n_heads  = 0; ///< index_n_heads: query heads of the indexer
    std::uint32_t index_head_dim = 0; ///< index_head_dim: width of its one key head (what it caches per token)
    std::uint32_t index_topk     = 0; ///< index_topk: tokens each query attends to
};

/// Pre-quantized checkpoints (config.json quantization_config, an MLX `quantization` block, or
/// ModelOpt's hf_quant_config.json beside config.json).
enum class quant_method : std::uint8_t {
    none,
    gptq,
    awq,
    bitsandbytes,
    fp8,
    compressed_tensors,
    mxfp4,
    other,
    modelopt, ///< NVIDIA ModelOpt (TensorRT Model Optimizer): NVFP4, FP8, MIXED_PRECISION ...
    mlx,      ///< MLX (mlx-lm): affine n-bit with a scale and a bias per group, or mxfp4 / nvfp4 / mxfp8
};
/// One module's own format: ModelOpt MIXED_PRECISION quantized_layers, MLX per-module overrides.
struct quant_override {
    std::string module; ///< the Hugging Face module path it names
    std::string algo;   ///< ModelOpt quant_algo ("NVFP4", "FP8" ...) or MLX mode ("affine" ...)
    std::uint32_t bits       = 0;
    std::uint32_t group_size = 0;
    bool keep                = false; ///< MLX `false`: the module stays unquantized
};
struct quant_desc {
    quant_method method      = quant_method::none;
    std::uint32_t bits       = 0;
    std::uint32_t group_size = 0;     ///< elements sharing one scale; 0 = per channel
    std::uint32_t block_out  = 0;     ///< FP8 block scaling (weight_block_size / block_structure): rows per block
    std::uint32_t block_in   = 0;     ///< ... and columns per block; 0 = no block scaling
    bool is_float            = false; ///< compressed-tensors: float (FP8) weights rather than int
    bool symmetric           = true;  ///< compressed-tensors: no zero points stored
    bool per_tensor          = false; ///< compressed-tensors strategy "tensor": one scale per matrix
    bool nf4                 = false; ///< bitsandbytes 4-bit type nf4 (vs fp4)
    bool double_quant        = false;
    std::vector<std::string> modules_not_converted;
    /// ModelOpt: quant_algo upper-cased ("NVFP4", "W4A16_NVFP4", "FP8", "MXFP8", "MIXED_PRECISION");
    /// MLX: the mode ("affine", "mxfp4", "nvfp4", "mxfp8").
    std::string algo;
    std::vector<quant_override> overrides;
    dtype scale_type = dtype::bf16; ///< MLX affine: scales and biases are in the weights' own dtype
};

/// A VLM's vision encoder and projector (config.json vision_config), resident beside the language model.
struct vision_desc {
    std::uint32_t n_layer    = 0; ///< encoder blocks (depth / num_hidden_layers); 0 = no vision tower
    std::uint64_t n_embd     = 0;
    std::uint64_t n_ff       = 0;
    std::uint32_t n_head     = 0;
    std::uint32_t patch      = 0; ///< patch side in pixels
    std::uint32_t image_size = 0; ///< the config's image side (SigLIP: 896 for Gemma-3); 0 = dynamic
    std::uint32_t merge      = 1; ///< spatial_merge_size: patches merged into one LM token per side
    std::uint64_t n_params   = 0; ///< encoder + projector parameters (src/model/vision.cpp)
};

enum class weights_source : std::uint8_t { formula, tensors };

/// Where a description was read from (shown by inspect/estimate so a user knows which bytes it used).
struct model_origin {
    std::string kind;               ///< "catalog", "file", "hub", "modelscope", "hf-cache", "modelscope-cache"
    std::string location;           ///< the repo's URL, or the directory or file read
    std::string revision;           ///< the revision asked for ("main" when none was)
    std::string commit;             ///< the commit it resolved to ("" when ModelScope names none)
    std::string repo;               ///< "ORG/NAME" when read from a hub or its local cache
    std::string quant;              ///< the GGUF quant tag that picked the file ("Q4_K_M"), as llama.cpp's -hf takes it
    std::vector<std::string> files; ///< repo files whose bytes were used
    std::uint64_t requests      = 0; ///< HTTP requests made by this run (0: all from caches)
    std::uint64_t bytes_fetched = 0; ///< body bytes received by this run
};

struct model_desc {
    std::string id;       ///< catalog id, path, or file name
    std::string arch;     ///< model_type ("llama", "qwen2", "deepseek_v3", "gemma3_text" ...)
    std::string hf_class; ///< architectures[0] when known
    /// llama.cpp's architecture name (LLM_ARCH: "llama", "qwen2moe", "deci" ...): a GGUF's
    /// general.architecture, or the one llama.cpp's converter writes for an HF family (empty when it
    /// has none). Rules that follow llama.cpp's code look it up in its facts table (gguf_keys.cpp).
    std::string gguf_arch;
    std::uint32_t n_layer       = 0;
    std::uint64_t n_embd        = 0;
    std::uint64_t n_vocab       = 0;
    std::uint64_t n_merges      = 0; ///< BPE merges of the tokenizer when known (GGUF tokenizer.ggml.merges)
    std::uint64_t n_ctx_train   = 0;
    std::uint32_t n_pos_embd    = 0; ///< learned position table rows (pos_kind::learned)
    std::uint32_t n_token_types = 0; ///< BERT token type rows
    std::vector<layer_desc> layers;

    ffn_kind ffn                   = ffn_kind::gated;
    norm_kind norm                 = norm_kind::rms;
    pos_kind pos                   = pos_kind::rope;
    bool tied_embd                 = false;
    bool attn_qkv_bias             = false; ///< q/k/v projections carry a bias
    bool attn_out_bias             = false;
    bool ffn_bias                  = false;
    bool norm_bias                 = false; ///< LayerNorm with bias
    bool qk_norm                   = false; ///< per-head RMSNorm on q and k (Qwen3, OLMo-2 style)
    bool qk_norm_full              = false; ///< qk norm over the full projection width (OLMo-2)
    bool fused_qkv                 = false; ///< one attn_qkv tensor in the checkpoint
    bool fused_gate_up             = false; ///< one gate+up tensor (Phi-3)
    bool output_bias               = false; ///< lm_head bias (Phi-2, GPT-J)
    bool pooler                    = false; ///< encoder pooler dense layer (BERT)
    bool parallel_block            = false; ///< attention and FFN share one input norm (GPT-J, Phi-2, Falcon)
    bool post_norms                = false; ///< extra norms after attention and FFN (Gemma-2/3, OLMo-2)
    bool attn_sinks                = false; ///< learned per-head sink logits (gpt-oss)
    bool attn_output_gate          = false; ///< q_proj also yields a per-head output gate: 2x its rows (Qwen3-Next)
    bool legacy_cache              = false; ///< remote-code generate(): tuple KV cache, all-position logits (Qwen-1)
    bool is_encoder                = false;
    bool has_output_norm           = true;
    bool embd_norm                 = false; ///< LayerNorm after the embeddings (BLOOM, BERT)
    std::uint32_t rope_dim         = 0;     ///< rotary dims per head when partial (Phi-2, GPT-J, NeoX); 0 = all
    std::uint32_t n_norm_per_layer = 2;     ///< 1 for parallel blocks, 4 for sandwich norms (Gemma-2/3)
    /// Encoder-decoder (T5 / mT5): layers[0, n_layer_enc) are the encoder's, the rest the decoder's,
    /// each stack with its own final norm; 0 for decoder-only and encoder-only models.
    std::uint32_t n_layer_enc = 0;
    /// T5's relative attention bias: a [buckets, n_head] table in the first layer of each stack.
    std::uint32_t rel_attn_buckets = 0;
    /// The attention adds a bias matrix to its scores (T5's relative positions), so transformers runs
    /// it eagerly and autograd keeps the n_head x seq x seq probabilities.
    bool eager_attn_scores = false;
    bool train_dropout     = false; ///< dropout on in training (T5 dropout_rate > 0): probabilities keep a mask
    std::vector<std::string> notes; ///< what the reader assumed or left out (e.g. a vision tower)
    /// A model_type no row of the architecture table knows is read as a standard decoder from the
    /// config's standard keys: what was guessed rather than read, in plain words (empty: the
    /// family's own layout). The weights' guesses go when the checkpoint's tensors are read.
    std::vector<std::string> guessed_weights;
    std::vector<std::string> guessed_cache;
    /// A config key the weights formula needs and the config lacks (an unknown family's
    /// intermediate_size): only the checkpoint's own tensors can size the weights then.
    std::string formula_needs;
    /// Weights a family adds beyond the common block (Gemma 3n / 4: per-layer embeddings, AltUp,
    /// Laurel, router scales, layer scalars); generate_tensors appends them in the checkpoint dtype.
    struct extra_weight {
        std::string name;
        tensor_role role = tensor_role::other;
        int layer        = -1;
        std::vector<std::uint64_t> shape;
    };
    std::vector<extra_weight> extra_weights;

    moe_desc moe;
    mla_desc mla;
    vision_desc vision;
    quant_desc quant;
    dtype torch_dtype = dtype::bf16; ///< the checkpoint's compute dtype

    std::vector<tensor_desc> tensors; ///< read from a file (weights_source::tensors) or generated
    weights_source source    = weights_source::formula;
    std::uint64_t file_bytes = 0;          ///< bytes on disk of every file read (0 when unknown)
    dtype gguf_ftype_main    = dtype::f16; ///< the GGUF's dominant matrix type when read from GGUF
    bool from_gguf           = false;
    std::string gguf_path; ///< the GGUF file as the user named it (launch lines load it), when read from one
    /// The weights' storage type as a user names it: a GGUF's llama-quantize file type ("q4_k_m",
    /// from general.file_type, else the dominant matrix type); empty: the checkpoint's torch_dtype.
    std::string weights_type;
    model_origin origin;

    /// weights_type when set, else the name of torch_dtype (what `inspect` shows as "dtype").
    [[nodiscard]] std::string weights_type_name() const;

    [[nodiscard]] bool is_moe() const { return moe.n_expert > 0; }
    [[nodiscard]] bool is_encoder_decoder() const { return n_layer_enc > 0; }
    /// Low confidence: parts of the description were guessed (guessed_weights, guessed_cache).
    [[nodiscard]] bool low_confidence() const { return !guessed_weights.empty() || !guessed_cache.empty(); }
    /// The most common layer (for display): the first attention layer, else layer 0.
    [[nodiscard]] const layer_desc& typical_layer() const;
};

/// Parameters, counted from the tensors (real or generated).
struct param_counts {
    std::uint64_t total     = 0; ///< every parameter, all experts
    std::uint64_t active    = 0; ///< used per token (n_expert_used of n_expert routed experts)
    std::uint64_t embedding = 0; ///< token (and position) embedding rows
};
param_counts count_params(const model_desc& m);

/// Sum of tensor bytes.
std::uint64_t weights_bytes(const model_desc& m);

} // namespace llmplan
