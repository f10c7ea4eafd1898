"""PickyBPE's step card and its "Why this step?" panel as HTML (user text escaped here,
chips through :func:`bpeviz.present.render.symbol_chip`).

A merge reads as BPE's (the pair, the words behind its count, the pairs it beat, a tie);
a removal stands out (a red card, the token struck through and the parts it becomes) and
is explained with its Intersection over Self and the threshold.

>>> from bpeviz.algorithms.picky_train import train_picky
>>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4, threshold=0.6)
>>> card = step_card_html(t, 3)
>>> 'data-kind="removal"' in card, "appears alone in 25% of its 8 uses" in card
(True, True)
>>> "IoS" in why_step_html(t, 3), "occurs <b>8 times</b>" in why_step_html(t, 1)
(True, True)
>>> t = train_picky('say "hi" "hi" "hi" "ho" "ho"', merges=1)
>>> "“<bdi>▁</bdi>” + “<bdi>&quot;</bdi>” (5)" in why_step_html(t, 1)  # escaped once
True
"""

from __future__ import annotations

from bpeviz.algorithms.picky_explain import explain_step, percent, removal_headline
from bpeviz.algorithms.picky_model import PickyTraining
from bpeviz.present.render import bdi, esc, isolate_quoted, symbol_chip
from bpeviz.text.display import visible

#: the card's and the panel's own styles (a removal in red), sent with each view
CSS = """
.bv-card.bv-picky{min-height:7.5em}
.bv-card.bv-picky[data-kind="removal"]{border-color:#c62828;border-left-width:.5em}
.bv-picky .bv-kind{display:inline-block;font-weight:700;padding:0 .45em;border-radius:.4em;
  margin-right:.4em;background:rgba(128,128,128,.2)}
.bv-picky[data-kind="removal"] .bv-kind{background:#c62828;color:#fff}
.bv-picky .bv-gone .bv-chip{text-decoration:line-through;opacity:.75}
.bv-picky .bv-sentence{margin-top:.3em;line-height:1.4}
.bv-picky-why p{margin:.35em 0;line-height:1.5}
"""

#: words listed in a sentence (fewer on a projector)
WORDS_SHOWN, WORDS_SHOWN_PRESENTING = 8, 5


def _chip(training: PickyTraining, token_id: int, byte_style: str, strong: bool,
          new: bool = False) -> str:
    return symbol_chip(training.vocab[token_id], token_id, byte_style, new=new, strong=strong)


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n:,} times"


def _word_list(words: tuple[tuple[str, int, int], ...], shown: int, what: str) -> str:
    """“hug” ×3, “pug” ×2 (the pair twice in it: 4), and 3 more words."""
    items = []
    for word, count, times in words[:shown]:
        text = f"“{bdi(visible(word[:60]))}” ×{count:,}"
        if times > 1:
            text += esc(f" ({what} {_times(times)} in it: {count * times:,})")
        items.append(f'<span class="bv-why-word" data-count="{count}">{text}</span>')
    more = len(words) - shown
    tail = f", and {more:,} more word{'s' if more > 1 else ''}" if more > 0 else ""
    return ", ".join(items) + tail


def step_card_html(training: PickyTraining, k: int, byte_style: str = "gpt2",
                   strong: bool = False) -> str:
    """The card of step ``k``: a merge (left + right → token, its count) or a removal
    (the token struck through → the parts it becomes, and why, in one sentence)."""
    n = len(training.events)
    size = training.vocab_sizes[k]
    if k == 0:
        return (f'<div class="bv-card bv-picky" data-step="0" data-kind="start">'
                f'<div class="bv-muted">Step 0 of {n:,}</div>'
                f'<div class="bv-big">{size:,} tokens</div>'
                '<div class="bv-sentence">The special tokens and every character of the '
                "corpus, before any merge. Each step merges a pair or removes a token.</div>"
                "</div>")
    e = training.events[k - 1]
    head = f"Step {k:,} of {n:,} · vocabulary {training.vocab_sizes[k - 1]:,} → {size:,}"
    if e.kind == "merge":
        big = (f"{_chip(training, e.left_id, byte_style, strong)}"
               f'<span class="bv-arrow">+</span>{_chip(training, e.right_id, byte_style, strong)}'
               f'<span class="bv-arrow">→</span>'
               f"{_chip(training, e.token_id, byte_style, strong, new=True)}")
        again = "" if e.changed else (f" “{e.token}” was already a token: the vocabulary "
                                      "keeps its size.")
        sentence = f"The pair counted most, {_times(e.count)}: merged.{again}"
        kind = "merge"
    else:
        parts = "".join(_chip(training, i, byte_style, strong) for i in e.part_ids)
        big = (f'<span class="bv-gone">{_chip(training, e.token_id, byte_style, strong)}</span>'
               f'<span class="bv-arrow">→</span>{parts}')
        sentence = removal_headline(e) + "."
        kind = "removed"
    return (f'<div class="bv-card bv-picky" data-step="{k}" data-kind="{esc(e.kind)}">'
            f'<div class="bv-muted"><span class="bv-kind">{kind}</span>{esc(head)}</div>'
            f'<div class="bv-big">{big}</div>'
            f'<div class="bv-sentence">{bdi_quoted(sentence)}</div></div>')


