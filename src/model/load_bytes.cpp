// load_model_bytes: a config.json or the beginning of a .gguf held in memory -> model_desc.
#include "llmplan/load_bytes.h"

#include "llmplan/gguf.h"
#include "llmplan/hf_config.h"
#include "model/arch_tensors.h"

#include <cstddef>
#include <fmt/format.h>
#include <span>

namespace llmplan {
namespace {

// The GGUF magic, the file's first four bytes (ggml/docs/gguf.md).
constexpr std::string_view gguf_magic = "GGUF";

result<model_desc> gguf_from_bytes(std::string_view bytes, std::string_view name, std::uint64_t file_size_bytes) {
    gguf_read_options o;
    o.file_size_bytes   = file_size_bytes > bytes.size() ? file_size_bytes : 0;
    o.check_data_extent = o.file_size_bytes == 0;
    const std::span<const std::byte> span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    auto g = read_gguf(span, name, o);
    if (!g) return g.error();
    auto m = model_from_gguf(*g, name);
    if (!m) return m;
    m->gguf_path = std::string(name);
    // A vocab-only GGUF has the architecture but no tensors: size weights as for a config (load.cpp).
    if (m->tensors.empty() && m->n_layer > 0) {
        m->torch_dtype = dtype::f16;
        generate_tensors(*m);
        m->source = weights_source::formula;
        m->notes.push_back("vocab-only GGUF: weights from the architecture at f16");
    }
    return m;
}

} // namespace

result<model_desc> load_model_bytes(std::string_view bytes, std::string_view name, std::uint64_t file_size_bytes) {
    if (bytes.empty())
        return make_error(error_code::bad_value, "empty body; expected a config.json or the start of a .gguf",
                          std::string(name));
    if (bytes.size() > max_model_bytes)
        return make_error(error_code::bad_value,
                          fmt::format("{} bytes; expected at most {} (a config.json or a GGUF header)", bytes.size(),
                                      max_model_bytes),
                          std::string(name));
    if (bytes.substr(0, gguf_magic.size()) == gguf_magic) return gguf_from_bytes(bytes, name, file_size_bytes);
    auto m = parse_hf_config(bytes, name);
    if (!m) return m;
    m->id = std::string(name);
    return m;
}

} // namespace llmplan
