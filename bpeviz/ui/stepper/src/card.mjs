// The merge card (role "card"): this step's merge, left + right -> token, and the next.

import { chip, el } from "./chips.mjs";
import { clamp, fmt } from "./numbers.mjs";
import { store } from "./store.mjs";

// The card's data comes compact (Python's stage_merges): columns of ids, and labels
// only where a merged token's label is not left + right. Rebuilt here once per history,
// as Python's expand_stage_merges does.
export function expandCard(data) {
  if (!data.mergeCols) return data;
  const st = store();
  if (st.cardHist === data.hist && st.cardCols === data.mergeCols) return { ...data, ...st.card };
  const cols = data.mergeCols;
  const given = data.labels || {};
  const labels = Array.isArray(given.base) ? given.base.slice() : [];
  for (const [i, row] of Object.entries(given.extra || {})) labels[Number(i)] = row;
  const column = (name) => (Array.isArray(cols[name]) ? cols[name] : []);
  const left = column("left"), right = column("right"), token = column("token");
  const merges = new Array(Math.min(left.length, right.length, token.length));
  for (let k = 0; k < merges.length; k++) {
    const l = left[k], r = right[k], t = token[k];
    merges[k] = [l, r, t, cols.text ? cols.text[k] : `count ${fmt(column("count")[k])}`];
    if (labels[t] === undefined) {
      const a = labels[l] || ["?", ""], b = labels[r] || ["?", ""];
      labels[t] = [a[0] + b[0], `${a[1]} ${b[1]}`.trim()];
    }
  }
  const noteOf = Array.isArray(data.noteOf) ? data.noteOf : [];
  for (let i = 0; i < noteOf.length; i++) {
    if (noteOf[i] >= 0 && labels[i]) labels[i] = [labels[i][0], labels[i][1], noteOf[i]];
  }
  st.cardHist = data.hist;
  st.cardCols = data.mergeCols;
  st.card = { merges, labels };
  return { ...data, merges, labels };
}

// The card at step k, clamped into the merges it holds (a bar of a longer training, or
// data of another step, never point it past them); built aside, then put in place. Every
// step, step 0 too, draws the same three parts: a heading, the merge's box and the next
// merge's box. The boxes keep their height (stepper.css), so nothing below the card
// moves; what does not fit its box is drawn smaller (fitBox).
export function drawCard(c, k) {
  const d = c.data;
  const merges = Array.isArray(d.merges) ? d.merges : [];
  const labels = d.labels || [];
  k = clamp(k, merges.length, 0);
  const card = el("div", "bv-card");
  const one = (m, box) => {
    if (!Array.isArray(m)) { box.append(el("span", "bv-muted", "(not in the data)")); return; }
    box.append(chip(labels, m[0], d.strong, false, d.notes, "", d.marks), " + ",
      chip(labels, m[1], d.strong, false, d.notes, "", d.marks),
      el("span", "bv-arrow", "→"), chip(labels, m[2], d.strong, true, d.notes, "", d.marks),
      " ", el("span", "bv-muted bv-nums", `${m[3] ?? ""} · id ${m[2]}`));
  };
  const big = el("div", "bv-big"), now = el("div", "bv-fit");
  if (k <= 0) {
    now.append(el("span", "bv-nums bv-none",
      "No merge yet: every word is split into its initial symbols."));
  } else one(merges[k - 1], now);
  big.append(now);
  const after = el("div", "bv-muted bv-next"), next = el("div", "bv-fit");
  if (k < merges.length) { next.append("Next: "); one(merges[k], next); }
  else next.append("This is the last merge.");
  after.append(next);
  card.append(el("div", "bv-muted bv-head", k <= 0 ? "Step 0" : `Merge ${k}`), big, after);
  c.root.setAttribute("data-bpeviz-card", String(k));
  c.root.replaceChildren(card);
  fitCard(c);
}

// the font sizes a box's content is tried at, largest first (the smallest is still about
// 1rem in presentation mode's merge box)
export const FIT_SIZES = [1, 0.85, 0.72, 0.61, 0.52, 0.44, 0.37];

// Draws `fit` (the content of `box`) at the largest of FIT_SIZES at which it does not
// overflow box's fixed height; returns that size. A box not laid out (hidden, or no
// layout at all) keeps its content at full size.
export function fitBox(box, fit) {
  fit.style.fontSize = "";
  let chosen = 1;
  for (const size of FIT_SIZES.slice(1)) {
    if (!(box.scrollHeight > box.clientHeight + 1)) break;
    chosen = size;
    fit.style.fontSize = `${size}em`;
  }
  return chosen;
}

// Fits both boxes of c's card, now and whenever the card's width changes (a sidebar
// folded, a window resized): the height stays, so the fit may change.
function fitCard(c) {
  const card = c.root.children[0];
  if (!card) return;
  for (const box of card.children) {
    const fit = box.children && box.children[0];
    if (fit && fit.className === "bv-fit") fitBox(box, fit);
  }
  if (!c.fitWatch && typeof ResizeObserver === "function") {
    let width = null;
    c.fitWatch = new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w !== width) { width = w; fitCard(c); }
    });
    c.fitWatch.observe(c.root);
  }
}
