// bpeviz stage component (Streamlit components v2): steps through the merges in the
// browser. One module, three roles chosen by data.role:
//   "controls": ◀ slider ▶, the step number (data-bpeviz-step), Play, speed, keys;
//   "card":     the merge card (left + right -> token, count);
//   "words":    the split of each word on screen at the current step;
//   "tokens":   a text cut into the tokens of the current step (Tokenize);
//   "compare":  two or three configurations' cuts of a text at the control's position,
//               their differences marked (Compare).
// The controls' range is data.lo..data.n (lo 0 unless said: Compare's vocabulary sizes).
// The instances share one store (window.__bpevizStage): the controls own the step, the
// others redraw when it changes. Python hears of the step on release / pause (debounced
// trigger "step"); the rest of the page follows after its rerun.
// Text that came from users (words, tokens) arrives only in `data` and is drawn with
// textContent, never parsed as HTML.

const REMOUNT_GRACE_MS = 2000; // a removed bar keeps the keys this long after its last draw
const SYNC_DELAY_MS = 250; // quiet time after the last key before Python hears the step
const SPEEDS = ["1", "2", "4", "10"];
const RESEND_MS = 5000; // Python has not caught up with a report after this: send again
const RESEND_MAX_MS = 60000; // ... and twice as long after each resend, up to this
const PLAY_REPORT_MS = 1000; // while playing, Python hears the step at most this often

const MAX_REPORTS = 10; // errors of its own the script reports to Python, per page

function store() {
  if (!window.__bpevizStage) {
    window.__bpevizStage = { step: null, n: 0, listeners: new Set(), redraws: 0,
                             reported: new Set() };
  }
  return window.__bpevizStage;
}

function notify(st) {
  st.redraws += 1;
  for (const fn of Array.from(st.listeners)) {
    try { fn(st.step); } catch (err) { report(null, "redraw", err); }
  }
  st.lastRedraw = performance.now();
}

// -- errors ------------------------------------------------------------------------------
// The script's own errors never reach Streamlit, which would replace the bar with
// "BidiComponent Error". Every entry point (a mount or data update, a redraw for the
// bar's step, a key, a click, a timer) runs through guard(): an error is reported to
// Python (trigger "error": bpeviz/ui/stage.py logs it), and the part that failed puts
// itself back in a valid state. A message is reported once a page, MAX_REPORTS in all
// (each report is a rerun).

// `owner`: the instance (bar or follower) whose component carries the report; a removed
// one hands it to the bar on the page
function report(owner, where, err) {
  try {
    const st = store();
    const message = String((err && err.message) || err).slice(0, 500);
    const stack = String((err && err.stack) || "").slice(0, 4000);
    if (typeof console !== "undefined") console.error(`bpeviz stage (${where}):`, err);
    debug("error", where, message);
    if (!st.reported) st.reported = new Set();
    const said = `${where}: ${message}`;
    if (st.reported.has(said) || st.reported.size >= MAX_REPORTS) return;
    st.reported.add(said);
    const bar = st.controls;
    const by = owner && (!owner.root || owner.root.isConnected || !bar) ? owner : bar;
    if (by && by.setTriggerValue) by.setTriggerValue("error", { where, message, stack });
  } catch (_) { /* nothing more can be told: the console has it, if anything */ }
}

// fn, its errors reported for `owner` and followed by `recover` (itself guarded)
function guard(owner, where, fn, recover) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      report(owner, where, err);
      if (recover) {
        try { recover(); } catch (again) { report(owner, `${where} (recovering)`, again); }
      }
      return undefined;
    }
  };
}

// a bar's entry point: after an error the bar (and the one it acts on, live()) shows a
// valid step again
function guardBar(s, where, fn) {
  return guard(s, where, fn, () => {
    repair(s, where);
    const t = live(s);
    if (t !== s) repair(t, where);
  });
}

