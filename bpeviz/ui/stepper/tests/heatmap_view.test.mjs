// The pair heatmap drawn by the stage script from numbers: one cell per pair sent, each
// coloured by its value and naming its pair for a click, the next and picked pairs
// ringed, labels as text. A fake DOM (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { loadStage, setUp } from "./stage.mjs";

const { buildHeatmap, shade } = await loadStage();

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
