// A view Python draws for one step (role "panel", such as "Why this merge?"): Python
// sends it for the steps around its own (data.views, keyed by step), each a tree of plain
// data (bpeviz.present.html_tree: strings, and [tag, {attr: value}, ...children] lists),
// and this builds the bar's step's with createElement and textContent, in the same redraw
// as the card. Nothing is parsed as HTML here; only the tags and attributes Python's tree
// lets through are made. At a step it holds none of, it says so (data.waiting, "{step}"
// filled in) rather than show another step's. When fewer than AHEAD steps past the bar's
// are held (Play, a run of keys), it asks Python for the steps around the bar's (trigger
// "want"): that reruns only this view's fragment, not the page, so nothing else is
// redrawn on the main thread Play needs (bpeviz.ui.stage.panel); out of view while Play
// runs it asks nothing (askAround).

import { el } from "./chips.mjs";
import { buildHeatmap, cellBeyond, fitsHeatmap, focusCell, isHeatmap, patchHeatmap } from "./heatmap_view.mjs";
import { debug, store } from "./store.mjs";

const TAG = /^[a-z][a-z0-9]*$/;
const AHEAD = 8; // ask for more when the views held end within this many steps ahead
const BEHIND = 2; // ... or this many behind (← keys)
const ASK_AGAIN_MS = 3000; // at one place, an ask is repeated at most this often
const MEASURE_CHUNK = 24; // views measured ahead in one task (measureHeld)
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
    } else if (node && typeof node === "object" && node.heatmap && typeof node.heatmap === "object") {
      out.push(buildHeatmap(node.heatmap)); // a view drawn from numbers
    }
  }
  return out;
}

// The panel keeps the tallest height it has had for one training: a step whose view is
// shorter (step 0's note, a merge with fewer rivals) would otherwise pull everything
// below it (the heatmap a person is watching) up, and the next step push it down again.
// Measured by a ResizeObserver, after layout, so a key's redraw never waits on it; and
// the views held for the steps around are measured ahead (measureHeld), so that the
// first key from step 0 finds room for step 1's view too.
export function buildPanel(f) {
  f.shown = null;
  if (f.tallest === undefined || f.tallestOf !== f.data.hist) {
    f.tallestOf = f.data.hist;
    f.tallest = 0;
    f.measured = new Set();
    f.root.style.minHeight = "";
  }
  if (!f.heightWatch && typeof ResizeObserver === "function") {
    f.heightWatch = new ResizeObserver((entries) => {
      grow(f, entries[entries.length - 1].contentRect.height);
    });
    f.heightWatch.observe(f.root);
  }
  if (!f.pickWatch) { // once per panel: its views come and go, the listener stays
    f.pickWatch = true;
    f.root.addEventListener("click", (e) => pick(f, e));
    f.root.addEventListener("keydown", (e) => pickByKey(f, e));
  }
  whenIdle(() => measureHeld(f));
}

// A click on an element of the view that names something to pick (data-pick: the
// heatmap's cell names its pair) tells Python what, and at which step it was shown
// (trigger "pick"): the view is the bar's step's, which Python may not have heard yet.
function pick(f, e) {
  const target = e.target && typeof e.target.closest === "function"
    ? e.target.closest("[data-pick]") : null;
  if (!target || typeof f.setTriggerValue !== "function") return;
  const step = Number(f.root.dataset.step);
  f.setTriggerValue("pick", { pick: target.getAttribute("data-pick"),
    step: Number.isFinite(step) ? step : null });
}

// Keys on a cell that names something to pick (the heatmap's): arrows move to the next
// cell holding a pair, Enter or Space picks it as a click does.
function pickByKey(f, e) {
  const cell = e.target && typeof e.target.closest === "function"
    ? e.target.closest("[data-pick]") : null;
  if (!cell) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    pick(f, e);
    return;
  }
  const next = cellBeyond(cell, e.key);
  if (e.key.startsWith("Arrow")) e.preventDefault(); // (not the page's scroll)
  if (next) focusCell(next);
}

