"""Unigram (SentencePiece): start from a large vocabulary and prune it, round by round."""
