"""Training and its results: the merge loop's driver, snapshots at a step, encoding, saving.

Imports from ``bpeviz.text``, ``bpeviz.algorithms`` and ``bpeviz.engine`` only.
"""
