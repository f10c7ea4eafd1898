"""The "Why this merge?" panel as HTML text (no streamlit): sentences made from an
:class:`bpeviz.core.explain.Explanation`, to be read aloud, by a screen reader, or by a test.

Every corpus word and symbol is escaped (:func:`bpeviz.present.render.esc`). The numbers are
also carried as ``data-*`` attributes: ``data-count``, ``data-score``, ``data-words``
(how many words hold the pair), ``data-tie`` and ``data-tie-rule`` on the panel, and
``data-count``/``data-occurrences``/``data-contribution`` on each word,
``data-left-id``/``data-right-id``/``data-count``/``data-score`` on each rival pair.

>>> from bpeviz import Corpus, train
>>> why = train(Corpus.from_counts({"its": 1, "mots": 1}), merges=1,
...             special_tokens=()).explain(1)
>>> html = why_merge_html(why)
>>> 'class="bv-why"' in html and 'data-count="2"' in html and "“<bdi>mots</bdi>” ×1" in html
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.explain import Explanation
from bpeviz.core.trace import Trace
from bpeviz.present.glossary import ChipNotes
from bpeviz.present.render import (
    bdi,
    consecutive_spans,
    esc,
    isolate_quoted,
    part_of_notes,
    symbol_chip,
)
from bpeviz.text.display import label, visible

if TYPE_CHECKING:
    from bpeviz.algorithms import Algorithm
    from bpeviz.core.training import Training

CSS = """<style>
.bv-why p{margin:.35em 0;line-height:1.7}
.bv-why .bv-why-num{font-weight:700;font-variant-numeric:tabular-nums}
.bv-why .bv-why-formula{font-family:ui-monospace,Menlo,Consolas,monospace}
</style>"""

#: the tie rules, named for a newcomer
RULE_NAMES = {
    "first": "first seen in the corpus",
    "ids": "smallest ids",
}


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def _num(x: float) -> str:
    return f"{x:.4g}"


def _short(word: str, limit: int = 32) -> str:
    """A word with its spaces made visible (``·``: a word may start with one), cut to
    ``limit`` characters (a whole sentence can be one word in CJK text)."""
    word = visible(word)
    return word if len(word) <= limit else word[: limit - 1] + "…"


def _b(text: str) -> str:
    """A number, emphasised (``text`` is made by this module, not typed by a user)."""
    return f'<span class="bv-why-num">{esc(text)}</span>'


def _word_parts(word: str, symbols, alg: Algorithm) -> list[str]:
    """For a word cut into ``symbols`` that may hold part of a character (its bytes, in
    order: :meth:`Algorithm.byte_spans`), each chip's
    :func:`bpeviz.present.render.part_of_notes`; all ``""`` otherwise."""
    spans = None if word.isascii() else alg.byte_spans(word, symbols)
    return [""] * len(symbols) if spans is None else part_of_notes(word, spans)


def _pair_parts(training: Training, step: int, index: int | None,
                position: int | None) -> tuple[str, str, str]:
    """The notes of a pair's left, right and merged chips at its occurrence ``position``
    in corpus word ``index`` after ``step`` merges, saying which word they come from."""
    if index is None or position is None:
        return "", "", ""
    word = training.corpus.words[index]
    symbols = [training.vocab[i] for i in training._log.split_ids(index, step).tolist()]
    if position + 1 >= len(symbols):
        return "", "", ""
    notes = _word_parts(word, symbols, get_algorithm(training.algorithm))
    if not any(notes[position:position + 2]):
        return "", "", ""
    (start, _), (_, end) = consecutive_spans(symbols)[position:position + 2]
    both = part_of_notes(word, [(start, end)])[0]
    where = f", where it first occurs: in “{_short(word)}”"
    return tuple(n + where if n else "" for n in (*notes[position:position + 2], both))


def why_merge_html(why: Explanation, algorithm: str | None = None, byte_style: str = "gpt2",
                   presentation: bool = False, max_words: int | None = None,
                   max_rivals: int = 5, max_tied: int = 6, ranked: bool = True) -> str:
    """Why merge ``why.step`` was chosen, in sentences: the words behind its count, the
    WordPiece score written out, the runner-up pairs, and any tie with the rule that
    decided it. ``ranked=False``: the pair was not chosen among all the corpus's pairs (a
    training per language ranks one language's), so no rivals, rank or tie are named."""
    algorithm = algorithm or why.algorithm
    max_words = max_words if max_words is not None else (5 if presentation else 8)
    m = why.merge
    notes = ChipNotes(why.training, byte_style)

    def chip(symbol, token_id: int, new: bool = False, part: str = "") -> str:
        return symbol_chip(symbol, token_id, byte_style, new=new, strong=presentation,
                           notes=notes, part=part)

    left, right, both = _pair_parts(why.training, why.step - 1, why.first_index,
                                    why.first_position)
    pair = f"{chip(m.left, m.left_id, part=left)} + {chip(m.right, m.right_id, part=right)}"
    after = ("before any merge" if why.step == 1 else
             f"after {why.step - 1:,} merge{'s' if why.step > 2 else ''}")
    parts = []
    # the words behind the count
    words = why.words
    if len(words):
        shown = []
        for r in words.iloc[:max_words].itertuples(index=False):
            # the word isolated: a right-to-left word leaves the ×, the count and the
            # comma where they were written
            text = f"“{bdi(_short(r.word))}” ×{int(r.count):,}"
            if r.occurrences > 1:
                text += esc(f" (the pair {_times(int(r.occurrences))} in it: "
                            f"{int(r.contribution):,})")
            shown.append(f'<span class="bv-why-word" data-count="{int(r.count)}" '
                         f'data-occurrences="{int(r.occurrences)}" '
                         f'data-contribution="{int(r.contribution)}">{text}</span>')
        more = len(words) - max_words
        tail = f", and {more:,} more word{'s' if more > 1 else ''}" if more > 0 else ""
        n = len(words)
        parts.append(
            f'<p class="bv-why-count">{pair} occurs {_b(_times(m.count))} in the corpus '
            f"{after}, in {_b(f'{n:,}')} word{'s' if n > 1 else ''} "
            f"(×: how often each word appears in the corpus): {', '.join(shown)}{tail}.</p>")
        parts.append(
            f'<p class="bv-why-merged">Merging it makes the new token '
            f"{chip(m.token, m.token_id, new=True, part=both)} (id {m.token_id:,}) and removes "
            f"{_b(f'{m.replaced:,}')} token{'s' if m.replaced != 1 else ''} from the corpus"
            + (" (fewer than the count: overlapping occurrences merge once)"
               if m.replaced < m.count else "") + ".</p>")
    else:
        parts.append(f'<p class="bv-why-count">{pair} does not occur in the corpus {after}: '
                     "this merge was replayed from a tokenizer file, not chosen here.</p>")
    # the algorithm's score written out, from the counts of the pair and of its parts
    alg = get_algorithm(algorithm)
    if why.count_left is not None and why.count_right is not None and m.count:
        left, right = bdi(label(m.left, byte_style)), bdi(label(m.right, byte_style))
        formula = (f'<span class="bv-why-formula">{alg.score_in_words(left, right)} = '
                   f"{alg.score_in_numbers(m.count, why.count_left, why.count_right)} = "
                   f"{esc(_num(why.formula_score or 0.0))}</span>")
        if why.value == "score":
            parts.append(f'<p class="bv-why-score">Its {esc(alg.short)} score: {formula}. '
                         f"“{left}” appears {_times(why.count_left)} in the corpus and is "
                         f"followed by “{right}” {_times(m.count)}; “{right}” appears "
                         f"{_times(why.count_right)} and follows “{left}” "
                         f"{_times(m.count)}.</p>")
        else:
            note = f", {esc(alg.count_ranking_note)}" if alg.count_ranking_note else ""
            parts.append(f'<p class="bv-why-score">Scoring “frequency”: pairs are ranked by '
                         f"count only{note}. With the {esc(alg.short)} score formula this "
                         f"pair would score {formula}.</p>")
    # the runner-up pairs
    value = why.value
    rivals = why.runners_up.iloc[:max_rivals] if ranked else why.runners_up.iloc[:0]
    if len(rivals):
        items = []
        for r in rivals.itertuples(index=False):
            amount = (f"score {_num(float(r.score))}, count {int(r.count):,}" if value == "score"
                      else f"count {int(r.count):,}")
            items.append(
                f'<span class="bv-why-rival" data-left-id="{int(r.left_id)}" '
                f'data-right-id="{int(r.right_id)}" data-count="{int(r.count)}" '
                f'data-score="{float(r.score)!r}">{chip(r.left, int(r.left_id))} + '
                f"{chip(r.right, int(r.right_id))} ({esc(amount)})</span>")
        heading = (f"The next best pairs {after}: " if why.rank is not None else
                   f"Trained on this corpus, the first of these would have been merged "
                   f"instead (the best pairs {after}): ")
        # the pair count is at this step, not the heatmap's (which counts after it)
        among = (f", out of the {why.total_pairs:,} pairs there were {after}"
                 if why.total_pairs > 1 else "")
        parts.append(f'<p class="bv-why-rivals">{heading}{", ".join(items)}{among}.</p>')
    elif why.rank is not None and ranked:
        parts.append('<p class="bv-why-rivals">No other pair was left to compete with it.</p>')
    # the tie, or why it won outright
    shown_value = (f"score {_num(why.score)}" if value == "score"
                   else f"count {int(why.merge.count):,}")
    if ranked and why.rank is not None and why.rank != 1:
        best = why.runners_up.iloc[0]
        parts.append(f'<p class="bv-why-tie">This merge was replayed from a tokenizer file, '
                     f"not chosen: it ranked {why.rank:,} of {why.total_pairs:,} pairs; the "
                     f"best was {chip(best.left, int(best.left_id))} + "
                     f"{chip(best.right, int(best.right_id))}.</p>")
    elif ranked and len(why.tie):
        tie = why.tie
        named = ", ".join(f"{chip(r.left, int(r.left_id))} + {chip(r.right, int(r.right_id))}"
                          for r in tie.iloc[:max_tied].itertuples(index=False))
        more = f" and {len(tie) - max_tied:,} more" if len(tie) > max_tied else ""
        n = len(tie)
        head = (f"A tie: {_b(f'{n:,}')} other pair{'s' if n > 1 else ''} also had "
                f"{esc(shown_value)} ({named}{more}). ")
        first = tie.iloc[0]
        rival = f"{chip(first.left, int(first.left_id))} + {chip(first.right, int(first.right_id))}"
        if why.tie_rule == "first":
            where = (f"“{_short(why.first_word or '')}” (word {(why.first_index or 0) + 1:,} "
                     f"of the corpus, symbol {(why.first_position or 0) + 1:,})")
            if int(first.first_index) == why.first_index:
                other = f"the same word, at symbol {int(first.first_position) + 1:,}"
            else:
                other = (f"“{_short(first.first_word)}” (word {int(first.first_index) + 1:,}, "
                         f"symbol {int(first.first_position) + 1:,})")
            rule = (f"The tie rule “{RULE_NAMES['first']}” decided (as minbpe, tiktoken's "
                    "trainer and the Hugging Face course do): reading the words in order of "
                    f"first appearance, {pair} comes first, in "
                    f"{isolate_quoted(esc(where))}; {rival} first comes in "
                    f"{isolate_quoted(esc(other))}.")
        else:
            rule = (f"The tie rule “{RULE_NAMES['ids']}” decided (as Hugging Face's "
                    f"BpeTrainer does): {pair} has the ids ({m.left_id:,}, {m.right_id:,}), "
                    f"smaller than {rival}'s ({int(first.left_id):,}, {int(first.right_id):,}).")
        parts.append(f'<p class="bv-why-tie">{head}{rule}</p>')
    elif len(rivals) and why.rank == 1:
        parts.append(f'<p class="bv-why-tie">No other pair had {esc(shown_value)}: it won '
                     "outright, no tie rule needed.</p>")
    if why.replayed:
        parts.insert(0, '<p class="bv-why-replayed">These merges were read from a tokenizer '
                        "file, in its order; the counts below are this corpus's.</p>")
    attrs = {
        "step": why.step, "count": m.count, "score": repr(float(why.score)),
        "words": len(words), "word-sum": int(words["contribution"].sum()) if len(words) else 0,
        "tie": len(why.tie), "tie-rule": why.tie_rule, "value": value,
        "rank": why.rank if why.rank is not None else "",
        "count-left": why.count_left if why.count_left is not None else "",
        "count-right": why.count_right if why.count_right is not None else "",
    }
    data = " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())
    return f'{CSS}<div class="bv-why" {data}>{"".join(parts)}</div>'


