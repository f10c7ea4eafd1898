"""Build the optional compiled merge loop: ``python setup.py build_ext --inplace``.

Everything else lives in pyproject.toml. Without a C compiler the build of the extension
is skipped (``optional=True``) and bpeviz runs its pure-Python merge loop instead.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bpeviz.engine._merge", ["bpeviz/engine/_merge.c"], optional=True)])
