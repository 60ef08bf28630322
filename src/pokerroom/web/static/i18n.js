// The one place the client's words come from (docs/decisions/0048-english-switch.md): every string a player
// sees is a key in i18n/ko.js (the default) and i18n/en.js. The language is fixed for the page's life: it is
// read once here, before any other module is evaluated (modules import this first, so constants such as
// ACTION_LABEL are built in the chosen language), and the settings switch stores it and reloads the page.

import KO from "./i18n/ko.js";
import EN from "./i18n/en.js";
import { useSheet } from "./dom.js";

const STORE = "pokerroom:lang";
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

/**
 * Word the page's static shell (index.html: top bar, dialog titles, the confirm buttons) from its data-i18n*
 * attributes, and hand the CSS its few words (the hint tags drawn with ::before) as custom properties. The
 * HTML keeps the Korean words, so a Korean page is left exactly as served.
 */
function wordStatic() {
  document.documentElement.lang = LANG;
  if (LANG === "ko") return;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = tx(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-aria]")) node.setAttribute("aria-label", tx(node.dataset.i18nAria));
  for (const node of document.querySelectorAll("[data-i18n-content]")) node.setAttribute("content", tx(node.dataset.i18nContent));
  useSheet("english"); // the English page's own layout: longer words
  const root = document.documentElement.style;
  for (const k of ["any", "discard", "open", "draw"]) root.setProperty(`--hint-${k}`, JSON.stringify(tx(`hint.${k}`)));
}
if (typeof document !== "undefined") wordStatic();

/** The settings field that switches the language: one radio per language, each named in the page's language. */
export function languageField() {
  const field = document.createElement("div");
  field.className = "field";
  field.dataset.testid = "language";
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = tx("lang.label");
  const seg = document.createElement("div");
  seg.className = "seg";
  seg.setAttribute("role", "radiogroup");
  seg.setAttribute("aria-label", tx("lang.label"));
  for (const lang of Object.keys(CATALOG)) {
    const opt = document.createElement("label");
    const input = document.createElement("input");
    Object.assign(input, { type: "radio", name: "language", value: lang, checked: lang === LANG });
    input.dataset.testid = `lang-${lang}`;
    input.addEventListener("change", () => setLang(lang));
    const text = document.createElement("span");
    text.textContent = tx(`lang.${lang}`);
    opt.append(input, text);
    seg.append(opt);
  }
  field.append(label, seg);
  return field;
}
