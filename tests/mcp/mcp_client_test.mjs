// `llmplan mcp` driven by the Model Context Protocol's own TypeScript SDK client (npm
// @modelcontextprotocol/sdk, pinned in package-lock.json) over stdio: the handshake, tools/list,
// tools/call answers equal to the CLI's --json, and the errors an agent gets for a bad call.
//   usage: node mcp_client_test.mjs LLMPLAN
// Installs its one dependency with `npm ci` when it is missing; exits 77 (ctest: skipped) with the
// reason only when that cannot be done and LLMPLAN_REQUIRE_NPM is not set (CI sets it).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
const llmplan = process.argv[2];
if (!llmplan) {
  console.error("usage: node mcp_client_test.mjs LLMPLAN");
  process.exit(2);
}
if (!existsSync(join(here, "node_modules", "@modelcontextprotocol", "sdk"))) {
  try {
    execFileSync("npm", ["ci", "--prefix", here, "--no-audit", "--no-fund"], { stdio: "inherit" });
  } catch (e) {
    const why = `npm ci in ${here} failed (${e.message}): the MCP SDK client is not installed`;
    if (process.env.LLMPLAN_REQUIRE_NPM === "1") {
      console.error(why);
      process.exit(1);
    }
    console.log(`SKIPPED: ${why}`);
    process.exit(77);
  }
}
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");

let passed = 0;
let failed = 0;
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name}\n${e.stack}`);
  }
}

// The CLI's answer for the same question, parsed (what structuredContent must equal).
function cli(...args) {
  return JSON.parse(execFileSync(llmplan, [...args, "--json"], { encoding: "utf8", env: { ...process.env, HF_HUB_OFFLINE: "1" } }));
}
// Rows measured on this machine at each run ("kind": "local") differ between two runs.
function withoutLocal(v) {
  if (Array.isArray(v)) return v.filter((e) => !(e && e.kind === "local")).map(withoutLocal);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutLocal(x)]));
  return v;
}

const transport = new StdioClientTransport({
  command: llmplan,
  args: ["mcp"],
  env: { ...process.env, HF_HUB_OFFLINE: "1" },
  stderr: "inherit",
});
const client = new Client({ name: "llmplan-test", version: "1.0.0" });
await client.connect(transport); // initialize + notifications/initialized, as every client does

await test("initialize names the server and its protocol revision", async () => {
  assert.equal(client.getServerVersion().name, "llmplan");
  assert.ok(client.getServerCapabilities().tools, "the tools capability is declared");
  assert.match(client.getInstructions() ?? "", /run or train a language model/);
});

await test("tools/list has one tool per command with schemas from the option table", async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["check", "estimate", "fit", "hardware", "inspect", "models", "plan"]);
  const estimate = tools.find((t) => t.name === "estimate");
  assert.equal(estimate.inputSchema.type, "object");
  assert.deepEqual(estimate.inputSchema.required, ["model"]);
  // --ctx is a whole number of at least 1; --engine one of the engines; --gpu-memory-utilization a number.
  assert.equal(estimate.inputSchema.properties.ctx.type, "integer");
  assert.equal(estimate.inputSchema.properties.ctx.minimum, 1);
  assert.ok(estimate.inputSchema.properties.engine.enum.includes("vllm"));
  assert.equal(estimate.inputSchema.properties.gpu_memory_utilization.type, "number");
  assert.equal(estimate.inputSchema.properties.lora_targets.type, "array");
  const check = tools.find((t) => t.name === "check");
  assert.deepEqual(check.inputSchema.required, ["log"]);
});

await test("estimate returns the CLI's JSON as structuredContent and as text", async () => {
  const r = await client.callTool({ name: "estimate", arguments: { model: "Qwen/Qwen2.5-7B-Instruct", ctx: 8192 } });
  assert.equal(r.isError, false);
  const want = cli("estimate", "Qwen/Qwen2.5-7B-Instruct", "--ctx", "8192");
  assert.deepEqual(r.structuredContent, want);
  assert.deepEqual(JSON.parse(r.content[0].text), want);
  // Qwen2.5-7B at 8192 tokens in f16: 28 layers x 4 KV heads x 128 x 2 (K, V) x 2 bytes = 57,344 bytes a token.
  assert.equal(r.structuredContent.kv_bytes_per_token, 57344);
});

await test("options by their CLI names with - as _, booleans for on/off, lists as arrays", async () => {
  const args = { model: "meta-llama/Llama-3.1-8B-Instruct", task: "train", method: "lora", lora_targets: ["q", "v"], grad_checkpointing: true, seq: 1024 };
  const r = await client.callTool({ name: "estimate", arguments: args });
  assert.equal(r.isError, false, r.content?.[0]?.text);
  assert.deepEqual(withoutLocal(r.structuredContent), withoutLocal(cli("estimate", "meta-llama/Llama-3.1-8B-Instruct", "--task", "train", "--method", "lora", "--lora-targets", "q,v", "--grad-checkpointing", "on", "--seq", "1024")));
});

await test("models and hardware answer as the CLI does", async () => {
  const m = await client.callTool({ name: "models", arguments: { filter: "qwen2.5-7b" } });
  assert.deepEqual(m.structuredContent, cli("models", "qwen2.5-7b"));
  const h = await client.callTool({ name: "hardware", arguments: { name: "rtx-4090" } });
  assert.equal(h.isError, false, h.content?.[0]?.text);
  assert.deepEqual(withoutLocal(h.structuredContent), withoutLocal(cli("hardware", "show", "rtx-4090")));
});

await test("a bad value is a tool error naming the option", async () => {
  const r = await client.callTool({ name: "estimate", arguments: { model: "Qwen/Qwen2.5-7B-Instruct", ctx: 0 } });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /--ctx/);
  const u = await client.callTool({ name: "estimate", arguments: { model: "Qwen/Qwen2.5-7B-Instruct", context_length: 4096 } });
  assert.equal(u.isError, true);
  assert.match(u.content[0].text, /context_length/);
  const n = await client.callTool({ name: "estimate", arguments: { model: "no-such-model-anywhere" } });
  assert.equal(n.isError, true);
  assert.match(n.content[0].text, /no-such-model-anywhere/);
});

await test("an unknown tool is a JSON-RPC invalid-params error", async () => {
  await assert.rejects(client.callTool({ name: "train", arguments: {} }), (e) => e.code === -32602 && /train/.test(e.message));
});

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
