// The step bar's keys, read from the one table of them (keys.json): what a key does
// (the handler), the rows of the "?" list, the titles of the bar's buttons. Python's
// captions read the same table (bpeviz.present.stage_script).

import KEYS from "./keys.json" with { type: "json" };

import { clamp } from "./numbers.mjs";

// the keys the slider would act on by itself (the page-wide handler does it instead)
export const RANGE_KEYS = KEYS.rangeKeys;

// the line above the "?" list
export const KEYS_WHERE = KEYS.where;

// a text of the table with the words for one step filled in ("one {unit}": "one merge")
function fill(text, unit, units) {
  return text.replaceAll("{units}", units).replaceAll("{unit}", unit);
}

// the table's entry for a key pressed (with Shift or not), or null
function entryFor(key, shift) {
  for (const row of KEYS.rows) {
    for (const k of row.keys) {
      if (k.key === key && (k.shift === undefined || k.shift === Boolean(shift))) return k;
    }
  }
  return null;
}

// What a key does to a bar at `step` in lo..n: {to: the step it moves to} or
// {act: "play" | "keys" | "close"}; null when the key is not the bar's.
export function keyAction(key, shift, step, lo, n) {
  const k = entryFor(key, shift);
  if (!k) return null;
  if (k.act) return { act: k.act };
  const target = k.to === "first" ? lo : k.to === "last" ? n : step + k.by;
  return { to: clamp(target, n, lo) };
}

// a row's keys as the list shows them: "← / →", "Shift + ← / →", "Space"
function shown(row) {
  const names = [...new Set(row.keys.map((k) => k.name))].join(" / ");
  return row.keys.every((k) => k.shift === true) ? `Shift + ${names}` : names;
}

// the rows of the keys' list (?): [keys, what they do], for steps called `unit`
export function keyRows(unit, units) {
  return KEYS.rows.filter((row) => row.what !== null)
    .map((row) => [shown(row), fill(row.what, unit, units)]);
}

// a button's name ("Previous merge": its aria-label) and title, which names its keys:
// "Previous merge (←; Shift+← ten back)"
export function buttonLabel(button, unit = "merge", units = `${unit}s`) {
  return fill(KEYS.buttons[button], unit, units);
}

export function buttonTitle(button, unit = "merge", units = `${unit}s`) {
  const keys = [];
  for (const row of KEYS.rows) {
    for (const k of row.keys) {
      if (k.button !== button) continue;
      const said = `${k.shift ? "Shift+" : ""}${k.name}${k.hint ? ` ${k.hint}` : ""}`;
      if (!keys.includes(said)) keys.push(said);
    }
  }
  const label = buttonLabel(button, unit, units);
  return keys.length ? `${label} (${keys.join("; ")})` : label;
}

// whether a key pressed in `target` is typing (a text box, a menu) or meant for a view that
// takes its own keys (data-bv-keys="own": the heatmap's cells, moved between by arrows)
// rather than the bar's
export function typingIn(target) {
  if (!target || !target.closest) return false;
  if (target.isContentEditable || target.closest('[data-bv-keys="own"]')) return true;
  const tag = (target.tagName || "").toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") {
    const type = (target.type || "").toLowerCase();
    return !["range", "button", "checkbox", "radio"].includes(type) || !target.closest(".bv-stage");
  }
  const role = target.getAttribute && target.getAttribute("role");
  if (role === "slider" || role === "combobox" || role === "textbox" || role === "spinbutton") {
    return !target.closest(".bv-stage");
  }
  return false;
}
