"""Build the optional compiled loops: ``python setup.py build_ext --inplace``.

Everything else lives in pyproject.toml. Without a C compiler the builds are skipped
(``optional=True``) and bpeviz runs its pure-Python merge loop and NumPy Unigram loops
instead, which give the same results.
"""

import sys

from setuptools import Extension, setup

# the Unigram loops must round every float32 operation as NumPy does: no fused multiply-add;
# and they call libm's log (Python's math.log), linked explicitly where it is a library
NO_FMA = [] if sys.platform == "win32" else ["-ffp-contract=off"]
LIBM = [] if sys.platform == "win32" else ["m"]

setup(ext_modules=[
    Extension("bpeviz.engine._merge", ["bpeviz/engine/_merge.c"], optional=True),
    Extension("bpeviz.unigram._lattice", ["bpeviz/unigram/_lattice.c"], optional=True,
              extra_compile_args=NO_FMA, libraries=LIBM),
])
