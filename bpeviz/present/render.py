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
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate
from typing import Any

import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.views import TreeNode
from bpeviz.core.training import Merge
from bpeviz.text.display import label, names_title, raw_bytes, visible
from bpeviz.text.symbols import Symbol

# -- escaping -------------------------------------------------------------------------


def esc(text: object) -> str:
    """Escape for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def muted_html(text: str) -> str:
    """A quiet sentence under a view (as ``st.caption`` draws one), its text escaped.

    >>> muted_html("a < b")
    '<p class="bv-muted bv-note">a &lt; b</p>'
    """
    return f'<p class="bv-muted bv-note">{esc(text)}</p>'


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


def chip_style(token_id: int) -> str:
    """A chip's inline style: only its id. The ``.bv-chip`` rule of :data:`CSS` turns the
    id into its colours, and the browser's chips set the same property, so one formula
    colours every chip, whichever side drew it.

    >>> chip_style(7)
    '--bv-id:7'
    """
    return f"--bv-id:{int(token_id)}"


CSS = """
/* a chip's colour is its id's (the golden angle spreads neighbouring ids far apart);
   chips drawn by Python and by the browser set only --bv-id */
.bv-chip{--bv-hue:calc(var(--bv-id,0) * 137.508deg);
  background:hsl(var(--bv-hue) 75% 87%);border-color:hsl(var(--bv-hue) 55% 45%)}
.bv-chip.bv-strong{background:hsl(var(--bv-hue) 90% 80%);border-color:hsl(var(--bv-hue) 80% 25%)}
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
.bv-scripts{border-collapse:collapse;font-variant-numeric:tabular-nums}
.bv-scripts th,.bv-scripts td{padding:.15rem .5rem;border-bottom:1px solid rgba(128,128,128,.3);
  text-align:right}
