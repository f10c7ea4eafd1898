"""Helpers the test modules share (test modules never import each other).

``ROOT`` is the repository's root (where ``app.py`` and ``bpeviz/`` are), for tests that
run a subprocess there or read a file of the project.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
