// LoRA adapter counting: for each targeted weight W [out, in] an A [r, in] and a B [out, r]
// (PEFT's LoraLayer), so r * (in + out) parameters; stacked experts [n_expert, out, in] get one
// pair per expert.
#include "estimate/training_detail.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>

namespace llmplan::detail {
namespace {

struct target_row {
    std::string_view name;
    std::array<tensor_role, 4> roles;
    std::size_t n_roles;
    /// The FFN shape the name exists in (T5's "wi" is the plain FFN's; "wi_0"/"wi_1" the gated one's);
    /// ffn_kind::none: any.
    ffn_kind only = ffn_kind::none;
};

// Short names (and the HF module names users also type) -> the tensors they adapt. A fused
// q/k/v tensor (Qwen-1 c_attn, Phi-3 qkv_proj) is adapted whole when any of q, k, v is named,
// as PEFT does when the module holding it is targeted. MLA's down/up projections stand in for
// q and k/v.
// clang-format off
// T5 (modeling_t5.py) names its projections q, k, v, o (self- and cross-attention alike: PEFT
// matches both) and its FFN wi, wo (T5DenseActDense) or wi_0 (gated), wi_1, wo (T5DenseGatedActDense).
constexpr std::array<target_row, 18> target_table{{
    {"q",         {tensor_role::attn_q, tensor_role::attn_qkv, tensor_role::attn_q_a, tensor_role::attn_q_b}, 4},
    {"k",         {tensor_role::attn_k, tensor_role::attn_qkv, tensor_role::attn_kv_a, tensor_role::attn_kv_b}, 4},
    {"v",         {tensor_role::attn_v, tensor_role::attn_qkv, tensor_role::attn_kv_a, tensor_role::attn_kv_b}, 4},
    {"o",         {tensor_role::attn_output}, 1},
    {"gate",      {tensor_role::ffn_gate, tensor_role::ffn_gate_exps, tensor_role::ffn_gate_shexp, tensor_role::ffn_gate_up_exps}, 4},
    {"up",        {tensor_role::ffn_up, tensor_role::ffn_up_exps, tensor_role::ffn_up_shexp, tensor_role::ffn_gate_up_exps}, 4},
    {"down",      {tensor_role::ffn_down, tensor_role::ffn_down_exps, tensor_role::ffn_down_shexp}, 3},
    {"q_proj",    {tensor_role::attn_q, tensor_role::attn_qkv, tensor_role::attn_q_a, tensor_role::attn_q_b}, 4},
    {"k_proj",    {tensor_role::attn_k, tensor_role::attn_qkv, tensor_role::attn_kv_a, tensor_role::attn_kv_b}, 4},
    {"v_proj",    {tensor_role::attn_v, tensor_role::attn_qkv, tensor_role::attn_kv_a, tensor_role::attn_kv_b}, 4},
    {"o_proj",    {tensor_role::attn_output}, 1},
    {"gate_proj", {tensor_role::ffn_gate, tensor_role::ffn_gate_exps, tensor_role::ffn_gate_shexp, tensor_role::ffn_gate_up_exps}, 4},
    {"up_proj",   {tensor_role::ffn_up, tensor_role::ffn_up_exps, tensor_role::ffn_up_shexp, tensor_role::ffn_gate_up_exps}, 4},
    {"down_proj", {tensor_role::ffn_down, tensor_role::ffn_down_exps, tensor_role::ffn_down_shexp}, 3},
    {"wi",        {tensor_role::ffn_up}, 1, ffn_kind::plain},
    {"wi_0",      {tensor_role::ffn_gate}, 1, ffn_kind::gated},
    {"wi_1",      {tensor_role::ffn_up}, 1, ffn_kind::gated},
    {"wo",        {tensor_role::ffn_down}, 1, ffn_kind::none},
}};
// clang-format on

// Modules PEFT trains whole (LoraConfig.modules_to_save): Qwen-1's finetune.py saves ["wte", "lm_head"]
// when LoRA-tuning a base model, so that new chat tokens get embeddings.
struct saved_row {
    std::string_view name;
    tensor_role role;
};
constexpr std::array<saved_row, 5> saved_table{
    {
     {"embed", tensor_role::token_embd},
     {"embed_tokens", tensor_role::token_embd},
     {"wte", tensor_role::token_embd},
     {"lm_head", tensor_role::output},
     {"output", tensor_role::output},
     }
};

const saved_row* find_saved(std::string_view name) {
    for (const auto& row : saved_table)
        if (row.name == name) return &row;
    return nullptr;
}

const target_row* find_target(std::string_view name) {
    for (const auto& row : target_table)
        if (row.name == name) return &row;
    return nullptr;
}

bool adaptable(const tensor_desc& t) {
    // PEFT's "all-linear" takes every nn.Linear except the output layer (lm_head).
    return is_linear(t.role) && t.role != tensor_role::output && !t.is_bias && t.shape.size() >= 2;
}

/// Which shared input a dense layer's linear takes (training_detail.h lora_input_group); 0 for experts and
/// other mixers (their inputs are not among the dense layer's activations).
std::uint8_t lora_group_of(tensor_role r) {
    switch (r) {
    case tensor_role::attn_q:
    case tensor_role::attn_k:
    case tensor_role::attn_v:
    case tensor_role::attn_qkv:
        return lora_in_qkv;
    case tensor_role::attn_output:
        return lora_in_o;
    case tensor_role::ffn_gate:
    case tensor_role::ffn_up:
        return lora_in_gate_up;
    case tensor_role::ffn_down:
        return lora_in_down;
    default:
        return 0;
    }
}

} // namespace

result<lora_plan> plan_lora(const model_desc& m, std::uint32_t rank, const std::vector<std::string>& targets) {
    if (rank == 0)
        return make_error(error_code::invalid_params, "LoRA rank 0; expected a rank of at least 1", "--lora-rank");
    if (rank > m.n_embd)
        return make_error(error_code::invalid_params,
                          "LoRA rank " + std::to_string(rank) + " exceeds the hidden size " + std::to_string(m.n_embd) +
                              "; expected a rank below it",
                          "--lora-rank");
    if (targets.empty())
        return make_error(error_code::invalid_params,
                          "no LoRA target modules; expected all-linear or q,k,v,o,gate,up,down", "--lora-targets");

    bool all = false;
    std::vector<bool> wanted(static_cast<std::size_t>(tensor_role::count), false);
    std::vector<bool> saved(static_cast<std::size_t>(tensor_role::count), false);
    for (const auto& name : targets) {
        if (name == "all-linear" || name == "all_linear") {
            all = true;
            continue;
        }
        if (const saved_row* s = find_saved(name)) {
            if (std::none_of(m.tensors.begin(), m.tensors.end(),
                             [s](const tensor_desc& t) { return t.role == s->role; }))
                return make_error(error_code::invalid_params,
                                  "'" + name + "' has no separate weight in " +
                                      (m.arch.empty() ? std::string("this model") : m.arch) +
                                      " (tied embeddings: name embed); expected embed or lm_head",
                                  "--lora-targets");
            saved[static_cast<std::size_t>(s->role)] = true;
            continue;
        }
        const target_row* row = find_target(name);
        if (row == nullptr)
            return make_error(error_code::invalid_params,
                              "unknown LoRA target '" + name +
                                  "'; expected all-linear, q,k,v,o,gate,up,down, or embed,lm_head (trained whole)",
                              "--lora-targets");
        bool present = false;
        for (std::size_t i = 0; i < (row->only == ffn_kind::none || row->only == m.ffn ? row->n_roles : 0); ++i) {
            const tensor_role r                 = row->roles[i];
            wanted[static_cast<std::size_t>(r)] = true;
            present                             = present || std::any_of(m.tensors.begin(), m.tensors.end(),
                                                                         [r](const tensor_desc& t) { return t.role == r && adaptable(t); });
        }
        if (!present)
            return make_error(error_code::invalid_params,
                              "LoRA target '" + name + "' has no matching weight in " +
                                  (m.arch.empty() ? std::string("this model") : m.arch) +
                                  "; expected one of its linear layers",
                              "--lora-targets");
    }

    lora_plan plan;
    std::map<int, std::uint64_t> per_layer, inputs;
    std::vector<bool> seen(static_cast<std::size_t>(tensor_role::count), false);
    for (const auto& t : m.tensors) {
        if (saved[static_cast<std::size_t>(t.role)] && t.shape.size() >= 2) {
            plan.saved.push_back({t.shape[0], t.shape[1], 1});
            plan.saved_params += t.n_elements();
            plan.roles.emplace_back(std::string(role_name(t.role)) + " (trained whole)");
            continue;
        }
        if (!adaptable(t)) continue;
        if (!all && !wanted[static_cast<std::size_t>(t.role)]) continue;
        const std::size_t nd    = t.shape.size();
        const std::uint64_t out = t.shape[nd - 2];
        const std::uint64_t in  = t.shape[nd - 1];
        std::uint64_t copies    = 1;
        for (std::size_t i = 0; i + 2 < nd; ++i)
            copies *= t.shape[i]; // one adapter pair per expert
        plan.matrices.push_back({rank, in, copies});
        plan.matrices.push_back({out, rank, copies});
        const std::uint64_t n = static_cast<std::uint64_t>(rank) * (in + out) * copies;
        plan.params += n;
        per_layer[t.layer] += n;
        // What LoRA dropout copies: each adapted module's input, per token; stacked experts see a
        // token only in the n_expert_used experts it is routed to.
        const std::uint64_t routed =
            in * (copies > 1 ? std::min<std::uint64_t>(copies, std::max<std::uint64_t>(1, m.moe.n_expert_used)) : 1);
        inputs[t.layer] += routed;
        plan.total_inputs += routed;
        plan.input_groups |= lora_group_of(t.role);
        if (!seen[static_cast<std::size_t>(t.role)]) {
            seen[static_cast<std::size_t>(t.role)] = true;
            plan.roles.emplace_back(role_name(t.role));
        }
    }
    for (const auto& [layer, n] : per_layer)
        plan.largest_layer_params = std::max(plan.largest_layer_params, n);
    for (const auto& [layer, n] : inputs)
        plan.largest_layer_inputs = std::max(plan.largest_layer_inputs, n);
    if (plan.params == 0 && plan.saved_params == 0)
        return make_error(error_code::invalid_params, "no linear layer to adapt in " + m.arch, "--lora-targets");
    return plan;
}

} // namespace llmplan::detail
