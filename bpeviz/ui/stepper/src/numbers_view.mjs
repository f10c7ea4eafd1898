// The numbers beside the card (role "numbers"): each metric's value at the bar's step,
// with its change from the step before, and a note naming the step. Drawn from arrays
// sent once per training (a number per step), in the same redraw as the card: no number
// ever names another step than the card's.
//   data.metrics: [{label, help, values: [a number per step], good: "up" | "down" (the
//                   direction of a change that is good news), digits (decimals shown),
//                   least (a smaller change is shown as none)}]
//   data.notes (a sentence per step) or data.note ("{step}" and "{n}" filled in)

import { el } from "./chips.mjs";
import { clamp, fmt, whole } from "./numbers.mjs";

// a formatter per number of decimals, made once (toLocaleString makes one per call)
const FORMATS = new Map();
function written(x, digits = 0) {
  let format = FORMATS.get(digits);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits,
      maximumFractionDigits: digits });
    FORMATS.set(digits, format);
  }
  return format.format(Number(x));
}

// A value as the metric box writes it, and its title: a whole number of eight digits or
// more (a big corpus's tokens) in millions or billions, so that it fits the box beside
// the card ("391.27 M"), the exact value in the title; others written out, no title.
export function valueText(x, digits = 0) {
  const big = digits === 0 && Number.isFinite(x) && Math.abs(x) >= 1e7;
  if (!big) return [written(x, digits), ""];
  const [unit, size] = Math.abs(x) >= 1e10 ? [" B", 1e9] : [" M", 1e6];
  return [written(x / size, 2) + unit, written(x)];
}

// a change as the page writes it: "+1", "-2,000", "+0.5"; "0" for none; null for no change
export function signedText(delta, digits = 0) {
  if (delta === null || !Number.isFinite(delta)) return null;
  const text = written(Math.abs(delta), digits);
  return Number(text.replaceAll(",", "")) === 0 ? "0" : (delta > 0 ? "+" : "-") + text;
}

export function buildNumbers(f) {
  const d = f.data;
  const row = el("div", "bv-metrics");
  f.metrics = (Array.isArray(d.metrics) ? d.metrics : []).map((m) => {
    const box = el("div", "bv-metric");
    if (m.help) box.title = String(m.help);
    const value = el("div", "bv-metric-value bv-nums");
    const delta = el("div", "bv-metric-delta bv-nums");
    box.append(el("div", "bv-metric-label", String(m.label ?? "")), value, delta);
    row.append(box);
    return { m, value, delta };
  });
  f.note = el("div", "bv-muted bv-numbers-note");
  f.root.replaceChildren(row, f.note);
}

function show(one, k) {
  const { m } = one;
  const values = Array.isArray(m.values) ? m.values : [];
  const at = (i) => {
    const v = i >= 0 && i < values.length ? Number(values[i]) : NaN;
    return Number.isFinite(v) ? v : null;
  };
  const digits = whole(m.digits, 0);
  const now = at(k), before = k > 0 ? at(k - 1) : null;
  const [text, exact] = now === null ? ["–", ""] : valueText(now, digits);
  one.value.textContent = text;
  if (exact) one.value.title = exact; else one.value.removeAttribute?.("title");
  const change = now === null || before === null ? null : now - before;
  const shown = change === null || Math.abs(change) < (Number(m.least) || 0) ? null
    : signedText(change, digits);
  // a change too small to write says so in words: a bare "0" under a number reads as a value
  one.delta.textContent = shown === null ? "" : shown === "0" ? "no change"
    : (change > 0 ? "↑ " : "↓ ") + shown;
  const good = m.good === "down" ? change < 0 : change > 0;
  one.delta.className = "bv-metric-delta bv-nums" + (shown === null || shown === "0" ? ""
    : good ? " bv-good" : " bv-bad");
}

export function drawNumbers(f, k) {
  const d = f.data;
  const n = whole(d.n, 0);
  k = clamp(k, n, 0);
  for (const one of f.metrics) show(one, k);
  const notes = Array.isArray(d.notes) ? d.notes : null;
  // a note may name one number a step ({count}: data.counts[k]); at step 0 data.first
  const counts = Array.isArray(d.counts) ? d.counts : null;
  const count = counts && Number.isFinite(Number(counts[k])) ? fmt(Number(counts[k])) : "–";
  const template = k === 0 && typeof d.first === "string" ? d.first
    : String(d.note ?? "These numbers are for step {step} of {n}.");
  f.note.textContent = notes ? String(notes[k] ?? "")
    : template.replaceAll("{step}", fmt(k)).replaceAll("{n}", fmt(n))
      .replaceAll("{count}", count);
  f.root.dataset.step = String(k);
}
