// Table sounds, synthesised with WebAudio (no sound files, nothing from a CDN): my turn, a bet, cards, a win.
// One toggle (설정 → 소리·진동) turns all of them and the turn vibration off. Browsers only start audio after a
// user gesture, so the context is resumed on the first tap; until then sounds are silently skipped.
// A running context keeps the audio output open, playing silence, for as long as the page lives (on a phone,
// the audio hardware awake all night: about 1.4 % of a core in Chromium's audio service, per page): it is
// put to sleep once the table has been quiet for QUIET_MS, and woken for the next sound (and by any tap).

let ctx = null;
let started = false; // the context has run once (a tap let it): from then on a sound may wake it
let sleeper = 0;
const QUIET_MS = 5000;

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "running") started = true;
  return ctx;
}

/** The context to sleep after QUIET_MS without a sound (each sound, each tap starts the wait again). */
function sleepWhenQuiet() {
  clearTimeout(sleeper);
  sleeper = setTimeout(() => {
    try {
      if (ctx && ctx.state === "running") ctx.suspend();
    } catch { /* no audio */ }
  }, QUIET_MS);
}

/** Resume (or create) the audio context inside a user gesture. */
export function unlockAudio() {
  try {
    const c = audio();
    if (c && c.state === "suspended") c.resume().then(() => { started = true; }, () => {});
    if (c) sleepWhenQuiet();
  } catch { /* no audio */ }
}

/** "none" (no context yet), or the context's state ("running", "suspended"): the tests read it. */
export function audioState() {
  return ctx ? ctx.state : "none";
}

function tone(c, freq, at, dur, type = "sine", peak = 0.08) {
  const o = c.createOscillator();
  const g = c.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  o.connect(g).connect(c.destination);
  o.start(at);
  o.stop(at + dur + 0.02);
}

let noiseBuf = null;
function noise(c, at, dur, band, q, peak) {
  if (!noiseBuf || noiseBuf.sampleRate !== c.sampleRate) {
    noiseBuf = c.createBuffer(1, Math.floor(c.sampleRate * 0.3), c.sampleRate);
    const data = noiseBuf.getChannelData(0);
    let seed = 12345; // a fixed pseudo-random burst: the same sound every time
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data[i] = (seed / 0x3fffffff - 1) * (1 - i / data.length);
    }
  }
  const src = c.createBufferSource();
  src.buffer = noiseBuf;
  const f = c.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.setValueAtTime(band, at);
  f.Q.setValueAtTime(q, at);
  const g = c.createGain();
  g.gain.setValueAtTime(peak, at);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  src.connect(f).connect(g).connect(c.destination);
  src.start(at);
  src.stop(at + dur + 0.02);
}

const SOUNDS = {
  // two rising notes: it is my turn
  turn: (c, t) => { tone(c, 880, t, 0.18); tone(c, 1320, t + 0.12, 0.22); },
  // chips: two short clicks and a low knock
  bet: (c, t) => { noise(c, t, 0.05, 2400, 6, 0.25); noise(c, t + 0.06, 0.05, 2000, 6, 0.2); tone(c, 180, t, 0.08, "triangle", 0.05); },
  // a card sliding onto the felt
  card: (c, t) => { noise(c, t, 0.12, 3200, 1.2, 0.12); },
  // a small fanfare: C E G
  win: (c, t) => { tone(c, 523, t, 0.2, "triangle"); tone(c, 659, t + 0.1, 0.2, "triangle"); tone(c, 784, t + 0.2, 0.35, "triangle"); },
};

/** Play one of "turn" | "bet" | "card" | "win" now (no-op when audio is not running yet). */
export function playSound(kind) {
  try {
    const c = audio();
    const fn = SOUNDS[kind];
    if (!c || !fn) return false;
    if (c.state === "running") fn(c, c.currentTime + 0.01);
    else if (started && c.state === "suspended") c.resume().then(() => fn(c, c.currentTime + 0.01), () => {});
    else return false; // (never started by a tap)
    sleepWhenQuiet();
    return true;
  } catch {
    return false;
  }
}

/** Vibrate briefly on my turn, where the phone can (and only after the user has touched the page). */
export function vibrateTurn() {
  try {
    if (typeof navigator.vibrate === "function" && navigator.userActivation?.hasBeenActive !== false) navigator.vibrate(120);
  } catch { /* not supported */ }
}

/**
 * The sounds one `events` frame calls for, each at most once: chips moved (bet), cards dealt (card), a pot
 * awarded to me (win). My turn is the table's own signal (it knows when the turn becomes mine).
 */
export function soundsForEvents(events, myId) {
  const out = new Set();
  for (const e of events ?? []) {
    if (e.type === "action" && (e.amount ?? 0) > 0) out.add("bet");
    else if (e.type === "ante" || e.type === "blind") out.add("bet");
    else if (e.type === "dealt" || e.type === "board" || e.type === "reveal" || e.type === "drawn") out.add("card");
    else if (e.type === "award" && myId && e.to === myId) out.add("win");
  }
  return [...out];
}
