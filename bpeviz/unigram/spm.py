"""Open a SentencePiece ``.model`` file and encode exactly as ``sentencepiece`` does.

The file is read with the ``sentencepiece`` package's own protobuf definition
(``sentencepiece.sentencepiece_model_pb2.ModelProto``), never parsed by hand. Both model
types are supported:

- ``UNIGRAM``: Viterbi over the whole normalized text (float32 sums, ties to the
  earliest-starting last piece), an unknown character scoring the lowest piece score
  minus 10, user-defined pieces scoring ``length x max score - 0.1``;
- ``BPE``: from single characters, merge the adjacent pair whose joined string is a
  piece with the highest score (leftmost on ties) until none is left; ``UNUSED`` pieces
  are cut back into their halves.

Then, as ``SentencePieceProcessor`` does, a run of unknown characters is one ``<unk>``
(or, with ``byte_fallback``, the UTF-8 bytes as ``<0xXX>`` pieces).

Normalization: the ``identity`` rule (with the spec's ``add_dummy_prefix``,
``remove_extra_whitespaces`` and ``escape_whitespaces``) is done here; every other rule
(``nmt_nfkc``, ``nfkc``, ``nmt_nfkc_cf``, ``nfkc_cf``, custom rule tables) is applied by
the ``sentencepiece`` library's own normalizer, which also gives the offsets. Not
supported: ``treat_whitespace_as_suffix`` models (a clear ValueError), and the
denormalizer (decoding is not offered here).

Usage::

    model = load_spm("m.model")          # or the file's bytes
    model.model_type, model.normalization  # ('unigram', 'nmt_nfkc')
    model.encode("any text")             # Token(text, id, start, end, bytes, ...)
    model.encode_ids("any text")         # == SentencePieceProcessor(...).encode(...)
"""

from __future__ import annotations

import heapq
import math
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

import bpeviz.unigram.lattice as lat
from bpeviz.core.encoded import Token
from bpeviz.core.files import write_atomic
from bpeviz.core.protocol import step_name, steps_at_most
from bpeviz.unigram.model import normalize_identity

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def load_spm(source: str | Path | bytes, name: str | None = None) -> SentencePieceModel:
    """A :class:`SentencePieceModel` from a ``.model`` path or its bytes.

    A file that is not a model sentencepiece would load raises a ValueError that names
    it (``name``, else the path, else "the model data") and says what is wrong: empty,
    not a SentencePiece protobuf, no pieces, or what the ``sentencepiece`` library
    itself refuses (an empty piece, no ``<unk>``, a piece given twice, ...).
    """
    if isinstance(source, bytes | bytearray):
        data, name = bytes(source), name or "the model data"
    else:
        data, name = Path(source).read_bytes(), name or str(source)
    return SentencePieceModel(check_spm(data, name), data)


def open_model(source: str | Path | bytes, name: str | None = None) -> OpenedModel:
    """A SentencePiece Unigram ``.model`` (a path or its bytes) opened as a training of
    one step, what :func:`bpeviz.load` and :func:`bpeviz.formats.import_files` give:
    ``at(0).encode(text)`` gives the ids ``load_spm(source).encode`` gives. A BPE model
    (or a word or char one) is a ValueError: encode with those through :func:`load_spm`.
    """
    model = load_spm(source, name)
    if name is None:
        name = "the model data" if isinstance(source, bytes | bytearray) else Path(source).name
    if model.model_type != "unigram":
        raise ValueError(f"{name} is a SentencePiece {model.model_type} model; bpeviz opens "
                         "SentencePiece's Unigram models as tokenizers to step through "
                         "(encode with any model through bpeviz.unigram.spm.load_spm)")
    return OpenedModel(model, name)


def save_model(opened: OpenedModel, path: str | os.PathLike[str],
               corpus_name: str | None = None) -> None:
    """Write an opened model back as the ``.model`` file's own bytes, atomically (what
    ``bpeviz.save`` does with one; a model file has no corpus to name)."""
    write_atomic(path, opened.model.data)


