// Python hears the bar's step: after a move (debounced), on pause, and again when a
// report went unanswered (resend). Never while Play runs: every rerun is drawn on the
// browser's main thread, and its long tasks made Play stutter (gaps of 1.4-5x its
// interval, bench/RESULTS.md); the page below the first screen follows on pause.
// Never while a run is in flight.

import { guardBar, setStep } from "./bar_step.mjs";
import { debug, store } from "./store.mjs";

const SYNC_DELAY_MS = 250; // quiet time after the last key before Python hears the step
// Keys pressed in a rhythm (a speaker's, every third of a second) would each be followed
// by a rerun landing just as the next key comes, its drawing (the heatmap: 100-400 ms of
// Plotly on the main thread) holding that key's frame back. Within a rhythm the quiet
// time is half as long again as the gap between the last two keys, so Python hears the
// step when the keys stop, not between them; slower keys leave room for a rerun anyway.
const RHYTHM_MS = 600; // gaps up to this are a run of keys
const RHYTHM_FACTOR = 1.5;

// Python's views of the settled step that sit below the first screen (the heatmap, the
// word list, the tables) are drawn in containers keyed "bv_settles" (Streamlit classes
// each "st-key-bv_settles..."). While a page has some and none is in view (a speaker at
// the first screen, where the browser draws everything that follows the step), nothing
// on screen waits for Python: it hears the step once the keys have been still for
// AWAY_MS, so that no rerun's drawing lands between a speaker's keys, however irregular
// they are (the first key after a pause was followed by a rerun the next key waited
// behind: 150-250 ms). Scrolling one into view while the step is unheard sends it then.
const AWAY_MS = 1200;
// With one of them in view, a single key (none in the last RHYTHM_MS) is heard almost at
// once: the person is looking at what Python draws, and each millisecond of quiet time
// is one more the heatmap lags the card (the rerun and its drawing take 0.3-0.5 s of
// the 300 ms the page below may take). A page without them keeps SYNC_DELAY_MS: its
// first-screen views are the browser's, and a rapid run's first key must not start a
// rerun that the next keys wait behind.
const SEEN_MS = 40;
const SETTLES = '[class*="st-key-bv_settles"]';

// How long to wait after a move before Python hears the step, given the gap (ms) since
// the move before it, and where Python's views of the step are (settlesView: "none",
// "away" or "seen").
export function settleDelay(gap, where = "none") {
  if (where === "away") return AWAY_MS;
  if (!(gap >= 0) || gap > RHYTHM_MS) return where === "seen" ? SEEN_MS : SYNC_DELAY_MS;
  return Math.max(SYNC_DELAY_MS, Math.round(RHYTHM_FACTOR * gap));
}

// a view counts as seen once this much of it (px) is in the viewport: a strip of margin
// at the screen's foot (Explore at step 0, its "Why" panel short) is not looked at
const SEEN_PX = 100;

// Where the page's views that follow when the step settles are, in a viewport of
// `height` px: "none" (a page without them), "away" (none of them in view) or "seen".
export function settlesView(doc = document, height = globalThis.window?.innerHeight ?? 0) {
  const parts = [...doc.querySelectorAll(SETTLES)];
  if (parts.length === 0) return "none";
  const away = parts.every((e) => {
    const r = e.getBoundingClientRect();
    return r.height <= 0
      || Math.min(r.bottom, height) - Math.max(r.top, 0) < Math.min(SEEN_PX, r.height);
  });
  return away ? "away" : "seen";
}

// Whether the page has views that follow when the step settles and none of them is in
// the viewport (of `height` px): false on a page without them.
export function settlingOutOfView(doc = document, height = globalThis.window?.innerHeight ?? 0) {
  return settlesView(doc, height) === "away";
}

// A scroll of the page: a step held back while its views were out of view is sent as
// soon as one comes into view.
export function onScroll(s) {
  if (!s.pending || !s.away || s.playing || s.dragging) return;
  if (settlingOutOfView()) return;
  debug("in-view", s.step);
  scheduleSync(s, SEEN_MS);
}
const RESEND_MS = 5000; // Python has not caught up with a report after this: send again
const RESEND_MAX_MS = 60000; // ... and twice as long after each resend, up to this

export function move(s, k) {
  // read before the redraw, while the last frame's layout still holds: after it, the
  // read would force a layout of its own
  const where = settlesView();
  setStep(s, k);
  const now = performance.now();
  const gap = s.movedAt === undefined ? Infinity : now - s.movedAt;
  s.movedAt = now;
  scheduleSync(s, settleDelay(gap, where), where === "away");
}

// Every report carries a sequence number; Python sends back the last one it applied
// (data.seq). Until Python has caught up with the last report, a rerun's step is old
// news and the browser keeps its own; once it has, a different step means Python moved
// it (the number box, a link) and the browser follows.
// `away`: the report waits because Python's views are out of view (a scroll into view
// sends it sooner: onScroll)
export function scheduleSync(s, delay, away = false) {
  clearTimeout(s.syncTimer);
  s.pending = true;
  s.away = away;
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
  const report = { step: s.step, speed: s.speed, seq: s.seq };
  // said only while a person looks at them: Python then draws the views below first
  if (settlesView() === "seen") report.below = true;
  s.setTriggerValue("step", report);
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

// Buttons whose result Python makes at the step it holds (the offline slides' download,
// its key "bv_at_step_slides"): clicked while Python has not heard the bar's step yet,
// the click is held, the step sent at once, and the button clicked again once Python's
// run at that step is done, so the file opens at the step on screen, not an older one.
const AT_STEP = '[class*="st-key-bv_at_step"]';
const CLICK_WAIT_MS = 100; // how often a held click looks whether the run is done
const CLICK_TRIES = 300; // ... for at most 30 s, then it goes through as it is

export function onAtStepClick(s, e) {
  const holder = e.target && typeof e.target.closest === "function"
    ? e.target.closest(AT_STEP) : null;
  if (!holder || s.playing || s.dragging || !s.root.isConnected) return;
  if (s.step === s.pyStep && s.pySeq >= s.seq && !s.pending) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  store().heldClick = String(holder.getAttribute("class") || "").split(/\s+/)
    .find((c) => c.startsWith("st-key-bv_at_step"));
  debug("held-click", store().heldClick, s.step);
  scheduleSync(s, 0);
}

// Python has caught up with the bar: a held click goes through once its run is done
// (the button is then the one drawn at the bar's step).
export function releaseClick(tries = 0) {
  const key = store().heldClick;
  if (!key) return;
  if (scriptRunning() && tries < CLICK_TRIES) {
    setTimeout(() => releaseClick(tries + 1), CLICK_WAIT_MS);
    return;
  }
  store().heldClick = null;
  const button = document.querySelector(`.${key} button`);
  debug("release-click", key, Boolean(button));
  if (button) button.click();
}
