// The pair heatmap of one step, built from numbers (role "panel", a view node
// {heatmap: {...}}; bpeviz.present.render_heatmap.heatmap_data): rows are left symbols,
// columns right symbols, each cell coloured on Viridis by its value and writing it where
// Python found it fits, the next merge's pair ringed in red and the picked one in blue;
// a cell carries data-pick="left,right" for a click (panel_view.mjs sends it). Python
// lays the chart out (cell size, upright or turned column labels, the page's width in
// presentation mode); a colour bar and a key to the rings sit below it. Labels are user
// text: set with textContent, each isolated in <bdi>.

import { el } from "./chips.mjs";

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
  ? Math.trunc(v).toLocaleString("en-US") : Number(v).toPrecision(2));

const isolated = (text) => `\u2068${text}\u2069`;
const px = (v, fallback) => (Number(v) > 0 ? Number(v) : fallback);

function label(cls, text) {
  const e = el("div", cls);
  e.append(el("bdi", null, String(text ?? "")));
  return e;
}

// The colour bar from lo to hi with the value's name, and what the two rings mean.
function legend(kind, lo, hi, anyCell) {
  const box = el("div", "bv-hm-legend");
  if (anyCell) {
    const bar = el("span", "bv-hm-bar");
    bar.style.background = `linear-gradient(to right, ${VIRIDIS.join(", ")})`;
    box.append(el("span", "bv-hm-bar-title", kind), el("span", "bv-hm-lo", cellText(lo, kind)),
      bar, el("span", "bv-hm-hi", cellText(hi, kind)));
  }
  box.append(el("span", "bv-hm-key bv-hm-key-next", "merged next"),
    el("span", "bv-hm-key bv-hm-key-picked", "in Pair details"));
  return box;
}

export function buildHeatmap(h) {
  const rows = Array.isArray(h.rows) ? h.rows : [];
  const cols = Array.isArray(h.cols) ? h.cols : [];
  const cell = px(h.cell, 24);
  const kind = h.value === "score" ? "score" : "count";
  const box = el("div", "bv-hm-box");
  box.setAttribute("data-value", kind);
  box.style.setProperty?.("--bv-hm-cell", `${cell}px`);
  box.style.setProperty?.("--bv-hm-font", `${px(h.font, 12)}px`);
  const grid = el("div", "bv-hm" + (h.wide ? " bv-hm-wide" : "") + (h.upright === false ? " bv-hm-turned" : ""));
  grid.setAttribute("data-rows", String(rows.length));
  grid.setAttribute("data-cols", String(cols.length));
  // square cells of the size Python chose, narrowed (still square, down to 12 px: 60
  // columns fit a 1400 px window beside the sidebar) where the page is narrower; in
  // presentation mode ("wide") as wide as the page lets them, up to 90 px
  const track = h.wide ? `minmax(${cell}px, 90px)` : `minmax(${Math.min(cell, 12)}px, ${cell}px)`;
  grid.style.gridTemplateColumns = `max-content repeat(${cols.length}, ${track})`;
  const parts = [el("div", "bv-hm-corner")];
  for (const c of cols) parts.push(label("bv-hm-col", c[1]));
  // cells: [r, c, value, count] each, row by row
  const cells = Array.isArray(h.cells) ? h.cells : [];
  const at = new Map();
  for (let i = 0; i + 3 < cells.length; i += 4) at.set(cells[i] * cols.length + cells[i + 1], i);
  const lo = Number(h.lo), hi = Number(h.hi);
  const same = (p, r, c) => Array.isArray(p) && p[0] === r && p[1] === c;
  rows.forEach((row, r) => {
    parts.push(label("bv-hm-row", row[1]));
    cols.forEach((col, c) => {
      const i = at.get(r * cols.length + c);
      if (i === undefined) {
        parts.push(el("div", "bv-hm-cell bv-hm-empty"));
        return;
      }
      const v = Number(cells[i + 2]);
      const marks = (same(h.next, r, c) ? " bv-hm-next" : "") + (same(h.picked, r, c) ? " bv-hm-picked" : "");
      const e = el("div", "bv-hm-cell" + marks, h.values === false ? "" : cellText(v, kind));
      const fill = shade(v, lo, hi);
      e.style.background = fill;
      e.style.color = inkOn(fill);
      e.setAttribute("data-pick", `${row[0]},${col[0]}`);
      e.setAttribute("data-count", String(cells[i + 3]));
      e.setAttribute("title", `${isolated(row[1])} + ${isolated(col[1])}: count `
        + Number(cells[i + 3]).toLocaleString("en-US")
        + (kind === "score" ? `, score ${Number(v).toPrecision(4)}` : ""));
      parts.push(e);
    });
  });
  grid.append(...parts);
  const body = el("div", "bv-hm-body");
  body.append(el("div", "bv-hm-ytitle", "left symbol"), grid);
  box.append(el("div", "bv-hm-xtitle", "right symbol"), body, legend(kind, lo, hi, at.size > 0));
  return box;
}
