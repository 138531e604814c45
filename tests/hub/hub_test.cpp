// The Hub reader against a stand-in Hub (tests/hub/fake_hub.py) on 127.0.0.1: answers, bytes and
// requests, caches, errors. Expected figures are worked out by hand beside each test.
#include "hub_server.h"
#include "llmplan/load.h"
#include "unit/cli_run.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace llmplan {
namespace {

namespace fs = std::filesystem;
using test::fake_hub;
using test::fresh_environment;

load_options quick() {
    load_options o;
    o.progress     = false;
    o.timeout      = std::chrono::milliseconds(10000); // the default: a loaded CI machine builds the fake repos slowly
    o.backoff_base = std::chrono::milliseconds(10);    // the retry rule is tested, not its wall time
    return o;
}

/// Loads `spec` with quick() options in a fresh environment (its own cache, no token).
auto load_fresh(const std::string& spec) {
    fresh_environment();
    return load_model(spec, quick());
}

/// Loading `spec` fails, and the error's message holds `text`.
void expect_load_error(const std::string& spec, const load_options& o, std::string_view text) {
    const auto m = load_model(spec, o);
    ASSERT_FALSE(m) << spec;
    EXPECT_NE(m.error().message.find(text), std::string::npos) << m.error().what();
}

std::uint64_t kind_bytes(const nlohmann::json& s, const char* kind) {
    return s["kinds"].contains(kind) ? s["kinds"][kind][1].get<std::uint64_t>() : 0;
}
std::uint64_t kind_requests(const nlohmann::json& s, const char* kind) {
    return s["kinds"].contains(kind) ? s["kinds"][kind][0].get<std::uint64_t>() : 0;
}

// Llama-3.1-70B (config.json of meta-llama/Llama-3.1-70B-Instruct), bf16, untied:
// embeddings and lm_head 2 x 128256 x 8192 = 2,101,346,304; a layer: q,o 2 x 8192^2 + k,v 2 x 1024 x 8192
// + 3 x 8192 x 28672 + 2 norms x 8192 = 855,654,400; x 80 layers + final norm 8192 = 70,553,706,496
// (Meta's model card: 70.6 B). Bytes: 2 per parameter.
constexpr std::uint64_t llama70b_params = 70553706496ull;

TEST(Hub, ShardedSafetensorsExactFromHeadersOnly) {
    auto m = load_fresh("hf:testorg/Llama-3.1-70B-Instruct");
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, llama70b_params);
    EXPECT_EQ(weights_bytes(*m), 2 * llama70b_params);
    EXPECT_EQ(m->source, weights_source::tensors);
    EXPECT_EQ(m->origin.kind, "hub");
    EXPECT_EQ(m->origin.commit, "34043ace3d09b83977579fea8ec691435fcda12e"); // sha1 of the repo name (fake_hub.py)
    EXPECT_EQ(m->origin.files.size(), 32u);                                  // config, index, 30 shards
    const auto s = fake_hub::get().stats();
    // One ranged read per shard: at most 256 KiB a shard, never a weight file.
    EXPECT_EQ(kind_requests(s, "cdn"), 30u);
    EXPECT_LE(kind_bytes(s, "cdn"), 30u * 256 * 1024);
    // The tree of 33 files comes in 5 pages of 8 (Link rel="next"); plus the model info.
    EXPECT_EQ(kind_requests(s, "api"), 6u);

    // A second run: one request (the revision to its commit); everything else from llmplan's cache.
    fake_hub::get().reset();
    auto again = load_model("hf:testorg/Llama-3.1-70B-Instruct", quick());
    ASSERT_TRUE(again) << again.error().what();
    EXPECT_EQ(count_params(*again).total, llama70b_params);
    EXPECT_LE(fake_hub::get().stats()["requests"].get<int>(), 2);
    EXPECT_LE(again->origin.requests, 2u);

    // Offline: none at all.
    fake_hub::get().reset();
    auto opt    = quick();
    opt.offline = true;
    auto off    = load_model("hf:testorg/Llama-3.1-70B-Instruct", opt);
    ASSERT_TRUE(off) << off.error().what();
    EXPECT_EQ(weights_bytes(*off), 2 * llama70b_params);
    EXPECT_EQ(fake_hub::get().stats()["requests"].get<int>(), 0);

