// After a key, Python reruns the page and sends every stage element again, with its own
// step and, when only the step moved, everything else unchanged: what the browser built
// and drew at the bar's step then stays as it is (no rebuild on the rerun's busy main
// thread), while anything else Python changed is built and drawn anew. A fake DOM
// (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const N = 6;
const bar = (step) => ({ role: "controls", step, lo: 0, n: N, speed: "1", seq: 0, hist: "h" });
const card = (step, over = {}) => ({ role: "card", step, n: N, hist: "h", strong: false,
  labels: Array.from({ length: 2 * N + 2 }, (_, i) => [`t${i}`, ""]),
  merges: Array.from({ length: N }, (_, k) => [2 * k + 2, 2 * k + 3, 101 + k, `count ${k}`]),
  ...over });
const numbers = (step, values) => ({ role: "numbers", step, n: N, hist: "h",
  metrics: [{ label: "Vocabulary", help: "", values, good: "up" }],
  note: "These numbers are for step {step} of {n}." });
const cardBox = () => host(doc, "card").querySelector(".bv-card");
const heading = () => cardBox().children[0];

test("a rerun that moved only Python's step keeps the card the key drew", () => {
  mountIn(mount, doc, "bar", bar(2));
  mountIn(mount, doc, "card", card(2));
  doc.press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 3);
  const drawn = heading();
  assert.match(cardBox().textContent, /^Merge 3/);
  mountIn(mount, doc, "card", card(3)); // Python heard step 3: the same card again
  assert.equal(heading(), drawn, "not drawn again");
  assert.match(cardBox().textContent, /^Merge 3/);
  doc.press("ArrowRight"); // and the kept card still follows the keys
  assert.match(cardBox().textContent, /^Merge 4/);
});

test("a rerun that changed anything else draws the card anew", () => {
  mountIn(mount, doc, "bar", bar(2));
  mountIn(mount, doc, "card", card(2));
  const drawn = heading();
  mountIn(mount, doc, "card", card(2, { strong: true })); // presentation mode turned on
  assert.notEqual(heading(), drawn);
  const merges = card(2).merges.map((m) => [...m]);
  merges[1][3] = "count 99";
  const again = heading();
  mountIn(mount, doc, "card", card(2, { merges })); // another training's numbers
  assert.notEqual(heading(), again);
  assert.match(cardBox().textContent, /count 99/);
});

test("without a bar the kept view moves to Python's new step", () => {
  mountIn(mount, doc, "card", card(1));
  assert.match(cardBox().textContent, /^Merge 1/);
  mountIn(mount, doc, "card", card(4));
  assert.match(cardBox().textContent, /^Merge 4/);
});

test("numbers kept through a rerun show the bar's step, and new values replace them", () => {
  mountIn(mount, doc, "bar", bar(0));
  const values = [10, 11, 12, 13, 14, 15, 16];
  mountIn(mount, doc, "numbers", numbers(0, values));
  doc.press("End");
  const text = () => host(doc, "numbers").textContent;
  assert.match(text(), /16/);
  assert.match(text(), /step 6 of 6/);
  mountIn(mount, doc, "numbers", numbers(6, values));
  assert.match(text(), /16/);
  assert.match(text(), /step 6 of 6/);
  mountIn(mount, doc, "numbers", numbers(6, values.map((v) => v * 10)));
  assert.match(text(), /160/);
});

test("a view whose drawing failed is built anew by Python's next payload, even the same one",
  () => {
    mountIn(mount, doc, "bar", bar(2));
    const sent = mountIn(mount, doc, "card", card(2));
    const f = host(doc, "card").__bvFollower;
    f.data = { ...f.data, merges: new Proxy([], { get() { throw new Error("broken"); } }) };
    doc.press("ArrowRight"); // the card's redraw throws: reported, the bar steps on
    assert.equal(shownStep(doc, "bar"), 3);
    assert.ok(sent.some(([name]) => name === "error"), "the error is reported");
    mountIn(mount, doc, "card", card(3)); // Python's rerun: unchanged but for the step
    assert.match(cardBox().textContent, /^Merge 3/);
    doc.press("ArrowRight");
    assert.match(cardBox().textContent, /^Merge 4/);
  });
