// bpeviz stage component (Streamlit components v2): steps through the merges in the
// browser. The entry point: every mount and data update comes here, its role chosen by
// data.role:
//   "controls": ◀ slider ▶, the step number (data-bpeviz-step), Play, speed, keys (bar.mjs);
//   "card":     the merge card (left + right -> token, count) (card.mjs);
//   "words":    the split of each word on screen at the current step (words.mjs);
//   "numbers":  metrics at the step with their change, such as the vocabulary's size
//               (numbers_view.mjs);
//   "panel":    a view Python drew for the steps around its own, such as "Why this merge?"
//               (panel_view.mjs);
//   "tokens":   a text cut into the tokens of the current step (Tokenize, tokens.mjs);
//   "compare":  two or three configurations' cuts of a text at the control's position,
//               their differences marked (Compare, compare_view.mjs).
// The controls' range is data.lo..data.n (lo 0 unless said: Compare's vocabulary sizes).
// The instances share one store (store.mjs): the controls own the step, the others
// redraw when it changes. Python hears of the step on release / pause (debounced
// trigger "step"); the rest of the page follows after its rerun.
// Text that came from users (words, tokens) arrives only in `data` and is drawn with
// textContent, never parsed as HTML.
//
// The browser gets these modules as one script, joined by bpeviz.present.stage_script
// (bpeviz/ui/stage.py for the app, bpeviz/present/slides.py for the offline slides).

import { controls } from "./bar.mjs";
import { repair } from "./bar_step.mjs";
import { drawCard, expandCard, fitBox } from "./card.mjs";
import { chip, el } from "./chips.mjs";
import { buildCompare, cutMarks, marksAt } from "./compare_rule.mjs";
import { drawCompare } from "./compare_view.mjs";
import { cutAt, runAt, versionAt } from "./history.mjs";
import { keyAction, keyRows } from "./keys.mjs";
import { hexText, namesTitle, visibleText } from "./marks.mjs";
import { bounds, clamp, followStep, whole } from "./numbers.mjs";
import { buildNumbers, drawNumbers, signedText, valueText } from "./numbers_view.mjs";
import { buildHeatmap, patchHeatmap, shade } from "./heatmap_view.mjs";
import { buildPanel, drawPanel } from "./panel_view.mjs";
import { guard, report, store } from "./store.mjs";
import { cancelLate, paintInSight, watchSight } from "./sight.mjs";
import { settleDelay, settlesView, settlingOutOfView } from "./sync.mjs";
import { buildDrawn, drawDrawn } from "./drawn.mjs";
import { buildTokens, drawTokens } from "./tokens.mjs";
import { buildWords, drawWords } from "./words.mjs";

// A card, words, tokens or compare element: drawn at the bar's step when the bar is of
// its history (data.hist), clamped into its own range (data.lo..data.n); at its own step
// (data.step) until then. A redraw that fails is reported and the last drawing stays.
function follower(component, raw, { build = null, draw, expand = null, again = false,
  inSight = false }) {
  const root = component.parentElement;
  let f = root.__bvFollower;
  if (!f || !f.root.isConnected) {
    f = { root: el("div", "bv-stage-" + raw.role) };
    root.append(f.root);
    root.__bvFollower = f;
  }
  f.setTriggerValue = component.setTriggerValue;
  const st = store();
  if (f.listener) st.listeners.delete(f.listener);
  // A page rerun sends every element again with Python's step, the rest unchanged when
  // the step is all that moved: what build made (and what is drawn) then still holds,
  // so it is kept rather than built and drawn again on the rerun's busy main thread.
  const stamp = f.raw === raw ? f.stamp : viewStamp(raw);
  // (never after a draw that failed: a payload from Python is what repairs a view)
  const kept = f.data !== undefined && f.data === f.built && stamp !== undefined
    && stamp === f.stamp;
  const data = kept ? f.data : expand ? expand(raw) : raw;
  if (kept) data.step = raw.step;
  const before = f.data;
  f.data = data;
  f.built = data;
  f.raw = raw;
  f.stamp = stamp;
  if (build && !kept) {
    try {
      build(f);
    } catch (err) {
      f.data = before; // what is drawn stays, with the data it was drawn from
      f.built = undefined;
      throw err;
    }
  }
  const paint = (k) => {
    const built = f.built;
    f.drawn = f.built = undefined; // until the draw is done: a throw leaves nothing kept
    draw(f, k);
    f.built = built;
    f.drawn = k;
  };
  f.paint = guard(f, "redraw", paint);
  // (a follower that only marks something, inSight, draws in the key's frame anywhere)
  if (!inSight) watchSight(f);
  f.listener = guard(f, "redraw", (k) => {
    if (!f.root.isConnected) { st.listeners.delete(f.listener); return; }
    if (st.hist !== f.data.hist) return; // another bar's step (another training)
    paintInSight(f, followStep(f.data, k)); // out of view: in the frame after the key's
  });
  st.listeners.add(f.listener);
  // the controls may not have run yet (or this page has none): draw Python's step
  // (Compare's cuts carry no step: the bar, drawn just before them, holds it)
  const k = followStep(data, st.step !== null && st.hist === data.hist ? st.step : null);
  // (a view that asks Python for more, the panel, draws again: its draw is cheap when
  // nothing changed, and a window Python could not fill is asked for again in time)
  if (!kept || again || f.drawn !== k || f.late !== undefined) {
    cancelLate(f);
    paint(k);
  }
}

