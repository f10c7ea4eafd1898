// The histories the browser steps through: a word form's version at a step, a text's
// cut at a step (its words' versions at their offsets), a linear run's value (Compare's
// steps and vocabulary sizes). data.forms[form]: [[step, ids, starts, ends, flags], ...]
// (flags 1 partial, 2 unknown).

// A form's version at step k, and the one before it: [step, ids, starts, ends, flags]
// each ([null, null] when the form has none; a version's missing lists are empty).
export function versionAt(versions, k) {
  const all = Array.isArray(versions) ? versions.filter(Array.isArray) : [];
  if (!all.length) return [null, null];
  let chosen = all[0], before = null;
  for (const v of all) {
    if (v[0] <= k) { before = chosen; chosen = v; } else break;
  }
  return [version(chosen), before && version(before)];
}

function version(v) {
  const list = (x) => (Array.isArray(x) ? x : []);
  return [v[0], list(v[1]), list(v[2]), list(v[3]), list(v[4])];
}

// runs: [[from, value, slope], ...] sorted by `from`: the value at i (0 with no runs)
export function runAt(runs, i) {
  const all = Array.isArray(runs) ? runs.filter(Array.isArray) : [];
  if (!all.length) return 0;
  let chosen = all[0];
  for (const run of all) {
    if (run[0] > i) break;
    chosen = run;
  }
  return chosen[1] + chosen[2] * (i - chosen[0]);
}

// one configuration's tokens at `step`: {ids, starts, ends, flags} (offsets clamped at 0,
// as the encoder clamps a leading metaspace "▁"); none for a missing history
export function cutAt(history, step) {
  const ids = [], starts = [], ends = [], flags = [];
  const words = history && Array.isArray(history.words) ? history.words : [];
  for (const word of words) {
    if (!Array.isArray(word)) continue;
    const [offset, form] = word;
    const [v] = versionAt((history.forms || [])[form], step);
    if (!v) continue;
    for (let j = 0; j < v[1].length; j++) {
      ids.push(v[1][j]);
      starts.push(Math.max(offset + v[2][j], 0));
      ends.push(Math.max(offset + v[3][j], 0));
      flags.push(v[4][j]);
    }
  }
  return { ids, starts, ends, flags };
}
