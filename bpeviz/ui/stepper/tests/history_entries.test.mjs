// How a URL write by Streamlit enters the browser's history (theme_link.js): the same
// view replaces, a step moved within a moment of the last step entry replaces, anything
// else is a new entry.
import assert from "node:assert/strict";
import { test } from "node:test";

import { entryFor, pushKind } from "../theme_link.js";

const at = (path) => new URL(path, "http://127.0.0.1:8501");

test("the same settings in another order, or with the theme option, are the same view", () => {
  assert.equal(pushKind(at("/Explore?algo=bbpe&step=10"),
                        at("/Explore?step=10&embed_options=dark_theme&algo=bbpe")), "same");
});

test("a step that moved alone is a step; another setting or page is new", () => {
  assert.equal(pushKind(at("/Explore?algo=bbpe&step=10"), at("/Explore?algo=bbpe&step=13")),
               "step");
  assert.equal(pushKind(at("/Explore?uround=2"), at("/Explore?uround=3")), "step");
  assert.equal(pushKind(at("/Explore?step=10"), at("/Explore?step=13&algo=bbpe")), "new");
  assert.equal(pushKind(at("/Explore?step=10"), at("/Vocabulary?step=10")), "new");
});

test("a settled step is an entry; steps in quick succession are one", () => {
  const last = { time: 0 };
  let entry = entryFor(at("/Explore?step=10"), at("/Explore?step=13"), 10_000, last);
  assert.deepEqual(entry, { replace: false, last: 10_000, played: false });
  last.time = entry.last;
  entry = entryFor(at("/Explore?step=13"), at("/Explore?step=17"), 10_900, last);
  assert.equal(entry.replace, true);
  last.time = entry.last;
  entry = entryFor(at("/Explore?step=17"), at("/Explore?step=18"), 15_000, last);
  assert.equal(entry.replace, false);
});

test("a new view is an entry and closes the step window", () => {
  const last = { time: 10_000 };
  const entry = entryFor(at("/Explore?step=10"), at("/Tokenize?step=10"), 10_100, last);
  assert.deepEqual(entry, { replace: false, last: 0, played: false });
});

test("the view already shown never makes an entry", () => {
  const entry = entryFor(at("/Explore?step=10"), at("/Explore?step=10"), 1, { time: 0 });
  assert.equal(entry.replace, true);
});

test("Play is one entry however late its steps reach the address", () => {
  const open = (entry) => ({ time: entry.last, played: entry.played });
  // Play starts long after the last step entry: its first step is a new entry
  let entry = entryFor(at("/Explore?step=10"), at("/Explore?step=11"), 20_000,
                       { time: 1_000, played: false }, true);
  assert.equal(entry.replace, false);
  // the next step Python hears comes 4 s later (a busy server): still Play's entry
  entry = entryFor(at("/Explore?step=11"), at("/Explore?step=23"), 24_000, open(entry), true);
  assert.equal(entry.replace, true);
  // Play stopped; the step it stopped at reaches the address 3 s later: the same entry
  entry = entryFor(at("/Explore?step=23"), at("/Explore?step=24"), 27_000, open(entry), false);
  assert.equal(entry.replace, true);
  // that push closed Play's entry: the next settled step is an entry of its own
  entry = entryFor(at("/Explore?step=24"), at("/Explore?step=30"), 30_000, open(entry), false);
  assert.equal(entry.replace, false);
});

test("a step long after Play stopped is an entry of its own", () => {
  const entry = entryFor(at("/Explore?step=23"), at("/Explore?step=24"), 40_000,
                         { time: 20_000, played: true }, false);
  assert.equal(entry.replace, false);
});
