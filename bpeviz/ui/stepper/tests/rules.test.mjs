// The stage script's pure rules: numbers from data, the step's clamp, the keys, a
// history's cut at a step, the card's data. Run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { test } from "node:test";

import { expandCard } from "../src/card.mjs";
import { cutAt, runAt, versionAt } from "../src/history.mjs";
import { keyAction, keyRows } from "../src/keys.mjs";
import { payload } from "../src/main.mjs";
import { bounds, clamp, followStep, whole } from "../src/numbers.mjs";

globalThis.window = {}; // expandCard keeps what it built in the page's stage store

test("whole takes numbers and their text, and nothing else", () => {
  assert.equal(whole(7, 0), 7);
  assert.equal(whole(6.6, 0), 7);
  assert.equal(whole("12", 0), 12);
  assert.equal(whole(" 3 ", 0), 3);
  for (const bad of [undefined, null, "", "  ", "abc", NaN, Infinity, -Infinity, {}, [], [5],
    true]) {
    assert.equal(whole(bad, -1), -1, String(bad));
  }
});

test("clamp keeps a step within lo..n, and a step that is no number at lo", () => {
  assert.equal(clamp(5, 10), 5);
  assert.equal(clamp(-3, 10), 0);
  assert.equal(clamp(11, 10), 10);
  assert.equal(clamp(120, 200, 100), 120);
  assert.equal(clamp(50, 200, 100), 100);
  assert.equal(clamp(4.6, 10), 5);
  assert.equal(clamp(NaN, 10, 2), 2);
  assert.equal(clamp(undefined, 10, 2), 2);
  assert.equal(clamp(Infinity, 10), 0, "no number: lo");
  assert.equal(clamp(5, 3, 4), 4, "a range whose end is below its start gives its start");
});

test("bounds reads lo..n from data, n never below lo", () => {
  assert.deepEqual(bounds({}), [0, 0]);
  assert.deepEqual(bounds({ n: 200 }), [0, 200]);
  assert.deepEqual(bounds({ lo: 100, n: 180 }), [100, 180]);
  assert.deepEqual(bounds({ lo: 5, n: 3 }), [5, 5]);
  assert.deepEqual(bounds({ lo: null, n: "40" }), [0, 40]);
  assert.deepEqual(bounds({ n: NaN }), [0, 0]);
});

test("a follower draws the bar's step within its own range, else its own step", () => {
  const data = { n: 26, step: 4 };
  assert.equal(followStep(data, 10), 10);
  assert.equal(followStep(data, 200), 26, "a bar past its end: its last step");
  assert.equal(followStep(data, -5), 0);
  assert.equal(followStep(data, null), 4, "no bar: Python's step");
  assert.equal(followStep({ n: 26, step: 99 }, null), 26, "its own step past its end");
  assert.equal(followStep({ n: 26 }, null), 0, "no step at all: the start");
  assert.equal(followStep({}, 7), 0, "no range: only step 0");
  assert.equal(followStep({ lo: 100, n: 180 }, 50), 100, "Compare's vocabulary sizes");
});

test("keys move the step by one, ten or to an end, always within the range", () => {
  const at = (key, step, shift = false, lo = 0, n = 20) => keyAction(key, shift, step, lo, n);
  assert.deepEqual(at("ArrowRight", 5), { to: 6 });
  assert.deepEqual(at("ArrowLeft", 5), { to: 4 });
  assert.deepEqual(at("ArrowRight", 5, true), { to: 15 });
  assert.deepEqual(at("ArrowLeft", 5, true), { to: 0 }, "ten back from 5: the start");
  assert.deepEqual(at("ArrowRight", 15, true), { to: 20 }, "ten on from 15: the end");
  assert.deepEqual(at("ArrowRight", 20), { to: 20 });
  assert.deepEqual(at("PageDown", 5), { to: 6 });
  assert.deepEqual(at("PageUp", 5), { to: 4 });
  assert.deepEqual(at("Home", 5), { to: 0 });
  assert.deepEqual(at("End", 5), { to: 20 });
  assert.deepEqual(at("Home", 150, false, 100, 180), { to: 100 });
  assert.deepEqual(at("ArrowRight", 500), { to: 20 }, "a step past the end comes back in");
  assert.deepEqual(at(" ", 5), { act: "play" });
  assert.deepEqual(at("Spacebar", 5), { act: "play" });
  assert.deepEqual(at("?", 5), { act: "keys" });
  assert.deepEqual(at("Escape", 5), { act: "close" });
  for (const other of ["a", "Enter", "Tab", "ArrowUp", "ArrowDown", "", undefined]) {
    assert.equal(at(other, 5), null, String(other));
  }
});

test("every key the keys' table names does what it says", () => {
  const named = { "←": ["ArrowLeft"], "→": ["ArrowRight"], "Shift + ←": ["ArrowLeft", true],
    "Shift + →": ["ArrowRight", true], Home: ["Home"], End: ["End"], "Page Down": ["PageDown"],
    "Page Up": ["PageUp"], Space: [" "], "?": ["?"] };
  const rows = keyRows("round", "rounds");
  assert.deepEqual(rows.map(([, what]) => what.includes("round") || !/merge|step/.test(what)),
    rows.map(() => true), "the table speaks of rounds");
  const said = { "one round back / on": [-1, 1], "ten rounds back / on": [-10, 10],
    "the first / the last round": ["lo", "n"] };
  for (const [keys, what] of rows) {
    const pair = keys.includes(" / ") && !keys.startsWith("Shift") ? keys.split(" / ")
      : keys.startsWith("Shift") ? ["Shift + ←", "Shift + →"] : [keys];
    pair.forEach((name, i) => {
      assert.ok(named[name], `a key the test knows: ${name}`);
      const [key, shift] = named[name];
      const action = keyAction(key, Boolean(shift), 50, 0, 100);
      assert.ok(action, `${name} (${what}) does something`);
      const expected = said[what];
      if (expected) {
        const target = { lo: 0, n: 100 }[expected[i]] ?? 50 + expected[i];
        assert.deepEqual(action, { to: target }, `${name}: ${what}`);
      }
    });
  }
});

