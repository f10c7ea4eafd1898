// Compare's view (role "compare"): the sentence over the cuts, each configuration's cut in
// its colour with its differing runs framed, "only the differences", user text set as text.
// The marks equal the engine's on real trainings in
// tests/analysis/test_compare_view_draws_the_engines_cuts.py; here, small cuts made by hand.
// Run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { differencesCaption } from "../src/compare_view.mjs";
import { errors, host, loadStage, mountIn, setUp } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

// one configuration cutting the whole text as one word: [ids, starts, ends] (flags 0)
function config(colour, ids, starts, ends, labels = {}) {
  const history = { words: [[0, 0]], forms: [[[0, ids, starts, ends, ids.map(() => 0)]]] };
  return { label: "x", colour, unit: "step", last: 0, steps: [[0, 0, 0]], sizes: [[0, 10, 0]],
    history, labels, nbytes: {} };
}

// "ab cd": A cuts a|b cd, B cuts ab cd: one boundary (after a) is A's alone; the marks as
// Python sends them (compare_history.differences): [offset, n, owns, per configuration
// [runs gone, runs new]], a run [start, end, skip, count]
const TEXT = "ab cd";
const A = config("#0072B2", [1, 2, 3], [0, 1, 3], [1, 2, 5]);
const B = config("#D55E00", [4, 3], [0, 3], [2, 5]);
const DIFFS = [[0, 1, [1, 0], [[[], [[0, 2, 0, 2]]], [[], [[0, 2, 0, 1]]]]]];

function draw(extra = {}, configs = [A, B], text = TEXT, diffs = DIFFS) {
  const sent = mountIn(mount, doc, "cmp", { role: "compare", mode: "step", lo: 0, n: 0,
    step: 0, hist: "h", text, marks: {}, configs, diffs, ...extra });
  assert.deepEqual(errors(sent), []);
  return host(doc, "cmp");
}

const frames = (box) => box.querySelectorAll("[data-bpeviz-diff]");
const ids = (e) => e.querySelectorAll("span.bv-chip").map((c) => Number(c.dataset.id));

test("the sentence over the cuts counts the differing boundaries and each one's own", () => {
  const own = (...n) => n.map((k) => ({ own: k }));
  assert.equal(differencesCaption(0, own(0)), "One configuration: nothing to compare it with.");
  assert.equal(differencesCaption(0, own(0, 0)),
    "No differences: every configuration cuts this text at the same places.");
  assert.equal(differencesCaption(1, own(1, 0)), "1 token boundary differs: a place where "
    + "some configurations cut the text and others do not (A cuts at 1, B at 0).");
  assert.equal(differencesCaption(1234, own(1000, 234, 5)), "1,234 token boundaries differ: "
    + "places where some configurations cut the text and others do not "
    + "(A cuts at 1,000, B at 234, C at 5).");
  const count = draw().querySelector(".bv-cmp-count");
  assert.equal(count.dataset.differing, "1");
  assert.match(count.textContent, /^1 token boundary differs: .*\(A cuts at 1, B at 0\)\.$/);
});

test("each cut frames its differing runs, the rest drawn outside them", () => {
  const [a, b] = draw().querySelectorAll("div.bv-tokens");
  assert.deepEqual(frames(a).map((f) => [f.dataset.start, f.dataset.end]), [["0", "2"]]);
  assert.deepEqual(ids(frames(a)[0]), [1, 2]);
  assert.deepEqual(ids(a), [1, 2, 3]);
  assert.deepEqual(ids(frames(b)[0]), [4]);
  assert.equal(a.textContent, TEXT, "the gap between the words drawn as typed");
});

