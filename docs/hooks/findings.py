"""MkDocs hook: the findings catalogue page, generated from the code's own table.

``docs/findings.md`` holds the marker ``<!-- findings-catalogue -->``; at build time it is
replaced by every entry of :data:`gcgtools.findings.RULES` (code, severity, title,
explanation, example, fix), grouped by family, so the page can never drift from what
``gcgtools rules`` and ``gcgtools explain`` print.
"""

from __future__ import annotations

import html
import re
from typing import Any

MARKER = "<!-- findings-catalogue -->"


def families(doc: str) -> dict[str, str]:
    """The family names of the code letters, read from the findings module's docstring
    (``F  file and encoding        P  syntax ...``)."""
    found: dict[str, str] = {}
    family = re.compile(r"(?:^|\s{2,})([A-Z])  (\S.*?)(?=\s{2,}[A-Z]  |\s*$)", re.M)
    for letter, name in family.findall(doc):
        found.setdefault(letter, name.strip())
    return found


def text(value: str) -> str:
    """Catalogue text as Markdown: HTML characters escaped, Markdown's own characters
    escaped outside `code` spans (RST's ``code`` becomes `code`)."""
    parts = re.split(r"(`+[^`]*`+)", value.replace("``", "`"))
    return "".join(
        part if part.startswith("`") else re.sub(r"([*_\\|\[\]])", r"\\\1", html.escape(part))
        for part in parts
    )


def entry(rule: Any) -> list[str]:
    lines = [f"### {rule.code}: {text(rule.title)} {{#{rule.code.lower()}}}", ""]
    lines += [f"Severity: **{rule.severity}**", "", text(rule.explanation), ""]
    if rule.example:
        lines += ["Example:", "", "```text", *rule.example.splitlines(), "```", ""]
    if rule.fix:
        lines += ["How to fix it: " + text(rule.fix), ""]
    return lines


def catalogue() -> str:
    from gcgtools import findings

    names = families(findings.__doc__ or "")
    rules = sorted(findings.RULES.values(), key=lambda r: int(r.code[1:]))
    lines = [
        f"{len(rules)} codes. The same text is printed by `gcgtools explain CODE`.",
        "",
        "| code | severity | title |",
        "|---|---|---|",
    ]
    lines += [f"| [{r.code}](#{r.code.lower()}) | {r.severity} | {text(r.title)} |" for r in rules]
    lines.append("")
    family = ""
    for rule in rules:
        if rule.code[0] != family:
            family = rule.code[0]
            lines += [f"## {family}: {text(names.get(family, 'other'))}", ""]
        lines += entry(rule)
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, catalogue())