def bdi_quoted(text: str) -> str:
    """``text`` escaped, every “quoted” token isolated (a right-to-left token keeps its
    place in an English sentence)."""
    return isolate_quoted(esc(text))


def why_step_html(training: PickyTraining, k: int, byte_style: str = "gpt2",
                  strong: bool = False) -> str:
    """Why step ``k`` happened, in sentences (a merge as BPE's; a removal with its IoS
    numbers and the threshold); step 0 says what the steps are."""
    if k == 0:
        return ('<div class="bv-picky-why"><p class="bv-muted">Step 0: no step yet. Move to '
                "step 1 or later: a merge is explained by the words behind its count and the "
                "pairs it beat, a removal by its Intersection over Self and the "
                "threshold.</p></div>")
    why = explain_step(training, k)
    e = why.event
    shown = WORDS_SHOWN_PRESENTING if strong else WORDS_SHOWN
    after = ("before any step" if k == 1 else
             f"after {k - 1:,} step{'s' if k > 2 else ''}")
    out = ['<div class="bv-picky-why">']
    if e.kind == "merge":
        pair = (f"{_chip(training, e.left_id, byte_style, strong)} + "
                f"{_chip(training, e.right_id, byte_style, strong)}")
        n = len(why.words)
        out.append(f'<p class="bv-why-count">{pair} occurs <b>{esc(_times(e.count))}</b> in '
                   f"the corpus {after}, in <b>{n:,}</b> word{'s' if n != 1 else ''} (×: how "
                   "often each word appears in the corpus): "
                   f"{_word_list(why.words, shown, 'the pair')}.</p>")
        made = _chip(training, e.token_id, byte_style, strong, new=True)
        out.append(f'<p class="bv-why-merged">Merging it makes {made} (id {e.token_id:,}) and '
                   f"removes <b>{e.replaced:,}</b> token{'s' if e.replaced != 1 else ''} from "
                   "the corpus." + (bdi_quoted(
                       f" “{e.token}” was removed at step {why.restored:,}; this merge makes "
                       "it again, with its old id.") if why.restored else "")
                   + (bdi_quoted(f" “{e.token}” was already a token: the vocabulary keeps "
                                 "its size.") if not e.changed else "") + "</p>")
        if why.rivals:
            rivals = ", ".join(f"{_label(a)} + {_label(b)} ({c:,})" for a, b, c in why.rivals)
            out.append('<p class="bv-why-rivals">As in BPE, the pair counted most is merged. '
                       f"The next pairs by count: {bdi_quoted(rivals)}.</p>")
        if why.tied:
            out.append(f'<p class="bv-why-tie">A tie: {why.tied:,} other '
                       f"pair{'s' if why.tied > 1 else ''} had the same count. PickyBPE takes "
                       "the pair whose left token, then right token, entered the vocabulary "
                       "first (the smaller id).</p>")
        removed = [x for x in training.events[k:k + 2]
                   if x.kind == "removal" and x.merge_step == k]
        if removed:
            names = " and ".join(f"“{x.token}” (step {x.step:,})" for x in removed)
            said = (f"Right after it, PickyBPE removes {names}: it now occurs almost only "
                    f"inside “{e.token}”.")
            out.append(f'<p class="bv-why-next">{bdi_quoted(said)}</p>')
        else:
            out.append(f'<p class="bv-why-next bv-muted">Then PickyBPE checks both parts: '
                       f"neither is removed (each is a single character, or still appears "
                       f"alone in more than {percent(1 - training.threshold)} of its "
                       "uses).</p>")
    else:
        total = e.inside + e.count
        out.append(f'<p class="bv-why-removal">{bdi_quoted(removal_headline(e))}.</p>')
        out.append(
            '<p class="bv-why-formula">' + bdi_quoted(
                f"Its Intersection over Self (IoS), after merge {e.merge_step:,} made "
                f"“{e.merged}”: uses inside “{e.merged}” / all its uses = {e.inside:,} / "
                f"({e.inside:,} + {e.count:,}) = {e.inside:,} / {total:,} = "
                f"{percent(e.ios or 0.0)}, above the threshold {percent(e.threshold or 0.0)}. "
                "PickyBPE removes a token that now almost only occurs inside a bigger one, "
                "so the vocabulary has room for more useful tokens.") + "</p>")
        parts = " ".join(_chip(training, i, byte_style, strong) for i in e.part_ids)
        if why.words:
            n = len(why.words)
            out.append(f'<p class="bv-why-words">Where it was still alone it is cut into '
                       f"{parts} instead, in <b>{n:,}</b> word{'s' if n != 1 else ''}: "
                       f"{_word_list(why.words, shown, 'the token')}. The corpus gains "
                       f"<b>{e.replaced:,}</b> token{'s' if e.replaced != 1 else ''}.</p>")
        else:
            out.append(f'<p class="bv-why-words">It no longer appeared alone anywhere: no word '
                       f"changes (its parts would be {parts}).</p>")
        out.append(f'<p class="bv-muted">The vocabulary goes from '
                   f"{training.vocab_sizes[k - 1]:,} to {training.vocab_sizes[k]:,} tokens.</p>")
    out.append("</div>")
    return "".join(out)


def _label(token: str) -> str:
    return f"“{visible(token)}”"


__all__ = ["CSS", "step_card_html", "why_step_html"]
