"""Why a Unigram vocabulary has the size it has, in words (the trainers, the model and
the views all say it the same way)."""

#: Why a Unigram vocabulary has the size it has (:attr:`UnigramTraining.stop_reason`).
UNIGRAM_STOP_REASONS = {
    "vocab_size": "reached the requested vocabulary size",
    "few_pieces": "the corpus offers no more pieces",
    "characters": "every character of the corpus is kept, and with them every piece the "
                  "last pruning round kept",
}
#: What sentencepiece's spm_train says instead of training, for each early stop
SENTENCEPIECE_REFUSALS = {
    "few_pieces": "Vocabulary size too high",
    "characters": "Vocabulary size is smaller than required_chars",
}
