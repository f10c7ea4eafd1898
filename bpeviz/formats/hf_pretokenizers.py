"""Hugging Face pre-tokenizers: the ``pre_tokenizer`` object that cuts text as each of
bpeviz's pre-tokenizers does, and the way back (which bpeviz pre-tokenizer a file's
``pre_tokenizer`` is, with a note for what bpeviz only approaches).

The table of equivalences is in :mod:`bpeviz.formats.hf`.

>>> bert = pre_tokenizer("bert", byte_level=False)
>>> pre_tokenizer("gpt2", byte_level=True)["type"], read_pre_tokenizer(bert, "t")
('ByteLevel', ('bert', False))
"""

from __future__ import annotations

from typing import Any

from bpeviz.text.pretokenize import CJK_CLASS, CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN

WHITESPACE_PATTERN = r"[\s\x1c-\x1f]+"
#: tiktoken's spelling of the GPT-2 pattern (r50k_base): the same matches.
TIKTOKEN_GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
)


#: cl100k's pattern as Hugging Face must read it. Its regex engine (Oniguruma, Ruby syntax)
#: reads tiktoken's possessive ``\p{N}{1,3}+`` as ``(?:\p{N}{1,3})+``, a digit run of any
#: length; without the ``+`` it is at most three digits, like tiktoken's. The ``+`` changes
#: nothing else: the digits are the last item of their alternative, so nothing after them
#: can make the engine give digits back. (The other possessive ``?+ ++ *+`` mean the same in
#: both engines.)
HF_CL100K_PATTERN = CL100K_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")
assert HF_CL100K_PATTERN != CL100K_PATTERN


def _split(pattern: str, behavior: str) -> dict[str, Any]:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior,
            "invert": False}


def byte_level_spec(use_regex: bool) -> dict[str, Any]:
    """Hugging Face's ByteLevel (pre-tokenizer and decoder alike), as bpeviz writes it."""
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
            "use_regex": use_regex}


_SPLITS = {
    "whitespace": _split(WHITESPACE_PATTERN, "Removed"),
    "gpt2": _split(GPT2_PATTERN, "Isolated"),
    "none": _split("\n", "MergedWithPrevious"),
    "cl100k": _split(HF_CL100K_PATTERN, "Isolated"),
    "o200k": _split(O200K_PATTERN, "Isolated"),
}
#: SentencePiece's "▁word": split on whitespace, then "▁" in front of every word.
METASPACE = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always",
             "split": False}
_SPLITS["metaspace"] = {"type": "Sequence", "pretokenizers": [_SPLITS["whitespace"], METASPACE]}
#: BERT's BasicTokenizer: each CJK ideograph apart (what BertNormalizer's
#: handle_chinese_chars does with spaces), then BertPreTokenizer's whitespace and
#: punctuation split.
CJK_SPLIT = _split(f"[{CJK_CLASS}]", "Isolated")
BERT = {"type": "BertPreTokenizer"}
_SPLITS["bert"] = {"type": "Sequence", "pretokenizers": [CJK_SPLIT, BERT]}


def pre_tokenizer(name: str, byte_level: bool) -> dict[str, Any]:
    """The Hugging Face pre-tokenizer that cuts text as bpeviz's ``name`` does."""
    if byte_level:
        if name == "gpt2":
            return byte_level_spec(True)
        return {"type": "Sequence", "pretokenizers": [_SPLITS[name], byte_level_spec(False)]}
    return _SPLITS[name]


def type_name(obj: Any) -> str:
    """A Hugging Face object's ``type``, quoted, for messages."""
    return repr(obj.get("type")) if isinstance(obj, dict) else repr(obj)


_NEAREST = {
    "Metaspace": ("none", "the Metaspace pre-tokenizer is not applied: Hugging Face turns "
                          "each space into {replacement!r}{prepend} and cuts before it; "
                          "bpeviz cuts the text as typed, one word per line, so a text "
                          "without spaces is cut exactly as Hugging Face cuts it"),
    "BertPreTokenizer": ("whitespace", "the BertPreTokenizer's cut at every punctuation mark "
                                       "is not applied: bpeviz cuts at whitespace only, so a "
                                       "text without punctuation is cut exactly as Hugging "
                                       "Face cuts it"),
    "Whitespace": ("whitespace", "the Whitespace pre-tokenizer's cut between letters and "
                                 "punctuation is not applied: bpeviz cuts at whitespace "
                                 "only, so a text without punctuation is cut exactly as "
                                 "Hugging Face cuts it"),
}