def check_spm(data: bytes, name: str) -> object:
    """The parsed ``ModelProto`` of ``data`` if sentencepiece loads it as a model, else a
    ValueError starting with ``name``."""
    from sentencepiece import SentencePieceProcessor, sentencepiece_model_pb2

    if not data:
        raise ValueError(f"{name} is empty: not a usable SentencePiece model")
    proto = sentencepiece_model_pb2.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception as exc:  # protobuf's DecodeError
        why = str(exc).split(": ")[-1] or type(exc).__name__
        raise ValueError(f"{name} is not a usable SentencePiece model: its bytes are not a "
                         f"SentencePiece model protobuf ({why})") from None
    if not proto.pieces:
        raise ValueError(f"{name} is not a usable SentencePiece model: it holds no pieces")
    try:
        SentencePieceProcessor(model_proto=data)
    except Exception as exc:  # the library's RuntimeError ("INTERNAL: ... piece must ...")
        raise ValueError(f"{name} is not a usable SentencePiece model: sentencepiece "
                         f"refuses it ({_library_reason(exc)})") from None
    return proto


def _library_reason(exc: BaseException) -> str:
    """sentencepiece's message without its status code and source location."""
    text = str(exc).strip()
    text = re.sub(r"^[A-Z_]+: ", "", text)
    text = re.sub(r"^src/\S+\(\d+\) \[.*?\]\s*", "", text)
    return text.rstrip(".") or type(exc).__name__


