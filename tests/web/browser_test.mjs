// Browser test of `llmplan serve`: a real headless chromium (Debian's /usr/bin/chromium, driven by
// puppeteer-core) loads the page from a server this test starts, acts as a person would, and checks
// that every memory figure the page shows equals the CLI's --json for the same options.
// Usage: node browser_test.mjs LLMPLAN_BINARY SCREENSHOT_DIR CONFIG_JSON
// Exit 77 (ctest SKIP_RETURN_CODE) when chromium or puppeteer-core is absent, unless
// LLMPLAN_REQUIRE_BROWSER=1 (CI), which makes that a failure.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const [llmplan, shots, configPath] = process.argv.slice(2);
const CHROMIUM = process.env.LLMPLAN_CHROMIUM || "/usr/bin/chromium";
const require = createRequire(import.meta.url);
const skip = (why) => {
  console.log(`SKIP: ${why}`);
  process.exit(process.env.LLMPLAN_REQUIRE_BROWSER === "1" ? 1 : 77);
};
if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} absent (apt-get install chromium)`);
let puppeteer;
try { puppeteer = require("puppeteer-core"); } catch { skip("puppeteer-core absent (npm ci --prefix tests/web)"); }

let failures = 0;
const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) failures++; };
const cli = (...args) => JSON.parse(execFileSync(llmplan, [...args, "--json"], { encoding: "utf8" }));
mkdirSync(shots, { recursive: true });

// ------------------------------------------------------------------ the server
const server = spawn(llmplan, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (b) => { out += b; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) resolve(m[0]); });
  server.on("exit", (code) => reject(new Error(`llmplan serve exited with ${code}`)));
  setTimeout(() => reject(new Error("llmplan serve printed no address in 10 s")), 10000);
});
const profile = mkdtempSync(path.join(tmpdir(), "llmplan-chromium-"));
const browser = await puppeteer.launch({
  executablePath: CHROMIUM, headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         `--user-data-dir=${profile}`],
});

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1800 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

  // Each update of the page bumps body[data-done]; wait for the one an action started.
  const done = () => page.evaluate(() => Number(document.body.dataset.done || 0));
  const settle = async (before) => {
    await page.waitForFunction((n) => Number(document.body.dataset.done || 0) > n && document.body.dataset.busy === "0",
                               { timeout: 30000 }, before);
  };
  // What the page shows: per device the total and each part, as the API's integers (data-bytes), and
  // the text a person reads.
  const shown = () => page.evaluate(() => [...document.querySelectorAll("#bars .device")].map((d) => {
    const total = d.querySelector(".device-total");
    return { device: total.dataset.device, total: Number(total.dataset.bytes), text: total.textContent,
             parts: Object.fromEntries([...d.querySelectorAll(".seg")].map((s) => [s.dataset.part, Number(s.dataset.bytes)])) };
  }));
  const compare = async (label, json, locale) => {
    const error = await page.$eval("#error", (e) => (e.hidden ? "" : e.textContent));
    check(error === "", `${label}: no error shown${error ? `: ${error}` : ""}`);
    const got = await shown();
    check(got.length === json.devices.length, `${label}: ${got.length} device(s) shown, CLI has ${json.devices.length}`);
    json.devices.forEach((d, i) => {
      const g = got[i] || { parts: {} };
      check(g.device === d.device && g.total === d.total_bytes, `${label}: ${d.device} total ${g.total} == CLI ${d.total_bytes}`);
      const want = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(d.total_bytes / 1024 ** 3);
      check((g.text || "").includes(want), `${label}: ${d.device} reads "${g.text}", contains ${want} (${locale})`);
      for (const [p, b] of Object.entries(d.parts))
        if (b > 0) check(g.parts[p] === b, `${label}: ${d.device} ${p} ${g.parts[p]} == CLI ${b}`);
    });
  };
  const shot = (name) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

  // 1. open the page on a catalog model
  await page.goto(`${base}?model=Qwen/Qwen2.5-7B-Instruct&lang=en`);
  await settle(0);
  await compare("open", cli("estimate", "Qwen/Qwen2.5-7B-Instruct"), "en");
  const plan = cli("plan", "Qwen/Qwen2.5-7B-Instruct");
  const rec = await page.$eval("#recommended", (e) => e.textContent);
  check(rec === `${plan.recommendation.count} × ${plan.recommendation.hardware}`, `recommendation "${rec}" is the CLI's`);
  const launch = await page.$$eval(".launch-line", (l) => l.map((e) => e.textContent));
  const recRow = plan.candidates.find((c) => c.hardware === plan.recommendation.hardware && c.count === plan.recommendation.count);
  check(JSON.stringify(launch) === JSON.stringify(Object.values(recRow.launch)), `launch lines are the CLI's (${launch.length})`);
  const answers = await page.$$eval("#answers .answer-hw", (l) => l.map((e) => [e.dataset.kind, e.textContent]));
  const want = plan.answers.map((a) => {
    const c = plan.candidates[a.index];
    return [a.kind, `${c.count > 1 ? `${c.count} × ` : ""}${a.hardware}`];
  });
  check(want.length > 0 && JSON.stringify(answers) === JSON.stringify(want),
        `the best of each kind is the CLI's (${answers.length}: ${answers.map((x) => x[0]).join(", ")})`);
  await shot("1-open");

  // 2. pick another model by typing part of its name
  let n = await done();
  await page.click("#model-search", { clickCount: 3 });
  await page.type("#model-search", "llama-3.1-8b-inst");
  await page.waitForSelector('#model-list li[data-id="meta-llama/Llama-3.1-8B-Instruct"]');
  await page.click('#model-list li[data-id="meta-llama/Llama-3.1-8B-Instruct"]');
  await settle(n);
  await compare("search", cli("estimate", "meta-llama/Llama-3.1-8B-Instruct"), "en");
  await shot("2-search");

  // 3. move the context control to 2^15 tokens with the keyboard (three steps right of 4096)
  n = await done();
  await page.focus("#ctx");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await settle(n);
  await compare("ctx 32768", cli("estimate", "meta-llama/Llama-3.1-8B-Instruct", "--ctx", "32768"), "en");
  const url = await page.evaluate(() => location.search);
  check(url.includes("ctx=32768") && url.includes("Llama-3.1-8B-Instruct"), `state in the URL: ${url}`);
  const sweep = await page.evaluate(() => fetch("api/sweep?model=meta-llama/Llama-3.1-8B-Instruct&ctx=32768&over=ctx")
    .then((r) => r.json()));
  check(sweep.values.includes(32768) && sweep.devices.length > 0, "the chart's sweep answers for the same options");
  await shot("3-ctx");

  // 4. training
  n = await done();
  await page.click("#task-train");
  await settle(n);
  await compare("train", cli("estimate", "meta-llama/Llama-3.1-8B-Instruct", "--task", "train"), "en");
  await shot("4-train");

  // 5. Arabic: right-to-left, numbers formatted for the locale, the same figures
  await page.select("#lang", "ar");
  await page.waitForFunction(() => document.documentElement.dir === "rtl");
  check(await page.evaluate(() => document.documentElement.lang === "ar"), "Arabic: lang=ar, dir=rtl");
  await compare("arabic", cli("estimate", "meta-llama/Llama-3.1-8B-Instruct", "--task", "train"), "ar");
  await shot("5-arabic");

  // 6. a link reproduces the view
  const link = await page.evaluate(() => location.href);
  n = 0;
  await page.goto(link);
  await settle(n);
  await compare("link", cli("estimate", "meta-llama/Llama-3.1-8B-Instruct", "--task", "train"), "ar");

  // 7. drop a config.json on the page: the browser sends its bytes, nothing names a path
  n = await done();
  const text = readFileSync(configPath, "utf8");
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], "config.json", { type: "application/json" }));
    document.getElementById("drop").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await settle(n);
  await compare("dropped config.json", cli("estimate", configPath, "--task", "train"), "ar");
  await shot("6-dropped");

  check(errors.length === 0, `no errors in the page's console${errors.length ? `: ${errors.join(" | ")}` : ""}`);

  // 8-9. No ?lang= in the link: the page speaks the browser's language. A fresh profile whose
  // browser says Chinese (then Arabic): navigator.languages and the locale as Chromium sets them
  // from its language settings (Accept-Language and the ICU locale, through the DevTools protocol).
  const agent = await browser.userAgent();
  for (const [name, languages, want, locale, dir] of [["7-chinese", "zh-CN,zh", "zh", "zh-CN", "ltr"],
                                                      ["8-arabic-browser", "ar-EG,ar", "ar", "ar", "rtl"]]) {
    const context = await browser.createBrowserContext();
    const p = await context.newPage();
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.setViewport({ width: 1400, height: 1800 });
    const cdp = await p.createCDPSession();
    await cdp.send("Emulation.setUserAgentOverride", { userAgent: agent, acceptLanguage: languages });
    await cdp.send("Emulation.setLocaleOverride", { locale: languages.split(",")[0] });
    await p.goto(`${base}?model=Qwen/Qwen2.5-7B-Instruct&ctx=16384`);
    await p.waitForFunction(() => Number(document.body.dataset.done || 0) > 0 && document.body.dataset.busy === "0",
                            { timeout: 30000 });
    const seen = await p.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir,
                                           picker: document.getElementById("lang").value,
                                           tagline: document.querySelector(".tagline").textContent }));
    check(seen.lang === want && seen.picker === want && seen.dir === dir,
          `${name}: browser language ${languages} -> lang=${seen.lang}, picker ${seen.picker}, dir=${seen.dir}`);
    const script = want === "zh" ? /[\u4e00-\u9fff]/ : /[\u0600-\u06ff]/;
    check(script.test(seen.tagline), `${name}: the words are in ${want}: "${seen.tagline}"`);
    const json = cli("estimate", "Qwen/Qwen2.5-7B-Instruct", "--ctx", "16384");
    const got = await p.evaluate(() => [...document.querySelectorAll("#bars .device-total")].map((t) =>
      ({ bytes: Number(t.dataset.bytes), text: t.textContent })));
    json.devices.forEach((d, i) => {
      const g = got[i] || {};
      const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(d.total_bytes / 1024 ** 3);
      check(g.bytes === d.total_bytes && (g.text || "").includes(number),
            `${name}: ${d.device} ${g.bytes} == CLI ${d.total_bytes}, reads "${g.text}" with ${number} (${locale})`);
    });
    const url = await p.evaluate(() => location.search);
    check(url.includes(`lang=${want}`), `${name}: the language joins the URL's state: ${url}`);
    await p.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
    await context.close();
  }
  check(errors.length === 0, `no errors in the other languages' pages${errors.length ? `: ${errors.join(" | ")}` : ""}`);
} finally {
  await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);
