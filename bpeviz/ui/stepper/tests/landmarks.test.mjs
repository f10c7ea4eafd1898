// The step bar's landmarks (data.landmarks: SuperBPE's stages): a tick on the slider at
// each step where a phase starts after the first, and beside Play the phase of the bar's
// step, following every key. A fake DOM (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { host, loadStage, mountIn, setUp, shownStep } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

const STAGES = [[0, "stage 1: merges inside words"], [181, "stage 2: merges across spaces"]];
const bar = (step, landmarks) => ({ role: "controls", step, lo: 0, n: 200, speed: "1",
  seq: 0, hist: "h", landmarks });
const phase = () => host(doc, "bar").querySelector(".bv-stage-phase").textContent;

test("the slider has a tick where stage 2 starts, and the bar names its step's stage", () => {
  mountIn(mount, doc, "bar", bar(179, STAGES));
  const root = host(doc, "bar");
  const slider = root.querySelector(".bv-stage-slider");
  const ticks = root.querySelector("datalist");
  assert.equal(slider.getAttribute("list"), ticks.id);
  assert.deepEqual(ticks.children.map((o) => [o.value, o.label]),
    [["181", "stage 2: merges across spaces"]], "no tick at step 0, the slider's start");
  assert.equal(phase(), "stage 1: merges inside words");
  for (const [key, step, stage] of [["ArrowRight", 180, 1], ["ArrowRight", 181, 2],
    ["End", 200, 2], ["Home", 0, 1]]) {
    doc.press(key);
    assert.equal(shownStep(doc, "bar"), step);
    assert.match(phase(), new RegExp(`^stage ${stage}:`), `step ${step}`);
  }
});

test("a training of one phase has no ticks and no phase; bad landmarks are skipped", () => {
  mountIn(mount, doc, "bar", bar(5, undefined));
  const root = host(doc, "bar");
  assert.equal(root.querySelector(".bv-stage-slider").getAttribute("list"), null);
  assert.equal(phase(), "");
  mountIn(mount, doc, "bar", bar(5, [["x", "no step"], "junk", [3, "from 3"]]));
  assert.equal(phase(), "from 3");
});

const PICKY = [[1, "merge", "merge"], [15, "removal of “ok”", "removal"], [16, "merge", "merge"]];
const kind = () => host(doc, "bar").querySelector(".bv-stage-phase").getAttribute("data-kind");

test("a removal is named beside Play in its own kind, and a merge after it is not", () => {
  mountIn(mount, doc, "bar", bar(14, PICKY));
  assert.deepEqual(host(doc, "bar").querySelector("datalist").children.map((o) => o.value),
    ["1", "15", "16"]);
  assert.equal(phase(), "merge");
  assert.equal(kind(), "merge");
  doc.press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 15);
  assert.equal(phase(), "removal of “ok”");
  assert.equal(kind(), "removal");
  doc.press("ArrowRight");
  assert.equal(phase(), "merge");
  assert.equal(kind(), "merge");
  doc.press("Home");
  assert.equal(phase(), "");
  assert.equal(kind(), null, "step 0 is in no phase");
});

test("a landmark's name is drawn as text, never as markup", () => {
  mountIn(mount, doc, "bar", bar(2, [[1, "<img src=x onerror=alert(1)>", "removal"]]));
  assert.equal(phase(), "<img src=x onerror=alert(1)>");
  assert.equal(host(doc, "bar").querySelector(".bv-stage-phase").children.length, 0);
});
