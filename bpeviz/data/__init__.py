"""Data on disk, streamed: folders, globs and files of text (plain, gzip, zstd), JSON
Lines and Parquet read piece by piece, and the pre-tokens of all of it counted on every
core (:func:`bpeviz.data.count.count_pretokens`).

It sits on :mod:`bpeviz.text` (the pre-tokenizers ``Corpus`` uses) and imports nothing
above it.
"""
