"""HTML of a Unigram training for the app (no streamlit): the round's card and the
segmentation cloud. Every piece and text is escaped (chips through :mod:`bpeviz.present.render`).

Each number on them says in words what it is: the card names the round, the vocabulary
sizes before and after, and each removed piece's loss cost; the cloud says how many of
the samples gave each split.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bpeviz.present import render
from bpeviz.present.render import esc
from bpeviz.text.display import label
from bpeviz.unigram.model import UnigramModel, UnigramTraining
from bpeviz.unigram.views import (
    REASONS,
    removal_sentence,
    removed_at,
    round_sentence,
    used_removals,
)

#: removed pieces in use listed on the card (the table below the card lists every one);
#: fewer in presentation mode, where chips are big and the card must fit the first screen
CARD_PIECES, CARD_PIECES_PRESENTING = 4, 2
#: segmentations drawn in the cloud (the table below it lists every one)
CLOUD_ROWS = 8

CSS = """
.bv-card.bv-round .bv-big{font-size:1.5em;line-height:1.25}
.bv-round .bv-sentence{margin-top:.2em;font-size:.9em;line-height:1.4}
.bv-round .bv-removed{margin-top:.3em;font-size:.9em;line-height:1.9}
.bv-round .bv-cost{font-size:.85em;white-space:nowrap;font-variant-numeric:tabular-nums}
.bv-round .bv-unused,.bv-round .bv-used{margin-top:.35em;font-size:.9em;line-height:1.4}
.bv-round .bv-lead{display:block;line-height:1.4}
.bv-round .bv-removals{margin-top:.2em;font-size:.9em;line-height:1.9}
.bv-round .bv-removal{display:inline-block;margin-right:1em;white-space:nowrap}
.bv-round .bv-removal .bv-cost{margin:0 .35em}
.bv-cloud{width:100%;border-collapse:collapse;table-layout:fixed}
.bv-cloud td,.bv-cloud th{padding:.2em .5em;border-bottom:1px solid rgba(128,128,128,.3);
  text-align:left;vertical-align:middle}
