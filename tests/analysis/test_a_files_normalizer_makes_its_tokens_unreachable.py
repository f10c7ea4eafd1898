"""An opened ``tokenizer.json``'s normalizer in vocabulary health: tokenizer files built
here with Hugging Face ``tokenizers`` (trained on mixed-case text without a normalizer,
then given one, so the vocabulary holds tokens the normalizer makes impossible), and
health's unreachable tokens compared with ``tokenizers``' own encoding of each token's
text. ``tokenizers`` is a test-only dependency: bpeviz reads the normalizer itself."""

from __future__ import annotations

import json

import pytest

tokenizers = pytest.importorskip("tokenizers")
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers  # noqa: E402

from bpeviz.algorithms import get as get_algorithm  # noqa: E402
from bpeviz.analysis.health_normalizer import normalizer_from  # noqa: E402
from bpeviz.formats.hf import import_json  # noqa: E402

TEXT = ("The Tokenizer reads THE text. Tokens Like These and those: The FIRST file, the "
        "ﬁrst ﬁle, ＦＩＬＥ and ｆｉｌｅ. Café CAFÉ cafe Éclair éclair naïve NAÏVE. "
        "Cafe\u0301 cafe\u0301 nai\u0308ve. " * 20
        ).split(". ")

NORMALIZERS = {
    "lowercase": normalizers.Lowercase(),
    "nfkc-lowercase": normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]),
    "nfd-strip-accents": normalizers.Sequence([normalizers.NFD(), normalizers.StripAccents()]),
    "nfc": normalizers.NFC(),
    "replace": normalizers.Replace("T", "t"),
    "bert": normalizers.BertNormalizer(lowercase=True),
}


def tokenizer_file(normalizer, byte_level: bool = False) -> tuple[str, Tokenizer]:
    """A BPE trained on mixed-case text with no normalizer, then given ``normalizer``."""
    tok = Tokenizer(models.BPE(unk_token=None if byte_level else "[UNK]"))
    if byte_level:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=[],
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    else:
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        trainer = trainers.BpeTrainer(vocab_size=200, special_tokens=["[UNK]"])
    tok.train_from_iterator(TEXT, trainer)
    tok.normalizer = normalizer
    text = tok.to_str()
    return text, Tokenizer.from_str(text)


def check(text: str, tok: Tokenizer) -> tuple[set[int], dict[int, str]]:
    """Health's unreachable tokens against tokenizers' encoding of each token's text."""
    training = import_json(text)
    assert training.normalizer == json.loads(text)["normalizer"]
    found = training.at().health()
    reasons = dict(zip(found.unreachable["id"], found.unreachable["reason"]))
    alg = get_algorithm(training.algorithm)
    checked = [i for i in range(training.n_base, len(training.vocab))]
    assert checked
    for i in checked:
        own = alg.bare(training.vocab[i], training.options.marker)
        if own is None:  # part of a character: nothing to type
            continue
        reached = tok.encode(own, add_special_tokens=False).ids == [i]
        assert reached == (i not in reasons), (training.vocab[i], reasons.get(i))
    return {i for i in checked if i in reasons}, reasons


@pytest.mark.parametrize("name", list(NORMALIZERS))
def test_tokens_the_normalizer_changes_are_unreachable_as_tokenizers_says(name):
    text, tok = tokenizer_file(NORMALIZERS[name])
    unreachable, reasons = check(text, tok)
    normalize = tok.normalizer.normalize_str  # tokenizers' own
    training = import_json(text)
    changed = {i for i in range(training.n_base, len(training.vocab))
               if all(training.vocab[i] not in normalize(form)
                      for form in (training.vocab[i], "x" + training.vocab[i] + "x"))}
    assert changed, "the sample must hold tokens this normalizer changes"
    assert changed <= unreachable
    parts = {"lowercase": ("Lowercase",), "nfkc-lowercase": ("NFKC", "Lowercase"),
             "nfd-strip-accents": ("NFD", "StripAccents"), "nfc": ("NFC",),
             "replace": ("Replace",), "bert": ("BertNormalizer",)}
    for i in changed:  # the reason names the part of the normalizer that changes it
        named = reasons[i].removeprefix("the normalizer ").split(" turns")[0]
        assert named.split("(")[0] in parts[name], reasons[i]


def test_bpeviz_normalizes_as_tokenizers_does():
    sample = " ".join(TEXT[:3]) + " ﬁ Ǆ ＡＢＣ İstanbul ΣΑΣ \u212b e\u0301 漢字x \t\x07a"
    for name, normalizer in NORMALIZERS.items():
        text, tok = tokenizer_file(normalizer)
        expected = tok.normalizer.normalize_str(sample)
        assert normalizer_from(json.loads(text)["normalizer"])(sample) == expected, name


def test_a_byte_level_file_with_a_lowercase_normalizer():
    text, tok = tokenizer_file(normalizers.Lowercase(), byte_level=True)
    unreachable, reasons = check(text, tok)
    assert any("Lowercase" in reasons[i] for i in unreachable)


def test_a_normalizer_bpeviz_does_not_read_is_named_in_the_summary():
    text, _ = tokenizer_file(normalizers.Nmt())
    found = import_json(text).at().health()
    assert len(found.summary) == 4  # one line per kind: the unreachable line says it
    line = found.summary[0]
    assert line.startswith("unreachable") and "normalizer: not checked" in line
    assert "'Nmt' is not read by bpeviz" in line and "not listed" in line
    with pytest.raises(ValueError, match="'Nmt' is not read"):
        normalizer_from({"type": "Nmt"})


def test_a_file_replayed_on_a_corpus_keeps_its_normalizers_unreachable_tokens():
    from bpeviz.core.recount import replay_on

    text, _ = tokenizer_file(NORMALIZERS["lowercase"])
    opened = import_json(text)
    replayed = replay_on(opened, " ".join(TEXT[:5]))
    assert replayed.normalizer == opened.normalizer
    alone = opened.at().health().unreachable
    again = replayed.at().health().unreachable
    assert again["id"].tolist() == alone["id"].tolist()
    assert again["reason"].tolist() == alone["reason"].tolist()
