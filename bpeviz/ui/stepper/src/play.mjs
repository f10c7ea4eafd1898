// Play: the step follows the clock at the bar's speed (steps a second) until the end.

import { drawControls } from "./bar_draw.mjs";
import { guardBar, setStep } from "./bar_step.mjs";
import { clamp } from "./numbers.mjs";
import { scheduleSync } from "./sync.mjs";

export function stopPlay(s) {
  clearTimeout(s.playTimer);
  s.playTimer = null;
  if (s.playing) {
    s.playing = false;
    drawControls(s);
    scheduleSync(s, 0);
  }
}

export function restartPlay(s) {
  clearTimeout(s.playTimer);
  const period = 1000 / Number(s.speed);
  s.playStart = performance.now();
  s.playFrom = s.step;
  const tick = guardBar(s, "play", () => {
    if (!s.playing || !s.root.isConnected) return;
    // the step follows the clock, so a slow frame never slows the rate down
    const due = s.playFrom + Math.floor((performance.now() - s.playStart) / period);
    const k = clamp(due, s.n, s.lo);
    if (k !== s.step) setStep(s, k);
    if (k >= s.n) { stopPlay(s); return; }
    const next = s.playStart + (k - s.playFrom + 1) * period;
    s.playTimer = setTimeout(tick, Math.max(0, next - performance.now()));
  });
  s.playTimer = setTimeout(tick, period);
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
