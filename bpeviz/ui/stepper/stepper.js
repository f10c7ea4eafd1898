// bpeviz stage component (Streamlit components v2): steps through the merges in the
// browser. One module, three roles chosen by data.role:
//   "controls": ◀ slider ▶, the step number (data-bpeviz-step), Play, speed, keys;
//   "card":     the merge card (left + right -> token, count);
//   "words":    the split of each word on screen at the current step;
//   "tokens":   a text cut into the tokens of the current step (Tokenize).
// The instances share one store (window.__bpevizStage): the controls own the step, the
// others redraw when it changes. Python hears of the step on release / pause (debounced
// trigger "step"); the rest of the page follows after its rerun.
// Text that came from users (words, tokens) arrives only in `data` and is drawn with
// textContent, never parsed as HTML.

const SYNC_DELAY_MS = 250; // quiet time after the last key before Python hears the step
const SPEEDS = ["1", "2", "4", "10"];
const RESEND_MS = 5000; // Python has not caught up with a report after this: send again
const RESEND_MAX_MS = 60000; // ... and twice as long after each resend, up to this
const PLAY_REPORT_MS = 1000; // while playing, Python hears the step at most this often

function store() {
  if (!window.__bpevizStage) {
    window.__bpevizStage = { step: null, n: 0, listeners: new Set(), redraws: 0 };
  }
  return window.__bpevizStage;
}

