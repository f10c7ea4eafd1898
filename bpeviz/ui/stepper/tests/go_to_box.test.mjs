// Python's "Go to step" box beside the bar shows the bar's step as the bar moves (keys,
// Play), not only once Python hears it, and is left alone while someone types in it; a
// step typed there wins over one the bar had not reported yet.
// A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, clock, restore;
beforeEach(() => ({ doc, clock, restore } = setUp()));
afterEach(() => restore());

const bar = (over = {}) => ({ role: "controls", step: 10, lo: 0, n: 200, speed: "1", seq: 0,
  hist: "h", box: "stage_box_", ...over });

// the box as Streamlit draws it: a keyed container around a number input
function box(key = "stage_box_10", value = "10") {
  const holder = doc.createElement("div");
  holder.className = `stElementContainer st-key-${key}`;
  const input = doc.createElement("input");
  input.value = value;
  holder.append(input);
  doc.body.append(holder);
  return input;
}

test("the box shows the bar's step at every key, before Python hears it", () => {
  const input = box();
  const sent = mountIn(mount, doc, "bar", bar());
  doc.press("ArrowRight");
  assert.equal(input.value, "11");
  doc.press("ArrowRight", { shiftKey: true });
  assert.equal(shownStep(doc, "bar"), 21);
  assert.equal(input.value, "21");
  assert.deepEqual(sent, [], "Python has not heard it yet");
  doc.press("Home");
  assert.equal(input.value, "0");
  clock.advance(2000);
});

test("a box someone is typing in keeps what they typed", () => {
  const input = box();
  mountIn(mount, doc, "bar", bar());
  doc.activeElement = input;
  input.value = "15";
  doc.press("ArrowRight"); // a key reaches the page from elsewhere (a clicker)
  assert.equal(shownStep(doc, "bar"), 11);
  assert.equal(input.value, "15");
  doc.activeElement = doc.body;
  doc.press("ArrowRight");
  assert.equal(input.value, "12");
});

test("a bar without a box, or with a key that is no key, touches no input", () => {
  for (const [i, key] of ["", "a\"] input, [x", undefined].entries()) {
    const other = box("stage_box_10", "10");
    mountIn(mount, doc, `bar${i}`, bar({ box: key }));
    doc.press("ArrowRight");
    assert.equal(other.value, "10");
    other.parentElement.remove();
  }
});

const steps = (sent) => sent.filter(([name]) => name === "step").map(([, v]) => v.step);

test("a step typed into the box wins over the bar's unreported one", () => {
  const input = box();
  const sent = mountIn(mount, doc, "bar", bar());
  doc.press("ArrowRight"); // reported only after a quiet time
  doc.focus("focusin", input);
  clock.advance(3000);
  assert.deepEqual(steps(sent), [], "held back while the box has the focus");
  // Enter: Python's run brings the typed step (no report of the bar's answered)
  mountIn(mount, doc, "bar", bar({ step: 37 }), sent);
  assert.equal(shownStep(doc, "bar"), 37);
  doc.focus("focusout", input);
  clock.advance(3000);
  assert.deepEqual(steps(sent), [], "Python has the bar's step: nothing to send");
});

test("leaving the box without a new step sends the bar's", () => {
  const input = box();
  const sent = mountIn(mount, doc, "bar", bar());
  doc.press("ArrowRight");
  doc.focus("focusin", input);
  clock.advance(500);
  doc.focus("focusout", input);
  clock.advance(999);
  assert.deepEqual(steps(sent), []);
  clock.advance(1);
  assert.deepEqual(steps(sent), [11]);
});

test("focus elsewhere on the page leaves the report as it was", () => {
  box();
  const sent = mountIn(mount, doc, "bar", bar());
  const other = doc.createElement("input");
  doc.body.append(other);
  doc.press("ArrowRight");
  doc.focus("focusin", other);
  clock.advance(300);
  assert.deepEqual(steps(sent), [11]);
});
