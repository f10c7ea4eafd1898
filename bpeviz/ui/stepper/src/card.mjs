// The merge card (role "card"): this step's merge, left + right -> token, and the next.

import { chip, el } from "./chips.mjs";
import { clamp, fmt } from "./numbers.mjs";
import { afterRedraw, store } from "./store.mjs";

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
// moves; what does not fit its box is drawn a little smaller, then its parts cut (fitBox).
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
  afterRedraw(() => fitCard(c));
}

// How a box's content is fitted into its fixed height, tried in order until it fits:
// [font size in em of the box's, what is clipped]. The merge is first drawn a little
// smaller; past 0.8 its parts give way (the merged token holds their text) and it is
// drawn smaller only while its chips stay at least FLOOR_REM (fitFloor): "parts" draws
// each part on one line, cut with an ellipsis, the two sharing a line; then the merged
// token is cut too ("token": after two lines; "line": the merge on one line), at the
// smallest size allowed (size 0). A cut chip's title still holds the whole token.
export const FIT_STEPS = [[1, ""], [0.9, ""], [0.8, ""], [0.8, "parts"], [0.7, "parts"],
  [0.6, "parts"], [0.5, "parts"], [0, "token"], [0, "line"]];
// the next merge's box is one line of smaller chips: never smaller still, its parts cut first
export const NEXT_STEPS = [[1, ""], [1, "parts"], [1, "line"]];
// the smallest a merge's chip is drawn, in rem: 18 px in normal mode, about 24 px in
// presentation mode (its root font is 21 px)
export const FLOOR_REM = 1.125;

// The smallest size (em of the box's) at which fit's chips stay FLOOR_REM: from the
// first chip's font at full size; 0.8 without a layout to measure (or with no chip).
export function fitFloor(fit) {
  const chip = fit.querySelector ? fit.querySelector(".bv-chip") : null;
  if (!chip || typeof getComputedStyle !== "function") return 0.8;
  const px = parseFloat(getComputedStyle(chip).fontSize);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  if (!(px > 0) || !(rem > 0)) return 0.8;
  return Math.min(1, (FLOOR_REM * rem) / px);
}

// Draws `fit` (the content of `box`) at the first of `steps` at which it does not
// overflow box's fixed height, no step drawn below `floor` (fitFloor: a smaller size is
// drawn at the floor); the last when none fits (the box then scrolls). Returns the step drawn, as
// [size, clip]. A box not laid out (hidden, or no layout at all) keeps its content whole
// at full size.
export function fitBox(box, fit, steps = FIT_STEPS, floor = null) {
  const apply = ([size, clip]) => {
    fit.style.fontSize = size === 1 ? "" : `${size}em`;
    if (clip) fit.setAttribute("data-clip", clip); else fit.removeAttribute("data-clip");
  };
  let chosen = steps[0];
  apply(chosen);
  if (!(box.scrollHeight > box.clientHeight + 1)) return chosen;
  const least = floor ?? fitFloor(fit);
  for (const [size, clip] of steps.slice(1)) {
    const step = [Math.max(size, Math.ceil(least * 100) / 100), clip];
    if (step[0] === chosen[0] && step[1] === chosen[1]) continue;
    chosen = step;
    apply(chosen);
    if (!(box.scrollHeight > box.clientHeight + 1)) break;
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
    if (fit && fit.classList.contains("bv-fit")) {
      fitBox(box, fit, box.classList.contains("bv-next") ? NEXT_STEPS : FIT_STEPS);
    }
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
