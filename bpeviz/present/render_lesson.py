"""The guided lesson as HTML text (no streamlit): a step's sentences with symbols drawn
as token chips, and its words as a table of splits before and after the step.

Every word and symbol is escaped (:func:`bpeviz.present.render.esc`). The step's numbers ride on
the panel as ``data-*`` attributes (``data-lesson-step``: the lesson step, 1-based;
``data-key``; ``data-merge-step``: the training step shown; for merge steps
``data-count``, ``data-score``, ``data-tie``, ``data-count-left``/``data-count-right``),
so a test can read them back; a step's sections (the research step's, one per algorithm)
carry theirs the same way, with ``data-algorithm``.

>>> from bpeviz import Corpus, train
>>> from bpeviz.analysis.lesson import build_lesson
>>> lesson = build_lesson(train(Corpus.from_counts({"<b>": 3, "ab": 1}), merges=2))
>>> html = lesson_step_html(lesson, 3)
>>> 'data-lesson-step="3"' in html and "&lt;b&gt;" in html and "<b>" not in html
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bpeviz.analysis.lesson import Lesson, LessonSection, Sentence, Sym, WordSplit
from bpeviz.present.render import bdi, esc, isolate_quoted, symbol_chip
from bpeviz.text.display import visible

CSS = """<style>
.bv-lesson p{margin:.45em 0;line-height:1.8;font-size:1.08em}
.bv-lesson .bv-lesson-words{margin-top:.6em}
.bv-lesson .bv-lesson-words td{vertical-align:middle}
.bv-lesson .bv-arrow{opacity:.6;margin:0 .3em}
.bv-lesson .bv-lesson-section{margin-top:1.1em}
.bv-lesson .bv-lesson-section h4{margin:.2em 0;padding:0}
.bv-lesson .bv-lesson-mark{border-top:2px dashed #c2410c;padding-top:.3em;font-weight:600}
.bv-lesson-unk{display:inline-block;padding:0 .3em;border:2px dashed #a40e26;border-radius:.35em;
  font-family:ui-monospace,Menlo,Consolas,monospace}
</style>"""


def _chip(part: Sym, byte_style: str, presentation: bool) -> str:
    if part.id < 0:  # [UNK]: no id in this vocabulary's numbering
        return f'<span class="bv-lesson-unk" dir="auto">{esc(part.symbol)}</span>'
    return symbol_chip(part.symbol, part.id, byte_style, new=part.new, strong=presentation)


def sentence_html(sentence: Sentence, byte_style: str = "gpt2",
                  presentation: bool = False) -> str:
    """One sentence: text escaped (each “quoted” word isolated: :func:`isolate_quoted`),
    symbols as chips."""
    return "".join(_chip(p, byte_style, presentation) if isinstance(p, Sym)
                   else isolate_quoted(esc(p)) for p in sentence)


def words_html(words: Sequence[WordSplit], byte_style: str = "gpt2",
               presentation: bool = False, total: int | None = None) -> str:
    """The words of a step: word, how often it appears, and its split before and after
    the step (only the columns the step has)."""
    if not words:
        return ""
    has_before = any(w.before for w in words)
    has_after = any(w.after for w in words)
    head = ["<th>word</th>", '<th class="bv-num">times in the corpus</th>']
    if has_before:
        head.append("<th>before</th>")
    if has_after:
        head.append("<th>after</th>" if has_before else "<th>split</th>")

    def chips(symbols: tuple[Sym, ...]) -> str:
        return "".join(_chip(s, byte_style, presentation) for s in symbols[:60]) + (
            f'<span class="bv-muted"> … and {len(symbols) - 60:,} more</span>'
            if len(symbols) > 60 else "")

    rows = []
    for w in words:
        shown = visible(w.word[:60]) + ("…" if len(w.word) > 60 else "")
        cells = [f"<td>{bdi(shown)}"
                 + ('<span class="bv-badge">changed</span>' if w.changed else "") + "</td>",
                 f'<td class="bv-num">{w.count:,}</td>']
        if has_before:
            cells.append(f"<td>{chips(w.before)}</td>")
        if has_after:
            cells.append(f"<td>{chips(w.after)}</td>")
        rows.append(f'<tr class="{"bv-changed" if w.changed else ""}" '
                    f'data-word-index="{w.index}">{"".join(cells)}</tr>')
    more = ""
    if total is not None and total > len(words):
        more = (f'<p class="bv-muted">{len(words):,} of the corpus\'s {total:,} different '
                "words are shown.</p>")
    width = "" if has_before or has_after else ' style="width:auto;min-width:50%"'
    return (f'<table class="bv-words bv-lesson-words"{width}><thead><tr>{"".join(head)}'
            "</tr></thead>"
            f'<tbody>{"".join(rows)}</tbody></table>{more}')


def _data(numbers: dict[str, object]) -> str:
    """The numbers that are one value each, as ``data-*`` attributes (a score exact)."""
    attrs = {}
    for name, value in numbers.items():
        if isinstance(value, bool) or value is None or isinstance(value, list | dict):
            continue
        attrs[name.replace("_", "-")] = repr(float(value)) if isinstance(value, float) else value
    return " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())


def section_html(section: LessonSection, byte_style: str = "gpt2",
                 presentation: bool = False) -> str:
    """A part of a step about one algorithm: its title, sentences (a mark drawn as a line
    across) and its numbers as ``data-*`` attributes (``data-algorithm``: its key)."""
    text = "".join(
        f'<p class="bv-lesson-text{" bv-lesson-mark" if i in section.marks else ""}">'
        f"{sentence_html(s, byte_style, presentation)}</p>"
        for i, s in enumerate(section.sentences))
    return (f'<div class="bv-lesson-section" data-algorithm="{esc(section.key)}" '
            f'{_data(section.numbers)}><h4>{esc(section.title)}</h4>{text}</div>')


def lesson_step_html(lesson: Lesson, number: int, byte_style: str = "gpt2",
                     presentation: bool = False) -> str:
    """Lesson step ``number`` (1-based): its sentences, then its words table."""
    step = lesson.steps[number - 1]
    text = "".join(f'<p class="bv-lesson-text">{sentence_html(s, byte_style, presentation)}</p>'
                   for s in step.sentences)
    attrs: dict[str, object] = {"lesson-step": number, "key": step.key,
                                "steps": len(lesson.steps), "merge-step": step.merge_step,
                                "algorithm": lesson.algorithm}
    nums = step.numbers
    for name in ("count", "score", "tie", "count_left", "count_right", "tokens_before",
                 "tokens_after", "vocab_before", "vocab_after", "alphabet", "tokens",
                 "distinct_words", "words", "merges"):
        value = nums.get(name)
        if isinstance(value, bool) or value is None or isinstance(value, list | dict):
            continue
        attrs[name.replace("_", "-")] = repr(float(value)) if name == "score" else value
    data = " ".join(f'data-{k}="{esc(v)}"' for k, v in attrs.items())
    table = words_html(step.words, byte_style, presentation,
                       len(lesson.training.corpus.words))
    sections = "".join(section_html(s, byte_style, presentation) for s in step.sections)
    return f'{CSS}<div class="bv-lesson" {data}>{text}{sections}{table}</div>'
