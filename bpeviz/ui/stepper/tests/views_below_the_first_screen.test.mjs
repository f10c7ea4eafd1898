// When Python hears the step, given where Python's views of the settled step are: while
// the page has some ("st-key-bv_settles..." containers) and none is in view, a speaker's
// keys are heard only once they have been still for a while, so that no rerun's drawing
// lands between two keys; a scroll that brings one into view sends the step then; with
// one in view a single key is heard at once (the person is looking at what Python
// draws); a page without them waits a short quiet time after each key.
// A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount, settleDelay, settlesView, settlingOutOfView } = await loadStage();

let doc, clock, restore;
beforeEach(() => {
  ({ doc, clock, restore } = setUp());
  globalThis.window.innerHeight = 720;
});
afterEach(() => restore());

const bar = (over = {}) => ({ role: "controls", step: 10, lo: 0, n: 200, speed: "1", seq: 0,
  hist: "h", ...over });

// a container of Python's views of the step, drawn `top` px below the viewport's top
function settling(top, height = 900, key = "bv_settles_explore") {
  const e = doc.createElement("div");
  e.className = `stVerticalBlock st-key-${key}`;
  e.rect = { top, height };
  doc.body.append(e);
  return e;
}

const reports = (sent) => sent.filter(([name]) => name === "step").map(([, v]) => v.step);

test("the quiet time: from rest, in a rhythm, held back while the views are out of view, "
  + "short for a single key while one is in view", () => {
    assert.equal(settleDelay(Infinity), 250);
    assert.equal(settleDelay(350), 525);
    assert.equal(settleDelay(2000), 250);
    assert.equal(settleDelay(Infinity, "none"), 250);
    assert.equal(settleDelay(Infinity, "away"), 1200);
    assert.equal(settleDelay(350, "away"), 1200);
    assert.equal(settleDelay(NaN, "away"), 1200);
    assert.equal(settleDelay(Infinity, "seen"), 40);
    assert.equal(settleDelay(2000, "seen"), 40);
    assert.equal(settleDelay(350, "seen"), 525, "keys in a rhythm are heard when they stop");
  });

test("views count as out of view only where the page has some and none is in the viewport",
  () => {
    assert.equal(settlingOutOfView(doc, 720), false, "a page without them");
    assert.equal(settlesView(doc, 720), "none");
    const below = settling(900);
    assert.equal(settlingOutOfView(doc, 720), true);
    below.rect = { top: 684, height: 900 }; // a strip of it at the screen's foot
    assert.equal(settlingOutOfView(doc, 720), true);
    assert.equal(settlesView(doc, 720), "away");
    below.rect = { top: 600, height: 900 }; // its top on screen
    assert.equal(settlingOutOfView(doc, 720), false);
    assert.equal(settlesView(doc, 720), "seen");
    below.rect = { top: 680, height: 30 }; // small, and whole on screen
    assert.equal(settlingOutOfView(doc, 720), false);
    below.rect = { top: -2000, height: 900 }; // scrolled past it, upwards
    assert.equal(settlingOutOfView(doc, 720), true);
    below.rect = { top: -500, height: 900 }; // its lower part fills the screen
    assert.equal(settlingOutOfView(doc, 720), false);
    below.rect = { top: 100, height: 0 }; // not drawn (a collapsed page)
    assert.equal(settlingOutOfView(doc, 720), true);
    settling(300, 200, "bv_settles_other"); // a second one, in view
    assert.equal(settlingOutOfView(doc, 720), false);
  });

test("a speaker's keys, with Python's views below the first screen, are heard once they stop",
  () => {
    settling(900);
    const sent = mountIn(mount, doc, "bar", bar());
    // the first key after a pause, then keys at an uneven pace (a long task delays some)
    for (const gap of [350, 505, 184, 350, 350, 700, 350]) {
      doc.press("ArrowRight");
      clock.advance(gap);
    }
    assert.deepEqual(reports(sent), [], "nothing between the keys");
    assert.equal(shownStep(doc, "bar"), 17, "the bar follows every key");
    clock.advance(1200 - 350 - 1);
    assert.deepEqual(reports(sent), []);
    clock.advance(1);
    assert.deepEqual(reports(sent), [17], "one report, 1.2 s after the last key");
  });

test("scrolling Python's views into view sends a step held back at once", () => {
  const below = settling(900);
  const sent = mountIn(mount, doc, "bar", bar());
  doc.press("ArrowRight");
  doc.press("ArrowRight");
  clock.advance(100);
  doc.scroll(); // a scroll that leaves them out of view changes nothing
  clock.advance(300);
  assert.deepEqual(reports(sent), []);
  below.rect = { top: 400, height: 900 };
  doc.scroll();
  clock.advance(39);
  assert.deepEqual(reports(sent), []);
  clock.advance(1);
  assert.deepEqual(reports(sent), [12], "heard 40 ms after they came into view");
  clock.advance(3000);
  assert.deepEqual(reports(sent), [12], "and once");
});

test("with Python's views in view a single key is heard at once; on a page without them "
  + "after a short quiet time", () => {
    for (const [top, quiet] of [[400, 40], [null, 250]]) {
      restore();
      ({ doc, clock, restore } = setUp());
      globalThis.window.innerHeight = 720;
      if (top !== null) settling(top);
      const sent = mountIn(mount, doc, "bar", bar());
      doc.press("ArrowRight");
      clock.advance(quiet - 1);
      assert.deepEqual(reports(sent), [], `views at ${top}`);
      clock.advance(1);
      assert.deepEqual(reports(sent), [11], `views at ${top}`);
      doc.scroll(); // nothing held back: a scroll sends nothing
      clock.advance(1000);
      assert.deepEqual(reports(sent), [11]);
    }
  });

test("keys in a rhythm with Python's views in view are heard when they stop", () => {
  settling(400);
  const sent = mountIn(mount, doc, "bar", bar());
  doc.press("ArrowRight");
  clock.advance(40);
  assert.deepEqual(reports(sent), [11], "the first key, alone so far, is heard at once");
  for (let i = 0; i < 4; i += 1) {
    clock.advance(310);
    doc.press("ArrowRight");
  }
  clock.advance(464);
  assert.deepEqual(reports(sent), [11], "nothing between keys 0.35 s apart");
  clock.advance(1);
  assert.deepEqual(reports(sent), [11, 15], "then one report, 1.5 gaps after the last key");
});

// A report sent while a person looks at Python's views below says so ("below"): Python
// then sends those views before the first screen, which the browser already drew.
test("a report says when Python's views below were in view as it was sent", () => {
  const below = settling(400);
  const sent = mountIn(mount, doc, "bar", bar());
  const bodies = () => sent.filter(([name]) => name === "step").map(([, v]) => v);
  doc.press("ArrowRight");
  clock.advance(40);
  assert.equal(bodies().at(-1).below, true);
  below.rect = { top: 2000, height: 900 }; // scrolled back up to the card
  doc.press("ArrowRight");
  clock.advance(1200);
  assert.deepEqual(bodies().at(-1), { step: 12, speed: "1", seq: 2 }, "not said when away");
});
