// A follower out of view (the word table below the first screen) draws a key's step in
// the frame after the key's, so that the key's frame lays out only what a person sees;
// it says which step it still owes meanwhile, draws the latest one only, and draws at
// once when scrolled into view. One in view, or any before the browser has said where it
// is, draws in the key's own frame.
// A fake DOM and clock (stage.mjs), a fake IntersectionObserver and frame callbacks.
// run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, clock, restore, watched, frames;
beforeEach(() => {
  ({ doc, clock, restore } = setUp());
  watched = new Map(); // element -> its observer's callback
  frames = [];
  globalThis.IntersectionObserver = class {
    constructor(callback) { this.callback = callback; }
    observe(e) { watched.set(e, this.callback); }
    disconnect() {}
  };
  globalThis.requestAnimationFrame = (fn) => frames.push(fn);
});
afterEach(() => {
  delete globalThis.IntersectionObserver;
  delete globalThis.requestAnimationFrame;
  restore();
});

const bar = { role: "controls", step: 0, lo: 0, n: 3, speed: "1", seq: 0, hist: "h" };
// "low" is l o w at 0, lo w at 1, low at 2 and 3
const words = { role: "words", step: 0, n: 3, hist: "h", maxChips: 200, words: [
  [0, "low", 5, [1, 2, 3, 4, 5], [0, 0, 0, 1, 2], [1, 1, 2, 2, 9]]] };
const chips = () => host(doc, "words").querySelectorAll(".bv-chip").length;
const owed = () => host(doc, "words").querySelector(".bv-stage-words")
  .getAttribute("data-bpeviz-follows");

// the browser says where the words are (after a layout, as it does)
function sight(inView) {
  const root = host(doc, "words").querySelector(".bv-stage-words");
  watched.get(root)([{ target: root, isIntersecting: inView }]);
}

// the next frame is drawn: its callbacks run, then the tasks they posted
function nextFrame() {
  const due = frames.splice(0);
  for (const fn of due) fn();
  clock.advance(0);
}

test("out of view: the key's frame leaves the words, the frame after draws the step", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  assert.equal(chips(), 3);
  sight(false);

  doc.press("ArrowRight");
  assert.equal(chips(), 3, "not drawn in the key's frame");
  assert.equal(owed(), "1", "it says which step it owes");
  nextFrame();
  assert.equal(chips(), 2, "drawn in the frame after");
  assert.equal(owed(), null);
});

test("keys faster than frames: only the latest step is drawn, once", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  sight(false);
  doc.press("ArrowRight");
  doc.press("ArrowRight");
  assert.equal(owed(), "2");
  assert.equal(frames.length, 1, "one frame callback for both keys");
  nextFrame();
  assert.equal(chips(), 1);
  assert.equal(owed(), null);
  nextFrame(); // nothing left to draw
  assert.equal(chips(), 1);
});

test("scrolled into view with a step owed: drawn at once, and keys then draw in their frame",
  () => {
    const sent = mountIn(mount, doc, "bar", bar);
    mountIn(mount, doc, "words", words, sent);
    sight(false);
    doc.press("ArrowRight");
    assert.equal(chips(), 3);
    sight(true);
    assert.equal(chips(), 2, "drawn as it comes into view");
    assert.equal(owed(), null);
    nextFrame(); // the queued late draw finds nothing owed
    assert.equal(chips(), 2);
    doc.press("ArrowRight");
    assert.equal(chips(), 1, "in view: drawn in the key's frame");
  });

test("before the browser says where it is, and in view, a follower draws with the key", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  doc.press("ArrowRight");
  assert.equal(chips(), 2);
  sight(true);
  doc.press("ArrowRight");
  assert.equal(chips(), 1);
  assert.equal(frames.length, 0);
});

test("a rerun's data while a step is owed draws the bar's step and owes nothing", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  sight(false);
  doc.press("ArrowRight");
  mountIn(mount, doc, "words", { ...words, step: 1 }, sent);
  assert.equal(chips(), 2);
  assert.equal(owed(), null);
});

// a costly panel (the pair heatmap): out of view it draws once the bar has rested
const panelAt = (k) => [["p", { class: "bv-hm-caption" }, `step ${k}`]];
const costly = { role: "panel", step: 0, n: 3, hist: "h", costly: true,
  views: { 0: panelAt(0), 1: panelAt(1), 2: panelAt(2), 3: panelAt(3) } };
const panelRoot = () => host(doc, "heatmap").querySelector(".bv-stage-panel");
function panelSight(inView) {
  watched.get(panelRoot())([{ target: panelRoot(), isIntersecting: inView }]);
}

test("a costly panel out of view draws only once the bar rests, the latest step once", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "heatmap", costly, sent);
  assert.equal(panelRoot().textContent, "step 0");
  panelSight(false);
  doc.press("ArrowRight");
  nextFrame();
  assert.equal(panelRoot().textContent, "step 0", "not in the frame after the key");
  assert.equal(panelRoot().getAttribute("data-bpeviz-follows"), "1");
  clock.advance(100);
  doc.press("ArrowRight"); // before the rest is over: the wait starts again
  clock.advance(100);
  assert.equal(panelRoot().textContent, "step 0");
  clock.advance(60);
  assert.equal(panelRoot().textContent, "step 2", "the bar rested: its step drawn");
  assert.equal(panelRoot().getAttribute("data-bpeviz-follows"), null);
  doc.press("ArrowRight");
  panelSight(true); // scrolled into view: at once
  assert.equal(panelRoot().textContent, "step 3");
  clock.advance(500);
  assert.equal(panelRoot().textContent, "step 3");
  doc.press("ArrowLeft"); // in view: with the key
  assert.equal(panelRoot().textContent, "step 2");
});