function repair(s, where) {
  [s.lo, s.n] = bounds(s);
  s.step = clamp(s.step, s.n, s.lo);
  if (where === "play") {
    clearTimeout(s.playTimer);
    s.playTimer = null;
    s.playing = false;
  }
  const st = store();
  if (st.controls === s) { st.step = s.step; st.n = s.n; st.lo = s.lo; st.hist = s.hist; }
  if (s.slider) drawControls(s);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function chipStyle(id, strong) {
  const h = Math.round((id * 137.508) % 360);
  return strong
    ? `background:hsl(${h},90%,80%);border-color:hsl(${h},80%,25%)`
    : `background:hsl(${h},75%,87%);border-color:hsl(${h},55%,45%)`;
}

// -- marks: combining marks and invisible characters -------------------------------------
// data.marks: {character: [how it is drawn alone ("◌्", "⟨ZWJ⟩"), its Unicode name]}, made
// by bpeviz.text.display.mark_table; the rules below are bpeviz.text.display.visible's and
// names_title's, so a mark is drawn and named alike on every page.

const DOTTED_CIRCLE = "\u25cc";

function isMark(ch, marks) {
  const m = marks && marks[ch];
  return m ? m[0].startsWith(DOTTED_CIRCLE) : /^\p{M}$/u.test(ch) && !isSelector(ch);
}

function isSelector(ch) { // a variation selector (drawn ⟨VS16⟩, part of the emoji before it)
  const cp = ch.codePointAt(0);
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function invisibleMark(ch, marks) {
  const m = marks && marks[ch];
  if (m && !m[0].startsWith(DOTTED_CIRCLE)) return m[0];
  if (isSelector(ch) || /^[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]$/u.test(ch)) {
    return `⟨U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
  }
  return null;
}

// s with nothing left unseen: whitespace as · → ↵ (when ws), invisible characters as
// ⟨ZWJ⟩ (a joiner inside an emoji sequence kept), a combining mark with nothing to sit on
// on a dotted circle
function visibleText(s, ws = true, marks = null) {
  const chars = Array.from(s);
  let out = "", bare = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i], prev = chars[i - 1], next = chars[i + 1];
    const cp = ch.codePointAt(0);
    if (SHOWN_WS[ch]) {
      out += ws ? SHOWN_WS[ch] + (ch === "\n" ? "\n" : "") : ch;
      bare = true;
    } else if (ch === "\u200d" && i > 0 && i < chars.length - 1 && !bare
               && prev.codePointAt(0) > 0x7f && next.codePointAt(0) > 0x7f) {
      out += ch; // a joiner inside an emoji sequence: the sequence stays one picture
    } else if (isMark(ch, marks) || (cp >= 0xfe00 && cp <= 0xfe0f && !bare
               && !isMark(prev, marks) && invisibleMark(prev, marks) === null)) {
      out += bare ? DOTTED_CIRCLE + ch : ch;
      bare = false;
    } else {
      const shown = cp > 0x7e || cp < 0x20 ? invisibleMark(ch, marks) : null;
      out += shown === null ? ch : shown;
      bare = shown !== null;
    }
  }
  return out;
}

// " · ◌् U+094D DEVANAGARI SIGN VIRAMA" for each distinct mark of text (at most 8)
function namesTitle(text, marks) {
  if (!marks) return "";
  const seen = [];
  for (const ch of text) {
    if (marks[ch] && !seen.includes(ch) && seen.length < 8) seen.push(ch);
  }
  return seen.map((ch) => ` · ${marks[ch][0]} ${marks[ch][1]}`).join("");
}

// a token's text from its bytes in hex ("e0 a5 8d"), a part of a character left out
let UTF8 = null;
function hexText(hex) {
  const bytes = String(hex || "").split(/\s+/).filter((x) => /^[0-9a-f]{2}$/i.test(x));
  if (!UTF8) UTF8 = new TextDecoder();
  return UTF8.decode(new Uint8Array(bytes.map((x) => parseInt(x, 16)))).replaceAll("\ufffd", "");
}

// the names of the marks a token's bytes hold, for its title ("" when the data has none:
// nothing decoded, so a page of plain text draws as fast as before)
function hexNames(hex, marks) {
  if (!marks || typeof marks !== "object") return "";
  for (const _ in marks) return namesTitle(hexText(hex), marks);
  return "";
}

// labels[id] = [shown text, bytes in hex, index of its note in notes (when it has one)];
// part: the character a byte-level chip is part of, with its bytes ("" when whole);
// marks: data.marks, to name the marks it holds. Its direction is its own (dir=auto).
function chip(labels, id, strong, isNew, notes, part, marks) {
  const lab = labels[id] || ["?", ""];
  const c = el("span", isNew ? "bv-chip bv-new" : "bv-chip", lab[0]);
  c.setAttribute("style", chipStyle(id, strong));
  c.setAttribute("dir", "auto");
  c.dataset.id = String(id);
  const note = notes && lab.length > 2 ? notes[lab[2]] : "";
  c.title = `id ${id} · ${lab[0]} · bytes ${lab[1]}` + (part ? ` · ${part}` : "")
    + (note ? ` · ${note}` : "") + hexNames(lab[1], marks);
  return c;
}

// a test can read what the stage did: set window.__bvDebug = [] before the page loads
function debug(...entry) {
  if (window.__bvDebug) window.__bvDebug.push([Math.round(performance.now()), ...entry]);
}

function fmt(n) {
  return Number(n).toLocaleString("en-US");
}

// a whole number from what came (a number or its text), else `fallback`
function whole(x, fallback) {
  const v = typeof x === "number" || typeof x === "string" ? Number(x) : NaN;
  return Number.isFinite(v) && String(x).trim() !== "" ? Math.round(v) : fallback;
}

// k within lo..n (lo when k is no number, or n below lo)
function clamp(k, n, lo = 0) {
  const v = Number.isFinite(k) ? Math.round(k) : lo;
  return Math.max(Math.min(v, n), lo);
}

// the range lo..n of a payload (or a bar): whole numbers, n never below lo
function bounds(data) {
  const lo = whole(data.lo, 0);
  return [lo, Math.max(whole(data.n, lo), lo)];
}

// the step a follower draws for the bar's step k: within its own data's range; its own
// step (data.step) when the bar has none
function followStep(data, k) {
  const [lo, n] = bounds(data);
  return clamp(k ?? whole(data.step, lo), n, lo);
}

function typingIn(target) {
  if (!target || !target.closest) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName || "").toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") {
    const type = (target.type || "").toLowerCase();
    return !["range", "button", "checkbox", "radio"].includes(type) || !target.closest(".bv-stage");
  }
  const role = target.getAttribute && target.getAttribute("role");
  if (role === "slider" || role === "combobox" || role === "textbox" || role === "spinbutton") {
    return !target.closest(".bv-stage");
  }
  return false;
}

// What a key does to a bar at `step` in lo..n: {to: the step it moves to} or
// {act: "play" | "keys" | "close"}; null when the key is not the bar's.
function keyAction(key, shift, step, lo, n) {
  const to = (k) => ({ to: clamp(k, n, lo) });
  switch (key) {
    case "ArrowRight": return to(step + (shift ? 10 : 1));
    case "ArrowLeft": return to(step - (shift ? 10 : 1));
    case "PageDown": return to(step + 1); // a presenter's clicker
    case "PageUp": return to(step - 1);
    case "Home": return to(lo);
    case "End": return to(n);
    case " ": case "Spacebar": return { act: "play" };
    case "?": return { act: "keys" };
    case "Escape": return { act: "close" };
    default: return null;
  }
}

// the rows of the keys' table (?): [keys, what they do], for steps called `unit`
function keyRows(unit, units) {
  return [["← / →", `one ${unit} back / on`], ["Shift + ← / →", `ten ${units} back / on`],
    ["Home / End", `the first / the last ${unit}`],
    ["Page Down / Page Up", `one ${unit} on / back (a presenter's clicker)`],
    ["Space", "play / pause"], ["?", "show / hide these keys"]];
}

// -- controls --------------------------------------------------------------------------

function buildControls(root, s) {
  const bar = el("div", "bv-stage-bar");
  s.prev = el("button", "bv-stage-btn", "◀");
  s.slider = el("input", "bv-stage-slider");
  s.slider.type = "range";
  s.slider.min = "0";
  s.next = el("button", "bv-stage-btn", "▶");
  s.stepBox = el("div", "bv-stage-step");
  s.stepBox.setAttribute("aria-live", "polite");
  bar.append(s.prev, s.slider, s.next, s.stepBox);

  const bar2 = el("div", "bv-stage-bar");
  s.play = el("button", "bv-stage-btn bv-stage-play", "▶ Play");
  s.play.title = "Play / pause (Space)";
  const speeds = el("div", "bv-stage-speeds");
  speeds.setAttribute("role", "radiogroup");
  speeds.setAttribute("aria-label", "Speed");
  s.speedButtons = {};
  for (const v of SPEEDS) {
    const b = el("button", "bv-stage-speed", `${v} step${v === "1" ? "" : "s"}/s`);
    b.dataset.speed = v;
    b.setAttribute("role", "radio");
    b.addEventListener("click", guardBar(s, "speed", () => {
      const t = live(s);
      t.speed = v; drawSpeed(t); if (t.playing) restartPlay(t);
    }));
    s.speedButtons[v] = b;
    speeds.append(b);
  }
  s.help = el("button", "bv-stage-btn bv-stage-help", "?");
  s.help.title = "Keyboard shortcuts (?)";
  s.help.setAttribute("aria-label", "Keyboard shortcuts");
  s.note = el("span", "bv-muted bv-stage-note");
  bar2.append(s.play, speeds, s.help, s.note);

  s.keys = el("div", "bv-stage-keys");
  s.keys.hidden = true;
  s.keyTable = el("table");
  s.keys.append(el("div", "bv-muted", "Keys work anywhere on the page except in a text box."), s.keyTable);
  root.append(bar, bar2, s.keys);

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
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(e.key)) e.preventDefault();
  });
  s.play.addEventListener("click", guardBar(s, "click", () => togglePlay(live(s))));
  s.help.addEventListener("click", guardBar(s, "click", () => { s.keys.hidden = !s.keys.hidden; }));
}

