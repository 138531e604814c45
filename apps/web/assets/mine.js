// The page's "my machine" part (app.js draws the rest): the person picks a catalog machine, this
// computer, a Mac chip with its memory or a PC's RAM and GPU; the page asks the library to plan on it
// and answers for it first. makeMine(page) takes what it shares with app.js: $, el, state, the
// hardware rows by name, a function giving the last answers, the API call, update and the words.
"use strict";
function makeMine({ $, el, state, hardware, last, api, update, words }) {
  const { t, iso, ltr, num, gib, say } = words;
  const GIB = 1024 ** 3; // the unit a memory field is typed in
  // The picker's value: "" (not chosen), "local" (the computer running llmplan), "row:NAME" (a
  // machine of the catalog), "describe" (RAM and GPU, or a Mac chip and its memory; a chip or a GPU
  // picked from the list opens the description with it filled in).
  const MY_FIELDS = [["my-kind", "my-kind"], ["my-chip", "my-chip"], ["my-memory", "my-memory-gb"], ["my-ram", "my-ram-gb"],
                     ["my-ram-type", "my-ram-type"], ["my-gpu", "my-gpu"], ["my-vram", "my-vram-gb"]];
  const MY_NAME = "My machine"; // the described machine's row name (apps/web/my_machine.h)

  let pendingMine = {}; // values from the link, set once the lists they pick from are filled
  function readMine(q) {
    state.my = q.get("my") || "";
    for (const [id, key] of MY_FIELDS) if (q.get(key) !== null) { $(id).value = q.get(key); pendingMine[id] = q.get(key); }
  }

  // The described machine as the API's my-* options (my_machine.h).
  function described() {
    if (state.my !== "describe") return [];
    if ($("my-kind").value === "mac")
      return [["my-chip", $("my-chip").value], ["my-memory-gb", $("my-memory").value]];
    const o = [["my-ram-gb", $("my-ram").value]];
    if ($("my-ram-type").value) o.push(["my-ram-type", $("my-ram-type").value]);
    if ($("my-gpu").value) {
      o.push(["my-gpu", $("my-gpu").value]);
      if ($("my-vram").value) o.push(["my-vram-gb", $("my-vram").value]);
    }
    return o;
  }
  const myQuery = () => (state.my ? [["my", state.my]] : []).concat(state.my === "describe"
    ? [["my-kind", $("my-kind").value]].concat(described().filter(([k]) => k !== "my-kind")) : []);

  const myRow = () => state.my.startsWith("row:") ? hardware[state.my.slice(4)] : null;
  const myName = () => state.my === "describe" ? t("my_machine") : state.my === "local" ? t("mine_local") : state.my.slice(4);

  // Where the person's machine runs a model: a Mac on Metal, a GPU with CUDA, else the CPU.
  function myDevice() {
    if (state.my === "describe") return $("my-kind").value === "mac" ? "metal" : $("my-gpu").value ? "cuda" : "cpu";
    const r = myRow();
    if (r) return r.unified_memory && /apple/i.test(`${r.gpu_model} ${r.name}`) ? "metal" : r.gpu_count > 0 ? "cuda" : "cpu";
    return "";
  }

  // Choosing a machine sets what runs on it when the person has not chosen otherwise: its device,
  // llama.cpp (what runs a model on a laptop or a desktop: Ollama and LM Studio are built on it) and a
  // 4-bit GGUF (Q4_K_M, the quant Ollama pulls by default: data/ollama/names.csv).
  function applyMachineDefaults() {
    const device = myDevice();
    if (!device || state.task !== "infer") return;
    $("device").value = device === "cuda" ? "" : device;
    if ($("engine").value === "") $("engine").value = "llama.cpp";
    if ($("weights").value === "" && $("engine").value === "llama.cpp") $("weights").value = "q4_k_m";
  }

  function askMine(opts, signal) {
    if (!state.my) return Promise.resolve(null);
    if (state.my === "local") return Promise.resolve("local"); // the plan's own row for this computer
    const o = opts.filter(([k]) => k !== "hardware");
    if (state.my === "describe") return api("plan", o.concat(described(), [["hardware", MY_NAME]]), signal);
    return api("plan", o.concat([["hardware", state.my.slice(4)]]), signal);
  }

  // The plan's row for the person's machine.
  function myCandidate() {
    const m = last().mine;
    if (!m) return null;
    if (m === "local") return last().plan.candidates.find((c) => c.kind === "local") || null;
    const name = state.my === "describe" ? MY_NAME : state.my.slice(4);
    return m.candidates.find((c) => c.hardware === name) || null;
  }

  function chartMachine(mine) {
    if (!mine || mine === "local") return "";
    if (state.my === "describe") return $("my-kind").value === "mac" ? $("my-chip").value : $("my-gpu").value;
    return state.my.slice(4);
  }

  function fillMinePicker() {
    const pick = $("my-pick");
    const rows = Object.values(hardware);
    const opt = (value, text, cls) => el("option", { value, class: cls || "" }, text);
    const group = (label, list) => { const g = el("optgroup", { label }); g.append(...list); return g; };
    const machines = rows.filter((r) => r.kind === "laptop");
    const chips = rows.filter((r) => r.kind === "apple" && r.unified_memory_bytes);
    const gpus = rows.filter((r) => r.kind === "gpu" && /consumer|workstation|laptop/.test(r.form) && r.memory_bytes);
    pick.replaceChildren(opt("", t("mine_none")), opt("local", t("mine_local")), opt("describe", t("mine_describe")),
      group(t("group_machines"), machines.map((r) => opt(`row:${r.name}`, r.name, "name"))),
      group(t("group_chips"), chips.map((r) => opt(`chip:${r.name}`, r.name, "name"))),
      group(t("group_gpus"), gpus.map((r) => opt(`gpu:${r.name}`, r.name, "name"))));
    pick.value = state.my;
    const keep = (id, list, none) => {
      const v = $(id).value;
      $(id).replaceChildren(...(none ? [opt("", none)] : []), ...list.map((r) => opt(r.name, r.name, "name")));
      if (v) $(id).value = v;
    };
    keep("my-chip", chips, null);
    keep("my-gpu", gpus, t("no_gpu"));
    if (rows.length) {
      for (const [id, v] of Object.entries(pendingMine)) $(id).value = v;
      pendingMine = {};
    }
    const mac = $("my-kind").value === "mac";
    $("my-describe").hidden = state.my !== "describe";
    for (const e of document.querySelectorAll("#my-describe .for-mac")) e.hidden = !mac;
    for (const e of document.querySelectorAll("#my-describe .for-pc")) e.hidden = mac;
    if (!mac && !$("my-gpu").value) $("my-vram").closest("label").hidden = true;
  }

  function pickMine() {
    const v = $("my-pick").value;
    if (v.startsWith("chip:")) {
      const r = hardware[v.slice(5)];
      state.my = "describe";
      $("my-kind").value = "mac";
      $("my-chip").value = r.name;
      // Apple sells unified memory in GB that are GiB (a "36GB" M3 Pro has 36 GiB): its largest size.
      $("my-memory").value = String(Math.round(r.unified_memory_bytes / GIB));
    } else if (v.startsWith("gpu:")) {
      state.my = "describe";
      $("my-kind").value = "pc";
      $("my-gpu").value = v.slice(4);
      $("my-vram").value = "";
    } else state.my = v;
    fillMinePicker();
    applyMachineDefaults();
    update();
  }

  // The answer for the person's machine: whether the model fits, how fast, with which settings (the
  // launch line), and what to change when it does not fit.
  function renderMine() {
    const box = $("my-answer");
    box.replaceChildren();
    if (!state.my) { box.append(el("p", { class: "muted" }, t("mine_ask"))); return; }
    const c = myCandidate();
    if (!c) { box.append(el("p", {}, t("mine_unknown"))); return; }
    const w = last().estimate.workload || {};
    const settings = [w.engine, w.weights, w.device].filter(Boolean).join(" · ");
    box.append(el("p", { class: c.fits ? "verdict fits" : "verdict nofit", id: "my-verdict" },
      el("b", {}, c.fits ? t("mine_fits") : t("mine_no_fit")), " ",
      c.fits && c.decode_tokens_per_s !== null ? iso(`${num(c.decode_tokens_per_s, 1)} ${t("decode")}`) : "",
      " — ", el("span", { class: "name" }, ltr(settings))));
    const reasons = el("ul", { class: "reasons" }, ...(c.reasons || []).map((r) => el("li", {}, say(r))));
    box.append(reasons);
    const answer = (last().mine && last().mine !== "local" ? last().mine : last().plan).answers || [];
    const a = answer.find((x) => x.hardware === c.hardware);
    for (const f of (a && a.fit_options) || [])
      reasons.append(el("li", { class: "fit-option" }, `${t("to_fit")}: `, el("code", {}, f.setting), ` — `,
        f.fits ? t("fits") : t("no_fit"), `, ${iso(gib(Math.abs(f.headroom_bytes)))} ${f.fits ? t("headroom") : t("short_by")}`));
    for (const [engine, line] of Object.entries(c.launch || {}))
      box.append(el("div", { class: "launch" }, el("b", { class: "name" }, engine), el("pre", { class: "my-launch" }, line)));
  }
  return { readMine, myQuery, myName, myDevice, applyMachineDefaults, askMine, myCandidate, chartMachine,
           fillMinePicker, pickMine, renderMine, FIELD_IDS: MY_FIELDS.map(([id]) => id) };
}
