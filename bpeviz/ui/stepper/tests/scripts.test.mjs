// Every script readable in the views the stage draws: right-to-left words isolated,
// combining marks on a dotted circle and named, invisible characters drawn with their
// names (data.marks, as bpeviz.display.mark_table makes it). Run:
// node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp } from "./stage.mjs";

const stage = await loadStage();
const { default: mount, hexText, namesTitle, visibleText } = stage;

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

// what bpeviz.display.mark_table sends for these characters
const MARKS = {
  "\u094d": ["\u25cc\u094d", "U+094D DEVANAGARI SIGN VIRAMA"],
  "\u0947": ["\u25cc\u0947", "U+0947 DEVANAGARI VOWEL SIGN E"],
  "\u200d": ["⟨ZWJ⟩", "U+200D ZERO WIDTH JOINER"],
  "\u200f": ["⟨RLM⟩", "U+200F RIGHT-TO-LEFT MARK"],
  "\ufe0f": ["⟨VS16⟩", "U+FE0F VARIATION SELECTOR-16"],
};
const hex = (s) => Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, "0")).join(" ");

test("a combining mark with no letter before it is drawn on a dotted circle", () => {
  assert.equal(visibleText("\u0947", false, MARKS), "\u25cc\u0947");
  assert.equal(visibleText("\u094dत", false, MARKS), "\u25cc\u094dत");
  assert.equal(visibleText(" \u0947", true, MARKS), "·\u25cc\u0947");
  assert.equal(visibleText("नमस्ते", false, MARKS), "नमस्ते"); // marks on their letters: as typed
  assert.equal(visibleText("\u0947", false, null), "\u25cc\u0947"); // without the table too
  assert.ok(!visibleText("\u094d\u0947", false, MARKS).includes("U+"));
});

test("invisible characters are drawn with their short names, an emoji sequence kept whole", () => {
  assert.equal(visibleText("\u200d", false, MARKS), "⟨ZWJ⟩");
  assert.equal(visibleText("a\u200fb", false, MARKS), "a⟨RLM⟩b");
  assert.equal(visibleText("\ufe0f", false, MARKS), "⟨VS16⟩");
  assert.equal(visibleText("👩\u200d💻", false, MARKS), "👩\u200d💻");
  assert.equal(visibleText("❤\ufe0f", false, MARKS), "❤\ufe0f");
  assert.equal(visibleText("a b\n", false, MARKS), "a b\n");
  assert.equal(visibleText("a b\n", true, MARKS), "a·b↵\n");
});

test("a chip's title names the marks of its bytes", () => {
  assert.equal(hexText(hex("क\u094d")), "क\u094d");
  assert.equal(hexText("e0 a5"), ""); // part of a character: nothing to name
  assert.equal(namesTitle("\u094dत\u0947\u094d", MARKS),
    " · \u25cc\u094d U+094D DEVANAGARI SIGN VIRAMA · \u25cc\u0947 U+0947 DEVANAGARI VOWEL SIGN E");
  assert.equal(namesTitle("abc", MARKS), "");
});

const labels = { 1: ["\u25cc\u094d", hex("\u094d")], 2: ["त", hex("त")],
  3: ["\u25cc\u094dत", hex("\u094dत")], 4: ["كت", hex("كت")], 5: ["⟨ZWJ⟩", hex("\u200d")] };

test("the card's chips read in their own direction and name their marks", () => {
  mountIn(mount, doc, "card", { role: "card", step: 1, n: 1, hist: "h", marks: MARKS, labels,
    merges: [[1, 2, 3, "count 4"]] });
  const chips = host(doc, "card").querySelectorAll("span.bv-chip");
  assert.equal(chips.length, 3);
  for (const c of chips) assert.equal(c.getAttribute("dir"), "auto");
  assert.equal(chips[0].textContent, "\u25cc\u094d");
  assert.match(chips[0].title, /U\+094D DEVANAGARI SIGN VIRAMA/);
  assert.match(chips[2].title, /U\+094D DEVANAGARI SIGN VIRAMA/);
  assert.ok(!chips[0].textContent.includes("⟨U+"));
});

