// A view Python drew for the steps around its own ("Why this merge?") follows the bar's
// step in the same redraw as the card; at a step it was not sent it says the view is
// coming, never showing another step's. A fake DOM and clock (stage.mjs); run:
// node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const N = 50;
const bar = (step) => ({ role: "controls", step, lo: 0, n: N, speed: "1", seq: 0, hist: "h" });
// Python's window around step 10: steps 8..14
const views = Object.fromEntries([8, 9, 10, 11, 12, 13, 14].map((k) => [String(k),
  `<div class="bv-why" data-step="${k}">merge ${k}</div>`]));
const panel = (step, over = {}) => ({ role: "panel", step, n: N, hist: "h", html: views,
  waiting: "Merge {step}: follows when the step settles.", ...over });
const press = (key, shiftKey = false) => doc.press(key, { shiftKey });
const root = () => host(doc, "why").querySelector(".bv-stage-panel");

test("the panel shows the bar's step while it holds it, and says so when it does not", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "why", panel(10));
  assert.equal(root().innerHTML, views["10"]);
  for (const [key, shift, step] of [["ArrowRight", false, 11], ["ArrowRight", false, 12],
    ["ArrowLeft", false, 11], ["ArrowRight", true, 21], ["Home", false, 0]]) {
    press(key, shift);
    assert.equal(shownStep(doc, "bar"), step);
    assert.equal(root().dataset.step, String(step), "the panel names the bar's step");
    if (views[String(step)]) {
      assert.equal(root().innerHTML, views[String(step)]);
    } else {
      assert.equal(root().textContent, `Merge ${step}: follows when the step settles.`);
      assert.ok(!root().innerHTML.includes("bv-why"), "no other step's view");
    }
  }
});

test("a new window from Python replaces the waiting note at once", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "why", panel(10));
  press("End");
  assert.match(root().textContent, /^Merge 50:/);
  mountIn(mount, doc, "why", panel(50, { html: { 50: "<p>merge 50</p>" } }));
  assert.equal(root().innerHTML, "<p>merge 50</p>");
});

test("a panel sent no views, or no waiting text, still names the step", () => {
  mountIn(mount, doc, "why", panel(3, { html: null, waiting: undefined }));
  assert.equal(root().dataset.step, "3");
  assert.match(root().textContent, /^Step 3: this view follows/);
});
