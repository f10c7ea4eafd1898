"""The BPE-dropout segmentation cloud as HTML (no streamlit): the most frequent sampled
splits as chips, each with a bar of its share, the plain (no dropout) split starred.
Every token is drawn by :func:`bpeviz.present.render.symbol_chip`, which escapes it.

>>> from bpeviz import Corpus, train
>>> from bpeviz.core.sampling import dropout_sampler, segmentation_cloud
>>> t = train(Corpus.from_text("hug hug hug pug pug hugs"), merges=4, special_tokens=())
>>> cloud = segmentation_cloud(dropout_sampler(t.at(), 1.0), "hugs", n=4,
...                            key=lambda tok: tok.id)
>>> html = dropout_cloud_html(cloud, 4, (), t)
>>> "4 of 4 samples (100%)" in html, html.count("bv-chip")
(True, 4)
>>> "1 of 300 samples (&lt;1%)" in dropout_cloud_html(cloud.assign(count=[1]), 300, (), t)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pandas as pd

from bpeviz.present.glossary import ChipNotes
from bpeviz.present.render import esc, symbol_chip

if TYPE_CHECKING:
    from bpeviz.core.training import Training

#: the most frequent segmentations drawn as chips (the rest are counted in a sentence)
CLOUD_ROWS = 12

STYLE = """<style>
.bv-dcloud{width:100%;border-collapse:collapse;table-layout:fixed}
.bv-dcloud td,.bv-dcloud th{padding:.2em .5em;border-bottom:1px solid rgba(128,128,128,.3);
 text-align:left;vertical-align:middle}
.bv-dcloud th:first-child{width:12em}.bv-dcloud th:last-child{width:8em}
.bv-dcloud td:nth-child(2){overflow-wrap:anywhere}
.bv-dcloud .bv-nums{font-variant-numeric:tabular-nums;white-space:nowrap}
.bv-dcloud .bv-dbar{height:.55em;border-radius:.3em;background:#ff4b4b;min-width:2px;
 margin-top:.15em}
.bv-dcloud .bv-dtrack{background:rgba(128,128,128,.25);border-radius:.3em}
</style>"""


def dropout_cloud_html(cloud: pd.DataFrame, samples: int, plain: Sequence[int],
                       training: Training, byte_style: str = "gpt2", strong: bool = False,
                       rows: int = CLOUD_ROWS) -> str:
    """``cloud``: :func:`bpeviz.core.sampling.segmentation_cloud` keyed by token ids;
    ``plain``: the ids of the split without dropout (starred where it comes up)."""
    vocab, notes = training.vocab, ChipNotes(training, byte_style)
    out = [STYLE, '<table class="bv-dcloud"><thead><tr><th>how often</th>'
                  '<th>segmentation</th><th></th></tr></thead><tbody>']
    for split, n in zip(cloud["segmentation"].iloc[:rows], cloud["count"].iloc[:rows]):
        share = n / samples if samples else 0.0
        chips = "".join(symbol_chip(vocab[i], i, byte_style, strong=strong, notes=notes)
                        for i in split)
        star = ('<b title="the split without dropout: every merge applied">★ no dropout</b>'
                if tuple(split) == tuple(plain) else "")
        pct = "<1%" if 0 < share < 0.005 else f"{share:.0%}"
        out.append(f'<tr><td><span class="bv-nums">{int(n):,} of {samples:,} samples '
                   f'({esc(pct)})</span><div class="bv-dtrack"><div class="bv-dbar" '
                   f'style="width:{100 * share:.1f}%"></div></div></td>'
                   f"<td>{chips}</td><td>{star}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)
