// A button whose result Python makes at the step it holds (the offline slides' download,
// keyed "bv_at_step..."): clicked while Python has not heard the bar's step, the click is
// held, the step sent at once, and the button clicked again once Python's run at that
// step is done. A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, clock, restore;
beforeEach(() => ({ doc, clock, restore } = setUp()));
afterEach(() => restore());

const bar = (over = {}) => ({ role: "controls", step: 10, lo: 0, n: 200, speed: "1", seq: 0,
  hist: "h", ...over });

// the download button as Streamlit lays it out, counting the clicks that reach it
function slidesButton() {
  const holder = doc.createElement("div");
  holder.className = "stElementContainer st-key-bv_at_step_slides";
  const button = doc.createElement("button");
  holder.append(button);
  doc.body.append(holder);
  const got = { clicks: 0 };
  button.addEventListener("click", () => { got.clicks += 1; });
  return { button, got };
}

test("a click while Python holds the bar's step goes through at once", () => {
  const sent = mountIn(mount, doc, "bar", bar());
  const { button, got } = slidesButton();
  button.click();
  assert.equal(got.clicks, 1);
  clock.advance(2000);
  assert.deepEqual(sent, [], "nothing to tell Python");
});

test("a click before Python hears the keys waits for its run at the bar's step", () => {
  const app = doc.createElement("div");
  app.setAttribute("data-testid", "stApp");
  app.setAttribute("data-test-script-state", "notRunning");
  doc.body.append(app);
  const sent = mountIn(mount, doc, "bar", bar());
  const { button, got } = slidesButton();
  doc.press("ArrowRight");
  doc.press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 12);
  button.click();
  assert.equal(got.clicks, 0, "held: Python would make the file at step 10");
  clock.advance(0);
  assert.deepEqual(sent, [["step", { step: 12, speed: "1", seq: 1 }]], "the step sent at once");
  app.setAttribute("data-test-script-state", "running");
  mountIn(mount, doc, "bar", bar({ step: 12, seq: 1 })); // Python's run at step 12 ...
  clock.advance(500);
  assert.equal(got.clicks, 0, "... not done yet: its button may still be the old one");
  app.setAttribute("data-test-script-state", "notRunning");
  clock.advance(100);
  assert.equal(got.clicks, 1, "the click goes through once the run is done");
  clock.advance(2000);
  assert.equal(got.clicks, 1, "once");
  assert.equal(sent.length, 1);
});

test("other clicks are never held", () => {
  mountIn(mount, doc, "bar", bar());
  const other = doc.createElement("button");
  doc.body.append(other);
  let clicks = 0;
  other.addEventListener("click", () => { clicks += 1; });
  doc.press("ArrowRight");
  other.click();
  assert.equal(clicks, 1);
});
