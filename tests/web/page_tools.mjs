// What the browser test and the page tools (screenshots.mjs, walk_english.mjs) share: starting
// `llmplan serve` on a free port, starting Debian's chromium, and finding English left in a page.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/// `llmplan serve --port 0`; resolves with the server and the address it printed.
export async function startServe(llmplan) {
  const server = spawn(llmplan, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let text = "";
    server.stdout.on("data", (b) => { text += b; const m = text.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
    server.on("exit", (code) => reject(new Error(`llmplan serve exited with ${code}`)));
  });
  return { server, base };
}

/// Headless chromium (LLMPLAN_CHROMIUM, else /usr/bin/chromium) with a profile of its own under /tmp.
export async function launchChromium(puppeteer, prefix) {
  const profile = mkdtempSync(path.join(tmpdir(), prefix));
  const browser = await puppeteer.launch({ executablePath: process.env.LLMPLAN_CHROMIUM || "/usr/bin/chromium", headless: true,
    args: ["--no-sandbox", "--disable-gpu", `--user-data-dir=${profile}`] });
  return { browser, profile };
}

/// English left in a page that reads in another language: two lowercase English words in a row in a
/// text node outside names (models, machines, engines: class "name"), commands (pre, code) and the
/// pickers of machine names. Words with digits or dots (q4_k_m, config.json) are names, not words.
/// Each text is cut to `width` characters.
export const englishLeft = (page, width) => page.evaluate((w) => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode;
    if (n.parentElement.closest("pre, code, script, style, .name, select.names, [hidden]")) continue;
    const text = n.textContent.replace(/\S*[\d_.:/]\S*/g, " ");
    if (/\b[a-z]{3,}\b[\s,();:]+\b[a-z]{3,}\b/.test(text)) out.push(n.textContent.trim().slice(0, w));
  }
  return out;
}, width);