// the words for one move of the control (data.unit, data.units, data.name): a merge on
// Explore, a position on Compare
function drawUnitWords(s, data) {
  const unit = data.unit || "merge", units = data.units || `${unit}s`;
  if (s.unit === unit && s.units === units && s.name === (data.name || "Step")) return;
  s.unit = unit; s.units = units; s.name = data.name || "Step";
  s.prev.title = `Previous ${unit} (←; Shift+← ten back)`;
  s.prev.setAttribute("aria-label", `Previous ${unit}`);
  s.next.title = `Next ${unit} (→; Shift+→ ten on)`;
  s.next.setAttribute("aria-label", `Next ${unit}`);
  s.slider.setAttribute("aria-label", data.name || "Merge step");
  for (const [v, b] of Object.entries(s.speedButtons)) { // "2 steps/s", or "2 rounds/s"
    const per = unit === "round" ? (v === "1" ? unit : units) : (v === "1" ? "step" : "steps");
    b.textContent = `${v} ${per}/s`;
  }
  s.keyTable.replaceChildren();
  for (const [k, what] of keyRows(unit, units)) {
    const tr = el("tr");
    tr.append(el("td", "bv-stage-key", k), el("td", null, what));
    s.keyTable.append(tr);
  }
}

function drawSpeed(s) {
  for (const [v, b] of Object.entries(s.speedButtons)) {
    const on = v === s.speed;
    b.classList.toggle("bv-on", on);
    b.setAttribute("aria-checked", on ? "true" : "false");
  }
}

function drawControls(s) {
  s.drawnAt = performance.now(); // (a bar a run just removed waits a moment for its successor)
  const k = s.step;
  s.slider.min = String(s.lo);
  s.slider.max = String(s.n);
  if (Number(s.slider.value) !== k) s.slider.value = String(k);
  s.prev.disabled = k <= s.lo;
  s.next.disabled = k >= s.n;
  s.stepBox.textContent = s.lo === 0 ? `${s.name} ${fmt(k)} of ${fmt(s.n)}`
    : `${s.name} ${fmt(k)} (${fmt(s.lo)} to ${fmt(s.n)})`;
  s.stepBox.setAttribute("data-bpeviz-step", String(k));
  s.play.textContent = s.playing ? "⏸ Pause" : "▶ Play";
  s.play.classList.toggle("bv-on", s.playing);
  s.note.textContent = s.playing && !s.standalone
    ? "While playing, the rest of the page follows about once a second." : "";
}

