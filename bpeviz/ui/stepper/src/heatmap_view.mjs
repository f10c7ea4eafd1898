// The pair heatmap of one step, built from numbers (role "panel", a view node
// {heatmap: {...}}; bpeviz.present.render_heatmap.heatmap_data): rows are left symbols,
// columns right symbols, each cell coloured on Viridis by its value and writing it where
// Python found it fits, the next merge's pair ringed in red and the picked one in blue;
// a cell carries data-pick="left,right" for a click (panel_view.mjs sends it). Python
// lays the chart out (cell size, upright or turned column labels, the page's width in
// presentation mode); a colour bar and a key to the rings sit below it. Labels are user
// text: set with textContent, each isolated in <bdi>.

import { el } from "./chips.mjs";
import { fmt } from "./numbers.mjs";

// plotly's "Viridis", the scale the charts elsewhere use
export const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89",
  "#35b779", "#6ece58", "#b5de2b", "#fde725"];

// value's colour between lo (darkest) and hi (brightest)
export function shade(value, lo, hi) {
  const share = hi <= lo ? 1 : Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  return VIRIDIS[Math.round(share * (VIRIDIS.length - 1))];
}

// black or white, whichever reads better on a #rrggbb background
export function inkOn(background) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

export const cellText = (v, kind) => (kind === "count"
  ? fmt(Math.trunc(v)) : Number(v).toPrecision(2));

const isolated = (text) => `\u2068${text}\u2069`;
const px = (v, fallback) => (Number(v) > 0 ? Number(v) : fallback);

function label(cls, text) {
  const e = el("div", cls);
  e.append(el("bdi", null, String(text ?? "")));
  return e;
}

// The colour bar from lo to hi with the value's name, and what the two rings mean (the
// legend's contents).
function legendParts(kind, lo, hi, anyCell) {
  const parts = [];
  if (anyCell) {
    const bar = el("span", "bv-hm-bar");
    bar.style.background = `linear-gradient(to right, ${VIRIDIS.join(", ")})`;
    parts.push(el("span", "bv-hm-bar-title", kind), el("span", "bv-hm-lo", cellText(lo, kind)),
      bar, el("span", "bv-hm-hi", cellText(hi, kind)));
  }
  parts.push(el("span", "bv-hm-key bv-hm-key-next", "merged next"),
    el("span", "bv-hm-key bv-hm-key-picked", "in Pair details"));
  return parts;
}

// What fixes a chart's elements: its size in rows and columns and the layout Python chose.
// Two steps of one shape differ only in labels, values and rings, which patchHeatmap
// changes in place.
function shapeOf(h) {
  const n = (a) => (Array.isArray(a) ? a.length : 0);
  return JSON.stringify([n(h.rows), n(h.cols), px(h.cell, 24), px(h.font, 12), Boolean(h.wide),
    h.upright === false, h.values === false, h.value === "score"]);
}

export function buildHeatmap(h) {
  const rows = Array.isArray(h.rows) ? h.rows : [];
  const cols = Array.isArray(h.cols) ? h.cols : [];
  const cell = px(h.cell, 24);
  const box = el("div", "bv-hm-box");
  box.setAttribute("data-value", h.value === "score" ? "score" : "count");
  box.style.setProperty?.("--bv-hm-cell", `${cell}px`);
  box.style.setProperty?.("--bv-hm-font", `${px(h.font, 12)}px`);
  const grid = el("div", "bv-hm" + (h.wide ? " bv-hm-wide" : "") + (h.upright === false ? " bv-hm-turned" : ""));
  grid.setAttribute("data-rows", String(rows.length));
  grid.setAttribute("data-cols", String(cols.length));
  // reachable by keys: Tab comes to one cell (the pair merged next), arrows move between
  // the cells, Enter or Space picks (panel_view.mjs); the bar's keys wait meanwhile
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", "Pair heatmap: rows are left symbols, columns right "
    + "symbols. Arrow keys move between pairs, Enter or Space shows a pair's words.");
  grid.setAttribute("data-bv-keys", "own");
  // square cells of the size Python chose, narrowed (still square, down to 12 px: 60
  // columns fit a 1400 px window beside the sidebar) where the page is narrower; in
  // presentation mode ("wide") as wide as the page lets them, up to 90 px
  const track = h.wide ? `minmax(${cell}px, 90px)` : `minmax(${Math.min(cell, 12)}px, ${cell}px)`;
  grid.style.gridTemplateColumns = `max-content repeat(${cols.length}, ${track})`;
  const parts = [el("div", "bv-hm-corner")];
  const colLabels = cols.map(() => label("bv-hm-col", ""));
  parts.push(...colLabels);
  const rowLabels = [], cells = [];
  rows.forEach(() => {
    const row = label("bv-hm-row", "");
    rowLabels.push(row);
    parts.push(row);
    cols.forEach(() => {
      const e = el("div", "bv-hm-cell");
      cells.push(e);
      parts.push(e);
    });
  });
  grid.append(...parts);
  const body = el("div", "bv-hm-body");
  body.append(el("div", "bv-hm-ytitle", "left symbol"), grid);
  const legendBox = el("div", "bv-hm-legend");
  box.append(el("div", "bv-hm-xtitle", "right symbol"), body, legendBox);
  // the elements a later step of the same shape fills again, and what each shows now
  box.__bvHeatmap = { shape: shapeOf(h), colLabels, rowLabels, cells, legend: legendBox,
    shown: { cols: [], rows: [], cells: [], legend: null } };
  fillHeatmap(box.__bvHeatmap, h);
  return box;
}

