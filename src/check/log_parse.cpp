// Engine logs -> log_facts. Each engine's lines are recognised by the words the engine prints
// (llama.cpp: llama-model-loader / llama-context / llama-kv-cache in src/*.cpp, old and new
// prefixes; vLLM: worker/gpu_model_runner.py, gpu_worker.py, kv_cache_utils.py; transformers
// prints no memory lines, so only the model id is recovered). Sizes as printed: llama.cpp MiB and
// GiB are 2^20 and 2^30; vLLM's "GB" in "Loading model weights took X GB" is bytes / 2^30 too
// (vllm/worker/model_runner.py divides by float(2**30)).
#include "check/log_parse.h"

#include "detail/checked_number.h"
#include "detail/strings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace llmplan {
namespace {

using detail::lower;

constexpr std::uint64_t vllm_block_tokens = 16; // CacheConfig.block_size default: "# GPU blocks: N" x 16 tokens

/// Drop a "123: " line-number prefix (logs quoted with numbers) and surrounding spaces.
std::string_view trim_line(std::string_view s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    std::size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        ++i;
    if (i > 0 && i + 1 < s.size() && s[i] == ':' && s[i + 1] == ' ') s.remove_prefix(i + 2);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    return s;
}

} // namespace

namespace detail {

std::optional<double> parse_number(std::string_view s, std::size_t& used) {
    // Digits with one decimal separator and an optional exponent ("1e40", "2.5E+3"); a comma is the
    // decimal point when no dot follows (German locales print "24079,77 MiB"); "436,512 tokens"
    // (vLLM's thousands) is read by the caller. Every digit is read (a long run of them is a large
    // number, not its first digits); the caller checks the range before the value becomes a size.
    std::string digits;
    std::size_t i  = 0;
    bool separator = false;
    bool any_digit = false;
    while (i < s.size()) {
        const char c = s[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            digits += c;
            any_digit = true;
        } else if ((c == '.' || c == ',') && !separator && any_digit && i + 1 < s.size() &&
                   std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            digits += '.';
            separator = true;
        } else {
            break;
        }
        ++i;
    }
    if (!any_digit) return std::nullopt;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
            digits += 'e';
            digits.append(s.substr(i + 1, j - i - 1));
            while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
                digits += s[j++];
            i = j;
        }
    }
    used = i;
    return std::strtod(digits.c_str(), nullptr); // "1e999" is inf: the callers' range checks refuse it
}

std::optional<std::string_view> value_after(std::string_view line, std::string_view key) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view s = line.substr(at + key.size());
    for (bool again = true; again;) {
        again = false;
        while (!s.empty() && (s.front() == ' ' || s.front() == '=' || s.front() == ':' || s.front() == '(' ||
                              s.front() == '\t' || s.front() == '\''))
            s.remove_prefix(1), again = true;
        for (std::string_view w : {"takes ", "take ", "is ", "took "})
            if (s.substr(0, w.size()) == w) s.remove_prefix(w.size()), again = true;
    }
    return s;
}

std::optional<double> number_after(std::string_view line, std::string_view key, std::string_view* rest) {
    const auto s = value_after(line, key);
    if (!s) return std::nullopt;
    std::size_t used = 0;
    auto v           = parse_number(*s, used);
    if (v && rest) *rest = s->substr(used);
    return v;
}

bool is_unusable_number(std::string_view s) {
    // A sign, or a word a printf of a double gives ("nan", "inf", "-nan", "-inf"): a number the
    // engine meant but no size or count can be. A digit is read by parse_number instead.
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
    if (s.empty()) return false;
    if (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '.') return true;
    const std::string w = lower(s.substr(0, 3));
    return w == "nan" || w == "inf";
}

std::optional<std::uint64_t> bytes_of(double value, std::string_view unit_text) {
    while (!unit_text.empty() && unit_text.front() == ' ')
        unit_text.remove_prefix(1);
    double unit = 1;
    if (unit_text.substr(0, 3) == "GiB" || unit_text.substr(0, 2) == "GB")
        unit = 1ull << 30; // vLLM "GB" is GiB (above)
    else if (unit_text.substr(0, 3) == "MiB" || unit_text.substr(0, 2) == "MB")
        unit = 1ull << 20;
    else if (unit_text.substr(0, 3) == "KiB" || unit_text.substr(0, 2) == "KB")
        unit = 1ull << 10;
    else
        return std::nullopt;
    // No buffer an engine prints reaches 2^50 bytes (1 PiB; the largest GPU holds 288 GB, a host a
    // few TB): a larger figure is a misprint or a corrupted line, not memory to compare with.
    const auto bytes = to_integer<std::uint64_t>(value * unit, rounding::nearest);
    if (!bytes || *bytes > max_log_bytes) return std::nullopt;
    return bytes;
}

