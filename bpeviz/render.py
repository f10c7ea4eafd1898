"""HTML and Plotly figures for the explorer: pure functions, no streamlit.

Every string that may come from a user (corpus words, tokens, input text, file names)
goes through :func:`esc` before it reaches HTML, and through :func:`chart_text` before it
reaches a Plotly label or hover text (Plotly reads ``<b>``, ``<br>``, entities and
``$...$`` in labels).

>>> esc('<img src=x onerror="alert(1)">')
'&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
>>> chart_text("<b>$x$ & y</b>")
'&lt;b&gt;&#36;x&#36; &amp; y&lt;/b&gt;'
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bpeviz.algorithms import get as get_algorithm
from bpeviz.display import label, visible
from bpeviz.symbols import Symbol
from bpeviz.training import Merge
from bpeviz.views import PairGrid, TreeNode

# -- escaping -------------------------------------------------------------------------


def esc(text: object) -> str:
    """Escape for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def chart_text(text: object) -> str:
    """Escape for Plotly labels and hover text: ``& < >`` as entities, ``$`` as ``&#36;``."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("$", "&#36;"))


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>$~&:\"'=^")


def md_escape(text: object) -> str:
    """Backslash-escape Markdown (and Streamlit's ``$``, ``:``) so text shows literally.

    >>> md_escape("**bold** $x$ <b>")
    '\\\\*\\\\*bold\\\\*\\\\* \\\\$x\\\\$ \\\\<b\\\\>'
    """
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text))


# -- colours --------------------------------------------------------------------------


def token_hue(token_id: int) -> float:
    """A hue for a token id: the golden angle spreads neighbouring ids far apart."""
    return (int(token_id) * 137.508) % 360


def chip_style(token_id: int, strong: bool = False) -> str:
    """Inline colours of a token chip: a light background with dark text (any theme)."""
    h = token_hue(token_id)
    if strong:
        return f"background:hsl({h:.0f},90%,80%);border-color:hsl({h:.0f},80%,25%)"
    return f"background:hsl({h:.0f},75%,87%);border-color:hsl({h:.0f},55%,45%)"


CSS = """
.bv-chip{display:inline-block;padding:0 .3em;margin:.1em .12em;border-radius:.35em;
  border:1px solid;color:#111;white-space:pre;line-height:1.45;
  font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95em}
.bv-chip.bv-new{outline:3px solid #d1242f;outline-offset:1px;font-weight:700}
.bv-chip.bv-unk{background:repeating-linear-gradient(45deg,#ffe1e1,#ffe1e1 5px,#ff9b9b 5px,
  #ff9b9b 10px)!important;border:2px dashed #a40e26!important;color:#5c0010}
.bv-chip.bv-partial{border-style:dashed;border-width:2px;font-style:italic}
.bv-chip.bv-sel{outline:3px solid #0b5cff;outline-offset:1px}
.bv-gap{white-space:pre-wrap;opacity:.75;font-family:ui-monospace,Menlo,Consolas,monospace}
.bv-tokens{white-space:pre-wrap;line-height:2.1;word-break:break-word}
.bv-words{border-collapse:collapse;width:100%}
.bv-words td,.bv-words th{padding:.15em .5em;border-bottom:1px solid rgba(128,128,128,.3);
  text-align:left;vertical-align:top}
.bv-words td.bv-num,.bv-words th.bv-num{text-align:right;font-variant-numeric:tabular-nums}
.bv-words tr.bv-changed td{background:rgba(255,200,0,.25)}
.bv-scroll{max-width:100%;overflow-x:auto}
.bv-merges td,.bv-merges th{padding:.15em .3em}
.bv-merges td.bv-num{white-space:nowrap}
.bv-merges td.bv-tok{white-space:pre-wrap;overflow-wrap:anywhere;min-width:2.5em;
  font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.bv-merges tr.bv-now td{background:rgba(255,200,0,.45);font-weight:700}
.bv-words tr.bv-changed td:first-child{border-left:4px solid #e0a000}
.bv-card{border:2px solid rgba(128,128,128,.45);border-radius:.6em;padding:.6em .9em;
  margin-bottom:.4em;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere}
.bv-merge{display:inline-flex;flex-wrap:wrap;align-items:center;gap:.15em .3em;min-width:0;
  max-width:100%;vertical-align:middle}
.bv-merge>*{min-width:0;max-width:100%}
.bv-card .bv-chip{overflow:hidden;text-overflow:ellipsis;box-sizing:border-box;
  max-width:100%}
.bv-card .bv-nums{font-size:max(1rem,.6em);white-space:normal}
.bv-card .bv-big{font-size:1.6em}
.bv-card .bv-arrow{margin:0 .2em;opacity:.7}
.bv-muted{opacity:.7}
.bv-tree ul{list-style:none;margin:0;padding-left:1.4em;border-left:2px solid rgba(128,128,128,.4)}
.bv-tree li{margin:.25em 0}
.bv-tree>ul{border-left:none;padding-left:0}
[data-testid="stHeader"]{background:transparent;height:2.5rem}
[data-testid="stMainBlockContainer"]{padding-top:3rem}
.bv-badge{display:inline-block;font-size:.75em;padding:0 .4em;border-radius:.6em;
  background:#e0a000;color:#111;margin-left:.3em}
"""

PRESENTATION_CSS = """
html{font-size:21px}
h1{font-size:2.1rem!important;padding:.1rem 0 .3rem!important}
[data-testid="stMainBlockContainer"]{padding-top:2.6rem;padding-bottom:3rem}
[data-testid="stDataFrame"],[data-testid="stTable"]{zoom:1.3}
.bv-card .bv-big .bv-nums{font-size:max(1rem,.45em)}
.bv-chip{font-size:1.15em;border-width:2px;font-weight:600;color:#000}
.bv-words tr.bv-changed td,.bv-merges tr.bv-now td{background:#ffd84d;color:#000}
.bv-card{border-width:3px}
.bv-card .bv-big{font-size:2.1em}
.bv-tokens{line-height:2.4}
.bv-merges{font-size:.8em}
"""


def style_block(presentation: bool = False) -> str:
    """The ``<style>`` element every page draws once."""
    return "<style>" + CSS + (PRESENTATION_CSS if presentation else "") + "</style>"


# -- chips ----------------------------------------------------------------------------


_SANITIZER_DROPS = re.compile(r"<(?=/)|(?<=[-!\]])(?=>)")


def attr_text(text: str) -> str:
    """``text`` for an attribute value that ``st.html``'s sanitizer keeps.

    DOMPurify drops a whole attribute whose value holds ``</script``, ``</style``,
    ``</title`` (and a few more closing tags), ``-->``, ``--!>`` or ``]>``, so a token
    such as ``</script>`` lost its hover title. An invisible word joiner (U+2060) goes
    after ``<`` before ``/``, and before ``>`` after ``-``, ``!`` or ``]``.

    >>> attr_text("</script> --> ]>")
    '<\u2060/script> --\u2060> ]\u2060>'
    """
    return _SANITIZER_DROPS.sub(lambda m: m.group() + "\u2060" if m.group() else "\u2060",
                                text)


def chip(text: str, token_id: int, *, title: str = "", classes: Iterable[str] = (),
         strong: bool = False) -> str:
    """One token chip; ``text`` and ``title`` are escaped here."""
    cls = " ".join(["bv-chip", *classes])
    return (f'<span class="{cls}" style="{chip_style(token_id, strong)}" '
            f'data-id="{int(token_id)}" title="{esc(attr_text(title))}">{esc(text)}</span>')


def symbol_chip(symbol: Symbol, token_id: int, byte_style: str = "gpt2", *,
                new: bool = False, strong: bool = False,
                notes: Callable[[Symbol], str] | None = None, part: str = "") -> str:
    """A chip for a vocabulary symbol, titled with its id and bytes, the character it is
    part of (``part``, from :func:`part_of_notes`), and what its marks mean when
    ``notes`` is given (:class:`bpeviz.glossary.ChipNotes`)."""
    shown = label(symbol, byte_style)
    raw = symbol if isinstance(symbol, bytes) else symbol.encode("utf-8", "surrogatepass")
    note = notes(symbol) if notes is not None else ""
    title = (f"id {token_id} · {shown} · bytes {raw.hex(' ')}" + (f" · {part}" if part else "")
             + (f" · {note}" if note else ""))
    return chip(shown, token_id, title=title, classes=["bv-new"] if new else [], strong=strong)


def splits_html(
    rows: Sequence[tuple[int, str, int, Sequence[Symbol], Sequence[int], bool]],
    byte_style: str = "gpt2",
    new_token_id: int | None = None,
    strong: bool = False,
    max_chips: int = 200,
    notes: Callable[[Symbol], str] | None = None,
) -> str:
    """A table of words: ``(index, word, count, symbols, ids, changed)`` per row.

    Words changed by the current merge are highlighted; chips of the new token outlined.
    A word longer than ``max_chips`` tokens shows its first ones and how many are left;
    a long word is cut too.
    """
    out = ['<table class="bv-words"><thead><tr><th class="bv-num">#</th><th>word</th>'
           '<th class="bv-num">count</th><th>split</th></tr></thead><tbody>']
    for index, word, count, symbols, ids, changed in rows:
        chips = "".join(symbol_chip(s, i, byte_style, new=(i == new_token_id and changed),
                                    strong=strong, notes=notes)
                        for s, i in zip(symbols[:max_chips], ids[:max_chips]))
        if len(ids) > max_chips:
            chips += f'<span class="bv-muted"> … and {len(ids) - max_chips:,} more</span>'
        badge = '<span class="bv-badge">changed</span>' if changed else ""
        shown = visible(word[:120]) + ("…" if len(word) > 120 else "")
        out.append(f'<tr class="{"bv-changed" if changed else ""}">'
                   f'<td class="bv-num">{int(index) + 1}</td><td>{esc(shown)}{badge}</td>'
                   f'<td class="bv-num">{int(count):,}</td><td>{chips}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def merge_card_html(merge: Merge | None, next_merge: Merge | None, algorithm: str,
                    byte_style: str = "gpt2", strong: bool = False) -> str:
    """The merge just made (left + right -> token, count, score) and the one coming next."""
    scored = get_algorithm(algorithm).scored

    def one(m: Merge) -> str:
        value = (f"score {m.score:.4g} · count {m.count:,}" if scored
                 else f"count {m.count:,}")
        # a wrapping row: a token too long for the card is cut with an ellipsis (its
        # title holds it whole) and the numbers go to the next line, never under a chip
        return (f'<span class="bv-merge">'
                f'{symbol_chip(m.left, m.left_id, byte_style, strong=strong)}<span>+</span>'
                f'{symbol_chip(m.right, m.right_id, byte_style, strong=strong)}'
                f'<span class="bv-arrow">→</span>'
                f'{symbol_chip(m.token, m.token_id, byte_style, new=True, strong=strong)}'
                f'<span class="bv-muted bv-nums">{esc(value)} · id {m.token_id}</span></span>')

    if merge is None:
        now = ('<div><b>Step 0</b>: no merge yet; every word is split into its initial '
               'symbols.</div>')
    else:
        now = (f'<div class="bv-muted">Merge {merge.step}</div>'
               f'<div class="bv-big">{one(merge)}</div>')
    after = (f'<div class="bv-muted" style="margin-top:.4em">Next: {one(next_merge)}</div>'
             if next_merge is not None else
             '<div class="bv-muted" style="margin-top:.4em">This is the last merge.</div>')
    return f'<div class="bv-card">{now}{after}</div>'


def merges_window_html(frame: pd.DataFrame, step: int) -> str:
    """Rows of :func:`bpeviz.views.merges_frame` as a table; the row of ``step`` marked ▶.

    Tokens wrap inside their cells (a long token is never cut); ``score`` shows when the
    frame has it.
    """
    score = "score" in frame
    head = ["step", "left", "right", "token", "count", *(["score"] if score else []), "id"]
    num = {"step", "count", "score", "id"}
    out = ['<div class="bv-scroll"><table class="bv-words bv-merges"><thead><tr>'
           + "".join(f'<th class="{"bv-num" if h in num else ""}">{h}</th>' for h in head)
           + "</tr></thead><tbody>"]
    for row in frame.itertuples(index=False):
        now = int(row.step) == step
        cells = [f'<td class="bv-num">{"▶ " if now else ""}{int(row.step)}</td>',
                 *(f'<td class="bv-tok">{esc(t)}</td>' for t in (row.left, row.right, row.token)),
                 f'<td class="bv-num">{int(row.count):,}</td>',
                 *([f'<td class="bv-num">{float(row.score):.4g}</td>'] if score else []),
                 f'<td class="bv-num">{int(row.id)}</td>']
        out.append(f'<tr class="{"bv-now" if now else ""}">{"".join(cells)}</tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def merge_list_html(merges: Sequence[Merge], algorithm: str, byte_style: str = "gpt2",
                    strong: bool = False,
                    notes: Callable[[Symbol], str] | None = None) -> str:
    """Merges as lines of chips: ``3. e + r → er  count 28``."""
    scored = get_algorithm(algorithm).scored
    lines = []
    for m in merges:
        value = f"score {m.score:.3g}" if scored else f"count {m.count:,}"
        lines.append(
            f"<div style='margin:.15em 0'><span class='bv-muted'>{m.step}.</span> "
            f"{symbol_chip(m.left, m.left_id, byte_style, strong=strong, notes=notes)} + "
            f"{symbol_chip(m.right, m.right_id, byte_style, strong=strong, notes=notes)} → "
            f"{symbol_chip(m.token, m.token_id, byte_style, new=True, strong=strong, notes=notes)} "
            f"<span class='bv-muted'>{esc(value)}</span></div>")
    return "".join(lines)


def merge_tree_html(node: TreeNode, byte_style: str = "gpt2", strong: bool = False,
                    notes: Callable[[Symbol], str] | None = None) -> str:
    """A token's merge tree as nested lists: each merged token above its two parts."""
    def item(n: TreeNode) -> str:
        head = symbol_chip(n.token, n.id, byte_style, strong=strong, notes=notes)
        if n.left is None or n.right is None:
            return f"<li>{head} <span class='bv-muted'>base symbol</span></li>"
        note = f"<span class='bv-muted'>step {n.step}, count {n.count:,}</span>"
        return f"<li>{head} {note}<ul>{item(n.left)}{item(n.right)}</ul></li>"

    return f'<div class="bv-tree"><ul>{item(node)}</ul></div>'


def tokens_html(text: str, tokens: Sequence[Any], byte_style: str = "gpt2",
                show_whitespace: bool = False, strong: bool = False,
                max_tokens: int = 3000, notes: Callable[[Symbol], str] | None = None) -> str:
    """The input text drawn as coloured token spans (colour by id).

    ``tokens`` are :class:`bpeviz.encoding.Token`-like records (text, id, start, end,
    bytes, partial, unk). Text between tokens (dropped whitespace) is drawn plain.
    Tokens holding part of a character show their bytes; ``[UNK]`` tokens are striped.
    Past ``max_tokens`` tokens the rest of the text is left out, with a note.
    ``notes(symbol)`` (:class:`bpeviz.glossary.ChipNotes`) adds what a token's marks
    mean to its title.
    """
    ordered = sorted(tokens, key=lambda t: (t.start, t.end))
    rest = len(ordered) - max_tokens
    if rest > 0:
        ordered = ordered[:max_tokens]
        text = text[: ordered[-1].end]
    def show(s: str) -> str:
        return visible(s).replace("↵", "↵\n") if show_whitespace else s

    out = ['<div class="bv-tokens">']
    pos = 0
    for tok in ordered:
        if tok.start > pos:
            out.append(f'<span class="bv-gap">{esc(show(text[pos:tok.start]))}</span>')
        raw = bytes(tok.bytes)
        classes = []
        if tok.partial:
            shown = label(raw, byte_style)
            classes.append("bv-partial")
        else:
            shown = show(text[tok.start:tok.end])
            if not shown.strip() or all(unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me")
                                        for ch in shown):
                # an end-of-word marker, a lone space or joiner: show the token itself
                shown = label(tok.text, byte_style)
        if tok.unk:
            classes.append("bv-unk")
        title = (f"id {tok.id} · {label(tok.text, byte_style)} · bytes {raw.hex(' ') or '-'}"
                 + (_part_of(text[tok.start:tok.end]) if tok.partial else "")
                 + (" · unknown" if tok.unk else "")
                 + (f" · {note}" if notes is not None and not tok.partial
                    and (note := notes(tok.text)) else ""))
        out.append(chip(shown, tok.id, title=title, classes=classes, strong=strong))
        pos = max(pos, tok.end)
    if pos < len(text):
        out.append(f'<span class="bv-gap">{esc(show(text[pos:]))}</span>')
    if rest > 0:
        out.append(f'<span class="bv-muted"> … {rest:,} more tokens not drawn '
                   "(the counts and ids cover them all)</span>")
    out.append("</div>")
    return "".join(out)


def _part_of(chars: str) -> str:
    """A partial token's title: the character(s) it is part of and their full bytes."""
    full = chars.encode("utf-8", "surrogatepass").hex(" ")
    return f" · part of the character “{chars}” (its bytes: {full})"


def part_of_notes(word: str, spans: Iterable[tuple[int, int]]) -> list[str]:
    """For byte spans ``[start, end)`` of ``word``'s UTF-8 bytes (byte-level tokens in
    that word), what each chip's title says about the characters it cuts, in the words
    of :func:`tokens_html`: ``""`` for a span of whole characters.

    >>> part_of_notes("a喜欢", [(0, 1), (1, 3), (3, 5), (5, 7)])[1:3]
    ['part of the character “喜” (its bytes: e5 96 9c)', \
'part of the character “喜欢” (its bytes: e5 96 9c e6 ac a2)']
    """
    ends = list(accumulate(len(ch.encode("utf-8", "surrogatepass")) for ch in word))
    edges, total = {0, *ends}, ends[-1] if ends else 0
    out = []
    for start, end in spans:
        if (start in edges and end in edges) or not 0 <= start < end <= total:
            out.append("")
            continue
        first, last = bisect_right(ends, start), bisect_left(ends, end)
        out.append(_part_of(word[first:last + 1]).removeprefix(" · "))
    return out


def consecutive_spans(symbols: Sequence[Symbol]) -> list[tuple[int, int]]:
    """The byte spans of symbols that follow each other: ``[b"a", b"bc"]`` gives
    ``[(0, 1), (1, 3)]``."""
    ends = list(accumulate(len(s if isinstance(s, bytes) else s.encode("utf-8", "surrogatepass"))
                           for s in symbols))
    return list(zip([0, *ends[:-1]], ends))


def history_part_notes(vocab: Sequence[Symbol], word: str, tokens: Sequence[int],
                       made: Sequence[int]) -> list[str]:
    """:func:`part_of_notes` for every node of a byte-level word's split history
    (:meth:`bpeviz.engine.splitlog.SplitLog.history`: nodes in split order, each merged
    node right after the first byte it starts at); all ``""`` when the tokens are not
    the word's bytes."""
    spans, pos, start = [], 0, 0
    for token, step in zip(tokens, made):
        symbol = vocab[token]
        if not isinstance(symbol, bytes):
            return [""] * len(tokens)
        if step == 0:
            start, pos = pos, pos + len(symbol)
        spans.append((start, start + len(symbol)))
    if pos != len(word.encode("utf-8", "surrogatepass")):
        return [""] * len(tokens)
    return part_of_notes(word, spans)


# -- figures --------------------------------------------------------------------------


def _unique(labels: Sequence[str]) -> list[str]:
    """Make chart labels unique (a category axis merges equal labels)."""
    seen: dict[str, int] = {}
    out = []
    for text in labels:
        n = seen.get(text, 0)
        seen[text] = n + 1
        out.append(text if n == 0 else f"{text} ({n + 1})")
    return out


# plotly's "Viridis", as its validator spells the scale out
_VIRIDIS = [[i / 9, colour] for i, colour in enumerate(
    ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58",
     "#b5de2b", "#fde725"])]


#: pixels per heatmap cell: at most (few symbols), at least (many symbols; a label fits)
CELL_MAX, CELL_MIN = 24, 14
CELL_MAX_PRESENTATION, CELL_MIN_PRESENTATION = 34, 20
#: the widest plot area the heatmap aims for (fits the page's width on a 1400 px screen)
HEATMAP_AREA = 840
#: the tallest heatmap in presentation mode (fits a 1280x720 projector's screen with its
#: caption's first line) while its cells stay CELL_MIN_PRESENTATION or larger: up to
#: 24 symbols per axis with upright labels
HEATMAP_FIT_PRESENTATION = 620
#: presentation mode draws at most this many symbols per axis: at the smallest legible
#: cell (CELL_MIN_PRESENTATION) with its labels the chart then fits a 720 px screen
HEATMAP_SYMBOLS_PRESENTATION = 24


def heatmap_cell(n: int, presentation: bool = False) -> int:
    """Pixels per cell for ``n`` symbols per axis: fill about 840 px, within the bounds.

    >>> heatmap_cell(10), heatmap_cell(60), heatmap_cell(60, presentation=True)
    (24, 14, 20)
    """
    lo, hi = ((CELL_MIN_PRESENTATION, CELL_MAX_PRESENTATION) if presentation
              else (CELL_MIN, CELL_MAX))
    return max(lo, min(hi, HEATMAP_AREA // max(n, 1)))


def _cell_text(value: float, kind: str) -> str:
    if value != value:  # NaN: no such pair
        return ""
    return f"{int(value)}" if kind == "count" else f"{value:.2g}"


def heatmap_figure(grid: PairGrid, algorithm: str, byte_style: str = "gpt2",
                   selected: tuple[int, int] | None = None, presentation: bool = False,
                   value: str | None = None) -> go.Figure:
    """The pair heatmap: rows are left symbols, columns right symbols.

    Cells hold the pair count (BPE, BBPE) or score (WordPiece). A transparent square
    scatter over the cells carries ``customdata = [left_id, right_id, left, right, count,
    score]`` so a click selects a pair; the next pair is ringed in red, the selected in blue.

    The figure is sized to its symbols (square cells of :func:`heatmap_cell` pixels, every
    label shown, margins grown to fit them); a cell shows its value only where the
    value fits; whole counts get whole ticks on the colour bar.
    """
    value = value or get_algorithm(algorithm).value_name()
    z = grid.score if value == "score" else grid.count
    ylab = _unique([chart_text(label(grid.symbols[i], byte_style)) for i in grid.rows])
    xlab = _unique([chart_text(label(grid.symbols[i], byte_style)) for i in grid.cols])
    n_rows, n_cols = len(ylab), len(xlab)
    cell = heatmap_cell(max(n_rows, n_cols), presentation)
    if presentation:  # a projector's screen: shrink the cells (not below legible) to fit it
        longest = max((len(html.unescape(t)) for t in xlab), default=0)
        labels = 17 * (1.5 if longest <= 3 or n_cols <= 8 else 0.65 * min(longest, 24))
        cell = max(CELL_MIN_PRESENTATION,
                   min(cell, int(HEATMAP_FIT_PRESENTATION - 100 - labels) // max(n_rows, 1)))
    font = min(17 if presentation else 12, cell - 3)
    cells_r, cells_c = np.nonzero(~np.isnan(z)) if z.size else (np.array([], int),) * 2
    custom = [[grid.rows[r], grid.cols[c], ylab[r], xlab[c], int(grid.count[r, c]),
               float(grid.score[r, c])] for r, c in zip(cells_r.tolist(), cells_c.tolist())]
    hover = ("<b>%{customdata[2]}</b> + <b>%{customdata[3]}</b><br>count %{customdata[4]:,}"
             + ("<br>score %{customdata[5]:.4g}" if value == "score" else "")
             + "<extra></extra>")
    zt = np.where(np.isnan(z), None, z).tolist()
    text = [[_cell_text(v, value) for v in row] for row in z.tolist()]
    text_size = font - 2
    widest = max((len(t) for row in text for t in row), default=0)
    heat: dict[str, Any] = {
        "type": "heatmap", "z": zt, "x": xlab, "y": ylab, "colorscale": _VIRIDIS,
        "hoverinfo": "skip", "xgap": 1, "ygap": 1, "textfont": {"size": text_size},
        "colorbar": {"title": {"text": value}}, "name": "pairs",
        "meta": {"rows": list(grid.rows), "cols": list(grid.cols), "value": value},
    }
    if value == "count" and len(cells_r):
        spread = float(np.nanmax(z) - np.nanmin(z))
        # whole counts, whole ticks: no 1.5 or 2.5 on the colour bar
        heat["colorbar"].update({"tickformat": ",d"} if spread > 10
                                else {"tickformat": ",d", "tick0": 0, "dtick": 1})
    if widest and widest * 0.62 * text_size <= cell - 3:  # only values that fit a cell
        heat["text"] = text
        heat["texttemplate"] = "%{text}"
    data: list[dict[str, Any]] = [heat, {
        "type": "scatter", "x": [xlab[c] for c in cells_c.tolist()],
        "y": [ylab[r] for r in cells_r.tolist()], "mode": "markers", "customdata": custom,
        "hovertemplate": hover, "name": "select",
        "marker": {"symbol": "square", "size": cell - 4, "color": "rgba(0,0,0,0)",
                   "line": {"width": 0}},
        "selected": {"marker": {"opacity": 1}}, "unselected": {"marker": {"opacity": 1}},
        "showlegend": False,
    }]
    for pos, colour, name, size in ((_position(grid, selected), "#1f6bff", "selected", cell - 6),
                                    (grid.next_pair, "#ff2d2d", "next merge", cell + 2)):
        if pos is None:
            continue
        r, c = pos
        data.append({
            "type": "scatter", "x": [xlab[c]], "y": [ylab[r]], "mode": "markers", "name": name,
            "hoverinfo": "skip",
            "marker": {"symbol": "square-open", "size": size, "color": colour,
                       "line": {"width": 3, "color": colour}},
            "showlegend": True,
        })
    longest_x = max((len(html.unescape(t)) for t in xlab), default=0)
    longest_y = max((len(html.unescape(t)) for t in ylab), default=0)
    upright = longest_x <= 3 or n_cols <= 8
    # room for the labels (automargin grows the margins to fit them, inside this size)
    top = 40 + font * (1.5 if upright else 0.65 * min(longest_x, 24))
    left = 40 + font * 0.65 * min(longest_y, 24)
    ticks = {"tickfont": {"size": font}, "tickmode": "array", "automargin": True}
    layout = {
        "xaxis": {"type": "category", "side": "top", "tickangle": 0 if upright else -90,
                  "tickvals": xlab, "ticktext": xlab, **ticks,
                  "title": {"text": "right symbol"}},
        "yaxis": {"type": "category", "autorange": "reversed", "tickvals": ylab,
                  "ticktext": ylab, **ticks, "title": {"text": "left symbol"}},
        "width": int(cell * n_cols + left + 110),
        "height": int(max(320, cell * n_rows + top + 60)),
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "legend": {"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0},
        "clickmode": "event+select", "dragmode": False, "hovermode": "closest",
        "font": {"size": font},
    }
    # built as plain data and wrapped unvalidated: plotly's validation of every property
    # cost most of the chart's time (tests compare the spec with snapshot.pairs)
    fig = go.Figure({"data": data, "layout": layout}, _validate=False)
    return fig


def heatmap_caption(grid: PairGrid, value: str, last_step: bool) -> str:
    """What the heatmap shows, in words, from what it does show (plain text).

    >>> heatmap_caption(PairGrid([1], [2], np.ones((1, 1)), np.ones((1, 1)), None, 1), "count",
    ...                 True)[:60]
    'Count of each pair (1 pairs in all). This is the last step: '
    """
    out = f"{value.capitalize()} of each pair ({grid.total_pairs:,} pairs in all). "
    if grid.next_pair is not None:
        out += "The red square is the pair merged next. "
    elif last_step:
        out += "This is the last step: no pair is merged next, so no square is red. "
    else:
        out += "The pair merged next is not among these symbols. "
    out += "The blue square is the pair shown in Pair details; click a cell to see which " \
           "words hold it."
    return out


def _position(grid: PairGrid, pair: tuple[int, int] | None) -> tuple[int, int] | None:
    if pair is None or pair[0] not in grid.rows or pair[1] not in grid.cols:
        return None
    return grid.rows.index(pair[0]), grid.cols.index(pair[1])


def token_count_figure(series: Mapping[str, Sequence[int]], step: int | None = None,
                       presentation: bool = False) -> go.Figure:
    """Corpus token count against merge step, one line per training."""
    fig = go.Figure()
    for name, counts in series.items():
        # numpy arrays: Plotly sends them as typed arrays (50,000 steps: 10 ms, not 0.8 s)
        fig.add_trace(go.Scatter(x=np.arange(len(counts)), y=np.asarray(counts, dtype=np.int64),
                                 mode="lines", name=chart_text(name),
                                 hovertemplate="step %{x}: %{y:,} tokens<extra></extra>"))
    if step is not None:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="merge step", yaxis_title="tokens in the corpus",
                      height=340, margin={"t": 30, "b": 10}, font=_font(presentation),
                      legend={"orientation": "h", "y": 1.12})
    return fig


def merge_strength_figure(merges: pd.DataFrame, algorithm: str, step: int | None = None,
                          presentation: bool = False) -> go.Figure:
    """Count (and WordPiece score) of each merge by step."""
    value = get_algorithm(algorithm).value_name()
    fig = go.Figure(go.Bar(
        x=merges["step"], y=merges[value], name=value,
        customdata=np.stack([merges["left"].map(chart_text), merges["right"].map(chart_text),
                             merges["token"].map(chart_text)], axis=-1) if len(merges) else None,
        hovertemplate=("step %{x}: %{customdata[0]} + %{customdata[1]} → %{customdata[2]}"
                       f"<br>{value} " + ("%{y:.4~g}" if value == "score" else "%{y:,}")
                       + "<extra></extra>"),
    ))
    if step:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="merge step", yaxis_title=f"{value} of the merged pair",
                      height=320, margin={"t": 30, "b": 10}, font=_font(presentation))
    return fig


def length_figure(vocab: pd.DataFrame, presentation: bool = False) -> go.Figure:
    """How many tokens have each length in characters and in bytes."""
    fig = go.Figure()
    for column in ("chars", "bytes"):
        counts = vocab[column].value_counts().sort_index()
        fig.add_trace(go.Bar(x=counts.index.tolist(), y=counts.tolist(), name=column,
                             hovertemplate=f"%{{y}} tokens of %{{x}} {column}<extra></extra>"))
    fig.update_layout(barmode="group", xaxis_title="token length", yaxis_title="tokens",
                      height=320, margin={"t": 30, "b": 10}, font=_font(presentation))
    return fig


def _font(presentation: bool) -> dict[str, int]:
    return {"size": 17 if presentation else 12}
