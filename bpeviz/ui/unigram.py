"""Streamlit views of a Unigram training: Explore, Tokenize and Vocabulary (its settings
are :mod:`bpeviz.ui.unigram_settings`, its figures :mod:`bpeviz.ui.unigram_figures`).

A Unigram step is a pruning round, not a merge, so these views step through rounds
with a plain slider (the client-side stage component is for merges). Every piece, word
and text shown is escaped (chips through :mod:`bpeviz.present.render`, tables as data, chart
labels through ``render.chart_text``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

import bpeviz.ui.stage as stage
import bpeviz.ui.state as state
from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.limits import LIMITS
from bpeviz.present import render
from bpeviz.present.render import esc, md_escape
from bpeviz.text import display
from bpeviz.ui import pretokens_view
from bpeviz.ui.labels import VARIANT_LABELS
from bpeviz.ui.state import bound, get
from bpeviz.ui.unigram_figures import (
    ARC_LABELS,
    ARC_SCORES,
    LATTICE_ARCS,
    LATTICE_CHARS,
    lattice_figure,
    loss_figure,
)
from bpeviz.unigram.cards import (
    CLOUD_ROWS,
    cloud_html,
    piece_chip,
    round_card_html,
    splits_html,
)
from bpeviz.unigram.cards import CSS as CARD_CSS
from bpeviz.unigram.hf_export import to_hf_json
from bpeviz.unigram.views import (
    pieces_frame,
    removed_at,
    removed_frame,
    rounds_sentence,
    segmentation_cloud,
    word_lattice,
)

#: at most this many characters of the Tokenize text are sampled for the cloud
CLOUD_CHARS = 300
#: at most this many words are drawn in Word splits (search finds the others)
WORDS_SHOWN = 300


# -- the round ----------------------------------------------------------------------------


def round_controls(training) -> int:
    """The step bar for the pruning round (the shared ``uround`` setting): ◀ slider ▶,
    "Round k of n", Play and the page-wide keys (← → one round, Shift ten, Home/End,
    Space), as for merges; beside it a "Go to round" box Python owns. Above it, a
    warning when the vocabulary is not the size typed in the sidebar (``stop_message``;
    a size chosen for the corpus is a target for the rounds, not a request)."""
    last = len(training) - 1
    if getattr(training, "stopped_early", False) and not training.size_is_chosen:
        st.warning(md_escape(training.stop_message))  # not the size asked for: say why
    if last == 0:
        state.clamp("uround", 0, 0)
        state.write_url()  # the link must not keep a round this training does not have
        seed = len(training.at(0).pieces)
        hint = (f" The course's seed has {seed:,} pieces (every character, then the most "
                "frequent substrings up to 300 pieces in all), and its rounds remove only "
                "pieces longer than one character: choose a vocabulary size under the seed's "
                "in the sidebar to see it prune." if training.variant == "course" else
                " Choose a smaller vocabulary size in the sidebar to see it prune.")
        st.info(md_escape("This training made no pruning round: the seed already fits the "
                          "vocabulary size." + hint))
        return 0
    return stage.rounds(last, round_history(training))


def round_history(training) -> str:
    """What the round bar steps through (a new training resets it)."""
    return f"unigram:{id(training):x}:{len(training) - 1}"


def round_numbers(training, history: str) -> None:
    """The vocabulary's pieces and the corpus's loss at the bar's round, with their
    change, drawn by the browser with the round card; under them a sentence per round
    saying which changes are drawn."""
    last = len(training) - 1
    steps = [training.at(r) for r in range(last + 1)]
    pieces = [len(s.pieces) for s in steps]
    losses = [float(s.loss) for s in steps]
    notes = [f"Pieces in the vocabulary and the corpus's loss after round {r} of {last}"
             + (deltas_sentence(r, pieces[r] - pieces[r - 1], losses[r] - losses[r - 1])
                if r else " (the seed, before any pruning).") for r in range(last + 1)]
    specials = ", ".join(steps[0].model.specials)
    stage.numbers([
        {"label": "Vocabulary (pieces)", "values": pieces, "good": "up",
         "help": f"Pieces in the vocabulary at this round (plus the special tokens {specials})."},
        {"label": "Loss", "values": losses, "good": "down", "digits": 1, "least": 0.05,
         "help": "The corpus's negative log-likelihood: the sum over words of count × "
                 "−(log-probability of its best split). Lower is better."}],
        last, history, setting="uround", notes=notes, name="uround_numbers")


# -- Explore ----------------------------------------------------------------------------


def unigram_explore(ctx) -> None:
    """Explore for a Unigram training: rounds, loss, removed pieces, splits, lattices."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    st.title("Explore the pruning rounds")
    st.caption(md_escape(
        f"Unigram ({VARIANT_LABELS.get(training.variant, training.variant)}) on "
        f"{ctx.corpus_name}: {len(ctx.corpus.words):,} distinct words. It starts from a "
        "large vocabulary and each round removes the pieces the corpus misses least "
        f"({len(training) - 1:,} steps in all: why so many, below the loss curve)."))
    k = round_controls(training)
    last = len(training) - 1
    step = training.at(k)
    card, numbers = st.columns([3, 2], gap="medium")
    history = round_history(training)
    with card:  # drawn by the browser at the bar's round, from the rounds around it
        stage.panel(training, "uround_card", (byte_style, strong),
                    lambda r: f"<style>{CARD_CSS}</style>"
                              + round_card_html(training, r, byte_style, strong),
                    waiting="Round {step}: its card follows when the round settles.",
                    setting="uround", last=last, history=history)
    with numbers:
        round_numbers(training, history)
        st.download_button(
            "Download this round as tokenizer.json", to_hf_json(step.model),
            file_name=f"unigram-round-{k}.tokenizer.json", mime="application/json",
            # "bv_at_step": a click before Python has heard the bar's round waits for it,
            # so the file is the round on screen (the keys are heard once they stop)
            key="bv_at_step_uexport", icon=":material/download:",
            help="A Hugging Face tokenizers file (Unigram model + Metaspace) with this "
                 "round's pieces and log-probabilities.")
    # below the first screen, what Python draws for the settled round: while none of it
    # is in view the browser reports the round only once the keys stop, so no rerun's
    # drawing lands between a speaker's keys (stage.settles_key)
    with st.container(key=stage.settles_key("unigram")):
        rounds_below(training, k, byte_style, strong)