// the store's step is always one bar's (st.hist names its history: the followers of
// another one leave it alone)
function setStep(s, k) {
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

function move(s, k) {
  setStep(s, k);
  scheduleSync(s, SYNC_DELAY_MS);
}

// Every report carries a sequence number; Python sends back the last one it applied
// (data.seq). Until Python has caught up with the last report, a rerun's step is old
// news and the browser keeps its own; once it has, a different step means Python moved
// it (the number box, a link) and the browser follows.
function scheduleSync(s, delay) {
  clearTimeout(s.syncTimer);
  s.pending = true;
  s.syncTimer = setTimeout(guardBar(s, "sync", () => sync(s)), delay);
}

function sync(s, passing = false) {
  s.pending = false;
  if ((s.playing && !passing) || s.dragging || !s.root.isConnected) {
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
function scriptRunning() {
  const app = document.querySelector('[data-testid="stApp"]');
  return Boolean(app) && app.getAttribute("data-test-script-state") === "running";
}

// Send the step again if Python has not answered the last report. Never while a run is
// in flight: that run answers, and a new report would interrupt it; on a loaded server,
// where a run takes longer than RESEND_MS, resending on a timer restarted every run
// before it could finish, and the page stopped following (issue 16).
function resend(s) {
  if (s.pySeq >= s.seq || s.pending || !s.root.isConnected) return;
  if (scriptRunning()) {
    s.resendTimer = setTimeout(guardBar(s, "sync", () => resend(s)), 1000);
    return;
  }
  sync(s);
}

// While Play runs, Python hears the step in passing (so the heatmap and tables follow),
// at most every PLAY_REPORT_MS and only once it has answered the last report and no run
// is in flight: a report never interrupts a run, and a slow server is asked less often.
function reportWhilePlaying(s) {
  if (s.standalone) return;
  const now = performance.now();
  if (now - (s.lastPlayReport || 0) < PLAY_REPORT_MS) return;
  if (s.pySeq < s.seq || scriptRunning()) return;
  s.lastPlayReport = now;
  sync(s, true);
}

function stopPlay(s) {
  clearTimeout(s.playTimer);
  s.playTimer = null;
  if (s.playing) {
    s.playing = false;
    drawControls(s);
    scheduleSync(s, 0);
  }
}

function restartPlay(s) {
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
    reportWhilePlaying(s);
    const next = s.playStart + (k - s.playFrom + 1) * period;
    s.playTimer = setTimeout(tick, Math.max(0, next - performance.now()));
  });
  s.playTimer = setTimeout(tick, period);
}

function togglePlay(s) {
  if (s.playing) { stopPlay(s); return; }
  if (s.n <= s.lo) return;
  clearTimeout(s.syncTimer);
  if (s.step >= s.n) setStep(s, s.lo);
  s.playing = true;
  drawControls(s);
  restartPlay(s);
}

// The bar a click or a drag on ``s`` acts on: ``s`` itself, or the bar a rerun mounted
// while ``s`` still stands (Streamlit keeps an element of the last run until this run
// ends). The newest bar owns the step; a click on the old one, which the page still
// shows, used to move only the old one and was lost when it went (issue 16).
function live(s) {
  const owner = newer(s);
  return owner && owner.hist === s.hist ? owner : s;
}

// The bar that owns the step when it is not ``s``: the newest one, on the page (or null).
function newer(s) {
  const owner = store().controls;
  return owner && owner !== s && owner.root.isConnected ? owner : null;
}

function onKey(s, e) {
  // A bar a rerun has taken out of the page: once its successor is mounted it is done.
  // While the run is under way, or just after it (a slow browser mounts the new bar a
  // moment later, and the script's state can say "done" first), it still takes the
  // arrow keys, and the new bar carries its step (controls(): "moved"); a key pressed in
  // that moment was lost before (issue 16, concurrent sessions, slowed CPUs).
  const gone = !s.root.isConnected;
  if (window.__bvDebug && e.key && e.key.length > 1) {
    debug("key", e.key, s.step, gone, store().controls === s, scriptRunning(),
      (e.target && e.target.tagName) || "");
  }
  if (gone && (store().controls !== s
                || (!scriptRunning() && performance.now() - s.drawnAt > REMOUNT_GRACE_MS))) {
    // replaced, or no run is under way that could mount a successor and none was drawn
    // a moment ago (another page): the keys are the page's again
    document.removeEventListener("keydown", s.keyHandler, true);
    return;
  }
  // Two bars on the page at once: a rerun mounted the new one while the old one still
  // stands (Streamlit keeps an element of the last run until this run ends). The new one
  // owns the keys. The old one's listener came first, and since it took the key (its
  // preventDefault made the new one skip it), the new bar's step stayed behind and the
  // press was lost when the old one went (issue 16).
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
function controls(component, data) {
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
  }
  s.setTriggerValue = component.setTriggerValue || (() => {});
  s.standalone = Boolean(data.standalone);
  const py = clamp(whole(data.step, lo), n, lo);
  const newHistory = s.hist !== data.hist;
  s.n = n;
  s.lo = lo;
  s.hist = data.hist;
  drawUnitWords(s, data);
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
    clearTimeout(before.playTimer);
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
      restartPlay(s);
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
  } else {
    setStep(s, s.step);
  }
}

// -- card ------------------------------------------------------------------------------

// The card's data comes compact (bpeviz.analysis.views.stage_merges): columns of ids, and labels
// only where a merged token's label is not left + right. Rebuilt here once per history,
// as bpeviz.analysis.views.expand_stage_merges does.
function expandCard(data) {
  if (!data.mergeCols) return data;
  const st = store();
  if (st.cardHist === data.hist && st.cardCols === data.mergeCols) return { ...data, ...st.card };
  const cols = data.mergeCols;
  const given = data.labels || {};
  const labels = Array.isArray(given.base) ? given.base.slice() : [];
  for (const [i, row] of Object.entries(given.extra || {})) labels[Number(i)] = row;
  const column = (name) => (Array.isArray(cols[name]) ? cols[name] : []);
  const left = column("left"), right = column("right"), token = column("token");
  const merges = new Array(Math.min(left.length, right.length, token.length));
  for (let k = 0; k < merges.length; k++) {
    const l = left[k], r = right[k], t = token[k];
    merges[k] = [l, r, t, cols.text ? cols.text[k] : `count ${fmt(column("count")[k])}`];
    if (labels[t] === undefined) {
      const a = labels[l] || ["?", ""], b = labels[r] || ["?", ""];
      labels[t] = [a[0] + b[0], `${a[1]} ${b[1]}`.trim()];
    }
  }
  const noteOf = Array.isArray(data.noteOf) ? data.noteOf : [];
  for (let i = 0; i < noteOf.length; i++) {
    if (noteOf[i] >= 0 && labels[i]) labels[i] = [labels[i][0], labels[i][1], noteOf[i]];
  }
  st.cardHist = data.hist;
  st.cardCols = data.mergeCols;
  st.card = { merges, labels };
  return { ...data, merges, labels };
}

