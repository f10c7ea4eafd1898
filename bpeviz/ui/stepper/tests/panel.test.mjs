// A view Python drew for the steps around its own ("Why this merge?") follows the bar's
// step in the same redraw as the card; at a step it was not sent it says the view is
// coming, never showing another step's. A fake DOM and clock (stage.mjs); run:
// node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { Event } from "./fake_dom.mjs";
import { host, loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();
const store = () => globalThis.window.__bpevizStage;

let doc, clock, restore;
beforeEach(() => ({ doc, clock, restore } = setUp()));
afterEach(() => restore());

const N = 50;
const bar = (step) => ({ role: "controls", step, lo: 0, n: N, speed: "1", seq: 0, hist: "h" });
// Python's window around step 10: steps 8..14, each a tree (bpeviz.present.html_tree)
const views = Object.fromEntries([8, 9, 10, 11, 12, 13, 14].map((k) => [String(k),
  [["div", { class: "bv-why", "data-step": String(k) }, `merge ${k} `, ["bdi", {}, "<b>"]]]]));
const panel = (step, over = {}) => ({ role: "panel", step, n: N, hist: "h", views,
  waiting: "Merge {step}: follows when the step settles.", ...over });
const press = (key, shiftKey = false) => doc.press(key, { shiftKey });
const root = () => host(doc, "why").querySelector(".bv-stage-panel");
const why = () => root().querySelector(".bv-why");

test("the panel shows the bar's step while it holds it, and says so when it does not", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "why", panel(10));
  assert.equal(why().dataset.step, "10");
  assert.equal(root().textContent, "merge 10 <b>", "text stays text");
  for (const [key, shift, step] of [["ArrowRight", false, 11], ["ArrowRight", false, 12],
    ["ArrowLeft", false, 11], ["ArrowRight", true, 21], ["Home", false, 0]]) {
    press(key, shift);
    assert.equal(shownStep(doc, "bar"), step);
    assert.equal(root().dataset.step, String(step), "the panel names the bar's step");
    if (views[String(step)]) {
      assert.equal(why().dataset.step, String(step));
    } else {
      assert.equal(root().textContent, `Merge ${step}: follows when the step settles.`);
      assert.equal(why(), null, "no other step's view");
    }
  }
});

test("a new window from Python replaces the waiting note at once", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "why", panel(10));
  press("End");
  assert.match(root().textContent, /^Merge 50:/);
  mountIn(mount, doc, "why", panel(50, { views: { 50: [["p", {}, "merge 50"]] } }));
  assert.equal(root().textContent, "merge 50");
  assert.equal(root().querySelector("p").textContent, "merge 50");
});

test("a panel sent no views, or no waiting text, still names the step", () => {
  mountIn(mount, doc, "why", panel(3, { views: null, waiting: undefined }));
  assert.equal(root().dataset.step, "3");
  assert.match(root().textContent, /^Step 3: this view follows/);
});

test("only plain tags and attributes are built; anything else is left out", () => {
  mountIn(mount, doc, "why", panel(1, { views: { 1: [
    ["p", { class: "ok", onclick: "alert(1)", "data-x": "1", href: "javascript:x" }, "a"],
    ["img src=x onerror=alert(1)", {}, "b"], "<script>text</script>", 7, null,
    ["style", {}, ".bv-x{color:red}", ["b", {}, "dropped"]]] } }));
  const p = root().querySelector("p");
  assert.equal(p.getAttribute("class"), "ok");
  assert.equal(p.getAttribute("data-x"), "1");
  assert.equal(p.getAttribute("onclick"), null);
  assert.equal(p.getAttribute("href"), null);
  assert.equal(root().querySelector("img"), null);
  assert.equal(root().querySelector("style").textContent, ".bv-x{color:red}");
  assert.equal(root().textContent, "a<script>text</script>.bv-x{color:red}");
});

// The panel asks Python (trigger "want", a rerun of its own fragment) for the steps
// around the bar's when what it holds runs out ahead or behind: once per payload.
test("near the edge of its views the panel asks for the steps around the bar's, once", () => {
  mountIn(mount, doc, "bar", bar(10));
  const sent = mountIn(mount, doc, "why", panel(10));
  const asks = () => sent.filter(([name]) => name === "want").map(([, k]) => k);
  assert.deepEqual(asks(), [10], "8..14 held: 15..18 ahead are not");
  press("ArrowRight");
  assert.deepEqual(asks(), [10], "one ask until a new payload answers it");
  const wide = Object.fromEntries(
    Array.from({ length: 30 }, (_, j) => [String(j), [["p", {}, `merge ${j}`]]]));
  mountIn(mount, doc, "why", panel(11, { views: wide }), sent);
  press("ArrowRight", true);
  assert.equal(shownStep(doc, "bar"), 21);
  assert.deepEqual(asks(), [10], "19..29 held: nothing to ask");
  press("ArrowRight");
  assert.deepEqual(asks(), [10, 22], "30 is not held");
});

