"""bpeviz benchmarks against the reference implementations: ``python -m bench --help``."""