std::optional<std::uint64_t> size_after(std::string_view line, std::string_view key) {
    std::string_view rest;
    auto v = number_after(line, key, &rest);
    if (!v) return std::nullopt;
    return bytes_of(*v, rest);
}

std::string device_of_buffer(std::string_view name) {
    const std::string n = lower(name);
    // Host buffers: the CPU's (pinned CUDA_Host memory included); ggml backends number their devices.
    if (n.rfind("cpu", 0) == 0 || n.find("_host") != std::string::npos) return "cpu";
    if (n.rfind("metal", 0) == 0 || n.rfind("mtl", 0) == 0) return "metal";
    std::size_t i = n.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(n[i - 1])))
        --i;
    // No digits, or more than a device count has ("CUDA99999..."): the first GPU.
    const std::string index = i < n.size() && n.size() - i <= 3 ? n.substr(i) : "0";
    return "cuda:" + index; // CUDA0, ROCm0, Vulkan0, SYCL0: one GPU each
}

std::optional<std::string> gguf_ftype_of(std::string_view printed) {
    // llama_model_ftype_name(): "Q4_K - Medium", "Q5_K - Small", "Q3_K - Large", "IQ2_XXS - 2.0625 bpw",
    // "IQ3_S mix - 3.66 bpw" (= IQ3_M), "MXFP4 MoE", "all F32", "F16", "BF16", "Q8_0", "Q2_K - Medium" (= Q2_K).
    std::string s = lower(printed);
    if (s == "all f32") return "f32";
    if (s.rfind("mxfp4", 0) == 0) return "mxfp4_moe";
    if (s.rfind("iq3_s mix", 0) == 0) return "iq3_m";
    const auto dash  = s.find(" - ");
    std::string base = s.substr(0, dash);
    while (!base.empty() && base.back() == ' ')
        base.pop_back();
    if (dash == std::string::npos) return base;
    const std::string tail = s.substr(dash + 3);
    if (base == "q2_k" && tail == "small") return "q2_k_s";
    if (base == "q2_k") return base;
    if (tail == "small") return base + "_s";
    if (tail == "medium") return base + "_m";
    if (tail == "large") return base + "_l";
    return base; // "IQ2_XXS - 2.0625 bpw"
}

} // namespace detail
} // namespace llmplan

namespace llmplan {
namespace {

using detail::number_after;

/// The text after the first " = " (llama.cpp's print_info "key = value").
std::string_view value_of(std::string_view line) {
    const auto eq = line.find(" = ");
    if (eq == std::string_view::npos) return {};
    std::string_view v = line.substr(eq + 3);
    while (!v.empty() && v.front() == ' ')
        v.remove_prefix(1);
    return v;
}

/// A quoted value after key ("model='X'", "'model': 'X'").
std::optional<std::string> quoted_after(std::string_view line, std::string_view key) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const auto open = line.find('\'', at + key.size());
    if (open == std::string_view::npos || open > at + key.size() + 3) return std::nullopt;
    const auto close = line.find('\'', open + 1);
    if (close == std::string_view::npos || close == open + 1) return std::nullopt;
    return std::string(line.substr(open + 1, close - open - 1));
}

/// An integer printed with thousands commas ("436,512 tokens").
std::optional<std::uint64_t> count_after(std::string_view line, std::string_view key) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::uint64_t v = 0;
    bool any        = false;
    for (std::size_t i = at + key.size(); i < line.size(); ++i) {
        const char c = line[i];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (v > (1ull << 50)) return std::nullopt;
            v   = v * 10 + static_cast<std::uint64_t>(c - '0');
            any = true;
        } else if (c == ',' && any) {
            continue;
        } else if (any || (c != ' ' && c != ':' && c != '=')) {
            break;
        }
    }
    return any ? std::optional<std::uint64_t>(v) : std::nullopt;
}

using detail::has;

