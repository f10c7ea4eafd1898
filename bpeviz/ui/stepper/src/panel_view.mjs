// A view Python draws for one step (role "panel", such as "Why this merge?"): Python
// sends it for the steps around its own (data.views, keyed by step), each a tree of plain
// data (bpeviz.present.html_tree: strings, and [tag, {attr: value}, ...children] lists),
// and this builds the bar's step's with createElement and textContent, in the same redraw
// as the card. Nothing is parsed as HTML here; only the tags and attributes Python's tree
// lets through are made. At a step it holds none of, it says so (data.waiting, "{step}"
// filled in) rather than show another step's. When fewer than AHEAD steps past the bar's
// are held (Play, a run of keys), it asks Python for the steps around the bar's (trigger
// "want"): that reruns only this view's fragment, not the page, so nothing else is
// redrawn on the main thread Play needs (bpeviz.ui.stage.panel).

import { el } from "./chips.mjs";

const TAG = /^[a-z][a-z0-9]*$/;
const AHEAD = 8; // ask for more when the views held end within this many steps ahead
const BEHIND = 2; // ... or this many behind (← keys)
const ASK_AGAIN_MS = 3000; // at one place, an ask is repeated at most this often
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

// The panel keeps the tallest height it has had for one training: a step whose view is
// shorter (step 0's note, a merge with fewer rivals) would otherwise pull everything
// below it (the heatmap a person is watching) up, and the next step push it down again.
// Measured by a ResizeObserver, after layout, so a key's redraw never waits on it.
export function buildPanel(f) {
  f.shown = null;
  if (f.tallest === undefined || f.tallestOf !== f.data.hist) {
    f.tallestOf = f.data.hist;
    f.tallest = 0;
    f.root.style.minHeight = "";
  }
  if (!f.heightWatch && typeof ResizeObserver === "function") {
    f.heightWatch = new ResizeObserver((entries) => {
      grow(f, entries[entries.length - 1].contentRect.height);
    });
    f.heightWatch.observe(f.root);
  }
}

export function drawPanel(f, k) {
  const d = f.data;
  const views = d.views && typeof d.views === "object" ? d.views : {};
  const view = Array.isArray(views[String(k)]) ? views[String(k)] : null;
  if (f.shown === null || f.shown.step !== k || f.shown.view !== view) {
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
  askAround(f, k, views);
}

// The panel's height is at least ``height`` from now on (for this training). Set in the
// next frame, not in the observer's callback: a size changed there, on the panel or an
// element around it, would be a resize loop, which the browser reports as an error.
function grow(f, height) {
  const h = Math.ceil(height);
  if (h <= f.tallest) return;
  f.tallest = h;
  later(() => { if (f.tallest === h) f.root.style.minHeight = `${h}px`; });
}

// fn in the next frame (at once where there are no frames: the tests' fake DOM)
function later(fn) {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(fn);
  else fn();
}

// Ask again only once the bar has moved on by half of AHEAD from the step last asked
// for, or after ASK_AGAIN_MS: a window Python could not fill (its time budget, a step it
// draws no view of) never turns into a loop of asks; never where there is no Python to
// ask (the offline slides hold every step).
function askAround(f, k, views) {
  if (typeof f.setTriggerValue !== "function") return;
  const n = Number(f.data.n), lo = Math.max(0, k - BEHIND);
  const hi = Number.isFinite(n) ? Math.min(n, k + AHEAD) : k + AHEAD;
  let missing = false;
  for (let j = lo; j <= hi && !missing; j++) missing = !Array.isArray(views[String(j)]);
  if (!missing) return;
  const now = performance.now();
  if (f.asked && Math.abs(k - f.asked.step) < AHEAD / 2 && now - f.asked.at < ASK_AGAIN_MS) {
    return;
  }
  f.asked = { step: k, at: now };
  f.setTriggerValue("want", k);
}
