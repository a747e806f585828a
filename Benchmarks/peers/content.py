#!/usr/bin/env python3
"""Checks that a peer's list page says what ours says, before either is timed.

    python3 Benchmarks/peers/content.py OURS.html THEIRS.html   # prints the differences; exit 1 if any

or, from a driver, `differences(ours_html, theirs_html)`: a list of sentences, empty when the pages
match. What is compared is what a reader gets from the page, not its markup:
  - the page's <title> and its <h1>;
  - each book of the list, in order (`<li class="book">`): its rank, title and author, and whether
    it shows "On your wishlist" or a form to add it;
  - how many <form>s the page has, and how many of them carry a CSRF token (a hidden input whose
    name says csrf, with a value: our `csrf_token`, Django's `csrfmiddlewaretoken`, ...).
Text is compared with entities decoded and white space collapsed, so escaping and indentation
may differ. Python 3 standard library only.
"""
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ON_WISHLIST = "on wishlist"
ADD_FORM = "add form"


def _classes(attrs):
    return set((dict(attrs).get("class") or "").split())


def _text(parts):
    return " ".join("".join(parts).split())


class _ListPage(HTMLParser):
    """Collects the page facts in one pass. Open elements are kept on a stack, each with what it
    started (a book, a field of a book, a form), so that the end tag closes exactly that."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # [(tag, role)] of open elements
        self.title, self.heading = [], []
        self.books = []
        self.book = None         # the book being read
        self.field = None        # (book key, parts) being collected: "rank", "title", "author"
        self.capture = None      # "title" / "heading" of the page
        self.form = None         # {"csrf": bool, "in_book": book or None} of the open form
        self.forms = self.csrf_forms = 0

    def handle_starttag(self, tag, attrs):
        classes, values = _classes(attrs), dict(attrs)
        role = None
        if tag == "title" and not self.title:
            role, self.capture = "page-title", "title"
        elif tag == "h1" and not self.heading:
            role, self.capture = "page-heading", "heading"
        elif tag == "li" and "book" in classes and self.book is None:
            role = "book"
            self.book = {"rank": "", "title": "", "author": "", "text": [], "forms": 0, "data_rank": values.get("data-rank")}
        elif self.book is not None and self.field is None:
            for key, names in (("rank", {"book-rank"}), ("title", {"book-title"}), ("author", {"book-author"})):
                if classes & names and not self.book[key]:
                    role, self.field = "field", (key, [])
                    break
        if tag == "form":
            role = role or "form"
            self.form = {"csrf": False}
            self.forms += 1
            if self.book is not None:
                self.book["forms"] += 1
        if tag == "input" and self.form is not None:
            name = (values.get("name") or "").lower()
            if "csrf" in name and (values.get("value") or "").strip():
                self.form["csrf"] = True
        if tag not in VOID:
            self.stack.append((tag, role))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:  # <div/> in HTML is an open tag; XHTML-style pages close it at once
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        # Close up to the matching open element (tolerates unclosed <p>, <li> and the like).
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                for _, role in reversed(self.stack[index:]):
                    self._close(role)
                del self.stack[index:]
                return

    def _close(self, role):
        if role in ("page-title", "page-heading"):
            self.capture = None
        elif role == "field":
            key, parts = self.field
            self.book[key] = _text(parts)
            self.field = None
        elif role == "form":
            if self.form and self.form["csrf"]:
                self.csrf_forms += 1
            self.form = None
        elif role == "book":
            self.books.append(self.book)
            self.book = None

    def handle_data(self, data):
        if self.capture == "title":
            self.title.append(data)
        elif self.capture == "heading":
            self.heading.append(data)
        if self.field is not None:
            self.field[1].append(data)
        if self.book is not None:
            self.book["text"].append(data)

    def close(self):
        super().close()
        while self.stack:  # a page cut short: close what is open
            _, role = self.stack.pop()
            self._close(role)


def extract(page):
    """What a reader sees of a list page: {"title", "heading", "books": [{"rank", "title",
    "author", "wishlist"}], "forms", "csrf_forms"}. "wishlist" is "on wishlist", "add form", or
    something else saying what is wrong ("both", "neither")."""
    parser = _ListPage()
    parser.feed(page)
    parser.close()
    books = []
    for book in parser.books:
        digits = "".join(ch for ch in book["rank"] if ch.isdigit()) or (book["data_rank"] or "").strip()
        author = book["author"]
        if author.lower().startswith("by "):
            author = author[3:]
        marked = "on your wishlist" in _text(book["text"]).lower()
        has_form = book["forms"] > 0
        state = {(True, False): ON_WISHLIST, (False, True): ADD_FORM, (True, True): "both", (False, False): "neither"}[
            (marked, has_form)]
        books.append({"rank": int(digits) if digits.isdigit() else None, "title": book["title"], "author": author, "wishlist": state})
    return {"title": _text(parser.title), "heading": _text(parser.heading), "books": books,
            "forms": parser.forms, "csrf_forms": parser.csrf_forms}


def _describe(book):
    return f"#{book['rank']} “{book['title']}” by {book['author'] or '(no author)'} ({book['wishlist']})"


def differences(ours, theirs):
    """The ways page `theirs` differs from page `ours` in content, as sentences; [] when they match."""
    a, b = extract(ours), extract(theirs)
    found = []
    for key, label in (("title", "page title"), ("heading", "heading")):
        if a[key] != b[key]:
            found.append(f"{label}: ours “{a[key]}”, theirs “{b[key]}”")
    if not a["books"]:
        found.append("our page shows no books")
    if len(a["books"]) != len(b["books"]):
        found.append(f"number of books: ours {len(a['books'])}, theirs {len(b['books'])}")
    for index in range(max(len(a["books"]), len(b["books"]))):
        mine = a["books"][index] if index < len(a["books"]) else None
        other = b["books"][index] if index < len(b["books"]) else None
        if mine is None:
            found.append(f"book {index + 1}: theirs has an extra {_describe(other)}")
        elif other is None:
            found.append(f"book {index + 1}: theirs lacks {_describe(mine)}")
        else:
            for key in ("rank", "title", "author", "wishlist"):
                if mine[key] != other[key]:
                    found.append(f"book {index + 1} {key}: ours {mine[key]!r}, theirs {other[key]!r}")
    if a["forms"] != b["forms"]:
        found.append(f"forms: ours {a['forms']}, theirs {b['forms']}")
    if a["csrf_forms"] != b["csrf_forms"]:
        found.append(f"forms carrying a CSRF token: ours {a['csrf_forms']}, theirs {b['csrf_forms']}")
    if b["csrf_forms"] != b["forms"]:
        found.append(f"theirs has {b['forms'] - b['csrf_forms']} form(s) without a CSRF token")
    return found


def summary(page):
    facts = extract(page)
    marked = sum(book["wishlist"] == ON_WISHLIST for book in facts["books"])
    return (f"{len(facts['books'])} books ({marked} on the wishlist), {facts['forms']} forms, "
            f"{facts['csrf_forms']} with a CSRF token")


def main(argv):
    if len(argv) != 3:
        sys.exit(f"usage: {argv[0]} OURS.html THEIRS.html")
    with open(argv[1], encoding="utf-8") as ours, open(argv[2], encoding="utf-8") as theirs:
        ours_page, theirs_page = ours.read(), theirs.read()
    print(f"ours:   {summary(ours_page)}")
    print(f"theirs: {summary(theirs_page)}")
    found = differences(ours_page, theirs_page)
    for line in found:
        print(f"- {line}")
    print("content matches" if not found else f"{len(found)} difference(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
