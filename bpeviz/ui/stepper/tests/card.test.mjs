// The merge card keeps one height from step to step: every step, step 0 too, draws the
// same parts (a heading, the merge's box, the next merge's box), each box's content in a
// fitting element that is drawn smaller when it overflows the box's fixed height, and a
// long token is drawn whole (stepper.css wraps it inside its chip, never cuts it). A fake
// DOM (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp } from "./stage.mjs";

const { default: mount, fitBox } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const LONG = "トークナイザーはよく出る文字の組み合わせを学びます。東京、京都、大阪、東京タワー";

// merge k (1-based): tokens 2k and 2k + 1 make 100 + k; token 3 (merge 1's right) is LONG
const card = (n, step) => ({ role: "card", step, n, hist: "h", strong: false,
  labels: Array.from({ length: 2 * n + 2 }, (_, i) => [i === 3 ? LONG : `t${i}`, ""]),
  merges: Array.from({ length: n }, (_, k) => [2 * k + 2, 2 * k + 3, 101 + k, `count ${n - k}`]) });

// the card's parts, each as [its class, its first child's class]
function parts(id) {
  const c = host(doc, id).querySelector(".bv-card");
  return c.children.map((p) => [p.className, p.children[0] ? p.children[0].className : ""]);
}

const PARTS = [["bv-muted bv-head", ""], ["bv-big", "bv-fit"], ["bv-muted bv-next", "bv-fit"]];

test("step 0, a merge and the last merge draw the card's same three parts", () => {
  for (const [id, step] of [["first", 0], ["middle", 2], ["last", 3]]) {
    mountIn(mount, doc, id, card(3, step));
    assert.deepEqual(parts(id), PARTS, id);
  }
  const text = (id) => host(doc, id).querySelector(".bv-card").textContent;
  assert.match(text("first"), /^Step 0No merge yet/);
  assert.match(text("middle"), /^Merge 2/);
  assert.match(text("last"), /This is the last merge\.$/);
});

test("a long token is drawn whole, its title holding it too", () => {
  mountIn(mount, doc, "card", card(3, 1));
  const chips = host(doc, "card").querySelector(".bv-big").querySelectorAll(".bv-chip");
  const long = chips.find((c) => c.dataset.id === "3");
  assert.equal(long.textContent, LONG);
  assert.ok(long.title.includes(LONG));
});

// a box of fixed height whose content takes `lines` lines of `line` pixels at its size
function box(height, lines, line = 40) {
  const fit = { style: {} };
  const size = () => (fit.style.fontSize ? parseFloat(fit.style.fontSize) : 1);
  return { fit, clientHeight: height, get scrollHeight() { return Math.max(height, lines * line * size()); } };
}

test("content that overflows its box is drawn at the largest size that fits", () => {
  const fits = box(200, 4);
  assert.equal(fitBox(fits, fits.fit), 1);
  assert.equal(fits.fit.style.fontSize, "");
  const over = box(200, 8); // 320 px at full size: 0.61 of it is 195 px
  assert.equal(fitBox(over, over.fit), 0.61);
  assert.equal(over.fit.style.fontSize, "0.61em");
  over.fit.style.fontSize = "0.37em"; // a later step's smaller size is not kept
  const again = { clientHeight: 200, scrollHeight: 100 };
  assert.equal(fitBox(again, over.fit), 1);
  assert.equal(over.fit.style.fontSize, "");
});

test("content that never fits is drawn at the smallest size, and a box not laid out as it is",
  () => {
    const huge = box(100, 40);
    assert.equal(fitBox(huge, huge.fit), 0.37);
    const unlaid = { fit: { style: {} } }; // no layout: no heights
    assert.equal(fitBox(unlaid, unlaid.fit), 1);
  });
