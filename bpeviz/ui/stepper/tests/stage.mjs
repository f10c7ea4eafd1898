// The stage script for the unit tests, and a page for it: a fake document (fake_dom.mjs),
// a window, and a clock of the test's own (setTimeout and performance.now), so that Play,
// the debounced reports and their resends run at once and in order.

import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { Document } from "./fake_dom.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
/** The stage's entry module, src/main.mjs (it exports mount and the rules the tests use).
 * BPEVIZ_STEPPER names a script of one piece to test instead: the joined script the
 * browser gets (bpeviz.present.stage_script.script()), or an older stepper.js, to see a
 * test fail. */
export const STEPPER = process.env.BPEVIZ_STEPPER || join(HERE, "..", "src", "main.mjs");

/** The script's module: the entry module itself, or the one script (copied to a .mjs so
 * that any Node takes it as an ES module). */
export async function loadStage() {
  if (!process.env.BPEVIZ_STEPPER) return import(pathToFileURL(STEPPER).href);
  const copy = join(mkdtempSync(join(tmpdir(), "bpeviz-stepper-")), "stepper.mjs");
  copyFileSync(STEPPER, copy);
  return import(pathToFileURL(copy).href);
}

export class Clock {
  constructor() {
    this.now = 1000;
    this.timers = new Map();
    this.next = 1;
    this.setTimeout = (fn, ms = 0) => {
      const id = this.next++;
      this.timers.set(id, { at: this.now + Math.max(0, Number(ms) || 0), fn, id });
      return id;
    };
    this.clearTimeout = (id) => { this.timers.delete(id); };
  }

  /** Let `ms` milliseconds pass, running each timer that falls due, in order. */
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.values()].filter((t) => t.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers.delete(due.id);
      this.now = due.at;
      due.fn();
    }
    this.now = end;
  }
}

/** A fresh page: document, window (no stage store yet) and clock; `restore()` puts the
 * real globals back. */
export function setUp() {
  const saved = { document: globalThis.document, window: globalThis.window,
    setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  const doc = new Document();
  const clock = new Clock();
  globalThis.document = doc;
  globalThis.window = {};
  globalThis.setTimeout = clock.setTimeout;
  globalThis.clearTimeout = clock.clearTimeout;
  performance.now = () => clock.now;
  const restore = () => {
    Object.assign(globalThis, saved);
    delete performance.now;
  };
  return { doc, clock, restore };
}

/** The element Streamlit would mount a component in (made on first use), by id. */
export function host(doc, id) {
  let e = doc.querySelector(`[id="${id}"]`);
  if (!e) {
    e = doc.createElement("div");
    e.setAttribute("id", id);
    doc.body.append(e);
  }
  return e;
}

/** Mount `data` in the element `id` as components v2 does; returns what the script sent
 * back (its trigger values, [name, value] each). */
export function mountIn(mount, doc, id, data, sent = []) {
  mount({ parentElement: host(doc, id), data,
    setTriggerValue: (name, value) => sent.push([name, value]) });
  return sent;
}

/** The step the bar in `id` shows: its data-bpeviz-step, a number (null: no bar). */
export function shownStep(doc, id) {
  const e = host(doc, id).querySelector("[data-bpeviz-step]");
  return e === null ? null : Number(e.getAttribute("data-bpeviz-step"));
}

export function text(doc, id) {
  return host(doc, id).textContent;
}

export function errors(sent) {
  return sent.filter(([name]) => name === "error").map(([, value]) => value);
}