def rounds_below(training, k: int, byte_style: str, strong: bool) -> None:
    """Below the round's card: the loss curve, the pieces removed at round ``k``, the
    word splits and the lattices."""
    last = len(training) - 1
    step = training.at(k)
    st.plotly_chart(loss_figure(training, k), key="uloss", config={"displaylogo": False})
    st.caption(md_escape(
        f"The loss (solid, left axis) and the number of pieces (dotted, right axis) after "
        f"each of the {last} pruning rounds (0 = the seed); the dashed line marks round {k}: "
        f"loss {step.loss:,.1f}, {len(step.pieces):,} pieces."))
    count, _, why = rounds_sentence(training).partition(": ")
    st.html(f'<div class="bv-rounds-why" data-rounds="{len(training) - 1}">'
            f"<strong>{esc(count)}</strong>: {esc(why)}</div>")

    left, right = st.columns([3, 2], gap="large")
    with right:
        st.subheader("Removed at this round")
        frame = removed_frame(removed_at(training, k))
        if not len(frame):
            st.caption("Nothing was removed at this round (step 0 is the seed).")
        else:
            in_use = int((~frame["unused"]).sum())
            st.caption(md_escape(
                f"The {len(frame):,} pieces round {k} removed: the {in_use:,} in use first, "
                "cheapest first, then the ones nobody used. Loss cost: the trainer's ranking "
                "key; nats: how much less likely the corpus becomes without the piece; "
                "uses: how often the best splits used it; cut instead: how the piece itself "
                "is cut without it (empty: not computed). A piece that re-estimation "
                "dropped was never judged by the pruning: its numbers are not computed."))
            st.dataframe(removed_in_text(frame), hide_index=True, width="stretch", height=360,
                         column_order=["piece", "cost", "nats", "uses", "instead", "why"],
                         column_config={
                             "piece": st.column_config.TextColumn("piece"),
                             "cost": st.column_config.TextColumn(
                                 "loss cost",
                                 help="How much the loss would rise without this piece, as "
                                      "the trainer ranked it (SentencePiece: per sentence, "
                                      "weighted by the piece's share)"),
                             "nats": st.column_config.TextColumn(
                                 "nats",
                                 help="How many nats less likely the whole corpus is without "
                                      "it (negative: more likely, by SentencePiece's estimate)"),
                             "uses": st.column_config.TextColumn(
                                 "uses", help="How often the corpus's best splits used it"),
                             "instead": st.column_config.TextColumn(
                                 "cut instead", help="How the piece itself is cut without it"),
                             "why": st.column_config.TextColumn("why it went")})
    with left:
        word_splits(training, k, byte_style, strong)
    word_lattice_view(training, k, byte_style, strong)


