// Numbers from the data: whole numbers, a step clamped into its range, the range of a
// payload, the step a follower draws; and numbers as the page writes them (1,200).

// one formatter for every number: toLocaleString makes one per call, which at 50,000
// merges (the card's counts, formatted when its data arrives) held the page for 0.8 s
const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
export function fmt(n) {
  return WHOLE.format(Number(n));
}

// a whole number from what came (a number or its text), else `fallback`
export function whole(x, fallback) {
  const v = typeof x === "number" || typeof x === "string" ? Number(x) : NaN;
  return Number.isFinite(v) && String(x).trim() !== "" ? Math.round(v) : fallback;
}

// k within lo..n (lo when k is no number, or n below lo)
export function clamp(k, n, lo = 0) {
  const v = Number.isFinite(k) ? Math.round(k) : lo;
  return Math.max(Math.min(v, n), lo);
}

// the range lo..n of a payload (or a bar): whole numbers, n never below lo
export function bounds(data) {
  const lo = whole(data.lo, 0);
  return [lo, Math.max(whole(data.n, lo), lo)];
}

// the step a follower draws for the bar's step k: within its own data's range; its own
// step (data.step) when the bar has none
export function followStep(data, k) {
  const [lo, n] = bounds(data);
  return clamp(k ?? whole(data.step, lo), n, lo);
}
