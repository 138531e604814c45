#include "llmplan/report.h"

namespace llmplan {

nlohmann::json model_to_json(const model_desc& m) {
    const auto p               = count_params(m);
    const auto& l              = m.typical_layer();
    std::uint32_t n_swa_layers = 0, n_kv_layers = 0, n_moe_layers = 0, n_swa = 0, n_state_layers = 0;
    const layer_desc* state = nullptr;
    for (const auto& x : m.layers) {
        n_kv_layers += x.has_kv() ? 1 : 0;
        if (x.has_state()) ++n_state_layers, state = state ? state : &x;
        n_moe_layers += x.is_moe ? 1 : 0;
        if (x.n_swa) ++n_swa_layers, n_swa = x.n_swa;
    }
    nlohmann::json j = {
        {"id",                 m.id                                                       },
        {"arch",               m.arch                                                     },
        {"n_params",           p.total                                                    },
        {"n_params_active",    p.active                                                   },
        {"n_layer",            m.n_layer                                                  },
        {"n_embd",             m.n_embd                                                   },
        {"n_head",             l.n_head                                                   },
        {"n_head_kv",          l.n_head_kv                                                },
        {"head_dim",           l.head_dim_k                                               },
        {"n_vocab",            m.n_vocab                                                  },
        {"n_ctx_train",        m.n_ctx_train                                              },
        {"n_expert",           m.moe.n_expert                                             },
        {"n_expert_used",      m.moe.n_expert_used                                        },
        {"weights_bytes",      weights_bytes(m)                                           },
        {"weights_source",     m.source == weights_source::tensors ? "tensors" : "formula"},
 // extra fields (not in the contract, free to grow)
        {"hf_class",           m.hf_class                                                 },
        {"gguf_arch",          m.gguf_arch                                                },
        {"attention",          attn_kind_name(l.attn)                                     },
        {"head_dim_v",         l.head_dim_v                                               },
        {"n_kv_layers",        n_kv_layers                                                },
        {"n_swa_layers",       n_swa_layers                                               },
        {"n_state_layers",     n_state_layers                                             },
        {"n_swa",              n_swa                                                      },
        {"n_moe_layers",       n_moe_layers                                               },
        {"n_expert_shared",    m.moe.n_expert_shared                                      },
        {"n_ff_expert",        m.moe.n_ff_expert                                          },
        {"n_ff",               l.n_ff                                                     },
        {"tied_embeddings",    m.tied_embd                                                },
        {"dtype",              m.weights_type_name()                                      },
        {"n_params_embedding", p.embedding                                                },
        {"n_tensors",          m.tensors.size()                                           },
        {"file_bytes",         m.file_bytes                                               },
        {"notes",              m.notes                                                    },
    };
    // Linear-attention / state-space layers: the shape of their constant per-sequence state.
    if (state)
        j["recurrent_state"] = {
            {"mixer",         mixer_name(state->recurrent.kind)},
            {"conv_channels", state->recurrent.conv_channels   },
            {"conv_kernel",   state->recurrent.conv_kernel     },
            {"state_elems",   state->recurrent.state_elems     },
        };
    if (!m.origin.kind.empty())
        j["origin"] = {
            {"kind",          m.origin.kind         },
            {"location",      m.origin.location     },
            {"revision",      m.origin.revision     },
            {"commit",        m.origin.commit       },
            {"repo",          m.origin.repo         },
            {"quant",         m.origin.quant        },
            {"files",         m.origin.files        },
            {"requests",      m.origin.requests     },
            {"bytes_fetched", m.origin.bytes_fetched}
        };
    if (l.attn == attn_kind::mla)
        j["mla"] = {
            {"q_lora_rank",      m.mla.q_lora_rank     },
            {"kv_lora_rank",     m.mla.kv_lora_rank    },
            {"qk_nope_head_dim", m.mla.qk_nope_head_dim},
            {"qk_rope_head_dim", m.mla.qk_rope_head_dim},
            {"v_head_dim",       m.mla.v_head_dim      }
        };
    return j;
}

} // namespace llmplan
