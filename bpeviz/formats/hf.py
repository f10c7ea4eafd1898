"""Hugging Face ``tokenizer.json``: export and import (BPE, byte-level BPE, WordPiece).

The export encodes exactly like :meth:`Snapshot.encode <bpeviz.core.snapshot.Snapshot.encode>`
when loaded with ``tokenizers.Tokenizer.from_str`` (tested on text the training never
saw). Each pre-tokenizer has an exact Hugging Face equivalent:

======================  =====================================================================
``whitespace``          ``Split`` on ``[\\s\\x1c-\\x1f]+``, removed (``WhitespaceSplit`` keeps
                        U+001C..U+001F, which Python's ``str.split`` cuts on)
``gpt2``                ``ByteLevel(use_regex=True)`` for BBPE, a ``Split`` with GPT-2's pattern
                        (isolated) otherwise
``none``                ``Split`` on ``\\n``, merged with the previous piece
``cl100k``, ``o200k``   a ``Split`` with OpenAI's pattern (isolated); cl100k's possessive
                        ``\\p{N}{1,3}+`` is written ``\\p{N}{1,3}`` (see
                        :mod:`bpeviz.formats.hf_pretokenizers`)
``bert``                a ``Split`` isolating each CJK ideograph, then ``BertPreTokenizer``
                        (in BERT the ideographs are set apart by ``BertNormalizer``)
``superbpe``            SuperBPE's stage 2: a ``Split`` with the authors' pattern
                        (isolated), then ``ByteLevel`` without its regex
======================  =====================================================================

(Hugging Face's regex engine uses older Unicode tables than the ``regex`` module, so
``gpt2`` can group characters assigned in recent Unicode versions differently.)

Limits:

- A separate end-of-word symbol (``"</w>"`` after the last character) has no Hugging
  Face equivalent: exporting it raises ValueError (a glued marker becomes
  ``end_of_word_suffix``).
- Special tokens are ordinary vocabulary entries (``added_tokens`` is empty), so a
  ``[CLS]`` typed in the text is encoded like any other text, as bpeviz does; the
  unknown token is the model's ``unk_token``.

Import accepts BPE (with an optional ``end_of_word_suffix``), byte-level BPE and
WordPiece models with the pre-tokenizers above (also ``WhitespaceSplit``, a GPT-2
``Split``, tiktoken's spelling of the GPT-2 pattern and the cl100k/o200k patterns); a
SuperBPE export opens as byte-level BPE cut by the stage-2 pre-tokenizer, the same ids.
What bpeviz does not model opens with a note (:func:`import_notes`), never silently: a
normalizer (not applied), ``Metaspace`` (opened as one word per line),
``BertPreTokenizer`` and ``Whitespace`` (opened as whitespace), ``byte_fallback`` and
``fuse_unk``; the vocabulary, ids and merges stay the file's own.
A missing pre-tokenizer (the whole text is one word) opens as ``none`` (one word per
line). Post-processors and decoders are ignored; ``added_tokens`` become vocabulary
entries. Anything else raises a ValueError that names it.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import BBPE, BPE, WORDPIECE
from bpeviz.algorithms import get as get_algorithm
from bpeviz.core.coders import MAX_WORDPIECE_CHARS
from bpeviz.core.encoding import unk_token
from bpeviz.formats._common import (
    Lone,
    Opener,
    build_training,
    check_id,
    check_size,
    check_unk,
    dumps,
    parse_json,
    pretokenizer_of,
    vocab_items,
)
from bpeviz.formats.hf_pretokenizers import (
    byte_level_spec,
    pre_tokenizer,
    read_pre_tokenizer,
    type_name,
)
from bpeviz.text.display import gpt2_to_bytes
from bpeviz.text.symbols import WORDPIECE_PREFIX, Symbol

if TYPE_CHECKING:
    from bpeviz.algorithms import Algorithm
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: the format's name in exports, what it holds, and the file names it reads and writes
NAME = "hf"
ABOUT = "Hugging Face tokenizer.json"
FILENAME = "tokenizer.json"
FILES = (FILENAME,)
# -- export -------------------------------------------------------------------------------
def export(snapshot: Snapshot) -> dict[str, str]:
    """``{"tokenizer.json": ...}`` for the vocabulary and merges at the snapshot's step."""
    training = snapshot.training
    alg = get_algorithm(training.options.algorithm)
    alg.check_export("hf", "tokenizer.json holds BPE and WordPiece")
    write = _MODELS.get(alg.hf_model)
    if write is None:
        raise ValueError(f"tokenizer.json holds {alg.label} as a {alg.hf_model} model, which "
                         "bpeviz writes from a pruning round, not from a merge step")
    name = pretokenizer_of(training)
    model, decoder, byte_level = write(snapshot, alg)
    if name == "metaspace":  # "▁" back to a space; then one space off the front of each
        # piece (the decoders before join all tokens, or put a space before each word)
        decoder = {"type": "Sequence", "decoders": [
            decoder, {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}
    data = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": pre_tokenizer(name, byte_level),
        "post_processor": None, "decoder": decoder, "model": model,
    }
    return {FILENAME: dumps(data)}


#: what a model writer returns: the model, its decoder, and whether the text is read as
#: bytes (HF's ByteLevel pre-tokenizer)
_Written = tuple[dict[str, Any], dict[str, Any], bool]


def _wordpiece_model(snapshot: Snapshot, alg: Algorithm) -> _Written:
    prefix = alg.continuing_prefix
    model = {
        "type": "WordPiece", "unk_token": unk_token(snapshot.training) or "[UNK]",
        "continuing_subword_prefix": prefix, "max_input_chars_per_word": MAX_WORDPIECE_CHARS,
        "vocab": dict(vocab_items(snapshot)),
    }
    return model, {"type": "WordPiece", "prefix": prefix, "cleanup": False}, False


def _bpe_model(snapshot: Snapshot, alg: Algorithm, byte_level: bool = False) -> _Written:
    training = snapshot.training
    options = training.options
    if options.marker and options.marker_style == "separate":
        raise ValueError(
            f"a separate end-of-word symbol ({options.marker!r} after each word) has no "
            "Hugging Face equivalent; train with marker_style='glued' (HF's "
            "end_of_word_suffix), or export as 'gpt2' or 'training'"
        )

    def spell(symbol: Symbol) -> str:  # as the record spells its symbols in tokenizer.json
        return alg.symbol_to_json(symbol, "gpt2")

    model = {
        "type": "BPE", "dropout": None,
        "unk_token": None if byte_level else unk_token(training),
        "continuing_subword_prefix": None, "end_of_word_suffix": options.marker,
        "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
        "vocab": {spell(token): i for token, i in vocab_items(snapshot)},
        "merges": [[spell(m.left), spell(m.right)] for m in training.merges[: snapshot.step]],
    }
    if byte_level:
        decoder = byte_level_spec(True)
    elif options.marker:
        decoder = {"type": "BPEDecoder", "suffix": options.marker}
    else:
        decoder = {"type": "Fuse"}
    return model, decoder, byte_level


def _byte_level_bpe_model(snapshot: Snapshot, alg: Algorithm) -> _Written:
    return _bpe_model(snapshot, alg, byte_level=True)


#: the model writers, by ``Algorithm.hf_model`` (a Unigram model is written from a pruning
#: round: :mod:`bpeviz.unigram.hf_export`)
_MODELS = {"BPE": _bpe_model, "byte-level BPE": _byte_level_bpe_model,
           "WordPiece": _wordpiece_model}
#: the models whose decoder joins the words' tokens (nothing but a token puts a space)
_JOINS_WORDS = ("BPE", "byte-level BPE")


#: the pre-tokenizers that drop the spaces between words (nothing in a token keeps them)
DROPS_SPACES = ("whitespace", "bert")
#: the pre-tokenizers whose tokens keep the spaces, as the settings name them
KEEPS_SPACES = "GPT-2 regex, GPT-4 regex or SentencePiece (▁word)"


def lossy_decoding(training: Training) -> str | None:
    """Why this training's ``tokenizer.json`` decodes without the spaces between words,
    and which setting makes it reversible; None when it decodes back to the text.

    Without an end-of-word marker a token does not say where its word ends, and a
    pre-tokenizer that drops whitespace leaves no space in any token: Hugging Face's
    decoder then joins the words (``"Tokenizers cut text"`` comes back as
    ``"Tokenizerscuttext"``).

    >>> from bpeviz import Corpus, train
    >>> lossy_decoding(train(Corpus.from_text("a b"), "bpe", merges=0)) is not None
    True
    >>> lossy_decoding(train(Corpus.from_text("a b"), "bpe", merges=0, marker="</w>",
    ...                      marker_style="glued")) is None
    True
    """
    alg = get_algorithm(training.options.algorithm)
    name = pretokenizer_of(training)
    if alg.hf_model not in _JOINS_WORDS or name not in DROPS_SPACES or training.options.marker:
        return None
    fix = (f"choose the end-of-word marker </w> (or _), glued to the word's last symbol: "
           f"the decoder turns it back into a space; or a pre-tokenizer that keeps the "
           f"spaces in its tokens ({KEEPS_SPACES})" if alg.takes_marker else
           f"choose a pre-tokenizer that keeps the spaces in its tokens ({KEEPS_SPACES}; "
           "auto picks GPT-2's)")
    return (f"This tokenizer.json decodes without the spaces between words (“Tokenizers "
            f"cut text” comes back as “Tokenizerscuttext”): the {name} pre-tokenizer drops "
            f"the spaces and, with no end-of-word marker, no token says where a word ends. "
            f"For a tokenizer that decodes back to its text, {fix}.")


# -- import -------------------------------------------------------------------------------
def opens(files: Mapping[str, str], lone: Lone | None) -> Opener | None:
    """A lone JSON file with a ``"model"`` (not named ``vocab.json``: that one needs its
    ``merges.txt``)."""
    if lone is None or not lone.json_like or lone.name == "vocab.json" \
            or not isinstance(lone.data, dict) or "model" not in lone.data:
        return None
    return lambda: import_json(lone.text, lone.name)


def recognise(name: str, text: str, data: Any) -> str | None:
    """``tokenizer.json`` when ``data`` (the parsed file) is a Hugging Face tokenizer."""
    return FILENAME if isinstance(data, dict) and isinstance(data.get("model"), dict) else None


def import_json(text: str, source: str = FILENAME) -> Training:
    """Open a Hugging Face ``tokenizer.json`` as a training whose steps are its merges;
    its normalizer is kept on the training (``normalizer``), not applied."""
    data = parse_json(text, source)
    training = _import_data(data, source)
    normalizer = data.get("normalizer")
    return dataclasses.replace(training, normalizer=normalizer) if normalizer else training


def _import_data(data: Any, source: str) -> Training:
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise ValueError(f'{source} is not a Hugging Face tokenizer: no "model" object')
    model = data["model"]
    kind = model.get("type")
    name, byte_level = read_pre_tokenizer(data.get("pre_tokenizer"), source, [])
    vocab = _read_vocab(model, source)
    specials = _added_tokens(data.get("added_tokens"), vocab, source)
    if kind == "WordPiece":
        return _wordpiece(model, vocab, specials, name, byte_level, source)
    if kind != "BPE" and not (kind is None and "merges" in model):
        raise ValueError(f"{source}: the model type {kind!r} is not supported "
                         "(bpeviz opens BPE and WordPiece)")
    if model.get("continuing_subword_prefix"):
        raise ValueError(f"{source}: a BPE continuing_subword_prefix is not supported")
    for key in ("ignore_merges", "dropout"):  # (byte_fallback, fuse_unk: import_notes)
        if model.get(key):
            raise ValueError(f"{source}: the BPE option {key}={model[key]!r} is not supported")
    merges = _read_merges(model.get("merges"), source)
    suffix = model.get("end_of_word_suffix")
    if suffix is not None and (not isinstance(suffix, str) or byte_level):
        raise ValueError(f"{source}: end_of_word_suffix={suffix!r} is not supported here")
    if byte_level:
        vocab, merges = _to_bytes(vocab, merges, specials, source)
        return build_training(algorithm=BBPE.name, vocab=vocab, merges=merges, pretokenizer=name,
                              source=source)
    unk = check_unk(model.get("unk_token"), vocab, source)
    if unk and unk not in specials:
        specials.insert(0, unk)
    return build_training(algorithm=BPE.name, vocab=vocab, merges=merges, pretokenizer=name,
                          marker=suffix or None, marker_style="glued",
                          special_tokens=specials, source=source)


def _wordpiece(model: dict[str, Any], vocab: dict[str, int], specials: list[str], name: str,
               byte_level: bool, source: str) -> Training:
    if byte_level:
        raise ValueError(f"{source}: a byte-level WordPiece is not supported")
    prefix = model.get("continuing_subword_prefix", WORDPIECE_PREFIX)
    if prefix != WORDPIECE_PREFIX:
        raise ValueError(f"{source}: continuing_subword_prefix={prefix!r} is not supported "
                         f"(bpeviz uses {WORDPIECE_PREFIX!r})")
    limit = model.get("max_input_chars_per_word", MAX_WORDPIECE_CHARS)
    if limit != MAX_WORDPIECE_CHARS:
        raise ValueError(f"{source}: max_input_chars_per_word={limit!r} is not supported "
                         f"(bpeviz uses {MAX_WORDPIECE_CHARS})")
    unk = check_unk(model.get("unk_token", "[UNK]"), vocab, source)
    if unk and unk not in specials:
        specials.insert(0, unk)
    return build_training(algorithm=WORDPIECE.name, vocab=vocab, merges=[], pretokenizer=name,
                          special_tokens=specials, source=source)


def _read_vocab(model: dict[str, Any], source: str) -> dict[str, int]:
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise ValueError(f'{source}: the model has no "vocab" object (token -> id)')
    check_size(len(vocab), source)
    for token, i in vocab.items():
        check_id(i, f"{source}: the id of {token!r}")
    return dict(vocab)


def _read_merges(merges: Any, source: str) -> list[tuple[str, str]]:
    if not isinstance(merges, list):
        raise ValueError(f'{source}: the BPE model has no "merges" list')
    check_size(len(merges), source)
    out = []
    for rank, merge in enumerate(merges, 1):
        if isinstance(merge, str):
            parts = merge.split(" ")
        elif isinstance(merge, list):
            parts = merge
        else:
            parts = []
        if len(parts) != 2 or not all(isinstance(p, str) and p for p in parts):
            raise ValueError(f"{source}: merge {rank} should be two tokens "
                             f'(["a", "b"] or "a b"), got {merge!r}'[:300])
        out.append((parts[0], parts[1]))
    return out


def _added_tokens(added: Any, vocab: dict[str, int], source: str) -> list[str]:
    """Add ``added_tokens`` to the vocabulary; return the special ones, by id."""
    if added is None:
        return []
    if not isinstance(added, list):
        raise ValueError(f'{source}: "added_tokens" should be a list')
    specials = []
    for entry in added:
        if not isinstance(entry, dict) or not isinstance(entry.get("content"), str):
            raise ValueError(f"{source}: an added token should have a string "
                             f'"content", got {entry!r}'[:300])
        content = entry["content"]
        i = check_id(entry.get("id"), f"{source}: the id of added token {content!r}")
        if vocab.setdefault(content, i) != i:
            raise ValueError(f"{source}: added token {content!r} has id {i}, "
                             f"but the vocabulary gives it {vocab[content]}")
        if entry.get("special"):
            specials.append(content)
    return sorted(specials, key=vocab.__getitem__)


def _to_bytes(vocab: Mapping[str, int], merges: list[tuple[str, str]], specials: list[str],
              source: str) -> tuple[dict[bytes, int], list[tuple[bytes, bytes]]]:
    """Byte-level tokens are spelled with GPT-2's byte characters ('Ġ' for a space)."""
    out: dict[bytes, int] = {}
    for token, i in vocab.items():
        try:
            raw = gpt2_to_bytes(token)
        except ValueError:
            if token not in specials:
                raise ValueError(f"{source}: {token!r} is not a byte-level token "
                                 "(spelled with GPT-2's byte characters)") from None
            raw = token.encode("utf-8")
        if out.setdefault(raw, i) != i:
            raise ValueError(f"{source}: two tokens stand for the bytes {raw!r}")
    return out, [(gpt2_to_bytes(a), gpt2_to_bytes(b)) for a, b in merges]


#: Hugging Face pre-tokenizers opened as the nearest bpeviz one, with what is not applied
def import_notes(text: str) -> list[str]:
    """What a ``tokenizer.json`` does that bpeviz opens it without (one sentence each);
    empty when everything is modelled, or when ``text`` is not a tokenizer bpeviz opens.

    The vocabulary, ids and merges are always the file's own; these notes are about how
    text is prepared before the merges (normalizer, pre-tokenizer) and fallbacks.

    >>> notes = import_notes('{"normalizer": {"type": "Lowercase"}, "model": {"type": "BPE"}}')
    >>> notes[0].split(":")[0]
    "the normalizer 'Lowercase' is not applied"
    """
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        return []
    notes = []
    normalizer = data.get("normalizer")
    if normalizer is not None:
        kinds = _kinds(normalizer, "normalizers")
        notes.append(f"the normalizer {', '.join(kinds)} is not applied: bpeviz encodes the "
                     "text as you type it, so type it already normalized (for example in "
                     "lower case) to get Hugging Face's ids")
    with contextlib.suppress(ValueError):  # (import_json says why it refuses)
        read_pre_tokenizer(data.get("pre_tokenizer"), FILENAME, notes)
    model = data["model"]
    if model.get("byte_fallback"):
        notes.append("byte_fallback is not applied: a character outside the vocabulary "
                     "becomes the unknown token, not its <0x..> byte tokens")
    if model.get("fuse_unk"):
        notes.append("fuse_unk is not applied: each unknown character is its own unknown "
                     "token")
    return notes


def _kinds(spec: Any, key: str) -> list[str]:
    """The types in a (Sequence of) normalizers, as ``'Lowercase'``, ``'NFC'``."""
    if isinstance(spec, dict) and spec.get("type") == "Sequence":
        return [k for part in spec.get(key) or [] for k in _kinds(part, key)]
    return [type_name(spec)]
