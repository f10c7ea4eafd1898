"""What every format shares: the vocabulary at a step, checks, and building a Training
from an imported vocabulary and merge list."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bpeviz.algorithms import get as get_algorithm
from bpeviz.algorithms import join
from bpeviz.core.encoding import UNK_TOKENS, known_ids
from bpeviz.core.training import make_options, replay
from bpeviz.text.corpus import Corpus
from bpeviz.text.pretokenize import PRETOKENIZERS
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: Most tokens an imported file may hold (o200k_base has 200k), so a hostile file
#: cannot make the explorer allocate without bound.
MAX_TOKENS = 1_000_000
#: Ids must be below this (they are stored as 32-bit integers).
MAX_ID = 2**31 - 1
#: The small JSON file that says how to use a vocab.txt or vocab.json + merges.txt.
SIDECAR = "bpeviz.json"
SIDECAR_FORMAT = "bpeviz.tokenizer"


def vocab_items(snapshot: Snapshot) -> list[tuple[Symbol, int]]:
    """``(token, id)`` of every token known at the snapshot's step, by id."""
    vocab = snapshot.training.vocab
    return [(vocab[i], i) for i in known_ids(snapshot.training, snapshot.step)]


def pretokenizer_of(training: Training) -> str:
    """The corpus's pre-tokenizer; a word-count table is encoded with whitespace splitting."""
    name = training.corpus.pretokenizer
    return "whitespace" if name == "counts" else name


def sidecar(snapshot: Snapshot) -> str:
    """``bpeviz.json``: what a vocab.txt or vocab.json + merges.txt cannot say itself."""
    options = snapshot.training.options
    return dumps({
        "format": SIDECAR_FORMAT,
        "algorithm": options.algorithm,
        "pretokenizer": pretokenizer_of(snapshot.training),
        "marker": options.marker,
        "marker_style": options.marker_style,
    })


def read_sidecar(files: Mapping[str, str]) -> dict[str, Any]:
    """The settings of ``bpeviz.json`` if present (checked), else ``{}``."""
    if SIDECAR not in files:
        return {}
    data = parse_json(files[SIDECAR], SIDECAR)
    if not isinstance(data, dict) or data.get("format") != SIDECAR_FORMAT:
        raise ValueError(f'{SIDECAR} is not a bpeviz settings file (no "format": '
                         f'"{SIDECAR_FORMAT}")')
    out = {}
    for key, kinds in (("algorithm", str), ("pretokenizer", str), ("marker", (str, type(None))),
                       ("marker_style", str)):
        if key in data:
            if not isinstance(data[key], kinds):
                raise ValueError(f"{SIDECAR}: {key!r} has the wrong type: {data[key]!r}")
            out[key] = data[key]
    if "pretokenizer" in out and out["pretokenizer"] not in PRETOKENIZERS:
        raise ValueError(f"{SIDECAR}: unknown pre-tokenizer {out['pretokenizer']!r}")
    return out


#: ``recognise(name, text, data)`` gets this as ``data`` for a file that is not JSON.
NOT_JSON: Any = object()


def first_lines(text: str, n: int = 50) -> list[str]:
    """Up to ``n`` non-empty lines from the start of ``text`` (for recognising a file)."""
    out = []
    for line in text[: 200 * n].splitlines():
        if line.strip():
            out.append(line)
            if len(out) == n:
                break
    return out


class Lone:
    """The one file of a set that is not a companion (``bpeviz.json``, ``tiktoken.json``):
    its ``name`` and ``text``; ``data`` parses it as JSON on first use (ValueError naming
    the file when it is not valid JSON)."""

    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text

    @property
    def json_like(self) -> bool:
        """Whether the text starts as JSON does (only then is ``data`` asked for)."""
        return self.text.lstrip().startswith(("{", "["))

    @functools.cached_property
    def data(self) -> Any:
        return parse_json(self.text, self.name)


#: what an ``opens(files, lone)`` of a format returns when the files are its own: the
#: function that reads them (None when they are not; ValueError when they are, but incomplete)
Opener = Callable[[], "Training"]