@dataclass(frozen=True, eq=False)
class SentencePieceModel:
    """A SentencePiece model read from its protobuf."""

    proto: object
    data: bytes

    @property
    def model_type(self) -> str:
        kind = self.proto.trainer_spec.model_type  # type: ignore[attr-defined]
        return {1: "unigram", 2: "bpe", 3: "word", 4: "char"}.get(kind, str(kind))

    @property
    def normalization(self) -> str:
        return self.proto.normalizer_spec.name or "identity"  # type: ignore[attr-defined]

    @cached_property
    def pieces(self) -> list[tuple[str, float, int]]:
        """``(piece, score, type)`` by id."""
        return [(p.piece, p.score, p.type) for p in self.proto.pieces]  # type: ignore[attr-defined]

    @cached_property
    def _table(self) -> dict[str, int]:
        """Pieces the encoder looks up (normal, user-defined and unused), first id wins."""
        table: dict[str, int] = {}
        for i, (piece, _, kind) in enumerate(self.pieces):
            if kind in (NORMAL, USER_DEFINED, UNUSED):
                table.setdefault(piece, i)
        return table

    @cached_property
    def unk_id(self) -> int:
        return next((i for i, (_, _, k) in enumerate(self.pieces) if k == UNKNOWN), 0)

    @cached_property
    def _bytes(self) -> dict[int, int]:
        out = {}
        for i, (piece, _, kind) in enumerate(self.pieces):
            if kind == BYTE and len(piece) == 6:
                out[int(piece[3:5], 16)] = i
        return out

    @cached_property
    def _normal_scores(self) -> list[float]:
        return [s for _, s, k in self.pieces if k == NORMAL]

    # -- normalization ------------------------------------------------------------------
    def normalize(self, text: str) -> tuple[str, list[int]]:
        """The normalized text and, per normalized character, its offset in ``text``."""
        spec = self.proto.normalizer_spec  # type: ignore[attr-defined]
        if self.proto.trainer_spec.treat_whitespace_as_suffix:  # type: ignore[attr-defined]
            raise ValueError("models with treat_whitespace_as_suffix are not supported")
        if self.normalization == "identity" and not spec.precompiled_charsmap:
            return normalize_identity(text, spec.add_dummy_prefix, spec.remove_extra_whitespaces,
                                      spec.escape_whitespaces)
        normalized, offsets = self._library().normalize(text, with_offsets=True)
        return normalized, list(offsets[:len(normalized)])

    def _library(self):
        import sentencepiece

        return sentencepiece.SentencePieceProcessor(model_proto=self.data)

    # -- encoding ---------------------------------------------------------------------------
    def encode(self, text: str, *, alpha: float | None = None, nbest_size: int = -1,
               seed: int | None = None) -> list[Token]:
        """Tokens with ids exactly as ``SentencePieceProcessor.encode`` gives them.

        With ``alpha`` set: subword sampling, as ``encode(..., enable_sampling=True,
        alpha=, nbest_size=)`` (reproducible with ``seed``; the draws are bpeviz's own,
        not the library's random numbers). Unigram: ``nbest_size`` 0 or 1 is the Viterbi
        segmentation, ``n > 1`` draws among the n best with probability proportional to
        ``exp(alpha * score)``, ``-1`` draws from every segmentation the same way.
        BPE: ``alpha`` is the probability of skipping each merge as it comes up (the
        library's BPE-dropout; ``nbest_size`` is not used).
        """
        normalized, offsets = self.normalize(text)
        rng = None
        if alpha is not None:
            from bpeviz.core.sampling import check_probability

            check_probability(alpha, "alpha", upper=None if self.model_type == "unigram"
                              else 1.0)
            rng = random.Random(seed)
        if self.model_type == "unigram":
            pieces = self._unigram(normalized, alpha, nbest_size, rng)
        elif self.model_type == "bpe":
            pieces = self._bpe(normalized, alpha, rng)
        else:
            raise ValueError(f"SentencePiece {self.model_type!r} models are not supported; "
                             "open a unigram or bpe model")
        return self._tokens(normalized, pieces, offsets, len(text))

    def encode_ids(self, text: str) -> list[int]:
        return [t.id for t in self.encode(text)]

    def lattice(self, normalized: str) -> lat.Lattice:
        """Every way to cut ``normalized`` (already normalized) into the model's pieces,
        scored as the Unigram encoder scores them."""
        scores = self._normal_scores
        min_score = min(scores) if scores else 0.0
        max_score = max(scores) if scores else 0.0
        table = {}
        for piece, i in self._table.items():
            _, score, kind = self.pieces[i]
            if kind == UNUSED:
                continue
            table[piece] = lat.f32(len(piece) * max_score - 0.1) if kind == USER_DEFINED \
                else score
        return lat.Lattice.build(normalized, table,
                                 unk_score=lat.f32(min_score - lat.UNK_PENALTY))

    def _unigram(self, normalized: str, alpha: float | None = None, nbest_size: int = -1,
                 rng: random.Random | None = None) -> list[tuple[int, int, int]]:
        lattice = self.lattice(normalized)
        if rng is None or alpha is None or nbest_size in (0, 1):
            path, _ = lat.viterbi(lattice)
        elif nbest_size < 0:
            path = lat.sample(lattice, alpha, rng)
        else:
            paths = lat.nbest(lattice, nbest_size)
            weights = [math.exp(alpha * (score - paths[0][1])) for _, score in paths]
            path = rng.choices([p for p, _ in paths], weights)[0]
        return [(n.start, n.end, self._table[n.piece] if n.piece is not None else -1)
                for n in path]

    def _bpe(self, normalized: str, alpha: float | None = None,
             rng: random.Random | None = None) -> list[tuple[int, int, int]]:
        n = len(normalized)
        # symbols: [start, end) per index; linked list over indices
        start = list(range(n))
        end = [i + 1 for i in range(n)]
        prev = [i - 1 for i in range(n)]
        nxt = [i + 1 if i + 1 < n else -1 for i in range(n)]
        alive = [True] * n
        agenda: list[tuple[float, int, int, int]] = []
        rev_merge: dict[str, tuple[str, str]] = {}

        def add(left: int, right: int) -> None:
            if left < 0 or right < 0:
                return
            piece = normalized[start[left]:end[right]]
            pid = self._table.get(piece)
            if pid is None:
                return
            heapq.heappush(agenda, (-self.pieces[pid][1], left, right, len(piece)))
            if self.pieces[pid][2] == UNUSED:
                rev_merge[piece] = (normalized[start[left]:end[left]],
                                    normalized[start[right]:end[right]])

        for i in range(n - 1):
            add(i, i + 1)
        while agenda:
            _, left, right, size = heapq.heappop(agenda)
            if not (alive[left] and alive[right]) or nxt[left] != right \
                    or end[right] - start[left] != size:
                continue
            if rng is not None and alpha and rng.random() < alpha:
                continue  # skipped (BPE-dropout); only a neighbour's merge brings it back
            end[left] = end[right]
            alive[right] = False
            nxt[left] = nxt[right]
            if nxt[right] >= 0:
                prev[nxt[right]] = left
            add(prev[left], left)
            add(left, nxt[left])
        out: list[tuple[int, int, int]] = []

        def resegment(a: int, b: int) -> None:
            piece = normalized[a:b]
            pid = self._table.get(piece)
            if pid is not None and self.pieces[pid][2] != UNUSED:
                out.append((a, b, pid))
            elif piece in rev_merge:
                left, _ = rev_merge[piece]
                resegment(a, a + len(left))
                resegment(a + len(left), b)
            else:
                out.append((a, b, -1))

        i = 0 if n else -1
        while i != -1:
            resegment(start[i], end[i])
            i = nxt[i]
        return out

    def _tokens(self, normalized: str, pieces: list[tuple[int, int, int]], offsets: list[int],
                text_length: int) -> list[Token]:
        def where(i: int) -> int:
            return offsets[i] if i < len(offsets) else text_length

        tokens: list[Token] = []
        for a, b, pid in pieces:
            s, e = where(a), where(b)
            surface = normalized[a:b]
            raw = surface.encode("utf-8", "surrogatepass")
            if pid >= 0:
                tokens.append(Token(self.pieces[pid][0], pid, s, e, raw))
            elif self._bytes:
                for byte in raw:
                    bid = self._bytes[byte]
                    tokens.append(Token(self.pieces[bid][0], bid, s, e, bytes([byte]),
                                        partial=len(raw) > 1))
            elif tokens and tokens[-1].unk:
                prev = tokens.pop()
                tokens.append(Token(prev.text, self.unk_id, prev.start, e, prev.bytes + raw,
                                    unk=True))
            else:
                tokens.append(Token(self.pieces[self.unk_id][0], self.unk_id, s, e, raw,
                                    unk=True))
        return tokens