    // The commit pinned in the name: no request even online.
    fake_hub::get().reset();
    auto pinned = load_model("hf:testorg/Llama-3.1-70B-Instruct@34043ace3d09b83977579fea8ec691435fcda12e", quick());
    ASSERT_TRUE(pinned) << pinned.error().what();
    EXPECT_EQ(fake_hub::get().stats()["requests"].get<int>(), 0);
}

// Llama-3.1-8B in GGUF (fake_hub.py llama8b_gguf_tensors): 8,030,261,248 parameters
// (embeddings and output 2 x 128256 x 4096; 32 layers of 218,112,000; final norm 4096), of which
// 266,240 are f32 norms (32 x 2 x 4096 + 4096).
constexpr std::uint64_t llama8b_params = 8030261248ull;
constexpr std::uint64_t llama8b_norms  = 266240ull;

TEST(Hub, GgufDefaultQuantIsQ4KMWithExactBytes) {
    auto m = load_fresh("hf:testorg/Llama-3.1-8B-Instruct-GGUF");
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, llama8b_params);
    EXPECT_EQ(m->weights_type, "q4_k_m");
    // Q6_K (210 bytes per 256) for output (525,336,576), attn_v (32 x 4,194,304) and ffn_down
    // (32 x 58,720,256) = 2,538,602,496 elements; Q4_K (144 per 256) for the other matrices; f32 norms.
    const std::uint64_t q6 = 525336576ull + 32 * 4194304ull + 32 * 58720256ull;
    const std::uint64_t q4 = llama8b_params - llama8b_norms - q6;
    EXPECT_EQ(weights_bytes(*m), q6 / 256 * 210 + q4 / 256 * 144 + 4 * llama8b_norms);
    ASSERT_EQ(m->origin.files.size(), 1u);
    EXPECT_EQ(m->origin.files[0], "Llama-3.1-8B-Instruct-Q4_K_M.gguf");
    // A ~9 MB header (128,256 tokens and 280,147 merges) in a few growing ranged reads, of a 5 GB file.
    const auto s = fake_hub::get().stats();
    EXPECT_LE(kind_requests(s, "cdn"), 4u);
    EXPECT_LE(kind_bytes(s, "cdn"), std::uint64_t{16} << 20);
}

TEST(Hub, SplitGgufQuantByTagReadsEveryPart) {
    auto m = load_fresh("hf:testorg/Llama-3.1-8B-Instruct-GGUF:q8_0"); // the tag is case-insensitive
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, llama8b_params);
    // Q8_0: 34 bytes per 32 elements of every matrix, f32 norms.
    EXPECT_EQ(weights_bytes(*m), (llama8b_params - llama8b_norms) / 32 * 34 + 4 * llama8b_norms);
    EXPECT_EQ(m->origin.files.size(), 2u);
    EXPECT_EQ(m->weights_type, "q8_0");
    // Part 2 holds only split keys and its tensor infos: one small read.
    EXPECT_LE(kind_bytes(fake_hub::get().stats(), "cdn"), (std::uint64_t{16} << 20) + (256u << 10));
}

TEST(Hub, MissingQuantNamesWhatTheRepoHas) {
    auto m = load_fresh("hf:testorg/Llama-3.1-8B-Instruct-GGUF:Q5_K_S");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::file_not_found);
    EXPECT_NE(m.error().message.find("Llama-3.1-8B-Instruct-Q4_K_M.gguf"), std::string::npos) << m.error().what();
    EXPECT_EQ(m.error().message.find("mmproj"), std::string::npos) << m.error().what();
}

TEST(Hub, GatedRepoWithoutWithWrongAndWithGrantedToken) {
    auto m = load_fresh("hf:testorg/gated-model");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::access_denied);
    EXPECT_NE(m.error().message.find("HF_TOKEN"), std::string::npos);
    EXPECT_NE(m.error().message.find("/testorg/gated-model"), std::string::npos);
    EXPECT_NE(m.error().message.find("the Hub lists 134515008 parameters"), std::string::npos) << m.error().what();

    ::setenv("HF_TOKEN", "hf_not_granted", 1);
    expect_load_error("hf:testorg/gated-model", quick(), "not been granted");

    // Granted: the weights come from the CDN, which answers 400 to a forwarded Authorization header,
    // so this passing also shows the token stayed on the Hub's host.
    ::setenv("HF_TOKEN", "hf_granted_token_for_tests", 1);
    m = load_model("hf:testorg/gated-model", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, 134515008u); // SmolLM2-135M (tied embeddings)
    ::unsetenv("HF_TOKEN");
}