// The card at step k, clamped into the merges it holds (a bar of a longer training, or
// data of another step, never point it past them); built aside, then put in place.
function drawCard(c, k) {
  const d = c.data;
  const merges = Array.isArray(d.merges) ? d.merges : [];
  const labels = d.labels || [];
  k = clamp(k, merges.length, 0);
  const card = el("div", "bv-card");
  const one = (m, box) => {
    if (!Array.isArray(m)) { box.append(el("span", "bv-muted", "(not in the data)")); return; }
    box.append(chip(labels, m[0], d.strong, false, d.notes, "", d.marks), " + ",
      chip(labels, m[1], d.strong, false, d.notes, "", d.marks),
      el("span", "bv-arrow", "→"), chip(labels, m[2], d.strong, true, d.notes, "", d.marks),
      " ", el("span", "bv-muted bv-nums", `${m[3] ?? ""} · id ${m[2]}`));
  };
  if (k <= 0) {
    const now = el("div");
    now.append(el("b", null, "Step 0"), ": no merge yet; every word is split into its initial symbols.");
    card.append(now);
  } else {
    card.append(el("div", "bv-muted", `Merge ${k}`));
    const big = el("div", "bv-big");
    one(merges[k - 1], big);
    card.append(big);
  }
  const after = el("div", "bv-muted bv-next");
  after.style.marginTop = ".4em";
  if (k < merges.length) { after.append("Next: "); one(merges[k], after); }
  else after.textContent = "This is the last merge.";
  card.append(after);
  c.root.setAttribute("data-bpeviz-card", String(k));
  c.root.replaceChildren(card);
}

// -- words -----------------------------------------------------------------------------

function drawWords(w, k) {
  const d = w.data;
  const maxChips = Math.max(whole(d.maxChips, 200), 0);
  const labels = d.labels || {};
  for (const row of w.rows) {
    const { nodes, cell, tr, badge } = row;
    const [tokens, steps, untils, parts] = nodes;
    const chips = [];
    let changed = false;
    let count = 0;
    for (let i = 0; i < tokens.length; i++) {
      if (steps[i] === k && k > 0) changed = true;
      if (steps[i] <= k && untils[i] > k) {
        count += 1;
        const part = parts[i] >= 0 && d.notes ? d.notes[parts[i]] : "";
        if (count <= maxChips) chips.push(chip(labels, tokens[i], d.strong, k > 0 && steps[i] === k, d.notes, part, d.marks));
      }
    }
    if (count > maxChips) chips.push(el("span", "bv-muted", ` … and ${fmt(count - maxChips)} more`));
    cell.replaceChildren(...chips);
    tr.className = changed ? "bv-changed" : "";
    badge.hidden = !changed;
  }
}

// a row of data.words: [index, word, count, tokens, made at, merged at, parts]; a row
// that is not one is left out, a missing list is empty
function buildWords(w) {
  const d = w.data;
  const list = (x) => (Array.isArray(x) ? x : []);
  w.rows = [];
  const table = el("table", "bv-words");
  const head = el("tr");
  head.append(el("th", "bv-num", "#"), el("th", null, "word"), el("th", "bv-num", "count"), el("th", null, "split"));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  const rows = [];
  for (const row of list(d.words)) {
    if (!Array.isArray(row)) continue;
    const [index, word, count, tokens, steps, untils, parts] = row;
    const tr = el("tr");
    const wordCell = el("td");
    wordCell.append(el("bdi", null, visibleText(String(word ?? ""), true, d.marks))); // isolated
    const badge = el("span", "bv-badge", "changed");
    wordCell.append(badge);
    const cell = el("td");
    tr.append(el("td", "bv-num", String(whole(index, 0) + 1)), wordCell, el("td", "bv-num", fmt(count)), cell);
    body.append(tr);
    rows.push({ nodes: [list(tokens), list(steps), list(untils), list(parts)], cell, tr, badge });
  }
  table.append(thead, body);
  w.rows = rows;
  w.root.replaceChildren(table);
}

// -- tokens (Tokenize) -----------------------------------------------------------------
// data.text: the text; data.words: [offset, form] per word (offsets in code points);
// data.forms[form]: [[step, ids, starts, ends, flags], ...] (flags 1 partial, 2 unknown)

const SHOWN_WS = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍" };

// a text's UTF-8 bytes in hex, as Python's bytes.hex(" ") writes them
function utf8Hex(s) {
  return Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, "0")).join(" ");
}

function buildTokens(t) {
  t.chars = Array.from(typeof t.data.text === "string" ? t.data.text : "");
}

// A form's version at step k, and the one before it: [step, ids, starts, ends, flags]
// each ([null, null] when the form has none; a version's missing lists are empty).
function versionAt(versions, k) {
  const all = Array.isArray(versions) ? versions.filter(Array.isArray) : [];
  if (!all.length) return [null, null];
  let chosen = all[0], before = null;
  for (const v of all) {
    if (v[0] <= k) { before = chosen; chosen = v; } else break;
  }
  return [version(chosen), before && version(before)];
}

function version(v) {
  const list = (x) => (Array.isArray(x) ? x : []);
  return [v[0], list(v[1]), list(v[2]), list(v[3]), list(v[4])];
}

