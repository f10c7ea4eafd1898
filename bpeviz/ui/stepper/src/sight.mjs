// Followers out of view draw a key's step in the frame after the one that shows it.
// A key's frame is what a speaker waits for: the browser lays out everything the key
// changed before it can paint, so a word table or a merges list below the first screen
// (at 1280x720 they are) made every key's frame wait for their layout too. Drawn a frame
// later, they cost the key nothing; they are out of sight, and one scrolled into view
// with a step still to draw draws it at once.
// Whether a follower is in view comes from an IntersectionObserver, which reports after
// layout: asking the element itself (getBoundingClientRect) in the key's handler would
// force the very layout this saves. Without one (Node's tests, an old browser) or before
// its first report, a follower counts as in view and draws at once.

// Sets up f's watch once; `f.away` is true while f.root is known to be out of view.
export function watchSight(f) {
  if (f.sight || typeof IntersectionObserver !== "function") return;
  f.sight = new IntersectionObserver((entries) => {
    const last = entries[entries.length - 1];
    f.away = !last.isIntersecting;
    if (!f.away) drawLate(f); // scrolled into view with a step still to draw
  });
  f.sight.observe(f.root);
}

// A costly follower (data.costly: the pair heatmap, hundreds of cells a step) out of view
// draws only once the bar has rested on a step this long, or when scrolled into view:
// drawn a frame after every key, its 25-50 ms a step landed between a rapid run of keys
// and between Play's steps at 10 a second. Rested this long, it is drawn well within the
// 300 ms after the last key that what is below the first screen may take.
export const REST_MS = 150;

// Draws step k with f.paint now, or after the next frame while f is out of view (the
// latest step asked for wins; the root says which step it still owes); a costly one out
// of view once the bar has rested on k for REST_MS.
export function paintInSight(f, k) {
  if (!f.away) {
    cancelLate(f);
    f.paint(k);
    return;
  }
  f.late = k;
  f.root.setAttribute("data-bpeviz-follows", String(k));
  if (f.data && f.data.costly) {
    clearTimeout(f.restTimer);
    f.restTimer = setTimeout(() => drawLate(f), REST_MS);
    return;
  }
  if (f.lateQueued) return;
  f.lateQueued = true;
  const run = () => { f.lateQueued = false; drawLate(f); };
  // a frame callback runs before the key's frame is drawn; the task it posts, after
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

// Forgets a step still owed (the follower has just drawn a newer one).
export function cancelLate(f) {
  if (f.restTimer !== undefined) {
    clearTimeout(f.restTimer);
    f.restTimer = undefined;
  }
  if (f.late === undefined) return;
  f.late = undefined;
  f.root.removeAttribute("data-bpeviz-follows");
}

function drawLate(f) {
  if (f.late === undefined || !f.root.isConnected) return;
  const k = f.late;
  cancelLate(f);
  f.paint(k);
}
