// Views only Python draws (the Vocabulary page's table, tree and charts) sit in a
// container with a mark (role "drawn"): while the bar is at another step than the one
// Python drew them for, the container is dimmed and the mark names both steps, in the
// same redraw as the bar's step; Python's next run clears it. A fake DOM and clock
// (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const N = 30;
const bar = (step) => ({ role: "controls", step, lo: 0, n: N, speed: "1", seq: 0, hist: "h" });
const drawn = (step, over = {}) => ({ role: "drawn", step, n: N, hist: "h", ...over });

// the container Python keys "bv_drawn_vocabulary", the mark's element inside it
function views() {
  let box = doc.querySelector(".st-key-bv_drawn_vocabulary");
  if (!box) {
    box = doc.createElement("div");
    box.className = "stVerticalBlock st-key-bv_drawn_vocabulary";
    doc.body.append(box);
    const where = doc.createElement("div");
    where.setAttribute("id", "mark");
    box.append(where);
  }
  return box;
}
const note = () => host(doc, "mark").querySelector(".bv-drawn-note");

test("the views are marked behind from the key that leaves their step until Python's run", () => {
  const box = views();
  mountIn(mount, doc, "bar", bar(12));
  mountIn(mount, doc, "mark", drawn(12));
  assert.equal(box.classList.contains("bv-behind"), false);
  assert.equal(note(), null, "no note while they show the bar's step");
  doc.press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 13);
  assert.equal(box.classList.contains("bv-behind"), true, "dimmed in the key's redraw");
  assert.equal(box.getAttribute("data-bpeviz-follows"), "13");
  assert.equal(note().textContent,
    "These views show step 12; step 13 follows when the step settles.");
  doc.press("ArrowLeft"); // back on the step they show: nothing to say
  assert.equal(box.classList.contains("bv-behind"), false);
  assert.equal(box.getAttribute("data-bpeviz-follows"), null);
  doc.press("End");
  assert.match(note().textContent, /show step 12; step 30 follows/);
  // Python's run for the bar's step (the same payload but its step) clears the mark
  mountIn(mount, doc, "mark", drawn(30));
  assert.equal(box.classList.contains("bv-behind"), false);
  assert.equal(note(), null);
});

test("the mark follows only its own training's bar, and names the unit it is given", () => {
  const box = views();
  mountIn(mount, doc, "bar", bar(3));
  mountIn(mount, doc, "mark", drawn(3, { hist: "other", unit: "round" }));
  doc.press("ArrowRight");
  assert.equal(box.classList.contains("bv-behind"), false, "another training's bar");
  mountIn(mount, doc, "mark", drawn(2, { unit: "round" }));
  assert.equal(box.classList.contains("bv-behind"), true);
  assert.equal(note().textContent,
    "These views show round 2; round 4 follows when the round settles.");
});

test("a mark out of view is drawn in the key's redraw all the same", () => {
  const box = views();
  const observed = [];
  globalThis.IntersectionObserver = class {
    constructor(report) { this.report = report; }
    observe(e) { observed.push(e); this.report([{ isIntersecting: false }]); }
  };
  try {
    mountIn(mount, doc, "bar", bar(5));
    mountIn(mount, doc, "mark", drawn(5));
    doc.press("ArrowRight");
    assert.equal(box.classList.contains("bv-behind"), true);
    assert.equal(observed.length, 0, "its sight is never watched");
  } finally {
    delete globalThis.IntersectionObserver;
  }
});
