// load_model: catalog id, config.json path, model directory, or GGUF file -> model_desc.
#include "llmplan/load.h"

#include "llmplan/gguf.h"
#include "llmplan/hf_config.h"
#include "llmplan/safetensors.h"
#include "model/arch_tensors.h"
#include "model/hub/hub.h"
#include "model/load_detail.h"
#include "model/quant_config.h"
#include "model/suggest.h"
#include "model/unknown_arch.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace llmplan {
namespace fs = std::filesystem;
namespace {

// A config.json is a few KB (the largest in data/models, Nemotron-Ultra's 162 DeciLM block_configs, is 74 KB);
// 16 MiB bounds what we read from a path the user gave.
constexpr std::uintmax_t max_config_bytes = 16u << 20;

result<std::string> read_text(const fs::path& p) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec) return make_error(error_code::file_not_found, "cannot read: " + ec.message(), p.string());
    if (size > max_config_bytes)
        return make_error(error_code::bad_value, fmt::format("{} bytes; expected a config.json under 16 MiB", size),
                          p.string());
    std::ifstream in(p, std::ios::binary);
    if (!in) return make_error(error_code::read_failed, "cannot open", p.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

result<model_desc> load_config_file(const fs::path& config) {
    auto text = read_text(config);
    if (!text) return text.error();
    auto m = parse_hf_config(*text, config.string());
    if (!m) return m;
    m->id = config.parent_path().filename().string();
    // NVIDIA's ModelOpt checkpoints (nvidia/DeepSeek-V3.1-NVFP4 ...) keep their quantization in
    // hf_quant_config.json beside a config.json that has none (vLLM reads it: modelopt.py
    // get_config_filenames).
    std::error_code ec;
    if (const auto sidecar = config.parent_path() / "hf_quant_config.json"; fs::exists(sidecar, ec)) {
        auto q = read_text(sidecar);
        if (!q) return q.error();
        if (auto s = detail::apply_hf_quant_config(*m, *q, sidecar.string()); !s) return s.error();
    }
    return m;
}

} // namespace

result<model_desc> detail::add_checkpoint(model_desc m, const safetensors_model& st) {
    m.file_bytes = st.headers_read ? st.file_bytes : st.index_total_size;
    if (!st.headers_read) {
        m.notes.push_back("only the safetensors index is present: weights from the formula, disk size from the index");
        return m;
    }
    if (m.quant.method != quant_method::none) {
        m.notes.push_back("quantized checkpoint: parameters from the architecture, bytes on disk from its files");
        return m;
    }
    m.tensors = st.tensors;
    m.source  = weights_source::tensors;
    detail::weights_read_from_tensors(m); // an unknown family's weights are no longer guessed
    return m;
}

/// A checkpoint folder: the config describes the architecture; the safetensors headers (when
/// present) give the exact tensors. Unquantized checkpoints replace the generated tensors by the
/// file's; quantized ones (packed int32/uint8 blocks, scales) keep the architecture's tensors for
/// parameter counts and record the exact bytes on disk.
result<model_desc> detail::load_model_dir(const fs::path& dir) {
    auto m = load_config_file(dir / "config.json");
    if (!m) return m;
    std::error_code ec;
    bool has_weights = fs::exists(dir / "model.safetensors.index.json", ec);
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".safetensors") has_weights = true;
    if (!has_weights) return m;
    auto st = read_safetensors_dir(dir.string());
    if (!st) return st.error();
    return add_checkpoint(std::move(*m), *st);
}

result<model_desc> detail::model_from_gguf_file(const gguf_file& g, const std::string& path) {
    auto m = model_from_gguf(g, path);
    if (!m) return m;
    m->gguf_path = path;
    // A vocab-only GGUF (tokenizer tests) has the architecture's numbers but no tensors: size the
    // weights from the architecture as for a config-only model.
    if (m->tensors.empty() && m->n_layer > 0) {
        m->torch_dtype = dtype::f16;
        generate_tensors(*m);
        m->source = weights_source::formula;
        m->notes.push_back("vocab-only GGUF: weights from the architecture at f16");
    }
    return m;
}

namespace {

result<model_desc> load_gguf(const fs::path& p) {
    auto g = read_gguf_file(p.string());
    if (!g) return g.error();
    return detail::model_from_gguf_file(*g, p.string());
}

result<model_desc> with_origin(result<model_desc> m, std::string kind, std::string location) {
    if (m && m->origin.kind.empty()) {
        m->origin.kind     = std::move(kind);
        m->origin.location = std::move(location);
    }
    return m;
}

} // namespace

namespace {
result<model_desc> load_model_unchecked(std::string_view spec, const load_options& options);
} // namespace

result<model_desc> load_model(std::string_view spec, const load_options& options) {
    auto m = load_model_unchecked(spec, options);
    if (m)
        if (auto s = detail::check_weights_known(*m); !s) return s.error();
    return m;
}

namespace {

result<model_desc> load_model_unchecked(std::string_view spec, const load_options& options) {
    if (options.uploaded) return *options.uploaded;
    if (spec.empty()) return make_error(error_code::bad_value, "empty MODEL; expected a catalog id or a path", "MODEL");
    std::error_code ec;
    const fs::path p(spec);
    if (options.allow_paths && fs::is_directory(p, ec)) {
        const auto config = p / "config.json";
        if (!fs::exists(config, ec))
            return make_error(error_code::file_not_found,
                              "directory has no config.json; expected a Hugging Face model folder", p.string());
        return with_origin(detail::load_model_dir(p), "file", p.string());
    }
    if (options.allow_paths && fs::is_regular_file(p, ec)) {
        if (p.extension() == ".gguf") return with_origin(load_gguf(p), "file", p.string());
        return with_origin(load_config_file(p), "file", p.string());
    }
    auto name = hub::parse_model_name(spec);
    if (name && !*name) return name->error();
    if (!(name && (*name)->prefixed))
        if (const auto* e = find_in_catalog(spec)) return with_origin(load_catalog_model(*e), "catalog", e->id);
    if (name) return hub::load_hub_model(**name, options);
    std::string msg = "not a file, a directory, or a catalog id (see `llmplan models` for the catalog)";
    if (const auto s = suggest_models(spec, 3); !s.empty())
        msg += "; did you mean " + format_suggestions(s) + "?";
    else if (const auto f = same_name_models(spec); !f.empty()) {
        msg += "; the catalog has no such model; other versions or sizes of that name:";
        for (std::size_t i = 0; i < f.size(); ++i)
            msg += (i ? ", " : " ") + f[i];
    }
    return make_error(error_code::file_not_found, msg, std::string(spec));
}

} // namespace

} // namespace llmplan