// Whether node is a chart patchHeatmap can draw h in: one of h's shape.
export const isHeatmap = (node) => Boolean(node && node.__bvHeatmap);
export const fitsHeatmap = (node, h) => isHeatmap(node) && node.__bvHeatmap.shape === shapeOf(h);

// Draws h in the chart `box` already shows, changing only the labels, cells and legend
// that differ: a step's chart is hundreds of cells, and building them anew for every step
// (and laying all of them out again) was 25-50 ms a step on a 2-core machine, time a key
// or Play's next step waited behind. False, and nothing changed, when box is not a chart
// of h's shape (another number of symbols, another layout): build one then.
export function patchHeatmap(box, h) {
  if (!fitsHeatmap(box, h)) return false;
  fillHeatmap(box.__bvHeatmap, h);
  return true;
}

function fillHeatmap(held, h) {
  const rows = Array.isArray(h.rows) ? h.rows : [];
  const cols = Array.isArray(h.cols) ? h.cols : [];
  const kind = h.value === "score" ? "score" : "count";
  const { shown } = held;
  const relabel = (labels, items, was) => items.forEach((item, i) => {
    const text = String(item[1] ?? "");
    if (was[i] !== text) {
      labels[i].children[0].textContent = text;
      was[i] = text;
    }
  });
  relabel(held.colLabels, cols, shown.cols);
  relabel(held.rowLabels, rows, shown.rows);
  // cells: [r, c, value, count] each, row by row
  const cells = Array.isArray(h.cells) ? h.cells : [];
  const at = new Map();
  for (let i = 0; i + 3 < cells.length; i += 4) at.set(cells[i] * cols.length + cells[i + 1], i);
  const lo = Number(h.lo), hi = Number(h.hi);
  const same = (p, r, c) => Array.isArray(p) && p[0] === r && p[1] === c;
  rows.forEach((row, r) => {
    cols.forEach((col, c) => {
      const n = r * cols.length + c;
      const i = at.get(n);
      const e = held.cells[n];
      if (i === undefined) {
        if (shown.cells[n] === "") return;
        shown.cells[n] = "";
        e.className = "bv-hm-cell bv-hm-empty";
        e.textContent = "";
        e.style.background = "";
        e.style.color = "";
        for (const name of ["data-pick", "data-count", "title", "tabindex", "role", "aria-label"]) {
          e.removeAttribute(name);
        }
        return;
      }
      const v = Number(cells[i + 2]);
      const marks = (same(h.next, r, c) ? " bv-hm-next" : "") + (same(h.picked, r, c) ? " bv-hm-picked" : "");
      const text = h.values === false ? "" : cellText(v, kind);
      const fill = shade(v, lo, hi);
      const title = `${isolated(row[1])} + ${isolated(col[1])}: count `
        + fmt(cells[i + 3])
        + (kind === "score" ? `, score ${Number(v).toPrecision(4)}` : "");
      const pick = `${row[0]},${col[0]}`;
      const key = [marks, text, fill, pick, cells[i + 3], title].join("\u0000");
      if (shown.cells[n] === key) return;
      shown.cells[n] = key;
      e.className = "bv-hm-cell" + marks;
      if (e.textContent !== text) e.textContent = text;
      e.style.background = fill;
      e.style.color = inkOn(fill);
      e.setAttribute("data-pick", pick);
      e.setAttribute("data-count", String(cells[i + 3]));
      e.setAttribute("title", title);
      e.setAttribute("role", "button");
      e.setAttribute("aria-label", title);
      e.setAttribute("tabindex", "-1");
    });
  });
  // one cell is Tab's stop (the rest are reached by arrows): the one with the focus, else
  // the pair merged next, else the first pair
  const focused = typeof document !== "undefined" ? document.activeElement : null;
  const stop = held.cells.includes(focused) && focused.hasAttribute("data-pick") ? focused
    : held.cells.find((c) => c.classList.contains("bv-hm-next"))
      || held.cells.find((c) => c.hasAttribute("data-pick")) || null;
  tabStop(held, stop);
  const legendKey = JSON.stringify([kind, lo, hi, at.size > 0]);
  if (shown.legend !== legendKey) {
    shown.legend = legendKey;
    held.legend.replaceChildren(...legendParts(kind, lo, hi, at.size > 0));
  }
}

function tabStop(held, cell) {
  if (held.stop && held.stop !== cell && held.stop.hasAttribute("data-pick")) {
    held.stop.setAttribute("tabindex", "-1");
  }
  if (cell) cell.setAttribute("tabindex", "0");
  held.stop = cell;
}

// Moves the focus to `cell` of its chart, which becomes Tab's stop.
export function focusCell(cell) {
  const box = cell && cell.closest ? cell.closest(".bv-hm-box") : null;
  if (!box || !box.__bvHeatmap) return;
  tabStop(box.__bvHeatmap, cell);
  cell.focus();
}

// The cell an arrow key moves to from `cell` in its chart: the nearest one holding a pair
// in that direction (empty cells are skipped), or null at the edge.
export function cellBeyond(cell, key) {
  const held = cell && cell.closest ? cell.closest(".bv-hm-box") : null;
  const chart = held && held.__bvHeatmap;
  if (!chart) return null;
  const cols = chart.colLabels.length, at = chart.cells.indexOf(cell);
  if (at < 0 || cols === 0) return null;
  const [dr, dc] = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key] || [0, 0];
  if (dr === 0 && dc === 0) return null;
  const rows = chart.cells.length / cols;
  for (let r = Math.floor(at / cols) + dr, c = (at % cols) + dc; r >= 0 && r < rows && c >= 0 && c < cols;
    r += dr, c += dc) {
    const next = chart.cells[r * cols + c];
    if (next.hasAttribute("data-pick")) return next;
  }
  return null;
}
