// The pair heatmap of one step, built from numbers (role "panel", a view node
// {heatmap: {...}}; bpeviz.present.render_heatmap.heatmap_data): rows are left symbols,
// columns right symbols, each cell coloured on Viridis by its value, cellText where it
// fits, the next merge's pair ringed in red and the picked one in blue; a cell carries
// data-pick="left,right" for a click (panel_view.mjs sends it). Labels are user text:
// drawn with textContent, isolated in <bdi>.

import { el } from "./chips.mjs";

// plotly's "Viridis", as the Plotly heatmap drew it
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

const cellText = (v, kind) => (kind === "count" ? Math.trunc(v).toLocaleString("en-US")
  : Number(v).toPrecision(2));

export function buildHeatmap(h) {
  const rows = Array.isArray(h.rows) ? h.rows : [];
  const cols = Array.isArray(h.cols) ? h.cols : [];
  const cell = Number(h.cell) > 0 ? Number(h.cell) : 24;
  const grid = el("div", "bv-hm");
  grid.setAttribute("data-rows", String(rows.length));
  grid.setAttribute("data-cols", String(cols.length));
  grid.style.gridTemplateColumns = `auto repeat(${cols.length}, ${cell}px)`;
  grid.style.setProperty?.("--bv-hm-cell", `${cell}px`);
  const label = (cls, text) => {
    const e = el("div", cls);
    e.append(el("bdi", null, String(text ?? "")));
    return e;
  };
  const parts = [el("div")];
  for (const c of cols) parts.push(label("bv-hm-col", c[1]));
  // cells: [r, c, value, count] each, row by row
  const cells = Array.isArray(h.cells) ? h.cells : [];
  const at = new Map();
  for (let i = 0; i + 3 < cells.length; i += 4) at.set(cells[i] * cols.length + cells[i + 1], i);
  const lo = Number(h.lo), hi = Number(h.hi), kind = h.value === "score" ? "score" : "count";
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
      const text = cellText(v, kind);
      const e = el("div", "bv-hm-cell" + marks, text.length * 7 <= cell ? text : "");
      const fill = shade(v, lo, hi);
      e.style.background = fill;
      e.style.color = inkOn(fill);
      e.setAttribute("data-pick", `${row[0]},${col[0]}`);
      e.setAttribute("title", `${row[1]} + ${col[1]}: count ${Number(cells[i + 3]).toLocaleString("en-US")}`
        + (kind === "score" ? `, score ${Number(v).toPrecision(4)}` : ""));
      parts.push(e);
    });
  });
  grid.append(...parts);
  return grid;
}
