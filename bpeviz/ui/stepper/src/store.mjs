// The store the stage's instances share (window.__bpevizStage): the bar's step, its
// range and history, the followers' redraws (notify). And the script's own errors:
// reported to Python (report), every entry point run through guard(); debug() records
// what the stage did, for tests.

const MAX_REPORTS = 10; // errors of its own the script reports to Python, per page

export function store() {
  if (!window.__bpevizStage) {
    window.__bpevizStage = { step: null, n: 0, listeners: new Set(), redraws: 0,
                             reported: new Set() };
  }
  return window.__bpevizStage;
}

export function notify(st) {
  st.redraws += 1;
  st.after = [];
  try {
    for (const fn of Array.from(st.listeners)) {
      try { fn(st.step); } catch (err) { report(null, "redraw", err); }
    }
  } finally {
    // what measures the page (the card's fit) runs once every follower has drawn: one
    // layout for the whole redraw, not one after each follower's changes
    const after = st.after;
    st.after = null;
    for (const fn of after) {
      try { fn(); } catch (err) { report(null, "redraw", err); }
    }
  }
  st.lastRedraw = performance.now();
}

// `fn` (which reads the layout) once the redraw under way is over, or now outside one
export function afterRedraw(fn) {
  const st = store();
  if (Array.isArray(st.after)) st.after.push(fn);
  else fn();
}

// -- errors ------------------------------------------------------------------------------
// The script's own errors never reach Streamlit, which would replace the bar with
// "BidiComponent Error". Every entry point (a mount or data update, a redraw for the
// bar's step, a key, a click, a timer) runs through guard(): an error is reported to
// Python (trigger "error": bpeviz/ui/stage.py logs it), and the part that failed puts
// itself back in a valid state. A message is reported once a page, MAX_REPORTS in all
// (each report is a rerun).

// `owner`: the instance (bar or follower) whose component carries the report; a removed
// one hands it to the bar on the page
export function report(owner, where, err) {
  try {
    const st = store();
    const message = String((err && err.message) || err).slice(0, 500);
    const stack = String((err && err.stack) || "").slice(0, 4000);
    if (typeof console !== "undefined") console.error(`bpeviz stage (${where}):`, err);
    debug("error", where, message);
    if (!st.reported) st.reported = new Set();
    const said = `${where}: ${message}`;
    if (st.reported.has(said) || st.reported.size >= MAX_REPORTS) return;
    st.reported.add(said);
    const bar = st.controls;
    const by = owner && (!owner.root || owner.root.isConnected || !bar) ? owner : bar;
    if (by && by.setTriggerValue) by.setTriggerValue("error", { where, message, stack });
  } catch (_) { /* nothing more can be told: the console has it, if anything */ }
}

// fn, its errors reported for `owner` and followed by `recover` (itself guarded)
export function guard(owner, where, fn, recover) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      report(owner, where, err);
      if (recover) {
        try { recover(); } catch (again) { report(owner, `${where} (recovering)`, again); }
      }
      return undefined;
    }
  };
}

// a test can read what the stage did: set window.__bvDebug = [] before the page loads
export function debug(...entry) {
  if (window.__bvDebug) window.__bvDebug.push([Math.round(performance.now()), ...entry]);
}