def recognise_sidecar(name: str, text: str, data: Any) -> str | None:
    """``bpeviz.json`` when ``data`` is one, whatever the file is called."""
    return SIDECAR if isinstance(data, dict) and data.get("format") == SIDECAR_FORMAT else None


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def parse_json(text: str, name: str) -> Any:
    """``json.loads`` with an error that names the file and the place."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{name} is not valid JSON: {err}") from None
    except RecursionError:
        raise ValueError(f"{name} is nested too deeply to be a tokenizer file") from None


def check_id(value: Any, what: str) -> int:
    """An id from a file: a whole number from 0 to :data:`MAX_ID`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    if not 0 <= value <= MAX_ID:
        raise ValueError(f"{what} is out of range: {value} (ids go from 0 to {MAX_ID})")
    return value


def check_size(n: int, what: str) -> None:
    if n > MAX_TOKENS:
        raise ValueError(f"{what} holds {n:,} entries; bpeviz opens at most {MAX_TOKENS:,}")


def build_training(
    *,
    algorithm: str,
    vocab: Mapping[Symbol, int],
    merges: Sequence[tuple[Symbol, Symbol]],
    pretokenizer: str,
    marker: str | None = None,
    marker_style: str = "separate",
    special_tokens: Sequence[str] = (),
    source: str = "the file",
) -> Training:
    """A :class:`Training` whose steps are the file's merges in rank order.

    The base vocabulary is every token no merge makes. Ids are the file's ids when the
    file lists the base tokens first and the merged tokens after them in merge order
    (tokens listed after the merged ones, like GPT-2's ``<|endoftext|>``, are kept as
    extra tokens known at every step); Hugging Face, GPT-2, tiktoken and bpeviz's own
    exports all do. Otherwise tokens are renumbered in that order.
    """
    check_size(len(vocab), source)
    check_size(len(merges), source)
    if len(set(vocab.values())) != len(vocab):
        seen: dict[int, Symbol] = {}
        for token, i in vocab.items():
            if i in seen:
                raise ValueError(f"{source} gives id {i} to both {seen[i]!r} and {token!r}")
            seen[i] = token
    first_use: dict[Symbol, int] = {}
    for rank, (left, right) in enumerate(merges, 1):
        for part in (left, right):
            if part not in vocab:
                raise ValueError(f"merge {rank} ({left!r}, {right!r}) uses {part!r}, "
                                 f"which is not in the vocabulary of {source}")
            first_use.setdefault(part, rank)
    created: list[Symbol] = []
    made: set[Symbol] = set()
    for rank, (left, right) in enumerate(merges, 1):
        token = join(left, right, algorithm)
        if token not in vocab:
            raise ValueError(f"merge {rank} ({left!r}, {right!r}) makes {token!r}, "
                             f"which is not in the vocabulary of {source}")
        if token not in made and first_use.get(token, rank + 1) > rank:
            created.append(token)
            made.add(token)
    by_id = sorted(vocab, key=vocab.__getitem__)
    base = [t for t in by_id if t not in made]
    first_made = min((vocab[t] for t in created), default=len(vocab) + MAX_ID)
    early = [t for t in base if vocab[t] < first_made]
    late = [t for t in base if vocab[t] > first_made]
    order = early + created + late
    if all(vocab[t] == i for i, t in enumerate(order)):
        start, extra = early, late
    else:  # renumber: base tokens by id, then merged tokens in merge order
        start, extra = base, []
    alg = get_algorithm(algorithm)
    alg.check_base_symbols(vocab, source)
    if alg.base_symbols:  # they take the first ids: special tokens stay in the vocabulary
        special_tokens = ()
    options = make_options(algorithm, merges=len(merges), marker=marker,
                           marker_style=marker_style, special_tokens=list(special_tokens))
    training = replay(Corpus((), (), pretokenizer), options, list(merges), base=start)
    if extra:
        training = dataclasses.replace(training, vocab=training.vocab + tuple(extra))
    return training


def check_unk(unk: Any, vocab: Mapping[Symbol, int], source: str) -> str | None:
    """The unknown token a file names: None, or one of UNK_TOKENS that is in the vocabulary."""
    if unk is None:
        return None
    if not isinstance(unk, str):
        raise ValueError(f"{source}: unk_token must be a string, got {unk!r}")
    if unk not in UNK_TOKENS:
        raise ValueError(f"{source}: unk_token {unk!r} is not supported; bpeviz recognises "
                         f"{', '.join(UNK_TOKENS)}")
    if unk not in vocab:
        raise ValueError(f"{source}: unk_token {unk!r} is not in the vocabulary")
    return unk
