// The stage script on data it has not received yet, or that belongs to another step or
// another training: it never throws, the bar and the card show a valid step, and an
// error of its own is reported to Python (trigger "error") while the bar keeps working.
// A fake DOM and clock (stage.mjs); run: node --test bpeviz/ui/stepper/tests/
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { errors, host, loadStage, mountIn, setUp, shownStep, text } from "./stage.mjs";

const { default: mount } = await loadStage();

let doc, clock, restore;
beforeEach(() => ({ doc, clock, restore } = setUp()));
afterEach(() => restore());

const bar = (over = {}) => ({ role: "controls", step: 10, lo: 0, n: 200, speed: "1", seq: 0,
  hist: "h", ...over });

// a card of `n` merges (merge k: tokens k and k + 1 make 100 + k)
const card = (n, over = {}) => ({ role: "card", step: 0, n, hist: "h", strong: false,
  labels: {}, merges: Array.from({ length: n }, (_, k) => [k, k + 1, 100 + k, `count ${n - k}`]),
  ...over });

const press = (key, shiftKey = false) => doc.press(key, { shiftKey });
const quiet = (t) => t.mock.method(console, "error", () => {});

function cardSays(id = "card") {
  const shown = text(doc, id);
  const merge = /Merge (\d+)/.exec(shown);
  return merge ? Number(merge[1]) : shown.includes("Step 0") ? 0 : null;
}

test("a mount with no data, or data without a role, draws nothing and reports nothing",
  (t) => {
    const said = quiet(t);
    const sent = [];
    for (const data of [undefined, null, {}, "text", 7, { role: "something else" }]) {
      mountIn(mount, doc, "x", data, sent);
    }
    assert.equal(host(doc, "x").children.length, 0);
    assert.deepEqual(sent, []);
    assert.equal(said.mock.callCount(), 0);
  });

test("a bar with no range or step shows step 0 of 0, and keys keep it there", (t) => {
  const said = quiet(t);
  mountIn(mount, doc, "bar", { role: "controls" });
  assert.equal(shownStep(doc, "bar"), 0);
  assert.match(text(doc, "bar"), /Step 0 of 0/);
  press("ArrowRight");
  press("End");
  assert.equal(shownStep(doc, "bar"), 0);
  assert.equal(said.mock.callCount(), 0);
});

test("a bar sent a step outside its range, or no number, shows the nearest valid step",
  () => {
    const cases = [[500, 200], [-4, 0], ["abc", 0], [null, 0], ["12", 12], [7.4, 7]];
    cases.forEach(([step, shown], i) => {
      mountIn(mount, doc, `bar${i}`, bar({ step }));
      assert.equal(shownStep(doc, `bar${i}`), shown, String(step));
    });
  });

test("the element showing the step carries data-bpeviz-step and the step in words", () => {
  mountIn(mount, doc, "bar", bar({ step: 42 }));
  const e = host(doc, "bar").querySelector("[data-bpeviz-step]");
  assert.ok(e.classList.contains("bv-stage-step"));
  assert.equal(e.getAttribute("data-bpeviz-step"), "42");
  assert.equal(e.textContent, "Step 42 of 200");
  mountIn(mount, doc, "bar", bar({ step: 120, lo: 100, n: 180, name: "Vocabulary size" }));
  assert.equal(e.textContent, "Vocabulary size 120 (100 to 180)");
});

test("keys step the bar and the card, and Python hears the last step once they stop", () => {
  const sent = mountIn(mount, doc, "bar", bar());
  mountIn(mount, doc, "card", card(200));
  press("ArrowRight");
  press("ArrowRight", true);
  assert.equal(shownStep(doc, "bar"), 21);
  assert.equal(cardSays(), 21);
  clock.advance(300);
  assert.deepEqual(sent, [["step", { step: 21, speed: "1", seq: 1 }]]);
});

