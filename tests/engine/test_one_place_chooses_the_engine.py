"""bpeviz.engine: one place chooses the compiled module, for training, snapshots and encoding."""

from __future__ import annotations

from bpeviz import Corpus, engine, train


def test_bpeviz_engine_chooses_for_every_caller(monkeypatch):
    monkeypatch.setenv("BPEVIZ_ENGINE", "python")
    assert engine.default_engine() == "python" and engine.compiled_module() is None
    monkeypatch.delenv("BPEVIZ_ENGINE")
    assert engine.default_engine() == ("compiled" if engine._compiled else "python")
    assert engine.compiled_module("compiled") is engine._compiled


def test_the_engine_fixture_really_hides_the_compiled_module(engine):
    from bpeviz import engine as engines

    hidden = engine == "python"
    assert (engines.compiled_module() is None) == hidden
    assert (engines.compiled_module("compiled") is None) == (hidden or engines._compiled is None)
    t = train(Corpus.from_counts({"aaab": 2, "ab": 3}), "bpe", merges=3)
    # (a, b) 5; then (a, a) and (a, ab) tie at 2 and the first occurrence wins: aa
    assert [m.token for m in t.merges] == ["ab", "aa", "aaab"]
