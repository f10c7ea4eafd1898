// The step bar (role "controls"): its mount and data updates, what its buttons, slider
// and the page-wide keys do. The bar owns the step; Python hears it (sync.mjs), the
// followers redraw for it (store.mjs). A bar a rerun re-created hands its step (and
// Play) on to the new one.

import { boxKey, boxSelector, buildBar, drawControls, drawLandmarks, drawSpeed, drawUnitWords, SPEEDS } from "./bar_draw.mjs";
import { guardBar, live, newer, setStep, stopTicking } from "./bar_step.mjs";
import { el } from "./chips.mjs";
import { keyAction, RANGE_KEYS, typingIn } from "./keys.mjs";
import { bounds, clamp, whole } from "./numbers.mjs";
import { restartPlay, stopPlay, togglePlay } from "./play.mjs";
import { debug, store } from "./store.mjs";
import { move, onAtStepClick, onScroll, releaseClick, scheduleSync, scriptRunning } from "./sync.mjs";

const REMOUNT_GRACE_MS = 2000; // a removed bar keeps the keys this long after its last draw

// the bar's elements, and what a click or a drag on them does (to the bar that owns the
// step: live())
function buildControls(root, s) {
  buildBar(root, s);
  for (const [v, b] of Object.entries(s.speedButtons)) {
    b.addEventListener("click", guardBar(s, "speed", () => {
      const t = live(s);
      t.speed = v; drawSpeed(t); if (t.playing) restartPlay(t);
    }));
  }
  s.prev.addEventListener("click", guardBar(s, "click", () => { const t = live(s); move(t, t.step - 1); }));
  s.next.addEventListener("click", guardBar(s, "click", () => { const t = live(s); move(t, t.step + 1); }));
  s.slider.addEventListener("input", guardBar(s, "slider", () => {
    const t = live(s);
    t.dragging = true; setStep(t, Number(s.slider.value));
  }));
  s.slider.addEventListener("change", guardBar(s, "slider", () => {
    const t = live(s);
    t.dragging = false; setStep(t, Number(s.slider.value)); scheduleSync(t, 0);
  }));
  s.slider.addEventListener("keydown", (e) => {
    // the page-wide handler does the stepping; keep the range input from doing it twice
    if (RANGE_KEYS.includes(e.key)) e.preventDefault();
  });
  s.play.addEventListener("click", guardBar(s, "click", () => togglePlay(live(s))));
  s.help.addEventListener("click", guardBar(s, "click", () => { s.keys.hidden = !s.keys.hidden; }));
}

// The "Go to step" box taking the focus: a step the bar has not reported yet is held
// back while someone types, so that the step typed (Python's, once Enter is pressed) is
// where the bar goes, not overridden by the bar's report arriving after it; leaving the
// box without a new step sends the bar's then.
function onBoxFocus(s, e) {
  if (!s.root.isConnected) {
    if (store().controls !== s) release(s);
    return;
  }
  const inBox = s.box && e.target && typeof e.target.closest === "function"
    && e.target.closest(boxSelector(s));
  if (!inBox) return;
  if (e.type === "focusin") {
    if (s.pending) {
      clearTimeout(s.syncTimer);
      s.pending = false;
      s.heldForBox = true;
      debug("held-for-box", s.step);
    }
  } else if (s.heldForBox) {
    // left with Enter, the box starts a run that brings the step typed: the bar's own
    // is sent only if, once no run is under way, Python still has another
    s.heldForBox = false;
    const resume = guardBar(s, "box", () => {
      if (s.heldForBox || s.pending || s.playing || !s.root.isConnected) return;
      if (scriptRunning()) { s.boxTimer = setTimeout(resume, BOX_WAIT_MS); return; }
      if (s.step !== s.pyStep) scheduleSync(s, 0);
    });
    clearTimeout(s.boxTimer);
    s.boxTimer = setTimeout(resume, BOX_LEFT_MS);
  }
}
const BOX_LEFT_MS = 1000; // after leaving the box, before the bar's step is sent
const BOX_WAIT_MS = 250; // ... and again while a run is under way

// the page's keys, scroll and focus are no longer this bar's (a newer one has them)
function release(s) {
  document.removeEventListener("keydown", s.keyHandler, true);
  document.removeEventListener("scroll", s.scrollHandler, true);
  document.removeEventListener("focusin", s.focusHandler, true);
  document.removeEventListener("focusout", s.focusHandler, true);
  document.removeEventListener("click", s.clickHandler, true);
}