test("keys in a speaker's rhythm are heard once they stop, not between them", () => {
  // a rerun between two keys draws the page below while the next key waits for the
  // main thread: keys every 350 ms report nothing until the rhythm breaks
  const sent = mountIn(mount, doc, "bar", bar());
  press("ArrowRight");
  clock.advance(200);
  assert.deepEqual(sent, [], "a lone key waits its quiet time (250 ms)");
  clock.advance(150);
  const first = [["step", { step: 11, speed: "1", seq: 1 }]];
  assert.deepEqual(sent, first);
  for (let i = 0; i < 6; i++) {
    press("ArrowRight");
    clock.advance(350);
  }
  assert.deepEqual(sent, first, "no report while the keys keep their rhythm");
  clock.advance(200); // 550 ms after the last key: half as long again as the rhythm
  assert.deepEqual(sent.at(-1), ["step", { step: 17, speed: "1", seq: 2 }]);
  // a key long after: the ordinary quiet time again
  clock.advance(5000);
  press("ArrowLeft");
  clock.advance(260);
  assert.deepEqual(sent.at(-1), ["step", { step: 16, speed: "1", seq: 3 }]);
});

test("a card holding fewer merges than the bar's step shows its last merge", (t) => {
  // the bar and the card of one history, the card's data shorter (seen under load: the
  // card drew "Merge 26" from 10 merges and the whole bar was replaced by an error)
  const said = quiet(t);
  const sentByBar = mountIn(mount, doc, "bar", bar({ step: 26 }));
  const sentByCard = mountIn(mount, doc, "card", card(10, { step: 26 }));
  assert.equal(cardSays(), 10);
  assert.match(text(doc, "card"), /This is the last merge\./);
  press("ArrowRight");
  press("End");
  assert.equal(shownStep(doc, "bar"), 200);
  assert.equal(cardSays(), 10);
  press("Home");
  assert.equal(cardSays(), 0);
  assert.deepEqual([errors(sentByBar), errors(sentByCard)], [[], []]);
  assert.equal(said.mock.callCount(), 0);
});

test("a card of another training keeps its own step until a bar of its training comes",
  (t) => {
    const said = quiet(t);
    mountIn(mount, doc, "bar", bar({ step: 26, hist: "A" }));
    mountIn(mount, doc, "card", card(5, { step: 3, hist: "B" }));
    assert.equal(cardSays(), 3, "Python's step for it, not the other bar's");
    press("ArrowRight");
    assert.equal(shownStep(doc, "bar"), 27);
    assert.equal(cardSays(), 3, "the other training's bar does not move it");
    mountIn(mount, doc, "bar", bar({ step: 3, n: 5, hist: "B" })); // the rerun's bar
    assert.equal(shownStep(doc, "bar"), 3);
    press("ArrowRight");
    assert.equal([shownStep(doc, "bar"), cardSays()].join(), "4,4");
    press("End");
    assert.equal([shownStep(doc, "bar"), cardSays()].join(), "5,5");
    assert.equal(said.mock.callCount(), 0);
  });

test("a card mounted before the bar of its training draws its own step, then follows it",
  () => {
    mountIn(mount, doc, "card", card(50, { step: 8, hist: "B" }));
    assert.equal(cardSays(), 8);
    mountIn(mount, doc, "bar", bar({ step: 8, n: 50, hist: "B" }));
    press("ArrowLeft");
    assert.equal(cardSays(), 7);
  });

test("a bar whose history changed under it takes the new range and clamps its step", (t) => {
  const said = quiet(t);
  mountIn(mount, doc, "bar", bar({ step: 150, hist: "A" }));
  mountIn(mount, doc, "card", card(200, { hist: "A" }));
  press("ArrowRight"); // not heard by Python yet
  mountIn(mount, doc, "bar", bar({ step: 150, n: 20, hist: "B" }));
  assert.equal(shownStep(doc, "bar"), 20);
  assert.match(text(doc, "bar"), /Step 20 of 20/);
  assert.equal(cardSays(), 151, "the old card is not drawn at the new bar's step");
  mountIn(mount, doc, "card", card(20, { step: 150, hist: "B" }));
  assert.equal(cardSays(), 20);
  press("ArrowRight", true);
  assert.equal(shownStep(doc, "bar"), 20);
  press("ArrowLeft", true);
  assert.equal([shownStep(doc, "bar"), cardSays()].join(), "10,10");
  assert.equal(said.mock.callCount(), 0);
});