// a form's versions: [step made, ids, starts, ends, flags]
const FORMS = [
  [[0, [1, 2, 3], [0, 1, 2], [1, 2, 3], [0, 0, 0]], [3, [7, 3], [0, 2], [2, 3], [0, 0]],
    [5, [9], [0], [3], [0]]],
  [[0, [4, 5], [0, 1], [1, 2], [0, 2]]],
];

test("a form's version at a step is the last one made by then", () => {
  const [v0] = versionAt(FORMS[0], 0);
  assert.equal(v0[0], 0);
  assert.deepEqual(versionAt(FORMS[0], 2)[0], FORMS[0][0]);
  assert.deepEqual(versionAt(FORMS[0], 3), [FORMS[0][1], FORMS[0][0]]);
  assert.deepEqual(versionAt(FORMS[0], 4)[0], FORMS[0][1]);
  assert.deepEqual(versionAt(FORMS[0], 500)[0], FORMS[0][2], "past the end: the last one");
  assert.deepEqual(versionAt(FORMS[0], -1)[0], FORMS[0][0], "before the start: the first");
  assert.deepEqual(versionAt([], 3), [null, null]);
  assert.deepEqual(versionAt(undefined, 3), [null, null]);
  assert.deepEqual(versionAt([null, [2]], 3)[0], [2, [], [], [], []],
    "a version without its lists: empty lists; one that is no list: left out");
});

test("the cut of a history at a step puts each word's version at its offset", () => {
  const history = { words: [[0, 0], [4, 1], [7, 0]], forms: FORMS };
  assert.deepEqual(cutAt(history, 0), {
    ids: [1, 2, 3, 4, 5, 1, 2, 3], starts: [0, 1, 2, 4, 5, 7, 8, 9],
    ends: [1, 2, 3, 5, 6, 8, 9, 10], flags: [0, 0, 0, 0, 2, 0, 0, 0] });
  assert.deepEqual(cutAt(history, 3).ids, [7, 3, 4, 5, 7, 3]);
  assert.deepEqual(cutAt(history, 9), cutAt(history, 5), "a step past the end: the last cut");
  assert.deepEqual(cutAt({ words: [[-1, 1]], forms: FORMS }, 0).starts, [0, 0],
    "offsets clamped at 0 (a leading metaspace)");
});

test("the cut of a history that is missing or partial has what is there", () => {
  const none = { ids: [], starts: [], ends: [], flags: [] };
  assert.deepEqual(cutAt(undefined, 3), none);
  assert.deepEqual(cutAt({}, 3), none);
  assert.deepEqual(cutAt({ words: [[0, 0]] }, 3), none, "no forms");
  assert.deepEqual(cutAt({ words: [[0, 5], "x", [2, 1]], forms: FORMS }, 0).ids, [4, 5],
    "a word whose form is missing, or a word that is no pair, left out");
});

test("a run gives the value at each position, 0 when there are no runs", () => {
  const runs = [[0, 0, 1], [5, 5, 0], [8, 5, 2]];
  assert.deepEqual([0, 3, 5, 7, 8, 10].map((i) => runAt(runs, i)), [0, 3, 5, 5, 5, 9]);
  assert.equal(runAt([], 4), 0);
  assert.equal(runAt(undefined, 4), 0);
});

test("the card's compact data expands to every merge and its labels", () => {
  const data = { hist: "expand-1", mergeCols: { left: [0, 1], right: [1, 2], token: [3, 4],
    count: [9, 1200] }, labels: { base: [["a", "61"], ["b", "62"], ["c", "63"]],
    extra: { 4: ["bc!", "62 63"] } }, noteOf: [-1, 0] };
  const out = expandCard(data);
  assert.deepEqual(out.merges, [[0, 1, 3, "count 9"], [1, 2, 4, "count 1,200"]]);
  assert.deepEqual(out.labels[3], ["ab", "61 62"], "left + right when no label is sent");
  assert.deepEqual(out.labels[4], ["bc!", "62 63"]);
  assert.deepEqual(out.labels[1], ["b", "62", 0], "with its note");
});

test("card data with columns of unequal length or no labels expands to what it holds", () => {
  const out = expandCard({ hist: "expand-2", mergeCols: { left: [0, 1, 2], right: [1],
    token: [3, 4] } });
  assert.equal(out.merges.length, 1);
  assert.deepEqual(out.labels[3], ["??", ""]);
  const empty = expandCard({ hist: "expand-3", mergeCols: {} });
  assert.deepEqual(empty.merges, []);
  const plain = { merges: [[0, 1, 2, "x"]] };
  assert.equal(expandCard(plain), plain, "data already expanded passes as it is");
});

test("a payload of JSON bytes is parsed once; other data passes as it is", () => {
  const bytes = new TextEncoder().encode('{"role":"compare","n":3}');
  const first = payload(bytes);
  assert.deepEqual(first, { role: "compare", n: 3 });
  assert.equal(payload(bytes), first);
  assert.deepEqual(payload(bytes.buffer), { role: "compare", n: 3 });
  const plain = { role: "card" };
  assert.equal(payload(plain), plain);
  assert.deepEqual(payload(null), {});
  assert.deepEqual(payload(undefined), {});
});
