"""Text from a record in SVG, HTML and XML: escaped, and only characters XML 1.0 allows.

``html.escape`` quotes ``<``, ``>``, ``&`` and quotes, but a control character (an ESC in
a ``#title``, a form feed in a name) passes through, and XML 1.0 forbids those: the SVG
is then not well-formed and viewers refuse it. :func:`xml_text` shows them as the
terminal does (``\\x1b``, :func:`gcgtools.console.safe_text`), and the bidirectional
embedding, override and isolate controls (U+202A to U+202E, U+2066 to U+2069) as
``\\u202e``: a right-to-left override in a nick would otherwise turn the rest of its
cell, line or chart label around. :func:`escape` does both.

>>> escape("Ann & <Bob>\\x0c")
'Ann &amp; &lt;Bob&gt;\\\\x0c'
>>> xml_text("Ann\\u202e")
'Ann\\\\u202e'
"""

from __future__ import annotations

import html
import re

from gcgtools.console import safe_text

__all__ = ["escape", "xml_text"]

#: Characters shown as ``\\uNNNN``: XML 1.0's non-characters U+FFFE and U+FFFF, and the
#: bidirectional controls whose effect runs on past the text they are in.
_WRITTEN_OUT = re.compile("[\ufffe\uffff\u202a-\u202e\u2066-\u2069]")


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (C0 controls but tab and newline,
    carriage return, lone surrogates, U+FFFE, U+FFFF) written out, C1 controls and the
    bidirectional embedding, override and isolate controls too."""
    text = safe_text(text)  # CR too: it is a C0 control
    return _WRITTEN_OUT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def escape(text: str, quote: bool = True) -> str:
    """:func:`html.escape` of :func:`xml_text`: for SVG, HTML and XML documents."""
    return html.escape(xml_text(text), quote=quote)
