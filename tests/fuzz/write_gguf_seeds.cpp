// A tool, not a test: writes the GGUF fuzz seed corpus (tests/fuzz/corpus/fuzz_gguf) into the folder
// it is given. Built with the tests (build/tests/write_gguf_seeds), run by hand when the seeds change:
//
//     build/tests/write_gguf_seeds tests/fuzz/corpus/fuzz_gguf
//
// The seeds stay under 4 KB (gguf_test's fuzz_corpus_replays checks that, and that each generated seed
// reads and maps to a model; the corpus is replayed by the replay.fuzz_gguf test).
#include "unit/gguf_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace llmplan::test;
namespace fs = std::filesystem;

bool write_file(const fs::path& p, const std::vector<std::byte>& b) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    if (!out) std::fprintf(stderr, "%s: cannot write\n", p.c_str());
    return static_cast<bool>(out);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2 || !fs::is_directory(argv[1])) {
        std::fprintf(stderr, "usage: write_gguf_seeds DIR (an existing folder, e.g. tests/fuzz/corpus/fuzz_gguf)\n");
        return 2;
    }
    const fs::path dir = argv[1];
    bool ok            = true;
    // A 1-block model with 4 small tensors (f16, q8_0, f32).
    auto micro       = tiny_llama_spec();
    micro.kvs[1].val = v_u32(1);  // block_count
    micro.kvs[2].val = v_u32(32); // embedding_length
    micro.kvs[7].val = v_u32(4);  // vocab_size
    micro.tensors    = {
           {"token_embd.weight",      {32, 4}, 1, {}},
           {"blk.0.attn_q.weight",    {32, 4}, 8, {}},
           {"blk.0.attn_norm.weight", {32},    0, {}},
           {"output.weight",          {32, 4}, 1, {}}
    };
    ok &= write_file(dir / "micro_llama.gguf", build(micro));
    // Arrays (nested, of strings, per-layer KV heads) and a sliding window.
    gguf_spec arrays;
    const value nested = v_array(t_array, {v_u32_array({1}), v_u32_array({2, 3})});
    const value tokens = v_array(t_string, {v_str("a"), v_str("b")});
    arrays.kvs.push_back({"general.architecture", v_str("gemma2")});
    arrays.kvs.push_back({"gemma2.block_count", v_u32(2)});
    arrays.kvs.push_back({"gemma2.embedding_length", v_u32(16)});
    arrays.kvs.push_back({"gemma2.attention.head_count", v_u32(2)});
    arrays.kvs.push_back({"gemma2.attention.head_count_kv", v_u32_array({2, 1})});
    arrays.kvs.push_back({"gemma2.attention.sliding_window", v_u32(8)});
    arrays.kvs.push_back({"nested", nested});
    arrays.kvs.push_back({"tokenizer.ggml.tokens", tokens});
    ok &= write_file(dir / "arrays_swa.gguf", build(arrays));
    // The micro model with 64-byte alignment.
    auto aligned      = micro;
    aligned.alignment = 64;
    aligned.kvs.push_back({"general.alignment", v_u32(64)});
    ok &= write_file(dir / "aligned64.gguf", build(aligned));
    // The first 4 KB of a real file (tests/data/gguf/llama-2-tiny-random.gguf): a cut-off token list.
    std::ifstream in(std::string(LLMPLAN_TEST_DATA) + "/gguf/llama-2-tiny-random.gguf", std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (c.size() < 4096) {
        std::fprintf(stderr, "%s/gguf/llama-2-tiny-random.gguf: cannot read its first 4 KB\n", LLMPLAN_TEST_DATA);
        return 1;
    }
    std::vector<std::byte> head(4096);
    std::memcpy(head.data(), c.data(), head.size());
    ok &= write_file(dir / "llama2_tiny_first4k.gguf", head);
    if (ok) std::printf("wrote 4 seeds to %s\n", dir.c_str());
    return ok ? 0 : 1;
}
