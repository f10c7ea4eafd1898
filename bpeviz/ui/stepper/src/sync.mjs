// Python hears the bar's step: after a move (debounced), on pause, and again when a
// report went unanswered (resend). Never while Play runs: every rerun is drawn on the
// browser's main thread, and its long tasks made Play stutter (gaps of 1.4-5x its
// interval, bench/RESULTS.md); the page below the first screen follows on pause.
// Never while a run is in flight.

import { guardBar, setStep } from "./bar_step.mjs";
import { debug } from "./store.mjs";

const SYNC_DELAY_MS = 250; // quiet time after the last key before Python hears the step
// Keys pressed in a rhythm (a speaker's, every third of a second) would each be followed
// by a rerun landing just as the next key comes, its drawing (the heatmap: 100-400 ms of
// Plotly on the main thread) holding that key's frame back. Within a rhythm the quiet
// time is half as long again as the gap between the last two keys, so Python hears the
// step when the keys stop, not between them; slower keys leave room for a rerun anyway.
const RHYTHM_MS = 600; // gaps up to this are a run of keys
const RHYTHM_FACTOR = 1.5;

// How long to wait after a move before Python hears the step, given the gap (ms) since
// the move before it.
export function settleDelay(gap) {
  if (!(gap >= 0) || gap > RHYTHM_MS) return SYNC_DELAY_MS;
  return Math.max(SYNC_DELAY_MS, Math.round(RHYTHM_FACTOR * gap));
}
const RESEND_MS = 5000; // Python has not caught up with a report after this: send again
const RESEND_MAX_MS = 60000; // ... and twice as long after each resend, up to this

export function move(s, k) {
  setStep(s, k);
  const now = performance.now();
  const gap = s.movedAt === undefined ? Infinity : now - s.movedAt;
  s.movedAt = now;
  scheduleSync(s, settleDelay(gap));
}

// Every report carries a sequence number; Python sends back the last one it applied
// (data.seq). Until Python has caught up with the last report, a rerun's step is old
// news and the browser keeps its own; once it has, a different step means Python moved
// it (the number box, a link) and the browser follows.
export function scheduleSync(s, delay) {
  clearTimeout(s.syncTimer);
  s.pending = true;
  s.syncTimer = setTimeout(guardBar(s, "sync", () => sync(s)), delay);
}

function sync(s) {
  s.pending = false;
  if (s.playing || s.dragging || !s.root.isConnected) {
    debug("sync-skip", s.playing, s.dragging, s.root.isConnected);
    return;
  }
  if (s.step === s.pyStep && s.speed === s.pySpeed && s.pySeq >= s.seq) return;
  s.seq += 1;
  debug("send", s.step, s.seq);
  s.setTriggerValue("step", { step: s.step, speed: s.speed, seq: s.seq });
  // a report lost to an interrupted rerun is sent again, later each time
  clearTimeout(s.resendTimer);
  s.resendDelay = s.resendDelay ? Math.min(2 * s.resendDelay, RESEND_MAX_MS) : RESEND_MS;
  s.resendTimer = setTimeout(guardBar(s, "sync", () => resend(s)), s.resendDelay);
}

// Whether Streamlit is running the page's script (the attribute its own app root carries;
// false where there is none, as in the offline slides).
export function scriptRunning() {
  const app = document.querySelector('[data-testid="stApp"]');
  return Boolean(app) && app.getAttribute("data-test-script-state") === "running";
}

// Send the step again if Python has not answered the last report. Never while a run is
// in flight: that run answers, and a new report would interrupt it; on a loaded server,
// where a run takes longer than RESEND_MS, resending on a timer would restart every
// run before it could finish, and the page would stop following.
function resend(s) {
  if (s.pySeq >= s.seq || s.pending || !s.root.isConnected) return;
  if (scriptRunning()) {
    s.resendTimer = setTimeout(guardBar(s, "sync", () => resend(s)), 1000);
    return;
  }
  sync(s);
}
