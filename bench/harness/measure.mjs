// One measurement of real llama.cpp (node-llama-cpp 3.21.1, CPU build) in this fresh process.
// usage: node measure.mjs --model F.gguf --ctx N --batch B --fa on|off [--mmap on|off] [--threads 2]
// prints one JSON line: the options, llama.cpp's own buffer log lines (parsed to bytes),
// and the process's peak RSS (VmHWM) before loading and after evaluating a short prompt.
import fs from "node:fs";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";

function arg(name, dflt) {
  const i = process.argv.indexOf("--" + name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
function procStatus(key) {
  // /proc/self/status reports sizes in kB (1024 bytes), proc(5)
  const m = fs.readFileSync("/proc/self/status", "utf8").match(new RegExp("^" + key + ":\\s+(\\d+) kB", "m"));
  return m ? Number(m[1]) * 1024 : null;
}

const modelPath = arg("model");
const ctx = Number(arg("ctx", "512"));
const batch = Number(arg("batch", "512"));
const fa = arg("fa", "off") === "on";
const mmap = arg("mmap", "off") === "on";
const threads = Number(arg("threads", "2"));

const logs = [];
const hwmStart = procStatus("VmHWM");
const rssStart = procStatus("VmRSS");
const llama = await getLlama({
  gpu: false,
  build: "never",
  logLevel: LlamaLogLevel.debug,
  logger: (level, message) => logs.push(String(message).trimEnd()),
});
const rssLib = procStatus("VmRSS");
const model = await llama.loadModel({ modelPath, gpuLayers: 0, useMmap: mmap, ignoreMemorySafetyChecks: true });
const rssModel = procStatus("VmRSS");
const context = await model.createContext({
  contextSize: ctx,
  batchSize: batch,
  flashAttention: fa,
  threads,
  sequences: 1,
  ignoreMemorySafetyChecks: true,
});
const rssContext = procStatus("VmRSS");
const seq = context.getSequence();
const tokens = model.tokenize("The quick brown fox jumps over the lazy dog. ".repeat(4));
const t0 = Date.now();
await seq.evaluateWithoutGeneratingNewTokens(tokens);
const evalMs = Date.now() - t0;
const hwmEnd = procStatus("VmHWM");
const rssEnd = procStatus("VmRSS");

// llama.cpp buffer lines, e.g. "load_tensors:   CPU_Mapped model buffer size =   137.05 MiB",
// "llama_kv_cache:        CPU KV buffer size =    11.25 MiB", "llama_context:        CPU compute buffer size = ..."
// "llama_context:        CPU  output buffer size =     0.19 MiB". MiB = 2^20 bytes.
const buffers = { model: 0, kv: 0, compute: 0, output: 0 };
const bufferLines = [];
for (const line of logs.join("\n").split("\n")) {
  const m = line.match(/(\S+)\s+(model|KV|compute|output) buffer size\s*=\s*([\d.]+) MiB/);
  if (!m) continue;
  bufferLines.push(line.trim());
  const key = m[2] === "KV" ? "kv" : m[2];
  buffers[key] += Math.round(Number(m[3]) * 1048576);
}
const nCtxLine = logs.find((l) => /n_ctx\s*=/.test(l));
const interesting = logs.filter((l) =>
  /n_ctx|n_batch|n_ubatch|flash_attn|causal_attn|type_k|graph nodes|CPU_REPACK|kv_size/.test(l));

console.log(
  JSON.stringify({
    model: modelPath,
    ctx,
    batch,
    flash_attn: fa,
    mmap,
    threads,
    prompt_tokens: tokens.length,
    eval_ms: evalMs,
    context_size_actual: context.contextSize,
    batch_size_actual: context.batchSize,
    buffers_bytes: buffers,
    buffers_sum_bytes: buffers.model + buffers.kv + buffers.compute + buffers.output,
    rss_bytes: { start: rssStart, after_lib: rssLib, after_model: rssModel, after_context: rssContext, end: rssEnd },
    peak_rss_bytes: hwmEnd,
    peak_rss_start_bytes: hwmStart,
    buffer_lines: bufferLines,
    n_ctx_line: nCtxLine ?? null,
    log_excerpt: interesting.slice(0, 30),
  }),
);
await context.dispose();
await model.dispose();
await llama.dispose();
