// Elements, and the chips that stand for tokens (coloured by their id, named on hover).
// Text from users is only ever set with textContent.

import { hexNames } from "./marks.mjs";

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A chip's colours come from its id by the .bv-chip rule of the page's CSS
// (bpeviz/present/render.py), the one rule Python's chips follow too.
export function colour(c, id, strong) {
  c.setAttribute("style", `--bv-id:${Number(id) || 0}`);
  if (strong) c.classList.add("bv-strong");
}

// labels[id] = [shown text, bytes in hex, index of its note in notes (when it has one)];
// part: the character a byte-level chip is part of, with its bytes ("" when whole);
// marks: data.marks, to name the marks it holds. Its direction is its own (dir=auto).
export function chip(labels, id, strong, isNew, notes, part, marks) {
  const lab = labels[id] || ["?", ""];
  const c = el("span", isNew ? "bv-chip bv-new" : "bv-chip", lab[0]);
  colour(c, id, strong);
  c.setAttribute("dir", "auto");
  c.dataset.id = String(id);
  const note = notes && lab.length > 2 ? notes[lab[2]] : "";
  c.title = `id ${id} · ${lab[0]} · bytes ${lab[1]}` + (part ? ` · ${part}` : "")
    + (note ? ` · ${note}` : "") + hexNames(lab[1], marks);
  return c;
}