// What a follower's payload holds besides Python's step (its own "step", not one inside
// it): equal stamps, the same view.
function viewStamp(raw) {
  try {
    return JSON.stringify(raw, function (key, value) {
      return this === raw && key === "step" ? undefined : value;
    });
  } catch {
    return undefined; // not plain data: never taken for the same view
  }
}

// `component` is what Streamlit's components v2 hands over: {parentElement, data,
// setTriggerValue}. bpeviz's offline slides (bpeviz/present/slides.py) mount the same roles
// with a plain object of that shape through window.bpevizStage.
// Data may come as UTF-8 JSON bytes (Compare's cuts: made once in Python and sent again
// unchanged, so Streamlit's message cache resends only a reference); parsed once per
// payload.
const PARSED = new WeakMap();
export function payload(raw) {
  if (!raw) return {};
  const bytes = raw instanceof Uint8Array ? raw
    : raw instanceof ArrayBuffer ? new Uint8Array(raw)
    : ArrayBuffer.isView(raw) ? new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)
    : null;
  if (!bytes) return raw;
  let found = PARSED.get(raw);
  if (!found) {
    found = JSON.parse(new TextDecoder().decode(bytes));
    PARSED.set(raw, found);
  }
  return found;
}

// The entry point of every mount and data update; the script's errors stop here
// (reported, and the bar of this element shows a valid step again).
function mount(component) {
  try {
    const data = payload(component.data);
    if (!data || typeof data !== "object") return () => {};
    if (data.role === "controls") {
      controls(component, data);
    } else if (data.role === "card") {
      follower(component, data, { draw: drawCard, expand: expandCard });
    } else if (data.role === "numbers") {
      follower(component, data, { build: buildNumbers, draw: drawNumbers });
    } else if (data.role === "panel") {
      follower(component, data, { build: buildPanel, draw: drawPanel, again: true });
    } else if (data.role === "words") {
      follower(component, data, { build: buildWords, draw: drawWords });
    } else if (data.role === "tokens") {
      follower(component, data, { build: buildTokens, draw: drawTokens });
    } else if (data.role === "compare") {
      follower(component, data, { build: buildCompare, draw: drawCompare });
    } else if (data.role === "drawn") {
      follower(component, data, { build: buildDrawn, draw: drawDrawn, again: true, inSight: true });
    }
  } catch (err) {
    const host = component && component.parentElement;
    const bar = host && host.__bvStage;
    report(bar || { setTriggerValue: component && component.setTriggerValue }, "mount", err);
    if (bar && bar.slider) guard(bar, "mount (recovering)", () => repair(bar, "mount"))();
  }
  return () => {};
}

if (typeof window !== "undefined") window.bpevizStage = mount;
export default mount;

// what tests of the one script use (Python's tests read Compare's marks in Node; the unit
// tests' BPEVIZ_STEPPER runs them on a script of one piece)
export {
  bounds, buildCompare, buildHeatmap, chip, clamp, cutAt, cutMarks, expandCard, fitBox, followStep,
  hexText, keyAction, keyRows, marksAt, namesTitle, patchHeatmap, runAt, settleDelay, settlesView,
  settlingOutOfView, shade, signedText, valueText, versionAt, visibleText, whole,
};
