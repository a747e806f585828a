#!/usr/bin/env python3
"""make mutants: flips each guard and boundary the promises table names (docs/promises.md), one at a
time, runs the tests said to guard it, and reports the mutations that survive (the tests still
pass). Every mutation is undone before the next, and the file restored however the run ends.

Outside CI: each mutation costs an incremental build and a test run, about a minute here.
    make mutants                      # every mutation
    MUTANTS=passkey-disabled make mutants   # the named ones (comma-separated)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    name: str
    file: str
    find: str
    replace: str
    tests: str  # a `swift test --filter` pattern
    promise: str


MUTATIONS = [
    Mutation("passkey-disabled", "Sources/WishlistCore/Accounts/AccountService+Passkeys.swift",
             "let user = try await users.find(id: userID), !user.isDisabled else", "let user = try await users.find(id: userID) else",
             "PromiseGuardTests", "a disabled account cannot sign in with a passkey"),
    Mutation("reset-link-boundary", "Sources/WishlistCore/Accounts/OneTimeLinks.swift",
             'LinkState {\n        if row.optionalDate("used_at") != nil { return .used }\n        return row.date("expires_at") <= now',
             'LinkState {\n        if row.optionalDate("used_at") != nil { return .used }\n        return row.date("expires_at") < now',
             "PromiseGuardTests", "a reset link is valid 24 hours, not a moment more"),
    Mutation("invite-lifetime", "Sources/WishlistCore/Accounts/OneTimeLinks.swift",
             "public static let lifetime: TimeInterval = 7 * 86_400", "public static let lifetime: TimeInterval = 8 * 86_400",
             "PromiseGuardTests", "an invite is valid 7 days"),
    Mutation("import-row-limit", "Sources/WishlistCore/Wishlist/Goodreads/GoodreadsCSV.swift",
             "guard rowCount <= maxRows else", "guard rowCount <= maxRows + 1 else",
             "PromiseGuardTests|GoodreadsCSVTests", "an import reads at most 50,000 rows"),
    Mutation("import-rollback", "Sources/WishlistCore/Wishlist/Goodreads/GoodreadsImporter.swift",
             "await Task { try? await rollBack(importID: importID) }.value", "_ = importID",
             "ImportInSlicesTests", "an import that fails leaves nothing of it"),
    Mutation("deletion-empties-log", "Sources/WishlistCore/Accounts/AccountDeletion.swift",
             "        }\n        await emptyLog(database)\n", "        }\n",
             "AccountErasureTests", "a deleted account's words are not left in the write-ahead log"),
    Mutation("backup-integrity", "Sources/WishlistCore/Storage/DatabaseBackup.swift",
             'guard verdict == ["ok"] else {', 'guard verdict == ["ok"] || true else {',
             "DatabaseBackupTests", "a backup that fails the integrity check is refused"),
    Mutation("log-query", "Sources/WishlistWeb/Middleware/AccessLogMiddleware.swift",
             "Self.loggedPath(request.uri.path, route: context.endpointPath)", "Self.loggedPath(request.uri.description, route: context.endpointPath)",
             "AccessLogPrivacyTests", "no query string reaches the access log"),
    Mutation("log-token-unmatched", "Sources/WishlistWeb/Middleware/AccessLogMiddleware.swift",
             'let spelled = "/" + path.split(separator: "/").joined(separator: "/")', "let spelled = path",
             "AccessLogTests", "a link's token never reaches the log, however spelled"),
    Mutation("owner-cache-reservations", "Sources/WishlistWeb/Controllers/WishlistController.swift",
             "generation: try read.catalog.generation() + read.wishlist.generation()",
             "generation: try read.catalog.generation() + read.wishlist.generation() + read.household.reservationGeneration()",
             "SharedPageCacheTests", "the owner's pages do not change with reservations, in bytes or in timing"),
    Mutation("disabled-share-link", "Sources/WishlistCore/Security/SecretLinkStore.swift",
             "WHERE token_hash = ? AND user.disabled_at IS NULL", "WHERE token_hash = ?",
             "DisabledAccountTests", "a disabled account's share link and feed stop"),
    Mutation("last-admin", "Sources/WishlistCore/Accounts/Administration.swift",
             "if wasAdmin, try activeAdminCount(db) == 0 {", "if wasAdmin, try activeAdminCount(db) < 0 {",
             "LastAdminTests", "the server always keeps an active admin"),
    Mutation("challenge-browser", "Sources/WishlistCore/Passkeys/PasskeyStore.swift",
             '&& row["browser"] == Data(browser) && expiresAt > now', "&& expiresAt > now",
             "PasskeyChallengeTests", "a passkey challenge is spent only by the browser that asked"),
    Mutation("trusted-proxy", "Sources/WishlistCore/Network/ForwardedClient.swift",
             "guard !trustedProxies.isEmpty, trustedProxies.contains(address: peer) else {", "guard !trustedProxies.isEmpty else {",
             "ForwardedClientTests", "forwarding headers are believed only from server.trustedProxies"),
    Mutation("metrics-forwarded", "Sources/WishlistWeb/Controllers/MetricsController.swift",
             "guard !client.isForwarded, allowFrom.contains(address: context.peerAddress) else", "guard allowFrom.contains(address: context.peerAddress) else",
             "MetricsTests", "/metrics answers no request that came through a proxy"),
    Mutation("id-leading-zero", "Sources/WishlistCore/Storage/ID.swift",
             'digits.first != UInt8(ascii: "0"),', "",
             "IDTests", "an id has one spelling"),
    Mutation("curl-http-only", "Sources/WishlistCore/Catalog/NYT/CurlHTTPClient.swift",
             "try check(ccurl_allow_only_http(handle), ccurl_protocols_option())\n", "",
             "CurlHTTPClientTests", "libcurl speaks http(s) only, whatever the URL or a redirect says"),
    Mutation("curl-no-redirects", "Sources/WishlistCore/Catalog/NYT/CurlHTTPClient.swift",
             "CURLOPT_FOLLOWLOCATION, limits.maximumRedirects > 0 ? 1 : 0)", "CURLOPT_FOLLOWLOCATION, 1)",
             "CurlHTTPClientTests", "the NYT's client follows no redirect"),
    Mutation("throttle-boundary", "Sources/WishlistCore/Accounts/LoginThrottle.swift",
             "guard recent.count >= limit(scope), let oldestCounted = recent.last else", "guard recent.count > limit(scope), let oldestCounted = recent.last else",
             "AccountsHTTPTests|ThrottleConcurrencyTests", "no more than the limit of attempts is ever evaluated in a window"),
    # Round 3: readers, the gift cycle, any book and covers.
    Mutation("picture-pixel-limit", "Sources/WishlistCore/Pictures/PictureProcessor.swift",
             "guard width * height <= maximumPixels else", "guard width * height <= maximumPixels * 100 else",
             "PictureUploadTests|ProfilePictureHTTPTests|CoverPictureTests", "a picture's pixels are checked before it is decoded (a bomb is refused)"),
    Mutation("sharing-counts", "Sources/WishlistCore/Reading/ReadingStore.swift",
             "static let sharingMember = \"user.sharing = 'household' AND user.disabled_at IS NULL\"", "static let sharingMember = \"user.disabled_at IS NULL\"",
             "ReadingHTTPTests", "only members who share are counted or shown to others"),
    Mutation("review-length", "Sources/WishlistCore/Reading/Reading.swift",
             "if review.count > reviewMaximumLength {", "if review.count > reviewMaximumLength + 1 {",
             "ReadingHTTPTests", "a review is up to 5,000 characters"),
    Mutation("idea-generation", "Sources/WishlistCore/Storage/Migrations/18-gift-ideas.swift",
             "ON gift_idea\n                BEGIN UPDATE reservation_generation", "ON gift_idea\n                BEGIN UPDATE wishlist_generation",
             "SharedPageCacheTests|OwnerNeverKnowsTests", "an idea for the owner changes none of her pages, in timing either"),
    Mutation("isbn13-check-digit", "Sources/WishlistCore/AddedBooks/ISBN.swift",
             "guard Self.ean13CheckDigit(digits.prefix(12)) == digits[12] else", "guard Self.ean13CheckDigit(digits.prefix(12)) >= 0 else",
             "ISBNTests|AddBookHTTPTests", "an ISBN-13's check digit is checked"),
    Mutation("isbn10-check-digit", "Sources/WishlistCore/AddedBooks/ISBN.swift",
             "guard sum % 11 == 0 else", "guard sum % 11 >= 0 else",
             "ISBNTests", "an ISBN-10's check digit is checked"),
    Mutation("added-book-same-record", "Sources/WishlistCore/Catalog/CatalogStore.swift",
             "try AddedBookStore.merge(addedBooksOf: book, db)", "",
             "AddBookHTTPTests", "a list carrying an added book's ISBN later is the same book, wishes and all"),
    Mutation("added-book-no-generation", "Sources/WishlistCore/Storage/Migrations/19-any-book-and-covers.swift",
             "AFTER \\(event) ON book WHEN NEW.source = 'nyt'", "AFTER \\(event) ON book",
             "AddBookHTTPTests", "adding a book re-renders no cached page"),
    Mutation("lookup-listed-only", "Sources/WishlistCore/Catalog/CatalogStore.swift",
             "WHERE book_isbn.isbn IN (?, ?) AND book.source = 'nyt'", "WHERE book_isbn.isbn IN (?, ?)",
             "OwnerNeverKnowsTests|AddBookHTTPTests", "looking an ISBN up never tells what another member added"),
    Mutation("lookup-spacing", "Sources/WishlistCore/AddedBooks/OpenLibrary/OpenLibraryClient.swift",
             "next = turn + interval", "next = turn",
             "LookupHTTPTests", "at most one request a second to Open Library"),
    Mutation("lookup-outage-pause", "Sources/WishlistCore/AddedBooks/OpenLibrary/OpenLibraryClient.swift",
             "since.duration(to: .now) < Self.outagePause", "since.duration(to: .now) < .zero",
             "LookupHTTPTests", "a failed Open Library is not asked again for a while"),
    Mutation("lookup-user-agent", "Sources/WishlistCore/Catalog/NYT/CurlHTTPClient.swift",
             'static let userAgent = "BestsellerWishlist/\\(ServerFacts.version) (self-hosted; libcurl)"', 'static let userAgent = "libcurl"',
             "LookupHTTPTests", "Open Library is sent a User-Agent naming the app"),
    Mutation("cover-size-limit", "Sources/WishlistCore/Covers/CoverFetcher.swift",
             "package static let maximumBytes = 5 * 1024 * 1024", "package static let maximumBytes = 64 * 1024 * 1024",
             "CoverHTTPTests", "a cover is at most 5 MB"),
    Mutation("cover-placeholder-uncached", "Sources/WishlistWeb/Controllers/CoversController.swift",
             '.cacheControl: "no-cache"]', '.cacheControl: "public, max-age=31536000, immutable"]',
             "CoverHTTPTests", "a cover not fetched yet is asked for again, not cached"),
    Mutation("cover-lru", "Sources/WishlistCore/Covers/CoverCache.swift",
             "state.lastUse.min(by: { $0.value < $1.value })", "state.lastUse.max(by: { $0.value < $1.value })",
             "CoverHTTPTests", "past the cache's size the covers least recently shown go"),
    Mutation("csp-images-ours", "Sources/WishlistWeb/Middleware/SecurityHeadersMiddleware.swift",
             "img-src 'self' data:;", "img-src 'self' https: data:;",
             "WebShellTests", "no page asks another site for a picture"),
    Mutation("reading-unpaged", "Sources/WishlistCore/Reading/ReadingStore.swift",
             "PagedList<Reading>.size, PagedList<Reading>.offset(number)", "Int.max, PagedList<Reading>.offset(number)",
             "ProfileHTTPTests", "books read come a hundred a page, on Books I've read and on a member's page"),
]


def run(command: list[str], log) -> int:
    return subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode


def main() -> int:
    wanted = {name.strip() for name in os.environ.get("MUTANTS", "").split(",") if name.strip()}
    mutations = [m for m in MUTATIONS if not wanted or m.name in wanted]
    out = ROOT / ".build" / "mutants"
    out.mkdir(parents=True, exist_ok=True)
    rows, survivors = [], []
    for mutation in mutations:
        path = ROOT / mutation.file
        original = path.read_text(encoding="utf-8")
        if original.count(mutation.find) != 1:
            print(f"{mutation.name}: the line to flip is not in {mutation.file} exactly once; update scripts/mutants.py", file=sys.stderr)
            return 2
        started = time.monotonic()
        with open(out / f"{mutation.name}.log", "w") as log:
            try:
                path.write_text(original.replace(mutation.find, mutation.replace), encoding="utf-8")
                if run(["swift", "build", "--build-tests"], log) != 0:
                    verdict = "caught by the compiler"
                else:
                    passed = run(["swift", "test", "--skip-build", "--filter", mutation.tests], log) == 0
                    verdict = "SURVIVED" if passed else "caught"
            finally:
                path.write_text(original, encoding="utf-8")
        if verdict == "SURVIVED":
            survivors.append(mutation.name)
        rows.append(f"| {mutation.name} | {mutation.promise} | `{mutation.file}` | `{mutation.tests}` | {verdict} | {time.monotonic() - started:.0f} s |")
        print(rows[-1], flush=True)
    run(["swift", "build", "--build-tests"], open(out / "restore.log", "w"))
    table = "\n".join(["| mutation | promise | file | tests run | verdict | time |", "|---|---|---|---|---|---|", *rows])
    (out / "table.md").write_text(table + "\n", encoding="utf-8")
    print(f"\n{len(rows) - len(survivors)} caught, {len(survivors)} survived" + (f": {', '.join(survivors)}" if survivors else ""))
    print(f"table: {out / 'table.md'}; logs beside it")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
