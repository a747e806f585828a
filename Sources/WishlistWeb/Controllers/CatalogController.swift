import Foundation
import Hummingbird
import WishlistCore
import WishlistTemplates

/// The catalog: all current lists, one list, one book, and search.
struct CatalogController {
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    let wishlist: WishlistStore
    /// Behind HTTPS (`server.secureCookies`): the sort cookie gets `Secure` like every other cookie.
    var secureCookies = false
    var charts = RankChartCache()

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("lists", use: index)
        group.get("lists/:list", use: show)
        group.post("lists/:list/favorite", use: toggleFavorite)
        group.get("books/:id", use: book)
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

    /// A list's current edition, or with `?date=YYYY-MM-DD` an earlier one from the history.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let name = try Self.listName(context)
        guard let (current, currentBooks) = try await catalog.list(named: name) else { throw Self.unknownList }
        let date = try request.queryText("date")
        var list = current, books = currentBooks
        var previous = try await catalog.previousEditionDate(list: name), next: String?
        if !date.isEmpty, date != current.publishedDate {
            guard date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
                throw PageError.badRequest("An edition is named by its date, like 2024-03-17; “\(date.prefix(40))” is not one.")
            }
            guard let stored = try await catalog.edition(list: name, date: date) else {
                throw PageError(
                    .notFound, title: "No edition of that date",
                    message: "There is no stored edition of \(current.displayName) published on \(date). The links beside a list lead to the editions there are."
                )
            }
            (list, books, previous, next) = (stored.list, stored.books, stored.previousDate, stored.nextDate)
        }
        let isCurrent = list.publishedDate == current.publishedDate
        let requested = try request.queryText("sort")
        guard ["", "rank", "weeks"].contains(requested) else {
            throw PageError.badRequest("Lists can be sorted by rank or by weeks on the list; “\(requested.prefix(40))” is neither.")
        }
        var remembered = ListSortCookie(request.cookies[ListSortCookie.name]?.value)
        let sort = requested.isEmpty ? (remembered.sortsByWeeks(name) ? "weeks" : "rank") : requested
        let ordered = sort == "weeks" ? books.sorted { ($0.weeksOnList, -$0.rank) > ($1.weeksOnList, -$1.rank) } : books
        let onWishlist = try await wishlist.itemIDsByBook(userID: user.userID)
        let favorites = try await catalog.favoriteLists(userID: user.userID)
        let unranked = books.filter { $0.rankLastWeek == 0 }.map(\.book.id)
        let earlier = try await catalog.earlierAppearances(list: name, before: list.publishedDate, books: unranked)
        let movement = { (listed: ListedBook) in Movement(listed, earlier: earlier[listed.book.id], previousEdition: previous) }
        // The start list is the user's start page, which shows what is new on their favourites.
        let isStartPage = isCurrent && !favorites.isEmpty ? try await catalog.defaultList(userID: user.userID) == name : false
        let newThisWeek = isStartPage ? try await catalog.newOnFavoriteLists(userID: user.userID) : []
        let editionPath = { (date: String) in SitePath.list(name) + (date == current.publishedDate ? "" : "?date=" + date) }
        var response = try pages.render(
            "lists/show.html", title: isCurrent ? list.displayName : "\(list.displayName), \(list.publishedDate)", nav: "lists",
            for: context.visitor,
            values: [
                "list": BookPresenter.listValue(list, isFavorite: favorites.contains(name)),
                "sort": .string(sort),
                "books": .array(ordered.map { BookPresenter.bookRow($0.book, listed: $0, movement: movement($0), wishlistItem: onWishlist[$0.book.id]) }),
                "new_this_week": BookPresenter.newEntries(newThisWeek),
                "return_to": .string(Self.returnPath(request)),
                "edition": [
                    "is_current": .bool(isCurrent),
                    "query": .string(isCurrent ? "" : "&date=" + list.publishedDate),
                    "previous": previous.map { ["date": .string($0), "path": .string(editionPath($0))] } ?? .null,
                    "next": next.map { ["date": .string($0), "path": .string(editionPath($0))] } ?? .null,
                    "current_path": .string(SitePath.list(name)),
                ],
            ]
        )
        if !requested.isEmpty, remembered.set(name, byWeeks: requested == "weeks") {
            response.setCookie(remembered.cookie(secure: secureCookies))
        }
        return response
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

    @Sendable func book(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let id = context.parameters.get("id") ?? ""
        guard CatalogBook.isUsableID(id), let book = try await catalog.book(id: id) else {
            throw PageError(.notFound, title: "Book not found", message: "We couldn't find that book. It may have left the lists; browse the current lists instead.")
        }
        let placements = try await catalog.placements(of: [id])[id] ?? []
        let histories = try await catalog.rankHistory(bookID: id)
        let wishlistItem = try await wishlist.itemIDsByBook(userID: user.userID)[id]
        let detail = BookPresenter.bookDetail(book, wishlistItem: wishlistItem)
        return try pages.render(
            "books/show.html", title: book.title, nav: "lists", for: context.visitor,
            values: [
                "book": detail,
                "details": detail,
                "lists": .array(placements.map(BookPresenter.placementValue)),
                "histories": .array(try histories.map { history in
                    let html = try charts.html(for: history) { try pages.fragment("partials/rank-chart.html", ["chart": $0]) }
                    return ["display_name": .string(history.displayName), "html": .html(html)]
                }),
                // The book's first list leads back from it in the breadcrumbs.
                "breadcrumb_list": placements.first.map(BookPresenter.placementValue) ?? .null,
                "buy_links": BookPresenter.linksValue(book.buyLinks, label: "name"),
                "review_links": BookPresenter.linksValue(book.readingLinks, label: "label"),
                "return_to": .string(Self.returnPath(request)),
            ]
        )
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

/// Which lists a browser last sorted by weeks on the list, kept in a cookie: remembering a
/// display choice must not make a GET change anything on the server.
struct ListSortCookie {
    static let name = "wishlist_sort_weeks"
    private var lists: [String]

    init(_ value: String?) {
        lists = (value ?? "").split(separator: ".").map(String.init).filter { name in
            name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }

    func sortsByWeeks(_ list: String) -> Bool { lists.contains(list) }

    /// Returns whether anything changed.
    mutating func set(_ list: String, byWeeks: Bool) -> Bool {
        guard byWeeks != sortsByWeeks(list) else { return false }
        if byWeeks { lists = Array((lists + [list]).suffix(60)) } else { lists.removeAll { $0 == list } }
        return true
    }

    func cookie(secure: Bool) -> Cookie {
        Cookie(
            name: Self.name, value: lists.joined(separator: "."), maxAge: 365 * 86_400, path: SitePath.catalog,
            secure: secure, httpOnly: true, sameSite: .lax
        )
    }
}
