// A minimal DOM for the stage script's unit tests: just what stepper.js calls (elements,
// text, attributes and dataset, classes, listeners, a document with a body and key
// events). Not a browser: layout, focus and the range input's own clamping are left out.

class Text {
  constructor(text) {
    this.text = String(text);
    this.parentElement = null;
  }

  get textContent() {
    return this.text;
  }

  set textContent(text) {
    this.text = String(text);
  }

  replaceWith(...nodes) {
    replaceWith(this, nodes);
  }
}

// node's place in its parent taken by nodes (strings become text)
function replaceWith(node, nodes) {
  const parent = node.parentElement;
  if (!parent) return;
  const made = nodes.map((n) => (n instanceof Element || n instanceof Text ? n : new Text(n)));
  for (const n of made) {
    if (n.parentElement) n.parentElement.childNodes.splice(n.parentElement.childNodes.indexOf(n), 1);
    n.parentElement = parent;
  }
  parent.childNodes.splice(parent.childNodes.indexOf(node), 1, ...made);
  node.parentElement = null;
}

function camel(name) { // data-bpeviz-step -> bpevizStep
  return name.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

function dashed(key) { // bpevizStep -> data-bpeviz-step
  return `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export class Element {
  constructor(tag, doc) {
    this.tagName = tag.toUpperCase();
    this.ownerDocument = doc;
    this.childNodes = [];
    this.parentElement = null;
    this.attributes = new Map();
    this.listeners = new Map();
    this.style = {};
    this.hidden = false;
    this.disabled = false;
    this.title = "";
    this.type = "";
    this.value = "";
    this.min = "";
    this.max = "";
    this.isContentEditable = false;
    const el = this;
    this.dataset = new Proxy({}, {
      get: (_, key) => (typeof key === "string" ? el.getAttribute(dashed(key)) ?? undefined : undefined),
      set: (_, key, value) => { el.setAttribute(dashed(key), value); return true; },
      ownKeys: () => [...el.attributes.keys()].filter((a) => a.startsWith("data-")).map(camel),
      getOwnPropertyDescriptor: (_, key) => {
        const v = el.getAttribute(dashed(key));
        return v === null ? undefined : { value: v, enumerable: true, configurable: true };
      },
    });
    this.classList = {
      add: (...names) => { for (const n of names) if (!this.classList.contains(n)) this.className = `${this.className} ${n}`.trim(); },
      remove: (...names) => { this.className = this.classes().filter((c) => !names.includes(c)).join(" "); },
      contains: (name) => this.classes().includes(name),
      toggle: (name, on) => {
        const want = on === undefined ? !this.classList.contains(name) : Boolean(on);
        if (want) this.classList.add(name); else this.classList.remove(name);
        return want;
      },
    };
    this.className = "";
  }

  classes() {
    return this.className.split(/\s+/).filter(Boolean);
  }

  get children() {
    return this.childNodes.filter((n) => n instanceof Element);
  }

  get textContent() {
    return this.childNodes.map((n) => n.textContent).join("");
  }

  set textContent(text) {
    this.replaceChildren(String(text));
  }

  get isConnected() {
    let e = this;
    while (e.parentElement) e = e.parentElement;
    return e === this.ownerDocument.documentElement;
  }

  append(...nodes) {
    for (const node of nodes) {
      const n = node instanceof Element || node instanceof Text ? node : new Text(node);
      if (n.parentElement) n.parentElement.childNodes.splice(n.parentElement.childNodes.indexOf(n), 1);
      n.parentElement = this;
      this.childNodes.push(n);
    }
  }

  replaceChildren(...nodes) {
    for (const n of this.childNodes) n.parentElement = null;
    this.childNodes = [];
    this.append(...nodes);
  }

  replaceWith(...nodes) {
    replaceWith(this, nodes);
  }

  remove() {
    if (!this.parentElement) return;
    const siblings = this.parentElement.childNodes;
    siblings.splice(siblings.indexOf(this), 1);
    this.parentElement = null;
  }

  setAttribute(name, value) {
    if (name === "class") this.className = String(value);
    else this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    if (name === "class") return this.className;
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  hasAttribute(name) {
    return this.getAttribute(name) !== null;
  }

  removeAttribute(name) {
    this.attributes.delete(name);
  }

  // simple selectors only: ".a.b", "tag", "[name]", '[name="value"]', '[name*="part"]',
  // and "A B" (descendant)
  matches(selector) {
    const m = /^([a-z]*)((?:\.[\w-]+)*)(?:\[([\w-]+)(?:(\*?)="([^"]*)")?\])?$/i.exec(selector.trim());
    if (!m) throw new Error(`fake DOM: unsupported selector ${selector}`);
    const [, tag, cls, attr, part, value] = m;
    if (tag && this.tagName !== tag.toUpperCase()) return false;
    for (const c of cls.split(".").filter(Boolean)) if (!this.classList.contains(c)) return false;
    if (attr) {
      const got = this.getAttribute(attr);
      if (value === undefined ? got === null : part ? !(got || "").includes(value) : got !== value) return false;
    }
    return true;
  }

  // where the element is drawn: what a test set (this.rect), else nowhere (no size)
  getBoundingClientRect() {
    const r = this.rect || { top: 0, height: 0 };
    return { top: r.top, height: r.height, bottom: r.top + r.height, left: 0, right: 0 };
  }

  closest(selector) {
    for (let e = this; e; e = e.parentElement) if (e.matches(selector)) return e;
    return null;
  }

  querySelectorAll(selector) {
    const parts = selector.trim().split(/\s+/);
    const found = [];
    const walk = (e) => {
      for (const child of e.children) {
        if (child.matches(parts.at(-1)) && ancestorsMatch(child, parts.slice(0, -1), this)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }

  addEventListener(type, fn) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(fn);
  }

  removeEventListener(type, fn) {
    const list = this.listeners.get(type) || [];
    if (list.includes(fn)) list.splice(list.indexOf(fn), 1);
  }

  dispatchEvent(event) {
    event.target = event.target || this;
    // the document's capturing listeners first; one may stop the event there
    for (const l of [...(this.ownerDocument?.listeners || [])]) {
      if (l.type === event.type && l.capture) l.fn(event);
      if (event.stopped) return !event.defaultPrevented;
    }
    for (let e = this; e; e = e.parentElement) { // bubbles up to the document's root
      for (const fn of [...(e.listeners.get(event.type) || [])]) fn(event);
    }
    return !event.defaultPrevented;
  }

  click() {
    if (!this.disabled) this.dispatchEvent(new Event("click"));
  }

  focus() {
    this.ownerDocument.activeElement = this;
  }
}

function ancestorsMatch(e, selectors, top) {
  let i = selectors.length - 1;
  for (let a = e.parentElement; a && i >= 0; a = a.parentElement) {
    if (a.matches(selectors[i])) i -= 1;
    if (a === top) break;
  }
  return i < 0;
}

export class Event {
  constructor(type, init = {}) {
    this.type = type;
    Object.assign(this, init);
    this.defaultPrevented = false;
  }

  preventDefault() {
    this.defaultPrevented = true;
  }

  stopImmediatePropagation() {
    this.stopped = true;
  }
}

export class Document {
  constructor() {
    this.documentElement = new Element("html", this);
    this.body = new Element("body", this);
    this.documentElement.append(this.body);
    this.listeners = [];
  }

  createElement(tag) {
    return new Element(tag, this);
  }

  querySelector(selector) {
    return this.documentElement.querySelector(selector);
  }

  querySelectorAll(selector) {
    return this.documentElement.querySelectorAll(selector);
  }

  // the stage listens on the document in the capture phase: listeners run in order
  addEventListener(type, fn, capture) {
    this.listeners.push({ type, fn, capture: Boolean(capture) });
  }

  removeEventListener(type, fn, capture) {
    this.listeners = this.listeners.filter(
      (l) => !(l.type === type && l.fn === fn && l.capture === Boolean(capture)));
  }

  /** A key press with the focus on `target` (the body unless said); the event. */
  press(key, { shiftKey = false, target = this.body, repeat = false } = {}) {
    const event = new Event("keydown", { key, shiftKey, target, repeat, ctrlKey: false,
      metaKey: false, altKey: false });
    for (const l of [...this.listeners]) if (l.type === "keydown") l.fn(event);
    return event;
  }

  /** A focus event (focusin, focusout) on `target`, as the document's listeners get it. */
  focus(type, target) {
    for (const l of [...this.listeners]) if (l.type === type) l.fn(new Event(type, { target }));
  }

  /** The page scrolled (scroll events reach the document's capturing listeners). */
  scroll() {
    for (const l of [...this.listeners]) if (l.type === "scroll") l.fn(new Event("scroll", {}));
  }

  keyListeners() {
    return this.listeners.filter((l) => l.type === "keydown").length;
  }
}
