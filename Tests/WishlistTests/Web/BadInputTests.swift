import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// The bad-input sweep: every form field and route parameter, sent empty, over-long (10,000
/// characters and 1 MB), as invalid UTF-8, with a NUL byte, with a broken escape, as the wrong type,
/// twice, with unknown ids, and every route with the wrong methods. Each must get a 4xx HTML page
/// with a sentence saying what went wrong, never a 500, and must leave the database as it was.
///
/// Where an empty value is a legitimate request (clearing a note, the optional e-mail address, "the
/// catalog" as start page, no `return_to`/`next`), it is not sent as a bad value; where a route
/// deliberately replaces a bad display parameter with its default rather than refusing it
/// (`/login?next=`, `/settings?done=`), the test says so and checks the fallback instead.
@Suite("Bad input: a 4xx page that says why, never a 500, nothing changed", .removesTemporaryDirectories)
struct BadInputTests {
    // MARK: Bad values

    /// A value as it goes on the wire (already percent-encoded where it matters), with a name for messages.
    struct Bad: Sendable {
        let label: String
        let encoded: String
    }

    static let megabyte = String(repeating: "m", count: 1 << 20)

    /// What every text field and query parameter gets.
    static func badValues(includingEmpty: Bool) -> [Bad] {
        var values = [
            Bad(label: "over-long (10,000 characters)", encoded: String(repeating: "y", count: 10_000)),
            Bad(label: "over-long (1 MB)", encoded: megabyte),
            Bad(label: "invalid UTF-8", encoded: "%FF%FEab"),
            Bad(label: "lone UTF-8 continuation byte", encoded: "ab%80"),
            Bad(label: "UTF-8 surrogate", encoded: "%ED%A0%80"),
            Bad(label: "NUL byte", encoded: "a%00b"),
            Bad(label: "other control character", encoded: "a%1Bb"),
            Bad(label: "broken %-escape", encoded: "ab%4"),
        ]
        if includingEmpty { values.insert(Bad(label: "empty", encoded: ""), at: 0) }
        return values
    }

    /// What every route parameter that names something (a list, a book, an item) gets.
    static let badIDs: [Bad] = [
        Bad(label: "empty-looking", encoded: "%20"),
        Bad(label: "over-long (10,000 characters)", encoded: String(repeating: "9", count: 10_000)),
        Bad(label: "over-long (1 MB)", encoded: megabyte),
        Bad(label: "invalid UTF-8", encoded: "%FF%FE"),
        Bad(label: "NUL byte", encoded: "1%002"),
        Bad(label: "markup", encoded: "%3Cscript%3E"),
        Bad(label: "path traversal", encoded: "..%2F..%2Fetc%2Fpasswd"),
        Bad(label: "SQL", encoded: "1%27%20OR%20%271%27%3D%271"),
        Bad(label: "negative number", encoded: "-1"),
        Bad(label: "zero", encoded: "0"),
        Bad(label: "fraction", encoded: "1.5"),
        Bad(label: "beyond Int64", encoded: "99999999999999999999999"),
        Bad(label: "hexadecimal", encoded: "0x10"),
        Bad(label: "unknown number", encoded: "987654"),
        Bad(label: "unknown 13-digit id", encoded: "9999999999999"),
        Bad(label: "word", encoded: "no-such-thing"),
    ]

    static let wrongMethods: [HTTPRequest.Method] = [.put, .delete, .patch]

    // MARK: The app under test

    /// The signed-in user's data that the bad requests aim at, and another user's item.
    struct Fixture: Sendable {
        let books: [String]
        let item: Int64
        let otherUsersItem: Int64
    }

    static let password = "correct horse battery"

