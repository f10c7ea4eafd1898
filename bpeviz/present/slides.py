"""Offline slides: ONE self-contained HTML file that plays the merges of a training.

The file holds the data (every merge, the splits of the most frequent words at every
step, a text's tokens at every step), the stage's script and styles
(``bpeviz/ui/stepper/``, the same code the app runs) and nothing else: no request
leaves it (a Content-Security-Policy forbids any), so a speaker can open it on any
laptop without Python. Keys as in the app (one table of them: ``stepper/src/keys.json``):
← → one merge, Shift+← → ten, Home/End, Page Up/Down, Space play/pause, ``?`` the keys;
the script is the app's, joined into one (:mod:`bpeviz.present.stage_script`). The file
opens at the step and in the theme it was made from (``step``, ``theme``: the Explore
page passes its own), and the keys still reach every step. A training whose record draws
its steps itself (its ``step_views``: PickyBPE's merges and removals) shows its card and
"Why this step?" as drawn there, for the :data:`VIEW_STEPS` steps around the one the file
opens at.

Text from the corpus or the user travels only as JSON data (``<`` escaped, so it can
never close the script element) and the script draws it with ``textContent``.

>>> from bpeviz import Corpus, train
>>> page = slides_html(train(Corpus.from_text("low lower lowest"), merges=3))
>>> page.startswith("<!doctype html>") and "bpevizStage" in page
True
"""

from __future__ import annotations

import html
import importlib
import json
from pathlib import Path
from typing import Any

import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core import protocol
from bpeviz.core.training import Training
from bpeviz.present import render, stage_data, stage_script
from bpeviz.present.html_tree import html_tree
from bpeviz.present.text_history import any_text_history, stage_tokens

#: the themes a file can be made in (None: the system's, as the browser says)
THEMES = ("light", "dark")
#: the most steps whose views Python draws (a PickyBPE step's card and "Why this step?",
#: about 3 KB a step) a file carries, around the step it opens at; the merge card is
#: drawn by the script from every merge and needs no such bound
VIEW_STEPS = 1_000

_PAGE_CSS = """
html{font-size:20px;color-scheme:light dark}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  background:#fff;color:#31333f}
@media (prefers-color-scheme: dark){body{background:#0e1117;color:#fafafa}}
html[data-theme=light]{color-scheme:light}
html[data-theme=light] body{background:#fff;color:#31333f}
html[data-theme=dark]{color-scheme:dark}
html[data-theme=dark] body{background:#0e1117;color:#fafafa}
main{max-width:1200px;margin:0 auto;padding:1rem 2rem 3rem}
h1{font-size:1.6rem;margin:.3rem 0}
h2{font-size:1.15rem;margin:1.2rem 0 .4rem}
.bv-chip{font-weight:600;color:#000}
.bv-card .bv-big{font-size:2em}
.bv-foot{margin-top:2rem;font-size:.8rem}
"""

_BOOT = """
const data = JSON.parse(document.getElementById("bv-data").textContent);
for (const [id, part] of Object.entries(data)) {
  const host = document.getElementById(id);
  if (host && part) window.bpevizStage({ parentElement: host, data: part });
}
"""


def _json(data: Any) -> str:
    """JSON safe inside a <script> element: no ``<``, ``>`` or ``&`` as themselves."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def top_words(training: Any, n: int) -> pd.DataFrame:
    """The ``n`` most frequent words trained on (index: the word's index in the training's
    words: its corpus's, or its own for a training that keeps them, as PickyBPE's does)."""
    words, counts = _words(training)
    frame = pd.DataFrame({"word": list(words), "count": list(counts)})
    return frame.sort_values("count", ascending=False, kind="stable").head(max(n, 0))


def _words(training: Any) -> tuple[Any, Any]:
    corpus = getattr(training, "corpus", None)
    return (corpus.words, corpus.counts) if corpus is not None else (training.words,
                                                                     training.counts)


def view_window(step: int, n: int, size: int = VIEW_STEPS) -> tuple[int, int]:
    """The steps ``lo..hi`` (at most ``size`` of them) of ``0..n`` centred on ``step``.

    >>> view_window(0, 50), view_window(4_000, 10_000), view_window(9_990, 10_000)
    ((0, 50), (3500, 4499), (9001, 10000))
    """
    if n + 1 <= size:
        return 0, n
    lo = min(max(step - size // 2, 0), n + 1 - size)
    return lo, lo + size - 1


def step_views(training: Any, own: Any, step: int, n: int, byte_style: str,
               common: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The card and "Why this step?" of a training whose record draws its steps itself
    (``own``: its ``step_views`` module), for the steps of :func:`view_window`: the
    stage's panel parts, which show the bar's step or say which steps the file holds."""
    lo, hi = view_window(step, n, VIEW_STEPS)
    waiting = (f"Step {{step}} is not in this file, which holds steps {lo:,} to {hi:,}: "
               "make the slides at that step to show it.")
    parts = {}
    for host, draw in (("bv-card", own.step_card_html), ("bv-why", own.why_step_html)):
        views = {str(k): html_tree(draw(training, k, byte_style, True))
                 for k in range(lo, hi + 1)}
        parts[host] = {"role": "panel", **common, "waiting": waiting, "views": views}
    return parts


