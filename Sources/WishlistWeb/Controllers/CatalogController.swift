import Foundation
import Hummingbird
import WishlistCore
import WishlistTemplates

/// The catalog: all current lists, one list, one book, and search.
struct CatalogController {
    let database: AppDatabase
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    let wishlist: WishlistStore
    let pageCaches: PageCaches
    /// Behind HTTPS (`server.secureCookies`): the sort cookie gets `Secure` like every other cookie.
    var secureCookies = false
    var charts = RankChartCache()

    func addRoutes(to group: RouterGroup<AppRequestContext>, loaders: PageLoaders) {
        group.get("lists", use: index)
        group.page("lists/:list", loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadListPage(request, context, user, read)
        }, respond: show)
        group.post("lists/:list/favorite", use: toggleFavorite)
        group.page("books/:id", loaders: loaders, database: database, read: { _, context, user, read in
            try self.loadBookPage(context, user, read)
        }, respond: book)
        group.get("search", use: search)
    }

    // MARK: Handlers

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let query = try request.queryText("q")
        let folded = Self.fold(query)
        let favorites = try await catalog.favoriteLists(userID: user.userID)
        let lists = try await catalog.currentLists().filter { folded.isEmpty || Self.fold($0.displayName).contains(folded) }
        let newThisWeek = favorites.isEmpty || !query.isEmpty ? [] : try await catalog.newOnFavoriteLists(userID: user.userID)
        let values = { (list: ListSummary) in BookPresenter.listValue(list, isFavorite: favorites.contains(list.nameEncoded)) }
        let others = lists.filter { !favorites.contains($0.nameEncoded) }
        return try pages.render(
            "lists/index.html", title: "Best-seller lists", nav: "lists", for: context.visitor,
            values: [
                "q": .string(query),
                "favorites": .array(lists.filter { favorites.contains($0.nameEncoded) }.map(values)),
                "weekly": .array(others.filter { $0.frequency == .weekly }.map(values)),
                "monthly": .array(others.filter { $0.frequency == .monthly }.map(values)),
                "no_match": .bool(lists.isEmpty && !query.isEmpty),
                "new_this_week": BookPresenter.newEntries(newThisWeek),
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
        _ = try await catalog.toggleFavorite(userID: user.userID, list: name, at: clock.now())
        return redirect(to: returnTo)
    }

    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let query = try request.queryText("q")
        let results = query.isEmpty ? [] : try await catalog.search(query)
        let placements = try await catalog.placements(of: results.map(\.id))
        let onWishlist = try await wishlist.itemIDsByBook(userID: user.userID)
        let rows = results.map { book -> TemplateValue in
            guard case .dictionary(var row) = BookPresenter.bookRow(book, listed: nil, wishlistItem: onWishlist[book.id]) else { return .null }
            row["lists"] = .array((placements[book.id] ?? []).map(BookPresenter.placementValue))
            return .dictionary(row)
        }
        return try pages.render(
            "search/results.html", title: query.isEmpty ? "Search" : "Search: \(query)", nav: "search", for: context.visitor,
            values: [
                "q": .string(query), "searched": .bool(!query.isEmpty), "results": .array(rows),
                "return_to": .string(Self.returnPath(request)),
            ]
        )
    }

    // MARK: Input


    static let unknownList = PageError(
        .notFound, title: "List not found",
        message: "There is no current best-seller list by that name. Browse the catalog for the lists the NYT publishes now."
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
