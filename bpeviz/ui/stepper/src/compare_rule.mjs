// Compare's marks at a position, read from what Python sent: the rule that finds which
// token boundaries some configurations' cuts have and others lack lives in one place,
// bpeviz.analysis.compare.mark_differences; bpeviz.present.compare_history.differences
// applies it wherever a cut changes and sends data.diffs:
// [[offset, n, owns, changes], ...], offsets (position - lo) rising; n: the differing
// boundaries, owns[k]: how many are configuration k's; changes[k]: [gone, new], the runs
// of differing tokens k loses and gains since the entry before, each run
// [start, end, skip, count]: its span in characters, its first token the skip-th of those
// starting at start, and how many tokens it holds. The browser takes the last entry at or
// before its position and decides nothing itself.

// what every position's drawing shares: the text's characters; the entry decoded last
export function buildCompare(f) {
  f.ix = { chars: Array.from(typeof f.data.text === "string" ? f.data.text : "") };
  f.decoded = null;
}

const list = (x) => (Array.isArray(x) ? x : []);

// the index of the entry in effect at ``offset`` (-1: none)
function entryAt(diffs, offset) {
  let a = 0, b = diffs.length;
  while (a < b) { // the first entry past offset
    const m = (a + b) >> 1;
    if (Number(list(diffs[m])[0]) <= offset) a = m + 1; else b = m;
  }
  return a - 1;
}

// entry ``j``'s runs per configuration, walked to from the entry decoded last (forward:
// each entry's changes; back: each undone)
function runsAt(f, diffs, j) {
  const d = f.decoded || (f.decoded = { index: -1, runs: [] });
  const apply = (entry, forward) => list(list(entry)[3]).forEach((change, k) => {
    const runs = d.runs[k] || (d.runs[k] = new Map());
    const [gone, gained] = forward ? [change[0], change[1]] : [change[1], change[0]];
    for (const run of list(gone)) runs.delete(list(run).join(","));
    for (const run of list(gained)) if (Array.isArray(run)) runs.set(run.join(","), run);
  });
  while (d.index < j) apply(diffs[++d.index], true);
  while (d.index > j) apply(diffs[d.index--], false);
  return d.runs;
}

// the marks at ``offset``: n, each configuration's own count and runs (sorted)
export function marksAt(f, offset) {
  const diffs = list(f.data.diffs);
  const j = entryAt(diffs, offset);
  if (j < 0) return { n: 0, owns: [], runs: [] };
  const runs = runsAt(f, diffs, j).map((m) => [...m.values()]
    .sort((x, y) => x[0] - y[0] || x[2] - y[2]));
  return { n: Number(diffs[j][1]) || 0, owns: list(diffs[j][2]), runs };
}

// configuration k's marks on its cut ``tokens``: its own count, whether each token
// differs, and its runs' spans (characters)
export function cutMarks(marks, k, tokens) {
  const total = tokens.ids.length, starts = tokens.starts;
  const differs = new Array(total).fill(false), diffSpans = [];
  for (const [start, end, skip, count] of list(marks.runs[k])) {
    let a = 0, b = total;
    while (a < b) { // the first token starting at or after start
      const m = (a + b) >> 1;
      if (starts[m] < start) a = m + 1; else b = m;
    }
    for (let i = a + skip; i < Math.min(a + skip + count, total); i++) differs[i] = true;
    diffSpans.push([start, end]);
  }
  return { own: Number(marks.owns[k]) || 0, differs, diffSpans };
}
