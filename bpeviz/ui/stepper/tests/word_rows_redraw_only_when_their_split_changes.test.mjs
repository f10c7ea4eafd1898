// A key redraws only the word rows whose split (or mark of a token just made) differs at
// the new step: a replaced cell makes the browser lay the whole table out again, and at
// most steps most words do not change. The rows left alone are the same nodes.
// A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => { ({ doc, restore } = setUp()); });
afterEach(() => restore());

const bar = { role: "controls", step: 0, lo: 0, n: 3, speed: "1", seq: 0, hist: "h" };
// [index, word, count, tokens, made at, merged at]: "low" changes at merges 1 and 2,
// "lo" at merge 1 only, "x" never
const words = { role: "words", step: 0, n: 3, hist: "h", maxChips: 200, words: [
  [0, "low", 5, [1, 2, 3, 4, 5], [0, 0, 0, 1, 2], [1, 1, 2, 2, 9]],
  [1, "lo", 2, [1, 2, 4], [0, 0, 1], [1, 1, 9]],
  [2, "x", 1, [6], [0], [9]]] };
const rows = () => [...host(doc, "words").querySelectorAll("tbody tr")];
const cells = () => rows().map((tr) => tr.children[3]);
const chipsOf = (cell) => [...cell.querySelectorAll(".bv-chip")];
const marked = () => rows().map((tr) => tr.className === "bv-changed");

test("only the rows whose split or marks differ are drawn again", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  const at0 = cells().map(chipsOf);
  assert.deepEqual(at0.map((c) => c.length), [3, 2, 1]);

  doc.press("ArrowRight"); // merge 1: "low" and "lo" change
  const at1 = cells().map(chipsOf);
  assert.deepEqual(marked(), [true, true, false]);
  assert.deepEqual(at1.map((c) => c.length), [2, 1, 1]);
  assert.notEqual(at1[0][0], at0[0][0]);
  assert.equal(at1[2][0], at0[2][0], "x is left as drawn");

  doc.press("ArrowRight"); // merge 2: "low" only; "lo" loses its mark of merge 1
  const at2 = cells().map(chipsOf);
  assert.deepEqual(marked(), [true, false, false]);
  assert.deepEqual(at2.map((c) => c.length), [1, 1, 1]);
  assert.notEqual(at2[1][0], at1[1][0], "lo is drawn again without the new-token mark");
  assert.ok(!at2[1][0].className.includes("bv-new"));
  assert.equal(at2[2][0], at0[2][0]);

  doc.press("ArrowRight"); // merge 3 changes none of them: only "low" is drawn again, unmarked
  const at3 = cells().map(chipsOf);
  assert.deepEqual(marked(), [false, false, false]);
  assert.notEqual(at3[0][0], at2[0][0], "low loses its mark of merge 2");
  assert.equal(at3[1][0], at2[1][0]);
  assert.equal(at3[2][0], at0[2][0]);

  doc.press("Home"); // back to step 0: the splits of step 0 again
  assert.deepEqual(cells().map(chipsOf).map((c) => c.length), [3, 2, 1]);
  assert.deepEqual(marked(), [false, false, false]);
});
