// The words on screen (role "words"), each split into its tokens at the step: the words
// a merge just changed highlighted, the tokens it made outlined.

import { chip, el } from "./chips.mjs";
import { visibleText } from "./marks.mjs";
import { fmt, whole } from "./numbers.mjs";

export function drawWords(w, k) {
  const d = w.data;
  const maxChips = Math.max(whole(d.maxChips, 200), 0);
  const labels = d.labels || {};
  for (const row of w.rows) {
    const { nodes, cell, tr, badge } = row;
    const [tokens, steps, untils, parts] = nodes;
    // the row's tokens at k and which are new: a row drawn the same is left as it is
    // (most rows change at no given step, and a cell replaced is a table laid out again)
    const shown = [];
    let changed = false;
    for (let i = 0; i < tokens.length; i++) {
      if (steps[i] === k && k > 0) changed = true;
      if (steps[i] <= k && untils[i] > k) shown.push(i);
    }
    const drawnAs = shown.map((i) => (k > 0 && steps[i] === k ? `${i}*` : i)).join(",");
    if (row.drawnAs === drawnAs && row.drawnWith === d) continue;
    row.drawnAs = drawnAs;
    row.drawnWith = d;
    const chips = [];
    for (const i of shown.slice(0, maxChips)) {
      const part = parts[i] >= 0 && d.notes ? d.notes[parts[i]] : "";
      chips.push(chip(labels, tokens[i], d.strong, k > 0 && steps[i] === k, d.notes, part, d.marks));
    }
    if (shown.length > maxChips) chips.push(el("span", "bv-muted", ` … and ${fmt(shown.length - maxChips)} more`));
    cell.replaceChildren(...chips);
    tr.className = changed ? "bv-changed" : "";
    badge.hidden = !changed;
  }
}

// a row of data.words: [index, word, count, tokens, made at, merged at, parts]; a row
// that is not one is left out, a missing list is empty
export function buildWords(w) {
  const d = w.data;
  const list = (x) => (Array.isArray(x) ? x : []);
  w.rows = [];
  const table = el("table", "bv-words");
  const head = el("tr");
  head.append(el("th", "bv-num", "#"), el("th", null, "word"), el("th", "bv-num", "count"), el("th", null, "split"));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  const rows = [];
  for (const row of list(d.words)) {
    if (!Array.isArray(row)) continue;
    const [index, word, count, tokens, steps, untils, parts] = row;
    const tr = el("tr");
    const wordCell = el("td");
    wordCell.append(el("bdi", null, visibleText(String(word ?? ""), true, d.marks))); // isolated
    const badge = el("span", "bv-badge", "changed");
    wordCell.append(badge);
    const cell = el("td");
    tr.append(el("td", "bv-num", String(whole(index, 0) + 1)), wordCell, el("td", "bv-num", fmt(count)), cell);
    body.append(tr);
    rows.push({ nodes: [list(tokens), list(steps), list(untils), list(parts)], cell, tr, badge });
  }
  table.append(thead, body);
  w.rows = rows;
  w.root.replaceChildren(table);
}