    /// An app with "owner" signed in (two wishlist items, one with a note, a favourite list, a start
    /// page) and "other" with an item of their own; `body` gets owner's browser.
    static func withOwner(_ body: @Sendable (inout TestBrowser, Fixture, WishlistServer) async throws -> Void) async throws {
        let server = try await TestApp.build()
        let books = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
        try await TestApp.run(server) { browser in
            var other = TestBrowser(client: browser.client)
            #expect(try await other.signUp("other").status == .seeOther)
            #expect(try await other.post("/wishlist", [("book", books[2]), ("return_to", "/wishlist")]).status == .seeOther)

            #expect(try await browser.signUp("owner").status == .seeOther)
            for book in books.prefix(2) {
                #expect(try await browser.post("/wishlist", [("book", book), ("return_to", "/wishlist")]).status == .seeOther)
            }
            let ids = try await server.database.pool.read { db in
                try Int64.fetchAll(db, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id ORDER BY username, wishlist_item.id")
            }
            let fixture = Fixture(books: books, item: ids[1], otherUsersItem: ids[0])
            #expect(try await browser.post("/wishlist/\(fixture.item)", [("note", "A gift for May.")]).status == .seeOther)
            #expect(try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")]).status == .seeOther)
            #expect(try await browser.post("/settings/default-list", [("list", "hardcover-fiction")]).status == .seeOther)
            try await browser.get("/settings")
            try await body(&browser, fixture, server)
        }
    }

    /// Everything a request could change, as text: every table but the throttle's event log (a
    /// refused sign-in is meant to count) and the sessions' last-seen times.
    static func snapshot(_ server: WishlistServer) async throws -> String {
        try await server.database.pool.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                AND name NOT LIKE 'book_search%' AND name != 'throttle_event' ORDER BY name
                """)
            var text = ""
            for table in tables {
                let sql = table == "session"
                    ? "SELECT id, user_id, token_hash, created_at, user_agent FROM session"
                    : "SELECT * FROM \"\(table)\""
                text += "\(table):\n" + (try Row.fetchAll(db, sql: sql)).map(\.description).joined(separator: "\n") + "\n"
            }
            return text
        }
    }

    /// The sentence a page gives for what went wrong: the error page's message, a form's alert, or
    /// the error beside a field.
    static func message(in page: String) -> String? {
        let patterns = [
            #/<p class="error-message">([^<]+)</p>/#,
            #/class="error-summary-list">\s*<li><a href="[^"]*">([^<]+)</a>/#,
            #/<span class="visually-hidden">Error: </span>([^<]+)</p>/#,
        ]
        for pattern in patterns {
            if let found = page.firstMatch(of: pattern) {
                return String(found.1).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// Sends one bad request and checks the answer and the database.
    static func expectRefused(
        _ label: String, _ browser: inout TestBrowser, server: WishlistServer,
        _ path: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await snapshot(server)
        var headers = headers
        if body != nil, headers[.contentType] == nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await browser.send(path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let what = "\(method) \(path.prefix(80))\(path.count > 80 ? "…" : ""): \(label)"
        #expect((400..<500).contains(response.status.code), "\(what) answered \(response.status.code)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(what) is not an HTML page", sourceLocation: sourceLocation)
        let sentence = message(in: response.text)
        #expect((sentence?.count ?? 0) >= 15, "\(what) gives no clear message (found \(sentence ?? "none"))", sourceLocation: sourceLocation)
        #expect(try await snapshot(server) == before, "\(what) changed the database", sourceLocation: sourceLocation)
    }

    // MARK: Forms

    /// One form: where it posts, a valid value for each field, the fields for which empty is a
    /// legitimate value, and values of the wrong kind for some fields.
    struct Form {
        let path: String
        let fields: [(String, String)]
        var optional: Set<String> = []
        var wrongTypes: [String: [String]] = [:]
    }

    /// Every field with every bad value (the others valid), every field twice, a missing required
    /// field, and the CSRF token missing, wrong, twice, or the body in another format.
    static func sweep(_ form: Form, _ browser: inout TestBrowser, server: WishlistServer, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
        func encode(_ fields: [(String, String)], token: String?) -> String {
            let valid = formEncode(fields)
            guard let token else { return valid }
            return (valid.isEmpty ? "" : valid + "&") + "csrf_token=" + token
        }
        try await browser.refreshCSRFToken()
        let token = browser.csrfToken
        for (index, (name, _)) in form.fields.enumerated() {
            var cases = badValues(includingEmpty: !form.optional.contains(name)).map { ($0.label, $0.encoded) }
            cases += (form.wrongTypes[name] ?? []).map { ("wrong type \"\($0.prefix(30))\"", formEncode([("", $0)]).dropFirst().description) }
            for (label, encoded) in cases {
                var others = form.fields
                others.remove(at: index)
                let body = (others.isEmpty ? "" : formEncode(others) + "&") + "\(name)=\(encoded)&csrf_token=\(token)"
                try await expectRefused("field \(name) \(label)", &browser, server: server, form.path, method: .post, body: body, sourceLocation: sourceLocation)
            }
            try await expectRefused(
                "field \(name) twice", &browser, server: server, form.path, method: .post,
                body: encode(form.fields + [form.fields[index]], token: token), sourceLocation: sourceLocation
            )
            if !form.optional.contains(name) {
                var others = form.fields
                others.remove(at: index)
                try await expectRefused("field \(name) missing", &browser, server: server, form.path, method: .post, body: encode(others, token: token), sourceLocation: sourceLocation)
            }
        }
        try await expectRefused("no CSRF token", &browser, server: server, form.path, method: .post, body: encode(form.fields, token: nil), sourceLocation: sourceLocation)
        let wrongToken = (token.first == "A" ? "B" : "A") + token.dropFirst()
        try await expectRefused("wrong CSRF token", &browser, server: server, form.path, method: .post, body: encode(form.fields, token: wrongToken), sourceLocation: sourceLocation)
        try await expectRefused("CSRF token twice", &browser, server: server, form.path, method: .post, body: encode(form.fields, token: token) + "&csrf_token=" + token, sourceLocation: sourceLocation)
        try await expectRefused("empty body", &browser, server: server, form.path, method: .post, body: "", sourceLocation: sourceLocation)
        try await expectRefused(
            "JSON instead of a form", &browser, server: server, form.path, method: .post, headers: [.contentType: "application/json"],
            body: #"{"csrf_token":"\#(token)"}"#, sourceLocation: sourceLocation
        )
        try await expectRefused(
            "no content type", &browser, server: server, form.path, method: .post, headers: [.contentType: ""],
            body: encode(form.fields, token: token), sourceLocation: sourceLocation
        )
    }

    @Test func signInForm() async throws {
        try await Self.withOwner { owner, _, server in
            var browser = TestBrowser(client: owner.client)
            try await browser.get("/login")
            try await Self.sweep(
                Form(path: "/login", fields: [("username", "owner"), ("password", Self.password), ("next", "/wishlist")], optional: ["next"]),
                &browser, server: server
            )
        }
    }

    @Test func signUpForm() async throws {
        try await Self.withOwner { owner, _, server in
            var browser = TestBrowser(client: owner.client)
            try await browser.get("/signup")
            try await Self.sweep(
                Form(
                    path: "/signup",
                    fields: [("username", "newcomer"), ("email", "new@example.org"), ("password", Self.password), ("password_confirm", Self.password)],
                    optional: ["email"],
                    wrongTypes: ["username": ["owner", "OWNER", "a b c", "<b>x</b>", "ab"], "email": ["not-an-address", "@", "two@@example.org"]]
                ),
                &browser, server: server
            )
        }
    }

    @Test func wishlistForms() async throws {
        try await Self.withOwner { browser, fixture, server in
            try await Self.sweep(
                Form(
                    path: "/wishlist", fields: [("book", fixture.books[5]), ("return_to", "/wishlist")], optional: ["return_to"],
                    wrongTypes: ["book": ["abc", "-1", "9999999999999", "1.5e3", "<script>", "' OR '1'='1", "978-1-2345-6789-7"]]
                ),
                &browser, server: server
            )
            try await Self.sweep(
                Form(
                    path: "/wishlist/\(fixture.item)", fields: [("note", "A new note."), ("priority", "high")], optional: ["note", "priority"],
                    wrongTypes: ["priority": ["urgent", "HIGH", "1", "high ", "<script>"]]
                ),
                &browser, server: server
            )
            try await Self.sweep(Form(path: "/wishlist/\(fixture.item)/delete", fields: []), &browser, server: server)
            try await Self.sweep(
                Form(path: "/lists/hardcover-fiction/favorite", fields: [("return_to", "/lists")], optional: ["return_to"]),
                &browser, server: server
            )
        }
    }

    @Test func settingsForms() async throws {
        try await Self.withOwner { browser, _, server in
            try await Self.sweep(
                Form(
                    path: "/settings/default-list", fields: [("list", "hardcover-nonfiction")], optional: ["list"],
                    wrongTypes: ["list": ["no-such-list", "Hardcover Fiction", "<script>", "1", "hardcover-fiction/../x"]]
                ),
                &browser, server: server
            )
            try await Self.sweep(
                Form(
                    path: "/settings/password",
                    fields: [("current_password", Self.password), ("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")],
                    wrongTypes: ["current_password": ["wrong password"], "new_password": ["short"], "new_password_confirm": ["something else"]]
                ),
                &browser, server: server
            )
            try await Self.sweep(
                Form(path: "/settings/delete-account", fields: [("password", "not the password")]), &browser, server: server
            )
            try await Self.sweep(Form(path: "/settings/sessions/sign-out-others", fields: []), &browser, server: server)
            try await Self.sweep(Form(path: "/logout", fields: []), &browser, server: server)
        }
    }

    /// The household's and the admin's forms. `return_to` is left out where a bad one is replaced
    /// by a safe default rather than refused (see `returnPathsFallBackToThisSite`).
    @Test func householdAndAdminForms() async throws {
        try await Self.withOwner { browser, fixture, server in
            let ids = try await server.database.pool.read { db in
                (try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'owner'")!,
                 try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'other'")!)
            }
            try await HouseholdStore(database: server.database).setSharing(userID: ids.1, .household)
            try await Self.sweep(
                Form(path: "/settings/sharing", fields: [("sharing", "household")], wrongTypes: ["sharing": ["everyone", "Private", "1", "household "]]),
                &browser, server: server
            )
            try await Self.sweep(Form(path: "/settings/share-link", fields: []), &browser, server: server)
            try await Self.sweep(Form(path: "/settings/share-link/delete", fields: []), &browser, server: server)
            try await Self.sweep(
                Form(
                    path: "/reservations", fields: [("item", "\(fixture.otherUsersItem)")],
                    wrongTypes: ["item": ["abc", "-1", "0", "\(fixture.item)", "999999", "1.5", "<script>"]]
                ),
                &browser, server: server
            )
            #expect(try await browser.post("/reservations", [("item", "\(fixture.otherUsersItem)")]).status == .seeOther)
            try await Self.sweep(Form(path: "/reservations/\(fixture.otherUsersItem)/delete", fields: []), &browser, server: server)

            try await Administration(database: server.database, clock: .system).setAdmin(true, username: "owner")
            try await Self.sweep(Form(path: "/admin/invites", fields: []), &browser, server: server)
            for action in ["disable", "enable", "delete", "reset-link"] {
                try await Self.sweep(Form(path: "/admin/users/\(ids.1)/\(action)", fields: []), &browser, server: server)
            }
            let token = try await PasswordResetLinks(database: server.database, clock: .system)
                .create(userID: ids.1, by: Administration.Actor(userID: ids.0, username: "owner"))
            try await Self.sweep(
                Form(
                    path: "/reset/\(token)", fields: [("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")],
                    wrongTypes: ["new_password": ["short"], "new_password_confirm": ["something else"]]
                ),
                &browser, server: server
            )
        }
    }

    /// Values that are read but replaced by a safe default rather than refused, by design: a broken
    /// `next` must not stop anyone signing in, and it must never lead off the site.
    @Test func returnPathsFallBackToThisSite() async throws {
        try await Self.withOwner { browser, fixture, server in
            for next in ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "%FF", "a%00b"] {
                let response = try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", next)])
                if response.status == .seeOther {
                    #expect(response.location?.hasPrefix("/") == true && response.location?.hasPrefix("//") == false, "return_to \(next) led to \(response.location ?? "")")
                }
                var visitor = TestBrowser(client: browser.client)
                let page = try await visitor.get("/login?next=" + next)
                #expect(page.status == .ok, "/login?next=\(next) answered \(page.status)")
                #expect(!page.text.contains("evil.example"), "/login?next=\(next) keeps an off-site address")
            }
            let before = try await Self.snapshot(server)
            let page = try await browser.get("/settings/sign-in?done=%FF%00no-such-confirmation")
            #expect(page.status == .ok && !page.text.contains("no-such-confirmation"), "an unknown confirmation shows nothing")
            #expect(try await Self.snapshot(server) == before)
            _ = fixture
        }
    }

    // MARK: The upload

    static func multipart(_ parts: [(name: String, filename: String?, body: [UInt8])], boundary: String = "XyZboundary") -> ByteBuffer {
        var buffer = ByteBuffer()
        for part in parts {
            buffer.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"")
            if let filename = part.filename { buffer.writeString("; filename=\"\(filename)\"\r\nContent-Type: text/csv") }
            buffer.writeString("\r\n\r\n")
            buffer.writeBytes(part.body)
            buffer.writeString("\r\n")
        }
        buffer.writeString("--\(boundary)--\r\n")
        return buffer
    }

    @Test func goodreadsImport() async throws {
        try await Self.withOwner { browser, _, server in
            let token = Array(browser.csrfToken.utf8)
            let csv = { (text: String) in Array(text.utf8) }
            let header = "Title,Author,ISBN13,Exclusive Shelf\n"
            let files: [(String, [UInt8])] = [
                ("an empty file", []),
                ("invalid UTF-8", [0xFF, 0xFE, 0x41, 0x2C, 0x42]),
                ("a NUL byte in a title", csv(header) + csv("A") + [0] + csv("B,Someone,,to-read\n")),
                ("no Title column", csv("Author,Shelf\nSomeone,to-read\n")),
                ("an unterminated quote", csv(header + "\"Open,Someone,,to-read\n")),
                ("too many fields in a row", csv(header + "A,B,C,to-read,extra,more\n")),
                ("1 MB of one line", Array(Self.megabyte.utf8)),
                ("binary data", (0..<4096).map { UInt8($0 % 256) }),
                ("over 20 MiB", Array(repeating: UInt8(ascii: "a"), count: 20 * 1024 * 1024 + 10)),
                ("a title of 1 MB", csv(header) + Array(Self.megabyte.utf8) + csv(",Someone,,to-read\n")),
                ("an escape character in an author", csv(header + "A Title,Some\u{1B}one,,to-read\n")),
            ]
            for (label, file) in files {
                try await Self.expectRefusedUpload(label, &browser, server: server, Self.multipart([("csrf_token", nil, token), ("file", "export.csv", file)]))
            }
            // A readable file whose rows are all left out is not refused whole: the answer (200)
            // lists each skipped row and why, and adds nothing.
            let before = try await Self.snapshot(server)
            let skipped = try await browser.send(
                "/wishlist/import", method: .post, headers: [.contentType: "multipart/form-data; boundary=XyZboundary"],
                body: Self.multipart([("csrf_token", nil, token), ("file", "export.csv", csv(header + ",Someone,,to-read\nAbandoned,Someone,,currently-reading\n"))])
            )
            #expect(skipped.status == .ok && skipped.shows("on the “currently-reading” shelf, neither “to-read” nor “read”"), "rows left out: \(skipped.status)")
            #expect(try await Self.snapshot(server) == before, "rows left out changed the database")

            let oneRow = csv(header + "A Title,Someone,,to-read\n")
            try await Self.expectRefusedUpload("no file part", &browser, server: server, Self.multipart([("csrf_token", nil, token)]))
            try await Self.expectRefusedUpload("the file as a text field", &browser, server: server, Self.multipart([("csrf_token", nil, token), ("file", nil, oneRow)]))
            try await Self.expectRefusedUpload("no CSRF token", &browser, server: server, Self.multipart([("file", "export.csv", oneRow)]))
            try await Self.expectRefusedUpload("wrong CSRF token", &browser, server: server, Self.multipart([("csrf_token", nil, csv(token.first == UInt8(ascii: "x") ? "y" : "x") + token.dropFirst()), ("file", "export.csv", oneRow)]))
            try await Self.expectRefusedUpload("the CSRF token as a file", &browser, server: server, Self.multipart([("csrf_token", "token.txt", token), ("file", "export.csv", oneRow)]))
            try await Self.expectRefusedUpload("the file twice", &browser, server: server, Self.multipart([("csrf_token", nil, token), ("file", "a.csv", oneRow), ("file", "b.csv", oneRow)]))
            try await Self.expectRefusedUpload("the CSRF token twice", &browser, server: server, Self.multipart([("csrf_token", nil, token), ("csrf_token", nil, token), ("file", "a.csv", oneRow)]))
            try await Self.expectRefusedUpload("no closing boundary", &browser, server: server, ByteBuffer(string: "--XyZboundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nabc"))
            try await Self.expectRefusedUpload("another boundary than declared", &browser, server: server, Self.multipart([("csrf_token", nil, token), ("file", "a.csv", oneRow)], boundary: "Other"))
            try await Self.expectRefusedUpload(
                "21 parts", &browser, server: server,
                Self.multipart([("csrf_token", nil, token)] + (0..<20).map { ("extra\($0)", nil, csv("x")) } + [("file", "a.csv", oneRow)])
            )
            for contentType in ["multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=XyZboundary"] {
                try await Self.expectRefused(
                    "Content-Type \(contentType)", &browser, server: server, "/wishlist/import", method: .post,
                    headers: [.contentType: contentType], body: String(buffer: Self.multipart([("csrf_token", nil, token), ("file", "a.csv", oneRow)]))
                )
            }
        }
    }

    static func expectRefusedUpload(
        _ label: String, _ browser: inout TestBrowser, server: WishlistServer, _ body: ByteBuffer,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await snapshot(server)
        let response = try await browser.send(
            "/wishlist/import", method: .post, headers: [.contentType: "multipart/form-data; boundary=XyZboundary"], body: body
        )
        let what = "POST /wishlist/import: \(label)"
        #expect((400..<500).contains(response.status.code), "\(what) answered \(response.status.code)", sourceLocation: sourceLocation)
        let sentence = message(in: response.text)
        #expect((sentence?.count ?? 0) >= 15, "\(what) gives no clear message (found \(sentence ?? "none"))", sourceLocation: sourceLocation)
        #expect(try await snapshot(server) == before, "\(what) changed the database", sourceLocation: sourceLocation)
    }

    // MARK: Route and query parameters

    @Test func readingAndProfileForms() async throws {
        try await Self.withOwner { browser, fixture, server in
            let book = fixture.books[0]
            try await Self.sweep(
                Form(
                    path: "/books/\(book)/reading",
                    fields: [("rating", "4"), ("review", "Good."), ("finished", "2026-01-02"), ("remove_from_wishlist", "yes"), ("return_to", "/reading")],
                    optional: ["rating", "review", "finished", "remove_from_wishlist", "return_to"],
                    wrongTypes: [
                        "rating": ["0", "6", "4.5", "four", "-1"], "finished": ["yesterday", "2026-02-30", "02/01/2026", "9999-12-31"],
                        "remove_from_wishlist": ["no", "on", "YES"],
                    ]
                ),
                &browser, server: server
            )
            #expect(try await browser.post("/books/\(book)/reading", [("rating", "3")]).status == .seeOther)
            try await Self.sweep(Form(path: "/books/\(book)/reading/delete", fields: [("return_to", "/reading")], optional: ["return_to"]), &browser, server: server)
            try await Self.sweep(
                Form(
                    path: "/settings/profile", fields: [("bio", "Hello."), ("birthday_month", "3"), ("birthday_day", "14")],
                    optional: ["bio", "birthday_month", "birthday_day"],
                    wrongTypes: ["birthday_month": ["13", "0", "March", "3.0"], "birthday_day": ["32", "0", "first"]]
                ),
                &browser, server: server
            )
            try await Self.sweep(Form(path: "/settings/profile/picture/delete", fields: []), &browser, server: server)
        }
    }

    @Test func routeParameters() async throws {
        try await Self.withOwner { browser, fixture, server in
            for bad in Self.badIDs {
                for path in [
                    "/lists/\(bad.encoded)", "/books/\(bad.encoded)", "/wishlist/\(bad.encoded)", "/wishlist/\(bad.encoded)/remove",
                    "/people/\(bad.encoded)", "/shared/\(bad.encoded)", "/reset/\(bad.encoded)", "/books/\(bad.encoded)/reading",
                    "/pictures/\(bad.encoded)", "/pictures/\(bad.encoded)-256.jpg", "/authors/\(bad.encoded)",
                ] {
                    try await Self.expectRefused("id \(bad.label)", &browser, server: server, path)
                }
                try await browser.refreshCSRFToken()
                let token = "csrf_token=" + browser.csrfToken
                for (path, body) in [
                    ("/wishlist/\(bad.encoded)", "note=x&" + token), ("/wishlist/\(bad.encoded)/delete", token),
                    ("/lists/\(bad.encoded)/favorite", "return_to=%2Flists&" + token),
                    ("/reservations/\(bad.encoded)/delete", token), ("/reservations/notices/\(bad.encoded)/dismiss", token),
                    ("/reset/\(bad.encoded)", "new_password=long+enough+1&new_password_confirm=long+enough+1&" + token),
                    ("/books/\(bad.encoded)/reading", "rating=4&" + token), ("/books/\(bad.encoded)/reading/delete", token),
                    ("/authors/\(bad.encoded)/follow", token),
                ] {
                    try await Self.expectRefused("id \(bad.label)", &browser, server: server, path, method: .post, body: body)
                }
            }
            // Another user's item is as unknown as a missing one.
            let other = fixture.otherUsersItem
            try await browser.refreshCSRFToken()
            let token = "csrf_token=" + browser.csrfToken
            for path in ["/wishlist/\(other)", "/wishlist/\(other)/remove"] {
                try await Self.expectRefused("another user's item", &browser, server: server, path)
            }
            try await Self.expectRefused("another user's item", &browser, server: server, "/wishlist/\(other)", method: .post, body: "note=mine&" + token)
            try await Self.expectRefused("another user's item", &browser, server: server, "/wishlist/\(other)/delete", method: .post, body: token)
        }
    }

    @Test func queryParameters() async throws {
        try await Self.withOwner { browser, _, server in
            let pages = [
                ("/lists", "q", false), ("/search", "q", false), ("/lists/hardcover-fiction", "sort", false), ("/wishlist", "sort", false),
                ("/reading", "sort", false), ("/search", "list", false), ("/search", "sort", false),
                ("/books/new/shared", "title", false), ("/books/new/shared", "text", false), ("/books/new/shared", "url", false),
            ]
            for (path, name, emptyIsBad) in pages {
                for bad in Self.badValues(includingEmpty: emptyIsBad) {
                    try await Self.expectRefused("\(name) \(bad.label)", &browser, server: server, "\(path)?\(name)=\(bad.encoded)")
                }
                try await Self.expectRefused("\(name) twice", &browser, server: server, "\(path)?\(name)=a&\(name)=b")
            }
            for (path, value) in [
                ("/lists/hardcover-fiction", "price"), ("/lists/hardcover-fiction", "RANK"), ("/lists/hardcover-fiction", "pages"), ("/wishlist", "price"),
                ("/wishlist", "1"), ("/reading", "pages"), ("/search?q=a&list=x", "title"), ("/search?q=a&list=hardcover-fiction", "length"),
            ] {
                try await Self.expectRefused("sort \(value)", &browser, server: server, "\(path)?sort=\(value)")
            }
            try await Self.expectRefused("a broken query string", &browser, server: server, "/search?q=%")
        }
    }

    // MARK: Methods

    @Test func wrongMethods() async throws {
        try await Self.withOwner { browser, fixture, server in
            let item = fixture.item
            let getOnly = [
                "/", "/healthz", "/lists", "/lists/hardcover-fiction", "/books/\(fixture.books[0])", "/search?q=a",
                "/wishlist.csv", "/wishlist/\(item)/remove", "/settings", "/people", "/people/other", "/reading", "/pictures/AAAAAAAAAAAAAAAA-64.jpg",
                "/authors/someone", "/books/new/shared",
            ]
            let postOnly = [
                "/logout", "/lists/hardcover-fiction/favorite", "/wishlist/import", "/wishlist/\(item)/delete",
                "/settings/default-list", "/settings/sessions/sign-out-others", "/settings/export", "/settings/delete-account",
                "/settings/share-link", "/settings/share-link/delete", "/reservations/\(item)/delete",
                "/books/\(fixture.books[0])/reading/delete", "/settings/profile/picture", "/settings/profile/picture/delete",
                "/books/new/scan", "/authors/someone/follow",
            ]
            // A Settings page whose main form posts to the page itself (docs/decisions/settings-in-sections.md).
            let both = [
                "/login", "/signup", "/wishlist", "/wishlist/\(item)", "/reservations", "/books/\(fixture.books[0])/reading", "/settings/profile",
                "/settings/password", "/settings/sharing",
            ]
            for path in getOnly + postOnly + both {
                for method in Self.wrongMethods {
                    try await Self.expectRefused("\(method)", &browser, server: server, path, method: method, body: "csrf_token=" + browser.csrfToken)
                }
            }
            for path in postOnly {
                try await Self.expectRefused("GET on a form's address", &browser, server: server, path)
            }
            try await browser.refreshCSRFToken()
            for path in getOnly {
                try await Self.expectRefused("POST to a page", &browser, server: server, path, method: .post, body: "csrf_token=" + browser.csrfToken)
            }
        }
    }

    // MARK: What is sent back

    /// A refused form shows what was typed, escaped: the scans do not attack sign-up's username
    /// (a success would end their session), so its reflection is checked here.
    @Test func reflectedInputIsEscaped() async throws {
        try await Self.withOwner { owner, fixture, server in
            let markup = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"
            var visitor = TestBrowser(client: owner.client)
            try await visitor.get("/signup")
            let signup = try await visitor.post("/signup", [("username", markup), ("email", markup), ("password", "x"), ("password_confirm", "y")])
            var signin = TestBrowser(client: owner.client)
            try await signin.get("/login")
            let login = try await signin.post("/login", [("username", markup), ("password", "wrong password"), ("next", "/")])
            let note = try await owner.post("/wishlist/\(fixture.item)", [("note", markup + String(repeating: "n", count: 2_100))])
            let search = try await owner.get("/search?q=" + formEncode([("", markup)]).dropFirst())
            let lists = try await owner.get("/lists?q=" + formEncode([("", markup)]).dropFirst())
            for (name, response) in [("sign-up", signup), ("sign-in", login), ("note", note), ("search", search), ("lists", lists)] {
                #expect(!response.text.contains("<script>alert(1)"), "\(name) reflects markup unescaped")
                #expect(!response.text.contains("<img src=x"), "\(name) reflects markup unescaped")
                #expect(response.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(name) does not show what was typed")
            }
            #expect(note.status == .unprocessableContent)
            _ = server
        }
    }
}
