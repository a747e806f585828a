#!/usr/bin/env python3
"""Writes Languages/messages.pot: the English text of every marked string (issue 53), the template
translators' tools (Poedit, Weblate) update each Languages/<code>.po from.

    python3 scripts/extract-messages.py           # writes Languages/messages.pot
    python3 scripts/extract-messages.py --check   # exits 1 when a string differs from what it would write
                                                  # (the `#:` places may lag: they move with every edit)

A string is marked in one of these ways (docs/templates.md, "Translated text"):
- in Views/: `{% t "English" [plural "English plural"] [context "context"] name=value … %}`, and an
  include's literal label `{% include "…" with label=t "English" %}`;
- in Sources/: `translations.text("English" …)`, `translations.text(one: "…", other: "…" …)` and
  `Translations.marked("English")`, for text looked up later by its English key.

Entries come in the order first seen (files by path), each with the places it is used (`#:`);
`TranslationsTests`/`MessageCatalogTests` check the .pot against this script and every .po against
the .pot.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "Languages" / "messages.pot"

STRING = r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\''
TAG = re.compile(
    r"\{%-?\s*t\s+(?:" + STRING + r")(?:\s+plural\s+(?:" + STRING + r"))?(?:\s+context\s+(?:" + STRING + r"))?"
)
BOUND = re.compile(r"\w=t\s+(?:" + STRING + r")")
SWIFT_TEXT = re.compile(r'(?:translations\.text|Translations\.marked)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*context:\s*"((?:[^"\\]|\\.)*)")?')
SWIFT_PLURAL = re.compile(r'translations\.text\(\s*one:\s*"((?:[^"\\]|\\.)*)"\s*,\s*other:\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*count:[^,)]*)?(?:\s*,\s*context:\s*"((?:[^"\\]|\\.)*)")?')


def unquote(match: re.Match, first: int) -> str | None:
    """The text of the string literal whose two alternatives (double, single quotes) start at group `first`."""
    text = match.group(first) if match.group(first) is not None else match.group(first + 1)
    if text is None:
        return None
    return re.sub(r"\\(.)", r"\1", text)


def swift_unescape(text: str | None) -> str | None:
    if text is None:
        return None
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def messages() -> dict[tuple[str | None, str], dict]:
    found: dict[tuple[str | None, str], dict] = {}

    def add(english: str, plural: str | None, context: str | None, place: str) -> None:
        entry = found.setdefault((context, english), {"plural": plural, "places": []})
        if plural and not entry["plural"]:
            entry["plural"] = plural
        entry["places"].append(place)

    for path in sorted((ROOT / "Views").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        for match in TAG.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            add(unquote(match, 1), unquote(match, 3), unquote(match, 5), f"{name}:{line}")
        for match in BOUND.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            add(unquote(match, 1), None, None, f"{name}:{line}")
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        # Comments show calls as examples; only code marks a string.
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        name = path.relative_to(ROOT).as_posix()
        for match in SWIFT_PLURAL.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            add(swift_unescape(match.group(1)), swift_unescape(match.group(2)), swift_unescape(match.group(3)), f"{name}:{line}")
        for match in SWIFT_TEXT.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            add(swift_unescape(match.group(1)), None, swift_unescape(match.group(2)), f"{name}:{line}")
    return found


def po_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
    return f'"{escaped}"'


def pot() -> str:
    lines = [
        "# The English text of every marked string of Bestseller Wishlist: the template of each <code>.po.",
        "# Written by scripts/extract-messages.py; do not edit by hand.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: Bestseller Wishlist\\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
    ]
    for (context, english), entry in messages().items():
        lines.append("")
        lines.extend(f"#: {place}" for place in entry["places"])
        if context is not None:
            lines.append(f"msgctxt {po_string(context)}")
        lines.append(f"msgid {po_string(english)}")
        if entry["plural"]:
            lines.append(f"msgid_plural {po_string(entry['plural'])}")
            lines.extend([f'msgstr[0] ""', f'msgstr[1] ""'])
        else:
            lines.append('msgstr ""')
    return "\n".join(lines) + "\n"


def main() -> int:
    text = pot()
    if sys.argv[1:] == ["--check"]:
        # Where a string is used (`#:` lines) moves with every edit above it: only the strings count.
        def strings(catalog: str) -> list[str]:
            return [line for line in catalog.splitlines() if not line.startswith("#:")]
        if strings(POT.read_text(encoding="utf-8")) != strings(text):
            print(f"{POT.relative_to(ROOT)} is not current: run python3 scripts/extract-messages.py", file=sys.stderr)
            return 1
        return 0
    POT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