TEST(Hub, TokenFromTheTokenFile) {
    const auto dir = fresh_environment();
    fs::create_directories(dir / "hf");
    std::ofstream(dir / "hf" / "token") << "hf_granted_token_for_tests\n";
    auto m = load_model("hf:testorg/gated-model", quick());
    ASSERT_TRUE(m) << m.error().what();
}

TEST(Hub, NoSuchModelAndNoSuchRevision) {
    auto m = load_fresh("hf:nobody/nothing");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::file_not_found);
    EXPECT_NE(m.error().message.find("no such model"), std::string::npos) << m.error().what();
    expect_load_error("hf:testorg/SmolLM2-135M@no-such-branch", quick(), "no revision \"no-such-branch\"");
}

TEST(Hub, RateLimitedSaysWhenTheWindowResets) {
    fresh_environment();
    const auto t0 = std::chrono::steady_clock::now();
    auto m        = load_model("hf:hostile/ratelimited", quick());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::rate_limited);
    EXPECT_NE(m.error().message.find("resets in 300 s"), std::string::npos) << m.error().what();
    // A 300 s wait is reported, not slept (the bound leaves a loaded CI machine its slack).
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
}

TEST(Hub, TransientAnswersAreRetried) {
    for (const char* name : {"hf:hostile/flaky429", "hf:hostile/flaky500"}) {
        auto m = load_fresh(name);
        ASSERT_TRUE(m) << name << ": " << m.error().what();
        EXPECT_EQ(count_params(*m).total, 134515008u);
    }
}

TEST(Hub, SlowServerTimesOut) {
    fresh_environment();
    auto opt      = quick();
    opt.timeout   = std::chrono::milliseconds(1000);
    const auto t0 = std::chrono::steady_clock::now();
    auto m        = load_model("hf:hostile/slow", opt);
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::timed_out) << m.error().what();
    // The server answers after 20 s: far less than that means the 1 s timeout cut the request (the
    // model-info request before it and a loaded CI machine take the rest of the slack).
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST(Hub, DroppedConnectionFailsAfterBoundedRetries) {
    auto m = load_fresh("hf:hostile/drop");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::connection_lost) << m.error().what();
    EXPECT_EQ(kind_requests(fake_hub::get().stats(), "cdn"), 6u); // the first try and 5 retries
}

TEST(Hub, ServerIgnoringRangeIsCutShort) {
    auto m = load_fresh("hf:hostile/norange");
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, 134515008u);
    // The file is 269 MB; what left the server before the client hung up is socket buffers at most.
    EXPECT_LT(kind_bytes(fake_hub::get().stats(), "cdn"), std::uint64_t{16} << 20);
}

TEST(Hub, LyingSizesAndRedirectLoopsAreErrors) {
    fresh_environment();
    expect_load_error("hf:hostile/liar", quick(), "the listing says");
    expect_load_error("hf:hostile/loop", quick(), "redirect loop");
}

TEST(Hub, HeaderOfExactly100000Bytes) {
    auto m = load_fresh("hf:testorg/edge-header");
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, 134515008u);
    // bytes 0-99999 hold 99,992 header bytes; the last 8 take a second read.
    EXPECT_EQ(kind_requests(fake_hub::get().stats(), "cdn"), 2u);
}

TEST(Hub, HeadersPastTheCapsAreRefused) {
    auto m = load_fresh("hf:hostile/huge"); // safetensors N = 200,000,000 > 100 MiB
    ASSERT_FALSE(m);
    EXPECT_EQ(kind_requests(fake_hub::get().stats(), "cdn"), 1u) << m.error().what(); // refused before fetching it
    fake_hub::get().reset();
    expect_load_error("hf:hostile/huge:Q8_0", quick(), "64 MiB"); // a GGUF key of 100 MB
    EXPECT_LE(kind_bytes(fake_hub::get().stats(), "cdn"), std::uint64_t{64} << 20);
}

TEST(Hub, NetworkDownAndOfflineWithNothingCached) {
    fresh_environment();
    ::setenv("HF_ENDPOINT", "http://127.0.0.1:1", 1); // nothing listens on port 1
    auto m = load_model("hf:testorg/SmolLM2-135M", quick());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::network) << m.error().what();
    ::setenv("HF_HUB_OFFLINE", "1", 1);
    expect_load_error("hf:testorg/SmolLM2-135M", quick(), "offline");
    ::unsetenv("HF_HUB_OFFLINE");
}

