"""Byte-level BPE (GPT-2, tiktoken): BPE over the UTF-8 bytes, so nothing is unknown.

>>> BBPE.initial_symbols("hé"), BBPE.surface([b"h\\xc3", b"\\xa9"])
([b'h', b'\\xc3', b'\\xa9'], 'hé')
"""

from bpeviz.algorithms.base import Algorithm

BBPE = Algorithm(
    name="bbpe",
    label="Byte-level BPE",
    help=("BPE over the bytes of the UTF-8 text (as GPT-2 and tiktoken do): the vocabulary "
          "starts with all 256 bytes, so any text can be encoded, with no unknown token."),
    units="bytes",
    unit_word="byte",
    split_words="Byte-level BPE cuts every word into its bytes (UTF-8)",
    pretokenizer="gpt2",
    encoder="merges",
    export_formats=("hf", "tiktoken", "gpt2", "training"),
    hf_model="byte-level BPE",
    lesson_sample="seed003",
    lesson_order=3,
)
