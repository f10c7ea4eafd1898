// bpeviz paste keeper (Streamlit components v2): what the user pasted survives a reload
// of the tab. A reload starts a new Streamlit session, which knows nothing of the text;
// the tab's sessionStorage does (it lives as long as the tab, and never leaves the
// browser: the text is not put into the URL). The text is saved as it is typed, before
// Streamlit has it (the box sends its text when it loses focus), and given back to Python
// once per page load when the session's box is empty.

const KEY = "bpeviz.paste";
const BOX = 'textarea[aria-label="Text to train on"]';
const SAVE_MS = 300;

function save(text) {
  try {
    if (text) window.sessionStorage.setItem(KEY, text);
    else window.sessionStorage.removeItem(KEY);
    return true;
  } catch (_) {
    return false; // over the browser's quota (a few million characters): not kept
  }
}

function saved() {
  try { return window.sessionStorage.getItem(KEY) || ""; } catch (_) { return ""; }
}

// follow the box: save what is typed (the box is redrawn by Streamlit: watch the document)
function follow() {
  let timer = null;
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement) || !box.matches(BOX)) return;
    clearTimeout(timer);
    timer = setTimeout(() => save(box.value), SAVE_MS);
  }, true);
}

function mount(component) {
  try {
    const data = component.data || {};
    if (!window.__bpevizPasteKeeper) {
      window.__bpevizPasteKeeper = { restored: false };
      follow();
    }
    const keeper = window.__bpevizPasteKeeper;
    if (!data.has && !keeper.restored) {
      keeper.restored = true;
      const text = saved();
      if (text && component.setTriggerValue) component.setTriggerValue("restore", text);
    }
  } catch (_) { /* keeping the text is a help, never a failure of the page */ }
  return () => {};
}

if (typeof window !== "undefined") window.bpevizPasteKeeper = mount;
export { KEY, save, saved };
export default mount;
