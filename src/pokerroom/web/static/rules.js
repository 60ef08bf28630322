// "규칙 보기": a one-page summary per mode, the hand-ranking table with drawn examples, and the Korean betting
// terms (poker.md §9 초보자 도움). Text only — the engine decides everything during play.

import { tx } from "./i18n.js";
import { miniCardEl } from "./cards.js";
import { modeName } from "./options.js";

const RANKS = { A: 14, K: 13, Q: 12, J: 11, T: 10 };
const SUIT_IDX = { S: 0, D: 1, H: 2, C: 3 };

function parse(codes, d20 = false) {
  return codes.split(" ").map((code) => {
    const suit = code.slice(-1).toUpperCase();
    const r = code.slice(0, -1).toUpperCase();
    let rank = RANKS[r] ?? Number(r);
    if (d20) {
      if (rank === 14) rank = 1;
      return { id: (suit === "S" ? 0 : 10) + rank - 1, rank, suit };
    }
    return { id: SUIT_IDX[suit] * 13 + rank - 2, rank, suit };
  });
}

const INTERNATIONAL = [
  [tx("rules.1"), tx("rules.2"), "As Ks Qs Js Ts"],
  [tx("rules.3"), tx("rules.4"), "9s 9d 9h 9c Kd"],
  [tx("rules.5"), tx("rules.6"), "Qs Qd Qh 5c 5d"],
  [tx("rules.7"), tx("rules.8"), "Ah Jh 8h 6h 2h"],
  [tx("rules.9"), tx("rules.10"), "9c 8d 7s 6h 5c"],
  [tx("rules.11"), tx("rules.12"), "7s 7d 7h Kc 2d"],
  [tx("rules.13"), tx("rules.14"), "Ks Kd 4h 4c 9s"],
  [tx("rules.15"), tx("rules.16"), "As Ad 9h 6c 3d"],
  [tx("rules.17"), tx("rules.18"), "Ks Jd 8h 5c 3d"],
];

const KOREAN = [
  [tx("rules.19"), tx("rules.20"), "As Ks Qs Js Ts"],
  [tx("rules.21"), tx("rules.22"), "Ad 2d 3d 4d 5d"],
  [tx("rules.1"), tx("rules.23"), "9h 8h 7h 6h 5h"],
  [tx("rules.3"), tx("rules.4"), "9s 9d 9h 9c Kd"],
  [tx("rules.5"), tx("rules.6"), "Qs Qd Qh 5c 5d"],
  [tx("rules.7"), tx("rules.8"), "Ac Jc 8c 6c 2c"],
  [tx("rules.24"), tx("rules.25"), "As Kd Qh Jc Ts"],
  [tx("rules.26"), tx("rules.27"), "Ah 2s 3d 4c 5h"],
  [tx("rules.9"), tx("rules.28"), "9c 8d 7s 6h 5c"],
  [tx("rules.11"), tx("rules.12"), "7s 7d 7h Kc 2d"],
  [tx("rules.13"), tx("rules.29"), "Ks Kd 4h 4c 9s"],
  [tx("rules.15"), tx("rules.30"), "As Ad 9h 6c 3d"],
  [tx("rules.31"), tx("rules.32"), "Ks Jd 8h 5c 3d"],
];

const LOW = [
  [tx("rules.33"), tx("rules.34"), "Ac 2d 3h 4s 6c"],
  [tx("rules.35"), tx("rules.36"), "As 3d 4h 5c 7s"],
  [tx("rules.37"), tx("rules.38"), "Ah 2c 3d 4s 9h"],
];

const OMAHA_LOW = [
  [tx("rules.39"), tx("rules.40"), "As 2s 3s 4s 5s"],
  [tx("rules.35"), tx("rules.41"), "7c 5d 4h 2s Ac"],
  [tx("rules.42"), tx("rules.43"), "8d 7c 6h 5s 4d"],
];

const BADUGI = [
  [tx("rules.44"), tx("rules.45"), "As 2d 3h 4c"],
  [tx("rules.46"), tx("rules.47"), "Ad 2s 3c 5h"],
  [tx("rules.48"), tx("rules.49"), "Ah 2c 4d 5s"],
  [tx("rules.50"), tx("rules.51"), "2s 4d 7h 9c"],
  [tx("rules.52"), tx("rules.53"), "As 4c 5d 5h"],
  [tx("rules.54"), tx("rules.55"), "3s 8s 4h 4d"],
  [tx("rules.56"), tx("rules.57"), "2c 5c 9c Kc"],
];