void set_figure(log_facts& f, std::string part, std::string device, std::uint64_t bytes, std::size_t line, bool add) {
    for (auto& e : f.figures)
        if (e.part == part && e.device == device) {
            e.bytes = add ? e.bytes + bytes : bytes;
            e.line  = line;
            return;
        }
    f.figures.push_back({std::move(part), std::move(device), bytes, line});
}

/// The value after key as printed, for a note: up to the next space, comma or bracket.
std::string_view printed_value(std::string_view s) {
    const auto end = s.find_first_of(" ,)]'\t");
    return s.substr(0, std::min<std::size_t>(end, 32));
}

void note_ignored(log_facts& f, std::size_t n, std::string_view key, std::string_view value,
                  std::string_view expected) {
    f.notes.push_back(
        fmt::format("line {}: {} {} is not {}; that value was ignored", n, key, printed_value(value), expected));
}

/// A whole number after key in [lo, hi]. A value there that is out of range, negative or not a
/// number is not taken: the notes say which line and why (an engine never prints such a setting,
/// so the line is damaged or not the engine's).
template <class T>
std::optional<T> whole_after(log_facts& f, std::string_view line, std::size_t n, std::string_view key, T lo, T hi) {
    const auto s = detail::value_after(line, key);
    if (!s) return std::nullopt;
    std::size_t used    = 0;
    const auto v        = detail::parse_number(*s, used);
    const auto expected = [&] { return fmt::format("a whole number from {} to {}", lo, hi); };
    if (!v) {
        if (detail::is_unusable_number(*s)) note_ignored(f, n, key, *s, expected());
        return std::nullopt;
    }
    const auto i = detail::to_integer<T>(*v, detail::rounding::nearest);
    if (!i || *i < lo || *i > hi) {
        note_ignored(f, n, key, *s, expected());
        return std::nullopt;
    }
    return i;
}

/// A size with its unit after key, in bytes; a number with a unit past 1 PiB, or a negative or
/// non-numeric one, is noted and not taken.
std::optional<std::uint64_t> size_of(log_facts& f, std::string_view line, std::size_t n, std::string_view key) {
    const auto s = detail::value_after(line, key);
    if (!s) return std::nullopt;
    std::size_t used                    = 0;
    const auto v                        = detail::parse_number(*s, used);
    constexpr std::string_view expected = "a size from 0 to 1 PiB";
    if (!v) {
        if (detail::is_unusable_number(*s)) note_ignored(f, n, key, *s, expected);
        return std::nullopt;
    }
    auto bytes = detail::bytes_of(*v, s->substr(used));
    if (!bytes) {
        std::string_view unit = s->substr(used);
        while (!unit.empty() && unit.front() == ' ')
            unit.remove_prefix(1);
        // Only a figure with a size unit is a size; "took 12.5 seconds" is not one and is no error.
        if (unit.size() >= 2 && (unit[1] == 'B' || (unit.size() >= 3 && unit.substr(1, 2) == "iB")))
            note_ignored(f, n, key, *s, expected);
    }
    return bytes;
}

/// llama.cpp: "<prefix>: <NAME> [KV|compute|output|RS] buffer size = X MiB".
bool read_llama_buffer(log_facts& f, std::string_view line, std::size_t n) {
    const auto at = line.find(" buffer size");
    if (at == std::string_view::npos) return false;
    auto bytes = size_of(f, line, n, "buffer size");
    if (!bytes) return false;
    std::string_view head = line.substr(0, at);
    std::string part      = "weights";
    for (auto [word, p] : {
             std::pair{"KV",      "kv_cache"},
             {"RS",      "kv_cache"},
             {"compute", "compute" },
             {"output",  "compute" },
             {"model",   "weights" }
    })
        if (head.size() > std::string_view(word).size() &&
            head.substr(head.size() - std::string_view(word).size()) == word) {
            part = p;
            head.remove_suffix(std::string_view(word).size());
            break;
        }
    while (!head.empty() && head.back() == ' ')
        head.remove_suffix(1);
    const auto sp              = head.find_last_of(" :");
    const std::string_view buf = sp == std::string_view::npos ? head : head.substr(sp + 1);
    if (buf.empty()) return false;
    const std::string dev = detail::device_of_buffer(buf);
    if (dev == "metal") f.metal = true;
    set_figure(f, part, dev, *bytes, n, true);
    return true;
}

