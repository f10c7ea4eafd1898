// The one table of the step bar's keys (src/keys.json) and what is made from it: the
// handler's actions, the "?" list, the buttons' titles. Run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { buttonLabel, buttonTitle, keyAction, keyRows, KEYS_WHERE, RANGE_KEYS } from "../src/keys.mjs";

const KEYS = JSON.parse(readFileSync(new URL("../src/keys.json", import.meta.url), "utf8"));
const ALL = KEYS.rows.flatMap((row) => row.keys);

test("every key of the table does one thing: a move by steps, to an end, or an act", () => {
  for (const k of ALL) {
    const does = ["by", "to", "act"].filter((field) => k[field] !== undefined);
    assert.equal(does.length, 1, JSON.stringify(k));
    if (k.by !== undefined) assert.ok(Number.isInteger(k.by) && k.by !== 0, k.key);
    if (k.to !== undefined) assert.ok(["first", "last"].includes(k.to), k.key);
    if (k.act !== undefined) assert.ok(["play", "keys", "close"].includes(k.act), k.key);
    assert.ok(typeof k.name === "string" && k.name, k.key);
    assert.ok([undefined, true, false].includes(k.shift), k.key);
    if (k.button !== undefined) assert.ok(KEYS.buttons[k.button], `${k.key}: ${k.button}`);
  }
});

test("no key (with or without Shift) is in the table twice", () => {
  const seen = new Set();
  for (const k of ALL) {
    const ways = k.shift === undefined ? [false, true] : [k.shift];
    for (const shift of ways) {
      const said = `${k.key}${shift ? "+Shift" : ""}`;
      assert.ok(!seen.has(said), `${said} twice`);
      seen.add(said);
    }
  }
});

test("the handler does what the table says, for every key in it", () => {
  for (const k of ALL) {
    const action = keyAction(k.key, k.shift === true, 50, 10, 90);
    const expected = k.act ? { act: k.act }
      : { to: k.to === "first" ? 10 : k.to === "last" ? 90 : 50 + k.by };
    assert.deepEqual(action, expected, JSON.stringify(k));
  }
  assert.equal(keyAction("x", false, 50, 10, 90), null, "a key not in the table");
});

test("the keys' list is the table's rows, in its words, for steps called anything", () => {
  assert.deepEqual(keyRows("merge", "merges"), [
    ["← / →", "one merge back / on"],
    ["Shift + ← / →", "ten merges back / on"],
    ["Home / End", "the first / the last merge"],
    ["Page Down / Page Up", "one merge on / back (a presenter's clicker)"],
    ["Space", "play / pause"],
    ["?", "show / hide these keys"],
  ]);
  assert.equal(keyRows("round", "rounds").length, KEYS.rows.filter((r) => r.what).length);
  assert.equal(KEYS_WHERE, "Keys work anywhere on the page except in a text box.");
});

test("the buttons' titles name their keys from the table", () => {
  assert.equal(buttonTitle("prev", "merge", "merges"), "Previous merge (←; Shift+← ten back)");
  assert.equal(buttonTitle("next", "position", "positions"),
    "Next position (→; Shift+→ ten on)");
  assert.equal(buttonLabel("next", "round", "rounds"), "Next round");
  assert.equal(buttonTitle("play"), "Play / pause (Space)");
  assert.equal(buttonTitle("help"), "Keyboard shortcuts (?)");
  assert.equal(buttonLabel("help"), "Keyboard shortcuts");
});

test("the slider leaves every key it would act on to the page-wide handler", () => {
  for (const k of ALL.filter((x) => x.by !== undefined || x.to !== undefined)) {
    assert.ok(RANGE_KEYS.includes(k.key), k.key);
  }
});