// A bare ORG/NAME found nowhere (offline, nothing cached) gets the catalog's "did you mean"
// (suggest.h): another organisation's copy of a catalog model.
TEST(Hub, OfflineNameFoundNowhereGetsSuggestions) {
    fresh_environment();
    auto o    = quick();
    o.offline = true;
    auto m    = load_model("unsloth/Qwen3-8B", o);
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("did you mean Qwen/Qwen3-8B"), std::string::npos) << m.error().what();
    m = load_model("hf:unsloth/Qwen3-8B", o); // an explicit Hub name is not second-guessed
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().message.find("did you mean"), std::string::npos) << m.error().what();
}

/// A Hugging Face cache entry as huggingface_hub writes it (hub-api.md §4): blobs, refs/main,
/// snapshots/<commit>/<file> as relative symlinks to the blobs.
void write_hf_cache(const fs::path& hub, const std::string& folder, const std::string& file, const fs::path& source) {
    const std::string commit = "0123456789abcdef0123456789abcdef01234567";
    const fs::path repo      = hub / folder;
    fs::create_directories(repo / "blobs");
    fs::create_directories(repo / "refs");
    fs::create_directories(repo / "snapshots" / commit);
    fs::copy_file(source, repo / "blobs" / "b1");
    std::ofstream(repo / "refs" / "main") << commit;
    fs::create_symlink("../../blobs/b1", repo / "snapshots" / commit / file);
}

TEST(Hub, LocalHuggingFaceCacheReadsWithoutNetwork) {
    const auto dir = fresh_environment();
    ::setenv("HF_ENDPOINT", "http://127.0.0.1:1", 1); // any request would fail
    write_hf_cache(dir / "hf" / "hub", "models--someone--tiny-GGUF", "llama-2-tiny-random.Q8_0.gguf",
                   fs::path(LLMPLAN_TEST_DATA) / "gguf" / "llama-2-tiny-random.gguf");
    for (const char* name : {"hf:someone/tiny-GGUF", "someone/tiny-GGUF"}) {
        auto m = load_model(name, quick());
        ASSERT_TRUE(m) << m.error().what();
        EXPECT_EQ(m->origin.kind, "hf-cache");
        EXPECT_EQ(m->origin.commit, "0123456789abcdef0123456789abcdef01234567");
        EXPECT_EQ(m->n_embd, 8u); // llama-2-tiny-random.gguf: embedding width 8 (tests/data/gguf/README.md)
    }
    // No refs/main (a download by commit): the one snapshot there is.
    fs::remove(dir / "hf" / "hub" / "models--someone--tiny-GGUF" / "refs" / "main");
    auto no_ref = load_model("hf:someone/tiny-GGUF", quick());
    ASSERT_TRUE(no_ref) << no_ref.error().what();
    EXPECT_EQ(no_ref->origin.kind, "hf-cache");
    // A config alone is enough offline (weights from the formula).
    write_hf_cache(dir / "hf" / "hub", "models--someone--smol", "config.json",
                   fs::path(LLMPLAN_SOURCE_DIR) / "tests/hub/data/SmolLM2-135M.config.json");
    auto opt    = quick();
    opt.offline = true;
    auto m      = load_model("someone/smol", opt);
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(count_params(*m).total, 134515008u);
}

