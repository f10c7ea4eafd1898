// The numbers beside the card (role "numbers"): the vocabulary's size and the corpus's
// tokens at the bar's step, each with its change from the step before, and a note naming
// the step. Drawn from two arrays sent once per training (a number per step), in the same
// frame as the card: no number ever names another step than the card's.

import { el } from "./chips.mjs";
import { clamp, fmt, whole } from "./numbers.mjs";

// a change as the page writes it: "+1", "-2,000", "0"; null for none
export function signedText(delta) {
  if (delta === null || !Number.isFinite(delta)) return null;
  return delta > 0 ? `+${fmt(delta)}` : delta < 0 ? `-${fmt(-delta)}` : "0";
}

// one metric: its label, its value and its change (good: the change's direction that is
// good news, "up" or "down"; a vocabulary grows, a corpus is cut into fewer tokens)
function metric(label, help, good) {
  const box = el("div", "bv-metric");
  box.title = help;
  const value = el("div", "bv-metric-value bv-nums");
  const delta = el("div", "bv-metric-delta bv-nums");
  box.append(el("div", "bv-metric-label", label), value, delta);
  return { box, value, delta, good };
}

export function buildNumbers(f) {
  const d = f.data;
  const row = el("div", "bv-metrics");
  f.metrics = [
    metric(d.vocabLabel || "Vocabulary", "Tokens in the vocabulary at this step", "up"),
    metric(d.tokensLabel || "Corpus tokens",
      "The corpus cut into this step's tokens: how many tokens it takes", "down"),
  ];
  row.append(...f.metrics.map((m) => m.box));
  f.note = el("div", "bv-muted bv-numbers-note");
  f.root.replaceChildren(row, f.note);
}

function show(m, now, before) {
  m.value.textContent = now === null ? "–" : fmt(now);
  const text = before === null || now === null ? null : signedText(now - before);
  m.delta.textContent = text === null ? "" : (now > before ? "↑ " : now < before ? "↓ " : "")
    + text;
  const good = m.good === "up" ? now > before : now < before;
  m.delta.className = "bv-metric-delta bv-nums" + (text === null || now === before ? ""
    : good ? " bv-good" : " bv-bad");
}

export function drawNumbers(f, k) {
  const d = f.data;
  const vocab = Array.isArray(d.vocab) ? d.vocab : [];
  const tokens = Array.isArray(d.tokens) ? d.tokens : [];
  const n = Math.max(vocab.length, tokens.length) - 1;
  k = clamp(k, Math.max(n, 0), 0);
  const at = (list, i) => (i >= 0 && i < list.length ? whole(list[i], null) : null);
  show(f.metrics[0], at(vocab, k), k ? at(vocab, k - 1) : null);
  show(f.metrics[1], at(tokens, k), k ? at(tokens, k - 1) : null);
  f.note.textContent = `These numbers are for step ${k} of ${fmt(whole(d.n, n))}.`;
  f.root.dataset.step = String(k);
}