.bv-scripts th{font-weight:600;text-align:center}
.bv-scripts td:first-child{text-align:left}
.bv-merges td,.bv-merges th{padding:.15em .3em}
.bv-merges td.bv-num{white-space:nowrap}
.bv-merges td.bv-tok{white-space:pre-wrap;overflow-wrap:anywhere;min-width:2.5em;
  font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.bv-merges tr.bv-now td{background:rgba(255,200,0,.45);font-weight:700}
.bv-words tr.bv-changed td:first-child{border-left:4px solid #e0a000}
.bv-card{border:2px solid rgba(128,128,128,.45);border-radius:.6em;padding:.6em .9em;
  margin-bottom:.4em;max-width:100%;box-sizing:border-box;overflow-wrap:anywhere}
.bv-card .bv-chip{white-space:pre-wrap;overflow-wrap:anywhere;box-sizing:border-box;
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
[data-testid="stTable"]{zoom:1.3}
/* a data grid sizes itself in pixels from its container: zoom the container at 1/1.3 of
   the column's width, so the grid fills the column (zooming the grid spilled it 30% over) */
[data-testid="stElementContainer"]:has([data-testid="stDataFrame"]){zoom:1.3;
  width:calc(100% / 1.3)!important;max-width:calc(100% / 1.3)!important}
.bv-card .bv-big .bv-nums{font-size:max(1rem,.45em)}
.bv-chip{font-size:1.15em;border-width:2px;font-weight:600;color:#000}
.bv-words tr.bv-changed td,.bv-merges tr.bv-now td{background:#ffd84d;color:#000}
.bv-card{border-width:3px}
.bv-card .bv-big{font-size:2.1em}
.bv-tokens{line-height:2.4}
.bv-merges{font-size:.8em}
/* on stage, Streamlit's running figure and Stop button are noise: from the first element */
[data-testid="stStatusWidget"]{display:none!important}
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


def bdi(text: object) -> str:
    """User text (a word, a token, a file name) inside a sentence: escaped, and isolated
    in ``<bdi>`` so that right-to-left words keep their place among the sentence's words
    (and the numbers and commas next to them stay where they were written).

    >>> bdi("سلام") + " ×3, " + bdi("<b>")
    '<bdi>سلام</bdi> ×3, <bdi>&lt;b&gt;</bdi>'
    """
    return f"<bdi>{esc(text)}</bdi>"


_QUOTED = re.compile(r"“([^“”<>]*)”")


def isolate_quoted(html_text: str) -> str:
    """Every “quoted” piece of an escaped sentence isolated (:func:`bdi`): the sentences
    of the legend and of the explanations quote the user's words this way.

    >>> isolate_quoted("“سلام” is “س” and “لام”")
    '“<bdi>سلام</bdi>” is “<bdi>س</bdi>” and “<bdi>لام</bdi>”'
    """
    return _QUOTED.sub(lambda m: f"“<bdi>{m.group(1)}</bdi>”", html_text)


def chip(text: str, token_id: int, *, title: str = "", classes: Iterable[str] = (),
         strong: bool = False, names: str | None = None) -> str:
    """One token chip; ``text`` and ``title`` are escaped here. Its direction is its
    own (``dir="auto"``: a right-to-left token reads right to left, wherever it is), and
    its title ends with the names of the combining marks and invisible characters it
    holds (``names``: :func:`bpeviz.text.display.names_title`, found in ``text`` when not
    given)."""
    cls = " ".join(["bv-chip", *classes, *(["bv-strong"] if strong else [])])
    if names is None:
        names = names_title(text)
    if names and names not in title:
        title += names
    return (f'<span class="{cls}" dir="auto" style="{chip_style(token_id)}" '
            f'data-id="{int(token_id)}" title="{esc(attr_text(title))}">{esc(text)}</span>')


def symbol_chip(symbol: Symbol, token_id: int, byte_style: str = "gpt2", *,
                new: bool = False, strong: bool = False,
                notes: Callable[[Symbol], str] | None = None, part: str = "") -> str:
    """A chip for a vocabulary symbol, titled with its id and bytes, the character it is
    part of (``part``, from :func:`part_of_notes`), and what its marks mean when
    ``notes`` is given (:class:`bpeviz.present.glossary.ChipNotes`)."""
    shown = label(symbol, byte_style)
    raw = raw_bytes(symbol)
    note = notes(symbol) if notes is not None else ""
    title = (f"id {token_id} · {shown} · bytes {raw.hex(' ')}" + (f" · {part}" if part else "")
             + (f" · {note}" if note else ""))
    names = names_title(raw.decode("utf-8", "ignore"))
    return chip(shown, token_id, title=title, classes=["bv-new"] if new else [],
                strong=strong, names=names)


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
    out = [WORDS_HEAD]
    for index, word, count, symbols, ids, changed in rows:
        chips = "".join(symbol_chip(s, i, byte_style, new=(i == new_token_id and changed),
                                    strong=strong, notes=notes)
                        for s, i in zip(symbols[:max_chips], ids[:max_chips]))
        out.append(word_row(index, word, count, chips, len(ids) - max_chips, changed))
    out.append("</tbody></table>")
    return "".join(out)


#: the head of a table of words and their splits (:func:`word_row` its rows)
WORDS_HEAD = ('<table class="bv-words"><thead><tr><th class="bv-num">#</th><th>word</th>'
              '<th class="bv-num">count</th><th>split</th></tr></thead><tbody>')


def word_row(index: int, word: str, count: int, chips: str, more: int, changed: bool) -> str:
    """One row of a table of words: its number, the word (isolated, cut at 120
    characters), its count and its chips (``more``: how many chips were left out).

    >>> word_row(0, "low", 5, "<chip>", 0, True).count("<td")
    4
    """
    if more > 0:
        chips += f'<span class="bv-muted"> … and {more:,} more</span>'
    badge = '<span class="bv-badge">changed</span>' if changed else ""
    shown = visible(word[:120]) + ("…" if len(word) > 120 else "")
    return (f'<tr class="{"bv-changed" if changed else ""}">'
            f'<td class="bv-num">{int(index) + 1}</td><td>{bdi(shown)}{badge}</td>'
            f'<td class="bv-num">{int(count):,}</td><td>{chips}</td></tr>')


def merges_window_html(frame: pd.DataFrame, step: int) -> str:
    """Rows of :func:`bpeviz.analysis.views.merges_frame` as a table; the row of ``step`` marked ▶.

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
                 *(f'<td class="bv-tok" dir="auto">{esc(t)}</td>'
                   for t in (row.left, row.right, row.token)),
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
    by_score = get_algorithm(algorithm).value_name() == "score"  # what a pair wins with
    lines = []
    for m in merges:
        value = f"score {m.score:.3g}" if by_score else f"count {m.count:,}"
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

    ``tokens`` are :class:`bpeviz.core.encoding.Token`-like records (text, id, start, end,
    bytes, partial, unk). Text between tokens (dropped whitespace) is drawn plain.
    Tokens holding part of a character show their bytes; ``[UNK]`` tokens are striped.
    Past ``max_tokens`` tokens the rest of the text is left out, with a note.
    ``notes(symbol)`` (:class:`bpeviz.present.glossary.ChipNotes`) adds what a token's marks
    mean to its title.
    """
    ordered = sorted(tokens, key=lambda t: (t.start, t.end))
    rest = len(ordered) - max_tokens
    if rest > 0:
        ordered = ordered[:max_tokens]
        text = text[: ordered[-1].end]
    def show(s: str) -> str:
        return shown_text(s, show_whitespace)

    out = ['<div class="bv-tokens">']
    pos = 0
    for tok in ordered:
        if tok.start > pos:
            out.append(f'<span class="bv-gap">{esc(show(text[pos:tok.start]))}</span>')
        out.append(token_chip(text, tok, byte_style, strong=strong,
                              show_whitespace=show_whitespace, notes=notes))
        pos = max(pos, tok.end)
    if pos < len(text):
        out.append(f'<span class="bv-gap">{esc(show(text[pos:]))}</span>')
    if rest > 0:
        out.append(f'<span class="bv-muted"> … {rest:,} more tokens not drawn '
                   "(the counts and ids cover them all)</span>")
    out.append("</div>")
    return "".join(out)


def shown_text(text: str, show_whitespace: bool = False) -> str:
    """Text of a chip or of the gap between chips, nothing in it unseen
    (:func:`bpeviz.text.display.visible`); whitespace as ``· → ↵`` (a line break kept
    after ``↵``) only with ``show_whitespace``."""
    return (visible(text).replace("↵", "↵\n") if show_whitespace
            else visible(text, whitespace=False))


def token_chip(text: str, tok: Any, byte_style: str = "gpt2", *, strong: bool = False,
               show_whitespace: bool = False,
               notes: Callable[[Symbol], str] | None = None) -> str:
    """The chip of one token of ``text`` (a :class:`bpeviz.core.encoding.Token`-like
    record: text, id, start, end, bytes, partial, unk), drawn alike on every page that
    cuts a text (Tokenize, Compare): its own characters, a lone combining mark on a dotted
    circle and an invisible character by name (:func:`shown_text`), the bytes of a
    partial character (italic, dashed, titled with the character it is part of), an
    unknown token hatched; titled with its id, label and bytes, the names of the marks it
    holds and, given ``notes`` (:class:`bpeviz.present.glossary.ChipNotes`), what its
    marks mean.

    >>> class T: text, id, start, end, bytes, partial, unk = "\u094d", 7, 0, 1, b"", 0, 0
    >>> T.bytes = "\u094d".encode()
    >>> token_chip("\u094d", T).endswith('U+094D DEVANAGARI SIGN VIRAMA">◌्</span>')
    True
    """
    raw = bytes(tok.bytes)
    classes = []
    if tok.partial:
        shown = label(raw, byte_style)
        classes.append("bv-partial")
    else:
        shown = shown_text(text[tok.start:tok.end], show_whitespace)
        if not shown.strip():
            # an end-of-word marker or a lone space: show the token itself
            shown = label(tok.text, byte_style)
    if tok.unk:
        classes.append("bv-unk")
    title = (f"id {tok.id} · {label(tok.text, byte_style)} · bytes {raw.hex(' ') or '-'}"
             + (_part_of(text[tok.start:tok.end]) if tok.partial else "")
             + (" · unknown" if tok.unk else "")
             + (f" · {note}" if notes is not None and not tok.partial
                and (note := notes(tok.text)) else ""))
    return chip(shown, tok.id, title=title, classes=classes, strong=strong,
                names=names_title(raw.decode("utf-8", "ignore")))


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
    ends = list(accumulate(len(raw_bytes(s)) for s in symbols))
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
