"""PickyBPE (``algorithm="picky"``) makes the events of its reference package,
``pickybpe-bauwenst`` (``pickybpe.vocabularisation.PickyBPETrainer``), and encodes as its
``PickyBPESegmenter`` does, on the samples shipped with bpeviz.

The package is run on the sample files themselves (``fit_from_file``: its own reading and
whitespace cutting), with two things pinned, both explained in
:mod:`bpeviz.algorithms.picky_train`:

* ties between pairs of equal count: the package's heap resolves them in the order its
  sets of objects iterate (memory addresses), so the test gives its heap the rule bpeviz
  uses (smaller left id, then right id) and makes ``set(pair)`` iterate left then right;
* its removal reads the removed token's count and words after resetting them (so it
  removes nothing from the words); the test moves those two reads before the reset.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("heapdict")
vocabularisation = pytest.importorskip("pickybpe.vocabularisation")
segmentation = pytest.importorskip("pickybpe.segmentation")
domain = pytest.importorskip("pickybpe.util.domain")
counters = pytest.importorskip("pickybpe.util.counters")

import bpeviz  # noqa: E402
from bpeviz.algorithms.picky_train import train_picky  # noqa: E402
from bpeviz.core.protocol import AnyTraining  # noqa: E402

SAMPLES = Path(bpeviz.__file__).parent / "samples"
EventType = vocabularisation.EventType


class _TieBrokenHeap(counters.MaxHeap):
    """The package's heap, its ties broken by the pair's ids (bpeviz's rule), not by
    where the pair happens to sit in the heap."""

    def set(self, key: Any, value: float) -> None:
        self._minheap[key] = (-value, key[0].id, key[1].id)

    def get(self, key: Any) -> float:
        return -self._minheap[key][0]

    def pop(self, key: Any) -> float:
        return -self._minheap.pop(key)[0]

    def get_argmax(self) -> tuple[Any, float]:
        key, value = self._minheap.peekitem()
        return key, -value[0]


class _OrderedSet(dict):  # type: ignore[type-arg]
    """``set`` for the trainer's module: ``set(pair)`` iterates left, then right."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__(dict.fromkeys(items))

    def add(self, item: Any) -> None:
        self[item] = None

    def __sub__(self, other: Any) -> _OrderedSet:
        return _OrderedSet(k for k in self if k not in other)


class _Reference(vocabularisation.PickyBPETrainer):
    """The package's trainer, pinned as the module docstring says; keeps its final state."""

    def _initialize_state(self) -> Any:
        state = super()._initialize_state()
        state.pairs._counts = _TieBrokenHeap()
        return state

    def _remove_if_possible(self, token: Any, merged_freq: int, state: Any) -> bool:
        # the package's code, with the token's count and words read before remove()
        if merged_freq / (token.freq + merged_freq) > self._threshold:
            subtokens = token.split_if_possible()
            if subtokens is not None:
                freq, words = token.freq, token.words
                self.ios_seen.append((token.str, merged_freq, freq))
                token.remove()
                for t in subtokens:
                    t.freq += freq
                state.actual_vocab_size -= 1
                state.corpus_token_count += freq * (len(subtokens) - 1)
                for pair in pairwise(subtokens):
                    if self._validate_pair(pair):
                        state.pairs.counts.increment(pair, freq)
                obsolete_pairs = counters.MulCounter()
                for word in words:
                    obsolete_pairs.update({p: f for p, f in word.pairs.items() if token in p})
                    word.split_token(token, subtokens)
                self._update_pairs_on_remove(token, subtokens, obsolete_pairs, state)
                return True
        return False

    def _update_pairs_on_remove(self, removed_token: Any, subtokens: list[Any],
                                obsolete_pairs: Any, state: Any) -> None:
        # the package's code without its assertion that a pair of the removed token is
        # counted as often as the words hold it: its own approximations break it on these
        # texts (as ``python -O`` runs it: the pair is dropped either way)
        first_subtoken, last_subtoken = subtokens[0], subtokens[-1]
        for old_pair, freq in obsolete_pairs.items():
            new_pair = (last_subtoken if old_pair[0] is removed_token else old_pair[0],
                        first_subtoken if old_pair[1] is removed_token else old_pair[1])
            if self._validate_pair(new_pair):
                state.pairs.counts.increment(new_pair, freq)
            if state.pairs.has(old_pair):
                state.pairs.pop(old_pair)

    def _dump(self, state: Any, path: Any) -> None:
        self.state = state


def _reference(path: Path, vocab_size: int, threshold: float,
               monkeypatch: pytest.MonkeyPatch) -> _Reference:
    monkeypatch.setattr(vocabularisation, "set", _OrderedSet, raising=False)
    trainer = _Reference(vocab_size=vocab_size, picky_threshold=threshold)
    trainer.ios_seen = []
    trainer.fit_from_file(path, Path("unused.json"))
    monkeypatch.undo()
    return trainer


def _events_of_package(trainer: _Reference) -> list[tuple[Any, ...]]:
    out = []
    for event in trainer.state.events:
        if event[0] == EventType.MERGE:
            (a, b), t = event[1], event[2]
            out.append(("merge", t.str, t.id, a.str, b.str))
        else:
            out.append(("removal", event[1].str, event[1].id, tuple(x.str for x in event[2])))
    return out


def _events_of_bpeviz(training: Any) -> list[tuple[Any, ...]]:
    return [("merge", e.token, e.token_id, e.left, e.right) if e.kind == "merge"
            else ("removal", e.token, e.token_id, e.parts) for e in training.merges]


def _final_vocab_of_package(trainer: _Reference) -> dict[str, int]:
    return {t.str: t.id for t in trainer.state.str2token.values() if t.present}


def _text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


# the texts: English, German, Hindi (many characters), and all the samples together
# (past 5,000 characters, where the package's 0.9999 character coverage drops the rarest);
# German's size is out of reach below threshold 1: it trains until no pair is left
CASES = [("parallel/en.txt", 250), ("parallel/de.txt", 400), ("parallel/hi.txt", 300),
         ("all", 900)]


@pytest.fixture(scope="module")
def all_samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("picky") / "all.txt"
    names = sorted(p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*.txt"))
    path.write_text("\n".join(_text(n) for n in names), encoding="utf-8")
    return path


def _path(name: str, all_samples: Path) -> Path:
    return all_samples if name == "all" else SAMPLES / name


@pytest.mark.parametrize("threshold", [0.6, 0.7, 0.8, 0.9, 0.9999, 1.0])
@pytest.mark.parametrize(("name", "vocab_size"), CASES)
def test_makes_the_packages_events_and_vocabulary(name, vocab_size, threshold, all_samples,
                                                  monkeypatch):
    path = _path(name, all_samples)
    ref = _reference(path, vocab_size, threshold, monkeypatch)
    expected = _events_of_package(ref)
    merges = sum(e[0] == "merge" for e in expected)
    assert merges >= 150  # a few hundred merges, not a toy run
    text = path.read_text(encoding="utf-8")
    by_merges = bpeviz.train(text, algorithm="picky", merges=merges, threshold=threshold)
    assert _events_of_bpeviz(by_merges) == expected
    assert by_merges.at().vocab == _final_vocab_of_package(ref)
    # the package's own stopping rule, its vocabulary counter, stops at the same place
    by_size = train_picky(text, vocab_size=vocab_size, threshold=threshold)
    assert _events_of_bpeviz(by_size) == expected
    reached = ref.state.actual_vocab_size >= vocab_size  # else it ran out of pairs
    assert by_size.stop_reason == ("vocab_size" if reached else "no_pairs")
    assert by_merges.token_counts()[-1] == ref.state.corpus_token_count
    # the IoS each removal was decided on, as the package computed it
    removals = [e for e in by_merges.merges if e.kind == "removal"]
    assert [(e.token, e.inside, e.count) for e in removals] == ref.ios_seen
    if threshold < 0.9999:
        assert removals, "a threshold below 1 removes tokens on these texts"
    if threshold >= 1.0:
        assert not removals  # an IoS is never above 1: plain BPE
    if name == "all":  # the rarest character was left out, as [UNK]
        alphabet = set(by_merges.vocab[4:by_merges.n_base])
        assert set("".join(text.split())) - alphabet


def _segmenter_at(ref: _Reference, step: int) -> Any:
    """The package's segmenter holding the first ``step`` events (as ``from_pretrained``
    builds it from a trained model), the vocabulary present then, [UNK] for unseen text."""
    tokens = sorted({t.id: t for t in ref.state.str2token.values()}.values(),
                    key=lambda t: t.id)
    events = ref.state.events[:step]
    present = {t.id for t in tokens if t.atomic}
    for event in events:
        if event[0] == EventType.MERGE:
            present.add(event[2].id)
        else:
            present.discard(event[1].id)
    by_id: dict[int, Any] = {}
    for t in tokens:
        by_id[t.id] = domain.Token(t.id, t.str, 0, special=t.special, present=t.id in present,
                                   left=by_id.get(t.left.id) if t.left else None,
                                   right=by_id.get(t.right.id) if t.right else None)
    str2token = {t.str: t for t in by_id.values()}
    merge_map: dict[Any, list[int]] = {}
    split_map: dict[Any, list[int]] = {}
    splits = {}
    for i, event in enumerate(events):
        if event[0] == EventType.MERGE:
            pair = (by_id[event[1][0].id], by_id[event[1][1].id])
            merge_map.setdefault(pair, []).append(i)
        else:
            split_map.setdefault(by_id[event[1].id], []).append(i)
            splits[i] = [by_id[x.id] for x in event[2]]
    return segmentation.PickyBPESegmenter(str2token, None, None, None, merge_map, split_map,
                                          splits, None, unk="[UNK]")


@pytest.mark.parametrize("threshold", [0.6, 0.9])
def test_encodes_held_out_text_as_its_segmenter_at_every_kind_of_step(threshold,
                                                                      monkeypatch):
    # trained on English, encoding German and Hindi: unseen words and unseen characters
    path = SAMPLES / "parallel/en.txt"
    ref = _reference(path, 600, threshold, monkeypatch)
    events = ref.state.events
    merges = sum(e[0] == EventType.MERGE for e in events)
    training = bpeviz.train(path.read_text(encoding="utf-8"), algorithm="picky",
                            merges=merges, threshold=threshold)
    held_out = _text("parallel/de.txt") + "\n" + _text("parallel/hi.txt")[:800]
    first_removal = next(i for i, e in enumerate(events) if e[0] == EventType.SPLIT) + 1
    steps = sorted({0, 1, first_removal - 1, first_removal, first_removal + 1,
                    len(events) // 2, len(events)})
    for step in steps:
        seg = _segmenter_at(ref, step)
        snap = training.at(step)
        for word in held_out.split():
            expected = [t.str for t in seg._encode_word_by_events(domain.WHITESPACE + word)]
            got = [training.vocab[i] for i in snap.encode_word(domain.WHITESPACE + word)]
            assert got == expected, (step, word)
        tokens = snap.encode(held_out)
        assert [t.text for t in tokens] == [
            t.str for w in held_out.split()
            for t in seg._encode_word_by_events(domain.WHITESPACE + w)]
        # every character of the text is in exactly one token, in order
        covered = "".join(held_out[t.start:t.end] for t in tokens)
        assert covered == "".join(held_out.split())


def test_merges_holds_every_step_with_its_kind():
    training = bpeviz.train(_text("parallel/en.txt"), algorithm="picky", merges=300,
                            threshold=0.8)
    # a Corpus of the same text (whitespace words, or metaspace's "▁" words) trains the same
    for pretokenizer in ("whitespace", "metaspace"):
        corpus = bpeviz.Corpus.from_text(_text("parallel/en.txt"), pretokenizer)
        again = bpeviz.train(corpus, algorithm="picky", merges=300, threshold=0.8)
        assert _events_of_bpeviz(again) == _events_of_bpeviz(training)
    assert isinstance(training, AnyTraining)
    assert training.at(5).step == 5 and "300 merges" in training.stop_message
    kinds = [e.kind for e in training.merges]
    assert set(kinds) == {"merge", "removal"} and kinds.count("merge") == 300
    assert [e.step for e in training.merges] == list(range(1, len(kinds) + 1))
    for e in training.merges:
        if e.kind == "removal":  # a removal follows the merge that made its reason
            merge = training.merges[e.merge_step - 1]
            assert merge.kind == "merge" and e.token in (merge.left, merge.right)
            assert e.merged == merge.token and e.step > e.merge_step
            # it leaves the vocabulary at its step, and comes back only if made again
            assert e.token in training.at(e.step - 1).vocab
            assert e.token not in training.at(e.step).vocab
    sizes = [training.vocab_size_at(k) for k in range(len(kinds) + 1)]
    assert sizes == [len(training.at(k).vocab) for k in range(len(kinds) + 1)]
    assert training.explain(1) is training.merges[0]


def _replay(training: Any, step: int) -> Counter[str]:
    """How often each token occurs in the training words after ``step`` events: every
    event applied to every word, in order (no index, no shortcut)."""
    counts: Counter[str] = Counter()
    for word, freq in zip(training.words, training.counts):
        tokens = list(word)
        for e in training.merges[:step]:
            if e.kind == "merge":
                out, i = [], 0
                while i < len(tokens):
                    if tokens[i:i + 2] == [e.left, e.right]:
                        out.append(e.token)
                        i += 2
                    else:
                        out.append(tokens[i])
                        i += 1
                tokens = out
            else:
                tokens = [p for t in tokens for p in (e.parts if t == e.token else (t,))]
        for t in tokens:
            counts[t] += freq
    return counts


def test_a_removals_sentence_gives_the_ios_counted_in_the_words():
    training = train_picky(_text("parallel/en.txt"), merges=200, threshold=0.7)
    removals = [e for e in training.merges if e.kind == "removal"]
    assert removals
    for e in removals[:12]:
        counts = _replay(training, e.step - 1)
        inside, alone = counts[e.merged], counts[e.token]
        assert (e.inside, e.count) == (inside, alone)
        assert e.ios == inside / (inside + alone) > e.threshold == 0.7
        assert f"IoS {inside:,} / {inside + alone:,}" in e.why
        assert f"appears alone in {round(100 * alone / (inside + alone), 1):g}%" in e.why
        assert "70%" in e.why and e.why.startswith(f"“{e.token}” removed")
