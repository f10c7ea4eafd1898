// Compare (role "compare"): two or three configurations' cuts of a text at the bar's
// position, their differences marked (data-bpeviz-diff: a run's index).
// data.text; data.lo..data.n: the control's positions (merge steps, pruning rounds or
// vocabulary sizes); data.configs[i]: {label, letter, colour, unit, last, steps and sizes
// (linear runs: Python's compare_history.runs), history ({words, forms} as for "tokens"),
// labels {id: [label, hex]}, nbytes (sizes Python's rule reads)}; data.diffs: the
// differences where they change, made by the engine's rule in Python (compare_rule.mjs
// reads them).

import { colour, el } from "./chips.mjs";
import { cutMarks, marksAt } from "./compare_rule.mjs";
import { cutAt, runAt } from "./history.mjs";
import { hexNames, utf8Hex, visibleText } from "./marks.mjs";
import { fmt, whole } from "./numbers.mjs";
import { debug } from "./store.mjs";

const LETTERS = "ABC";

// the sentence over the cuts: how many boundaries differ, and each configuration's own
export function differencesCaption(n, cuts) {
  if (cuts.length < 2) return "One configuration: nothing to compare it with.";
  if (!n) return "No differences: every configuration cuts this text at the same places.";
  const own = cuts.map((c, i) => `${LETTERS[i]} ${i ? "at" : "cuts at"} ${fmt(c.own)}`).join(", ");
  return n === 1
    ? `1 token boundary differs: a place where some configurations cut the text and others do not (${own}).`
    : `${fmt(n)} token boundaries differ: places where some configurations cut the text and others do not (${own}).`;
}

// one chip, as Tokenize draws it (tokens.mjs; id on hover)
function cutChip(d, config, chars, cut, i) {
  const id = cut.ids[i], flag = cut.flags[i];
  const lab = (config.labels || {})[String(id)] || ["?", ""];
  const partial = (flag & 1) !== 0, unk = (flag & 2) !== 0;
  const piece = chars.slice(cut.starts[i], cut.ends[i]).join("");
  let shown = partial ? lab[0] : visibleText(piece, false, d.marks);
  if (!partial && !shown.trim()) shown = lab[0];
  const c = el("span", "bv-chip", shown);
  colour(c, id, d.strong);
  c.setAttribute("dir", "auto");
  c.dataset.id = String(id);
  if (partial) c.classList.add("bv-partial");
  if (unk) c.classList.add("bv-unk");
  // an unknown token stands for text the vocabulary lacks: its bytes are its own text's
  const bytes = unk ? utf8Hex(piece) : lab[1];
  // a partial token names the character it is part of, as Tokenize's chip does
  c.title = `id ${id} · ${lab[0]} · bytes ${bytes || "-"}`
    + (partial ? ` · part of the character “${piece}” (its bytes: ${utf8Hex(piece)})` : "")
    + (unk ? " · unknown" : "") + hexNames(bytes, d.marks);
  return c;
}

// one configuration's cut, its differing runs framed (data-bpeviz-diff: the run's index;
// data-start, data-end: its span, the engine's Cut.diff_spans); only those runs with d.only
function cutBox(d, config, index, ix, cut) {
  const chars = ix.chars;
  const text = (a, b) => chars.slice(a, b).join("");
  const box = el("div", "bv-tokens");
  box.dataset.config = LETTERS[index];
  box.setAttribute("style", `border-left:6px solid ${config.colour};padding-left:.6em`);
  const total = cut.tokens.ids.length, shownCount = Math.min(total, d.maxTokens || 3000);
  let pos = 0, run = -1, into = box;
  for (let i = 0; i < shownCount; i++) {
    const start = cut.tokens.starts[i], end = cut.tokens.ends[i];
    const gap = start > pos ? el("span", "bv-gap", text(pos, start)) : null;
    if (cut.differs[i] && into === box) { // a run starts: the gap before it stays outside
      run += 1;
      if (d.only) { if (run) box.append(el("span", "bv-muted", " … ")); } else if (gap) box.append(gap);
      const span = cut.diffSpans[run];
      into = el("span", "bv-diff");
      into.setAttribute("data-bpeviz-diff", String(run));
      into.dataset.start = String(span[0]);
      into.dataset.end = String(span[1]);
      into.title = "cut differently from another configuration";
      into.setAttribute("style", `outline:${d.strong ? 3 : 2}px dashed ${config.colour};`
        + "outline-offset:2px;border-radius:.35em;background:rgba(255,200,0,.28)");
      box.append(into);
    } else if ((into !== box || !d.only) && gap) into.append(gap);
    if (into !== box || !d.only) into.append(cutChip(d, config, chars, cut.tokens, i));
    pos = Math.max(pos, end);
    if (into !== box && (i + 1 === shownCount || !cut.differs[i + 1])) into = box;
  }
  if (!d.only && pos < chars.length && shownCount === total) box.append(el("span", "bv-gap", text(pos, chars.length)));
  if (d.only && run < 0) box.append(el("span", "bv-muted", "No differences: this configuration cuts the text as the others do."));
  if (total > shownCount) box.append(el("span", "bv-muted", ` … ${fmt(total - shownCount)} more tokens not drawn (the counts cover them all)`));
  return box;
}

function heading(d, config, index, position, step, size) {
  const line = el("div", "bv-muted bv-cmp-where");
  const letter = el("b", null, `${LETTERS[index]}: `);
  letter.style.color = config.colour;
  const unit = config.unit === "step" ? "step" : config.unit;
  let note = "";
  if (d.mode === "step" && position > config.last) {
    note = ` (made only ${fmt(config.last)}: shown at its last ${unit})`;
  } else if (d.mode === "vocab" && size !== position) {
    note = size > position ? ` (more than ${fmt(position)}: its smallest here)`
      : ` (none has exactly ${fmt(position)}: the closest below)`;
  }
  line.append(letter, `${unit} ${fmt(step)} of ${fmt(config.last)}, ${fmt(size)} tokens in the vocabulary${note}`);
  return line;
}

export function drawCompare(f, position) {
  const d = f.data, ix = f.ix;
  const configs = (Array.isArray(d.configs) ? d.configs : []).map((c) => c || {});
  const offset = position - whole(d.lo, 0);
  const marks = marksAt(f, offset);
  const cuts = configs.map((config, k) => {
    const step = runAt(config.steps, offset);
    const tokens = cutAt(config.history, step);
    return { step, size: runAt(config.sizes, step), tokens, ...cutMarks(marks, k, tokens) };
  });
  const n = marks.n;
  const count = el("div", "bv-cmp-count");
  count.append(el("b", null, differencesCaption(n, cuts)));
  count.dataset.differing = String(n);
  const parts = [count];
  cuts.forEach((cut, i) => {
    parts.push(heading(d, configs[i], i, position, cut.step, cut.size), cutBox(d, configs[i], i, ix, cut));
  });
  f.root.setAttribute("data-bpeviz-position", String(position));
  f.root.replaceChildren(...parts);
  debug("compare", position, n);
}