test("a step carried into a new bar of the same history is clamped into its range", () => {
  mountIn(mount, doc, "old", bar({ step: 190 }));
  press("End"); // 200, not heard yet
  host(doc, "old").remove();
  mountIn(mount, doc, "new", bar({ step: 190, n: 195 }));
  assert.equal(shownStep(doc, "new"), 195);
});

test("words, tokens and compare with parts missing draw what they have", (t) => {
  const said = quiet(t);
  const sent = mountIn(mount, doc, "bar", bar({ step: 2, n: 5 }));
  mountIn(mount, doc, "words", { role: "words", step: 2, n: 5, hist: "h", maxChips: 200,
    words: [[0, "low", 5, [1, 2], [0, 0], [6, 6]], "not a row", [1, "lower", 2],
      [2, "x", 1, [7], [0], [9], [0]], null] }, sent);
  const rows = host(doc, "words").querySelectorAll("tr");
  assert.equal(rows.length, 4, "a heading and the three rows that are rows");
  assert.match(text(doc, "words"), /low.*lower/);
  mountIn(mount, doc, "tokens", { role: "tokens", step: 2, n: 5, hist: "h",
    text: "ab cd", words: [[0, 0], [3, 9], "x"], forms: [[[0, [1, 2], [0, 1], [1, 2]]]] },
  sent);
  assert.match(text(doc, "tokens"), /2 tokens at step 2/);
  mountIn(mount, doc, "nothing", { role: "tokens", step: 2, n: 5, hist: "h" }, sent);
  assert.match(text(doc, "nothing"), /0 tokens at step 2/);
  mountIn(mount, doc, "compare", { role: "compare", hist: "h", lo: 0, n: 5, text: "ab",
    configs: [{ label: "A", colour: "#c00", unit: "step", last: 3 }, null] }, sent);
  assert.match(text(doc, "compare"), /No differences/);
  for (const k of ["End", "Home", "ArrowRight"]) press(k);
  assert.equal(shownStep(doc, "bar"), 1);
  assert.match(text(doc, "tokens"), /2 tokens at step 1/);
  assert.equal(host(doc, "compare").querySelector("[data-bpeviz-position]")
    .getAttribute("data-bpeviz-position"), "1");
  assert.deepEqual(errors(sent), []);
  assert.equal(said.mock.callCount(), 0);
});

// -- the script's own errors: caught, reported, the bar still working ---------------------

// data whose reading throws, as a bug of the script's would
const planted = (message) => new Proxy([], { get() { throw new Error(message); } });

test("a redraw that throws is reported once, and the bar and the card keep a valid step",
  (t) => {
    const said = quiet(t);
    const byBar = mountIn(mount, doc, "bar", bar());
    const byCard = mountIn(mount, doc, "card", card(200));
    assert.equal(cardSays(), 10);
    host(doc, "card").__bvFollower.data.merges = planted("planted in the card");
    for (let i = 0; i < 3; i++) press("ArrowRight");
    assert.equal(shownStep(doc, "bar"), 13, "the bar moves on");
    assert.equal(cardSays(), 10, "the card keeps its last drawing");
    const [report, ...more] = errors(byCard);
    assert.deepEqual(more, [], "the same error is reported once");
    assert.equal(report.where, "redraw");
    assert.equal(report.message, "planted in the card");
    assert.match(report.stack, /drawCard/);
    assert.equal(said.mock.callCount(), 3, "each one is on the console");
    clock.advance(300);
    assert.deepEqual(byBar.at(-1), ["step", { step: 13, speed: "1", seq: 1 }]);
    assert.deepEqual(errors(byBar), []);
  });

test("a data update that throws is reported, and the bar keeps its step and its keys", (t) => {
  quiet(t);
  const sent = mountIn(mount, doc, "bar", bar());
  press("ArrowRight");
  mountIn(mount, doc, "bar", { ...bar(), get n() { throw new Error("no range"); } }, sent);
  assert.deepEqual(errors(sent).map((e) => [e.where, e.message]), [["mount", "no range"]]);
  assert.equal(shownStep(doc, "bar"), 11);
  press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 12);
});