test("out of view while Play runs, the panel asks for nothing; in view it asks", () => {
  mountIn(mount, doc, "bar", bar(10));
  const sent = mountIn(mount, doc, "why", panel(10));
  const f = root().parentElement.__bvFollower;
  const asks = () => sent.filter(([name]) => name === "want").map(([, k]) => k);
  assert.deepEqual(asks(), [10]);
  f.away = true;  // what the browser's IntersectionObserver says below the first screen
  f.asked = undefined;
  store().controls.playing = true;
  f.paint(11);
  assert.deepEqual(asks(), [10], "nothing asked while playing out of view");
  store().controls.playing = false;
  f.paint(11);
  assert.deepEqual(asks(), [10, 11], "asked once Play stops");
});

test("a window Python cannot fill is not asked for again and again", () => {
  mountIn(mount, doc, "bar", bar(10));
  const sent = mountIn(mount, doc, "why", panel(10));
  const asks = () => sent.filter(([name]) => name === "want").map(([, k]) => k);
  mountIn(mount, doc, "why", panel(10, { views: { ...views } }), sent);  // the same steps
  mountIn(mount, doc, "why", panel(10, { views: { ...views } }), sent);
  assert.deepEqual(asks(), [10], "one ask while the bar stays");
  clock.advance(3100);
  mountIn(mount, doc, "why", panel(10, { views: { ...views } }), sent);
  assert.deepEqual(asks(), [10, 10], "asked again after a while");
});

test("the offline slides, with no Python to ask, only show what they hold", () => {
  mount({ parentElement: host(doc, "why"), data: panel(30) });
  assert.match(root().textContent, /^Merge 30:/);
});

// A ResizeObserver of the test's own (the fake DOM has no layout): what is observed,
// each with the callback a test calls with the sizes it makes up. Removed after each test.
function watchSizes() {
  const watched = [];
  globalThis.ResizeObserver = class {
    constructor(callback) { this.callback = callback; }
    observe(target) { watched.push({ target, callback: this.callback }); }
  };
  return watched;
}

test("the panel keeps the tallest height it has had, until the training changes", () => {
  const watched = watchSizes();
  try {
    const resized = (height) => {
      const w = watched.find((x) => x.target === root());
      w.callback([{ target: w.target, contentRect: { height, width: 600 } }]);
    };
    mountIn(mount, doc, "bar", bar(10));
    mountIn(mount, doc, "why", panel(10));
    assert.equal(root().style.minHeight ?? "", "");
    resized(120.4);
    assert.equal(root().style.minHeight, "121px");
    press("ArrowRight");
    resized(300);
    assert.equal(root().style.minHeight, "300px");
    press("Home"); // step 0's short note: the heatmap below does not move up
    resized(40);
    assert.equal(root().style.minHeight, "300px");
    // the same training sent again (a rerun) keeps it; another training starts afresh
    mountIn(mount, doc, "why", panel(0));
    assert.equal(root().style.minHeight, "300px");
    mountIn(mount, doc, "why", panel(0, { hist: "other", views: { 0: [["p", {}, "x"]] } }));
    assert.equal(root().style.minHeight, "");
    resized(50);
    assert.equal(root().style.minHeight, "50px");
  } finally {
    delete globalThis.ResizeObserver;
  }
});

// The fake DOM has no layout: while installed, an element is as tall as 20 px per <p>
// inside it, and each measure is logged with what the document held at that moment.
function layOutByParagraphs() {
  const proto = Object.getPrototypeOf(doc.body);
  const own = proto.getBoundingClientRect;
  const measures = [];
  proto.getBoundingClientRect = function () {
    const height = 20 * this.querySelectorAll("p").length;
    measures.push({ height, connected: this.isConnected });
    return { top: 0, height, bottom: height, left: 0, right: 0 };
  };
  return { measures, restore: () => { proto.getBoundingClientRect = own; } };
}

const tallViews = { 0: [["p", {}, "step 0: no merge yet"]],
  1: [["div", { class: "bv-why", "data-bpeviz-step": "1" }, ["p", {}, "a"], ["p", {}, "b"],
    ["p", {}, "c"]]],
  2: [["p", {}, "a"], ["p", {}, "b"]] };

