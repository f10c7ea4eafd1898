// Compare's difference rule: which token boundaries some configurations' cuts of a text
// have and others lack, the tokens they lie on and the runs of those. It follows
// bpeviz.analysis.compare.compare_tokens exactly (tests/analysis/test_compare_history.py
// runs both at every position). The cuts come from the histories (history.mjs cutAt).

// Python's str.isspace(): the whitespace the engine leaves out of a token's span
const PY_SPACE = new Set([0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0,
  0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);

// what every cut of the text shares (bpeviz.analysis.compare._TextIndex): byte offsets, whitespace
export function buildCompare(f) {
  const chars = Array.from(typeof f.data.text === "string" ? f.data.text : "");
  const n = chars.length;
  const at = new Array(n + 1), space = new Array(n);
  at[0] = 0;
  for (let c = 0; c < n; c++) {
    const cp = chars[c].codePointAt(0);
    at[c + 1] = at[c] + 1 + (cp >= 0x80) + (cp >= 0x800) + (cp >= 0x10000);
    space[c] = PY_SPACE.has(cp);
  }
  const nextSolid = new Array(n + 1), solidEnd = new Array(n + 1);
  nextSolid[n] = n;
  for (let c = n - 1; c >= 0; c--) nextSolid[c] = space[c] ? nextSolid[c + 1] : c;
  solidEnd[0] = 0;
  for (let c = 1; c <= n; c++) solidEnd[c] = space[c - 1] ? solidEnd[c - 1] : c;
  f.ix = { chars, at, space, nextSolid, solidEnd };
}

// each token's span in UTF-8 bytes without whitespace at its ends, or null
// (bpeviz.analysis.compare._span_arrays / token_spans)
export function tokenSpans(ix, cut, nbytes) {
  const { at, space, nextSolid, solidEnd } = ix;
  const { ids, starts, ends, flags } = cut;
  const spans = new Array(ids.length);
  let prevEnd = -1;
  for (let i = 0; i < ids.length; i++) {
    const s = starts[i], e = ends[i];
    if (!(flags[i] & 1)) {
      const loChar = Math.min(nextSolid[s], e), hiChar = Math.max(solidEnd[e], loChar);
      spans[i] = at[loChar] < at[hiChar] ? [at[loChar], at[hiChar]] : null;
      prevEnd = at[e];
      continue;
    }
    // a part of a character: it starts where the token before it stopped inside that
    // character, and spans its own bytes
    let start = at[s];
    if (start < prevEnd && prevEnd < at[s + 1]) start = prevEnd;
    const end = Math.min(start + (nbytes[String(ids[i])] || 0), at[e]);
    prevEnd = end;
    let c = s, lo = start;
    while (c < e && at[c] >= lo && at[c + 1] <= end && space[c]) { lo = at[c + 1]; c++; }
    let hi = end;
    c = e;
    while (c > s && at[c - 1] >= lo && at[c] <= hi && space[c - 1]) { hi = at[c - 1]; c--; }
    spans[i] = lo < hi ? [lo, hi] : null;
  }
  return spans;
}

function holds(points, span) { // a sorted array holds p with span[0] <= p <= span[1]
  let a = 0, b = points.length;
  while (a < b) {
    const m = (a + b) >> 1;
    if (points[m] < span[0]) a = m + 1; else b = m;
  }
  return a < points.length && points[a] <= span[1];
}

// bpeviz.analysis.compare.compare_tokens: every cut's spans, the boundaries some cuts have and
// others lack, the tokens they lie on and the runs of those (character spans)
export function compareCuts(ix, cuts) {
  const boundSets = cuts.map((c) => {
    const b = new Set();
    for (const span of c.spans) if (span) { b.add(span[0]); b.add(span[1]); }
    return b;
  });
  const union = new Set();
  for (const b of boundSets) for (const x of b) union.add(x);
  const common = new Set([...union].filter((x) => boundSets.every((b) => b.has(x))));
  const differing = [...union].filter((x) => !common.has(x)).sort((a, b) => a - b);
  cuts.forEach((c, k) => {
    c.differs = c.spans.map((span) => span !== null && holds(differing, span));
    c.own = [...boundSets[k]].filter((x) => !common.has(x)).length;
    c.diffSpans = [];
    let runStart = null;
    for (let i = 0; i < c.differs.length; i++) {
      const flag = c.differs[i];
      if (flag && runStart === null) runStart = i;
      if (runStart !== null && (!flag || i === c.differs.length - 1)) {
        const last = flag ? i : i - 1;
        let end = c.tokens.ends[runStart];
        for (let j = runStart; j <= last; j++) end = Math.max(end, c.tokens.ends[j]);
        c.diffSpans.push([c.tokens.starts[runStart], end]);
        runStart = null;
      }
    }
  });
  return differing.length;
}
