import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Authors (issue 52): an author's page, with their books on the current lists and in the kept
/// history and what the household (the members who share) made of them, and following an author,
/// whose new books then show on `/lists`, in the weekly digest and in the authors feed.
struct AuthorsController {
    let database: AppDatabase
    let authors: AuthorStore
    let pages: PageRenderer
    let clock: WallClock

    func addRoutes(to routes: SiteRouter, loaders: PageLoaders) {
        routes.page(.author, loaders: loaders, database: database, read: { request, context, user, read in
            try Self.loadAuthorPage(request, context, user, read)
        }, respond: show)
        routes.add(.followAuthor, use: toggleFollowing)
    }

    static let unknownAuthor = PageError(
        .notFound, title: Translations.marked("Author not found"),
        message: Translations.marked("No book on the lists, now or in the history kept here, is by that name. Search finds the books on the lists by their authors.")
    )

    /// Worded in the visitor's language where they are shown.
    static let confirmations = [
        "followed": Translations.marked("You follow this author now: their new books show on the lists page, in your weekly digest and in your authors feed."),
        "unfollowed": Translations.marked("You no longer follow this author."),
    ]

    /// What an author's page shows, read in the session's transaction (``PageLoaders``).
    struct AuthorPageRead: Sendable {
        let key: String
        let name: String
        let books: [AuthorBook]
        let following: Bool
        let placements: [String: [Placement]]
        let standings: [String: BookStanding]
        let readers: [String: [AuthorReader]]
        /// The visitor's wishlist items of these books.
        let marks: [String: ItemID]
        let done: String?
    }

    static func loadAuthorPage(_ request: Request, _ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead) throws -> AuthorPageRead {
        let key = try Self.key(context)
        let found = try read.authors.books(key: key)
        let following = try read.authors.following(userID: user.userID, key: key)
        // An author followed before their books left the kept history still has a page, to unfollow.
        guard let name = found?.name ?? following?.name else { throw Self.unknownAuthor }
        let books = found?.books ?? []
        let ids = books.map(\.book.id)
        return AuthorPageRead(
            key: key, name: name, books: books, following: following != nil,
            placements: try read.catalog.placements(of: ids), standings: try read.reading.standings(of: ids),
            readers: try read.authors.readers(of: ids), marks: try read.wishlist.itemIDs(userID: user.userID, books: ids),
            done: try request.queryText("done")
        )
    }

    @Sendable func show(_ request: Request, context: AppRequestContext, page: AuthorPageRead) async throws -> Response {
        let returnTo = CatalogController.returnPath(request)
        let translations = context.visitor.translations
        let rows = page.books.map { Self.row($0, page: page, translations: translations) }
        var values: [String: TemplateValue] = [
            "author": [
                "name": .string(page.name), "path": .string(SitePath.author(page.key)), "follow_path": .string(SitePath.followAuthor(page.key)),
                "following": .bool(page.following),
            ],
            "current": .array(zip(page.books, rows).filter { $0.0.isOnACurrentList }.map(\.1)),
            "earlier": .array(zip(page.books, rows).filter { !$0.0.isOnACurrentList }.map(\.1)),
            "return_to": .string(returnTo),
        ]
        if let done = page.done.flatMap({ Self.confirmations[$0] }) { values["flash"] = ["kind": "success", "message": .string(translations.text(done))] }
        return try pages.render("authors/show.html", title: page.name, nav: "lists", for: context.visitor, values: values)
    }

    /// Follows the author, or stops; back to where the button was, at its confirmation.
    @Sendable func toggleFollowing(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let key = try Self.key(context)
        let (listed, followed) = try await database.pageRead { read in
            (try read.authors.books(key: key)?.name, try read.authors.following(userID: user.userID, key: key)?.name)
        }
        guard let name = listed ?? followed else { throw Self.unknownAuthor }
        let follows = try await authors.toggleFollowing(userID: user.userID, key: key, name: name, at: clock.now())
        return redirect(to: SitePath.author(key) + "?done=" + (follows ? "followed" : "unfollowed"))
    }

    /// The author's key from the path, whatever spelling it was written in: the page's own link
    /// ("brene-brown"), or a name typed by hand ("Brené Brown").
    static func key(_ context: AppRequestContext) throws -> String {
        let written = context.parameters.get("name") ?? ""
        guard written.utf8.count <= 600, let name = PercentEncoding.decoded(written) else { throw unknownAuthor }
        let key = AuthorKey.of(name)
        guard !key.isEmpty else { throw unknownAuthor }
        return key
    }

    /// A book of the author's as `partials/book-row.html` shows it, with its lists now, or when it
    /// was last on one, and who here read it.
    private static func row(_ authored: AuthorBook, page: AuthorPageRead, translations: Translations) -> TemplateValue {
        let id = authored.book.id
        guard case .dictionary(var row) = BookPresenter.bookRow(authored.book, listed: nil, wishlistItem: page.marks[id]) else { return .null }
        row["lists"] = .array((page.placements[id] ?? []).map(BookPresenter.placementValue))
        row["standing"] = ReadingPresenter.standingValue(page.standings[id])
        var notes: [String] = []
        if authored.role != .author { notes.append(Self.roleNote(authored.role, name: page.name, translations: translations)) }
        if !authored.isOnACurrentList, !authored.lastSeen.isEmpty {
            notes.append(translations.text("Last on a list {date}, at best #{rank}.", values: [
                "date": RankChart.longDate(authored.lastSeen, in: translations.language), "rank": String(authored.peak),
            ]))
        }
        row["notes"] = .array(notes.map(TemplateValue.string))
        row["readers"] = .array((page.readers[id] ?? []).map { reader in
            ["name": .string(reader.name), "path": .string(SitePath.person(reader.username)), "rating": reader.rating.map { .int($0) } ?? .null]
        })
        return .dictionary(row)
    }

    private static func roleNote(_ role: CreditedName.Role, name: String, translations: Translations) -> String {
        let values = ["name": name]
        return switch role {
        case .author: translations.text("By {name}.", values: values)
        case .illustrator: translations.text("Illustrated by {name}.", values: values)
        case .editor: translations.text("Edited by {name}.", values: values)
        case .translator: translations.text("Translated by {name}.", values: values)
        case .contributor: translations.text("With a contribution by {name}.", values: values)
        }
    }
}
