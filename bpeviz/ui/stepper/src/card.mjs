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
// data of another step, never point it past them); built aside, then put in place.
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
  if (k <= 0) {
    const now = el("div");
    now.append(el("b", null, "Step 0"), ": no merge yet; every word is split into its initial symbols.");
    card.append(now);
  } else {
    card.append(el("div", "bv-muted", `Merge ${k}`));
    const big = el("div", "bv-big");
    one(merges[k - 1], big);
    card.append(big);
  }
  const after = el("div", "bv-muted bv-next");
  after.style.marginTop = ".4em";
  if (k < merges.length) { after.append("Next: "); one(merges[k], after); }
  else after.textContent = "This is the last merge.";
  card.append(after);
  c.root.setAttribute("data-bpeviz-card", String(k));
  c.root.replaceChildren(card);
}