test("the views held for the steps around are measured ahead, then taken out unseen", () => {
  const layout = layOutByParagraphs();
  try {
    mountIn(mount, doc, "bar", bar(0));
    mountIn(mount, doc, "why", panel(0, { views: tallViews }));
    // step 1's view is the tallest held: the panel has room for it before any key
    assert.equal(root().style.minHeight, "60px");
    assert.ok(layout.measures.some((m) => m.connected && m.height === 60),
      "measured while laid out in the page");
    assert.equal(root().textContent, "step 0: no merge yet", "only step 0's view is left");
    assert.equal(root().children.length, 1);
    assert.equal(doc.body.querySelectorAll(".bv-why").length, 0, "no copy of step 1's view");
    press("ArrowRight");
    assert.equal(why().dataset.bpevizStep, "1");
    assert.equal(doc.body.querySelectorAll(".bv-why").length, 1);
    // the same window again (a rerun) measures nothing anew; a new one only its new steps
    const before = layout.measures.length;
    mountIn(mount, doc, "why", panel(1, { views: tallViews }));
    assert.equal(layout.measures.length, before);
    mountIn(mount, doc, "why", panel(1, { views: { ...tallViews,
      3: [["p", {}, "1"], ["p", {}, "2"], ["p", {}, "3"], ["p", {}, "4"]] } }));
    assert.deepEqual(layout.measures.slice(before).map((m) => m.height), [80]);
    assert.equal(root().style.minHeight, "80px");
    // another training starts afresh
    mountIn(mount, doc, "why", panel(0, { hist: "other", views: { 0: [["p", {}, "x"]] } }));
    assert.equal(root().style.minHeight, "20px");
  } finally {
    layout.restore();
  }
});

test("a click on what a view offers to pick tells Python what, at the bar's step", () => {
  const cells = Object.fromEntries([10, 11].map((k) => [String(k), [["div", { class: "bv-hm" },
    ["div", { class: "bv-hm-cell", "data-pick": `${k},7` }, ["span", {}, "3"]],
    ["div", { class: "bv-hm-row" }, "a"]]]]));
  mountIn(mount, doc, "bar", bar(10));
  const sent = mountIn(mount, doc, "why", panel(10, { views: cells }));
  press("ArrowRight");
  root().querySelector("span").click(); // the cell's text: the cell is what is picked
  assert.deepEqual(sent.filter(([name]) => name === "pick"), [["pick", { pick: "11,7", step: 11 }]]);
  root().querySelector(".bv-hm-row").click(); // nothing to pick there
  mountIn(mount, doc, "why", panel(11, { views: cells }), sent); // a rerun: one listener still
  root().querySelector(".bv-hm-cell").click();
  assert.deepEqual(sent.filter(([name]) => name === "pick").map(([, v]) => v.pick), ["11,7", "11,7"]);
});

// a heatmap view per step (bpeviz.present.render_heatmap.heatmap_data) with its caption
const chartViews = Object.fromEntries([10, 11, 12].map((k) => [String(k), [
  { heatmap: { rows: [[1, `r${k}`], [2, "x"]], cols: [[3, "y"], [4, `c${k}`]], value: "count",
    cells: [0, 0, k, k, 1, 1, 1, 1], lo: 1, hi: k, next: [0, 0], cell: 24 } },
  ["p", { class: "bv-hm-caption" }, `Count of each pair at step ${k}`]]]));
chartViews["13"] = [{ heatmap: { ...chartViews["12"][0].heatmap, rows: [[1, "r"]],
  cells: [0, 0, 5, 5], hi: 5 } }, ["p", { class: "bv-hm-caption" }, "Count of each pair at step 13"]];

test("a step's heatmap is drawn in the chart already shown when it has the same shape", () => {
  mountIn(mount, doc, "bar", bar(10));
  mountIn(mount, doc, "why", panel(10, { views: chartViews, costly: true }));
  const chart = root().querySelector(".bv-hm-box");
  const cell = root().querySelector(".bv-hm-cell");
  press("ArrowRight");
  assert.equal(root().querySelector(".bv-hm-box"), chart, "the same chart");
  assert.equal(root().querySelector(".bv-hm-cell"), cell);
  assert.equal(cell.textContent, "11");
  assert.equal(root().querySelectorAll(".bv-hm-col")[1].textContent, "c11");
  assert.equal(root().querySelector(".bv-hm-caption").textContent, "Count of each pair at step 11");
  assert.equal(root().children.length, 2, "one chart, one caption");
  press("ArrowRight");
  press("ArrowRight"); // one row fewer: a new chart
  assert.notEqual(root().querySelector(".bv-hm-box"), chart);
  assert.equal(root().querySelectorAll(".bv-hm-row").length, 1);
  assert.equal(root().querySelector(".bv-hm-caption").textContent, "Count of each pair at step 13");
  press("ArrowRight"); // a step not held: the waiting note, then a chart again
  assert.equal(root().querySelectorAll(".bv-hm-box").length, 0);
  press("ArrowLeft");
  assert.equal(root().querySelectorAll(".bv-hm-row").length, 1);
});

