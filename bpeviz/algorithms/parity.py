"""Parity-aware BPE (Foroutan et al., 2026): byte-level BPE over several languages at once.

Each step first picks a language, the one its tokenizer serves worst so far (the most
tokens on its dev text, the lowest compression), then merges that language's most frequent
pair, in every language's words. The result is an ordinary byte-level BPE tokenizer;
what differs is which pairs made it. The trainer is
:func:`bpeviz.algorithms.parity_train.train_parity`, equal to Hugging Face's
``tokenizers.trainers.ParityBpeTrainer``; it takes one corpus per language::

    bpeviz.train({"en": text_en, "hi": text_hi}, algorithm="parity", merges=300,
                 dev={"en": dev_en, "hi": dev_hi})

>>> PARITY.byte_level, PARITY.pretokenizer, PARITY.sizes
(True, 'gpt2', ('merges',))
>>> PARITY.trainer
'bpeviz.algorithms.parity_train.train_parity'
"""

from dataclasses import dataclass

from bpeviz.algorithms.base import Algorithm

PARITY = Algorithm(
    name="parity",
    label="Parity-aware BPE",
    short_label="Parity BPE",
    help=("Byte-level BPE trained on several languages at once: before each merge it picks "
          "the language whose text still takes the most tokens (on a parallel dev set, or "
          "against target ratios) and merges that language's most frequent pair, so no "
          "language is left with long, expensive encodings."),
    units="bytes",
    unit_word="byte",
    split_words="Parity-aware BPE cuts every word into its bytes (UTF-8)",
    pretokenizer="gpt2",
    encoder="merges",
    # the tokenizer is byte-level BPE's; GPT-2's files and a bpeviz training file reopen
    # through the merge loop's options, which refuse an algorithm with its own trainer
    # (bpeviz.save keeps a parity training: its languages' words, settings and merges)
    export_formats=("hf", "tiktoken"),
    hf_model="byte-level BPE",
    trainer="bpeviz.algorithms.parity_train.train_parity",
    sizes=("merges",),
    settings=("variant", "global_merges", "ratio", "window_size", "alpha", "min_frequency"),
)


#: what a step's language was chosen on (:attr:`ParityChoice.basis`)
BASES = {
    "global": "the pair most frequent over all languages (a global merge)",
    "dev": "the most tokens on its dev text",
    "ratio": "the lowest compression over its ratio",
    "training": "the most tokens on its training text",
}


@dataclass(frozen=True)
class ParityChoice:
    """Why merge ``step`` went where it went, in the numbers the rule compared.

    ``tokens``: each language's tokens just before the merge (on its dev text in "dev"
    mode, its training text otherwise); ``scores``: the numbers ranked, the same tokens,
    or in "ratio" mode each language's compression (first tokens / tokens now) over its
    ratio, lowest first. ``in_window``: each language's picks among the last
    ``window_size`` ("window" variant); ``passed_over``: languages ranked worse but
    skipped for having too many of them; ``exhausted``: languages out of pairs; ``count``:
    the pair's count in the chosen language (over all languages for a global merge)."""

    step: int
    language: str | None
    basis: str
    tokens: tuple[int, ...]
    scores: tuple[float, ...]
    count: int
    in_window: tuple[int, ...] = ()
    passed_over: tuple[str, ...] = ()
    exhausted: tuple[str, ...] = ()
