// The page's words: one JSON file a language in i18n/ (translations are data), one for each entry of
// the language picker; numbers and units go through Intl (app.js). app.js waits for I18N_READY.
"use strict";
const I18N = {};
const I18N_READY = Promise.all(
  [...document.querySelectorAll("#lang option")].map(async ({ value: lang }) => {
    const res = await fetch(`i18n/${lang}.json`);
    if (!res.ok) throw new Error(`i18n/${lang}.json: HTTP ${res.status}`);
    I18N[lang] = await res.json();
  }));