test("each configuration keeps its colour: its cut's border and its frames", () => {
  const [a, b] = draw().querySelectorAll("div.bv-tokens");
  assert.deepEqual([a.dataset.config, b.dataset.config], ["A", "B"]);
  assert.match(a.getAttribute("style"), /^border-left:6px solid #0072B2;/);
  assert.match(b.getAttribute("style"), /^border-left:6px solid #D55E00;/);
  assert.match(frames(a)[0].getAttribute("style"), /^outline:2px dashed #0072B2;/);
  assert.match(frames(b)[0].getAttribute("style"), /^outline:2px dashed #D55E00;/);
  const strong = draw({ strong: true }).querySelectorAll("[data-bpeviz-diff]");
  assert.match(strong[0].getAttribute("style"), /^outline:3px dashed #0072B2;/);
});

test("only the differences: the framed runs alone, apart by an ellipsis", () => {
  // "ab cd ef": A cuts a|b cd e|f, B cuts ab cd ef: two runs of A's, apart
  const text = "ab cd ef";
  const a = config("#0072B2", [1, 2, 3, 5, 6], [0, 1, 3, 6, 7], [1, 2, 5, 7, 8]);
  const b = config("#D55E00", [4, 3, 7], [0, 3, 6], [2, 5, 8]);
  const diffs = [[0, 2, [2, 0], [[[], [[0, 2, 0, 2], [6, 8, 0, 2]]], [[], [[0, 2, 0, 1], [6, 8, 0, 1]]]]]];
  const [boxA, boxB] = draw({ only: true }, [a, b], text, diffs).querySelectorAll("div.bv-tokens");
  assert.deepEqual(ids(boxA), [1, 2, 5, 6], "cd, cut alike, is left out");
  assert.equal(boxA.textContent, "ab … ef");
  assert.deepEqual(frames(boxA).map((f) => f.getAttribute("data-bpeviz-diff")), ["0", "1"]);
  assert.deepEqual(ids(boxB), [4, 7]);
});

test("only the differences says so when there are none, with no frame", () => {
  const root = draw({ only: true }, [A, A], TEXT, [[0, 0, [0, 0], [[[], []], [[], []]]]]);
  assert.equal(frames(root).length, 0);
  for (const box of root.querySelectorAll("div.bv-tokens")) {
    assert.equal(box.textContent, "No differences: this configuration cuts the text as the others do.");
  }
  assert.equal(root.querySelector(".bv-cmp-count").textContent,
    "No differences: every configuration cuts this text at the same places.");
});

test("user text and labels are set as text, never read as markup", () => {
  const text = "<img src=x onerror=alert(1)> <b>&amp;";
  const cut = config("#0072B2", [1, 2], [0, 29], [28, 37],
    { 1: ["<img src=x onerror=alert(1)>", "3c"], 2: ["<b>&amp;", "3c"] });
  const root = draw({}, [cut, config("#D55E00", [3], [0], [37])], text,
    [[0, 1, [1, 0], [[[], [[0, 37, 0, 2]]], [[], [[0, 37, 0, 1]]]]]]);
  const tags = new Set();
  const walk = (e) => { tags.add(e.tagName); e.children.forEach(walk); };
  walk(root);
  assert.deepEqual([...tags].sort(), ["B", "DIV", "SPAN"]); // B: the sentence's own bold
  assert.equal(root.querySelectorAll("div.bv-tokens b").length, 0);
  const [a] = root.querySelectorAll("div.bv-tokens");
  assert.equal(a.textContent, text);
  assert.match(a.querySelector("span.bv-chip").title, /^id 1 · <img src=x onerror=alert\(1\)> ·/);
});

test("past maxTokens the rest is left out with a note, the counts covering it", () => {
  const [a] = draw({ maxTokens: 2 }).querySelectorAll("div.bv-tokens");
  assert.deepEqual(ids(a), [1, 2]);
  assert.match(a.textContent, / … 1 more tokens not drawn \(the counts cover them all\)$/);
});

test("the marks at a position are the last sent at or before it", () => {
  // no marks at positions 0-1, the runs from position 2 on, none again from 5
  const none = [[], []];
  const diffs = [[0, 0, [0, 0], [none, none]], DIFFS[0].with(0, 2),
    [5, 0, [0, 0], [[[[0, 2, 0, 2]], []], [[[0, 2, 0, 1]], []]]]];
  const at = (step) => {
    const root = draw({ step, n: 6 }, [A, B], TEXT, diffs);
    return [root.querySelector(".bv-cmp-count").dataset.differing, frames(root).length];
  };
  assert.deepEqual([0, 1, 2, 4, 5, 6].map(at),
    [["0", 0], ["0", 0], ["1", 2], ["1", 2], ["0", 0], ["0", 0]]);
});

test("a payload without marks draws the cuts with none, and no error", () => {
  const root = draw({}, [A, B], TEXT, null);
  assert.equal(frames(root).length, 0);
  assert.equal(root.querySelectorAll("div.bv-tokens")[0].textContent, TEXT);
});
