"""MkDocs hook: the docstrings' Sphinx roles (``:func:`name```) read as plain code.

The docstrings are written for ``help()`` and Sphinx alike; on the API pages the role
prefix would show as text (``:func:name``), so it is dropped, keeping the code span.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(r":(?:py:)?(?:func|class|data|meth|attr|mod|exc|obj|const):(?=<code>)")


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    return ROLE.sub("", html)