test("the words table isolates each word and names its chips' marks", () => {
  mountIn(mount, doc, "words", { role: "words", step: 0, n: 1, hist: "h", marks: MARKS, labels,
    words: [[0, "كتاب", 3, [4], [0], [9], [-1]], [1, "\u094dत", 1, [1, 2], [0, 0], [9, 9], [-1, -1]]] });
  const cells = host(doc, "words").querySelectorAll("tbody tr");
  const bdis = host(doc, "words").querySelectorAll("td bdi");
  assert.equal(bdis.length, 2);
  assert.equal(bdis[0].textContent, "كتاب");
  assert.equal(bdis[1].textContent, "\u25cc\u094dत");
  const chips = cells[1].querySelectorAll("span.bv-chip");
  assert.equal(chips[0].getAttribute("dir"), "auto");
  assert.match(chips[0].title, /DEVANAGARI SIGN VIRAMA/);
});

test("Tokenize's chips draw a lone mark on a dotted circle, a lone joiner by name", () => {
  const text = "क\u094dत \u200d";
  mountIn(mount, doc, "tokens", { role: "tokens", step: 0, n: 1, hist: "h", marks: MARKS,
    labels: { 7: ["क", hex("क")], 1: labels[1], 2: labels[2], 5: labels[5] }, text,
    words: [[0, 0], [4, 1]],
    forms: [[[0, [7, 1, 2], [0, 1, 2], [1, 2, 3], [0, 0, 0]]], [[0, [5], [0], [1], [0]]]] });
  const chips = host(doc, "tokens").querySelectorAll("span.bv-chip");
  assert.deepEqual(chips.map((c) => c.textContent), ["क", "\u25cc\u094d", "त", "⟨ZWJ⟩"]);
  for (const c of chips) assert.equal(c.getAttribute("dir"), "auto");
  assert.match(chips[1].title, /◌् U\+094D DEVANAGARI SIGN VIRAMA/);
  assert.match(chips[3].title, /⟨ZWJ⟩ U\+200D ZERO WIDTH JOINER/);
  assert.ok(!host(doc, "tokens").textContent.includes("⟨U+"));
});

test("Compare's chips draw a lone mark on a dotted circle and name it, never a sliver", () => {
  const text = "क\u094dत";
  const history = { words: [[0, 0]], forms: [[[0, [7, 1, 2], [0, 1, 2], [1, 2, 3], [0, 0, 0]]]] };
  const config = { label: "A", colour: "#123", unit: "step", last: 1, steps: [[0, 0, 0]],
    sizes: [[0, 10, 0]], history, labels: { 7: ["क", hex("क")], 1: labels[1], 2: labels[2] },
    nbytes: {} };
  mountIn(mount, doc, "cmp", { role: "compare", mode: "step", lo: 0, n: 1, step: 0, hist: "h",
    text, marks: MARKS, configs: [config, config] });
  const chips = host(doc, "cmp").querySelectorAll("span.bv-chip");
  assert.deepEqual(chips.slice(0, 3).map((c) => c.textContent), ["क", "\u25cc\u094d", "त"]);
  assert.equal(chips[1].getAttribute("dir"), "auto");
  assert.match(chips[1].title, /U\+094D DEVANAGARI SIGN VIRAMA/);
});

test("an unknown chip on Compare names its own text's bytes, not another unknown's", () => {
  const text = "T👍";
  // one <unk> label for every unknown: its bytes are those of the first it met ("T")
  const history = { words: [[0, 0]], forms: [[[0, [0, 0], [0, 1], [1, 2], [2, 2]]]] };
  const config = { label: "A", colour: "#123", unit: "step", last: 1, steps: [[0, 0, 0]],
    sizes: [[0, 10, 0]], history, labels: { 0: ["<unk>", "54"] }, nbytes: {} };
  mountIn(mount, doc, "cmp", { role: "compare", mode: "step", lo: 0, n: 1, step: 0, hist: "h",
    text, marks: {}, configs: [config, config] });
  const chips = host(doc, "cmp").querySelectorAll("span.bv-chip");
  assert.match(chips[0].title, /bytes 54 · unknown/);
  assert.match(chips[1].title, /bytes f0 9f 91 8d · unknown/);
  assert.ok(chips[1].classList.contains("bv-unk"));
});
