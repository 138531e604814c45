// The page's words and numbers in the reader's language (app.js draws with them): a label by key
// (i18n/), a sentence of the library translated through the message catalog, numbers for the locale.
// makeWords(lang) takes a function giving the reader's language ("en", "ar", "zh").
"use strict";
function makeWords(lang) {
  const LOCALES = { en: "en", ar: "ar", zh: "zh-CN" };
  const GIB = 1024 ** 3; // a unit for display, as the CLI prints GiB
  // ------------------------------------------------------------------ words and numbers
  const t = (key) => (I18N[lang()] && I18N[lang()][key]) || I18N.en[key] || key;
  // An isolate keeps a number with its unit, a name or a command whole inside a right-to-left line
  // (U+2068 first-strong isolate, U+2066 left-to-right isolate for code, U+2069 pop).
  const iso = (text) => `\u2068${text}\u2069`;
  const ltr = (text) => `\u2066${text}\u2069`;
  const locale = () => LOCALES[lang()] || "en";
  // ------------------------------------------------------------------ the library's sentences
  // The message catalog (data/messages/{en,ar,zh}.json): a key per sentence the library writes, its
  // English form with {placeholders} and the same sentence in each language. An English sentence of
  // an answer is matched against the English forms; its arguments (numbers with their units, names,
  // options) are put into the reader's language's form, each in an isolate so that a right-to-left
  // line keeps a number with its unit and an option whole.
  const MESSAGES = {};
  let patterns = [];
  const escapeRe = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  function compileMessages() {
    patterns = Object.entries(MESSAGES.en || {}).map(([key, form]) => {
      const names = [];
      const body = form.split(/(\{[a-z0-9_]+\})/).map((part) => {
        const m = part.match(/^\{([a-z0-9_]+)\}$/);
        if (!m) return escapeRe(part);
        names.push(m[1]);
        return "(.+?)";
      }).join("");
      return { key, names, re: new RegExp(`^${body}$`), literal: form.replace(/\{[a-z0-9_]+\}/g, "").length };
    }).sort((a, b) => b.literal - a.literal); // the most specific form first
  }
  // An argument as the reader reads it, as parts: strings, and {code} for what stays as typed (an
  // option, a command, a release, a quoted log line: shown as code, left to right). Numbers are
  // formatted for the locale and units put in its words, each number with its unit in one isolate;
  // an argument that is itself a sentence of the catalog, or a list of them, is translated too.
  function localArg(x) {
    const inner = translate(x);
    if (inner !== null) return ["\u2068", ...inner, "\u2069"];
    if (x.includes(", ")) {
      const items = x.split(", ").map((i) => translate(i) || (/\b[a-z]{3,} [a-z]{3,}\b/.test(i) ? null : localArg(i)));
      if (items.every(Boolean)) return ["\u2068", ...items.flatMap((i, k) => (k ? [t("list_sep"), ...i] : i)), "\u2069"];
    }
    if (/^".*"$/.test(x) || (/^-|[_=/@]|^[a-z]+\.[a-z]/.test(x) && !/^\$|\d \w*(GiB|MiB|s|tokens)/.test(x))) return [{ code: x }];
    // A date (a price's year, and month): kept as written, not a number with a thousands separator.
    if (/^(199\d|20[0-3]\d)(-\d\d)?$/.test(x)) return [iso(x)];
    const units = { unit_tokens_s: t("unit_tokens_s"), unit_tokens: t("unit_tokens"), unit_gib: t("unit_gib"),
                    unit_mib: t("unit_mib"), unit_s: t("unit_s"), unit_years: t("unit_years"), unit_h: t("unit_h") };
    let out = x.replace(/(^|[\s(+])(\d+(?:,\d{3})*(?:\.\d+)?)(?=$|[\s),%x])/g, (m0, pre, n) => {
      const digits = (n.split(".")[1] || "").length;
      return pre + num(Number(n.replace(/,/g, "")), digits);
    });
    for (const [unit, key] of [["tokens/s", "unit_tokens_s"], ["tokens", "unit_tokens"], ["GiB", "unit_gib"],
                               ["MiB", "unit_mib"], ["years", "unit_years"], ["h", "unit_h"], ["s", "unit_s"]])
      if (units[key]) out = out.replace(new RegExp(`(^|[\\d\\u0660-\\u0669\\s])${escapeRe(unit)}(?=$|[\\s,)])`, "g"),
                                        (m0, pre) => pre + units[key]);
    return [iso(out)];
  }
  // A sentence of the library in the reader's language: a fragment (code stays code), or the English
  // sentence when the catalog does not hold it yet.
  function say(text) {
    if (!text || lang() === "en" || !MESSAGES[lang()]) return text;
    const parts = translate(text);
    if (parts === null) return text;
    const f = document.createDocumentFragment();
    for (const p of parts) {
      if (typeof p === "string") { f.append(p); continue; }
      const code = document.createElement("code");
      code.textContent = p.code;
      f.append(code);
    }
    return f;
  }
  // Sentences one after another, with the language's separator.
  const sayAll = (list) => list.flatMap((x, i) => (i ? [t("sentence_sep"), say(x)] : [say(x)]));
  function translate(text) {
    for (const p of patterns) {
      const m = p.re.exec(text);
      if (!m) continue;
      const form = MESSAGES[lang()][p.key];
      if (!form) break;
      const args = Object.fromEntries(p.names.map((n, i) => [n, m[i + 1]]));
      const parts = [];
      for (const piece of form.split(/(\{[a-z0-9_]+\})/)) {
        const ph = piece.match(/^\{([a-z0-9_]+)\}$/);
        if (ph && ph[1] in args) parts.push(...localArg(args[ph[1]]));
        else if (piece) parts.push(piece);
      }
      return parts;
    }
    return null;
  }

  const num = (x, digits) => x === null || x === undefined ? "–"
    : new Intl.NumberFormat(locale(), { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(x);
  const gib = (bytes) => `${num(bytes / GIB, 2)} ${t("gib")}`;
  return { t, iso, ltr, locale, MESSAGES, compileMessages, say, sayAll, translate, num, gib, LOCALES };
}
