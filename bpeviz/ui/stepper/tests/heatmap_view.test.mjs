// The pair heatmap drawn by the stage script from numbers: one cell per pair sent, each
// coloured by its value and naming its pair for a click, the next and picked pairs
// ringed, labels as text. A fake DOM (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { loadStage, setUp } from "./stage.mjs";

const { buildHeatmap, patchHeatmap, shade } = await loadStage();

let restore;
beforeEach(() => ({ restore } = setUp()));
afterEach(() => restore());

const data = { rows: [[4, "a"], [9, "<b>"]], cols: [[7, "b"], [5, "c"]], value: "count",
  cells: [0, 0, 12, 12, 1, 1, 3, 3], lo: 3, hi: 12, next: [0, 0], picked: [1, 1], cell: 24 };

test("one cell per pair, named for a click, coloured by its value, ringed where asked", () => {
  const grid = buildHeatmap(data);
  const cells = grid.querySelectorAll(".bv-hm-cell");
  assert.equal(cells.length, 4, "two rows by two columns");
  const picks = cells.map((c) => c.getAttribute("data-pick"));
  assert.deepEqual(picks, ["4,7", null, null, "9,5"]);
  assert.equal(cells[0].textContent, "12");
  assert.equal(cells[0].style.background, shade(12, 3, 12));
  assert.equal(cells[3].style.background, "#440154");
  assert.ok(cells[0].classList.contains("bv-hm-next"));
  assert.ok(cells[3].classList.contains("bv-hm-picked"));
  assert.ok(!cells[1].getAttribute("data-pick") && cells[1].classList.contains("bv-hm-empty"));
  const labels = grid.querySelectorAll(".bv-hm-row").map((r) => r.textContent);
  assert.deepEqual(labels, ["a", "<b>"], "labels are text");
});

test("bad numbers draw an empty grid, not an error", () => {
  const grid = buildHeatmap({ rows: null, cols: "x", cells: 5 });
  assert.equal(grid.querySelectorAll(".bv-hm-cell").length, 0);
});

test("Python's layout is kept: square tracks that may narrow, or the page's width on a stage", () => {
  const plain = buildHeatmap({ ...data, cell: 20, upright: true });
  const grid = plain.querySelectorAll(".bv-hm")[0];
  assert.equal(grid.style.gridTemplateColumns, "max-content repeat(2, minmax(12px, 20px))");
  assert.ok(!grid.classList.contains("bv-hm-wide") && !grid.classList.contains("bv-hm-turned"));
  const stage = buildHeatmap({ ...data, cell: 30, wide: true, upright: false }).querySelectorAll(".bv-hm")[0];
  assert.equal(stage.style.gridTemplateColumns, "max-content repeat(2, minmax(30px, 90px))");
  assert.ok(stage.classList.contains("bv-hm-wide") && stage.classList.contains("bv-hm-turned"));
});

test("values are written only where Python found they fit; the hover isolates each symbol", () => {
  const cells = buildHeatmap({ ...data, values: false }).querySelectorAll(".bv-hm-cell");
  assert.equal(cells[0].textContent, "");
  assert.equal(cells[0].getAttribute("title"), "\u2068a\u2069 + \u2068b\u2069: count 12");
  assert.equal(cells[0].getAttribute("data-count"), "12");
});

test("the legend names the value and its range; with no pair, only the rings' key", () => {
  const box = buildHeatmap({ ...data, value: "score", cells: [0, 0, 0.25, 4, 1, 1, 0.0123, 9],
    lo: 0.0123, hi: 0.25 });
  assert.equal(box.querySelectorAll(".bv-hm-bar-title")[0].textContent, "score");
  assert.equal(box.querySelectorAll(".bv-hm-lo")[0].textContent, "0.012");
  assert.equal(box.querySelectorAll(".bv-hm-hi")[0].textContent, "0.25");
  const none = buildHeatmap({ ...data, cells: [] });
  assert.equal(none.querySelectorAll(".bv-hm-bar").length, 0);
  assert.equal(none.querySelectorAll(".bv-hm-key").length, 2);
});

// an element as plain data: tag, classes, attributes, the styles set, children
function drawn(e) {
  if (!e.tagName) return e.textContent;
  const style = Object.fromEntries(Object.entries(e.style).filter(([, v]) => typeof v === "string" && v !== ""));
  return [e.tagName, e.className, Object.fromEntries([...e.attributes].sort()), style,
    e.childNodes.map(drawn).filter((c) => c !== "")];
}

// the next step: the merged pair gone, counts changed, new labels, the ring moved, a pair
// where there was none
const next = { rows: [[4, "a"], [11, "ab"]], cols: [[7, "b"], [12, "ש"]], value: "count",
  cells: [0, 1, 9, 9, 1, 0, 5, 5, 1, 1, 2, 2], lo: 2, hi: 9, next: [0, 1], picked: null, cell: 24 };

test("a step of the same shape is drawn in the chart's own elements, as a new chart would be", () => {
  const box = buildHeatmap(data);
  const cells = box.querySelectorAll(".bv-hm-cell");
  const labels = box.querySelectorAll(".bv-hm-col");
  assert.equal(patchHeatmap(box, next), true);
  assert.deepEqual(drawn(box), drawn(buildHeatmap(next)), "the same as a chart built for it");
  const after = box.querySelectorAll(".bv-hm-cell");
  assert.ok(after.every((c, i) => c === cells[i]), "the same cell elements");
  assert.ok(box.querySelectorAll(".bv-hm-col").every((c, i) => c === labels[i]));
  // and back: the empty cell, the ring and the legend as step one drew them
  assert.equal(patchHeatmap(box, data), true);
  assert.deepEqual(drawn(box), drawn(buildHeatmap(data)));
  const none = { ...data, cells: [] };
  assert.equal(patchHeatmap(box, none), true);
  assert.deepEqual(drawn(box), drawn(buildHeatmap(none)), "every cell emptied, the bar gone");
});

test("a chart of another shape or layout is not patched, and stays as it was", () => {
  const box = buildHeatmap(data);
  const before = drawn(box);
  for (const other of [{ ...next, rows: next.rows.slice(0, 1), cells: [0, 1, 9, 9] },
    { ...next, cell: 20 }, { ...next, wide: true }, { ...next, upright: false },
    { ...next, values: false }, { ...next, value: "score" }]) {
    assert.equal(patchHeatmap(box, other), false);
    assert.deepEqual(drawn(box), before);
  }
  assert.equal(patchHeatmap(null, data), false);
});
