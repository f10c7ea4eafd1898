// A mark on views only Python can draw for a step (role "drawn": the Vocabulary page's
// table, merge tree and charts are Streamlit widgets), placed in their container (keyed
// "bv_drawn_...", so Streamlit classes it "st-key-bv_drawn_..."). Python hears the bar's
// step only when it settles; until its next run has drawn them for the bar's step, the
// views are dimmed and the mark says which step they show and which one follows, so no
// element passes for the bar's step while it shows another (during Play, all along).
// Drawn with the bar's step in the same redraw: it only sets a class and one line.

import { el } from "./chips.mjs";
import { whole } from "./numbers.mjs";

const DRAWN_VIEWS = '[class*="st-key-bv_drawn_"]';

export function buildDrawn(f) {
  f.views = f.root.closest(DRAWN_VIEWS);
  f.root.setAttribute("role", "status");
}

// k: the bar's step (within the views' range); data.step: the step Python drew them for
export function drawDrawn(f, k) {
  const shows = whole(f.data.step, k);
  const behind = shows !== k;
  const unit = typeof f.data.unit === "string" && f.data.unit ? f.data.unit : "step";
  if (behind) {
    f.root.replaceChildren(el("span", "bv-drawn-note",
      `These views show ${unit} ${shows}; ${unit} ${k} follows when the ${unit} settles.`));
  } else {
    f.root.replaceChildren();
  }
  f.root.classList.toggle("bv-drawn-behind", behind);
  if (!f.views) return;
  f.views.classList.toggle("bv-behind", behind);
  if (behind) f.views.setAttribute("data-bpeviz-follows", String(k));
  else f.views.removeAttribute("data-bpeviz-follows");
}