def deltas_sentence(k: int, grew: int, fell: float) -> str:
    """What the two metrics' deltas at round ``k`` show (a metric that did not change
    shows none): the caption under them.

    >>> deltas_sentence(3, -20, -4.2)
    '; under each, the change since round 2.'
    >>> deltas_sentence(3, 0, 12.0)
    '; under the loss, its change since round 2 (the vocabulary did not change).'
    >>> deltas_sentence(3, 0, 0.0)
    '; neither changed since round 2.'
    """
    pieces, loss = grew != 0, abs(fell) >= 0.05
    if pieces and loss:
        return f"; under each, the change since round {k - 1}."
    if not pieces and not loss:
        return f"; neither changed since round {k - 1}."
    if pieces:
        return (f"; under the vocabulary, its change since round {k - 1} (the loss did not "
                "change).")
    return f"; under the loss, its change since round {k - 1} (the vocabulary did not change)."


def word_splits(training, k: int, byte_style: str, strong: bool) -> None:
    """Every word's Viterbi split at round ``k``; words whose split changed marked."""
    st.subheader("Word splits")
    step = training.at(k)
    prev = training.at(k - 1) if k else None
    search = st.text_input("Search words", key="uword_search", max_chars=200,
                           placeholder="substring")
    order = sorted(range(len(step.words)), key=lambda i: -step.counts[i])
    rows = []
    for rank, i in enumerate(order):  # "#" is the word's rank by count
        word = step.words[i]
        if search and search not in word:
            continue
        split = step.splits[word]
        changed = prev is not None and prev.splits[word] != split
        rows.append((rank, word, step.counts[i], split, changed))
    changed = sum(r[4] for r in rows)
    shown = rows[:WORDS_SHOWN]
    st.caption(md_escape(
        f"{len(shown):,} of {len(rows):,} words shown, most frequent first (#: the word's "
        "rank by count; count: how often it occurs in the corpus); "
        + (f"{changed:,} split differently than at round {k - 1}." if k else
           "round 0 is the seed.")))
    if shown:
        with st.container(height=480 if len(shown) > 12 else "content", border=False):
            st.html(splits_html(shown, step.model, byte_style, strong=strong))
    else:
        st.info("No word matches.")


