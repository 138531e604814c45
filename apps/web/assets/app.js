// llmplan's page: controls -> the library's API -> what it answered, drawn. This file computes no
// byte and no token/s: every figure shown is a number an /api/ answer holds, formatted for the locale.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const PARTS = ["weights", "kv_cache", "compute", "activations", "gradients", "optimizer", "master_weights",
                 "adapters", "overhead"];
  const PART_KEY = { weights: "weights_part", optimizer: "optimizer_part" };
  const GROUPS = ["laptop", "desktop", "apple", "cpu", "cloud"];
  const UPLOAD_MAX = 16 * 1024 * 1024; // the server's body cap (llmplan/load_bytes.h, max_model_bytes)

  const state = { model: "qwen2.5-7b-instruct", upload: null, task: "infer", lang: "en", over: "ctx", machine: "",
                  my: "" };
  let models = [];
  let ollama = []; // rows of data/ollama/names.csv: {family, size, hf_id, quant, latest}
  let hardware = {};
  let last = { estimate: null, why: null, plan: null, sweep: null, mine: null };
  let inflight = null;
  let charts = [];
  let updates = 0; // completed updates, in body[data-done] (the browser test waits on it)

  const { t, iso, ltr, locale, MESSAGES, compileMessages, say, sayAll, num, gib, LOCALES } = makeWords(() => state.lang);

  const usd = (x, digits) => x === null || x === undefined ? "–"
    : new Intl.NumberFormat(locale(), { style: "currency", currency: "USD", maximumFractionDigits: digits }).format(x);
  const showError = (e) => {
    $("error").replaceChildren(say(e.message));
    $("error").hidden = false;
  };
  const el = (tag, attrs = {}, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") e.className = v; else if (k.startsWith("data-")) e.setAttribute(k, v); else e[k] = v;
    }
    for (const k of kids) e.append(k);
    return e;
  };

  function applyLanguage() {
    document.documentElement.lang = state.lang;
    document.documentElement.dir = state.lang === "ar" ? "rtl" : "ltr";
    for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
    $("lang").value = state.lang;
  }

  // ------------------------------------------------------------------ controls <-> options <-> URL
  const panel = () => $(`${state.task}-controls`);

  function options() {
    const o = [];
    if (state.task === "train") o.push(["task", "train"]);
    for (const input of panel().querySelectorAll("[data-opt]")) {
      const v = input.value.trim();
      if (v !== "") o.push([input.dataset.opt, v]);
    }
    return o;
  }

  function writeUrl() {
    const q = new URLSearchParams();
    if (!state.upload) q.set("model", state.model);
    q.set("task", state.task);
    for (const [k, v] of options()) if (k !== "task") q.set(k, v);
    q.set("over", state.over);
    if (state.machine) q.set("machine", state.machine);
    for (const [k, v] of myQuery()) q.set(k, v);
    q.set("lang", state.lang);
    history.replaceState(null, "", `?${q}`);
  }

  function readUrl() {
    const q = new URLSearchParams(location.search);
    if (q.get("model")) state.model = q.get("model");
    if (["train", "serve"].includes(q.get("task"))) state.task = q.get("task");
    if (q.get("over")) state.over = q.get("over");
    if (q.get("machine")) state.machine = q.get("machine");
    const browser = (navigator.languages || [navigator.language]).map((l) => l.slice(0, 2));
    state.lang = q.get("lang") || browser.find((l) => I18N[l]) || "en";
    if (!I18N[state.lang]) state.lang = "en";
    serving.readUrl(q);
    for (const input of panel().querySelectorAll("[data-opt]")) {
      const v = q.get(input.dataset.opt);
      if (v === null) continue;
      input.value = v;
    }
    // A first visit (a link that names at most the model, the language and the machine: no option,
    // no task) asks what people run on their own computer: llama.cpp (what Ollama and LM Studio are
    // built on) with a 4-bit GGUF (Q4_K_M, what Ollama pulls by default: data/ollama/names.csv), not
    // bf16 transformers (issue 25, finding 10). The URL then holds both, so the link reproduces it.
    const asked = [...q.keys()].some((k) => k === "task" || document.querySelector(`[data-opt="${CSS.escape(k)}"]`));
    if (!asked) {
      $("engine").value = "llama.cpp";
      $("weights").value = "q4_k_m";
    }
    readMine(q);
  }

  // ------------------------------------------------------------------ the API
  async function api(command, opts, signal) {
    const q = new URLSearchParams(opts);
    let res;
    if (state.upload && command !== "models" && command !== "hardware") {
      q.set("file-name", state.upload.name);
      q.set("file-size", String(state.upload.size));
      res = await fetch(`api/${command}?${q}`, { method: "POST", body: state.upload.bytes, signal });
    } else {
      if (command !== "models" && command !== "hardware") q.set("model", state.model);
      res = await fetch(`api/${command}?${q}`, { signal });
    }
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
    return body;
  }

  async function update() {
    if (inflight) inflight.abort();
    const ctl = new AbortController();
    inflight = ctl;
    document.body.dataset.busy = "1";
    writeUrl();
    const opts = options();
    try {
      if (serving.active()) {
        await serving.ask(opts, ctl.signal, render);
        if (ctl.signal.aborted) return;
        $("error").hidden = true;
        render();
      } else {
        const [estimate, why, plan, mine] = await Promise.all([api("estimate", opts, ctl.signal),
          api("why", opts, ctl.signal), api("plan", opts.concat(likeKinds(opts)), ctl.signal), askMine(opts, ctl.signal)]);
        if (ctl.signal.aborted) return; // a newer update owns the page
        // The chart's machine: the one chosen there, else the person's own (its GPU or chip when it is
        // described), else the recommended one.
        const machine = state.machine || chartMachine(mine) || (plan.recommendation && plan.recommendation.hardware) || "";
        // The chart sweeps the context (or the batch) through values a prompt may not fit in: the
        // prompt's length prices the first token, not the memory drawn against the context.
        const sopts = opts.filter(([k]) => k !== "prompt").concat([["over", overOption()]]);
        if (machine) sopts.push(["hardware", machine]);
        const sweep = await api("sweep", sopts, ctl.signal);
        if (ctl.signal.aborted) return;
        last = { estimate, why, plan, sweep, mine };
        $("error").hidden = true;
        fillMachines(plan, machine);
        render();
      }
    } catch (e) {
      if (e.name === "AbortError") return;
      showError(e);
    }
    if (inflight === ctl) {
      inflight = null;
      document.body.dataset.busy = "0";
      document.body.dataset.done = String(++updates);
    }
  }
  // What to buy or rent runs the model where the person asked: on a CPU, machines that run it on
  // their CPU (not a GPU card with every layer on it); on Metal, Macs.
  function likeKinds(opts) {
    const device = (opts.find(([k]) => k === "device") || [])[1];
    return state.task === "infer" && device === "cpu" ? [["kind", "cpu"]] : state.task === "infer" && device === "metal" ? [["kind", "mac"]] : [];
  }
  // Training sweeps its own options: sequence length and micro-batch.
  const overOption = () => state.task === "train" ? (state.over === "batch" ? "micro-batch" : "seq") : state.over;

  // ------------------------------------------------------------------ drawing
  function render() {
    applyLanguage();
    serving.showMode();
    if (serving.active()) { serving.render(); return; }
    fillMinePicker();
    $("model-chosen").textContent = state.upload ? `${t("uploaded")}: ${state.upload.name}` : (last.estimate ? last.estimate.model.id : state.model);
    if (!last.estimate) return;
    renderMine();
    renderMemory();
    renderChart();
    renderMachines();
    renderWhy();
  }

  // The memory each device needs against what the machine has of the same memory: a GPU's or a
  // Mac's against its VRAM or unified share, the CPU's against the machine's RAM. The machine is the
  // person's own when chosen (capacity = need + the plan's headroom on it), else the chart's GPU row
  // (its capacity is a GPU's: drawn on GPU devices only).
  function capacityFor(d) {
    const c = myCandidate();
    const gpuDevices = last.estimate.devices.filter((x) => x.device !== "cpu");
    if (c) {
      const ownKind = c.kind === "cpu" || (c.launch && /-ngl 0\b/.test(c.launch["llama.cpp"] || "")) ? "cpu" : "gpu";
      const mine = d.device === "cpu" ? "cpu" : "gpu";
      // One device of each kind in the estimate: its need plus the headroom the plan found is the capacity.
      const same = last.estimate.devices.filter((x) => (x.device === "cpu" ? "cpu" : "gpu") === mine);
      if (mine === ownKind && same.length === 1 && c.count === 1 && c.headroom_bytes !== null)
        return { bytes: d.total_bytes + c.headroom_bytes, label: myName() };
      return null;
    }
    const s = last.sweep;
    if (!s || !s.capacity_bytes || d.device === "cpu") return null;
    // The chart's machine holds its GPUs (a cloud instance of 8, or several of them): a capacity per
    // GPU is drawn only against as many GPUs' needs (the estimate's --gpus), else it would set one
    // GPU's need beside another deployment's "fits".
    const row = hardware[s.hardware] || {};
    const cand = last.plan.candidates.find((x) => x.hardware === s.hardware);
    const there = (row.gpu_count || 1) * ((cand && cand.count) || 1);
    if (gpuDevices.length !== 1 || there !== 1) {
      memoryNote = { gpus: there, asked: gpuDevices.length, hardware: s.hardware };
      return null;
    }
    return { bytes: s.capacity_bytes, label: s.hardware };
  }

  let memoryNote = null;
  function renderMemory() {
    const bars = $("bars");
    bars.replaceChildren();
    memoryNote = null;
    for (const d of last.estimate.devices) {
      const cap = capacityFor(d);
      const scale = Math.max(d.total_bytes, cap ? cap.bytes : 0); // drawing scale only
      const bar = el("div", { class: "bar" });
      for (const p of PARTS) {
        const b = d.parts[p];
        if (!b || b <= 0) continue;
        bar.append(el("span", { class: `seg part-${p}`, title: `${t(PART_KEY[p] || p)}: ${gib(b)}`, "data-part": p,
                                "data-bytes": String(b) }));
        bar.lastChild.style.width = `${(100 * b) / scale}%`;
      }
      if (cap) {
        const line = el("span", { class: "cap", title: `${t("capacity")}: ${gib(cap.bytes)}`, "data-bytes": String(cap.bytes) });
        line.style.insetInlineStart = `${(100 * cap.bytes) / scale}%`;
        bar.append(line);
      }
      bars.append(el("div", { class: "device" },
        el("div", { class: "device-head" }, el("b", { class: "name" }, d.device), " ",
           el("span", { class: "device-total", "data-device": d.device, "data-bytes": String(d.total_bytes) }, iso(gib(d.total_bytes))),
           cap ? el("span", { class: "muted capacity" }, ` / ${t("capacity")} ${iso(gib(cap.bytes))} (`,
                    el("span", { class: "name" }, cap.label), ")") : ""),
        bar));
    }
    if (memoryNote)
      bars.append(el("p", { class: "muted", id: "memory-note" },
        t("memory_note").replaceAll("{gpus}", iso(num(memoryNote.gpus, 0))).replaceAll("{asked}", iso(num(memoryNote.asked, 0))),
        " (", el("span", { class: "name" }, memoryNote.hardware), ")"));
    $("legend").replaceChildren(...PARTS.map((p) => el("span", { class: "key" }, el("i", { class: `part-${p}` }), t(PART_KEY[p] || p))));
    $("summary").replaceChildren(el("span", {}, `${t("total")}: `),
      ...last.estimate.devices.map((d) => el("b", {}, el("span", { class: "name" }, d.device), ` ${iso(gib(d.total_bytes))}  `)));
  }

  function renderChart() {
    for (const c of charts) c.destroy();
    charts = [];
    const s = last.sweep;
    if (!s || typeof uPlot === "undefined") return;
    const width = Math.max(320, $("chart").clientWidth || 640);
    const series = [{ label: t(state.over === "batch" ? "batch" : "ctx"), value: (u, v) => num(v, 0) }];
    const data = [s.values];
    const colors = ["#2563eb", "#16a34a", "#9333ea", "#ea580c"];
    s.devices.forEach((d, i) => {
      series.push({ label: d.device, stroke: colors[i % colors.length], width: 2, value: (u, v) => v === null ? "–" : gib(v) });
      data.push(d.total_bytes);
    });
    if (s.capacity_bytes) {
      series.push({ label: t("capacity"), stroke: "#dc2626", dash: [6, 4], width: 2, value: (u, v) => gib(v) });
      data.push(s.values.map(() => s.capacity_bytes));
    }
    const axes = [{ values: (u, vals) => vals.map((v) => num(v, 0)) }, { size: 90, values: (u, vals) => vals.map((v) => gib(v)) }];
    charts.push(new uPlot({ width, height: 260, series, axes, scales: { x: { distr: 3, log: 2 } } }, data, $("chart")));
    const speed = state.task === "train" ? s.train_tokens_per_s : s.decode_tokens_per_s;
    if (speed.some((v) => v !== null)) {
      charts.push(new uPlot({ title: t("speed"), width, height: 200,
        series: [series[0], { label: t(state.task === "train" ? "train_speed" : "decode"), stroke: "#0891b2", width: 2,
                              value: (u, v) => num(v, 1) }],
        axes: [axes[0], { size: 70, values: (u, vals) => vals.map((v) => num(v, 1)) }], scales: { x: { distr: 3, log: 2 } } },
        [s.values, speed], $("speed-chart")));
    }
  }

  // ------------------------------------------------------------------ the person's own machine (mine.js)
  const { readMine, myQuery, myName, myDevice, applyMachineDefaults, askMine, myCandidate, chartMachine, fillMinePicker,
          pickMine, renderMine, FIELD_IDS: MY_FIELD_IDS } =
    makeMine({ $, el, state, hardware, last: () => last, api, update, words: { t, iso, ltr, num, gib, say } });
  // ------------------------------------------------------------------ serving many users (serving.js)
  const serving = makeServing({ $, el, state, hardware, api, words: { t, iso, num, say, sayAll, usd } });

  // The groups a row belongs to: the library's answer kinds (a MacBook is a laptop and a Mac); this
  // machine, which has none, by its form.
  function groupsOf(c) {
    const kinds = (c.answer_kinds || []).map((k) => KIND_GROUP[k]).filter(Boolean);
    return kinds.length ? kinds : [groupOf(c)];
  }

  function groupOf(c) {
    const h = hardware[c.hardware] || {};
    const form = String(h.form || "").toLowerCase();
    if (c.kind === "cloud") return "cloud";
    if (c.kind === "apple" || form.includes("mac")) return "apple";
    if (c.kind === "cpu") return "cpu";
    if (form.includes("laptop")) return "laptop";
    return "desktop";
  }

  function fillMachines(plan, machine) {
    const sel = $("machine");
    const names = [...new Set(plan.candidates.filter((c) => c.fits && hardware[c.hardware]).map((c) => c.hardware))];
    const want = machine || "";
    sel.replaceChildren(...names.map((n) => el("option", { value: n }, n)));
    if (want && !names.includes(want)) sel.prepend(el("option", { value: want }, want));
    sel.value = want;
  }

  function renderMachines() {
    const plan = last.plan;
    const r = plan.recommendation;
    $("recommendation").replaceChildren(r && r.hardware
      ? el("span", {}, `${t("recommended")}: `, el("b", { id: "recommended", class: "name" }, `${r.count} × ${r.hardware}`),
           " — ", ...sayAll(r.why || []))
      : t("none"));
    renderAnswers(plan);
    const fitsOnly = $("fits-only").checked;
    const minSpeed = Number($("min-speed").value || 0);
    const maxCost = $("max-cost").value === "" ? null : Number($("max-cost").value);
    const groups = $("groups");
    groups.replaceChildren();
    for (const g of GROUPS) {
      const rows = plan.candidates.filter((c) => groupsOf(c).includes(g) && (!fitsOnly || c.fits)
        && (minSpeed === 0 || (c.decode_tokens_per_s !== null && c.decode_tokens_per_s >= minSpeed))
        && (maxCost === null || (c.cost_per_million_tokens_usd !== null && c.cost_per_million_tokens_usd <= maxCost)));
      const cols = state.task === "train"
        ? [["train_speed", (c) => num(c.train_tokens_per_s, 0)], ["run_hours", (c) => num(c.run_hours, 1)],
           ["run_cost", (c) => usd(c.run_cost_usd, 2)], ["per_hour", (c) => usd(c.cost_per_hour_usd, 2)]]
        : [["decode", (c) => num(c.decode_tokens_per_s, 1)],
           ["ttft", (c) => (c.ttft_s === null || c.ttft_s === undefined ? "–" : `${num(c.ttft_s, 2)} ${t("seconds")}`)],
           ["cost", (c) => usd(c.cost_per_million_tokens_usd, 3)], ["per_hour", (c) => usd(c.cost_per_hour_usd, 2)]];
      const table = el("table", { class: "machines" }, el("thead", {}, el("tr", {},
        el("th", {}, t("machine")), ...cols.map(([k]) => el("th", {}, t(k))))));
      const body = el("tbody");
      for (const c of rows.slice(0, 8))
        body.append(el("tr", { class: c.fits ? "fits" : "nofit" },
          el("td", { class: "name" }, `${c.count > 1 ? `${c.count} × ` : ""}${c.hardware}`), ...cols.map(([, f]) => el("td", {}, f(c)))));
      table.append(body);
      groups.append(el("details", { class: "group", open: rows.length > 0 },
        el("summary", {}, `${t(`group_${g}`)} (${num(rows.length, 0)})`), rows.length ? table : el("p", {}, t("none"))));
    }
    // The recommended row: the same machine and count, else the same machine (a cloud instance's
    // count may say instances in the recommendation and GPUs in its row).
    const rec = r && (plan.candidates.find((c) => c.hardware === r.hardware && c.count === r.count)
      || plan.candidates.find((c) => c.hardware === r.hardware && c.fits));
    const launch = $("launch");
    launch.replaceChildren();
    for (const [engine, line] of Object.entries((rec && rec.launch) || {})) {
      const pre = el("pre", { class: "launch-line" }, line);
      const btn = el("button", { class: "copy", type: "button" }, t("copy"));
      btn.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(line); } catch (e) { /* clipboard refused: the line stays selectable */ }
        btn.textContent = t("copied");
      });
      launch.append(el("div", { class: "launch" }, el("b", { class: "name" }, engine), pre, btn));
    }
    if (!launch.children.length) launch.append(el("p", {}, t("none")));
  }

  // The library's answer per kind of machine (plan.answers), each with its reasons and, when nothing of
  // its kind fits, the ways to make it fit that the library found (closest first).
  const KIND_GROUP = { laptop: "laptop", desktop: "desktop", mac: "apple", cpu: "cpu", cloud: "cloud" };
  function renderAnswers(plan) {
    const list = $("answers");
    list.replaceChildren();
    for (const a of plan.answers || []) {
      const c = plan.candidates[a.index] || {};
      const head = el("div", { class: "answer-head" },
        el("b", {}, t(`group_${KIND_GROUP[a.kind] || a.kind}`)), " ",
        el("span", { class: "answer-hw name", "data-kind": a.kind }, `${c.count > 1 ? `${c.count} × ` : ""}${a.hardware}`),
        " — ", c.fits ? iso(`${num(c.decode_tokens_per_s, 1)} ${t("decode")}`) : t("no_fit"));
      const why = el("ul", {}, ...(a.why || []).map((w) => el("li", {}, say(w.text))));
      const ways = (a.fit_options || []).map((f) => el("li", { class: "fit-option" },
        `${t("to_fit")}: `, el("code", {}, f.setting), ` — ${f.fits ? t("fits") : t("no_fit")}, ${iso(gib(Math.abs(f.headroom_bytes)))} `
          + `${f.fits ? t("headroom") : t("short_by")}, ${iso(`${num(f.decode_tokens_per_s, 1)} ${t("decode")}`)}`));
      if (ways.length) why.append(...ways);
      list.append(el("li", { class: c.fits ? "answer fits" : "answer nofit" }, head, why));
    }
    if (!list.children.length) list.append(el("li", {}, t("none")));
  }

  function renderWhy() {
    const w = last.why;
    const rt = w.rule_of_thumb;
    $("rule").replaceChildren(`${t("rule")}: `, el("b", { id: "rule-bytes", "data-bytes": String(rt.bytes) }, iso(gib(rt.bytes))),
      ` (${ltr(`${num(rt.n_params, 0)} × ${num(rt.bits_per_param, 2)} / 8`)}) — ${t("llmplan_says")}: `,
      el("b", { "data-bytes": String(w.total_bytes) }, iso(gib(w.total_bytes))),
      ` — ${t("rule_misses")} `, el("b", { "data-bytes": String(w.rule_misses_bytes) }, iso(gib(w.rule_misses_bytes))));
    const tbody = $("why-table").tBodies[0];
    tbody.replaceChildren();
    for (const d of w.devices)
      for (const p of d.parts)
        tbody.append(el("tr", {}, el("td", { class: "name" }, d.device), el("td", {}, t(PART_KEY[p.part] || p.part)),
          el("td", { "data-bytes": String(p.bytes) }, iso(gib(p.bytes))), el("td", { class: "formula" }, say(p.formula)),
          el("td", {}, say(p.source))));
    $("assumptions").replaceChildren(...w.assumptions.concat(...w.devices.map((d) => d.notes)).map((a) => el("li", {}, say(a))));
  }

  // ------------------------------------------------------------------ model search and upload
  // What people type for a model: a catalog id or part of it, words ("llama 3.1 8b"), an Ollama tag
  // (llama3.1:8b, qwen3:30b-a3b: data/ollama/names.csv), a Hugging Face address
  // (https://huggingface.co/ORG/NAME, hf:ORG/NAME). Best match first; Enter takes it.
  const squash = (x) => x.toLowerCase().replace(/[^a-z0-9.]+/g, "");
  function matches(raw) {
    let text = raw.trim().replace(/^https?:\/\/(www\.)?(huggingface\.co|hf\.co)\//i, "").replace(/^(hf|ms):/i, "")
      .replace(/\/(tree|blob|resolve)\/.*$/, "").replace(/\/+$/, "");
    const lower = text.toLowerCase();
    if (!lower) return [];
    const scored = new Map();
    const add = (id, score) => { if (models.some((m) => m.id === id)) scored.set(id, Math.max(scored.get(id) || 0, score)); };
    // An Ollama tag: family[:size[-variant]], the size with latest=yes when none is given.
    const [family, tag] = lower.split(":");
    for (const o of ollama)
      if (o.family === family && (tag ? tag === o.size || tag.startsWith(`${o.size}-`) : o.latest === "yes"))
        add(tag && /text|base/.test(tag) && o.base_id ? o.base_id : o.hf_id, 100);
    const words = lower.split(/[\s/_-]+/).filter(Boolean);
    for (const m of models) {
      const id = m.id.toLowerCase();
      if (id === lower || (m.alias || "") === lower) add(m.id, 90);
      else if (id.includes(lower) || (m.alias || "").includes(lower)) add(m.id, 60 - id.length / 100);
      else if (words.length > 1 && words.every((w) => squash(id).includes(squash(w)))) add(m.id, 40 - id.length / 100);
      // "instruct" models first among equals: what people chat with.
      if (scored.has(m.id) && /instruct|chat|-it\b/.test(id)) scored.set(m.id, scored.get(m.id) + 0.5);
    }
    return [...scored.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  }
  function suggest() {
    const list = $("model-list");
    list.replaceChildren();
    const hits = matches($("model-search").value).slice(0, 12);
    for (const id of hits) {
      const li = el("li", { tabIndex: 0, "data-id": id, class: "name" }, id);
      li.addEventListener("click", () => choose(id));
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") choose(id); });
      list.append(li);
    }
    list.hidden = hits.length === 0;
  }
  function choose(id) {
    state.model = id;
    state.upload = null;
    $("model-search").value = id;
    $("model-list").hidden = true;
    update();
  }

  async function upload(file) {
    // Only the header slice of a .gguf is read and sent: its metadata and tensor table come first.
    const slice = file.name.toLowerCase().endsWith(".gguf") ? file.slice(0, Math.min(file.size, UPLOAD_MAX)) : file;
    state.upload = { name: file.name, size: file.size, bytes: await slice.arrayBuffer() };
    update();
  }

  // ------------------------------------------------------------------ wiring
  function showTask() {
    for (const task of ["infer", "train", "serve"]) {
      $(`task-${task}`).setAttribute("aria-selected", String(state.task === task));
      $(`${task}-controls`).hidden = state.task !== task;
    }
    serving.showMode();
  }
  async function start() {
    try {
      await I18N_READY;
    } catch (e) {
      showError(e);
    }
    try {
      const [msgs, names] = await Promise.all([
        Promise.all(Object.keys(LOCALES).map((l) => fetch(`data/messages/${l}.json`).then((r) => r.json()).then((j) => [l, j]))),
        fetch("data/ollama/names.csv").then((r) => r.text())]);
      for (const [l, j] of msgs) MESSAGES[l] = j;
      compileMessages();
      const [head, ...lines] = names.trim().split("\n").map((l) => l.split(","));
      ollama = lines.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i] || ""])));
    } catch (e) {
      showError(e);
    }
    readUrl();
    applyLanguage();
    showTask();
    $("over").value = state.over;
    $("model-search").value = state.model;
    // A serving question is asked when a box is left (change), not at each keystroke: a whole-catalog
    // serving plan is seconds of the server's CPU.
    for (const input of document.querySelectorAll("[data-opt]")) input.addEventListener(input.closest("#serve-controls") ? "change" : "input", update);
    for (const b of document.querySelectorAll("[data-task]"))
      b.addEventListener("click", () => {
        state.task = b.dataset.task;
        showTask();
        update();
      });
    $("lang").addEventListener("change", () => { state.lang = $("lang").value; writeUrl(); render(); });
    $("over").addEventListener("change", () => { state.over = $("over").value; update(); });
    $("machine").addEventListener("change", () => { state.machine = $("machine").value; update(); });
    for (const id of ["fits-only", "min-speed", "max-cost"]) $(id).addEventListener("input", () => last.plan && renderMachines());
    $("model-search").addEventListener("input", suggest);
    $("model-search").addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const best = matches($("model-search").value)[0];
      if (best) choose(best);
    });
    $("my-pick").addEventListener("change", pickMine);
    for (const id of MY_FIELD_IDS)
      $(id).addEventListener("change", () => { fillMinePicker(); applyMachineDefaults(); update(); });
    const drop = $("drop");
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      if (e.dataTransfer.files.length) upload(e.dataTransfer.files[0]);
    });
    $("file").addEventListener("change", () => { if ($("file").files.length) upload($("file").files[0]); });
    window.addEventListener("resize", () => (serving.active() ? serving.drawChart() : last.sweep && renderChart()));
    serving.wire(update);
    try {
      const [m, h] = await Promise.all([api("models", []), api("hardware", [["list", "1"]])]);
      models = m.models;
      for (const row of h.hardware) hardware[row.name] = row;
    } catch (e) {
      showError(e);
    }
    fillMinePicker();
    serving.fillHardware();
    update();
  }
  start();
})();
