"""Byte-level BPE (GPT-2, tiktoken): BPE over the UTF-8 bytes, so nothing is unknown.

>>> BBPE.initial_symbols("hé"), BBPE.surface([b"h\\xc3", b"\\xa9"])
([b'h', b'\\xc3', b'\\xa9'], 'hé')
"""

from bpeviz.algorithms.base import Algorithm
from bpeviz.text.display import bytes_to_gpt2
from bpeviz.text.symbols import Symbol


def hf_alphabet_order(symbol: Symbol) -> str | None:
    """Where Hugging Face's byte-level alphabet puts a byte: its ids are the 256 GPT-2
    characters sorted (``!`` first, the space's ``Ġ`` among the last), ours the byte
    values, so a tie between two pairs can go the other way. None for a special token,
    which comes before the alphabet in both.

    >>> sorted([b" ", b"a", b"!"], key=hf_alphabet_order)
    [b'!', b'a', b' ']
    """
    return bytes_to_gpt2(symbol) if isinstance(symbol, bytes) and len(symbol) == 1 else None


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
    tie_order=hf_alphabet_order,
)