function notify(st) {
  st.redraws += 1;
  for (const fn of Array.from(st.listeners)) fn(st.step);
  st.lastRedraw = performance.now();
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

// labels[id] = [shown text, bytes in hex, index of its note in notes (when it has one)];
// part: the character a byte-level chip is part of, with its bytes ("" when whole)
function chip(labels, id, strong, isNew, notes, part) {
  const lab = labels[id] || ["?", ""];
  const c = el("span", isNew ? "bv-chip bv-new" : "bv-chip", lab[0]);
  c.setAttribute("style", chipStyle(id, strong));
  c.dataset.id = String(id);
  const note = notes && lab.length > 2 ? notes[lab[2]] : "";
  c.title = `id ${id} · ${lab[0]} · bytes ${lab[1]}` + (part ? ` · ${part}` : "")
    + (note ? ` · ${note}` : "");
  return c;
}

// a test can read what the stage did: set window.__bvDebug = [] before the page loads
function debug(...entry) {
  if (window.__bvDebug) window.__bvDebug.push([Math.round(performance.now()), ...entry]);
}

function fmt(n) {
  return Number(n).toLocaleString("en-US");
}

function clamp(k, n) {
  return Math.min(Math.max(k, 0), n);
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

// -- controls --------------------------------------------------------------------------

// What one step is called: a merge (the default) or, for Unigram, a pruning round
// (data.unit = {one: "round", many: "rounds", title: "Round"}).
const MERGE_UNIT = { one: "merge", many: "merges", title: "Step" };

function buildControls(root, s) {
  const u = s.unit;
  const bar = el("div", "bv-stage-bar");
  s.prev = el("button", "bv-stage-btn", "◀");
  s.prev.title = `Previous ${u.one} (←; Shift+← ten back)`;
  s.prev.setAttribute("aria-label", `Previous ${u.one}`);
  s.slider = el("input", "bv-stage-slider");
  s.slider.type = "range";
  s.slider.min = "0";
  s.slider.setAttribute("aria-label", u.one === "merge" ? "Merge step" : `${u.title} (slider)`);
  s.next = el("button", "bv-stage-btn", "▶");
  s.next.title = `Next ${u.one} (→; Shift+→ ten on)`;
  s.next.setAttribute("aria-label", `Next ${u.one}`);
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
    const per = u.one === "merge" ? (v === "1" ? "step" : "steps") : (v === "1" ? u.one : u.many);
    const b = el("button", "bv-stage-speed", `${v} ${per}/s`);
    b.dataset.speed = v;
    b.setAttribute("role", "radio");
    b.addEventListener("click", () => { s.speed = v; drawSpeed(s); if (s.playing) restartPlay(s); });
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
  const rows = [["← / →", `one ${u.one} back / on`], ["Shift + ← / →", `ten ${u.many} back / on`],
    ["Home / End", `the first / the last ${u.one}`],
    ["Page Down / Page Up", `one ${u.one} on / back (a presenter's clicker)`], ["Space", "play / pause"],
    ["?", "show / hide these keys"]];
  const table = el("table");
  for (const [k, what] of rows) {
    const tr = el("tr");
    tr.append(el("td", "bv-stage-key", k), el("td", null, what));
    table.append(tr);
  }
  s.keys.append(el("div", "bv-muted", "Keys work anywhere on the page except in a text box."), table);
  root.append(bar, bar2, s.keys);

  s.prev.addEventListener("click", () => move(s, s.step - 1));
  s.next.addEventListener("click", () => move(s, s.step + 1));
  s.slider.addEventListener("input", () => { s.dragging = true; setStep(s, Number(s.slider.value)); });
  s.slider.addEventListener("change", () => { s.dragging = false; setStep(s, Number(s.slider.value)); scheduleSync(s, 0); });
  s.slider.addEventListener("keydown", (e) => {
    // the page-wide handler does the stepping; keep the range input from doing it twice
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown"].includes(e.key)) e.preventDefault();
  });
  s.play.addEventListener("click", () => togglePlay(s));
  s.help.addEventListener("click", () => { s.keys.hidden = !s.keys.hidden; });
}

function drawSpeed(s) {
  for (const [v, b] of Object.entries(s.speedButtons)) {
    const on = v === s.speed;
    b.classList.toggle("bv-on", on);
    b.setAttribute("aria-checked", on ? "true" : "false");
  }
}

function drawControls(s) {
  const k = s.step;
  s.slider.max = String(s.n);
  if (Number(s.slider.value) !== k) s.slider.value = String(k);
  s.prev.disabled = k <= 0;
  s.next.disabled = k >= s.n;
  s.stepBox.textContent = `${s.unit.title} ${fmt(k)} of ${fmt(s.n)}`;
  s.stepBox.setAttribute("data-bpeviz-step", String(k));
  s.play.textContent = s.playing ? "⏸ Pause" : "▶ Play";
  s.play.classList.toggle("bv-on", s.playing);
  s.note.textContent = s.playing && !s.standalone
    ? "While playing, the rest of the page follows about once a second." : "";
}

function setStep(s, k) {
  k = clamp(Math.round(k), s.n);
  s.step = k;
  const st = store();
  st.step = k;
  st.n = s.n;
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
  s.syncTimer = setTimeout(() => sync(s), delay);
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
  s.resendTimer = setTimeout(() => resend(s), s.resendDelay);
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
    s.resendTimer = setTimeout(() => resend(s), 1000);
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
  const tick = () => {
    if (!s.playing || !s.root.isConnected) return;
    // the step follows the clock, so a slow frame never slows the rate down
    const due = s.playFrom + Math.floor((performance.now() - s.playStart) / period);
    const k = clamp(due, s.n);
    if (k !== s.step) setStep(s, k);
    if (k >= s.n) { stopPlay(s); return; }
    reportWhilePlaying(s);
    const next = s.playStart + (k - s.playFrom + 1) * period;
    s.playTimer = setTimeout(tick, Math.max(0, next - performance.now()));
  };
  s.playTimer = setTimeout(tick, period);
}

function togglePlay(s) {
  if (s.playing) { stopPlay(s); return; }
  if (s.n === 0) return;
  clearTimeout(s.syncTimer);
  if (s.step >= s.n) setStep(s, 0);
  s.playing = true;
  drawControls(s);
  restartPlay(s);
}

function onKey(s, e) {
  if (!s.root.isConnected) { document.removeEventListener("keydown", s.keyHandler, true); return; }
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (typingIn(e.target)) return;
  const inside = e.target && e.target.closest && e.target.closest(".bv-stage");
  let k = null;
  switch (e.key) {
    case "ArrowRight": k = s.step + (e.shiftKey ? 10 : 1); break;
    case "ArrowLeft": k = s.step - (e.shiftKey ? 10 : 1); break;
    case "PageDown": k = s.step + 1; break; // a presenter's clicker
    case "PageUp": k = s.step - 1; break;
    case "Home": k = 0; break;
    case "End": k = s.n; break;
    case " ": case "Spacebar": {
      const tag = (e.target.tagName || "").toLowerCase();
      if (!inside && (tag === "button" || tag === "a")) return; // that control's own key
      e.preventDefault();
      if (!e.repeat) togglePlay(s);
      return;
    }
    case "?": s.keys.hidden = !s.keys.hidden; e.preventDefault(); return;
    case "Escape": if (!s.keys.hidden) { s.keys.hidden = true; } return;
    default: return;
  }
  e.preventDefault();
  if (s.playing) stopPlay(s);
  move(s, k);
}

function controls(component, data) {
  const root = component.parentElement;
  let s = root.__bvStage;
  const fresh = !s || !s.root.isConnected;
  if (fresh) {
    s = { root: el("div", "bv-stage"), step: 0, n: 0, speed: "1", playing: false,
          dragging: false, pending: false, seq: data.seq || 0, pyStep: null, pySeq: 0,
          pySpeed: null, hist: null, unit: { ...MERGE_UNIT, ...(data.unit || {}) } };
    root.append(s.root);
    root.__bvStage = s;
    buildControls(s.root, s);
    s.keyHandler = (e) => onKey(s, e);
    document.addEventListener("keydown", s.keyHandler, true);
  }
  s.setTriggerValue = component.setTriggerValue || (() => {});
  s.standalone = Boolean(data.standalone);
  const py = data.step;
  const newHistory = s.hist !== data.hist;
  s.n = data.n;
  s.hist = data.hist;
  s.pyStep = py;
  s.pySeq = data.seq || 0;
  s.pySpeed = data.speed;
  if (fresh) s.speed = SPEEDS.includes(data.speed) ? data.speed : "1";
  drawSpeed(s);
  // A fresh mount (a rerun re-created the bar) keeps the step of the bar it replaces when
  // Python had not heard it yet, instead of going back to Python's older step.
  const before = store().controls;
  const carried = fresh && before && before !== s && !before.root.isConnected
    && before.hist === data.hist && (before.pending || before.pySeq < before.seq)
    && (data.seq || 0) <= before.seq;
  store().controls = s;
  if (carried) {
    clearTimeout(before.syncTimer);
    clearTimeout(before.resendTimer);
    clearTimeout(before.playTimer);
    s.seq = before.seq;
    debug("carried", before.step, before.seq);
    setStep(s, before.step);
    scheduleSync(s, 0);
    return;
  }
  const caughtUp = s.pySeq >= s.seq && !s.pending && !s.playing && !s.dragging;
  debug("render", py, s.pySeq, s.step, s.seq, fresh, newHistory, caughtUp, s.pending);
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

// The card's data comes compact (bpeviz.views.stage_merges): columns of ids, and labels
// only where a merged token's label is not left + right. Rebuilt here once per history,
// as bpeviz.views.expand_stage_merges does.
function expandCard(data) {
  if (!data.mergeCols) return data;
  const st = store();
  if (st.cardHist === data.hist && st.cardCols === data.mergeCols) return { ...data, ...st.card };
  const cols = data.mergeCols;
  const labels = data.labels.base.slice();
  for (const [i, row] of Object.entries(data.labels.extra)) labels[Number(i)] = row;
  const merges = new Array(cols.left.length);
  for (let k = 0; k < merges.length; k++) {
    const l = cols.left[k], r = cols.right[k], t = cols.token[k];
    merges[k] = [l, r, t, cols.text ? cols.text[k] : `count ${fmt(cols.count[k])}`];
    if (labels[t] === undefined) {
      const a = labels[l] || ["?", ""], b = labels[r] || ["?", ""];
      labels[t] = [a[0] + b[0], `${a[1]} ${b[1]}`.trim()];
    }
  }
  const noteOf = data.noteOf || [];
  for (let i = 0; i < noteOf.length; i++) {
    if (noteOf[i] >= 0 && labels[i]) labels[i] = [labels[i][0], labels[i][1], noteOf[i]];
  }
  st.cardHist = data.hist;
  st.cardCols = data.mergeCols;
  st.card = { merges, labels };
  return { ...data, merges, labels };
}

function drawCard(c, k) {
  const d = c.data;
  const merges = d.merges;
  c.root.replaceChildren();
  const card = el("div", "bv-card");
  const one = (m, box) => {
    box.append(chip(d.labels, m[0], d.strong, false, d.notes), " + ",
      chip(d.labels, m[1], d.strong, false, d.notes),
      el("span", "bv-arrow", "→"), chip(d.labels, m[2], d.strong, true, d.notes),
      " ", el("span", "bv-muted bv-nums", `${m[3]} · id ${m[2]}`));
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
  c.root.append(card);
}

// -- words -----------------------------------------------------------------------------

function drawWords(w, k) {
  const d = w.data;
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
        const part = parts && parts[i] >= 0 ? d.notes[parts[i]] : "";
        if (count <= d.maxChips) chips.push(chip(d.labels, tokens[i], d.strong, k > 0 && steps[i] === k, d.notes, part));
      }
    }
    if (count > d.maxChips) chips.push(el("span", "bv-muted", ` … and ${fmt(count - d.maxChips)} more`));
    cell.replaceChildren(...chips);
    tr.className = changed ? "bv-changed" : "";
    badge.hidden = !changed;
  }
}

function buildWords(w) {
  const d = w.data;
  w.root.replaceChildren();
  const table = el("table", "bv-words");
  const head = el("tr");
  head.append(el("th", "bv-num", "#"), el("th", null, "word"), el("th", "bv-num", "count"), el("th", null, "split"));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  w.rows = [];
  for (const [index, word, count, tokens, steps, untils, parts] of d.words) {
    const tr = el("tr");
    const wordCell = el("td", null, word);
    const badge = el("span", "bv-badge", "changed");
    wordCell.append(badge);
    const cell = el("td");
    tr.append(el("td", "bv-num", String(index + 1)), wordCell, el("td", "bv-num", fmt(count)), cell);
    body.append(tr);
    w.rows.push({ nodes: [tokens, steps, untils, parts], cell, tr, badge });
  }
  table.append(thead, body);
  w.root.append(table);
}

// -- tokens (Tokenize) -----------------------------------------------------------------
// data.text: the text; data.words: [offset, form] per word (offsets in code points);
// data.forms[form]: [[step, ids, starts, ends, flags], ...] (flags 1 partial, 2 unknown)

const SHOWN_WS = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍" };
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Mn}\p{Me}]+$/u;

