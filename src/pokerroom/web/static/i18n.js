// The one place the client's words come from (docs/decisions/0048-english-switch.md): every string a player
// sees is a key in i18n/ko.js (the default) and i18n/en.js. The language is fixed for the page's life: it is
// read once here, before any other module is evaluated (modules import this first, so constants such as
// ACTION_LABEL are built in the chosen language), and the settings switch stores it and reloads the page.

import KO from "./i18n/ko.js";
import EN from "./i18n/en.js";

const STORE = "pokerroom:lang";
export const LANGS = { ko: "한국어", en: "English" };
const CATALOG = { ko: KO, en: EN };

function chosen() {
  // ?lang=en (a shared link, a test) wins and is remembered; then the stored choice; Korean otherwise
  let fromUrl = null;
  try { fromUrl = new URLSearchParams(location.search).get("lang"); } catch { /* no location (a worker) */ }
  if (fromUrl && fromUrl in CATALOG) {
    try { localStorage.setItem(STORE, fromUrl); } catch { /* private mode */ }
    return fromUrl;
  }
  try {
    const stored = localStorage.getItem(STORE);
    if (stored && stored in CATALOG) return stored;
  } catch { /* private mode */ }
  return "ko";
}

export const LANG = chosen();
if (typeof document !== "undefined") document.documentElement.lang = LANG;

/**
 * The words for `key` in the page's language, with `{0}`, `{1}` … (or `{name}`) filled from `params`. A key the
 * English catalog lacks falls back to Korean rather than showing the key: a test keeps both catalogs equal.
 */
export function tx(key, params) {
  const s = CATALOG[LANG][key] ?? KO[key] ?? key;
  if (params == null) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] ?? m));
}

/** Store the choice and reload: every module reads the language once, so a reload is the whole switch. */
export function setLang(lang) {
  if (!(lang in CATALOG) || lang === LANG) return;
  try { localStorage.setItem(STORE, lang); } catch { /* private mode */ }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}
