import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 55: a path is written once, in the route table. The views take their links and forms'
/// targets from it (`paths.…`, or a `…_path` value printed with ``SitePath``), and the core's
/// mail and single sign-on are given theirs (``MailPaths``), so a renamed route cannot leave a
/// link behind that leads nowhere.
@Suite("Links print from the route table")
struct PrintedLinksTests {
    /// Files served as they are, not routes: the layout links the web app's manifest by its name.
    static let staticFiles: Set<String> = ["/" + StaticFiles.manifestName]

    /// The internal paths a template writes itself in a link or a form's target: `href="/…"`.
    static func hardWrittenLinks(in template: String) -> [String] {
        template.matches(of: /(?:href|action|formaction)\s*=\s*["']?(\/(?!\/)[^"'\s>]*)/).map { String($0.1) }
    }

    @Test func noViewWritesAnInternalPathOfItsOwn() throws {
        let views = repositoryRoot.appendingPathComponent("Views")
        let files = try #require(FileManager.default.enumerator(atPath: views.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
        #expect(files.count > 50, "the views were not found")
        var written: [String] = []
        for file in files.sorted() {
            let template = try String(contentsOf: views.appendingPathComponent(file), encoding: .utf8)
            written += Self.hardWrittenLinks(in: template).filter { !Self.staticFiles.contains($0) }.map { "\(file): \($0)" }
        }
        #expect(written.isEmpty, "paths written in views rather than printed from the route table: \(written)")
    }

    @Test func aPathInALinkOrAFormIsFoundAndAPrintedOneIsNot() {
        #expect(Self.hardWrittenLinks(in: #"<a href="/lists/{{ x }}">"#) == ["/lists/{{"])
        #expect(Self.hardWrittenLinks(in: #"<form method="post" action='/wishlist'>"#) == ["/wishlist"])
        #expect(Self.hardWrittenLinks(in: #"<button formaction="/reservations">"#) == ["/reservations"])
        #expect(Self.hardWrittenLinks(in: #"<a href="{{ paths.wishlist }}?sort=title">"#).isEmpty)
        #expect(Self.hardWrittenLinks(in: ##"<a href="https://example.org/x"><a href="#note"><a href="//cdn.example/x">"##).isEmpty)
    }

    /// The start of a route's path before its first parameter, quoted as a Swift literal would
    /// begin: `"/verify-email/` for `/verify-email/{token}`; a whole path is followed by its end,
    /// a query or a further segment (`"/forgot"`, `"/signup?`).
    static func literals(of route: Route) -> [String] {
        let fixed = String(route.pattern.prefix { $0 != "{" })
        guard fixed.count > 1 else { return [] }
        return fixed.hasSuffix("/") || fixed != route.pattern ? ["\"" + fixed] : ["\"\(fixed)\"", "\"\(fixed)?", "\"\(fixed)/"]
    }

    /// The core has no HTTP: the site's paths its mail and single sign-on use come from the web
    /// layer's table, and none is spelled in its sources.
    @Test func theCoreSpellsNoPathOfTheSite() throws {
        let core = repositoryRoot.appendingPathComponent("Sources/WishlistCore")
        let files = try #require(FileManager.default.enumerator(atPath: core.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50, "the core's sources were not found")
        let literals = Set(Route.all.flatMap(Self.literals))
        var spelled: [String] = []
        for file in files.sorted() {
            let source = try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
            spelled += literals.filter(source.contains).sorted().map { "\(file): \($0)" }
        }
        #expect(spelled.isEmpty, "site paths the core writes itself (take them from the web layer's routes): \(spelled)")
    }

    /// The mail's paths are the routes' own.
    @Test func theMailsPathsAreTheRoutes() {
        #expect(SitePath.mail.verifyEmail("t") == Route.verifyEmail.path("t"))
        #expect(SitePath.mail.forgot == Route.forgotPage.path())
        #expect(SitePath.mail.passwordReset("t") == Route.passwordResetPage.path("t"))
        #expect(SitePath.mail.signUp("t") == Route.signUpPage.path() + "?invite=t")
        #expect(SitePath.mail.unsubscribe("t") == Route.unsubscribe.path("t"))
        #expect(SitePath.mail.book("b") == Route.book.path("b"))
        #expect(SitePath.mail.person("ana") == Route.person.path("ana"))
        #expect(SitePath.mail.personList("ana", ListID(3)) == Route.personList.path("ana", "3"))
    }
}
