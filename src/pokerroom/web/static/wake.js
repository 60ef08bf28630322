// Keep the phone's screen on while a game is running: a screen that dims and locks mid-hand costs a player
// their turn (the turn clock keeps running on the server). The Screen Wake Lock API exists only in secure
// contexts (https, localhost); on a plain-http LAN address there is none, and the phone's own settings apply.
// The browser drops the lock whenever the page is hidden, so it is asked for again when the page shows.

let wanted = false;
let lock = null;
let asking = false;

async function acquire() {
  if (!wanted || lock || asking || document.visibilityState !== "visible" || !navigator.wakeLock?.request) return;
  asking = true;
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => { lock = null; }, { once: true });
    if (!wanted) await release();
  } catch { lock = null; /* refused (battery saver, no user gesture yet): the screen may sleep */ } finally {
    asking = false;
  }
}

async function release() {
  const held = lock;
  lock = null;
  try { await held?.release(); } catch { /* already released */ }
}

document.addEventListener("visibilitychange", () => { acquire(); });

/** on: a game is on screen (hold the lock); off: the waiting room, the results, another page. */
export function keepAwake(on) {
  if (on === wanted) { if (on) acquire(); return; }
  wanted = on;
  if (on) acquire();
  else release();
}

/** Whether the screen is being kept on now (for tests and the settings line). */
export function awake() { return !!lock; }