def trace_html(found: Trace, training: Training, byte_style: str = "gpt2",
               presentation: bool = False) -> str:
    """How one word gets its tokens, as rows (``class="bv-trace"``).

    BPE, BBPE: the starting symbols, then one row per merge applied (``data-merge``,
    ``data-count``: the merge and its count when it was made), the merged chip outlined.
    WordPiece: one row per position, the pieces tried (longest first) and the match.
    """
    vocab = training.vocab
    notes = ChipNotes(training, byte_style)
    alg = get_algorithm(found.algorithm)

    def chips(symbols, ids, new_at: int | None = None) -> str:
        out = []
        parts = _word_parts(found.word, symbols, alg)
        for n, (s, i) in enumerate(zip(symbols, ids)):
            if i < 0:  # a character the vocabulary lacks: encoding makes it [UNK]
                out.append(f'<span class="bv-chip bv-unk" dir="auto" title="not in the '
                           f'vocabulary: becomes [UNK]">{esc(label(s, byte_style))}</span>')
            else:
                out.append(symbol_chip(s, i, byte_style, new=n == new_at, strong=presentation,
                                       notes=notes, part=parts[n]))
        return " ".join(out)

    def group(html: str) -> str:
        # a word's chips stay together: beside their label when they fit, else below it
        return f'<span style="display:inline-block">{html}</span>'

    word = bdi(_short(found.word, 60))
    rows = []
    intro = alg.trace_in_words(word, found.step)
    if found.pieces:  # the trace of a longest match: one row per place
        for p in found.pieces:
            misses = [t for t in p.tried if t != p.piece]
            tried = (f" <span class='bv-muted'>tried, not in the vocabulary: "
                     f"{', '.join(map(bdi, misses[:12]))}"
                     f"{esc(f' and {len(misses) - 12:,} more') if len(misses) > 12 else ''}"
                     "</span>" if misses else "")
            if p.piece is None:
                rows.append(f'<div class="bv-trace-row" data-start="{p.start}" data-id="-1">'
                            f"at character {p.start + 1:,}: nothing matches{tried}, so the "
                            "whole word becomes [UNK].</div>")
            else:
                made = f"made at merge {p.step:,}" if p.step else "in the starting alphabet"
                rows.append(f'<div class="bv-trace-row" data-start="{p.start}" '
                            f'data-id="{p.id}">at character {p.start + 1:,}: '
                            f"{chips([p.piece], [p.id])} ({made}){tried}</div>")
    else:  # the trace of merges applied: the start, then one row per merge
        rows.append(f'<div class="bv-trace-row" data-merge="0">start: '
                    f"{group(chips(found.initial, found.initial_ids))}</div>")
        for s in found.steps:
            rows.append(
                f'<div class="bv-trace-row" data-merge="{s.step}" data-count="{s.count}">'
                f"<span class='bv-muted'>merge {s.step:,} ({bdi(label(s.left, byte_style))} + "
                f"{bdi(label(s.right, byte_style))}, count {s.count:,} when it was made):"
                f"</span> {group(chips(s.symbols, s.ids, s.position))}</div>")
        if not found.steps:
            rows.append("<div class='bv-trace-row bv-muted'>No merge learned by this step "
                        "applies to it.</div>")
    result = [vocab[i] if i >= 0 else "[UNK]" for i in found.ids]
    end = (f"<div class='bv-trace-end'>Tokens: {chips(result, found.ids)}</div>"
           if found.ids else "")
    return (f'<div class="bv-trace" data-steps="{len(found.steps)}" '
            f'data-pieces="{len(found.pieces)}"><p>{intro}</p>{"".join(rows)}{end}</div>')


def merge_trees_html(found: Trace, training: Training, byte_style: str = "gpt2",
                     presentation: bool = False, max_trees: int = 6) -> str:
    """The merge trees of the merged tokens a trace ends with (the first ``max_trees``
    distinct ones), with a sentence saying how to read them; ``""`` when no token of the
    word was made by a merge."""
    from bpeviz.analysis.views import created_at, merge_tree
    from bpeviz.present.render import merge_tree_html

    made = created_at(training)
    built = [i for i in dict.fromkeys(found.ids) if 0 <= i < len(made) and made[i]]
    if not built:
        return ""
    notes = ChipNotes(training, byte_style)
    trees = "".join(merge_tree_html(merge_tree(training, i), byte_style, presentation,
                                    notes=notes) for i in built[:max_trees])
    more = (f" (the first {max_trees} of {len(built):,})" if len(built) > max_trees else "")
    return (f'<div class="bv-trees" data-trees="{min(len(built), max_trees)}">'
            "<p class='bv-muted'>How its merged tokens were built" + more + ": each token "
            "above the two it was made from, with the step and the count of that merge.</p>"
            f"{trees}</div>")
