// The numbers beside the card follow the bar's step in the same redraw as the card: the
// vocabulary's size and the corpus's tokens at that step, each with its change from the
// step before, written as the page writes numbers (1,200; +1; -2,000), and a note naming
// the step. A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp, shownStep, text } from "./stage.mjs";

const { default: mount, expandCard, signedText, valueText } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const N = 30;
// vocabulary: 100 + k; tokens: 5,000 - 200 k (a merge never adds tokens)
const vocab = Array.from({ length: N + 1 }, (_, k) => 100 + k);
const tokens = Array.from({ length: N + 1 }, (_, k) => 5000 - 200 * k);
const bar = (step) => ({ role: "controls", step, lo: 0, n: N, speed: "1", seq: 0, hist: "h" });
const numbers = (step, over = {}) => ({ role: "numbers", step, n: N, hist: "h", metrics: [
  { label: "Vocabulary", values: vocab, good: "up" },
  { label: "Corpus tokens", values: tokens, good: "down" }], ...over });
const press = (key, shiftKey = false) => doc.press(key, { shiftKey });

function shown(id = "numbers") {
  const root = host(doc, id);
  const values = root.querySelectorAll(".bv-metric-value").map((e) => e.textContent);
  const deltas = root.querySelectorAll(".bv-metric-delta").map((e) => [e.textContent,
    e.className.includes("bv-good") ? "good" : e.className.includes("bv-bad") ? "bad" : ""]);
  return { values, deltas, note: root.querySelector(".bv-numbers-note").textContent };
}

test("changes are signed with thousands separators", () => {
  assert.equal(signedText(1), "+1");
  assert.equal(signedText(-2000), "-2,000");
  assert.equal(signedText(17632), "+17,632");
  assert.equal(signedText(0), "0");
  assert.equal(signedText(null), null);
  assert.equal(signedText(-0.04, 1), "0");
  assert.equal(signedText(2.25, 1), "+2.3");
});

test("a value of eight digits or more is written in millions, exact in its title", () => {
  assert.deepEqual(valueText(9_999_999), ["9,999,999", ""]);
  assert.deepEqual(valueText(391_273_456), ["391.27 M", "391,273,456"]);
  assert.deepEqual(valueText(12_345_678_901), ["12.35 B", "12,345,678,901"]);
  assert.deepEqual(valueText(2.5, 1), ["2.5", ""]);
});

test("the numbers follow every key in the bar's redraw, never naming another step", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "numbers", numbers(10));
  assert.deepEqual(shown().values, ["110", "3,000"]);
  for (const [key, shift, step] of [["ArrowRight", false, 11], ["ArrowRight", true, 21],
    ["Home", false, 0], ["End", false, N], ["ArrowLeft", false, N - 1]]) {
    press(key, shift);
    assert.equal(shownStep(doc, "bar"), step);
    const now = shown();
    assert.deepEqual(now.values, [String(100 + step), (5000 - 200 * step).toLocaleString("en-US")]);
    assert.equal(now.note, `These numbers are for step ${step} of ${N}.`);
    assert.equal(host(doc, "numbers").querySelector(".bv-stage-numbers").dataset.step,
      String(step));
    if (step === 0) {
      assert.deepEqual(now.deltas, [["", ""], ["", ""]], "step 0 has no change");
    } else {
      assert.deepEqual(now.deltas, [["↑ +1", "good"], ["↓ -200", "good"]]);
    }
  }
});

test("a step past the arrays shows their last step; no values show dashes", () => {
  mountIn(mount, doc, "numbers", numbers(99));
  assert.deepEqual(shown().values, [String(100 + N), (5000 - 200 * N).toLocaleString("en-US")]);
  mountIn(mount, doc, "empty", numbers(3, { metrics: [{ label: "a" }, { values: "no" }] }));
  assert.deepEqual(shown("empty").values, ["–", "–"]);
  assert.match(text(doc, "empty"), /for step 3 of 30\./);
});

test("a change that is bad news is marked so: more tokens than the step before", () => {
  mountIn(mount, doc, "numbers", numbers(2, { n: 2, metrics: [
    { label: "Corpus tokens", values: [10, 8, 9], good: "down" }] }));
  assert.deepEqual(shown().deltas[0], ["↑ +1", "bad"]);
});

test("decimals, a least change, and a note per step (a loss over pruning rounds)", () => {
  mountIn(mount, doc, "bar", { ...bar(1), n: 3 });
  mountIn(mount, doc, "numbers", { role: "numbers", step: 1, n: 3, hist: "h",
    notes: ["the seed", "round 1", "round 2", "round 3"], metrics: [
      { label: "Loss", values: [1200.04, 1100.5, 1100.52, 1300], good: "down", digits: 1,
        least: 0.05 }] });
  assert.deepEqual(shown().values, ["1,100.5"]);
  assert.deepEqual(shown().deltas, [["↓ -99.5", "good"]]);
  assert.equal(shown().note, "round 1");
  press("ArrowRight");
  assert.deepEqual(shown().deltas, [["", ""]], "a change under 0.05 is none");
  press("ArrowRight");
  assert.deepEqual(shown().deltas, [["↑ +199.5", "bad"]]);
  assert.equal(shown().note, "round 3");
});

test("a step that changes a number by nothing says no change, not a bare 0", () => {
  mountIn(mount, doc, "numbers", numbers(2, { n: 2, metrics: [
    { label: "Vocabulary (pieces)", values: [400, 380, 380] }] }));
  assert.deepEqual(shown().deltas[0], ["no change", ""]);
});

test("a note may name one number of the bar's step, and say something else at step 0", () => {
  mountIn(mount, doc, "bar", { ...bar(2), n: 3 });
  mountIn(mount, doc, "numbers", { role: "numbers", step: 2, n: 3, hist: "h", metrics: [],
    counts: [0, 1200, 7, 0], note: "Merge {step} changed {count} words.",
    first: "Step 0: nothing yet." });
  assert.equal(shown().note, "Merge 2 changed 7 words.");
  press("ArrowLeft");
  assert.equal(shown().note, "Merge 1 changed 1,200 words.");
  press("Home");
  assert.equal(shown().note, "Step 0: nothing yet.");
  press("End");
  assert.equal(shown().note, "Merge 3 changed 0 words.");
});

test("numbers are written as en-US writes them, whole and with decimals", () => {
  for (const x of [0, 7, 1234, 1234567, -2000, 0.5, 3.14159, 1e7 + 0.25]) {
    assert.equal(valueText(x)[0].replace(/ [MB]$/, ""),
      valueText(x)[0].endsWith("M") || valueText(x)[0].endsWith("B")
        ? (x / (Math.abs(x) >= 1e10 ? 1e9 : 1e6)).toLocaleString("en-US",
          { minimumFractionDigits: 2, maximumFractionDigits: 2 })
        : x.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 }));
    assert.equal(valueText(x, 2)[0], x.toLocaleString("en-US",
      { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  }
  // the card's counts, formatted once per training when its data arrives
  const card = expandCard({ hist: "fmt", mergeCols: { left: [1, 2], right: [2, 3],
    token: [4, 5], count: [1234567, 12.5] }, labels: { base: [["a", "61"], ["b", "62"],
    ["c", "63"], ["d", "64"]] } });
  assert.deepEqual(card.merges.map((m) => m[3]), ["count 1,234,567", "count 12.5"]);
});