function drawTokens(t, k) {
  const d = t.data;
  const chars = t.chars;
  const show = (a, b) => {
    const s = chars.slice(a, b).join("");
    return visibleText(s, !!d.showWs, d.marks);
  };
  const labels = d.labels || {}, forms = d.forms || [];
  const maxTokens = whole(d.maxTokens, 3000);
  const box = el("div", "bv-tokens");
  let pos = 0, count = 0, rest = 0;
  for (const word of Array.isArray(d.words) ? d.words : []) {
    if (!Array.isArray(word)) continue;
    const offset = whole(word[0], 0);
    const [v, before] = versionAt(forms[word[1]], k);
    if (!v) continue;
    const [vstep, ids, starts, ends, flags] = v;
    const fresh = vstep === k && k > 0;
    const old = new Set();
    if (fresh && before) before[1].forEach((id, j) => old.add(`${id}:${before[2][j]}:${before[3][j]}`));
    for (let j = 0; j < ids.length; j++) {
      if (count >= maxTokens) { rest += 1; continue; }
      const start = offset + starts[j], end = offset + ends[j];
      if (start > pos) box.append(el("span", "bv-gap", show(pos, start)));
      const id = ids[j];
      const lab = labels[id] || [d.unkText, ""];
      const partial = (flags[j] & 1) !== 0, unk = (flags[j] & 2) !== 0;
      let shown = partial ? lab[0] : show(start, end);
      if (!partial && !shown.trim()) shown = lab[0];
      const c = el("span", "bv-chip", shown);
      c.setAttribute("style", chipStyle(id, d.strong));
      c.setAttribute("dir", "auto");
      c.dataset.id = String(id);
      if (partial) c.classList.add("bv-partial");
      if (unk) c.classList.add("bv-unk");
      if (fresh && !old.has(`${id}:${starts[j]}:${ends[j]}`)) c.classList.add("bv-new");
      const piece = chars.slice(start, end).join("");
      const mark = d.notes && lab.length > 2 ? d.notes[lab[2]] : "";  // what its marks mean
      c.title = `id ${id} · ${lab[0]} · bytes ${lab[1] || "-"}`
        + (partial ? ` · part of the character “${piece}” (its bytes: ${utf8Hex(piece)})` : "")
        + (unk ? " · unknown" : "") + (mark ? ` · ${mark}` : "")
        + hexNames(lab[1], d.marks);
      box.append(c);
      count += 1;
      pos = Math.max(pos, end);
    }
  }
  if (!rest && pos < chars.length) box.append(el("span", "bv-gap", show(pos, chars.length)));
  if (rest) box.append(el("span", "bv-muted", ` … ${fmt(rest)} more tokens not drawn (the counts and ids cover them all)`));
  const note = el("div", "bv-muted bv-stage-count",
    `${fmt(count + rest)} tokens at step ${fmt(k)}`);
  t.root.replaceChildren(box, note);
}

// -- compare (Compare) ----------------------------------------------------------------
// data.text; data.lo..data.n: the control's positions (merge steps, pruning rounds or
// vocabulary sizes); data.configs[i]: {label, letter, colour, unit, last, steps and sizes
// (linear runs: bpeviz.analysis.compare_history.runs), history ({words, forms} as for "tokens"),
// labels {id: [label, hex]}, nbytes {id: bytes of a token holding part of a character}}.
// The differences follow bpeviz.analysis.compare.compare_tokens exactly (tests compare them).