// 하이 바둑이 (docs/rules-extensions.md): same shapes, the highest wins, ace high
const BADUGI_HIGH = [
  [tx("rules.58"), tx("rules.59"), "As Kd Qh Jc"],
  [tx("rules.50"), tx("rules.60"), "Ks 9d 5h 2c"],
  [tx("rules.52"), tx("rules.61"), "As Ks Qh Jc"],
  [tx("rules.54"), tx("rules.55"), "Ah Kh Qs Qd"],
  [tx("rules.56"), tx("rules.57"), "2c 5c 9c Kc"],
];

const INDIAN1 = [
  ["10", tx("rules.62"), "Ts"],
  ["5", tx("rules.63"), "5h"],
  ["A", tx("rules.64"), "As"],
];
const INDIAN2 = [
  [tx("rules.65"), tx("rules.66"), "Ts Th"],
  [tx("rules.67"), "", "3s 3h"],
  ["10-9", tx("rules.68"), "Ts 9h"],
  ["5-2", "", "5h 2s"],
];

export function rankingRows(mode, options = {}) {
  if (mode === "sevenPoker") return [[tx("labels.19"), KOREAN]];
  if (mode === "sevenHiLo") return [[tx("labels.19"), KOREAN], [tx("labels.20"), LOW]];
  if (mode === "omaha" && options?.omahaHiLo) return [[tx("labels.19"), INTERNATIONAL], [tx("rules.69"), OMAHA_LOW]];
  if (mode === "badugi") return options?.badugiHigh ? [[tx("view.4"), BADUGI_HIGH]] : [[tx("options.13"), BADUGI]];
  if (mode === "indian") return [[tx("options.18"), (options?.indianCards ?? 1) === 2 ? INDIAN2 : INDIAN1]];
  return [[tx("side.4"), INTERNATIONAL]];
}

export function rankingTable(mode, opts = {}) {
  const wrap = document.createElement("div");
  const d20 = mode === "indian" && (opts.options?.indianDeck ?? "d20") === "d20";
  for (const [title, rows] of rankingRows(mode, opts.options)) {
    const table = document.createElement("table");
    table.className = "rank-table";
    const cap = document.createElement("caption");
    cap.textContent = tx("rules.70", [title]);
    cap.style.textAlign = "left";
    cap.style.fontWeight = "700";
    table.append(cap);
    rows.forEach(([name, desc, ex], i) => {
      const tr = document.createElement("tr");
      const n = document.createElement("td");
      n.className = "rank-name";
      const b = document.createElement("b");
      b.textContent = `${i + 1}. ${name}`;
      n.append(b);
      const exTd = document.createElement("td");
      exTd.className = "rank-ex";
      const exDiv = document.createElement("div");
      exDiv.className = "ex";
      for (const c of parse(ex, d20)) exDiv.append(miniCardEl(c, { example: true, big: !opts.compact }));
      exTd.append(exDiv);
      if (!opts.compact) {
        // the description goes under the name, so on a phone the text keeps a readable width
        const d = document.createElement("div");
        d.className = "rank-desc";
        d.textContent = desc;
        n.append(d);
      }
      tr.append(n, exTd);
      table.append(tr);
    });
    wrap.append(table);
  }
  return wrap;
}

const SUMMARY = {
  holdem: [
    tx("rules.71"),
    tx("rules.72"),
    tx("rules.73"),
  ],
  omaha: [
    tx("rules.74"),
    tx("rules.75"),
    tx("rules.76"),
  ],
  omahaHiLo: [
    tx("rules.77"),
    tx("rules.78"),
    tx("rules.79"),
    tx("rules.80"),
    tx("rules.81"),
  ],
  sevenPoker: [
    tx("rules.82"),
    tx("rules.83"),
    tx("rules.84"),
    tx("rules.85"),
  ],
  sevenHiLo: [
    tx("rules.86"),
    tx("rules.87"),
    tx("rules.88"),
  ],
  badugi: [
    tx("rules.89"),
    tx("rules.90"),
    tx("rules.91"),
  ],
  fiveDraw: [
    tx("rules.92"),
    tx("rules.93"),
  ],
  indian: [
    tx("rules.94"),
    tx("rules.95"),
    tx("rules.96"),
    tx("rules.97"),
  ],
};

export const TERMS = [
  [tx("labels.2"), tx("rules.98")],
  [tx("labels.3"), tx("rules.99")],
  [tx("labels.4"), tx("rules.100")],
  [tx("labels.5"), tx("rules.101")],
  [tx("labels.6"), tx("rules.102")],
  [tx("labels.7"), tx("rules.103")],
  [tx("labels.8"), tx("rules.104")],
  [tx("labels.1"), tx("rules.105")],
  [tx("labels.11"), tx("rules.106")],
  [tx("rules.107"), tx("rules.108")],
];