.bv-cloud th:first-child{width:11em}
.bv-cloud th:last-child{width:7em}
.bv-cloud td:nth-child(2){overflow-wrap:anywhere}
.bv-bar{height:.55em;border-radius:.3em;background:#ff4b4b;min-width:2px;margin-top:.15em}
.bv-bar-track{background:rgba(128,128,128,.25);border-radius:.3em}
.bv-cloud .bv-nums{font-variant-numeric:tabular-nums;white-space:nowrap}
"""


def piece_chip(model: UnigramModel, piece: str, byte_style: str = "gpt2",
               strong: bool = False) -> str:
    """A piece's chip, titled with its id, its text and its own bytes. A piece the model
    does not have (:meth:`UnigramModel.unknown`, the rule the encoder's ``Token.unk``
    follows) is hatched as the unknown token, as Tokenize and Compare draw ``<unk>``:
    its text shown, titled ``id 0 · <unk> · bytes (its own) · unknown``.

    >>> m = UnigramModel(("▁", "a"), (-1.0, -1.0))
    >>> 'bv-unk' in piece_chip(m, "T"), 'bytes 54 · unknown' in piece_chip(m, "T")
    (True, True)
    >>> 'bv-unk' in piece_chip(m, "a")
    False
    """
    if not model.unknown(piece):
        return render.symbol_chip(piece, model.ids[piece], byte_style, strong=strong)
    raw = b"" if piece == model.unk else piece.encode("utf-8", "surrogatepass")
    title = (f"id {model.unk_id} · {label(model.unk, byte_style)} · bytes "
             f"{raw.hex(' ') or '-'} · unknown")
    return render.chip(label(piece, byte_style), model.unk_id, title=title,
                       classes=["bv-unk"], strong=strong)


def splits_html(rows: Sequence[tuple[int, str, int, Sequence[str], bool]], model: UnigramModel,
                byte_style: str = "gpt2", strong: bool = False, max_chips: int = 200) -> str:
    """Words and their splits, ``(index, word, count, pieces, changed)`` per row, drawn as
    :func:`bpeviz.present.render.splits_html` draws a merge training's, each piece a
    :func:`piece_chip` of ``model`` (unknown pieces hatched)."""
    out = [render.WORDS_HEAD]
    for index, word, count, pieces, changed in rows:
        chips = "".join(piece_chip(model, p, byte_style, strong) for p in pieces[:max_chips])
        out.append(render.word_row(index, word, count, chips, len(pieces) - max_chips,
                                   changed))
    out.append("</tbody></table>")
    return "".join(out)


def _chip(model: UnigramModel, piece: str, byte_style: str, strong: bool,
          extra: str = "") -> str:
    """A piece's chip titled with its id, text and bytes (and ``extra``: why it went)."""
    chip = piece_chip(model, piece, byte_style, strong)
    if not extra:
        return chip
    head, _, rest = chip.partition('title="')  # put ``extra`` in front of the title
    return f'{head}title="{esc(render.attr_text(extra))} · {rest}'


def round_card_html(training: UnigramTraining, k: int, byte_style: str = "gpt2",
                    strong: bool = False, shown: int | None = None) -> str:
    """The card of pruning round ``k``: the vocabulary size before and after, what the
    round did in a sentence (:func:`round_sentence`), how many pieces went because
    nobody used them, and the pieces in use whose removal raised the loss least, each
    with the nats the corpus loses, its uses and how the piece is cut instead (the
    trainer's data, :class:`~bpeviz.unigram.model.Removal`).

    >>> from bpeviz.unigram.model import Removal, UnigramStep
    >>> s0 = UnigramStep(0, UnigramModel(("a", "b", "ab"), (-1.0, -1.0, -2.0)), 5.0,
    ...                  (Removal("ab", 0.25, "pruned"),), (), ())
    >>> s1 = UnigramStep(1, UnigramModel(("a", "b"), (-1.0, -1.0)), 6.0, (), (), ())
    >>> card = round_card_html(UnigramTraining("course", (s0, s1)), 1)
    >>> "3 → 2 pieces" in card, "cost 0.25" in card, 'data-round="1"' in card
    (True, True, True)
    """
    if shown is None:
        shown = CARD_PIECES_PRESENTING if strong else CARD_PIECES
    last = len(training) - 1
    step = training.at(k)
    head = f"Round {k:,} of {last:,}" + (" (the seed)" if k == 0 else "") + (
        " (the final vocabulary)" if k == last and k else "")
    if k == 0:
        big = f"{len(step.pieces):,} pieces in the seed"
    else:
        big = f"{len(training.at(k - 1).pieces):,} → {len(step.pieces):,} pieces"
    out = [f'<div class="bv-card bv-round" data-round="{int(k)}">',
           f'<div class="bv-muted">{esc(head)}</div>',
           f'<div class="bv-big">{esc(big)}</div>',
           f'<div class="bv-sentence">{esc(round_sentence(training, k))}</div>']
    removed = removed_at(training, k)
    if removed:
        before = training.at(k - 1).model
        course = training.variant == "course"
        unused = [r for r in removed if r.unused]
        used = used_removals(removed)
        other = len(removed) - len(unused) - len(used)
        if unused:
            em = sum(r.reason == "em" for r in unused)
            parts = []
            if em:
                parts.append(f"{em:,} because re-estimation gave {'it' if em == 1 else 'them'} "
                             "an expected count under 0.5")
            if len(unused) - em:
                parts.append(f"{len(unused) - em:,} because no word's best split used "
                             f"{'it' if len(unused) - em == 1 else 'them'}")
            noun = "piece" if len(unused) == 1 else "pieces"
            out.append(f'<div class="bv-unused" data-unused="{len(unused)}">'
                       f'<strong>{len(unused):,} {noun} went because nobody used '
                       f'{"it" if len(unused) == 1 else "them"}</strong> '
                       f'<span class="bv-muted">({esc("; ".join(parts))}): removing '
                       f'{"it costs" if len(unused) == 1 else "them costs"} nothing (listed '
                       'in the table below).</span></div>')
        if used:
            lead = used[0]
            out.append(f'<div class="bv-used" data-used="{len(used)}">'
                       f'<span class="bv-lead">{esc(removal_sentence(lead, course))}</span>'
                       '</div>')
            items = []
            for r in used[:shown]:
                instead = ("".join(_chip(before, p, byte_style, strong) for p in r.alternative)
                           if r.alternative else "")
                nats = (f"{r.nats:+,.3g} nats" if r.nats is not None else f"cost {r.cost:.3g}")
                uses = f"{r.uses:,.0f} use{'' if r.uses == 1 else 's'}" if r.uses else ""
                items.append(f'<span class="bv-removal" title="{esc(render.attr_text(uses))}">'
                             + _chip(before, r.piece, byte_style, strong,
                                     removal_sentence(r, course))
                             + f'<span class="bv-cost">{esc(nats)}</span>'
                             + (f'<span class="bv-instead">→ {instead}</span>' if instead
                                else "") + "</span>")
            more = len(used) - shown
            out.append('<div class="bv-removals"><span class="bv-muted">Cheapest used '
                       '(nats lost → cut instead): </span>' + "".join(items)
                       + (f'<span class="bv-muted">… {more:,} more in the table below</span>'
                          if more > 0 else "") + "</div>")
        if other > 0:
            kinds = Counter(r.reason for r in removed if not r.unused and r not in used)
            out.append('<div class="bv-muted">' + esc("; ".join(
                f"{n:,} {'piece' if n == 1 else 'pieces'} because "
                f"{REASONS.get(reason, reason)}" for reason, n in kinds.most_common()))
                + ".</div>")
    out.append("</div>")
    return "".join(out)


def cloud_html(cloud: Sequence[tuple[tuple[str, ...], int]], samples: int,
               best: tuple[str, ...], model: UnigramModel, byte_style: str = "gpt2",
               strong: bool = False, rows: int = CLOUD_ROWS) -> str:
    """The segmentation cloud: the most frequent sampled splits as chips, each with a bar
    of its share and "n of N samples"; the best (Viterbi) split starred.

    >>> m = UnigramModel(("▁", "a", "b", "▁a", "ab"), (-2.0, -2.0, -2.0, -1.5, -3.0))
    >>> html = cloud_html([(("▁a", "b"), 3), (("▁", "ab"), 1)], 4, ("▁a", "b"), m)
    >>> "3 of 4 samples (75%)" in html, html.count("★")
    (True, 1)
    """
    out = ['<table class="bv-cloud"><thead><tr><th>how often</th><th>segmentation</th>'
           '<th></th></tr></thead><tbody>']
    for split, n in list(cloud)[:rows]:
        share = n / samples if samples else 0.0
        chips = "".join(_chip(model, p, byte_style, strong) for p in split)
        star = ('<b title="the best split: the highest total log-probability">★ best</b>'
                if tuple(split) == tuple(best) else "")
        out.append(f'<tr><td><span class="bv-nums">{n:,} of {samples:,} samples '
                   f'({share:.0%})</span><div class="bv-bar-track"><div class="bv-bar" '
                   f'style="width:{100 * share:.1f}%"></div></div></td>'
                   f'<td>{chips}</td><td>{star}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)
