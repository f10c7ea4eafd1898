"""What is computed from a training to be shown: explanations, traces, views, comparisons,
curves, replays on another corpus, sampling and the lesson. No HTML here (``bpeviz.present``).
"""
