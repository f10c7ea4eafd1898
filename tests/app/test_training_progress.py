"""Long trainings report progress to the page (bpeviz.ui.training.TrainingJob)."""

from __future__ import annotations

import sysconfig
from pathlib import Path

from bpeviz import Corpus
from bpeviz.ui.training import TrainingJob


class RecordingJob(TrainingJob):
    def _progress(self, done: int, total: int) -> None:
        self.seen = [*getattr(self, "seen", []), (done, total)]
        super()._progress(done, total)


def test_a_training_job_reports_merges_done_out_of_the_total():
    text = (Path(sysconfig.get_paths()["stdlib"]) / "argparse.py").read_text(encoding="utf-8")
    job = RecordingJob(Corpus.from_text(text), {"algorithm": "bpe", "merges": 1000})
    assert job.wait(120) and job.error is None
    assert job.result is not None and len(job.result.merges) == 1000
    done = [d for d, _ in job.seen]
    assert {t for _, t in job.seen} == {1000}
    assert done == sorted(done) and done[-1] == 1000
    assert any(0 < d < 1000 for d in done)  # intermediate progress, not just the end
    assert (job.done, job.total) == (1000, 1000)


def test_a_failed_training_is_reported_not_raised_in_the_thread():
    job = TrainingJob(Corpus.from_text("  "), {"algorithm": "bpe", "merges": 5})
    assert job.wait(30)
    assert isinstance(job.error, ValueError) and "no words" in str(job.error)
