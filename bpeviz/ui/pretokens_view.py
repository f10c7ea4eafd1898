"""Tokenize's "Show pre-tokens": the text cut by the pre-tokenizer, each pre-token in a
frame coloured by the rule of the pattern that cut it (named on hover and in a legend),
the step's tokens inside it. Merges only join symbols inside one pre-token, so a frame's
edge is a boundary no token ever crosses.

The pieces are the engine's (:func:`bpeviz.text.pretoken_spans.pretoken_spans`); every
text that reaches the HTML is the user's and is escaped (:func:`~bpeviz.present.render.esc`,
the chips of :func:`~bpeviz.present.render.token_chip`), the view isolated with
``dir="auto"`` so a right-to-left text reads in its own direction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from bpeviz.core.recount import pretokenizer_of
from bpeviz.present.render import attr_text, esc, md_escape, shown_text, token_chip
from bpeviz.text.pretoken_spans import GAP, PretokenSpan, pretoken_spans, rules
from bpeviz.ui.labels import PRETOKENIZER_SHORT
from bpeviz.ui.state import bound

#: frame colours, one per rule of a pattern (a pattern has at most 11 alternatives)
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
          "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939")
#: at most this many pieces are drawn (the counts cover the whole text)
MAX_PIECES = 3_000
#: a frame's border: its rule's colour mixed a quarter toward the text's colour (near
#: white on a dark theme, near black on a light one), so every rule's frame stands out
#: from either background (the darker rules, navy and brown, all but vanished on dark)
FRAME = ("display:inline-block;border:2px solid color-mix(in srgb, {color} 72%, "
         "currentColor);border-radius:6px;padding:1px 2px;margin:3px 2px;vertical-align:top")


def color(rule_index: int) -> str:
    return COLORS[rule_index % len(COLORS)]


def toggle() -> bool:
    """The "Show pre-tokens" switch (the ``pretokens`` setting, kept in links)."""
    return bound(st.toggle, "Show pre-tokens", "pretokens",
                 help="First cut the text as the pre-tokenizer does (each pre-token framed, "
                      "coloured by the rule of its pattern that cut it), then the tokens "
                      "inside: no token crosses a frame's edge.")


def frames_html(text: str, pieces: Sequence[PretokenSpan], tokens: Sequence[Any],
                byte_style: str = "gpt2", strong: bool = False,
                show_whitespace: bool = False,
                notes: Callable[[Any], str] | None = None) -> str:
    """The text as pre-token frames, each holding the chips of the tokens that start in
    it or in the gap before it (a gap between pre-tokens drawn plain)."""
    ordered = sorted(tokens, key=lambda t: (t.start, t.end))
    out = ['<div class="bv-tokens bv-pretokens" dir="auto">']
    n = 0
    drawn = pieces[:MAX_PIECES]
    for k, piece in enumerate(drawn):
        last = k == len(drawn) - 1
        inside = []
        # a token that starts in a gap is drawn in the next pre-token: only metaspace's
        # "▁", which stands for the space before its word, starts there
        while (n < len(ordered) and (not piece.is_gap or last)
               and (ordered[n].start < piece.end or last)):
            inside.append(ordered[n])
            n += 1
        chips = "".join(token_chip(text, t, byte_style, strong=strong,
                                   show_whitespace=show_whitespace, notes=notes)
                        for t in inside)
        if piece.is_gap:
            out.append(f'<span class="bv-gap" title="{esc(GAP)}">'
                       f'{chips or esc(shown_text(piece.text, show_whitespace))}</span>')
            continue
        title = attr_text(f"pre-token “{piece.text}” · rule {piece.rule_index + 1}: "
                          f"{piece.description} · {piece.rule}")
        out.append(f'<span class="bv-pretoken" data-rule="{piece.rule_index}" '
                   f'style="{FRAME.format(color=color(piece.rule_index))}" '
                   f'title="{esc(title)}">{chips or esc(shown_text(piece.text))}</span>')
    if len(pieces) > MAX_PIECES:
        out.append(f'<span class="bv-muted"> … {len(pieces) - MAX_PIECES:,} more pieces '
                   "not drawn</span>")
    out.append("</div>")
    return "".join(out)


def legend_html(name: str, pieces: Sequence[PretokenSpan]) -> str:
    """Each rule of the pattern that cut a pre-token here: its frame colour, what it
    matches, its source and how many pre-tokens it cut."""
    used: dict[int, int] = {}
    for piece in pieces:
        if not piece.is_gap:
            used[piece.rule_index] = used.get(piece.rule_index, 0) + 1
    alts = rules(name)
    rows = []
    for index in sorted(used):
        first = next(p for p in pieces if p.rule_index == index)
        rows.append(
            f'<li data-rule="{index}"><span style="{FRAME.format(color=color(index))}">'
            f"rule {index + 1}</span> {esc(first.description)} "
            f"<code>{esc(alts[index])}</code>: {used[index]:,} pre-token"
            f"{'' if used[index] == 1 else 's'}</li>")
    return ('<div class="bv-legend bv-pretoken-legend"><ul style="list-style:none;'
            f'padding-left:0;margin:0">{"".join(rows)}</ul></div>')


#: why no token crosses a frame's edge, for a training of merges
MERGES_STAY_INSIDE = ("the tokens of this step sit inside. Merges join symbols only inside "
                      "one pre-token: no token ever crosses a frame's edge.")


def draw(training: Any, text: str, tokens: Sequence[Any], byte_style: str, strong: bool,
         show_whitespace: bool, notes: Callable[[Any], str] | None = None,
         pretokenizer: str | None = None, inside: str = MERGES_STAY_INSIDE) -> None:
    """The frames and their legend, with a sentence naming the pre-tokenizer
    (``pretokenizer``; by default the one that cut the training's corpus) and saying why
    the tokens stay inside (``inside``: merges' reason by default)."""
    name = pretokenizer or pretokenizer_of(training)
    try:
        pieces = pretoken_spans(text, name)
    except ValueError as err:  # a pre-tokenizer without a pattern of ours
        st.info(md_escape(f"The pre-tokens cannot be shown: {err}"))
        return
    count = sum(1 for p in pieces if not p.is_gap)
    st.markdown("**Pre-tokens**")
    short = PRETOKENIZER_SHORT.get(name, name)
    st.caption(f"{count:,} pre-tokens, cut by the pre-tokenizer “{short}”. Each frame is one "
               "pre-token, coloured by the rule of the pattern that cut it (hover a frame for "
               f"its rule); {inside}")
    st.html(frames_html(text, pieces, tokens, byte_style, strong, show_whitespace, notes))
    st.html(legend_html(name, pieces))


__all__ = ["MERGES_STAY_INSIDE", "draw", "frames_html", "legend_html", "toggle"]