def read_pre_tokenizer(spec: Any, source: str,
                        notes: list[str] | None = None) -> tuple[str, bool]:
    """bpeviz's pre-tokenizer name for a Hugging Face pre-tokenizer, and whether it is
    byte-level; a pre-tokenizer bpeviz only approaches (:data:`_NEAREST`) adds a note to
    ``notes`` saying what is not applied."""
    if spec is None:
        return "none", False
    if not isinstance(spec, dict):
        raise ValueError(f"{source}: the pre-tokenizer should be an object, got {spec!r}"[:300])
    kind = spec.get("type")
    if kind == "Sequence":
        parts = spec.get("pretokenizers")
        if not isinstance(parts, list) or not parts:
            raise ValueError(f"{source}: a Sequence pre-tokenizer needs a pretokenizers list")
        if len(parts) == 1:
            return read_pre_tokenizer(parts[0], source, notes)
        if parts == [CJK_SPLIT, BERT]:
            return "bert", False
        if len(parts) == 2 and parts[1] == METASPACE \
                and read_pre_tokenizer(parts[0], source, notes) == ("whitespace", False):
            return "metaspace", False
        if len(parts) == 2 and isinstance(parts[1], dict) and parts[1].get("type") == "ByteLevel":
            if _byte_level_regex(parts[1], source):
                raise ValueError(f"{source}: a ByteLevel pre-tokenizer with use_regex after "
                                 "another pre-tokenizer is not supported")
            name, inner = read_pre_tokenizer(parts[0], source, notes)
            if not inner:
                return name, True
        raise ValueError(f"{source}: this Sequence of pre-tokenizers is not supported "
                         f"({', '.join(type_name(p) for p in parts)})")
    if kind == "ByteLevel":
        return ("gpt2" if _byte_level_regex(spec, source) else "none"), True
    if kind in _NEAREST and notes is not None:
        name, note = _NEAREST[kind]
        prepend = spec.get("prepend_scheme", "always" if spec.get("add_prefix_space", True)
                           else "never")
        notes.append(note.format(
            replacement=spec.get("replacement", "▁"),
            prepend=" (and puts one before the text)" if prepend in ("always", "first") else ""))
        return name, False
    if kind == "WhitespaceSplit":
        return "whitespace", False
    if kind == "Split":
        key = _split_key(spec)
        pattern, behavior = key[0], key[1]
        known = {
            (WHITESPACE_PATTERN, "removed", False): "whitespace",
            (GPT2_PATTERN, "isolated", False): "gpt2",
            (TIKTOKEN_GPT2_PATTERN, "isolated", False): "gpt2",
            (HF_CL100K_PATTERN, "isolated", False): "cl100k",
            # tiktoken's spelling, as older bpeviz exports wrote it: opened as cl100k
            # (Hugging Face itself reads its digit runs whole)
            (CL100K_PATTERN, "isolated", False): "cl100k",
            (O200K_PATTERN, "isolated", False): "o200k",
            ("\n", "mergedwithprevious", False): "none",
        }
        if key in known:
            if pattern == CL100K_PATTERN and notes is not None:
                notes.append("Hugging Face reads this pattern's possessive \\p{N}{1,3}+ as a "
                             "digit run of any length; bpeviz cuts digits in threes, as "
                             "tiktoken does, so a text with runs of more than three digits "
                             "is cut differently")
            return known[key], False
        # a Split registered by another layer (SuperBPE's stage 2: bpeviz/__init__.py) opens
        # as the pre-tokenizer it was written for, so what bpeviz exports, it reopens
        registered = next((n for n, split in _SPLITS.items() if split.get("type") == "Split"
                           and _split_key(split) == key), None)
        if registered is not None:
            return registered, False
        raise ValueError(f"{source}: a Split pre-tokenizer on {pattern!r} ({behavior}) is not "
                         "supported; bpeviz knows whitespace, GPT-2, OpenAI's, SuperBPE's "
                         "stage-2 and line splits")
    raise ValueError(f"{source}: the pre-tokenizer {kind!r} is not supported (bpeviz knows "
                     "WhitespaceSplit, ByteLevel and Split with its own patterns)")


def _split_key(spec: dict[str, Any]) -> tuple[Any, str, bool]:
    """A Split's pattern, behaviour (lower case, as HF reads it either way) and invert."""
    pattern = spec.get("pattern")
    pattern = pattern.get("Regex", pattern.get("String")) if isinstance(pattern, dict) else None
    behavior = str(spec.get("behavior", "")).lower().replace("_", "")
    return pattern, behavior, bool(spec.get("invert"))


def _byte_level_regex(spec: dict[str, Any], source: str) -> bool:
    if spec.get("add_prefix_space"):
        raise ValueError(f"{source}: ByteLevel add_prefix_space=true is not supported "
                         "(bpeviz does not add a space before the text)")
    return bool(spec.get("use_regex", True))
