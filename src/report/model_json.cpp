#include "llmplan/report.h"
#include "report/json_members.h"

namespace llmplan {

nlohmann::json model_to_json(const model_desc& m) {
    const auto p               = count_params(m);
    const auto& l              = m.typical_layer();
    std::uint32_t n_swa_layers = 0, n_kv_layers = 0, n_moe_layers = 0, n_swa = 0, n_state_layers = 0;
    const layer_desc* state = nullptr;
    for (const auto& x : m.layers) {
        // an encoder's attention caches nothing, nor a layer reusing another's K and V (Gemma 3n / 4)
        n_kv_layers += x.has_kv() && !x.in_encoder && !x.kv_shared ? 1 : 0;
        if (x.has_state()) ++n_state_layers, state = state ? state : &x;
        n_moe_layers += x.is_moe ? 1 : 0;
        if (x.n_swa) ++n_swa_layers, n_swa = x.n_swa;
    }
    nlohmann::json j = {
        {"n_params",           p.total                                                    },
        {"n_params_active",    p.active                                                   },
        {"head_dim",           l.head_dim_k                                               },
        {"weights_bytes",      weights_bytes(m)                                           },
        {"weights_source",     m.source == weights_source::tensors ? "tensors" : "formula"},
 // extra fields (not in the contract, free to grow)
        {"attention",          attn_kind_name(l.attn)                                     },
        {"n_kv_layers",        n_kv_layers                                                },
        {"n_swa_layers",       n_swa_layers                                               },
        {"n_state_layers",     n_state_layers                                             },
        {"n_swa",              n_swa                                                      },
        {"n_moe_layers",       n_moe_layers                                               },
        {"tied_embeddings",    m.tied_embd                                                },
        {"dtype",              m.weights_type_name()                                      },
        {"n_params_embedding", p.embedding                                                },
        {"n_tensors",          m.tensors.size()                                           },
    };
    // A model_type no table knows: "confidence": "low" and what was guessed, in plain words (absent
    // when the description is the family's own).
    if (m.low_confidence()) {
        j["confidence"] = "low";
        auto& g = j["guessed"] = nlohmann::json::array();
        for (const auto* list : {&m.guessed_weights, &m.guessed_cache})
            for (const auto& s : *list)
                g.push_back(s);
    }
    LLMPLAN_JSON_MEMBERS(j, m, id, arch, n_layer, n_embd, n_vocab, n_ctx_train, hf_class, gguf_arch, file_bytes, notes);
    LLMPLAN_JSON_MEMBERS(j, l, n_head, n_head_kv, head_dim_v, n_ff);
    LLMPLAN_JSON_MEMBERS(j, m.moe, n_expert, n_expert_used, n_expert_shared, n_ff_expert);
    // Linear-attention / state-space layers: the shape of their constant per-sequence state.
    if (state) {
        auto& r = j["recurrent_state"];
        LLMPLAN_JSON_MEMBERS(r, state->recurrent, conv_channels, conv_kernel, state_elems);
        r["mixer"] = mixer_name(state->recurrent.kind);
    }
    if (!m.origin.kind.empty())
        LLMPLAN_JSON_MEMBERS(j["origin"], m.origin, kind, location, revision, commit, repo, quant, files, requests,
                             bytes_fetched);
    if (l.attn == attn_kind::mla)
        LLMPLAN_JSON_MEMBERS(j["mla"], m.mla, q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim,
                             v_head_dim);
    // Encoder-decoders: n_layer counts both stacks; the encoder's come first.
    if (m.is_encoder_decoder()) j["n_encoder_layers"] = m.n_layer_enc;
    return j;
}

} // namespace llmplan