def word_lattice_view(training, k: int, byte_style: str, strong: bool) -> None:
    """The lattice of one word at round ``k``: every way to cut it, the best highlighted."""
    st.subheader("The lattice of a word")
    step = training.at(k)
    order = sorted(range(len(step.words)), key=lambda i: -step.counts[i])
    words = [step.words[i] for i in order[:2000]]
    if not words:
        return
    chosen = st.session_state.get("ulattice_word")
    if chosen not in words:
        st.session_state["ulattice_word"] = words[0]
    pick, many = st.columns([3, 1])
    word = pick.selectbox("Word", words, key="ulattice_word",
                          format_func=lambda w: display.visible(w)[:80],
                          help="A word of the corpus (the 2,000 most frequent).")
    n = many.number_input("Segmentations listed", min_value=1, max_value=50, value=10,
                          key="ulattice_n")
    found = word_lattice(step.model, word, int(n))
    model = step.model
    # the best path's own text (an unknown character as itself, hatched as <unk>)
    best_text = [word[s:e] for s, e, _, _, on in sorted(found.nodes) if on]
    st.html('<div class="bv-muted">Best split (Viterbi): </div>' + "".join(
        piece_chip(model, p, byte_style, strong) for p in best_text))
    drawn = found
    if len(word) > LATTICE_CHARS:
        drawn = replace(found, word=word[:LATTICE_CHARS],
                        nodes=tuple(n for n in found.nodes if n[1] <= LATTICE_CHARS))
    arcs = len(drawn.nodes)
    labels = (" Each arc is labelled with its piece" + (
        " and its log-probability." if arcs <= ARC_SCORES else
        "; the best path's also with its log-probability (hover any arc for its own).")
        if arcs <= ARC_LABELS else
        f" With {arcs:,} arcs only the best path is labelled (piece and log-probability); "
        "hover any other arc for its piece and log-probability.")
    st.caption(md_escape(
        f"Every arc is a piece of the vocabulary at round {k} that occurs in this word "
        f"({len(found.nodes):,} arcs); a path of arcs from the left end to the right end is "
        f"one way to cut it. Its score is the sum of its pieces' log-probabilities; the "
        f"best path (thick, red, above the characters) scores {found.best_score:.3f}; "
        "every other arc is drawn below the characters."
        + (f" The drawing shows the word's first {LATTICE_CHARS} of {len(word):,} "
           f"characters ({arcs:,} arcs that end within them); the best split above and the "
           "table below are the whole word's." if drawn is not found else "")
        + labels))
    if arcs <= LATTICE_ARCS:
        st.plotly_chart(lattice_figure(drawn, byte_style, strong), key="ulattice_fig",
                        config={"displaylogo": False})
    else:
        st.caption(md_escape(f"The drawing is left out past {LATTICE_ARCS} arcs; the best "
                             "segmentations are listed below."))
    best = found.nbest[0][1] if found.nbest else 0.0
    rows = [{"rank": r, "segmentation": " | ".join(display.label(p) for p in pieces),
             "score": score, "relative probability": math.exp(score - best)}
            for r, (pieces, score) in enumerate(found.nbest, 1)]
    st.caption(md_escape(
        f"The {len(rows):,} best ways to cut {display.visible(word)[:80]}, best first: score is "
        "the sum of the pieces' log-probabilities (higher is better); relative probability "
        "is the split's probability divided by the best split's (1 for the best)."))
    st.dataframe(rows, hide_index=True, width="stretch", column_config={
        "score": st.column_config.NumberColumn(
            format="%.3f", help="Sum of the pieces' log-probabilities (higher is better)"),
        "relative probability": st.column_config.NumberColumn(
            format="%.3g", help="This segmentation's probability over the best one's")})


# -- Tokenize -----------------------------------------------------------------------------

DEFAULT_TEXT = "The tokenizer learns tokens: lowest newer 自然语言处理 ありがとう 👍🏽"


def cloud_subject(text: str, key: str, chars: int, help: str) -> str:
    """The select box of what a segmentation cloud samples: the whole text (its first
    ``chars`` characters) or one of its words; a new text starts at its longest word."""
    whole = text[:chars]
    words = list(dict.fromkeys(w[:chars] for w in text.split()))
    choices = [whole, *(w for w in words if w != whole)]
    if st.session_state.get(key) not in choices:
        st.session_state[key] = max(words, key=len) if words else whole
    return st.selectbox(
        "Sample the segmentations of", choices, key=key,
        format_func=lambda c: ("the whole text" + (f" (its first {chars} characters)"
                                                  if len(text) > chars else "")
                               if c == whole else display.visible(c)[:80]),
        help=help)