function visibleText(s) {
  let out = "";
  for (const ch of s) {
    if (SHOWN_WS[ch]) out += SHOWN_WS[ch] + (ch === "\n" ? "\n" : "");
    else if (/[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u.test(ch) && ch !== "\u200d")
      out += `⟨U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
    else out += ch;
  }
  return out;
}

// a text's UTF-8 bytes in hex, as Python's bytes.hex(" ") writes them
function utf8Hex(s) {
  return Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, "0")).join(" ");
}

function buildTokens(t) {
  t.chars = Array.from(t.data.text || "");
}

function versionAt(versions, k) {
  let chosen = versions[0], before = null;
  for (const v of versions) {
    if (v[0] <= k) { before = chosen; chosen = v; } else break;
  }
  return [chosen, before];
}

function drawTokens(t, k) {
  const d = t.data;
  const chars = t.chars;
  const show = (a, b) => {
    const s = chars.slice(a, b).join("");
    return d.showWs ? visibleText(s) : s;
  };
  const box = el("div", "bv-tokens");
  let pos = 0, count = 0, rest = 0;
  for (const [offset, form] of d.words) {
    const [v, before] = versionAt(d.forms[form], k);
    const [vstep, ids, starts, ends, flags] = v;
    const fresh = vstep === k && k > 0;
    const old = new Set();
    if (fresh && before) before[1].forEach((id, j) => old.add(`${id}:${before[2][j]}:${before[3][j]}`));
    for (let j = 0; j < ids.length; j++) {
      if (count >= d.maxTokens) { rest += 1; continue; }
      const start = offset + starts[j], end = offset + ends[j];
      if (start > pos) box.append(el("span", "bv-gap", show(pos, start)));
      const id = ids[j];
      const lab = d.labels[id] || [d.unkText, ""];
      const partial = (flags[j] & 1) !== 0, unk = (flags[j] & 2) !== 0;
      let shown = partial ? lab[0] : show(start, end);
      if (!partial && (!shown.trim() || INVISIBLE.test(shown))) shown = lab[0];
      const c = el("span", "bv-chip", shown);
      c.setAttribute("style", chipStyle(id, d.strong));
      c.dataset.id = String(id);
      if (partial) c.classList.add("bv-partial");
      if (unk) c.classList.add("bv-unk");
      if (fresh && !old.has(`${id}:${starts[j]}:${ends[j]}`)) c.classList.add("bv-new");
      const whole = chars.slice(start, end).join("");
      const mark = d.notes && lab.length > 2 ? d.notes[lab[2]] : "";  // what its marks mean
      c.title = `id ${id} · ${lab[0]} · bytes ${lab[1] || "-"}`
        + (partial ? ` · part of the character “${whole}” (its bytes: ${utf8Hex(whole)})` : "")
        + (unk ? " · unknown" : "") + (mark ? ` · ${mark}` : "");
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

// -- entry -----------------------------------------------------------------------------

function follower(component, data, build, draw) {
  const root = component.parentElement;
  let f = root.__bvFollower;
  if (!f || !f.root.isConnected) {
    f = { root: el("div", "bv-stage-" + data.role) };
    root.append(f.root);
    root.__bvFollower = f;
  }
  const st = store();
  if (f.listener) st.listeners.delete(f.listener);
  f.data = data;
  if (build) build(f);
  f.listener = (k) => {
    if (!f.root.isConnected) { st.listeners.delete(f.listener); return; }
    draw(f, k);
  };
  st.listeners.add(f.listener);
  // the controls may not have run yet (or this page has none): draw Python's step
  const k = st.step !== null && st.hist === data.hist ? clamp(st.step, data.n) : data.step;
  draw(f, k);
}

// `component` is what Streamlit's components v2 hands over: {parentElement, data,
// setTriggerValue}. bpeviz's offline slides (bpeviz/slides.py) mount the same roles
// with a plain object of that shape through window.bpevizStage.
function mount(component) {
  const data = component.data || {};
  const st = store();
  if (data.role === "controls") {
    st.hist = data.hist;
    controls(component, data);
  } else if (data.role === "card") {
    follower(component, expandCard(data), null, drawCard);
  } else if (data.role === "words") {
    follower(component, data, buildWords, drawWords);
  } else if (data.role === "tokens") {
    follower(component, data, buildTokens, drawTokens);
  }
  return () => {};
}

if (typeof window !== "undefined") window.bpevizStage = mount;
export default mount;
