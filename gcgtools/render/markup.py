"""Text from a record in SVG, HTML and XML: escaped, and only characters XML 1.0 allows.

``html.escape`` quotes ``<``, ``>``, ``&`` and quotes, but a control character (an ESC in
a ``#title``, a form feed in a name) passes through, and XML 1.0 forbids those: the SVG
is then not well-formed and viewers refuse it. :func:`xml_text` shows them as the
terminal does (``\\x1b``, :func:`gcgtools.console.safe_text`) and :func:`escape` does both.

>>> escape("Ann & <Bob>\\x0c")
'Ann &amp; &lt;Bob&gt;\\\\x0c'
"""

from __future__ import annotations

import html

from gcgtools.console import safe_text

__all__ = ["escape", "xml_text"]


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (C0 controls but tab and newline,
    carriage return, lone surrogates, U+FFFE, U+FFFF) written out, and C1 controls too."""
    text = safe_text(text)  # CR too: it is a C0 control
    return text.replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


def escape(text: str, quote: bool = True) -> str:
    """:func:`html.escape` of :func:`xml_text`: for SVG, HTML and XML documents."""
    return html.escape(xml_text(text), quote=quote)
