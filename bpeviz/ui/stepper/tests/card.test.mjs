// The merge card keeps one height from step to step: every step, step 0 too, draws the
// same parts (a heading, the merge's box, the next merge's box), each box's content in a
// fitting element that, when it overflows the box's fixed height, is drawn a little
// smaller (never below 0.8 of its size: a long merge stays legible) and then has its parts
// cut (data-clip); a long token is drawn whole (stepper.css wraps it inside its chip). A
// fake DOM (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { FIT_STEPS, NEXT_STEPS } from "../src/card.mjs";
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

// A box of fixed height whose content takes `lines` lines of `line` pixels at full size;
// cutting the parts ("parts") saves `partsSave` lines, cutting the token after two lines
// ("token") or one ("line") leaves that many token lines and a line of parts.
function box(height, lines, { line = 40, partsSave = 1, tokenLines = lines } = {}) {
  const attrs = new Map();
  const fit = { style: {}, setAttribute: (k, v) => attrs.set(k, v),
    removeAttribute: (k) => attrs.delete(k), clip: () => attrs.get("data-clip") || "" };
  const size = () => (fit.style.fontSize ? parseFloat(fit.style.fontSize) : 1);
  const drawn = () => {
    const clip = fit.clip();
    if (clip === "token") return Math.min(tokenLines, 2) + 2;
    if (clip === "line") return 3;
    return clip === "parts" ? lines - partsSave : lines;
  };
  return { fit, clientHeight: height,
    get scrollHeight() { return Math.max(height, drawn() * line * size()); } };
}

test("content that overflows its box is drawn at the largest size that fits", () => {
  const fits = box(200, 4);
  assert.deepEqual(fitBox(fits, fits.fit), [1, ""]);
  assert.equal(fits.fit.style.fontSize, "");
  assert.equal(fits.fit.clip(), "");
  const over = box(200, 6); // 240 px at full size: 0.8 of it is 192 px
  assert.deepEqual(fitBox(over, over.fit), [0.8, ""]);
  assert.equal(over.fit.style.fontSize, "0.8em");
  over.fit.style.fontSize = "0.5em"; // a later step's smaller size is not kept
  over.fit.setAttribute("data-clip", "line"); // nor its cut
  const again = { clientHeight: 200, scrollHeight: 100 };
  assert.deepEqual(fitBox(again, over.fit), [1, ""]);
  assert.equal(over.fit.style.fontSize, "");
  assert.equal(over.fit.clip(), "");
});

test("a long merge is drawn no smaller than its floor: its parts are cut instead", () => {
  assert.ok(FIT_STEPS.every(([size, clip]) => clip || size >= 0.8), "whole down to 0.8");
  // 7 lines of 40 px in 200 px: 0.8 gives 224 px; the parts cut, 6 lines: 192 px
  const long = box(200, 7);
  assert.deepEqual(fitBox(long, long.fit), [0.8, "parts"]); // no layout: the floor 0.8
  assert.equal(long.fit.style.fontSize, "0.8em");
  assert.equal(long.fit.clip(), "parts");
  // a lower floor (presentation mode's larger chips): the parts cut, then smaller
  const big = box(200, 9); // parts cut: 8 lines; 0.6 of 320 px is 192 px
  assert.deepEqual(fitBox(big, big.fit, FIT_STEPS, 0.6), [0.6, "parts"]);
  // a higher floor: the parts are cut at the floor before the token is
  const high = box(200, 6); // 0.9 of 240 px is 216 px; parts cut: 5 lines, 180 px
  assert.deepEqual(fitBox(high, high.fit, FIT_STEPS, 0.9), [0.9, "parts"]);
});

test("a token of hundreds of characters is cut after two lines, then one, legible still",
  () => {
    const huge = box(200, 40, { partsSave: 20, tokenLines: 18 }); // 4 lines at 0.8: 128 px
    assert.deepEqual(fitBox(huge, huge.fit), [0.8, "token"]);
    const low = box(100, 40, { partsSave: 20, tokenLines: 18 }); // 3 lines at 0.8: 96 px
    assert.deepEqual(fitBox(low, low.fit), [0.8, "line"]);
    const floor = box(110, 40, { partsSave: 20, tokenLines: 18 }); // 4 lines at 0.65: 104 px
    assert.deepEqual(fitBox(floor, floor.fit, FIT_STEPS, 0.65), [0.65, "token"]);
    const never = box(50, 40); // nothing fits: the last step, and the box scrolls
    assert.deepEqual(fitBox(never, never.fit), [0.8, "line"]);
    const unlaid = { fit: box(0, 0).fit }; // no layout: no heights
    assert.deepEqual(fitBox(unlaid, unlaid.fit), [1, ""]);
  });

test("the next merge's smaller line is never drawn smaller: its parts are cut first", () => {
  assert.ok(NEXT_STEPS.every(([size]) => size === 1));
  const next = box(60, 2, { line: 40 }); // 80 px in 60: the parts cut, 1 line
  assert.deepEqual(fitBox(next, next.fit, NEXT_STEPS), [1, "parts"]);
  assert.equal(next.fit.style.fontSize, "");
});

test("the card's boxes are fitted by their own steps and marked for the CSS", () => {
  mountIn(mount, doc, "card", card(3, 1));
  const fits = host(doc, "card").querySelectorAll(".bv-fit");
  assert.equal(fits.length, 2);
  for (const f of fits) assert.equal(f.getAttribute("data-clip"), null); // no layout: whole
});
