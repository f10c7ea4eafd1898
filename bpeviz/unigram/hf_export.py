"""Export a Unigram model as a Hugging Face ``tokenizer.json`` (Unigram + Metaspace).

The file gives the same tokens and ids in ``tokenizers`` as :meth:`UnigramModel.encode`:
spaces are normalized as SentencePiece's ``identity`` rule does (runs of spaces once,
none at the ends), the ``Metaspace`` pre-tokenizer puts ``▁`` in front of every word,
the first too, and the ``Unigram`` model cuts each word by Viterbi over the pieces'
log-probabilities; unknown characters are ``<unk>`` (id 0), a run of them one token.
The special pieces (``<unk>``, ``<s>``, ``</s>``) are ids 0-2 and, as in Hugging Face's
own conversions of SentencePiece models, special added tokens: ``<s>`` typed in a text
is then the special token in ``tokenizers`` (SentencePiece reads it as text).

>>> from bpeviz.unigram.model import UnigramModel
>>> import json
>>> doc = json.loads(to_hf_json(UnigramModel(("▁", "a", "▁a"), (-2.0, -2.0, -1.0))))
>>> doc["model"]["type"], doc["model"]["vocab"][:4], doc["pre_tokenizer"]["type"]
('Unigram', [['<unk>', 0.0], ['<s>', 0.0], ['</s>', 0.0], ['▁', -2.0]], 'Metaspace')
"""

from __future__ import annotations

import json

from bpeviz.unigram.model import WS, UnigramModel


def to_hf_dict(model: UnigramModel) -> dict[str, object]:
    """The ``tokenizer.json`` document of ``model`` as a dict."""
    added = [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for i, s in enumerate(model.specials)]
    vocab = [[s, 0.0] for s in model.specials] + [[p, float(v)] for p, v in
                                                  zip(model.pieces, model.log_probs)]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            {"type": "Replace", "pattern": {"Regex": "\\A | \\z"}, "content": ""},
        ]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": WS, "prepend_scheme": "always",
                          "split": True},
        "post_processor": None,
        "decoder": {"type": "Metaspace", "replacement": WS, "prepend_scheme": "always",
                    "split": True},
        "model": {"type": "Unigram", "unk_id": model.unk_id if model.unk_id >= 0 else None,
                  "vocab": vocab, "byte_fallback": False},
    }


def to_hf_json(model: UnigramModel) -> str:
    """The ``tokenizer.json`` text of ``model``."""
    return json.dumps(to_hf_dict(model), ensure_ascii=False, indent=2)
