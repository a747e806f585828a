#!/usr/bin/env python3
"""Writes Sources/WishlistCore/Profiles/confusables.txt: what each character counts as when two
display names are compared (`NameSkeleton`, docs/decisions/display-names-compare-by-skeleton.md).

    make confusables   # installs libicu-dev (Debian's ICU), runs this; commit the file it writes

The data is Unicode's confusables.txt (UTS #39) as Debian's ICU carries it: ICU's spoof checker
gives each character's skeleton (`uspoof_getSkeleton`), so the mappings are Unicode's own, of the
Unicode version that ICU was built with, and nothing is downloaded. The running server reads only
the file this writes; it never loads ICU (docs/memory.md).

UTS #39's skeleton is case-sensitive, and names here compare without case, so the table also
folds case: characters that are confusable or case variants of each other form one class, which
compares as one character, preferably a lower-case ASCII letter ("I", "l", "1" and "i" all count as
"l"; "O", "0" and "o" as "o"). Joining two classes that hold different ASCII letters or digits is
refused (Greek "Ν" looks like "N", its small "ν" like "v"): case folding must not make "n" and "v"
the same. What a class maps to in several characters ("m" as "rn") is mapped further the same way.

Each line of the output: a code point, then what it counts as (code points), in hex. A character
the file does not list counts as itself, lower-cased; the server first applies NFKD and drops
default-ignorable characters, so neither compatibility forms nor ignorables are listed.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent.parent / "Sources/WishlistCore/Profiles/confusables.txt"
MAX_CODE_POINT = 0x10FFFF


class ICU:
    """The few ICU functions this needs, called through ctypes on Debian's shared libraries."""

    def __init__(self) -> None:
        i18n_name, common_name = ctypes.util.find_library("icui18n"), ctypes.util.find_library("icuuc")
        if not i18n_name or not common_name:
            sys.exit("ICU's libraries were not found: install libicu-dev (make confusables does)")
        self.i18n, self.common = ctypes.CDLL(i18n_name), ctypes.CDLL(common_name)
        # ICU's symbols carry its major version (uspoof_open_72), the library name's number.
        self.suffix = "_" + i18n_name.rsplit(".so.", 1)[1].split(".")[0]
        status = ctypes.c_int(0)
        self.checker = self.function(self.i18n, "uspoof_open", ctypes.c_void_p, [ctypes.POINTER(ctypes.c_int)])(ctypes.byref(status))
        self.check(status, "uspoof_open")
        instance = self.function(self.common, "unorm2_getNFKDInstance", ctypes.c_void_p, [ctypes.POINTER(ctypes.c_int)])
        self.nfkd_normalizer = instance(ctypes.byref(status))
        self.check(status, "unorm2_getNFKDInstance")
        utf16 = ctypes.c_void_p
        self.skeleton_call = self.function(
            self.i18n, "uspoof_getSkeleton", ctypes.c_int32,
            [ctypes.c_void_p, ctypes.c_uint32, utf16, ctypes.c_int32, utf16, ctypes.c_int32, ctypes.POINTER(ctypes.c_int)],
        )
        self.normalize_call = self.function(
            self.common, "unorm2_normalize", ctypes.c_int32,
            [ctypes.c_void_p, utf16, ctypes.c_int32, utf16, ctypes.c_int32, ctypes.POINTER(ctypes.c_int)],
        )
        self.lower_call = self.function(
            self.common, "u_strToLower", ctypes.c_int32,
            [utf16, ctypes.c_int32, utf16, ctypes.c_int32, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)],
        )
        self.default_ignorable = self.function(self.common, "u_hasBinaryProperty", ctypes.c_int8, [ctypes.c_int32, ctypes.c_int])
        self.output = ctypes.create_string_buffer(256)

    def function(self, library: ctypes.CDLL, name: str, result, arguments):
        call = getattr(library, name + self.suffix)
        call.restype, call.argtypes = result, arguments
        return call

    @staticmethod
    def check(status: ctypes.c_int, what: str) -> None:
        if status.value > 0:
            sys.exit(f"ICU's {what} failed with error {status.value}")

    def versions(self) -> tuple[str, str]:
        """ICU's version and the Unicode version of its data."""
        version = (ctypes.c_uint8 * 4)()
        self.function(self.common, "u_getVersion", None, [ctypes.c_void_p])(version)
        icu = ".".join(str(part) for part in version[:2])
        self.function(self.common, "u_getUnicodeVersion", None, [ctypes.c_void_p])(version)
        unicode = ".".join(str(part) for part in version[:3])
        return icu, unicode

    def utf16_call(self, call, text: str, *before) -> str:
        """`call(*before, source, its length, destination, its capacity, status)` on `text`."""
        source = text.encode("utf-16-le")
        status = ctypes.c_int(0)
        length = call(*before, source, len(source) // 2, self.output, len(self.output) // 2, ctypes.byref(status))
        self.check(status, call.__name__)
        return self.output.raw[: 2 * length].decode("utf-16-le")

    def skeleton(self, text: str) -> str:
        return self.utf16_call(self.skeleton_call, text, self.checker, 0)

    def nfkd(self, text: str) -> str:
        return self.utf16_call(self.normalize_call, text, self.nfkd_normalizer)

    def lower(self, text: str) -> str:
        # The one of the three that takes its destination first.
        source = text.encode("utf-16-le")
        status = ctypes.c_int(0)
        length = self.lower_call(self.output, len(self.output) // 2, source, len(source) // 2, b"", ctypes.byref(status))
        self.check(status, "u_strToLower")
        return self.output.raw[: 2 * length].decode("utf-16-le")

    def is_default_ignorable(self, code_point: int) -> bool:
        return bool(self.default_ignorable(code_point, 5))  # UCHAR_DEFAULT_IGNORABLE_CODE_POINT


def debian_version(package: str) -> str:
    answer = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return answer.stdout.strip() or "unknown"


class Classes:
    """Union-find over code points, remembering each class's ASCII letters and digits."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.ascii: dict[int, frozenset[str]] = {}

    def find(self, code_point: int) -> int:
        if code_point not in self.parent:
            self.parent[code_point] = code_point
            character = chr(code_point)
            self.ascii[code_point] = frozenset([character.lower()] if character.isascii() and character.isalnum() else [])
        root = code_point
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[code_point] != root:
            self.parent[code_point], code_point = root, self.parent[code_point]
        return root

    def join(self, a: int, b: int, keeping_ascii_apart: bool) -> bool:
        first, second = self.find(a), self.find(b)
        if first == second:
            return True
        if keeping_ascii_apart and self.ascii[first] and self.ascii[second] and self.ascii[first] != self.ascii[second]:
            return False
        self.parent[first] = second
        self.ascii[second] = self.ascii[first] | self.ascii[second]
        return True

    def members(self) -> dict[int, list[int]]:
        classes: dict[int, list[int]] = defaultdict(list)
        for code_point in self.parent:
            classes[self.find(code_point)].append(code_point)
        return classes


def main() -> None:
    icu = ICU()
    icu_version, unicode_version = icu.versions()
    package = "libicu" + icu.suffix.lstrip("_")

    def visible(text: str) -> str:
        return "".join(character for character in text if not icu.is_default_ignorable(ord(character)))

    # The characters the server looks up: what NFKD leaves alone and is not default-ignorable.
    looked_up = []
    for code_point in range(MAX_CODE_POINT + 1):
        if 0xD800 <= code_point <= 0xDFFF or icu.is_default_ignorable(code_point):
            continue
        if icu.nfkd(chr(code_point)) == chr(code_point):
            looked_up.append(code_point)

    classes = Classes()
    expansions: dict[int, str] = {}
    targeted: Counter[int] = Counter()
    for code_point in looked_up:
        prototype = visible(icu.nfkd(icu.skeleton(chr(code_point))))
        if prototype == chr(code_point):
            continue
        if len(prototype) == 1:
            classes.join(code_point, ord(prototype), keeping_ascii_apart=False)
            targeted[ord(prototype)] += 1
        else:
            expansions[code_point] = prototype
    # Case: ASCII first, unconditionally ("I" joins "i", and through "I" = "l", "l" too), then the
    # rest where it joins no two ASCII letters that differ.
    case_pairs = [(cp, icu.lower(chr(cp))) for cp in looked_up]
    case_pairs = [(cp, lower) for cp, lower in case_pairs if len(lower) == 1 and ord(lower) != cp]
    for code_point, lower in sorted(case_pairs, key=lambda pair: pair[0] >= 0x80):
        if not classes.join(code_point, ord(lower), keeping_ascii_apart=code_point >= 0x80):
            print(f"kept apart: U+{code_point:04X} {chr(code_point)} and its small {lower}", file=sys.stderr)

    looked_up_set = set(looked_up)

    def representative(members: list[int]) -> int:
        candidates = [m for m in members if m in looked_up_set and icu.lower(chr(m)) == chr(m)] or members
        return min(candidates, key=lambda m: (not chr(m).isascii(), not chr(m).isalpha(), -targeted[m], m))

    class_of = {}
    value_of_class: dict[int, str] = {}
    several: dict[int, list[str]] = {}
    for root, members in classes.members().items():
        for member in members:
            class_of[member] = root
        grown = Counter(expansions[m] for m in members if m in expansions)
        if grown:
            # A class some of whose characters read as several ("m" as "rn"): all of it does.
            # Case variants ("AE", "ae") meet again once each part is mapped (below).
            value_of_class[root] = min(grown, key=lambda text: (-grown[text], text))
            several[root] = list(grown)
        else:
            value_of_class[root] = chr(representative(members))

    resolved: dict[int, str] = {}

    def value(code_point: int, depth: int = 0) -> str:
        """What the server maps `code_point` to: its class's value, each character of an expansion mapped again."""
        if code_point in resolved:
            return resolved[code_point]
        if code_point in class_of:
            mapped = value_of_class[class_of[code_point]]
        elif code_point in expansions:
            mapped = expansions[code_point]
        else:
            return icu.lower(chr(code_point))
        if len(mapped) > 1 and depth < 8:
            mapped = "".join(value(ord(part), depth + 1) for part in mapped)
        resolved[code_point] = mapped
        return mapped

    for root, texts in several.items():
        meanings = {"".join(value(ord(part)) for part in text) for text in texts}
        if len(meanings) > 1:
            print(f"{chr(root)!r} reads as any of {sorted(meanings)}; kept {value(root)!r}", file=sys.stderr)

    lines = []
    for code_point in looked_up:
        mapped = value(code_point)
        if mapped != icu.lower(chr(code_point)):
            lines.append(f"{code_point:04X} " + " ".join(f"{ord(part):04X}" for part in mapped))

    header = [
        "# What each character counts as when display names are compared (NameSkeleton): generated by",
        "# scripts/make-confusables.py from Unicode's confusables.txt (UTS #39), Unicode "
        f"{unicode_version}, as ICU {icu_version} carries it (Debian's {package} {debian_version(package)}).",
        "# A line: a code point, then what it counts as, in hex. Unlisted characters count as themselves, lower-cased.",
    ]
    OUTPUT.write_text("\n".join(header + lines) + "\n", encoding="ascii")
    print(f"wrote {len(lines)} mappings to {OUTPUT.relative_to(Path.cwd()) if OUTPUT.is_relative_to(Path.cwd()) else OUTPUT}")


if __name__ == "__main__":
    main()
