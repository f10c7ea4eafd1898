// Play: the step follows the clock at the bar's speed (steps a second) until the end.

import { drawControls } from "./bar_draw.mjs";
import { guardBar, setStep, stopTicking } from "./bar_step.mjs";
import { clamp } from "./numbers.mjs";
import { scheduleSync } from "./sync.mjs";

export function stopPlay(s) {
  stopTicking(s);
  if (s.playing) {
    s.playing = false;
    drawControls(s);
    scheduleSync(s, 0);
  }
}

// Play from the bar's step, its clock started now; or, with `clock` ({speed, start, from}
// of a bar that was playing a moment ago: a rerun re-created the bar), on that bar's
// clock at the same speed: restarted, the next step came a whole interval after the
// remount, up to twice the interval after the step before (a gap of 1.6-2x at 4 and 10
// steps/s while Python reran the page beside Play).
export function restartPlay(s, clock = null) {
  stopTicking(s);
  const period = 1000 / Number(s.speed);
  const keep = clock !== null && clock.speed === s.speed && Number.isFinite(clock.start)
    && Number.isFinite(clock.from) && clock.from <= s.step;
  s.playStart = keep ? clock.start : performance.now();
  s.playFrom = keep ? clock.from : s.step;
  const due = () => s.playStart + (s.step - s.playFrom + 1) * period;
  // the step follows the clock, so a slow frame never slows the rate down
  const advance = () => {
    const k = clamp(s.playFrom + Math.floor((performance.now() - s.playStart) / period), s.n, s.lo);
    if (k !== s.step) setStep(s, k);
    if (k >= s.n) { stopPlay(s); return false; }
    return true;
  };
  // In a browser the clock is read in every frame: a frame callback runs ahead of the
  // frame, before the tasks queued meanwhile (a Python rerun's messages drawn by
  // Streamlit), where a timer due at the step's time waited behind them (gaps of 1.6-1.8x
  // the interval at 4 steps/s with reruns beside Play). The step drawn in that frame is
  // on screen in it. Where there are no frames (the tests' fake DOM), a timer at each
  // step's time.
  if (typeof requestAnimationFrame === "function") {
    const frame = guardBar(s, "play", () => {
      s.playFrame = null;
      if (!s.playing || !s.root.isConnected) return;
      if (performance.now() >= due() && !advance()) return;
      s.playFrame = requestAnimationFrame(frame);
    });
    s.playFrame = requestAnimationFrame(frame);
    return;
  }
  const wait = () => { s.playTimer = setTimeout(tick, Math.max(0, due() - performance.now())); };
  const tick = guardBar(s, "play", () => {
    if (s.playing && s.root.isConnected && advance()) wait();
  });
  wait();
}

export function togglePlay(s) {
  if (s.playing) { stopPlay(s); return; }
  if (s.n <= s.lo) return;
  clearTimeout(s.syncTimer);
  if (s.step >= s.n) setStep(s, s.lo);
  s.playing = true;
  drawControls(s);
  restartPlay(s);
}
