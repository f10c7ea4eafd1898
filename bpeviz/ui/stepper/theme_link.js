// bpeviz theme link (Streamlit components v2): keeps the active theme in the address
// bar, so that a copied link opens in the theme the speaker sees.
// Streamlit forces a theme when the page's URL carries embed_options=dark_theme (or
// light_theme) at load, embedded or not; its own URL updates (a rerun that changes the
// query string, a page switch) drop the option, so this puts it back right after each
// of them (and every EVERY_MS). The active theme is read from the app's background, so a theme picked
// in Streamlit's settings menu shows in the link too, without a rerun.

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

// Streamlit writes the URL with history.pushState / replaceState: put the option back
// right after each of its writes (the interval catches anything else)
function follow() {
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
export default mount;
