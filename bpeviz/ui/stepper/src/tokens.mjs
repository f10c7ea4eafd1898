// A text cut into the tokens of the step (role "tokens", Tokenize): the tokens a merge
// just made outlined. data.text: the text; data.words: [offset, form] per word (offsets in
// code points); data.forms[form]: [[step, ids, starts, ends, flags], ...] (flags 1
// partial, 2 unknown).

import { colour, el } from "./chips.mjs";
import { versionAt } from "./history.mjs";
import { hexNames, utf8Hex, visibleText } from "./marks.mjs";
import { fmt, whole } from "./numbers.mjs";

export function buildTokens(t) {
  t.chars = Array.from(typeof t.data.text === "string" ? t.data.text : "");
}

export function drawTokens(t, k) {
  const d = t.data;
  const chars = t.chars;
  const show = (a, b) => {
    const s = chars.slice(a, b).join("");
    return visibleText(s, !!d.showWs, d.marks);
  };
  const labels = d.labels || {}, forms = d.forms || [];
  const maxTokens = whole(d.maxTokens, 3000);
  const box = el("div", "bv-tokens");
  let pos = 0, count = 0, rest = 0;
  for (const word of Array.isArray(d.words) ? d.words : []) {
    if (!Array.isArray(word)) continue;
    const offset = whole(word[0], 0);
    const [v, before] = versionAt(forms[word[1]], k);
    if (!v) continue;
    const [vstep, ids, starts, ends, flags] = v;
    const fresh = vstep === k && k > 0;
    const old = new Set();
    if (fresh && before) before[1].forEach((id, j) => old.add(`${id}:${before[2][j]}:${before[3][j]}`));
    for (let j = 0; j < ids.length; j++) {
      if (count >= maxTokens) { rest += 1; continue; }
      const start = offset + starts[j], end = offset + ends[j];
      if (start > pos) box.append(el("span", "bv-gap", show(pos, start)));
      const id = ids[j];
      const lab = labels[id] || [d.unkText, ""];
      const partial = (flags[j] & 1) !== 0, unk = (flags[j] & 2) !== 0;
      let shown = partial ? lab[0] : show(start, end);
      if (!partial && !shown.trim()) shown = lab[0];
      const c = el("span", "bv-chip", shown);
      colour(c, id, d.strong);
      c.setAttribute("dir", "auto");
      c.dataset.id = String(id);
      if (partial) c.classList.add("bv-partial");
      if (unk) c.classList.add("bv-unk");
      if (fresh && !old.has(`${id}:${starts[j]}:${ends[j]}`)) c.classList.add("bv-new");
      const piece = chars.slice(start, end).join("");
      const mark = d.notes && lab.length > 2 ? d.notes[lab[2]] : "";  // what its marks mean
      // an unknown token stands for text the vocabulary lacks: its bytes are its own text's
      // (the label's are those of "[UNK]"), as on Compare
      const bytes = unk ? utf8Hex(piece) : lab[1];
      c.title = `id ${id} · ${lab[0]} · bytes ${bytes || "-"}`
        + (partial ? ` · part of the character “${piece}” (its bytes: ${utf8Hex(piece)})` : "")
        + (unk ? " · unknown" : "") + (mark ? ` · ${mark}` : "")
        + hexNames(bytes, d.marks);
      box.append(c);
      count += 1;
      pos = Math.max(pos, end);
    }
  }
  if (!rest && pos < chars.length) box.append(el("span", "bv-gap", show(pos, chars.length)));
  if (rest) box.append(el("span", "bv-muted", ` … ${fmt(rest)} more tokens not drawn (the counts and ids cover them all)`));
  const note = el("div", "bv-muted bv-stage-count",
    `${fmt(count + rest)} tokens at step ${fmt(k)}`);
  t.root.replaceChildren(box, note);
}
