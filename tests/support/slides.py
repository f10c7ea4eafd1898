"""The data an offline slides file carries, read outside the browser."""

from __future__ import annotations

import json
import re


def data_of(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="bv-data">(.*?)</script>', page,
                      re.S)
    assert found
    return json.loads(found.group(1))