// Python's str.isspace(): the whitespace the engine leaves out of a token's span
const PY_SPACE = new Set([0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0,
  0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
const LETTERS = "ABC";

// runs: [[from, value, slope], ...] sorted by `from`: the value at i (0 with no runs)
function runAt(runs, i) {
  const all = Array.isArray(runs) ? runs.filter(Array.isArray) : [];
  if (!all.length) return 0;
  let chosen = all[0];
  for (const run of all) {
    if (run[0] > i) break;
    chosen = run;
  }
  return chosen[1] + chosen[2] * (i - chosen[0]);
}

// what every cut of the text shares (bpeviz.analysis.compare._TextIndex): byte offsets, whitespace
function buildCompare(f) {
  const chars = Array.from(typeof f.data.text === "string" ? f.data.text : "");
  const n = chars.length;
  const at = new Array(n + 1), space = new Array(n);
  at[0] = 0;
  for (let c = 0; c < n; c++) {
    const cp = chars[c].codePointAt(0);
    at[c + 1] = at[c] + 1 + (cp >= 0x80) + (cp >= 0x800) + (cp >= 0x10000);
    space[c] = PY_SPACE.has(cp);
  }
  const nextSolid = new Array(n + 1), solidEnd = new Array(n + 1);
  nextSolid[n] = n;
  for (let c = n - 1; c >= 0; c--) nextSolid[c] = space[c] ? nextSolid[c + 1] : c;
  solidEnd[0] = 0;
  for (let c = 1; c <= n; c++) solidEnd[c] = space[c - 1] ? solidEnd[c - 1] : c;
  f.ix = { chars, at, space, nextSolid, solidEnd };
}

// one configuration's tokens at `step`: {ids, starts, ends, flags} (offsets clamped at 0,
// as the encoder clamps a leading metaspace "▁"); none for a missing history
function cutAt(history, step) {
  const ids = [], starts = [], ends = [], flags = [];
  const words = history && Array.isArray(history.words) ? history.words : [];
  for (const word of words) {
    if (!Array.isArray(word)) continue;
    const [offset, form] = word;
    const [v] = versionAt((history.forms || [])[form], step);
    if (!v) continue;
    for (let j = 0; j < v[1].length; j++) {
      ids.push(v[1][j]);
      starts.push(Math.max(offset + v[2][j], 0));
      ends.push(Math.max(offset + v[3][j], 0));
      flags.push(v[4][j]);
    }
  }
  return { ids, starts, ends, flags };
}

// each token's span in UTF-8 bytes without whitespace at its ends, or null
// (bpeviz.analysis.compare._span_arrays / token_spans)
function tokenSpans(ix, cut, nbytes) {
  const { at, space, nextSolid, solidEnd } = ix;
  const { ids, starts, ends, flags } = cut;
  const spans = new Array(ids.length);
  let prevEnd = -1;
  for (let i = 0; i < ids.length; i++) {
    const s = starts[i], e = ends[i];
    if (!(flags[i] & 1)) {
      const loChar = Math.min(nextSolid[s], e), hiChar = Math.max(solidEnd[e], loChar);
      spans[i] = at[loChar] < at[hiChar] ? [at[loChar], at[hiChar]] : null;
      prevEnd = at[e];
      continue;
    }
    // a part of a character: it starts where the token before it stopped inside that
    // character, and spans its own bytes
    let start = at[s];
    if (start < prevEnd && prevEnd < at[s + 1]) start = prevEnd;
    const end = Math.min(start + (nbytes[String(ids[i])] || 0), at[e]);
    prevEnd = end;
    let c = s, lo = start;
    while (c < e && at[c] >= lo && at[c + 1] <= end && space[c]) { lo = at[c + 1]; c++; }
    let hi = end;
    c = e;
    while (c > s && at[c - 1] >= lo && at[c] <= hi && space[c - 1]) { hi = at[c - 1]; c--; }
    spans[i] = lo < hi ? [lo, hi] : null;
  }
  return spans;
}

function holds(points, span) { // a sorted array holds p with span[0] <= p <= span[1]
  let a = 0, b = points.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (points[m] < span[0]) a = m + 1; else b = m;
  }
  return a < points.length && points[a] <= span[1];
}

// bpeviz.analysis.compare.compare_tokens: every cut's spans, the boundaries some cuts have and
// others lack, the tokens they lie on and the runs of those (character spans)
function compareCuts(ix, cuts) {
  const boundSets = cuts.map((c) => {
    const b = new Set();
    for (const span of c.spans) if (span) { b.add(span[0]); b.add(span[1]); }
    return b;
  });
  const union = new Set();
  for (const b of boundSets) for (const x of b) union.add(x);
  const common = new Set([...union].filter((x) => boundSets.every((b) => b.has(x))));
  const differing = [...union].filter((x) => !common.has(x)).sort((a, b) => a - b);
  cuts.forEach((c, k) => {
    c.differs = c.spans.map((span) => span !== null && holds(differing, span));
    c.own = [...boundSets[k]].filter((x) => !common.has(x)).length;
    c.diffSpans = [];
    let runStart = null;
    for (let i = 0; i < c.differs.length; i++) {
      const flag = c.differs[i];
      if (flag && runStart === null) runStart = i;
      if (runStart !== null && (!flag || i === c.differs.length - 1)) {
        const last = flag ? i : i - 1;
        let end = c.tokens.ends[runStart];
        for (let j = runStart; j <= last; j++) end = Math.max(end, c.tokens.ends[j]);
        c.diffSpans.push([c.tokens.starts[runStart], end]);
        runStart = null;
      }
    }
  });
  return differing.length;
}

// render_compare.differences_caption
function differencesCaption(n, cuts) {
  if (cuts.length < 2) return "One configuration: nothing to compare it with.";
  if (!n) return "No differences: every configuration cuts this text at the same places.";
  const own = cuts.map((c, i) => `${LETTERS[i]} ${i ? "at" : "cuts at"} ${fmt(c.own)}`).join(", ");
  return n === 1
    ? `1 token boundary differs: a place where some configurations cut the text and others do not (${own}).`
    : `${fmt(n)} token boundaries differ: places where some configurations cut the text and others do not (${own}).`;
}

// one chip, as render_compare._chip draws it (id on hover)
function cutChip(d, config, chars, cut, i) {
  const id = cut.ids[i], flag = cut.flags[i];
  const lab = (config.labels || {})[String(id)] || ["?", ""];
  const partial = (flag & 1) !== 0, unk = (flag & 2) !== 0;
  let shown = partial ? lab[0]
    : visibleText(chars.slice(cut.starts[i], cut.ends[i]).join(""), false, d.marks);
  if (!partial && !shown.trim()) shown = lab[0];
  const c = el("span", "bv-chip", shown);
  c.setAttribute("style", chipStyle(id, d.strong));
  c.setAttribute("dir", "auto");
  c.dataset.id = String(id);
  if (partial) c.classList.add("bv-partial");
  if (unk) c.classList.add("bv-unk");
  // an unknown token stands for text the vocabulary lacks: its bytes are its own text's
  const bytes = unk ? utf8Hex(chars.slice(cut.starts[i], cut.ends[i]).join("")) : lab[1];
  c.title = `id ${id} · ${lab[0]} · bytes ${bytes || "-"}` + (unk ? " · unknown" : "")
    + hexNames(bytes, d.marks);
  return c;
}

// render_compare.cut_html, drawn with DOM calls
function cutBox(d, config, index, ix, cut) {
  const chars = ix.chars;
  const text = (a, b) => chars.slice(a, b).join("");
  const box = el("div", "bv-tokens");
  box.dataset.config = LETTERS[index];
  box.setAttribute("style", `border-left:6px solid ${config.colour};padding-left:.6em`);
  const total = cut.tokens.ids.length, shownCount = Math.min(total, d.maxTokens || 3000);
  let pos = 0, run = -1, into = box;
  for (let i = 0; i < shownCount; i++) {
    const start = cut.tokens.starts[i], end = cut.tokens.ends[i];
    const gap = start > pos ? el("span", "bv-gap", text(pos, start)) : null;
    if (cut.differs[i] && into === box) { // a run starts: the gap before it stays outside
      run += 1;
      if (d.only) { if (run) box.append(el("span", "bv-muted", " … ")); } else if (gap) box.append(gap);
      const span = cut.diffSpans[run];
      into = el("span", "bv-diff");
      into.setAttribute("data-bpeviz-diff", String(run));
      into.dataset.start = String(span[0]);
      into.dataset.end = String(span[1]);
      into.title = "cut differently from another configuration";
      into.setAttribute("style", `outline:${d.strong ? 3 : 2}px dashed ${config.colour};`
        + "outline-offset:2px;border-radius:.35em;background:rgba(255,200,0,.28)");
      box.append(into);
    } else if ((into !== box || !d.only) && gap) into.append(gap);
    if (into !== box || !d.only) into.append(cutChip(d, config, chars, cut.tokens, i));
    pos = Math.max(pos, end);
    if (into !== box && (i + 1 === shownCount || !cut.differs[i + 1])) into = box;
  }
  if (!d.only && pos < chars.length && shownCount === total) box.append(el("span", "bv-gap", text(pos, chars.length)));
  if (d.only && run < 0) box.append(el("span", "bv-muted", "No differences: this configuration cuts the text as the others do."));
  if (total > shownCount) box.append(el("span", "bv-muted", ` … ${fmt(total - shownCount)} more tokens not drawn (the counts cover them all)`));
  return box;
}

function heading(d, config, index, position, step, size) {
  const line = el("div", "bv-muted bv-cmp-where");
  const letter = el("b", null, `${LETTERS[index]}: `);
  letter.style.color = config.colour;
  const unit = config.unit === "step" ? "step" : config.unit;
  let note = "";
  if (d.mode === "step" && position > config.last) {
    note = ` (made only ${fmt(config.last)}: shown at its last ${unit})`;
  } else if (d.mode === "vocab" && size !== position) {
    note = size > position ? ` (more than ${fmt(position)}: its smallest here)`
      : ` (none has exactly ${fmt(position)}: the closest below)`;
  }
  line.append(letter, `${unit} ${fmt(step)} of ${fmt(config.last)}, ${fmt(size)} tokens in the vocabulary${note}`);
  return line;
}

function drawCompare(f, position) {
  const d = f.data, ix = f.ix;
  const configs = (Array.isArray(d.configs) ? d.configs : []).map((c) => c || {});
  const cuts = configs.map((config) => {
    const step = runAt(config.steps, position - whole(d.lo, 0));
    const tokens = cutAt(config.history, step);
    return { step, size: runAt(config.sizes, step), tokens, spans: tokenSpans(ix, tokens, config.nbytes || {}) };
  });
  const n = compareCuts(ix, cuts);
  const count = el("div", "bv-cmp-count");
  count.append(el("b", null, differencesCaption(n, cuts)));
  count.dataset.differing = String(n);
  const parts = [count];
  cuts.forEach((cut, i) => {
    parts.push(heading(d, configs[i], i, position, cut.step, cut.size), cutBox(d, configs[i], i, ix, cut));
  });
  f.root.setAttribute("data-bpeviz-position", String(position));
  f.root.replaceChildren(...parts);
  debug("compare", position, n);
}

// -- entry -----------------------------------------------------------------------------

// A card, words, tokens or compare element: drawn at the bar's step when the bar is of
// its history (data.hist), clamped into its own range (data.lo..data.n); at its own step
// (data.step) until then. A redraw that fails is reported and the last drawing stays.
function follower(component, data, build, draw) {
  const root = component.parentElement;
  let f = root.__bvFollower;
  if (!f || !f.root.isConnected) {
    f = { root: el("div", "bv-stage-" + data.role) };
    root.append(f.root);
    root.__bvFollower = f;
  }
  f.setTriggerValue = component.setTriggerValue;
  const st = store();
  if (f.listener) st.listeners.delete(f.listener);
  const same = f.data === data; // the same payload again: what build made still holds
  const before = f.data;
  f.data = data;
  if (build && !same) {
    try {
      build(f);
    } catch (err) {
      f.data = before; // what is drawn stays, with the data it was drawn from
      throw err;
    }
  }
  f.listener = guard(f, "redraw", (k) => {
    if (!f.root.isConnected) { st.listeners.delete(f.listener); return; }
    if (st.hist !== f.data.hist) return; // another bar's step (another training)
    draw(f, followStep(f.data, k));
  });
  st.listeners.add(f.listener);
  // the controls may not have run yet (or this page has none): draw Python's step
  // (Compare's cuts carry no step: the bar, drawn just before them, holds it)
  draw(f, followStep(data, st.step !== null && st.hist === data.hist ? st.step : null));
}

// `component` is what Streamlit's components v2 hands over: {parentElement, data,
// setTriggerValue}. bpeviz's offline slides (bpeviz/present/slides.py) mount the same roles
// with a plain object of that shape through window.bpevizStage.
// Data may come as UTF-8 JSON bytes (Compare's cuts: made once in Python and sent again
// unchanged, so Streamlit's message cache resends only a reference); parsed once per
// payload.
const PARSED = new WeakMap();
function payload(raw) {
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
      follower(component, expandCard(data), null, drawCard);
    } else if (data.role === "words") {
      follower(component, data, buildWords, drawWords);
    } else if (data.role === "tokens") {
      follower(component, data, buildTokens, drawTokens);
    } else if (data.role === "compare") {
      follower(component, data, buildCompare, drawCompare);
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

// for the unit tests (bpeviz/ui/stepper/tests/, run by `node --test`)
export {
  bounds, buildCompare, chip, clamp, compareCuts, cutAt, expandCard, followStep, hexText,
  keyAction, keyRows, namesTitle, payload, runAt, tokenSpans, versionAt, visibleText, whole,
};