test("a key handler that throws is reported, and the arrows still work", (t) => {
  quiet(t);
  const sent = mountIn(mount, doc, "bar", bar());
  host(doc, "bar").__bvStage.keys = null;
  const event = press("?");
  assert.equal(event.type, "keydown", "the error did not escape to the page");
  assert.deepEqual(errors(sent).map((e) => e.where), ["key"]);
  press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 11);
});

test("a listener that throws does not stop Play", (t) => {
  quiet(t);
  const sent = mountIn(mount, doc, "bar", bar({ step: 0 }));
  window.__bpevizStage.listeners.add(() => { throw new Error("a broken listener"); });
  host(doc, "bar").querySelector('[data-speed="10"]').click();
  host(doc, "bar").querySelector(".bv-stage-play").click();
  clock.advance(1050);
  assert.equal(shownStep(doc, "bar"), 10);
  assert.match(text(doc, "bar"), /Pause/);
  assert.deepEqual(errors(sent).map((e) => [e.where, e.message]),
    [["redraw", "a broken listener"]]);
});

test("Play asks Python nothing; a report that fails on pause leaves a valid step", (t) => {
  quiet(t);
  const reports = [];
  const component = { parentElement: host(doc, "bar"), data: bar({ step: 0 }),
    setTriggerValue: (name, value) => {
      reports.push([name, value]);
      throw new Error("the component is gone");
    } };
  mount(component);
  host(doc, "bar").querySelector('[data-speed="10"]').click();
  host(doc, "bar").querySelector(".bv-stage-play").click();
  clock.advance(2050);
  assert.equal(shownStep(doc, "bar"), 20, "played on at its rate");
  assert.deepEqual(reports.filter(([name]) => name === "step"), [], "no report while playing");
  host(doc, "bar").querySelector(".bv-stage-play").click();  // pause: Python hears step 20
  clock.advance(50);
  assert.ok(reports.some(([name]) => name === "step"), "the pause is reported");
  assert.equal(shownStep(doc, "bar"), 20);
  assert.match(text(doc, "bar"), /▶ Play/);
  press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 21);
});

test("distinct errors are reported ten at most (each report is a rerun)", (t) => {
  quiet(t);
  mountIn(mount, doc, "bar", bar());
  const byCard = mountIn(mount, doc, "card", card(200));
  let n = 0;
  host(doc, "card").__bvFollower.data.merges = new Proxy([], {
    get() { n += 1; throw new Error(`error ${n}`); } });
  for (let i = 0; i < 15; i++) press("ArrowRight");
  assert.equal(shownStep(doc, "bar"), 25);
  assert.equal(errors(byCard).length, 10);
});

test("an element without setTriggerValue (the offline slides) catches its errors too",
  (t) => {
    quiet(t);
    mount({ parentElement: host(doc, "bar"), data: bar() });
    mount({ parentElement: host(doc, "card"), data: card(200) });
    host(doc, "card").__bvFollower.data.merges = planted("planted in the slides");
    press("ArrowRight");
    assert.equal(shownStep(doc, "bar"), 11);
  });

test("a bar a rerun re-creates while Play runs plays on at the old bar's beat", () => {
  mountIn(mount, doc, "bar", bar({ step: 0 }));
  host(doc, "bar").querySelector('[data-speed="10"]').click();
  host(doc, "bar").querySelector(".bv-stage-play").click();
  clock.advance(350); // steps 1, 2, 3 at 100, 200, 300 ms after the click
  assert.equal(shownStep(doc, "bar"), 3);
  host(doc, "bar").remove(); // the rerun's new element takes the old one's place
  mountIn(mount, doc, "bar-again", bar({ step: 0 }));
  assert.equal(shownStep(doc, "bar-again"), 3, "the step carried over");
  clock.advance(50);
  assert.equal(shownStep(doc, "bar-again"), 4, "step 4 on the beat, 400 ms after the click");
  clock.advance(600);
  assert.equal(shownStep(doc, "bar-again"), 10);
  assert.match(text(doc, "bar-again"), /Pause/);
});
