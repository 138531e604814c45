// The page's "serve many users" mode (app.js draws the rest): the load (requests in flight or a
// second), the prompt and answer lengths, the latency targets and the engine go to the library's
// `plan` as its serving options (`--concurrency`/`--request-rate`, `--input-len`, ...: the CLI's names,
// cli-contract.md "Serving at load"); the page shows each candidate's `serving` object as the CLI's
// text table does, the chosen deployment's launch lines, and a chart of latency against load for
// that deployment, each point another `plan` answer. This file computes no latency: every figure is
// an /api/ answer's. makeServing(page) takes $, el, state, the hardware rows by name, api and the words.
"use strict";
function makeServing({ $, el, state, hardware, api, words }) {
  const { t, iso, num, say, sayAll, usd } = words;
  // The chart asks at these multiples of the asked load, for the chosen deployment only (its machine,
  // GPUs, tensor parallel and engine settings fixed): a quarter of it to four times it.
  const LOADS = [0.25, 0.5, 1, 1.5, 2, 3, 4];
  // At most this many chart requests at once: each is a simulation on the server's CPU, which other
  // people's pages share.
  const PARALLEL = 2;
  // Rows of the table, as the CLI's text (`plan --top`, 15 by default); the JSON has them all.
  const TOP = 15;
  const LOAD_OPTS = ["concurrency", "request-rate"];
  // "Every request at once" is `--request-rate inf` (cli-contract.md: the saturated throughput): the
  // number box goes away and a hidden field carries "inf" under the option's name.
  const BURST = "burst";
  // What fixes the deployment for the chart's points (cli-contract.md "Serving at load").
  const FIXED = ["hardware", "gpus", "tensor-parallel", "pipeline-parallel", "max-num-seqs", "max-num-batched-tokens"];
  let data = null; // { plan, order, choice, points: [{ load, serving | error }], phase, done, all, started }
  let chart = null;
  let pendingHardware = "";

  const fill = (key, args) => Object.entries(args).reduce((s, [k, v]) => s.replaceAll(`{${k}}`, v), t(key));
  const ms = (v) => (v === null || v === undefined ? "–" : num(v, v >= 100 ? 0 : 1));
  const loadKind = () => $("serve-load-kind").value;

  // ------------------------------------------------------------------ controls and the URL
  function setKind(kind) {
    $("serve-load-kind").value = kind;
    const burst = kind === BURST;
    const load = $("serve-load");
    if (burst) {
      load.removeAttribute("data-opt");
      $("serve-burst").dataset.opt = "request-rate";
    } else {
      load.dataset.opt = kind;
      $("serve-burst").removeAttribute("data-opt");
    }
    load.closest("label").hidden = burst;
  }
  function readUrl(q) {
    const rate = q.get("request-rate");
    setKind(rate === "inf" ? BURST : rate !== null ? "request-rate" : "concurrency");
    pendingHardware = q.get("hardware") || "";
  }
  function fillHardware() {
    const sel = $("serve-hardware");
    const v = pendingHardware || sel.value;
    const group = (label, kind) => {
      const g = el("optgroup", { label });
      g.append(...Object.values(hardware).filter((r) => r.kind === kind).map((r) => el("option", { value: r.name, class: "name" }, r.name)));
      return g;
    };
    sel.replaceChildren(el("option", { value: "" }, t("serve_all_hardware")), group(t("serve_group_gpu"), "gpu"),
                        group(t("group_cloud"), "cloud"));
    sel.value = v;
    if (Object.keys(hardware).length) pendingHardware = "";
  }
  function wire(update) {
    $("serve-load-kind").addEventListener("change", () => { setKind(loadKind()); update(); });
  }
  // The serving card in place of the others (the memory, the machines for one request, the formulas).
  function showMode() {
    const serving = state.task === "serve";
    for (const id of ["mine", "memory", "chart-card", "machines", "why"]) $(id).hidden = serving;
    $("serving").hidden = !serving;
  }

  // ------------------------------------------------------------------ the API
  // The order the CLI's text table reads: the library sends it (plan.serving_order, from
  // src/report/serving_report.cpp's reading_order), so the page does not sort again.
  function readingOrder(plan) {
    return (plan.serving_order || []).filter((i) => plan.candidates[i] && plan.candidates[i].serving);
  }

  // The loads the chart asks at: whole requests in flight, or rates to three significant digits.
  function chartLoads(asked) {
    const round = (x) => (loadKind() === "concurrency" ? Math.max(1, Math.round(x)) : Number(x.toPrecision(3)));
    return [...new Set(LOADS.map((m) => round(asked * m)))].sort((a, b) => a - b);
  }

  async function ask(opts, signal, redraw) {
    const loadValue = (opts.find(([k]) => LOAD_OPTS.includes(k)) || [])[1];
    const burst = loadValue === "inf";
    const asked = burst ? Infinity : Number(loadValue);
    data = { plan: null, order: [], choice: null, points: [], phase: "plan", done: 0, all: 0, started: Date.now(), asked };
    if (!(asked > 0)) { // no load: nothing to ask the library
      Object.assign(data, { plan: { candidates: [] }, phase: "" });
      return;
    }
    const tick = setInterval(progress, 1000);
    try {
      progress();
      const plan = await api("plan", opts, signal);
      if (signal.aborted) return;
      const order = readingOrder(plan);
      Object.assign(data, { plan, order, choice: order.length ? order[0] : null });
      if (data.choice === null || burst) { data.phase = ""; redraw(); return; } // no load to vary: no chart
      const c = plan.candidates[data.choice];
      const s = c.serving;
      // One instance of the deployment at its share of each load: the library models a deployment as
      // `instances` copies, each taking rate / instances (concurrency: ceil(concurrency / instances), the
      // busiest one; src/serve/planner.cpp config_for), so one instance's latencies are the deployment's.
      const per = s.tensor_parallel * (s.pipeline_parallel || 1);
      const share = (load) => (loadKind() === "concurrency" ? Math.ceil(load / s.instances) : load / s.instances);
      const fixed = [["hardware", c.hardware], ["gpus", String(per)], ["tensor-parallel", String(s.tensor_parallel)],
                     ["max-num-seqs", String(s.max_num_seqs)], ["max-num-batched-tokens", String(s.max_num_batched_tokens)]];
      if (s.pipeline_parallel > 1) fixed.push(["pipeline-parallel", String(s.pipeline_parallel)]);
      const base = opts.filter(([k]) => !LOAD_OPTS.includes(k) && !FIXED.includes(k)).concat(fixed);
      data.points = chartLoads(asked).map((load) => ({ load, serving: null, error: null }));
      Object.assign(data, { phase: "chart", all: data.points.length });
      redraw();
      let next = 0;
      const worker = async () => {
        while (next < data.points.length && !signal.aborted) {
          const p = data.points[next++];
          try {
            const a = await api("plan", base.concat([[loadKind(), String(share(p.load))]]), signal);
            const row = a.candidates.find((x) => x.hardware === c.hardware && x.serving);
            p.serving = row ? row.serving : null;
          } catch (e) {
            if (e.name === "AbortError") return;
            p.error = e.message;
          }
          data.done++;
          progress();
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      if (signal.aborted) return;
      data.phase = "";
      redraw();
    } finally {
      clearInterval(tick);
      if (data.phase && !signal.aborted) { data.phase = ""; progress(); } // refused: no "asking" left behind
    }
  }

  function progress() {
    const p = $("serving-progress");
    if (!data || !data.phase) { p.textContent = ""; return; }
    const seconds = iso(`${num(Math.round((Date.now() - data.started) / 1000), 0)} ${t("seconds")}`);
    p.textContent = data.phase === "plan" ? fill("serving_asking", { s: seconds })
      : fill("serving_chart_progress", { done: iso(num(data.done, 0)), all: iso(num(data.all, 0)), s: seconds });
  }

  // ------------------------------------------------------------------ drawing
  function question() {
    const v = (id) => $(id).value.trim();
    const kind = loadKind();
    const parts = [fill(kind === BURST ? "serving_question_burst" : kind === "concurrency" ? "serving_question_conc" : "serving_question_rate",
      { load: iso(num(Number(v("serve-load")), 2)), input: iso(num(Number(v("serve-input-len") || 1000), 0)),
        output: iso(num(Number(v("serve-output-len") || 256), 0)) })];
    const pct = iso(num(Number(v("serve-percentile") || 99), 2));
    const targets = [];
    if (v("serve-ttft")) targets.push(fill("serving_target_ttft", { ms: iso(`${num(Number(v("serve-ttft")), 2)} ${t("ms")}`) }));
    if (v("serve-tpot")) targets.push(fill("serving_target_tpot", { ms: iso(`${num(Number(v("serve-tpot")), 2)} ${t("ms")}`) }));
    parts.push(targets.length ? `${fill("serving_targets", { pct })} ${targets.join(t("list_sep"))}` : t("serving_no_targets"));
    return parts.join(t("sentence_sep"));
  }

  const COLS = [
    ["serve_instances", (s) => num(s.instances, 0)], ["serve_tp", (s) => num(s.tensor_parallel, 0)],
    ["gpus", (s) => num(s.gpus, 0)], ["serve_users", (s) => num(s.users_carried, 0)],
    ["serve_out_tps", (s) => num(s.output_tokens_per_s, 0)],
    ["serve_ttft_p50", (s) => ms(s.ttft_ms && s.ttft_ms.p50)], ["serve_ttft_p99", (s) => ms(s.ttft_ms && s.ttft_ms.p99)],
    ["serve_tpot_p50", (s) => ms(s.tpot_ms && s.tpot_ms.p50)], ["serve_tpot_p99", (s) => ms(s.tpot_ms && s.tpot_ms.p99)],
    ["serve_month", (s) => usd(s.cost_per_month_usd, 0)], ["serve_mtok_out", (s) => usd(s.cost_per_million_output_tokens_usd, 3)],
    ["serve_mtok_all", (s) => usd(s.cost_per_million_tokens_usd, 3)],
    ["serve_meets", (s) => `${t(s.meets_targets ? "yes" : "no")} / ${t(`binding_${s.binding}`)}`],
  ];

  function render() {
    fillHardware();
    progress();
    $("serving-question").textContent = question();
    const table = $("serving-table");
    table.tHead.replaceChildren(el("tr", {}, el("th", {}, t("machine")), ...COLS.map(([k]) => el("th", {}, t(k)))));
    table.tBodies[0].replaceChildren();
    $("serving-launch").replaceChildren();
    $("serving-choice").replaceChildren();
    $("serving-varied").textContent = "";
    if (!data || !data.plan) { drawChart(); return; }
    const { plan, order, choice } = data;
    for (const i of order.slice(0, TOP)) {
      const c = plan.candidates[i];
      table.tBodies[0].append(el("tr", { class: c.serving.meets_targets ? "fits" : "nofit", "data-index": String(i) },
        el("td", { class: "name" }, c.hardware), ...COLS.map(([k, f]) => el("td", { "data-col": k }, f(c.serving)))));
    }
    // No row serves it: each row's reason from the library (candidates[].serving_unavailable).
    const refused = order.length ? [] : plan.candidates.filter((c) => c.serving_unavailable).slice(0, TOP);
    if (choice === null && data.asked > 0 && refused.length) {
      $("serving-choice").append(t("serving_none_why"), el("ul", { id: "serving-refused" },
        ...refused.map((c) => el("li", {}, el("span", { class: "name" }, c.hardware), ": ", say(c.serving_unavailable)))));
      drawChart();
      return;
    }
    if (choice === null) {
      $("serving-choice").append(t(data.asked > 0 ? "serving_none" : "serving_no_load"));
      drawChart();
      return;
    }
    const c = plan.candidates[choice];
    $("serving-choice").append(`${t(c.serving.meets_targets ? "serving_choice" : "serving_choice_short")}: `,
      el("b", { id: "serving-chosen", class: "name" }, c.hardware), " — ", ...sayAll(c.serving.reasons || []));
    // A closed loop: the chosen deployment's TTFT when request lengths vary (the table's keeps them in step).
    const varied = c.serving.ttft_ms_varied_lengths;
    if (varied && c.serving.ttft_ms)
      $("serving-varied").textContent = fill("serving_varied", { spread: iso(num(100 * c.serving.varied_length_spread, 0)),
        p50: iso(`${ms(varied.p50)} ${t("ms")}`), pct: iso(num(Number($("serve-percentile").value.trim() || 99), 2)),
        slo: iso(`${ms(varied.at_slo)} ${t("ms")}`) });
    for (const [key, line] of Object.entries(c.serving.launch || {})) {
      const words = say(line);
      const body = words !== line ? el("p", { class: "launch-note" }, words) : el("pre", { class: "serving-launch-line" }, line);
      const copy = el("button", { class: "copy", type: "button" }, t("copy"));
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(line); } catch (e) { /* clipboard refused: the line stays selectable */ }
        copy.textContent = t("copied");
      });
      $("serving-launch").append(el("div", { class: "launch" }, launchLabel(key), body, copy));
    }
    drawChart();
  }

  // A launch line's name: the engine, and where it runs when the library says (each other node, the
  // instances of llama.cpp), in the reader's words.
  const WHERE = [[" (each other node k = 1, 2 ...)", "launch_other_nodes_k"], [" (each other node)", "launch_other_nodes"],
                 [" (on each other node)", "launch_other_nodes"], [" instances", "launch_instances"]];
  function launchLabel(key) {
    for (const [suffix, k] of WHERE)
      if (key.endsWith(suffix)) return el("b", {}, el("span", { class: "name" }, key.slice(0, -suffix.length)), ` (${t(k)})`);
    return el("b", { class: "name" }, key);
  }

  function drawChart() {
    if (chart) chart.destroy();
    chart = null;
    const box = $("serving-chart");
    box.replaceChildren();
    $("serving-chart-note").textContent = "";
    if (data && data.plan && data.choice !== null && loadKind() === BURST) $("serving-chart-note").textContent = t("serving_chart_burst");
    if (!data || !data.points.length || typeof uPlot === "undefined") return;
    const c = data.plan.candidates[data.choice];
    $("serving-chart-note").replaceChildren(fill("serving_chart_note", { n: iso(num(c.serving.instances, 0)),
      gpus: iso(num(c.serving.gpus, 0)), tp: iso(num(c.serving.tensor_parallel, 0)) }), " — ", el("span", { class: "name" }, c.hardware));
    const pts = data.points;
    const get = (f) => pts.map((p) => (p.serving && f(p.serving) > 0 ? f(p.serving) : null));
    const lat = (name, q) => get((s) => s[name] && s[name][q]);
    const series = [{ label: t(loadKind() === "concurrency" ? "serve_concurrency" : "serve_rate"), value: (u, v) => num(v, 2) }];
    const ys = [];
    const add = (label, values, stroke, dash) => {
      series.push({ label, stroke, width: 2, dash, spanGaps: false, points: { show: !dash }, value: (u, v) => (v === null ? "–" : `${ms(v)} ${t("ms")}`) });
      ys.push(values);
    };
    add(t("serve_ttft_p50"), lat("ttft_ms", "p50"), "#2563eb");
    add(t("serve_ttft_p99"), lat("ttft_ms", "p99"), "#1e3a8a");
    add(t("serve_tpot_p50"), lat("tpot_ms", "p50"), "#16a34a");
    add(t("serve_tpot_p99"), lat("tpot_ms", "p99"), "#14532d");
    const target = (id, key, stroke) => {
      const v = Number($(id).value);
      if (v > 0) add(t(key), pts.map(() => v), stroke, [6, 4]);
    };
    target("serve-ttft", "serve_target_ttft", "#dc2626");
    target("serve-tpot", "serve_target_tpot", "#ea580c");
    const drawn = ys.slice(0, 4).reduce((n, v) => n + v.filter((x) => x !== null).length, 0);
    box.dataset.points = String(drawn);
    box.dataset.loads = JSON.stringify(pts.map((p) => p.load));
    if (!drawn) return;
    const width = Math.max(300, box.clientWidth || 640);
    // The asked load: a dotted vertical line.
    const asked = (u) => {
      const x = u.valToPos(data.asked, "x", true);
      u.ctx.save();
      u.ctx.strokeStyle = "#6b7280";
      u.ctx.setLineDash([2, 3]);
      u.ctx.beginPath();
      u.ctx.moveTo(x, u.bbox.top);
      u.ctx.lineTo(x, u.bbox.top + u.bbox.height);
      u.ctx.stroke();
      u.ctx.restore();
    };
    chart = new uPlot({ width, height: 280, series, hooks: { draw: [asked] }, scales: { x: { distr: 3, log: 2 }, y: { distr: 3 } },
      axes: [{ values: (u, vals) => vals.map((v) => num(v, 2)) },
             { size: 100, values: (u, vals) => vals.map((v) => (v === null ? "" : `${num(v, 1)} ${t("ms")}`)) }] },
      [pts.map((p) => p.load), ...ys], box);
    const failed = pts.filter((p) => p.error);
    if (failed.length) box.append(el("p", { class: "error" }, say(failed[0].error)));
  }

  return { readUrl, fillHardware, wire, showMode, ask, render, drawChart, active: () => state.task === "serve" };
}