// The height of the tallest view held that has not been measured yet for this training
// becomes the panel's least height. The views are built in a hidden box inside the panel
// (as wide as it, the page's styles applying), measured and taken out again in the same
// task: no frame is drawn with them and no other script (a test, an outside check
// counting data hooks) can see them. One layout for all of them.
export function measureHeld(f) {
  if (!f.root.isConnected || !f.measured) return;
  // a costly view (the heatmap's hundreds of cells a step), built for a whole window at
  // once, was a task of up to half a second that held keys and Play back: its room grows
  // as steps are drawn (the ResizeObserver) instead
  if (f.data.costly) return;
  const views = f.data.views && typeof f.data.views === "object" ? f.data.views : {};
  const unmeasured = Object.keys(views).filter((k) => Array.isArray(views[k]) && !f.measured.has(k));
  if (unmeasured.length === 0) return;
  // nearest the step shown first, a bounded number per task: a wide window (a cheap
  // view's hundred steps) built at once was a task long enough to hold a key's frame
  const at = f.shown ? f.shown.step : 0;
  unmeasured.sort((a, b) => Math.abs(a - at) - Math.abs(b - at) || a - b);
  const steps = unmeasured.slice(0, MEASURE_CHUNK);
  const probe = document.createElement("div");
  probe.setAttribute("aria-hidden", "true");
  Object.assign(probe.style, { position: "absolute", left: "0", right: "0", top: "0",
    visibility: "hidden", pointerEvents: "none" });
  const boxes = steps.map((k) => {
    const box = document.createElement("div");
    box.className = "bv-stage-panel"; // its margins held inside, as the panel holds them
    box.append(...buildTree(views[k]));
    return box;
  });
  probe.append(...boxes);
  f.root.append(probe);
  let tallest = 0;
  try {
    for (const box of boxes) tallest = Math.max(tallest, box.getBoundingClientRect().height);
  } finally {
    probe.remove();
  }
  for (const k of steps) f.measured.add(k);
  grow(f, tallest);
  if (unmeasured.length > steps.length) whenIdle(() => measureHeld(f));
}

export function drawPanel(f, k) {
  const d = f.data;
  const views = d.views && typeof d.views === "object" ? d.views : {};
  const view = Array.isArray(views[String(k)]) ? views[String(k)] : null;
  if (f.shown === null || f.shown.step !== k || f.shown.view !== view) {
    if (view !== null) {
      if (!patchView(f.root, view)) f.root.replaceChildren(...buildTree(view));
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

const heatmapOf = (node) => (node && typeof node === "object" && !Array.isArray(node)
  && node.heatmap && typeof node.heatmap === "object" ? node.heatmap : null);

// Draws view where root shows a view with its heatmap charts at the same places and of
// the same shapes: the charts are changed in place (patchHeatmap), the nodes around them
// (a caption) built anew. False, and nothing changed, where that is not so.
function patchView(root, view) {
  const shown = [...root.childNodes];
  if (shown.length !== view.length) return false;
  let charts = 0;
  for (let i = 0; i < view.length; i++) {
    const h = heatmapOf(view[i]);
    if (h === null ? isHeatmap(shown[i]) : !fitsHeatmap(shown[i], h)) return false;
    if (h !== null) charts += 1;
  }
  if (charts === 0) return false; // nothing worth keeping
  view.forEach((node, i) => {
    const h = heatmapOf(node);
    if (h !== null) patchHeatmap(shown[i], h);
    else shown[i].replaceWith(...buildTree([node]));
  });
  return true;
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

// fn once the page is idle, within IDLE_MS (at once where there is no idle callback: the
// tests' fake DOM): never on the path of a key or of Play's next step
const IDLE_MS = 500;
function whenIdle(fn) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(fn, { timeout: IDLE_MS });
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
  // Out of view while Play runs, it asks nothing: nobody sees it, and each answer is a
  // run the browser draws between Play's steps. It asks once drawn in view, and Python
  // sends the steps around the one it hears when Play stops.
  if (f.away && store().controls?.playing) return;
  const now = performance.now();
  if (f.asked && Math.abs(k - f.asked.step) < AHEAD / 2 && now - f.asked.at < ASK_AGAIN_MS) {
    return;
  }
  f.asked = { step: k, at: now };
  debug("want", k, Boolean(f.data.costly));
  f.setTriggerValue("want", k);
}
