import { useSheet } from "../dom.js";

/**
 * Playing from a computer's keyboard: the digit keys 1–9 press the table's action buttons in the order they
 * are drawn (left to right, row by row: the 2×4 grid of Korean bets, 폴드·콜·레이즈·올인, 다음 판·쉬기, the
 * pre-actions while another player acts), and where the pointer is a mouse each button shows its digit in a
 * corner (keys.css); with the raise panel open, Enter, Escape and the arrows work it (RAISE_PANEL_KEYS); while
 * I pick cards (7 Poker's choice, a draw) the home row's letters A S D F G H J pick them, left to right
 * (CARD_KEYS: a letter, so the digits still press 되돌리기 and 확인/바꾸기), each shown in its card's corner.
 * Why digits: every row of buttons reads in that order, and `KeyboardEvent.code` names the same key whatever
 * the keyboard's language, so a Hangul input method changes nothing.
 *
 * A key does nothing while the player types (chat, a nickname), with a modifier held, held down (a repeat),
 * under an open dialog (the fold question among them), or on a greyed or hidden button; a button pressed by
 * its key is clicked like a tap, so what a tap asks first (a fold when a check is free) is still asked.
 */
export function buttonForKey(ev, host) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || ev.repeat || ev.isComposing) return null;
  const target = ev.target instanceof Element ? ev.target : null;
  const slider = target?.matches("input[type=range]") ?? false; // (the raise amount's: nothing is typed there)
  if (!slider && target?.closest("input, textarea, select, [contenteditable]")) return null;
  if (document.querySelector("dialog[open]")) return null;
  const digit = /^(?:Digit|Numpad)([1-9])$/.exec(ev.code ?? "");
  const panelKey = RAISE_PANEL_KEYS[ev.code];
  const card = CARD_KEYS.indexOf(ev.code);
  let button = null;
  if (digit) button = host.querySelectorAll(".controls .actions > button")[Number(digit[1]) - 1];
  else if (card >= 0) button = host.querySelectorAll(".my-cards .card.selectable")[card];
  else if (panelKey && !(slider && ev.code.startsWith("Arrow"))) { // (a focused slider moves by itself)
    button = host.querySelector(`.controls .raise-panel ${panelKey}`);
  }
  return button && !button.disabled && button.getClientRects().length ? button : null; // (drawn, not greyed)
}

/** The keys of my cards while I pick them, left to right (keys.css names them the same on the cards). */
const CARD_KEYS = ["KeyA", "KeyS", "KeyD", "KeyF", "KeyG", "KeyH", "KeyJ"];

/** The open raise panel's keys: Enter raises by the amount shown, Escape closes it, ←/→ step the amount by
 * the base unit (as its −/+ buttons do). */
const RAISE_PANEL_KEYS = {
  Enter: "[data-action=raise-confirm]", NumpadEnter: "[data-action=raise-confirm]",
  Escape: ".confirm-row > button:first-child", ArrowLeft: "[data-step='-']", ArrowRight: "[data-step='+']",
};

/** Listen for these keys while a table is shown; returns what stops listening (the table's destroy). */
export function listenForKeys(host) {
  useSheet("keys");
  const onKey = (ev) => {
    const button = buttonForKey(ev, host);
    if (!button) return;
    ev.preventDefault();
    button.click();
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
