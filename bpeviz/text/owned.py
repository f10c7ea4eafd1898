"""Values derived from an immutable object (a training, a corpus), kept on the object itself.

A training never changes, so what is computed from it (snapshots, encoders, tables) may
live exactly as long as the training does. The values are stored in the owner's own
``__dict__``, not in a module-level ``WeakKeyDictionary``: a weak-key entry whose value
refers back to its key (a snapshot's ``.training``, an encoder's ``.training``) keeps
the key alive forever, so no training was ever freed. Stored on the owner, such a value
only makes a reference cycle, which the garbage collector frees with the owner.

>>> class Thing:  # any object with a __dict__ (frozen dataclasses too)
...     pass
>>> squares = OwnedCache("squares", keep=2)  # at most 2 values per owner
>>> thing = Thing()
>>> [squares.get(thing, n, lambda: n * n) for n in (3, 4, 3, 5)]
[9, 16, 9, 25]
>>> squares.keys(thing)  # 4 was the least recently used
[3, 5]
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: the attribute of the owner that holds every OwnedCache's values for that owner
ATTRIBUTE = "_bpeviz_owned"
_MISSING = object()


class OwnedCache(Generic[V]):
    """A named cache whose entries live on their owner: ``get(owner, key, make)``.

    ``keep``: at most this many keys per owner (least recently used dropped first);
    None keeps every key. Thread-safe; ``make`` runs outside the lock, and when two
    threads make the same value at once the first one stored wins and both get it.
    """

    def __init__(self, name: str, keep: int | None = None) -> None:
        self.name = name
        self.keep = keep
        self._lock = threading.Lock()

    def _entries(self, owner: Any) -> OrderedDict[Hashable, V]:
        store = owner.__dict__.get(ATTRIBUTE)
        if store is None:  # (the owner's __dict__ directly: frozen dataclasses too)
            store = owner.__dict__.setdefault(ATTRIBUTE, {})
        entries = store.get(self.name)
        if entries is None:
            entries = store.setdefault(self.name, OrderedDict())
        return entries

    def peek(self, owner: Any, key: Hashable) -> V | None:
        """The value kept for ``owner`` under ``key``, or None (does not make one)."""
        with self._lock:
            return self._entries(owner).get(key)

    def get(self, owner: Any, key: Hashable, make: Callable[[], V]) -> V:
        """The value for ``owner`` and ``key``; ``make()`` it when there is none yet."""
        with self._lock:
            entries = self._entries(owner)
            found = entries.get(key, _MISSING)
            if found is not _MISSING:
                if self.keep is not None:
                    entries.move_to_end(key)
                return found  # type: ignore[return-value]
        made = make()
        with self._lock:
            entries = self._entries(owner)
            found = entries.setdefault(key, made)
            self._used(entries, key)
        return found

    def update(self, owner: Any, key: Hashable, change: Callable[[V | None], V]) -> V:
        """Keep ``change(old)`` for ``owner`` under ``key`` (``old``: the value kept, or
        None), in one step under the lock: two threads' changes never undo each other.

        >>> class Thing: ...
        >>> seen = OwnedCache("counts")
        >>> t = Thing()
        >>> [seen.update(t, "a", lambda n: (n or 0) + 1) for _ in range(3)]
        [1, 2, 3]
        """
        with self._lock:
            entries = self._entries(owner)
            value = entries[key] = change(entries.get(key))
            self._used(entries, key)
            return value

    def _used(self, entries: OrderedDict[Hashable, V], key: Hashable) -> None:
        """``key`` is the most recently used of ``entries``; the least recently used go
        past ``keep`` (called under the lock)."""
        if self.keep is not None:
            entries.move_to_end(key)
            while len(entries) > self.keep:
                entries.popitem(last=False)

    def keys(self, owner: Any) -> list[Hashable]:
        """The keys kept for ``owner``, least recently used first."""
        with self._lock:
            return list(self._entries(owner))