/// llama-server's host-memory lines (memory outside llama.cpp's buffers, in RAM): the prompt cache
/// of evicted slots (--cache-ram, 8192 MiB by default: llama.cpp PR 16391, Oct 2025; logged "prompt
/// cache is enabled, size limit: 8192 MiB", ollama issue 18072) and the context checkpoints of
/// recurrent / SWA models ("created context checkpoint 1 of 8 (... size = 149.626 MiB)", llama.cpp
/// PR 22929). A note each; true when recognised.
bool read_llama_server_line(log_facts& f, std::string_view line, std::size_t n) {
    if (has(line, "prompt cache is enabled")) {
        if (auto v = size_of(f, line, n, "size limit"))
            f.notes.push_back(fmt::format("llama-server keeps up to {} MiB of evicted prompts in host RAM "
                                          "(--cache-ram; 0 turns it off), beyond the buffers below",
                                          *v >> 20));
        return true;
    }
    if (has(line, "created context checkpoint")) {
        const auto of = number_after(line, " of ");
        const auto v  = size_of(f, line, n, "size");
        if (of && v && f.notes.end() == std::find_if(f.notes.begin(), f.notes.end(), [](const std::string& s) {
                           return s.starts_with("llama-server keeps context checkpoints");
                       }))
            f.notes.push_back(fmt::format("llama-server keeps context checkpoints in host RAM: up to {:.0f} a "
                                          "slot (--ctx-checkpoints), {:.1f} MiB each here",
                                          *of, static_cast<double>(*v) / (1 << 20)));
        return true;
    }
    return false;
}

/// One llama.cpp line; true when recognised.
bool read_llama_line(log_facts& f, std::string_view line, std::size_t n) {
    if (read_llama_buffer(f, line, n)) return true;
    if (read_llama_server_line(f, line, n)) return true;
    // -fa auto (b6327+): "Flash Attention was auto, set to enabled" resolves the "flash_attn = auto" line.
    if (has(line, "Flash Attention was auto, set to ")) {
        f.flash_attn = has(line, "set to enabled");
        return true;
    }
    const bool meta = has(line, "print_info") || has(line, "llm_load_print_meta") || has(line, "llama_model_loader");
    const bool ctx =
        has(line, "llama_new_context_with_model") || has(line, "llama_context") || has(line, "llama_kv_cache");
    if (meta && has(line, "general.name") && !value_of(line).empty()) {
        f.model_name = std::string(value_of(line));
        return true;
    }
    if (meta && (has(line, "model ftype") || has(line, "file type")) && !value_of(line).empty()) {
        f.file_type  = std::string(value_of(line));
        f.gguf_ftype = detail::gguf_ftype_of(f.file_type);
        return true;
    }
    if (meta && (has(line, "model size") || has(line, "file size"))) {
        f.model_size = size_of(f, line, n, "=");
        return true;
    }
    if (has(line, "layers to GPU") && has(line, "offloaded")) {
        // "offloaded 33/33 layers": no model has a million layers.
        if (auto v = whole_after<std::int64_t>(f, line, n, "offloaded", 0, 1'000'000)) f.gpu_layers = *v;
        return true;
    }
    if (ctx) {
        auto whole = [&](std::string_view key) -> std::optional<std::uint64_t> {
            // Context and batch sizes: llama.cpp holds them in uint32_t (llama_context_params).
            return whole_after<std::uint64_t>(f, line, n, key, 0, std::numeric_limits<std::uint32_t>::max());
        };
        if (has(line, " n_ctx ") || has(line, " n_ctx="))
            f.n_ctx = whole("n_ctx");
        else if (has(line, " n_batch "))
            f.n_batch = whole("n_batch");
        else if (has(line, " n_ubatch "))
            f.n_ubatch = whole("n_ubatch");
        else if (has(line, " flash_attn ")) {
            const auto v = lower(value_of(line));
            f.flash_attn = v == "1" || v == "true" || v == "enabled" || v == "auto";
        }
        // "K (q8_0): 1598.00 MiB, V (q8_0): ..." and "type_k = 'f16', type_v = 'f16'"
        auto type_in = [&](std::string_view open) -> std::optional<dtype> {
            const auto at = line.find(open);
            if (at == std::string_view::npos) return std::nullopt;
            const auto s   = at + open.size();
            const auto end = line.find_first_of(")'", s);
            if (end == std::string_view::npos) return std::nullopt;
            return dtype_from_name(lower(line.substr(s, end - s)));
        };
        if (auto k = type_in("K (")) f.type_k = k;
        if (auto v = type_in("V (")) f.type_v = v;
        if (auto k = type_in("type_k = '")) f.type_k = k;
        if (auto v = type_in("type_v = '")) f.type_v = v;
        return true;
    }
    return meta;
}

