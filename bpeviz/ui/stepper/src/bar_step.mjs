// The step of a bar (its state `s`): set, drawn and shared with the followers
// (setStep); the bar a click acts on when a rerun left two standing (live, newer); a bar
// put back in a valid state after an error of its own (guardBar, repair).

import { drawControls } from "./bar_draw.mjs";
import { bounds, clamp } from "./numbers.mjs";
import { guard, notify, store } from "./store.mjs";

// a bar's entry point: after an error the bar (and the one it acts on, live()) shows a
// valid step again
export function guardBar(s, where, fn) {
  return guard(s, where, fn, () => {
    repair(s, where);
    const t = live(s);
    if (t !== s) repair(t, where);
  });
}

// Play's next tick, whichever way it waits (a frame callback or a timer), called off.
export function stopTicking(s) {
  clearTimeout(s.playTimer);
  s.playTimer = null;
  if (s.playFrame && typeof cancelAnimationFrame === "function") {
    cancelAnimationFrame(s.playFrame);
  }
  s.playFrame = null;
}

export function repair(s, where) {
  [s.lo, s.n] = bounds(s);
  s.step = clamp(s.step, s.n, s.lo);
  if (where === "play") {
    stopTicking(s);
    s.playing = false;
  }
  const st = store();
  if (st.controls === s) { st.step = s.step; st.n = s.n; st.lo = s.lo; st.hist = s.hist; }
  if (s.slider) drawControls(s);
}

// the store's step is always one bar's (st.hist names its history: the followers of
// another one leave it alone)
export function setStep(s, k) {
  k = clamp(k, s.n, s.lo);
  s.step = k;
  const st = store();
  st.step = k;
  st.n = s.n;
  st.lo = s.lo;
  st.hist = s.hist;
  drawControls(s);
  notify(st);
}

// The bar a click or a drag on ``s`` acts on: ``s`` itself, or the bar a rerun mounted
// while ``s`` still stands (Streamlit keeps an element of the last run until this run
// ends). The newest bar owns the step; a click on the old one, which the page still
// shows, would move only the old one and be lost when it went.
export function live(s) {
  const owner = newer(s);
  return owner && owner.hist === s.hist ? owner : s;
}

// The bar that owns the step when it is not ``s``: the newest one, on the page (or null).
export function newer(s) {
  const owner = store().controls;
  return owner && owner !== s && owner.root.isConnected ? owner : null;
}
