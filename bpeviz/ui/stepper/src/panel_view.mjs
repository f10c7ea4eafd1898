// A view Python draws for one step (role "panel", such as "Why this merge?"): Python
// sends its HTML for the steps around its own (data.html, keyed by step; user text is
// escaped by Python's renderers), and this shows the bar's step's in the same redraw as
// the card. At a step it holds none of, it says so (data.waiting, "{step}" filled in)
// rather than show another step's: the next Python run sends the steps around the new one.

import { el } from "./chips.mjs";

export function buildPanel(f) {
  f.shown = null;
}

export function drawPanel(f, k) {
  const d = f.data;
  const views = d.html && typeof d.html === "object" ? d.html : {};
  const view = views[String(k)];
  const key = typeof view === "string" ? view : null;
  if (f.shown !== null && f.shown.step === k && f.shown.view === key) return;
  if (key !== null) {
    f.root.innerHTML = key; // Python's renderers escaped every piece of user text
  } else {
    const waiting = typeof d.waiting === "string" && d.waiting ? d.waiting
      : "Step {step}: this view follows when the step settles.";
    f.root.replaceChildren(el("p", "bv-muted bv-note bv-panel-waiting",
      waiting.replaceAll("{step}", String(k))));
  }
  f.root.dataset.step = String(k);
  f.shown = { step: k, view: key };
}
