// A walk over the page's answers in Arabic and Chinese that lists English left outside names (the
// browser test's check, over more questions): node tests/web/walk_english.mjs LLMPLAN_BINARY
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { englishLeft, launchChromium, startServe } from "./page_tools.mjs";

const [llmplan] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const puppeteer = require("puppeteer-core");
const { server, base } = await startServe(llmplan);
const { browser, profile } = await launchChromium(puppeteer, "llmplan-walk-");
const laptop = "Thin-and-light, 16GB RAM, no discrete GPU (Core Ultra 7 155H class)";
const questions = (process.env.WALK || "").split(";").filter(Boolean).map((q) => Object.fromEntries(new URLSearchParams(q))).concat(process.env.WALK ? [] : [
  { model: "Qwen/Qwen2.5-7B-Instruct", my: `row:${laptop}`, device: "cpu", engine: "llama.cpp", weights: "q4_k_m" },
  { model: "Qwen/Qwen2.5-7B-Instruct" },
  { model: "meta-llama/Llama-3.3-70B-Instruct", engine: "vllm", ctx: "6000", batch: "50", prompt: "500" },
  { model: "meta-llama/Llama-3.1-8B-Instruct", task: "train" },
  { model: "Qwen/Qwen2.5-32B-Instruct", task: "train", method: "qlora" },
  { model: "meta-llama/Llama-3.1-405B-Instruct" },
  { model: "Qwen/Qwen3-30B-A3B", my: "describe", "my-kind": "mac", "my-chip": "Apple M3 Pro", "my-memory-gb": "36" },
  { model: "meta-llama/Llama-3.1-8B-Instruct", task: "serve", engine: "vllm", "request-rate": "20", "ttft-ms": "500",
    "tpot-ms": "50", hardware: "H100 SXM 80GB" },
  { model: "meta-llama/Llama-3.1-8B-Instruct", task: "serve", engine: "sglang", concurrency: "64" },
]);
const english = (p) => englishLeft(p, 300);
const seen = new Set();
try {
  for (const lang of ["ar", "zh"])
    for (const q of questions) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 1800 });
      await page.goto(`${base}?${new URLSearchParams({ ...q, lang })}`);
      await page.waitForFunction(() => Number(document.body.dataset.done || 0) > 0 && document.body.dataset.busy === "0",
                                 { timeout: 120000 });
      const shown = await page.evaluate(() => ({ error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
                                                 lines: document.querySelectorAll("li").length }));
      if (process.env.WALK_VERBOSE) console.log(`${lang} ${q.model}: ${shown.lines} lines${shown.error ? `, error: ${shown.error}` : ""}`);
      for (const s of await english(page)) if (!seen.has(s)) { seen.add(s); console.log(`${lang} ${q.model}: ${s}`); }
      await page.close();
    }
} finally {
  await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
console.log(`${seen.size} English sentence(s)`);