def slides_html(training: Training, *, text: str | None = None, words: int = 12,
                byte_style: str = "gpt2", title: str | None = None, step: int = 0,
                theme: str | None = None) -> str:
    """The slides of ``training`` as one HTML document (a string).

    ``title``: what the training was made from (the corpus's name); ``step``: the step
    the file opens at (clamped into the merges); ``theme``: "light" or "dark" (else the
    system's).
    """
    n = len(training.merges)
    hist = "slides"
    step = min(max(int(step), 0), n)
    common = {"n": n, "hist": hist, "step": step, "strong": True}
    record = get_algorithm(training.algorithm)
    own = importlib.import_module(record.step_views) if record.step_views else None
    parts: dict[str, Any] = {
        "bv-controls": {"role": "controls", "step": step, "n": n, "speed": "1", "seq": 0,
                        "hist": hist, "standalone": True,
                        "landmarks": [list(m) for m in protocol.landmarks(training)]},
    }
    if own is None:
        parts["bv-card"] = {"role": "card", **common,
                            **stage_data.stage_merges(training, byte_style)}
    else:
        parts.update(step_views(training, own, step, n, byte_style, common))
    history = any_text_history(training, text) if text else None
    if history is not None:
        parts["bv-tokens"] = {"role": "tokens", **common, "showWs": False, "maxTokens": 3000,
                              **stage_tokens(training, text, byte_style, history)}
    rows = top_words(training, words)
    if len(rows):
        parts["bv-words"] = {"role": "words", **common, "maxChips": 200,
                             **stage_data.stage_words(training, rows, byte_style)}
    name = title or getattr(getattr(training, "corpus", None), "name", "") or "a corpus"
    unit = record.step if own is None else training.step_unit  # (a PickyBPE step: merge or removal)
    heading = html.escape(f"{record.label}: {n:,} {unit}s", quote=True)
    about = html.escape(f"Trained on {name}: {len(_words(training)[0]):,} distinct words. "
                        f"Press {stage_script.key_name('next')} for the next {unit}, "
                        f"{stage_script.key_name('play')} to play, "
                        f"{stage_script.key_name('help')} for the keys.",
                        quote=True)
    theme_attr = f' data-theme="{theme}"' if theme in THEMES else ""
    js, css = stage_script.script(), stage_script.css()
    own_css = getattr(own, "CSS", "")
    for code in (js, css, own_css, _BOOT):
        assert "</script" not in code.lower() and "</style" not in code.lower()
    sections = ['<div id="bv-controls"></div>', '<div id="bv-card"></div>']
    if "bv-why" in parts:
        sections += [f"<h2>Why this {unit}?</h2>", '<div id="bv-why"></div>']
    if "bv-tokens" in parts:
        sections += ["<h2>The text, cut into the tokens of this step</h2>",
                     '<div id="bv-tokens"></div>']
    if "bv-words" in parts:
        sections += [f"<h2>The {len(rows):,} most frequent words, split at this step</h2>",
                     '<div id="bv-words"></div>']
    return "\n".join([
        "<!doctype html>",
        f'<html lang="en"{theme_attr}><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # nothing may be fetched: the file is the whole show
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">",
        f"<title>{heading} · bpeviz</title>",
        f"<style>{render.CSS}{css}{own_css}{_PAGE_CSS}</style>",
        "</head><body><main>",
        f"<h1>{heading}</h1>",
        f'<p class="bv-muted">{about}</p>',
        *sections,
        '<p class="bv-muted bv-foot">Made with bpeviz. Colours follow the token id.</p>',
        "</main>",
        f'<script type="application/json" id="bv-data">{_json(parts)}</script>',
        f'<script type="module">{js}</script>',
        f'<script type="module">{_BOOT}</script>',
        "</body></html>",
    ])


def write_slides(training: Training, path: str | Path, **options: Any) -> int:
    """Write :func:`slides_html` to ``path``; returns its size in bytes."""
    from bpeviz.core.files import write_atomic

    data = slides_html(training, **options).encode("utf-8")
    write_atomic(path, data)
    return len(data)