@dataclass(frozen=True, eq=False)
class OpenedModel:
    """A SentencePiece Unigram model read from a ``.model`` file, as a training of one
    step (step 0: the model; a file holds no training history): what every training
    answers (:mod:`bpeviz.core.protocol`), read from the model. It has no corpus, so
    its corpus takes 0 tokens, as an imported tokenizer file's does."""

    model: SentencePieceModel
    name: str = "the model"

    @property
    def algorithm(self) -> str:
        return "unigram"

    @property
    def stop_message(self) -> str:
        return (f"Opened {self.name}: a SentencePiece Unigram model of {len(self.pieces):,} "
                "pieces (one step: a model file holds no training).")

    @property
    def stopped_early(self) -> bool:
        return False

    @property
    def pieces(self) -> list[str]:
        """Every piece by id (special, control and byte pieces included)."""
        return [p for p, _, _ in self.model.pieces]

    def at(self, step: int | None = None) -> ModelStep:
        """The model (only step 0 exists)."""
        if step is None:
            step = 0
        if isinstance(step, bool) or not isinstance(step, int) or step != 0:
            raise ValueError(f"{self.name} is a trained model with one step, 0 (a model file "
                             f"holds no training history), got {step!r}")
        return ModelStep(self, 0)

    @property
    def step_unit(self) -> str:
        """What a step number is called: the record's word for a step ("pruning round")."""
        return step_name(self)

    def vocab_size_at(self, step: int) -> int:
        self.at(step)
        return len(self.model.pieces)

    def steps_for_vocab_sizes(self, targets: Sequence[int] | np.ndarray) -> np.ndarray:
        """Step 0, the model, for every size (it is the only step)."""
        return steps_at_most([self.vocab_size_at(0)], targets, latest=False)

    def token_counts(self) -> np.ndarray:
        return np.zeros(1, dtype=np.int64)

    def explain(self, step: int) -> object:
        raise ValueError(f"{self.name} is a trained model, not a training: there is no "
                         "pruning round to explain (train Unigram on a corpus to see its "
                         "rounds)")


@dataclass(frozen=True, eq=False)
class ModelStep:
    """Step 0 of an :class:`OpenedModel`: the model, encoding as sentencepiece does."""

    training: OpenedModel
    step: int = 0

    @property
    def model(self) -> SentencePieceModel:
        return self.training.model

    def encode(self, text: str, **options: object) -> list[Token]:
        """Tokens with the ids ``SentencePieceProcessor.encode`` gives (``alpha``,
        ``nbest_size``, ``seed``: subword sampling, see :meth:`SentencePieceModel.encode`)."""
        return self.model.encode(text, **options)  # type: ignore[arg-type]

    def trace(self, word: str, n: int = 5) -> object:
        """How ``word`` is cut: its lattice, the best split and the ``n`` best, as
        :meth:`bpeviz.unigram.model.UnigramStep.trace` (a
        :class:`~bpeviz.unigram.views.WordLattice`); the word is normalized by the model."""
        from bpeviz.unigram.views import lattice_of

        normalized, _ = self.model.normalize(word)
        if not normalized:
            raise ValueError(f"{word!r} holds no characters to cut")
        return lattice_of(self.model.lattice(normalized), normalized,
                          self.model.pieces[self.model.unk_id][0], n)
