// Keep what did not change (speed on a slow phone: docs/decisions/0033-render-keeps-what-did-not-change.md).
// The table builds a part of the screen afresh from the view (simple and correct), then `morph` makes the
// part on screen look like the fresh one while keeping every node that is already right: an unchanged
// button, card or line stays the very same node, so the browser restyles, lays out and repaints only what
// changed, and focus and typed text survive a view.

const LISTENED = new WeakSet();

/** addEventListener, remembered: a node with a listener is only ever kept whole or replaced whole (its
 * handler was made for the view it was built from), never patched into another node's shape. */
export function listen(node, type, fn) {
  node.addEventListener(type, fn);
  LISTENED.add(node);
}

const WHOLE = new WeakSet();

// node -> the key morphKeyed built it from
const BUILT = new WeakMap();

/** Mark a part whose handlers reach other nodes of the same part (a raise panel's buttons write its slider
 * and amount): it is kept only when equal in every node, else replaced whole, never patched, so a handler
 * never writes into a node that is not on screen. Returns the node. */
export function whole(node) {
  WHOLE.add(node);
  return node;
}

// controls whose state lives in properties (value, checked) or whose handlers come from other modules:
// kept whole when equal, else replaced
const SOLID = new Set(["BUTTON", "INPUT", "FORM", "SELECT", "TEXTAREA", "A", "LABEL"]);
const HTML_NS = "http://www.w3.org/1999/xhtml";

function patchable(a, b) {
  return a.nodeType === 1 && b.nodeType === 1 && a.tagName === b.tagName && a.namespaceURI === HTML_NS
    && !SOLID.has(a.tagName) && !LISTENED.has(a) && !LISTENED.has(b) && !WHOLE.has(a) && !WHOLE.has(b);
}

/** Which old child a fresh child may take the place of: same tag, class and identity attributes. */
function matchKey(n) {
  if (n.nodeType !== 1) return `#${n.nodeType}`;
  const d = n.dataset ?? {};
  return `${n.tagName}|${n.getAttribute("class") ?? ""}|${d.testid ?? ""}|${d.action ?? ""}|${d.cardId ?? ""}|${d.keep ?? ""}`;
}

/**
 * The node to show in place of `old` so that the screen shows `fresh`: `old` itself when it is equal (or
 * patched to be equal: its attributes and children), else `fresh`. Nodes marked `data-keep` (the timer
 * ring, which the ticking clock draws into) are kept whenever the fresh node has the same mark.
 */
export function morph(old, fresh) {
  if (old === fresh) return old;
  if (old.nodeType === 1 && fresh.nodeType === 1 && old.dataset?.keep && old.dataset.keep === fresh.dataset?.keep
    && old.tagName === fresh.tagName && old.getAttribute("class") === fresh.getAttribute("class")
    && old.getAttribute("style") === fresh.getAttribute("style")) return old;
  if (old.isEqualNode(fresh)) return old;
  if (old.nodeType === 3 && fresh.nodeType === 3) {
    old.data = fresh.data;
    BUILT.delete(old);
    return old;
  }
  if (!patchable(old, fresh)) return fresh;
  BUILT.delete(old); // (patched: no longer what its key built; morphKeyed gives it the fresh one's)
  for (const a of [...old.attributes]) if (!fresh.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of fresh.attributes) {
    if (old.getAttribute(a.name) === a.value) continue;
    // the page's CSP (style-src 'self') refuses a style attribute set as an attribute; CSSOM is allowed
    if (a.name === "style") old.style.cssText = fresh.style.cssText;
    else old.setAttribute(a.name, a.value);
  }
  morphChildren(old, fresh);
  return old;
}

/** Give `old` the children of `fresh`, keeping (and patching) the old children that match. */
export function morphChildren(old, fresh) {
  const olds = [...old.childNodes];
  const used = new Array(olds.length).fill(false);
  let from = 0;
  const want = [...fresh.childNodes].map((n) => {
    const key = matchKey(n);
    for (let i = from; i < olds.length; i++) {
      if (!used[i] && matchKey(olds[i]) === key) {
        used[i] = true;
        from = i + 1;
        return morph(olds[i], n);
      }
    }
    return n;
  });
  placeChildren(old, want);
}

/** Make `want` (old children kept and new ones) `parent`'s children, in order; the others are removed. */
function placeChildren(parent, want) {
  const keep = new Set(want);
  for (const c of [...parent.childNodes]) if (!keep.has(c)) c.remove();
  want.forEach((node, i) => {
    const at = parent.childNodes[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
}


/**
 * Give `parent` the children `specs` describe ([key, build], in order) without building the ones already on
 * screen: an old child built from an equal key is kept as it is (neither built nor compared: a dealt card
 * adds one card to a row, the others stay untouched); any other is built and merged into the old child it
 * takes the place of, as morphChildren does. A key must say everything its build reads, and whoever changes
 * a kept child after its build must undo that first (or give it another key).
 */
export function morphKeyed(parent, specs) {
  const olds = [...parent.childNodes];
  const used = new Array(olds.length).fill(false);
  let from = 0;
  const want = specs.map(([key, build]) => {
    for (let i = from; i < olds.length; i++) {
      if (!used[i] && BUILT.get(olds[i]) === key) {
        used[i] = true;
        from = i + 1;
        return olds[i];
      }
    }
    const fresh = build();
    const mk = matchKey(fresh);
    let node = fresh;
    for (let i = from; i < olds.length; i++) {
      if (!used[i] && matchKey(olds[i]) === mk) {
        used[i] = true;
        from = i + 1;
        node = morph(olds[i], fresh);
        break;
      }
    }
    BUILT.set(node, key);
    return node;
  });
  placeChildren(parent, want);
}
