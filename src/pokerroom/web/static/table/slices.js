// A region of the table is a list of slices: [name, key, build]. A slice is made by `slice(name, inputs,
// build)`: `build(inputs, had)` reads nothing but `inputs` (and the node on screen, `had`, to bring up to
// date), and the memo key is `inputs` serialised, so a key can never say less than what its builder reads.
// syncSlices then keeps every slice whose key did not change untouched (neither built nor compared).

import { morph } from "../morph.js";

/**
 * One slice. `inputs` null, or `always`: built on every render (and merged into the node on screen), for a
 * slice that shows what the app decides (the seat bar) or is cheap. `sized` (seats only): whether the slice
 * can change the seat box's size.
 */
export function slice(name, inputs, build, sized = true, always = false) {
  return [name, always || inputs == null ? null : JSON.stringify(inputs), (had) => build(inputs, had), sized, inputs];
}

/**
 * Make `parent`'s children exactly `nodes`, in order: the ones no longer wanted go first, then each new one is
 * inserted at its place, so a kept node is never detached (which would make the browser style and lay it out
 * again).
 */
export function syncChildren(parent, nodes) {
  const keep = new Set(nodes);
  for (const c of [...parent.children]) if (!keep.has(c)) c.remove();
  nodes.forEach((node, i) => {
    const at = parent.children[i];
    if (at !== node) parent.insertBefore(node, at ?? null);
  });
}

/**
 * Bring `parent`'s children up to `slices` ([name, key, build], in order): a slice whose key is unchanged
 * keeps its node untouched (not built, not compared); a changed one is built and merged into the node it
 * replaces (morph keeps what is equal in it). `memo` (name -> {key, node}) remembers them across renders.
 */
export function syncSlices(parent, slices, memo) {
  const nodes = [];
  const seen = new Set();
  for (const [name, key, build] of slices) {
    seen.add(name);
    const had = memo.get(name);
    let node;
    const mine = had?.node && had.node.parentNode === parent ? had.node : null;
    if (key != null && had && had.key === key && (had.node === null || mine)) node = had.node;
    else {
      node = build(mine) ?? null; // (a build may bring the node on screen up to date and return it)
      if (node && had?.node && had.node !== node && had.node.parentNode === parent && !node.sliced) node = morph(had.node, node);
      memo.set(name, { key, node });
    }
    if (node) nodes.push(node);
  }
  for (const name of [...memo.keys()]) if (!seen.has(name)) memo.delete(name);
  syncChildren(parent, nodes);
}
