// Screenshots of the page for docs/: the student's question (Qwen2.5-7B-Instruct on a 16 GB laptop
// without a GPU) in English, Arabic and Chinese, at desktop and phone width.
// Usage: node tests/web/screenshots.mjs build/llmplan docs   (npm ci --prefix tests/web first)
// Writes docs/page-{en,ar,zh}-{desktop,phone}.png: the top of the page (the machine's answer, the
// question and the memory), as a person first sees it; and docs/page-serving-en-desktop.png, the
// "serve many users" mode.
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { launchChromium, startServe } from "./page_tools.mjs";

const [llmplan, out] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const puppeteer = require("puppeteer-core");
const { server, base } = await startServe(llmplan);
const { browser, profile } = await launchChromium(puppeteer, "llmplan-shots-");
const laptop = "Thin-and-light, 16GB RAM, no discrete GPU (Core Ultra 7 155H class)";
try {
  for (const lang of ["en", "ar", "zh"])
    for (const [name, width, height] of [["desktop", 1400, 1500], ["phone", 390, 1800]]) {
      const page = await browser.newPage();
      await page.setViewport({ width, height });
      const q = new URLSearchParams({ model: "Qwen/Qwen2.5-7B-Instruct", my: `row:${laptop}`, device: "cpu", engine: "llama.cpp",
                                      weights: "q4_k_m", lang });
      await page.goto(`${base}?${q}`);
      await page.waitForFunction(() => Number(document.body.dataset.done || 0) > 0 && document.body.dataset.busy === "0",
                                 { timeout: 60000 });
      const file = path.join(out, `page-${lang}-${name}.png`);
      await page.screenshot({ path: file });
      console.log(file);
      await page.close();
    }
  // The serving mode (issue 22): a small model on one named GPU, the load and the targets, the chart drawn.
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1400 });
  const q = new URLSearchParams({ task: "serve", model: "Qwen/Qwen2.5-0.5B-Instruct", engine: "vllm", concurrency: "32",
                                  "ttft-ms": "500", "tpot-ms": "50", hardware: "H100 SXM 80GB", lang: "en" });
  await page.goto(`${base}?${q}`);
  await page.waitForFunction(() => Number(document.body.dataset.done || 0) > 0 && document.body.dataset.busy === "0",
                             { timeout: 60000 });
  const file = path.join(out, "page-serving-en-desktop.png");
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
} finally {
  await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
