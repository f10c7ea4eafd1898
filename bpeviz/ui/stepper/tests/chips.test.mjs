// A chip names its id and nothing of its colour: the page's one CSS rule colours it
// (bpeviz/present/render.py), the rule Python's chips follow too. Run:
// node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { colour } from "../src/chips.mjs";
import { setUp } from "./stage.mjs";

let doc, restore;
beforeEach(() => ({ doc, restore } = setUp()));
afterEach(() => restore());

test("a chip's style is its id alone", () => {
  const c = doc.createElement("span");
  colour(c, 4217, false);
  assert.equal(c.getAttribute("style"), "--bv-id:4217");
  assert.equal(c.classList.contains("bv-strong"), false);
});

test("strong colours are a class, the id the same", () => {
  const c = doc.createElement("span");
  colour(c, 12, true);
  assert.equal(c.getAttribute("style"), "--bv-id:12");
  assert.equal(c.classList.contains("bv-strong"), true);
});

test("an id that is not a number colours as id 0, never as script", () => {
  const c = doc.createElement("span");
  colour(c, "1;background:url(x)", false);
  assert.equal(c.getAttribute("style"), "--bv-id:0");
});