/// vLLM 0.21.0: the first release that profiles CUDA graphs by default and says so in its log
/// ("CUDA graph memory profiling is enabled (default since v0.21.0)", gpu_worker.py).
constexpr engine_version first_graph_profiling_release{0, 21, 0};

/// The vLLM release a line names: "vLLM API server version 0.27.1" (api_server.py) or
/// "Initializing a V1 LLM engine (v0.11.0) with config" (llm_engine.py / core.py). A development
/// build's suffix ("0.7.4.dev390+g...") is dropped.
std::optional<engine_version> version_in_line(std::string_view line) {
    std::string_view rest;
    if (auto at = line.find("server version "); at != std::string_view::npos)
        rest = line.substr(at + 15);
    else if (auto at2 = line.find("LLM engine (v"); at2 != std::string_view::npos)
        rest = line.substr(at2 + 13);
    else
        return std::nullopt;
    std::size_t end = 0, dots = 0;
    while (end < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[end])) || rest[end] == '.')) {
        if (rest[end] == '.' && ++dots == 3) break;
        ++end;
    }
    auto text = rest.substr(0, end);
    while (!text.empty() && text.back() == '.')
        text.remove_suffix(1);
    auto v = parse_engine_version(text, engine_kind::vllm);
    if (!v) return std::nullopt;
    return *v;
}

/// One vLLM line; true when recognised.
bool read_vllm_line(log_facts& f, std::string_view line, std::size_t n) {
    bool hit = false;
    for (std::string_view key : {"model='", "'model': '"})
        if (auto v = quoted_after(line, key.substr(0, key.size() - 1)); v && f.model_name.empty())
            f.model_name = *v, hit = true;
    if (const auto at = line.find("vllm serve "); at != std::string_view::npos && f.model_name.empty()) {
        auto rest    = line.substr(at + 11);
        f.model_name = std::string(rest.substr(0, rest.find(' ')));
        hit          = true;
    }
    for (std::string_view key : {"max_model_len", "max_seq_len"})
        // vLLM's ModelConfig.max_model_len is a Python int; no model is trained past 2^32 tokens.
        if (auto v = whole_after<std::uint64_t>(f, line, n, key, 1, std::numeric_limits<std::uint32_t>::max()))
            f.max_model_len = *v, hit = true;
    // Tensor parallelism spans the GPUs of a job; 1024 is past the largest NVLink domain (576, GB300 NVL576).
    if (auto v = whole_after<std::uint32_t>(f, line, n, "tensor_parallel_size", 1, 1024))
        f.tensor_parallel = *v, hit = true;
    if (auto v = number_after(line, "gpu_memory_utilization"); v && *v > 0 && *v <= 1)
        f.gpu_memory_utilization = *v, hit = true;
    if (auto v = size_of(f, line, n, "total_gpu_memory")) f.total_gpu_memory = v, hit = true;
    if (auto k = quoted_after(line, "kv_cache_dtype="); k && *k != "auto") f.kv_cache_dtype = dtype_from_name(*k);
    for (std::string_view key : {"Loading model weights took", "Model loading took", "model weights take"})
        if (auto v = size_of(f, line, n, key)) set_figure(f, "weights", "cuda:0", *v, n, false), hit = true;
    if (auto v = size_of(f, line, n, "non_torch_memory")) set_figure(f, "overhead", "cuda:0", *v, n, false), hit = true;
    if (auto v = size_of(f, line, n, "activation peak memory"))
        set_figure(f, "activations", "cuda:0", *v, n, false), hit = true;
    if (auto v = size_of(f, line, n, "peak_torch_memory"))
        set_figure(f, "peak_torch", "cuda:0", *v, n, false), hit = true;
    for (std::string_view key :
         {"available_kv_cache_memory", "Available KV cache memory", "kv_cache_size", "reserved for KV Cache is"})
        if (auto v = size_of(f, line, n, key)) set_figure(f, "kv_cache", "cuda:0", *v, n, false), hit = true;
    if (auto v = count_after(line, "GPU KV cache size:")) f.kv_tokens = v, hit = true;
    if (auto v = count_after(line, "GPU blocks:")) f.kv_tokens = *v * vllm_block_tokens, hit = true;
    if (auto v = version_in_line(line)) f.version = *v, hit = true;
    // 0.21+: the start-up profile's CUDA graph estimate, taken out of the KV pool (gpu_model_runner.py,
    // gpu_worker.py); a capture line later in the log replaces it with what the capture took.
    if (auto v = size_of(f, line, n, "Estimated CUDA graph memory")) {
        set_figure(f, "cuda_graphs", "cuda:0", *v, n, false), hit = true;
        if (!f.version || f.version->key() < first_graph_profiling_release.key())
            f.version = first_graph_profiling_release;
    }
    if (has(line, "CUDA graph memory profiling is enabled")) {
        hit = true;
        if (!f.version || f.version->key() < first_graph_profiling_release.key())
            f.version = first_graph_profiling_release;
    }
    if (has(line, "Graph capturing finished"))
        if (auto v = size_of(f, line, n, "took")) set_figure(f, "cuda_graphs", "cuda:0", *v, n, false), hit = true;
    return hit;
}