export const NL_TERMS = [
  [tx("labels.9"), tx("rules.109")],
  [tx("rules.110"), tx("rules.111")],
  [tx("rules.112"), tx("rules.113")],
  [tx("rules.114"), tx("rules.115")],
];

/**
 * House rules of docs/rules-extensions.md: [option key, title, modes (null = every mode), lines]. The rules page
 * lists those of the mode and says whether this room has each one on.
 */
export const HOUSE_RULES = [
  ["rule491", tx("view.2"), ["sevenPoker", "sevenHiLo"], [
    tx("rules.116"),
    tx("rules.117"),
    tx("rules.118"),
    tx("rules.119"),
  ]],
  ["badugiHigh", tx("view.4"), ["badugi"], [
    tx("rules.120"),
    tx("rules.121"),
    tx("rules.122"),
  ]],
  ["jacksOrBetter", tx("view.5"), ["fiveDraw"], [
    tx("rules.123"),
    tx("rules.124"),
    tx("rules.125"),
    tx("rules.126"),
    tx("rules.127"),
  ]],
  ["ante", tx("labels.12"), ["holdem", "omaha"], [
    tx("rules.128"),
    tx("rules.129"),
    tx("rules.130"),
  ]],
  ["straddle", tx("labels.13"), ["holdem", "omaha"], [
    tx("rules.131"),
    tx("rules.132"),
    tx("rules.133"),
  ]],
  ["runItTwice", tx("labels.23"), ["holdem", "omaha"], [
    tx("rules.134"),
    tx("rules.135"),
    tx("rules.136"),
  ]],
  ["timeBank", tx("options.123"), null, [
    tx("rules.148"),
    tx("rules.149"),
    tx("rules.150"),
  ]],
  ["betCap", tx("options.102"), null, [
    tx("rules.137"),
    tx("rules.138"),
    tx("rules.139"),
  ]],
];

function houseRulesSection(mode, options) {
  const rules = HOUSE_RULES.filter(([, , modes]) => !modes || modes.includes(mode));
  if (!rules.length) return null;
  const box = document.createElement("div");
  box.className = "house-rules";
  box.dataset.testid = "house-rules";
  const h = document.createElement("h3");
  h.textContent = tx("rules.140");
  box.append(h);
  for (const [key, title, , lines] of rules) {
    // the room's own setting is only stated when the page shows the room's mode
    const inRoom = options?.mode === mode;
    const on = inRoom && options[key] && options[key] !== "none"
      && !(key === "rule491" && options.betting && !["auto", "korean"].includes(options.betting));
    const b = document.createElement("p");
    const strong = document.createElement("b");
    strong.textContent = title;
    const detail = key === "betCap" ? tx("rules.141", [options[key]])
      : key === "timeBank" ? tx("rules.151", [options.timeBank, options.timeBankEvery ? tx("rules.152", [options.timeBankEvery]) : ""])
      : key === "ante" ? tx("rules.142", [options.ante === "bigBlind" ? tx("options.94") : tx("options.93"), options.antePercent]) : "";
    const state = !inRoom ? tx("rules.143") : on ? tx("rules.144", [detail]) : tx("rules.145");
    b.append(strong, document.createTextNode(state));
    box.append(b);
    const ul = document.createElement("ul");
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      ul.append(li);
    }
    box.append(ul);
  }
  return box;
}

export function rulesContent(mode, options = {}) {
  const wrap = document.createElement("div");
  wrap.className = "rules";
  const h3 = document.createElement("h3");
  const hiLo = mode === "omaha" && !!options?.omahaHiLo;
  h3.textContent = modeName(mode, hiLo ? options : null);
  wrap.append(h3);
  const ul = document.createElement("ul");
  // Omaha: the hi-lo option is explained too, so a player can read it before choosing it in the lobby
  for (const line of [...(SUMMARY[mode] ?? []), ...(mode === "omaha" ? SUMMARY.omahaHiLo : [])]) {
    const li = document.createElement("li");
    li.textContent = line;
    ul.append(li);
  }
  wrap.append(ul);
  wrap.append(rankingTable(mode, { options }));
  const house = houseRulesSection(mode, options);
  if (house) wrap.append(house);
  const t = document.createElement("h3");
  t.textContent = tx("rules.146");
  wrap.append(t);
  const dl = document.createElement("dl");
  dl.className = "terms";
  for (const [term, text] of [...TERMS, ...NL_TERMS]) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = text;
    dl.append(dt, dd);
  }
  wrap.append(dl);
  const note = document.createElement("p");
  note.className = "notice";
  note.textContent = tx("rules.147");
  wrap.append(note);
  return wrap;
}
