// bpeviz address bar (Streamlit components v2): keeps the active theme in the address
// bar, so that a copied link opens in the theme the speaker sees, and makes the browser's
// history follow what the user did.
// Streamlit forces a theme when the page's URL carries embed_options=dark_theme (or
// light_theme) at load, embedded or not; its own URL updates (a rerun that changes the
// query string, a page switch) drop the option, so this puts it back right after each
// of them (and every EVERY_MS). The active theme is read from the app's background, so a theme picked
// in Streamlit's settings menu shows in the link too, without a rerun.
// Streamlit pushes a history entry for every change of the query string's text. A push
// that names the view already shown (the same settings in another order) replaces the
// entry instead, and so does a push that only moves a step within SETTLE_MS of the last
// such push: scrubbing is one entry, the step it settles on. Play is one entry however
// long it runs and however late Python hears its steps (a busy server may hear none
// until Play stops): every step push while a bar plays, and the first one within
// PLAYED_MS after it stopped, replaces the entry Play's first step made.

const PARAM = "embed_options";
const OPTION = { dark: "dark_theme", light: "light_theme" };
const EVERY_MS = 400;

function activeTheme() {
  const app = document.querySelector("[data-testid=stApp]");
  if (!app) return null;
  const rgb = (getComputedStyle(app).backgroundColor.match(/[\d.]+/g) || []).map(Number);
  if (rgb.length < 3) return null;
  const luma = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  return luma < 128 ? "dark" : "light";
}

function keep() {
  const theme = activeTheme();
  if (!theme) return;
  const url = new URL(window.location.href);
  const have = url.searchParams.getAll(PARAM);
  const want = OPTION[theme];
  if (have.length && have[have.length - 1] === want && have.filter((v) => v === OPTION.dark
      || v === OPTION.light).length === 1) return;
  const others = have.filter((v) => v !== OPTION.dark && v !== OPTION.light);
  url.searchParams.delete(PARAM);
  for (const v of others) url.searchParams.append(PARAM, v); // other embed options stay
  url.searchParams.append(PARAM, want);
  window.history.replaceState(window.history.state, "", url.toString());
}

const STEPS = ["step", "uround", "cmp_step", "cmp_vocab"];
const SETTLE_MS = 1200;
const PLAYED_MS = 8000;

// the settings a URL names, without the theme option, in one order
function view(url) {
  const params = [...url.searchParams].filter(([k]) => k !== PARAM);
  return params.map(([k, v]) => `${k}=${v}`).sort();
}

// how a push to ``target`` from ``current`` enters the history: "same" (the view shown),
// "step" (only a step moved), or "new"
function pushKind(current, target) {
  if (current.pathname !== target.pathname) return "new";
  const a = view(current), b = view(target);
  if (a.join("&") === b.join("&")) return "same";
  const rest = (list) => list.filter((p) => !STEPS.includes(p.split("=")[0])).join("&");
  return rest(a) === rest(b) ? "step" : "new";
}

// the history entry a push makes: replaces the current one for the same view, and for
// a step moved within SETTLE_MS of the last step push. ``last``: that push's time and
// whether the entry it left is Play's (``played``: a bar played since, or plays now);
// ``playing``: a bar plays now. Returns whether to replace and the new ``last``.
function entryFor(current, target, now, last, playing = false) {
  const kind = pushKind(current, target);
  if (kind === "same") return { replace: true, last: last.time, played: !!last.played };
  if (kind !== "step") return { replace: false, last: 0, played: false };
  const recent = now - last.time < SETTLE_MS;
  const ofPlay = !!last.played && (playing || now - last.time < PLAYED_MS);
  // Play's entry stays open while it runs; the push after it stops closes it
  return { replace: recent || ofPlay, last: now, played: playing };
}

// a step bar is playing (stepper.js marks its Play button so)
function playing() {
  return !!document.querySelector(".bv-stage-play.bv-on");
}

// Streamlit writes the URL with history.pushState / replaceState: put the option back
// right after each of its writes (the interval catches anything else)
function follow() {
  const last = { time: 0, played: false };
  // while a bar plays, the entry stays Play's: the step Python hears last (when Play
  // stops) replaces it. A bar that starts playing long after the last step push makes
  // one new entry, at the first step Python hears from it.
  setInterval(() => {
    if (!playing()) return;
    const now = Date.now();
    if (last.played || now - last.time < SETTLE_MS) { last.time = now; last.played = true; }
  }, EVERY_MS);
  const push = window.history.pushState;
  window.history.pushState = function (state, title, url) {
    try {
      const target = new URL(url, window.location.href);
      const entry = entryFor(new URL(window.location.href), target, Date.now(), last,
                             playing());
      last.time = entry.last;
      last.played = entry.played;
      if (entry.replace) return window.history.replaceState(state, title, url);
    } catch (_) { /* an address this cannot read: push it as asked */ }
    return push.call(this, state, title, url);
  };
  let keeping = false;
  const guarded = () => {
    if (keeping) return;
    keeping = true;
    try { keep(); } finally { keeping = false; }
  };
  for (const name of ["pushState", "replaceState"]) {
    const original = window.history[name];
    window.history[name] = function (...args) {
      const result = original.apply(this, args);
      if (!keeping) queueMicrotask(guarded);
      return result;
    };
  }
  window.addEventListener("popstate", guarded);
  return setInterval(guarded, EVERY_MS);
}

function mount() {
  if (!window.__bpevizThemeLink) window.__bpevizThemeLink = follow();
  keep();
  return () => {};
}

if (typeof window !== "undefined") window.bpevizThemeLink = mount;
export { entryFor, pushKind };
export default mount;