/// After a llama.cpp log's last line: the GPUs are those its buffers name (CUDA0, CUDA1 ...).
void finish_llama(log_facts& f) {
    for (const auto& e : f.figures)
        if (e.device.rfind("cuda:", 0) == 0)
            f.gpu_devices =
                std::max<std::uint32_t>(f.gpu_devices, static_cast<std::uint32_t>(std::stoul(e.device.substr(5))) + 1);
}

/// After a vLLM log's last line: older V0 logs print the peak of torch's allocator (weights
/// included), not the activations alone.
void finish_vllm(log_facts& f) {
    const engine_figure* peak = nullptr;
    const engine_figure* w    = nullptr;
    for (const auto& e : f.figures) {
        if (e.part == "peak_torch") peak = &e;
        if (e.part == "weights") w = &e;
    }
    const bool has_act =
        std::any_of(f.figures.begin(), f.figures.end(), [](const auto& e) { return e.part == "activations"; });
    if (peak && w && !has_act && peak->bytes >= w->bytes)
        f.figures.push_back({"activations", "cuda:0", peak->bytes - w->bytes, peak->line});
    std::erase_if(f.figures, [](const auto& e) { return e.part == "peak_torch"; });
}

/// transformers prints no memory figures: the model id of a from_pretrained call, when quoted.
bool read_transformers_line(log_facts& f, std::string_view line) {
    const auto at = line.find("from_pretrained(");
    if (at == std::string_view::npos) return false;
    const auto open = line.find_first_of("'\"", at);
    if (open == std::string_view::npos) return true;
    const auto close = line.find(line[open], open + 1);
    if (close != std::string_view::npos && f.model_name.empty())
        f.model_name = std::string(line.substr(open + 1, close - open - 1));
    return true;
}

} // namespace

result<log_facts> parse_engine_log(std::string_view text, std::string_view path) {
    log_facts llama, vllm, tf;
    llama.engine        = engine_kind::llama_cpp;
    vllm.engine         = engine_kind::vllm;
    tf.engine           = engine_kind::transformers;
    std::size_t n_llama = 0, n_vllm = 0, n_tf = 0, line_no = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end  = std::min(text.find('\n', start), text.size());
        const auto line = trim_line(text.substr(start, end - start));
        ++line_no;
        if (!line.empty()) {
            n_llama += read_llama_line(llama, line, line_no);
            n_vllm += read_vllm_line(vllm, line, line_no);
            n_tf += read_transformers_line(tf, line);
        }
        if (end == text.size()) break;
        start = end + 1;
    }
    if (n_llama == 0 && n_vllm == 0 && n_tf == 0)
        return make_error(error_code::bad_value,
                          "no llama.cpp, vLLM or transformers log line recognised; expected the engine's start-up "
                          "log (llama.cpp print_info/buffer size lines, vLLM memory profiling lines)",
                          std::string(path));
    finish_llama(llama);
    finish_vllm(vllm);
    log_facts f = n_llama >= n_vllm && n_llama >= n_tf ? std::move(llama)
                  : n_vllm >= n_tf                     ? std::move(vllm)
                                                       : std::move(tf);
    if (f.figures.empty() && f.model_name.empty())
        return make_error(
            error_code::bad_value,
            fmt::format("{} log lines recognised but neither a memory figure nor a model name", engine_name(f.engine)),
            std::string(path));
    return f;
}

} // namespace llmplan
