import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The catalog: all current lists, one list, one book, and search.
struct CatalogController {
    let database: AppDatabase
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    let wishlist: WishlistStore
    /// For "New from authors you follow" on the catalog.
    let authors: AuthorStore
    let pageCaches: PageCaches
    /// Behind HTTPS (`server.secureCookies`): the sort cookie gets `Secure` like every other cookie.
    var secureCookies = false
    /// Where a book page sends readers to borrow and buy it (`books.borrowLinks`, `books.buyLinks`).
    var links = BookLinkTemplates(borrow: [], buy: [])
    var charts = RankChartCache()
    /// The covers' files: a book page carries its cover in its HTML (``BookPresenter/inlineCover(_:)``).
    var covers: CoverCache?
    /// List pages' rows' "what the household thinks" lines, rendered once per figure.
    var standingLines = StandingLineCache()

    func addRoutes(to routes: SiteRouter, loaders: PageLoaders) {
        routes.add(.catalog, use: index)
        routes.page(.list, loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadListPage(request, context, user, read)
        }, respond: show)
        routes.add(.favoriteList, use: toggleFavorite)
        routes.page(.book, loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadBookPage(request, context, user, read)
        }, respond: book)
        routes.page(.search, loaders: loaders, database: database, read: { request, _, user, read in
            try Self.loadSearch(request, user, read)
        }, respond: search)
    }

    // MARK: Handlers

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let query = try request.queryText("q")
        let folded = Self.fold(query)
        let favorites = try await catalog.favoriteLists(userID: user.userID)
        let lists = try await catalog.currentLists().filter { folded.isEmpty || Self.fold($0.displayName).contains(folded) }
        let newThisWeek = favorites.isEmpty || !query.isEmpty ? [] : try await catalog.newOnFavoriteLists(userID: user.userID)
        let newFromAuthors = query.isEmpty ? try await authors.newFromFollowed(userID: user.userID) : []
        // A list just starred or unstarred shows its confirmation on its own card (issue 57).
        let cardFlash = try pages.cardFlash(context.visitor, cards: lists.map { Card.list($0.nameEncoded) })
        let values = { (list: ListSummary) -> TemplateValue in
            guard case .dictionary(var value) = BookPresenter.listValue(list, isFavorite: favorites.contains(list.nameEncoded)) else { return .null }
            value["card"] = .string(Card.list(list.nameEncoded))
            value["flash_html"] = cardFlash.flatMap { lists[$0.index].nameEncoded == list.nameEncoded ? $0.html : nil } ?? .null
            return .dictionary(value)
        }
        let others = lists.filter { !favorites.contains($0.nameEncoded) }
        return try pages.render(
            "lists/index.html", title: context.visitor.translations.text("Best-seller lists"), nav: "lists", for: cardFlash?.visitor ?? context.visitor,
            values: [
                "q": .string(query),
                "favorites": .array(lists.filter { favorites.contains($0.nameEncoded) }.map(values)),
                "weekly": .array(others.filter { $0.frequency == .weekly }.map(values)),
                "monthly": .array(others.filter { $0.frequency == .monthly }.map(values)),
                "no_match": .bool(lists.isEmpty && !query.isEmpty),
                "new_this_week": BookPresenter.newEntries(newThisWeek),
                "new_from_authors": BookPresenter.newFromAuthors(newFromAuthors),
                "return_to": .string(Self.returnPath(request)),
            ]
        )
    }
    @Sendable func toggleFavorite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let name = try Self.listName(context)
        // Read before the change: a refused field must leave the favourites as they were.
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.catalog)
        guard try await catalog.list(named: name) != nil else { throw Self.unknownList }
        let isFavorite = try await catalog.toggleFavorite(userID: user.userID, list: name, at: clock.now())
        return (isFavorite ? Flash.favorited : .unfavorited).redirect(to: LocalPath.atConfirmation(returnTo), card: Card.list(name), secure: secureCookies)
    }

    /// What the search page shows, read in the session's transaction (``PageLoaders``).
    struct SearchRead: Sendable {
        let query: String
        let list: String
        let sort: SearchSort
        let lists: [ListSummary]
        var found: [BookSummary] = []
        var placements: [String: [Placement]] = [:]
        /// The household's figures, which "how many want it" sorts by.
        var standings: [String: BookStanding] = [:]
        /// The same as the visitor reads them on each row: her own wishes not among them.
        var shownStandings: [String: BookStanding] = [:]
        /// The visitor's wishlist items of the books found.
        var marks: [String: ItemID] = [:]
    }

    /// The orders search offers: the catalog's, and the household's opinion.
    enum SearchSort: String, CaseIterable {
        case relevance, title, author, rating, wanted
    }

    static func loadSearch(_ request: Request, _ user: Visitor.SignedIn, _ read: PageRead) throws -> SearchRead {
        let query = try request.queryText("q")
        let list = try request.queryText("list")
        let requested = try request.queryText("sort")
        guard let sort = requested.isEmpty ? .relevance : SearchSort(rawValue: requested) else {
            throw PageError.badRequest(
                Translations.marked("Search results can be sorted by relevance, title, author, rating or how many here want a book; “{value}” is none of them."),
                values: ["value": String(requested.prefix(40))]
            )
        }
        let lists = try read.catalog.currentLists()
        guard list.isEmpty || lists.contains(where: { $0.nameEncoded == list }) else {
            throw PageError.badRequest(
                Translations.marked("There is no current list called “{list}” to search in. Choose one of the lists offered, or all of them."),
                values: ["list": String(list.prefix(60))]
            )
        }
        var page = SearchRead(query: query, list: list, sort: sort, lists: lists)
        guard !query.isEmpty else { return page }
        let order: CatalogStore.SearchOrder = switch sort {
        case .title: .title
        case .author: .author
        case .relevance, .rating, .wanted: .relevance
        }
        page.found = try read.catalog.search(query, list: list.isEmpty ? nil : list, order: order)
        let ids = page.found.map(\.id)
        page.placements = try read.catalog.placements(of: ids)
        page.standings = try read.reading.standings(of: ids)
        page.shownStandings = try read.reading.standings(page.standings, asSeenBy: user.userID)
        page.marks = try read.wishlist.itemIDs(userID: user.userID, books: ids)
        return page
    }

    @Sendable func search(_ request: Request, context: AppRequestContext, page: SearchRead) async throws -> Response {
        let results = Self.ordered(page.found, by: page.sort, standings: page.standings)
        let cardFlash = try pages.cardFlash(context.visitor, cards: results.map { Card.book($0.id) })
        let rows = results.enumerated().map { index, book -> TemplateValue in
            guard case .dictionary(var row) = BookPresenter.bookRow(book, listed: nil, wishlistItem: page.marks[book.id]) else { return .null }
            row["lists"] = .array((page.placements[book.id] ?? []).map(BookPresenter.placementValue))
            row["standing"] = ReadingPresenter.standingValue(page.shownStandings[book.id])
            if index == cardFlash?.index { row["flash_html"] = cardFlash!.html }
            return .dictionary(row)
        }
        let list = page.list
        let translations = context.visitor.translations
        let title = page.query.isEmpty
            ? translations.text("Search", context: "the page") : translations.text("Search: {query}", values: ["query": page.query])
        return try pages.render(
            "search/results.html", title: title, nav: "search", for: cardFlash?.visitor ?? context.visitor,
            values: [
                "q": .string(page.query), "searched": .bool(!page.query.isEmpty), "results": .array(rows),
                "list": .string(list), "sort": .string(page.sort.rawValue),
                "lists": .array(page.lists.map { ["value": .string($0.nameEncoded), "name": .string($0.displayName), "selected": .bool($0.nameEncoded == list)] }),
                "sorts": .array(Self.searchSortChoices(page.sort, in: translations)),
                "return_to": .string(Self.returnPath(request)),
            ]
        )
    }

    /// Results in the household's order where that was asked for; ties keep relevance.
    static func ordered(_ books: [BookSummary], by sort: SearchSort, standings: [String: BookStanding]) -> [BookSummary] {
        let position = Dictionary(books.enumerated().map { ($1.id, $0) }) { first, _ in first }
        switch sort {
        case .relevance, .title, .author:
            return books
        case .wanted:
            let wanted = { (book: BookSummary) in standings[book.id]?.wantCount ?? 0 }
            return books.sorted { (wanted($0), -position[$0.id]!) > (wanted($1), -position[$1.id]!) }
        case .rating:
            let rating = { (book: BookSummary) in (standings[book.id]?.averageRating ?? -1, standings[book.id]?.ratingCount ?? 0) }
            return books.sorted { (rating($0).0, rating($0).1, -position[$0.id]!) > (rating($1).0, rating($1).1, -position[$1.id]!) }
        }
    }

    static func searchSortChoices(_ current: SearchSort, in translations: Translations) -> [TemplateValue] {
        let names: [SearchSort: String] = [
            .relevance: translations.text("Best match"), .title: translations.text("Title"), .author: translations.text("Author"),
            .rating: translations.text("Best rated here"), .wanted: translations.text("Most wanted here"),
        ]
        return SearchSort.allCases.map { ["value": .string($0.rawValue), "name": .string(names[$0]!), "selected": .bool($0 == current)] }
    }

    // MARK: Input


    static let unknownList = PageError(
        .notFound, title: Translations.marked("List not found"),
        message: Translations.marked("There is no current best-seller list by that name. Browse the catalog for the lists the NYT publishes now.")
    )

    /// List names in URLs are the API's `list_name_encoded`: lower-case letters, digits, hyphens.
    /// `YYYY-MM-DD` in ASCII digits: checked byte by byte, as it is on every old edition's request.
    static func isEditionDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.indices.allSatisfy { index in
            index == 4 || index == 7 ? bytes[index] == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }
    }

    static func listName(_ context: AppRequestContext) throws -> String {
        let name = context.parameters.get("list") ?? ""
        guard (1...100).contains(name.count), name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw unknownList
        }
        return name
    }

    /// This page's path and query, for forms that come back here.
    static func returnPath(_ request: Request) -> String {
        LocalPath.validated(request.uri.description, fallback: request.uri.path)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