def _edited() -> None:
    st.session_state["text_edited"] = True


def unigram_tokenize(ctx) -> None:
    """Tokenize for a Unigram training: the text cut by Viterbi at the chosen round, and
    the segmentation cloud (sampled segmentations and how often each came up)."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    st.title("Tokenize any text")
    if not get("text") and not st.session_state.get("text_edited"):
        state.put("text", (ctx.sample.try_text if ctx.sample else "") or DEFAULT_TEXT)
    text = bound(st.text_area, "Text", "text", height=100 if strong else 140,
                 max_chars=LIMITS.input_chars,
                 then=_edited, help=f"Up to {LIMITS.input_chars:,} characters.")
    k = round_controls(training)
    step = training.at(k)
    show_pre = pretokens_view.toggle()
    if not text:
        st.info("Type some text above.")
        return
    tokens = step.model.encode(text)
    unk = sum(t.unk for t in tokens)
    a, b, c = st.columns(3)
    a.metric("Tokens", f"{len(tokens):,}", help="Pieces the text is cut into (Viterbi: the "
                                                "split of highest total log-probability)")
    b.metric("Characters per token", f"{len(text) / max(len(tokens), 1):.2f}",
             help="The text's characters divided by its tokens: higher means longer pieces")
    c.metric("Unknown", f"{unk:,}", help="Runs of characters no piece covers (<unk>)")
    if show_pre:  # the words Unigram cuts (a piece only starts with ▁), its pieces inside
        pretokens_view.draw(training, text, tokens, byte_style, strong, False,
                            pretokenizer=get_algorithm(training.algorithm).pretokenizer,
                            inside=f"the pieces of round {k} sit inside. A piece only starts "
                                   "with ▁, never holds it further in, so Viterbi's cut "
                                   "never crosses a frame's edge.")
        st.markdown("**Tokens**")
    st.html(render.tokens_html(text, tokens, byte_style, strong=strong))
    st.caption(md_escape(
        f"{len(text):,} characters cut into {len(tokens):,} tokens by the "
        f"{len(step.pieces):,} pieces of round {k} of {len(training) - 1}: the split with "
        "the highest total log-probability (Viterbi)"
        + (f"; {unk:,} run{'' if unk == 1 else 's'} of characters no piece covers "
           f"became {step.model.unk}." if unk else ".")))

    st.subheader("Segmentation cloud")
    st.caption("Unigram can also sample a segmentation instead of taking the best one "
               "(subword regularization): each split of the text is drawn with probability "
               "proportional to P(split)^alpha. Sampling many times shows how often each "
               "split comes up.")
    cols = st.columns(2)
    samples = cols[0].number_input("Samples", min_value=1, max_value=1000, value=100,
                                   key="ucloud_n")
    alpha = cols[1].slider("alpha (0: every split equally likely; larger: the best split "
                           "more often)", 0.0, 2.0, 0.1, 0.05, key="ucloud_alpha")
    sampled = cloud_subject(text, "ucloud_of", CLOUD_CHARS,
                            "A word of the text shows few splits, each often; a long text "
                            "shows many.")
    cloud = segmentation_cloud(step.model, sampled, int(samples), float(alpha))
    best = tuple(t.text for t in step.model.encode(sampled))
    rows = [{"times": n, "share": n / int(samples),
             "segmentation": " | ".join(display.label(p) for p in split),
             "best": "★" if split == best else ""}
            for split, n in cloud[:200]]
    st.caption(md_escape(
        f"{len(cloud):,} different segmentations in {int(samples):,} samples at alpha "
        f"{float(alpha):g}, the most frequent first"
        + (f" (the {min(CLOUD_ROWS, len(cloud))} most frequent drawn, every one in the "
           "table below)" if len(cloud) > CLOUD_ROWS else "")
        + "; ★ marks the best (Viterbi) one."))
    st.html(f"<style>{CARD_CSS}</style>" + cloud_html(cloud, int(samples), best, step.model,
                                                      byte_style, strong))
    st.dataframe(rows, hide_index=True, width="stretch", column_config={
        "share": st.column_config.ProgressColumn(format="%.2f", min_value=0.0, max_value=1.0),
        "times": st.column_config.NumberColumn(help="How many samples gave this split")})


#: what the removed table says where the trainer computed no number
NOT_COMPUTED = "not computed"


def removed_in_text(frame):
    """The removed table's numbers as the table shows them: written out, and "not
    computed" where the trainer has none (not a missing value, drawn as "None").

    >>> import pandas as pd
    >>> removed_in_text(pd.DataFrame({"cost": [0.012345, float("nan")], "nats": [1.5, None],
    ...                               "uses": [3.0, None]})).values.tolist()
    [['0.01235', '1.5', '3'], ['not computed', 'not computed', 'not computed']]
    """
    def written(values, how):
        return [NOT_COMPUTED if v != v or v is None else how(v) for v in values]

    return frame.assign(cost=written(frame["cost"], lambda v: f"{v:.4g}"),
                        nats=written(frame["nats"], lambda v: f"{v:,.3g}"),
                        uses=written(frame["uses"], lambda v: f"{v:,.0f}"))


def removed_in_words(rounds) -> list[str]:
    """The "removed in round" column as the table shows it: the round, or "never" (not a
    missing value, which a table draws as "None").

    >>> removed_in_words([2.0, float("nan")])
    ['2', 'never']
    """
    return ["never" if r != r else f"{int(r):,}" for r in rounds]


def unigram_vocabulary(ctx) -> None:
    """Vocabulary for a Unigram training: the pieces at a round, with their
    log-probabilities and the round that removes each."""
    training = ctx.training  # (the page draws its title and view choice above)
    k = round_controls(training)
    step = training.at(k)
    frame = pieces_frame(training, k)
    kept = int(frame["in final"].sum())
    st.caption(md_escape(
        f"{len(frame):,} pieces at round {k} (plus {', '.join(step.model.specials)}), in id "
        f"order; {kept:,} of them stay to the final vocabulary. A piece's "
        "log-probability is its score: a split's score is the sum of its pieces'."))
    search = st.text_input("Search pieces", key="upiece_search", max_chars=200)
    if search:
        frame = frame[frame["piece"].str.contains(search, regex=False)]
    frame = frame.assign(**{"removed in round": removed_in_words(frame["removed in round"])})
    st.dataframe(frame, hide_index=True, width="stretch", height=520, column_config={
        "log-prob": st.column_config.NumberColumn(
            format="%.4f", help="log P(piece): higher is more likely"),
        "removed in round": st.column_config.TextColumn(
            help="The pruning round that removes it; never: it stays to the final "
                 "vocabulary"),
        "in final": st.column_config.CheckboxColumn(
            help="In the final vocabulary (every character of the corpus is in every "
                 "round's vocabulary, as in SentencePiece's final one)")})
    st.download_button(
        "Download this round as tokenizer.json", to_hf_json(step.model),
        file_name=f"unigram-round-{k}.tokenizer.json", mime="application/json",
        key="bv_at_step_uexport_vocab", icon=":material/download:")  # (as on Explore)


#: the pages that draw a Unigram training, each by its own view (the record's ``views``)
PAGES = {"Explore": unigram_explore, "Tokenize": unigram_tokenize,
         "Vocabulary": unigram_vocabulary}
#: what the other pages say it does instead of merging
INSTEAD = "prunes instead: its steps are pruning rounds"

__all__ = ["INSTEAD", "PAGES", "cloud_subject", "round_controls", "unigram_explore",
           "unigram_tokenize", "unigram_vocabulary"]