test("a costly panel's views are not built ahead to be measured", () => {
  const layout = layOutByParagraphs();
  try {
    mountIn(mount, doc, "bar", bar(10));
    mountIn(mount, doc, "why", panel(10, { views: chartViews, costly: true }));
    assert.equal(layout.measures.length, 0);
    mountIn(mount, doc, "why", panel(10, { views: chartViews }));
    assert.ok(layout.measures.length > 0, "the same views, not costly, are measured");
  } finally {
    layout.restore();
  }
});

// two rows, three columns: pairs at (0, 0), (0, 2) and (1, 2), the next merge at (0, 0)
const sparse = (k) => [{ heatmap: { rows: [[1, "a"], [2, "b"]], cols: [[3, "c"], [4, "d"], [5, "e"]],
  value: "count", cells: [0, 0, 9, 9, 0, 2, k, k, 1, 2, 2, 2], lo: 2, hi: 9, next: [0, 0], cell: 24 } }];
const sparseViews = { 10: sparse(10), 11: sparse(11) };
const keyOn = (target, key) => {
  const event = new Event("keydown", { key, target, shiftKey: false, ctrlKey: false,
    metaKey: false, altKey: false });
  target.dispatchEvent(event);
  return event;
};
const stops = () => root().querySelectorAll('[tabindex="0"]');

test("the heatmap's cells are reached by keys: one Tab stop, arrows between pairs, Enter picks", () => {
  mountIn(mount, doc, "bar", bar(10));
  const sent = mountIn(mount, doc, "why", panel(10, { views: sparseViews, costly: true }));
  const cells = root().querySelectorAll(".bv-hm-cell");
  assert.deepEqual(stops(), [cells[0]], "Tab comes to the pair merged next");
  assert.equal(cells[1].getAttribute("tabindex"), null, "an empty cell is no stop");
  assert.equal(cells[0].getAttribute("role"), "button");
  assert.equal(cells[0].getAttribute("aria-label"), cells[0].getAttribute("title"));
  let event = keyOn(cells[0], "ArrowRight");
  assert.equal(doc.activeElement, cells[2], "the empty cell between is passed over");
  assert.ok(event.defaultPrevented);
  assert.equal(store().step, 10, "the bar's step stays");
  assert.deepEqual(stops(), [cells[2]]);
  keyOn(cells[2], "ArrowDown");
  assert.equal(doc.activeElement, cells[5]);
  keyOn(cells[5], "ArrowLeft"); // only empty cells that way: it stays
  assert.equal(doc.activeElement, cells[5]);
  event = keyOn(cells[5], "Enter");
  assert.ok(event.defaultPrevented);
  assert.deepEqual(sent.filter(([name]) => name === "pick"), [["pick", { pick: "2,5", step: 10 }]]);
  keyOn(cells[5], " ");
  assert.equal(sent.filter(([name]) => name === "pick").length, 2, "Space picks as well");
  // the next step drawn in place keeps the focused cell as Tab's stop
  press("ArrowRight");
  assert.equal(store().step, 11, "outside the cells the bar's keys work");
  assert.deepEqual(stops(), [cells[5]]);
  assert.equal(cells[2].textContent, "11");
});

test("a wide window's views are measured a bounded number per task, nearest first", () => {
  const layout = layOutByParagraphs();
  const idle = [];
  globalThis.requestIdleCallback = (fn) => { idle.push(fn); return idle.length; };
  try {
    // 100 steps held around step 50, step k's view k % 7 + 1 paragraphs tall; the
    // tallest (7 paragraphs) first at step 48 (two behind), then at steps 55 and 62
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [String(k),
      Array.from({ length: (k % 7) + 1 }, () => ["p", {}, String(k)])]));
    mountIn(mount, doc, "bar", bar(50));
    mountIn(mount, doc, "why", panel(50, { views: wide, n: 99 }));
    assert.equal(layout.measures.length, 0, "nothing measured before the page is idle");
    idle.shift()();
    const first = layout.measures.filter((m) => m.connected);
    assert.ok(first.length > 0 && first.length <= 24, `one task measured ${first.length}`);
    assert.equal(root().style.minHeight, "140px", "the nearest steps, step 48's included");
    assert.equal(idle.length, 1, "the rest waits for the next idle moment");
    while (idle.length) idle.shift()();
    assert.equal(layout.measures.filter((m) => m.connected).length, 100, "each measured once");
    assert.equal(root().textContent, "5050", "only the bar's step's view is left");
  } finally {
    delete globalThis.requestIdleCallback;
    layout.restore();
  }
});
