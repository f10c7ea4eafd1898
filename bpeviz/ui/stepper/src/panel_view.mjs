// A view Python draws for one step (role "panel", such as "Why this merge?"): Python
// sends it for the steps around its own (data.views, keyed by step), each a tree of plain
// data (bpeviz.present.html_tree: strings, and [tag, {attr: value}, ...children] lists),
// and this builds the bar's step's with createElement and textContent, in the same redraw
// as the card. Nothing is parsed as HTML here; only the tags and attributes Python's tree
// lets through are made. At a step it holds none of, it says so (data.waiting, "{step}"
// filled in) rather than show another step's: the next Python run sends the steps
// around the new one.

import { el } from "./chips.mjs";

const TAG = /^[a-z][a-z0-9]*$/;
const ATTRIBUTE = /^(class|title|dir|style|colspan|rowspan|open|lang|data-[a-z0-9-]+)$/;

// the DOM nodes of a tree's nodes (anything else than a string or a well-formed element
// is left out)
export function buildTree(nodes) {
  const out = [];
  for (const node of Array.isArray(nodes) ? nodes : []) {
    if (typeof node === "string") {
      out.push(node);
    } else if (Array.isArray(node) && typeof node[0] === "string" && TAG.test(node[0])) {
      const e = document.createElement(node[0]);
      const attrs = node[1] && typeof node[1] === "object" ? node[1] : {};
      for (const [name, value] of Object.entries(attrs)) {
        if (ATTRIBUTE.test(name)) e.setAttribute(name, String(value));
      }
      if (node[0] === "style") {
        e.textContent = node.slice(2).filter((n) => typeof n === "string").join("");
      } else {
        e.append(...buildTree(node.slice(2)));
      }
      out.push(e);
    }
  }
  return out;
}

export function buildPanel(f) {
  f.shown = null;
}

export function drawPanel(f, k) {
  const d = f.data;
  const views = d.views && typeof d.views === "object" ? d.views : {};
  const view = Array.isArray(views[String(k)]) ? views[String(k)] : null;
  if (f.shown !== null && f.shown.step === k && f.shown.view === view) return;
  if (view !== null) {
    f.root.replaceChildren(...buildTree(view));
  } else {
    const waiting = typeof d.waiting === "string" && d.waiting ? d.waiting
      : "Step {step}: this view follows when the step settles.";
    f.root.replaceChildren(el("p", "bv-muted bv-note bv-panel-waiting",
      waiting.replaceAll("{step}", String(k))));
  }
  f.root.dataset.step = String(k);
  f.shown = { step: k, view };
}
