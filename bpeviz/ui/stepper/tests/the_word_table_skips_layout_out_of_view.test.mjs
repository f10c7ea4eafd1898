// The word table is laid out whole with every key; once it has been laid out at its full
// height, it is marked to be skipped while out of view (content-visibility: auto in
// stepper.css), and its rows still follow every step.
// A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, clock, restore;
beforeEach(() => { ({ doc, clock, restore } = setUp()); });
afterEach(() => restore());

const bar = { role: "controls", step: 0, lo: 0, n: 2, speed: "1", seq: 0, hist: "h" };
const words = { role: "words", step: 0, n: 2, hist: "h", maxChips: 200,
  words: [[0, "low", 5, [1, 2, 3], [0, 0, 2], [2, 2, 9]], [1, "lo", 2, [1, 2, 4], [0, 0, 1], [1, 1, 9]]] };
const root = () => host(doc, "words").querySelector(".bv-stage-words");
const changed = () => [...host(doc, "words").querySelectorAll("tr.bv-changed")]
  .map((tr) => tr.children[1].textContent.replace("changed", ""));

test("the table is marked skippable only after its first frames, once, and its rows "
  + "follow the keys", () => {
  const sent = mountIn(mount, doc, "bar", bar);
  mountIn(mount, doc, "words", words, sent);
  assert.ok(!root().classList.contains("bv-skips-away"), "laid out once before it is skipped");
  clock.advance(1);
  assert.ok(root().classList.contains("bv-skips-away"));
  mountIn(mount, doc, "words", { ...words, words: [...words.words] }, sent); // a rerun, new data
  assert.ok(root().classList.contains("bv-skips-away"), "kept across a rerun");
  assert.equal(clock.timers.size, 0, "nothing more scheduled");
  // merge 1 changes "lo" (its tokens 1, 2 end there), merge 2 "low"
  doc.press("ArrowRight");
  assert.deepEqual(changed(), ["lo"]);
  doc.press("ArrowRight");
  assert.deepEqual(changed(), ["low"]);
});
