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

    /// A list's current edition, or with `?date=YYYY-MM-DD` an earlier one from the history.
    ///
    /// One read transaction serves the page, the session's (``PageLoaders``): the visitor's
    /// favourites and wishlist marks, and the catalog only when the rendered page is not cached
    /// (``ListPageCache``).
    @Sendable func show(_ request: Request, context: AppRequestContext, loaded: LoadedListPage) async throws -> Response {
        let (name, date, requested, read) = (loaded.name, loaded.date, loaded.requested, loaded.lookup)
        var remembered = loaded.remembered
        let page: ListPageRead
        switch read {
        case .found(let found): page = found
        case .noList: throw Self.unknownList
        case .noEdition(let displayName):
            throw PageError(
                .notFound, title: "No edition of that date",
                message: "There is no stored edition of \(displayName) published on \(date). The links beside a list lead to the editions there are."
            )
        }
        let entry = try page.cached ?? sharedListPage(page.edition!, key: page.key)
        let newThisWeek = page.newThisWeek.isEmpty ? TemplateValue.null
            : .html(try pages.fragment("partials/new-this-week.html", ["new_this_week": BookPresenter.newEntries(page.newThisWeek)]))
        // The closure is called for every slot: it captures only what it needs, made once.
        let returnTo = ListPage.Fill.escaped(EscapedValue(.string(Self.returnPath(request))))
        let newThisWeekFill = ListPage.Fill.value(newThisWeek)
        let marks = entry.marks
        let itemIDs = entry.bookIDs.map { page.marks[$0] }
        var response = try pages.respond(entry.page, for: context.visitor) { slot in
            switch slot {
            case .mark(let book): .fragment(marks[book].mark(itemID: itemIDs[book]))
            case .item(let book): .value(itemIDs[book].map { .int(Int($0)) } ?? .null)
            case .returnTo: returnTo
            case .newThisWeek: newThisWeekFill
            }
        }
        if !requested.isEmpty, remembered.set(name, byWeeks: requested == "weeks") {
            response.setCookie(remembered.cookie(secure: secureCookies))
        }
        return response
    }

    /// A list page's request, checked, and what the page reads for it.
    private func loadListPage(_ request: Request, _ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead) throws -> LoadedListPage {
        let name = try Self.listName(context)
        let date = try request.queryText("date")
        guard date.isEmpty || Self.isEditionDate(date) else {
            throw PageError.badRequest("An edition is named by its date, like 2024-03-17; “\(date.prefix(40))” is not one.")
        }
        let requested = try request.queryText("sort")
        guard ["", "rank", "weeks"].contains(requested) else {
            throw PageError.badRequest("Lists can be sorted by rank or by weeks on the list; “\(requested.prefix(40))” is neither.")
        }
        let remembered = ListSortCookie(request.cookieValue(ListSortCookie.name))
        let byWeeks = requested.isEmpty ? remembered.sortsByWeeks(name) : requested == "weeks"
        let favorites = try read.catalog.favoriteLists(userID: user.userID)
        let key = ListPageKey(
            list: name, date: date, sortsByWeeks: byWeeks, isFavorite: favorites.contains(name), isAdmin: user.isAdmin,
            statusLine: pages.notices.statusLine(), generation: try read.catalog.generation()
        )
        let lookup = try Self.listPageLookup(key, favorites: favorites, user: user, cache: pageCaches.lists, read)
        return LoadedListPage(name: name, date: date, requested: requested, remembered: remembered, lookup: lookup)
    }

    private static func listPageLookup(
        _ key: ListPageKey, favorites: Set<String>, user: Visitor.SignedIn, cache: ListPageCache, _ read: PageRead
    ) throws -> ListPageLookup {
        let name = key.list
        let cached = cache.entry(key)
        var edition: ListEdition?
        if cached == nil {
            switch try Self.edition(of: name, date: key.date, read) {
            case .found(let found): edition = found
            case .noList: return .noList
            case .noEdition(let displayName): return .noEdition(displayName)
            }
        }
        let isCurrent = cached?.isCurrent ?? edition?.isCurrent ?? false
        let bookIDs = cached?.bookIDs ?? edition?.books.map(\.book.id) ?? []
        let isStartPage = isCurrent && !favorites.isEmpty ? try read.catalog.defaultList(userID: user.userID) == name : false
        return .found(ListPageRead(
            key: key, cached: cached, edition: edition, marks: try read.wishlist.itemIDs(userID: user.userID, books: bookIDs),
            newThisWeek: isStartPage ? try read.catalog.newOnFavoriteLists(userID: user.userID) : []
        ))
    }

    /// A list page's request and read, as ``PageLoaders`` hands them over. A class: the memo keeps
    /// it as `any Sendable`, and taking a struct this size out of that box copies every field.
    final class LoadedListPage: KeepablePageRead, Sendable {
        let name: String
        let date: String
        let requested: String
        let remembered: ListSortCookie
        let lookup: ListPageLookup

        init(name: String, date: String, requested: String, remembered: ListSortCookie, lookup: ListPageLookup) {
            (self.name, self.date, self.requested, self.remembered, self.lookup) = (name, date, requested, remembered, lookup)
        }

        var isWorthKeeping: Bool {
            if case .found(let read) = lookup { read.cached != nil } else { true }
        }
    }

    /// What the read of a list page found.
    enum ListPageLookup: Sendable {
        case found(ListPageRead)
        case noList
        /// The list, named for people, has no stored edition of the date asked for.
        case noEdition(String)
    }

    enum EditionLookup {
        case found(ListEdition)
        case noList
        case noEdition(String)
    }

    /// A class for the reason ``LoadedListPage`` is one: a request passes it along several times.
    final class ListPageRead: Sendable {
        let key: ListPageKey
        let cached: ListPage?
        let edition: ListEdition?
        let marks: [String: Int64]
        let newThisWeek: [NewEntry]

        init(key: ListPageKey, cached: ListPage?, edition: ListEdition?, marks: [String: Int64], newThisWeek: [NewEntry]) {
            (self.key, self.cached, self.edition, self.marks, self.newThisWeek) = (key, cached, edition, marks, newThisWeek)
        }
    }

    /// An edition of a list with what its page shows around the books.
    struct ListEdition: Sendable {
        let list: ListSummary
        let currentDate: String
        let books: [ListedBook]
        let previous: String?
        let next: String?
        let earlier: [String: EarlierAppearance]

        var isCurrent: Bool { list.publishedDate == currentDate }
    }

    /// The current edition, or the stored one of `date`.
    private static func edition(of name: String, date: String, _ read: PageRead) throws -> EditionLookup {
        guard let (current, currentBooks) = try read.catalog.list(named: name) else { return .noList }
        var list = current, books = currentBooks, next: String?
        var previous = try read.catalog.previousEditionDate(list: name)
        if !date.isEmpty, date != current.publishedDate {
            guard let stored = try read.catalog.edition(list: name, date: date) else { return .noEdition(current.displayName) }
            (list, books, previous, next) = (stored.list, stored.books, stored.previousDate, stored.nextDate)
        }
        let unranked = books.filter { $0.rankLastWeek == 0 }.map(\.book.id)
        let earlier = try read.catalog.earlierAppearances(list: name, before: list.publishedDate, books: unranked)
        return .found(ListEdition(list: list, currentDate: current.publishedDate, books: books, previous: previous, next: next, earlier: earlier))
    }

    /// Renders an edition's page for every visitor with the same key, and keeps it.
    private func sharedListPage(_ edition: ListEdition, key: ListPageKey) throws -> ListPage {
        let list = edition.list, name = list.nameEncoded
        let ordered = key.sortsByWeeks ? edition.books.sorted { ($0.weeksOnList, -$0.rank) > ($1.weeksOnList, -$1.rank) } : edition.books
        let editionPath = { (date: String) in SitePath.list(name) + (date == edition.currentDate ? "" : "?date=" + date) }
        let indexes = Dictionary(ordered.enumerated().map { ($1.book.id, $0) }) { first, _ in first }
        let slot = { (name: String) in ListPage.Slot(name, indexes: indexes) }
        var marks: [WishlistMarks<ListPage.Slot>] = []
        let rows = try ordered.map { listed -> TemplateValue in
            let movement = Movement(listed, earlier: edition.earlier[listed.book.id], previousEdition: edition.previous)
            guard case .dictionary(var row) = BookPresenter.bookRow(listed.book, listed: listed, movement: movement, wishlistItem: nil) else { return .null }
            marks.append(try wishlistMarks(row, own: slot))
            row["actions"] = .slot("mark:" + listed.book.id)
            return .dictionary(row)
        }
        let page = try pages.renderShared(
            "lists/show.html", title: edition.isCurrent ? list.displayName : "\(list.displayName), \(list.publishedDate)", nav: "lists",
            isAdmin: key.isAdmin, statusLine: key.statusLine,
            values: [
                "list": BookPresenter.listValue(list, isFavorite: key.isFavorite),
                "sort": .string(key.sortsByWeeks ? "weeks" : "rank"),
                "books": .array(rows),
                "new_this_week_html": .slot("new_this_week"),
                "return_to": .slot("return_to"),
                "edition": [
                    "is_current": .bool(edition.isCurrent),
                    "query": .string(edition.isCurrent ? "" : "&date=" + list.publishedDate),
                    "previous": edition.previous.map { ["date": .string($0), "path": .string(editionPath($0))] } ?? .null,
                    "next": edition.next.map { ["date": .string($0), "path": .string(editionPath($0))] } ?? .null,
                    "current_path": .string(SitePath.list(name)),
                ],
            ],
            own: slot
        )
        let byteCount = page.byteCount + marks.reduce(0) { $0 + $1.byteCount }
        let entry = ListPage(page: page, bookIDs: ordered.map(\.book.id), marks: marks, isCurrent: edition.isCurrent, byteCount: byteCount)
        pageCaches.lists.keep(entry, for: key)
        return entry
    }

    /// A book's wishlist mark in both states, with slots for the visitor's token, the page's
    /// address and the item's id.
    private func wishlistMarks<Slot>(_ row: [String: TemplateValue], own: (String) -> Slot?) throws -> WishlistMarks<Slot> {
        let id = row["id"].flatMap { if case .string(let id) = $0 { id } else { nil } } ?? ""
        var on = row
        on["on_wishlist"] = .bool(true)
        on["wishlist_item"] = .slot("item:" + id)
        let shared: [String: TemplateValue] = ["csrf_token": .slot(PageRenderer.Slot.csrfToken), "return_to": .slot("return_to")]
        return WishlistMarks(
            add: try pages.renderSharedFragment("partials/add-to-wishlist.html", shared.merging(["book": .dictionary(row)]) { $1 }, own: own),
            on: try pages.renderSharedFragment("partials/add-to-wishlist.html", shared.merging(["book": .dictionary(on)]) { $1 }, own: own)
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

    /// A book's page: one read (the session's, ``PageLoaders``) for the visitor's wishlist mark,
    /// and the catalog's part only when the rendered page is not cached (``BookPageCache``).
    @Sendable func book(_ request: Request, context: AppRequestContext, loaded: LoadedBookPage) async throws -> Response {
        let read = loaded.read
        guard let read else { throw Self.unknownBook }
        let entry = try read.cached ?? sharedBookPage(read.content!, key: read.key)
        let returnTo = Self.returnPath(request)
        return try pages.respond(entry.page, for: context.visitor) { slot in
            switch slot {
            case .returnTo: .value(.string(returnTo))
            case .wishlistMark: .fragment(entry.marks.mark(itemID: read.wishlistItem))
            case .item: .value(read.wishlistItem.map { .int(Int($0)) } ?? .null)
            }
        }
    }

    /// A book page's id, checked, and what the page reads for it (nil: no such book).
    private func loadBookPage(_ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead) throws -> LoadedBookPage {
        let id = context.parameters.get("id") ?? ""
        guard CatalogBook.isUsableID(id) else { throw Self.unknownBook }
        let key = BookPageKey(bookID: id, isAdmin: user.isAdmin, statusLine: pages.notices.statusLine(), generation: try read.catalog.generation())
        let cached = pageCaches.books.entry(key)
        var content: BookPageContent?
        if cached == nil {
            guard let book = try read.catalog.book(id: id) else { return LoadedBookPage(read: nil) }
            content = BookPageContent(
                book: book, placements: try read.catalog.placements(of: [id])[id] ?? [], histories: try read.catalog.rankHistory(bookID: id)
            )
        }
        let wishlistItem = try read.wishlist.itemIDs(userID: user.userID, books: [id])[id]
        return LoadedBookPage(read: BookPageRead(key: key, cached: cached, content: content, wishlistItem: wishlistItem))
    }

    struct LoadedBookPage: KeepablePageRead, Sendable {
        let read: BookPageRead?

        var isWorthKeeping: Bool { read == nil || read?.cached != nil }
    }

    static let unknownBook = PageError(
        .notFound, title: "Book not found", message: "We couldn't find that book. It may have left the lists; browse the current lists instead."
    )

    struct BookPageContent: Sendable {
        let book: CatalogBook
        let placements: [Placement]
        let histories: [RankHistory]
    }

    struct BookPageRead: Sendable {
        let key: BookPageKey
        let cached: BookPage?
        let content: BookPageContent?
        let wishlistItem: Int64?
    }

    /// Renders a book's page for every visitor with the same key, and keeps it.
    private func sharedBookPage(_ content: BookPageContent, key: BookPageKey) throws -> BookPage {
        let book = content.book
        let detail = BookPresenter.bookDetail(book)
        let slot = { (name: String) in BookPage.Slot(name, bookID: book.id) }
        let page = try pages.renderShared(
            "books/show.html", title: book.title, nav: "lists", isAdmin: key.isAdmin, statusLine: key.statusLine,
            values: [
                "book": .dictionary(detail),
                "details": .dictionary(detail),
                "wishlist_mark": .slot("wishlist_mark"),
                "lists": .array(content.placements.map(BookPresenter.placementValue)),
                "histories": .array(try content.histories.map { history in
                    let html = try charts.html(for: history) { try pages.fragment("partials/rank-chart.html", ["chart": $0]) }
                    return ["display_name": .string(history.displayName), "html": .html(html)]
                }),
                // The book's first list leads back from it in the breadcrumbs.
                "breadcrumb_list": content.placements.first.map(BookPresenter.placementValue) ?? .null,
                "buy_links": BookPresenter.linksValue(book.buyLinks, label: "name"),
                "review_links": BookPresenter.linksValue(book.readingLinks, label: "label"),
            ],
            own: slot
        )
        let entry = BookPage(page: page, marks: try wishlistMarks(detail, own: slot))
        pageCaches.books.keep(entry, for: key)
        return entry
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
