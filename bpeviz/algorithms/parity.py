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
    # the tokenizer is byte-level BPE's; a bpeviz training file would replay its merges
    # through the merge loop, which cannot rebuild the languages' record
    export_formats=("hf", "tiktoken", "gpt2"),
    hf_model="byte-level BPE",
    trainer="bpeviz.algorithms.parity_train.train_parity",
    sizes=("merges",),
    settings=("variant", "global_merges", "ratio", "window_size", "alpha", "min_frequency"),
)