// huggingface_hub's .no_exist/<commit>/<path> (hub-api.md §4): transformers' from_pretrained asked
// for model.safetensors, then the index; the Hub answered 404 EntryNotFound to both and the cache
// recorded it. The snapshot holds the config (a .bin-only repo). Both known absent: the repo has no
// safetensors weights, which is all the Hub's listing would say, so no request is made.
TEST(Hub, NoExistEntriesAreKnownAbsentWithoutRequests) {
    const auto dir           = fresh_environment();
    const fs::path repo      = dir / "hf" / "hub" / "models--someone--bin-only";
    const std::string commit = "0123456789abcdef0123456789abcdef01234567"; // write_hf_cache's
    write_hf_cache(dir / "hf" / "hub", "models--someone--bin-only", "config.json",
                   fs::path(LLMPLAN_SOURCE_DIR) / "tests/hub/data/SmolLM2-135M.config.json");
    const auto requests = [] { return fake_hub::get().stats()["requests"].get<std::uint64_t>(); };
    // A config alone, online, with nothing known absent: the Hub is asked (it has no such repo).
    EXPECT_FALSE(load_model("hf:someone/bin-only", quick()));
    EXPECT_GT(requests(), 0u);
    // Only model.safetensors known absent (a sharded repo whose index was not downloaded): still asked.
    fs::create_directories(repo / ".no_exist" / commit);
    std::ofstream(repo / ".no_exist" / commit / "model.safetensors").flush();
    fake_hub::get().reset();
    EXPECT_FALSE(load_model("hf:someone/bin-only", quick()));
    EXPECT_GT(requests(), 0u);
    // Both known absent: read from the cache alone.
    std::ofstream(repo / ".no_exist" / commit / "model.safetensors.index.json").flush();
    fake_hub::get().reset();
    auto m = load_model("hf:someone/bin-only", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(requests(), 0u);
    EXPECT_EQ(m->origin.kind, "hf-cache");
    EXPECT_EQ(m->origin.commit, commit);
    EXPECT_EQ(count_params(*m).total, 134515008u); // SmolLM2-135M's architecture, as in the tests above
    EXPECT_EQ(m->source, weights_source::formula);
}

TEST(Hub, ModelScopeApiAndCache) {
    const auto dir = fresh_environment();
    auto m         = load_model("ms:testorg/SmolLM2-135M", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->origin.kind, "modelscope");
    EXPECT_EQ(count_params(*m).total, 134515008u);
    EXPECT_EQ(weights_bytes(*m), 2 * 134515008u);
    // The branch resolved once to its newest commit (.../commits?Ref=master); the listing and the
    // files then name the commit, never the branch.
    const std::string sha = "a13a13e1d615ea533b21d9445ec1b0f8da66723a"; // sha1 of the repo name (fake_hub.py)
    EXPECT_EQ(m->origin.revision, "master");
    EXPECT_EQ(m->origin.commit, sha);
    auto revs = fake_hub::get().stats()["revisions"];
    EXPECT_FALSE(revs.contains("master")) << revs.dump();
    EXPECT_EQ(revs.value(sha, 0), 3) << revs.dump(); // the listing, config.json, model.safetensors' header
    // Again: only the commit lookup; offline: nothing, from llmplan's cache at that commit.
    fake_hub::get().reset();
    m = load_model("ms:testorg/SmolLM2-135M", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(fake_hub::get().stats()["requests"], 1);
    auto offline    = quick();
    offline.offline = true;
    fake_hub::get().reset();
    m = load_model("ms:testorg/SmolLM2-135M", offline);
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->origin.commit, sha);
    EXPECT_EQ(fake_hub::get().stats()["requests"], 0);
    // A server without the commits route (404): unpinned, every request names the branch.
    fake_hub::get().reset();
    m = load_model("ms:testorg/old-modelscope", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->origin.commit, "");
    EXPECT_EQ(count_params(*m).total, 134515008u);
    EXPECT_EQ(fake_hub::get().stats()["revisions"].value("master", 0), 3);
    m = load_model("ms:nobody/nothing", quick());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, error_code::file_not_found) << m.error().what();
    // ModelScope's cache: models/ORG/NAME with '.' spelled "___" (hub-api.md §7).
    const fs::path snap = dir / "ms" / "models" / "someone" / "Smol___v2";
    fs::create_directories(snap);
    fs::copy_file(fs::path(LLMPLAN_TEST_DATA) / "gguf" / "llama-2-tiny-random.gguf", snap / "tiny.Q8_0.gguf");
    ::setenv("HF_ENDPOINT", "http://127.0.0.1:1", 1);
    m = load_model("someone/Smol.v2", quick());
    ASSERT_TRUE(m) << m.error().what();
    EXPECT_EQ(m->origin.kind, "modelscope-cache");
}

TEST(Hub, RefreshFetchesAgain) {
    fresh_environment();
    ASSERT_TRUE(load_model("hf:testorg/SmolLM2-135M", quick()));
    fake_hub::get().reset();
    auto opt    = quick();
    opt.refresh = true;
    ASSERT_TRUE(load_model("hf:testorg/SmolLM2-135M", opt));
    EXPECT_EQ(kind_requests(fake_hub::get().stats(), "cdn"), 1u);
}

