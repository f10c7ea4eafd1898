"""Text, before any training: corpora, pre-tokenizers, symbols and how they are shown.

The lowest layer: it imports nothing else of bpeviz (``bpeviz.algorithms`` sits on it).
"""
