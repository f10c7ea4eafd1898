// The step bar's drawing (role "controls"): ◀ slider ▶, the step (data-bpeviz-step),
// Play, the speeds, the "?" list of keys. Its elements are made here (buildBar) and
// redrawn for the bar's state `s`; what they do is bar.mjs's.

import { el } from "./chips.mjs";
import { buttonLabel, buttonTitle, KEYS_WHERE, keyRows } from "./keys.mjs";
import { fmt } from "./numbers.mjs";

export const SPEEDS = ["1", "2", "4", "10"];

let landmarkLists = 0; // each bar's datalist of landmarks has its own id

// the steps where a phase starts (data.landmarks: [[step, what it is from there, its
// kind (optional: "removal")], ...]; SuperBPE's stages, PickyBPE's merges and removals):
// ticks on the slider, kept sorted in s.landmarks
export function drawLandmarks(s, data) {
  const found = (Array.isArray(data.landmarks) ? data.landmarks : [])
    .filter((m) => Array.isArray(m) && Number.isInteger(Number(m[0])))
    .map((m) => [Number(m[0]), String(m[1] ?? ""), String(m[2] ?? "")])
    .sort((a, b) => a[0] - b[0]);
  s.landmarks = found;
  s.ticks.replaceChildren(...found.filter(([k]) => k > s.lo).map(([k, what]) => {
    const o = el("option");
    o.value = String(k);
    o.label = what;
    return o;
  }));
  if (found.length) s.slider.setAttribute("list", s.ticks.id);
  else s.slider.removeAttribute("list");
}

// what phase step k is in: the last landmark at or before it ("" for none)
export function phaseAt(landmarks, k) {
  return landmarkAt(landmarks, k)[1];
}

// the last landmark at or before step k, [step, name, kind] (["", "", ""] for none)
export function landmarkAt(landmarks, k) {
  let found = ["", "", ""];
  for (const m of landmarks || []) if (m[0] <= k) found = m;
  return [found[0], found[1] ?? "", found[2] ?? ""];
}

// the bar's elements, kept in `s` (s.prev, s.slider, s.play, s.speedButtons, ...)
export function buildBar(root, s) {
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
  s.play.title = buttonTitle("play");
  const speeds = el("div", "bv-stage-speeds");
  speeds.setAttribute("role", "radiogroup");
  speeds.setAttribute("aria-label", "Speed");
  s.speedButtons = {};
  for (const v of SPEEDS) {
    const b = el("button", "bv-stage-speed", `${v} step${v === "1" ? "" : "s"}/s`);
    b.dataset.speed = v;
    b.setAttribute("role", "radio");
    s.speedButtons[v] = b;
    speeds.append(b);
  }
  s.help = el("button", "bv-stage-btn bv-stage-help", "?");
  s.help.title = buttonTitle("help");
  s.help.setAttribute("aria-label", buttonLabel("help"));
  s.note = el("span", "bv-muted bv-stage-note");
  s.phase = el("span", "bv-stage-phase"); // the phase of the step (data.landmarks)
  s.ticks = el("datalist"); // the landmarks as ticks on the slider
  s.ticks.id = `bv-landmarks-${++landmarkLists}`;
  bar2.append(s.play, speeds, s.help, s.phase, s.note, s.ticks);

  s.keys = el("div", "bv-stage-keys");
  s.keys.hidden = true;
  s.keyTable = el("table");
  s.keys.append(el("div", "bv-muted", KEYS_WHERE), s.keyTable);
  root.append(bar, bar2, s.keys);
}

// the words for one move of the control (data.unit, data.units, data.name): a merge on
// Explore, a position on Compare
export function drawUnitWords(s, data) {
  const unit = data.unit || "merge", units = data.units || `${unit}s`;
  if (s.unit === unit && s.units === units && s.name === (data.name || "Step")) return;
  s.unit = unit; s.units = units; s.name = data.name || "Step";
  s.prev.title = buttonTitle("prev", unit, units);
  s.prev.setAttribute("aria-label", buttonLabel("prev", unit, units));
  s.next.title = buttonTitle("next", unit, units);
  s.next.setAttribute("aria-label", buttonLabel("next", unit, units));
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

export function drawSpeed(s) {
  for (const [v, b] of Object.entries(s.speedButtons)) {
    const on = v === s.speed;
    b.classList.toggle("bv-on", on);
    b.setAttribute("aria-checked", on ? "true" : "false");
  }
}

export function drawControls(s) {
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
  const [, phase, kind] = landmarkAt(s.landmarks, k);
  s.phase.textContent = phase;
  if (kind) s.phase.setAttribute("data-kind", kind); // a removal stands out (stepper.css)
  else s.phase.removeAttribute("data-kind");
  s.play.textContent = s.playing ? "⏸ Pause" : "▶ Play";
  s.play.classList.toggle("bv-on", s.playing);
  s.note.textContent = s.playing && !s.standalone
    ? "While playing, the rest of the page waits: it follows when you pause." : "";
  drawBox(s);
}

// Python's "Go to step" box beside the bar (its widget's key starts with data.box) shows
// the bar's step as the bar moves, not only once Python hears it: written into its input
// unless the input has the focus (someone typing in it). Python's next run draws the box
// afresh, with the step it heard.

// the box's key prefix as data.box sends it, or "" when there is none (or it is no key:
// it goes into a selector)
export function boxKey(sent) {
  return typeof sent === "string" && /^[A-Za-z0-9_-]+$/.test(sent) ? sent : "";
}

// the selector of the box's container (Streamlit classes it "st-key-" + its key)
export function boxSelector(s) {
  return `[class*="st-key-${s.box}"]`;
}

export function drawBox(s) {
  if (!s.box || typeof document === "undefined") return;
  const want = String(s.step);
  for (const input of document.querySelectorAll(`${boxSelector(s)} input`)) {
    if (input !== document.activeElement && input.value !== want) input.value = want;
  }
}
