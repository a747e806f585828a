#!/usr/bin/env python3
"""Writes Sources/WishlistLanguages/CLDRData.swift: each shipped language's plural rule, month and
day names, date patterns and number separators, from CLDR as Babel carries it (issue 53).

    python3 -m venv /tmp/cldr-venv && /tmp/cldr-venv/bin/pip install babel==2.18.0
    /tmp/cldr-venv/bin/python scripts/make-cldr.py   # commit the file it writes

Babel is a development tool only: the server never loads it, nor ICU (docs/memory.md); it reads
the Swift this writes. Re-run it when a language is added (LANGUAGES below) or Babel's CLDR moves.

Plural rules are compiled for whole counts only (the app counts books, people and days): CLDR's
operands then are n = i, and v, w, f, t, c and e are 0, so the rules fold to plain integer tests.
The same expression, with its categories in CLDR's order, is written as the gettext Plural-Forms
header the catalogs must carry, so `msgstr[k]` is the k-th category and Poedit shows the same forms.
"""
from __future__ import annotations

import sys
from pathlib import Path

import babel
from babel import Locale
from babel.core import get_cldr_version

OUTPUT = Path(__file__).resolve().parent.parent / "Sources/WishlistLanguages/CLDRData.swift"
LANGUAGES = [("en", "english"), ("de", "german"), ("fr", "french"), ("es", "spanish")]
CATEGORY_ORDER = ["zero", "one", "two", "few", "many", "other"]
# Operands that are 0 for a whole count; i is n.
ZERO_OPERANDS = {"v", "w", "f", "t", "c", "e"}


def fold(node):
    """A rule node as a C-like expression over n, or True/False when it no longer depends on n."""
    kind, args = node
    if kind == "and" or kind == "or":
        left, right = fold(args[0]), fold(args[1])
        if kind == "and":
            if left is False or right is False:
                return False
            if left is True:
                return right
            return left if right is True else f"{left} && {right}"
        if left is True or right is True:
            return True
        if left is False:
            return right
        return left if right is False else f"{left} || {right}"
    if kind == "not":
        inner = fold(args[0])
        if isinstance(inner, bool):
            return not inner
        if " == " in inner and "&" not in inner and "|" not in inner:
            return inner.replace(" == ", " != ")
        return f"!({inner})"
    if kind == "relation":
        method, operand, range_list = args
        if method != "in":
            sys.exit(f"unsupported plural relation {method!r}")
        return relation(operand, range_list[1])
    sys.exit(f"unsupported plural node {kind!r}")


def operand_text(operand):
    """The operand as text over n, or an int when it is a constant for whole counts."""
    kind, args = operand
    if kind == "mod":
        inner, (_, (divisor,)) = args
        value = operand_text(inner)
        return value % divisor if isinstance(value, int) else f"{value} % {divisor}"
    if kind in ZERO_OPERANDS:
        return 0
    if kind in ("n", "i"):
        return "n"
    sys.exit(f"unsupported plural operand {kind!r}")


def relation(operand, ranges):
    value = operand_text(operand)
    tests = []
    for (_, (low,)), (_, (high,)) in ranges:
        if isinstance(value, int):
            if low <= value <= high:
                return True
            continue
        tests.append(f"{value} == {low}" if low == high else f"({value} >= {low} && {value} <= {high})")
    if not tests:
        return False
    return tests[0] if len(tests) == 1 else "(" + " || ".join(tests) + ")"


def plural_rules(locale):
    """[(category, expression)] in CLDR's order, `other` last with no expression."""
    folded = {tag: fold(node) for tag, node in locale.plural_form.abstract}
    rules = [(tag, folded[tag]) for tag in CATEGORY_ORDER if tag in folded and folded[tag] is not False]
    for tag, expression in rules:
        if expression is True:
            sys.exit(f"{locale}: the {tag} rule holds for every count")
    return rules + [("other", None)]


def gettext_plural_forms(rules):
    expression = str(len(rules) - 1)
    for index in reversed(range(len(rules) - 1)):
        condition = rules[index][1]
        if not condition.startswith("("):
            condition = f"({condition})"
        expression = f"{condition} ? {index} : {expression}"
    return f"nplurals={len(rules)}; plural={expression};"


def unwrapped(expression):
    """The expression without the parentheses a multi-range relation wraps it in (Swift's `if` needs none)."""
    if expression.startswith("(") and expression.endswith(")") and expression.count("(") == 1:
        return expression[1:-1]
    return expression


def swift_string(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(ch if ch.isprintable() and ord(ch) < 0x2000 else f"\\u{{{ord(ch):X}}}" for ch in escaped) + '"'


def swift_strings(texts):
    return "[" + ", ".join(swift_string(text) for text in texts) + "]"


def language_source(code, name):
    locale = Locale.parse(code)
    rules = plural_rules(locale)
    cases = "\n".join(f"            if {unwrapped(expression)} {{ return .{tag} }}" for tag, expression in rules[:-1])
    months = locale.months["format"]
    days = locale.days["format"]
    # Babel numbers days from Monday = 0; CivilDateTime from Sunday = 0.
    sunday_first = [6, 0, 1, 2, 3, 4, 5]
    symbols = locale.number_symbols["latn"]
    return f"""    /// {locale.english_name} ({code}).
    static let {name} = LanguageData(
        code: {swift_string(code)},
        pluralCategories: [{", ".join("." + tag for tag, _ in rules)}],
        pluralCategory: {{ n in
{cases}
            return .other
        }},
        gettextPluralForms: {swift_string(gettext_plural_forms(rules))},
        monthNames: {swift_strings(months["wide"][m] for m in range(1, 13))},
        abbreviatedMonthNames: {swift_strings(months["abbreviated"][m] for m in range(1, 13))},
        weekdayNames: {swift_strings(days["wide"][d] for d in sunday_first)},
        abbreviatedWeekdayNames: {swift_strings(days["abbreviated"][d] for d in sunday_first)},
        datePatterns: DatePatterns(
            full: {swift_string(locale.date_formats["full"].pattern)},
            long: {swift_string(locale.date_formats["long"].pattern)},
            medium: {swift_string(locale.date_formats["medium"].pattern)},
            short: {swift_string(locale.date_formats["short"].pattern)}
        ),
        groupSeparator: {swift_string(symbols["group"])},
        decimalSeparator: {swift_string(symbols["decimal"])}
    )
"""


def main():
    body = "\n".join(language_source(code, name) for code, name in LANGUAGES)
    OUTPUT.write_text(f"""// Generated by scripts/make-cldr.py from CLDR {get_cldr_version()} (Babel {babel.__version__}): do not edit.

extension LanguageData {{
{body}}}
""")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
