"""Tokenizers opened by name, where the machine is online: OpenAI's encodings through
``tiktoken.get_encoding`` and Hugging Face Hub tokenizers through
``tokenizers.Tokenizer.from_pretrained``; both download once and are cached (by tiktoken
and the Hub in their own folders, and here, opened, for the process).

>>> kind_of("cl100k_base"), kind_of("gpt2"), kind_of("bert-base-uncased")
('openai', 'openai', 'hub')

Offline (or for a name nobody publishes) :func:`open_by_name` raises ValueError with a
one-line message saying which file to upload instead.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bpeviz.core.training import Training

#: OpenAI encodings bpeviz models exactly (their pattern is one of its pre-tokenizers)
OPENAI = ("gpt2", "r50k_base", "cl100k_base", "o200k_base")
#: what to upload instead, per kind
UPLOAD_INSTEAD = {
    "openai": "upload its rank file instead (for example cl100k_base.tiktoken, from "
              "openaipublic.blob.core.windows.net/encodings/, under that name)",
    "hub": "upload its tokenizer.json instead (the model page's \"Files\" tab on "
           "huggingface.co)",
}


def kind_of(name: str) -> str:
    """``"openai"`` for the OpenAI encodings, ``"hub"`` for anything else (a Hub id)."""
    return "openai" if name in OPENAI else "hub"


def fetch_tiktoken(name: str) -> Any:
    """``tiktoken.get_encoding(name)`` (downloads once; the tests replace this)."""
    import tiktoken

    return tiktoken.get_encoding(name)


def fetch_hub(repo_id: str) -> Any:
    """``tokenizers.Tokenizer.from_pretrained(repo_id)`` (downloads once; the tests
    replace this)."""
    from tokenizers import Tokenizer

    return Tokenizer.from_pretrained(repo_id)


def from_encoding(encoding: Any) -> Training:
    """A ``tiktoken.Encoding`` as a byte-level training: its ranks, pattern and special
    tokens, through the rank-file importer."""
    import base64

    from bpeviz.formats import tiktoken_ranks

    ranks = "\n".join(f"{base64.b64encode(token).decode()} {rank}"
                      for token, rank in encoding._mergeable_ranks.items())
    config = {"name": encoding.name, "pat_str": encoding._pat_str,
              "special_tokens": dict(encoding._special_tokens)}
    return tiktoken_ranks.import_files({tiktoken_ranks.RANKS: ranks,
                                        tiktoken_ranks.CONFIG: json.dumps(config)})


def from_hub_tokenizer(tokenizer: Any) -> tuple[Training, list[str]]:
    """A ``tokenizers.Tokenizer`` through the ``tokenizer.json`` importer, and the notes
    of what it does that bpeviz does not model (:func:`bpeviz.formats.hf.import_notes`)."""
    from bpeviz.formats import import_files
    from bpeviz.formats.hf import import_notes

    text = tokenizer.to_str()
    return import_files({"tokenizer.json": text}), import_notes(text)


@lru_cache(maxsize=4)
def open_by_name(name: str) -> tuple[Training, list[str]]:
    """The tokenizer called ``name`` (an OpenAI encoding or a Hub id), opened, and the
    notes of what it does that bpeviz does not model (empty for OpenAI's encodings).

    Raises ValueError with a message for the user: no such name, offline, or a tokenizer
    bpeviz cannot model (the importer's reason).
    """
    name = name.strip()
    if not name or len(name) > 200 or any(c.isspace() for c in name):
        raise ValueError("give an OpenAI encoding (" + ", ".join(OPENAI) + ") or a Hugging "
                         "Face Hub id such as openai-community/gpt2")
    kind = kind_of(name)
    try:
        fetched = fetch_tiktoken(name) if kind == "openai" else fetch_hub(name)
    except Exception as err:  # offline, unknown repo, rate limit: all end the same way
        reason = str(err).splitlines()[0][:160] if str(err) else type(err).__name__
        raise ValueError(f"could not download {name!r} ({reason}): the machine may be "
                         f"offline or the name unknown; {UPLOAD_INSTEAD[kind]}") from None
    return (from_encoding(fetched), []) if kind == "openai" else from_hub_tokenizer(fetched)