// A key anywhere on the page (keys.json: what each one does)
function onKey(s, e) {
  // A bar a rerun has taken out of the page: once its successor is mounted it is done.
  // While the run is under way, or just after it (a slow browser mounts the new bar a
  // moment later, and the script's state can say "done" first), it still takes the
  // arrow keys, and the new bar carries its step (controls(): "moved"); a key pressed in
  // that moment would otherwise be lost (seen with concurrent sessions on slow CPUs).
  const gone = !s.root.isConnected;
  if (window.__bvDebug && e.key && e.key.length > 1) {
    debug("key", e.key, s.step, gone, store().controls === s, scriptRunning(),
      (e.target && e.target.tagName) || "");
  }
  if (gone && (store().controls !== s
                || (!scriptRunning() && performance.now() - s.drawnAt > REMOUNT_GRACE_MS))) {
    // replaced, or no run is under way that could mount a successor and none was drawn
    // a moment ago (another page): the keys are the page's again
    release(s);
    return;
  }
  // Two bars on the page at once: a rerun mounted the new one while the old one still
  // stands (Streamlit keeps an element of the last run until this run ends). The new one
  // owns the keys. The old one's listener came first, and since it took the key (its
  // preventDefault makes the new one skip it), the new bar's step would stay behind and
  // the press be lost when the old one went.
  if (!gone && newer(s)) return;
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (typingIn(e.target)) return;
  const inside = e.target && e.target.closest && e.target.closest(".bv-stage");
  const action = keyAction(e.key, e.shiftKey, s.step, s.lo, s.n);
  if (!action) return;
  if (action.act === "play") {
    if (gone) return;
    const tag = ((e.target && e.target.tagName) || "").toLowerCase();
    if (!inside && (tag === "button" || tag === "a")) return; // that control's own key
    e.preventDefault();
    if (!e.repeat) togglePlay(s);
    return;
  }
  if (action.act === "keys") {
    if (gone) return;
    s.keys.hidden = !s.keys.hidden;
    e.preventDefault();
    return;
  }
  if (action.act === "close") {
    if (!s.keys.hidden) s.keys.hidden = true;
    return;
  }
  e.preventDefault();
  if (gone) {
    s.step = action.to;
    s.moved = true;
    debug("key-while-remounting", s.step);
    return;
  }
  if (s.playing) stopPlay(s);
  move(s, action.to);
}

// A mount or a data update of the bar. Whatever came is checked: the range, the step
// (clamped into it), the sequence number; a step carried over is clamped too.
export function controls(component, data) {
  const root = component.parentElement;
  let s = root.__bvStage;
  const fresh = !s || !s.root.isConnected;
  const [lo, n] = bounds(data);
  const seq = Math.max(whole(data.seq, 0), 0);
  if (fresh) {
    s = { root: el("div", "bv-stage"), step: lo, n, lo, speed: "1", playing: false,
          dragging: false, pending: false, seq, pyStep: null, pySeq: 0,
          pySpeed: null, hist: null };
    root.append(s.root);
    root.__bvStage = s;
    buildControls(s.root, s);
    s.keyHandler = guardBar(s, "key", (e) => onKey(s, e));
    document.addEventListener("keydown", s.keyHandler, true);
    // scroll events do not bubble: caught on the way down, from whatever scrolls the page
    s.scrollHandler = guardBar(s, "scroll", () => {
      if (s.root.isConnected) onScroll(s);
      else if (store().controls !== s) release(s);
    });
    document.addEventListener("scroll", s.scrollHandler, { capture: true, passive: true });
    s.focusHandler = guardBar(s, "box", (e) => onBoxFocus(s, e));
    document.addEventListener("focusin", s.focusHandler, true);
    document.addEventListener("focusout", s.focusHandler, true);
    s.clickHandler = guardBar(s, "click", (e) => {
      if (store().controls === s) onAtStepClick(s, e);
    });
    document.addEventListener("click", s.clickHandler, true);
  }
  s.setTriggerValue = component.setTriggerValue || (() => {});
  s.standalone = Boolean(data.standalone);
  s.box = boxKey(data.box);
  const py = clamp(whole(data.step, lo), n, lo);
  const newHistory = s.hist !== data.hist;
  s.n = n;
  s.lo = lo;
  s.hist = data.hist;
  drawUnitWords(s, data);
  drawLandmarks(s, data);
  s.pyStep = py;
  s.pySeq = seq;
  s.pySpeed = data.speed;
  if (fresh) s.speed = SPEEDS.includes(data.speed) ? data.speed : "1";
  drawSpeed(s);
  // A fresh mount (a rerun re-created the bar) keeps the step of the bar it replaces when
  // Python had not heard it yet, instead of going back to Python's older step.
  const before = store().controls;
  // (The bar it replaces may still stand: Streamlit removes an element of the last run
  // when this run ends, so the new one can mount first.)
  // A bar playing a moment ago plays on in the new one.
  const replaced = fresh && before && before !== s && before.hist === data.hist;
  const wasPlaying = replaced && before.playing
    && (before.root.isConnected || performance.now() - before.drawnAt < REMOUNT_GRACE_MS);
  const carried = replaced
    && (before.pending || before.moved || before.pySeq < before.seq || wasPlaying)
    && seq <= before.seq;
  store().controls = s;
  if (replaced) { // the old bar, if it still stands, does nothing more by itself
    clearTimeout(before.syncTimer);
    clearTimeout(before.resendTimer);
    stopTicking(before);
    before.playing = false;
  }
  if (carried) {
    s.seq = before.seq;
    s.speed = before.speed;
    drawSpeed(s);
    debug("carried", before.step, before.seq, wasPlaying);
    setStep(s, before.step);
    if (wasPlaying) {
      s.playing = true;
      drawControls(s);
      restartPlay(s, { speed: before.speed, start: before.playStart, from: before.playFrom });
    } else {
      scheduleSync(s, 0);
    }
    return;
  }
  const caughtUp = s.pySeq >= s.seq && !s.pending && !s.playing && !s.dragging;
  debug("render", py, s.pySeq, s.step, s.seq, fresh, newHistory, caughtUp, s.pending,
    data.sid || "");
  s.resendDelay = 0; // Python answered: the next report waits RESEND_MS again
  if (fresh || newHistory || caughtUp) {
    clearTimeout(s.syncTimer);
    s.pending = false;
    s.seq = Math.max(s.seq, s.pySeq);
    setStep(s, py);
    if (caughtUp) releaseClick();
  } else {
    setStep(s, s.step);
  }
}
