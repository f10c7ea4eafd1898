"""PickyBPE (Chizhov et al., EMNLP 2024): BPE that also removes tokens it no longer needs.

After each merge of ``a`` + ``b`` into ``ab``, each of ``a`` and ``b`` is looked at: its
Intersection over Self (IoS), the share of its occurrences that were inside ``ab``,
``count(ab) / (count(ab) + count(a left alone))``; above the threshold, the token is
removed from the vocabulary and its remaining occurrences are split back into the tokens
it was made of. The vocabulary grows and shrinks: a step is an event, a merge or a
removal. The trainer is :func:`bpeviz.algorithms.picky_train.train_picky`, equal to the
``pickybpe-bauwenst`` package's ``PickyBPETrainer`` (see that module for the rules)::

    bpeviz.train(corpus, algorithm="picky", merges=300, threshold=0.9)

>>> PICKY.trainer, PICKY.special_tokens
('bpeviz.algorithms.picky_train.train_picky', ('[PAD]', '[UNK]', '[BOS]', '[EOS]'))
"""

from bpeviz.algorithms.base import Algorithm

#: what a word starts with: the space before it, as SentencePiece writes it
WORD_START = "\u2581"

PICKY = Algorithm(
    name="picky",
    label="PickyBPE",
    short_label="PickyBPE",
    help=("BPE that also removes tokens: after each merge, a part of the new token that now "
          "almost only occurs inside it (its Intersection over Self is above the threshold) "
          "is removed from the vocabulary and split back where it still occurs, so the "
          "vocabulary grows and shrinks."),
    units="characters",
    special_tokens=("[PAD]", "[UNK]", "[BOS]", "[EOS]"),
    split_words=("PickyBPE cuts text at whitespace and every word into its characters, "
                 f"with {WORD_START} for the space before it"),
    encode_words=("To cut a word, the tokenizer replays its training's events, the earliest "
                  "first: each merge wherever it fits, each removal wherever the removed "
                  "token is."),
    trace_words=("“{word}” starts as its {units}; encoding at step {step} replays the merges "
                 "and removals made up to that step, in order."),
    pretokenizer="whitespace",
    encoder="merges",
    # a PickyBPE tokenizer is no BPE model: its removals are in no BPE format, only in
    # the model file its own package writes and opens (bpeviz.formats.pickybpe_model)
    export_formats=("pickybpe",),
    step="event",
    steps_scale=("its steps are merges and removals, and a removal takes a token away, so "
                 "its vocabulary grows and shrinks and a step is not on the merge steps' "
                 "scale"),
    steps_cut=("every word cut by replaying that step's merges and removals: a merge takes "
               "tokens away, a removal adds some back"),
    trainer="bpeviz.algorithms.picky_train.train_picky",
    sizes=("merges", "vocab"),
    settings=("threshold",),
    views="bpeviz.ui.picky",
    step_views="bpeviz.present.render_picky",
    health="bpeviz.analysis.health_picky",
)