TEST(HubCli, InspectEstimateAndOffline) {
    fresh_environment();
    auto r = test::run_cli_with("", "inspect hf:testorg/SmolLM2-135M --json --timeout 5");
    ASSERT_EQ(r.status, 0);
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["model"]["n_params"], 134515008u);
    EXPECT_EQ(j["model"]["origin"]["kind"], "hub");
    EXPECT_EQ(j["model"]["origin"]["commit"], "a13a13e1d615ea533b21d9445ec1b0f8da66723a");
    r = test::run_cli_with("", "estimate hf:testorg/SmolLM2-135M --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_GT(nlohmann::json::parse(r.out)["devices"][0]["total_bytes"].get<std::uint64_t>(), 2 * 134515008u);
    // --offline before or after the subcommand; a model never fetched: exit 2, nothing on stdout, one
    // line naming the model and why.
    for (const char* args : {"--offline inspect hf:testorg/gated-model", "inspect hf:testorg/gated-model --offline"})
        test::expect_refused(args, "hf:testorg/gated-model@main: offline");
}

/// The launch line of `engine` in the first candidate that has one.
std::string launch_of(const nlohmann::json& plan, const std::string& engine) {
    for (const auto& c : plan["candidates"])
        if (c["launch"].contains(engine)) return c["launch"][engine].get<std::string>();
    return {};
}

// A model read from the Hub is launched from the Hub: the engine fetches the same files by repo id.
TEST(HubCli, LaunchLinesNameTheRepo) {
    fresh_environment();
    // GGUF, quant picked by llama.cpp's default (Q4_K_M): llama.cpp -hf ORG/NAME:QUANT (common/arg.cpp),
    // Ollama FROM hf.co/ORG/NAME:QUANT after pulling it.
    auto r = test::run_cli_with("", "plan hf:testorg/Llama-3.1-8B-Instruct-GGUF --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(r.status, 0);
    auto j                  = nlohmann::json::parse(r.out);
    const std::string llama = launch_of(j, "llama.cpp"), ollama = launch_of(j, "ollama");
    EXPECT_NE(llama.find("llama-server -hf testorg/Llama-3.1-8B-Instruct-GGUF:Q4_K_M "), std::string::npos) << llama;
    EXPECT_EQ(llama.find(" -m "), std::string::npos) << llama;
    EXPECT_NE(ollama.find("ollama pull hf.co/testorg/Llama-3.1-8B-Instruct-GGUF:Q4_K_M && "), std::string::npos)
        << ollama;
    EXPECT_NE(ollama.find("FROM hf.co/testorg/Llama-3.1-8B-Instruct-GGUF:Q4_K_M\\n"), std::string::npos) << ollama;
    r = test::run_cli_with("", "inspect hf:testorg/Llama-3.1-8B-Instruct-GGUF --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out)["model"]["origin"]["quant"], "Q4_K_M");
    EXPECT_EQ(nlohmann::json::parse(r.out)["model"]["origin"]["repo"], "testorg/Llama-3.1-8B-Instruct-GGUF");
    // The tag as asked (llama.cpp matches it case-insensitively), here a split quant.
    r = test::run_cli_with("", "plan hf:testorg/Llama-3.1-8B-Instruct-GGUF:q8_0 --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(launch_of(nlohmann::json::parse(r.out), "llama.cpp").find("-hf testorg/Llama-3.1-8B-Instruct-GGUF:q8_0 "),
              std::string::npos);
    // Safetensors: vLLM names the repo; a revision other than main is pinned to its commit.
    r = test::run_cli_with("", "plan hf:testorg/SmolLM2-135M --engine vllm --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(r.status, 0);
    const std::string vllm = launch_of(nlohmann::json::parse(r.out), "vllm");
    EXPECT_TRUE(vllm.starts_with("vllm serve testorg/SmolLM2-135M --tensor-parallel-size")) << vllm;
    const std::string sha = "a13a13e1d615ea533b21d9445ec1b0f8da66723a"; // sha1 of the repo name (fake_hub.py)
    r                     = test::run_cli_with("",
                                               "plan hf:testorg/SmolLM2-135M@" + sha + " --engine vllm --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(launch_of(nlohmann::json::parse(r.out), "vllm").find("serve testorg/SmolLM2-135M --revision " + sha),
              std::string::npos);
    // ModelScope: vLLM fetches from there with VLLM_USE_MODELSCOPE=True (vllm/envs.py).
    r = test::run_cli_with("", "plan ms:testorg/SmolLM2-135M --engine vllm --hardware 'H100 SXM 80GB' --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_TRUE(launch_of(nlohmann::json::parse(r.out), "vllm")
                    .starts_with("VLLM_USE_MODELSCOPE=True vllm serve testorg/SmolLM2-135M "));
}

} // namespace
} // namespace llmplan
