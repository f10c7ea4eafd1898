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
