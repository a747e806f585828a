import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The list page: one edition of a list, read with the session and rendered once for everyone who
/// sees it alike (``ListPageCache``).
extension CatalogController {
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
                .notFound, title: Translations.marked("No edition of that date"),
                message: Translations.marked("There is no stored edition of {list} published on {date}. The links beside a list lead to the editions there are."),
                values: { _ in ["list": displayName, "date": String(date)] }
            )
        }
        let entry = try page.cached ?? sharedListPage(page.edition!, standings: page.standings, key: page.key)
        let language = context.visitor.translations.language.code
        let newThisWeek = page.newThisWeek.isEmpty ? TemplateValue.null
            : .html(try pages.fragment("partials/new-this-week.html", ["new_this_week": BookPresenter.newEntries(page.newThisWeek)], language: language))
        // The closure is called for every slot: it captures only what it needs, made once.
        let returnTo = ListPage.Fill.escaped(EscapedValue(.string(Self.returnPath(request))))
        let newThisWeekFill = ListPage.Fill.value(newThisWeek)
        let marks = entry.marks
        let itemIDs = entry.bookIDs.map { page.marks[$0] }
        let standings = try entry.bookIDs.map { ListPage.Fill.value(try standingHTML(page.shownStandings[$0], language: language)) }
        let cardFlash = try pages.cardFlash(context.visitor, cards: entry.bookIDs.map(Card.book))
        var response = try pages.respond(entry.page, for: cardFlash?.visitor ?? context.visitor) { slot in
            switch slot {
            case .mark(let book): .fragment(marks[book].mark(itemID: itemIDs[book]))
            case .item(let book): .value(itemIDs[book].map { .string(SitePath.wishlistItem($0)) } ?? .null)
            case .flash(let book): .value(book == cardFlash?.index ? cardFlash!.html : .null)
            case .standing(let book): standings[book]
            case .returnTo: returnTo
            case .newThisWeek: newThisWeekFill
            }
        }
        if let requested = ListSort(rawValue: requested), remembered.set(name, requested) {
            response.setCookie(remembered.cookie(secure: secureCookies))
        }
        return response
    }

    /// The cache of list pages in `sort`'s order: the household's orders are kept apart.
    func listPageCache(_ sort: ListSort) -> ListPageCache {
        sort.followsHousehold ? pageCaches.householdOrderedLists : pageCaches.lists
    }

    /// A list page's request, checked, and what the page reads for it.
    func loadListPage(_ request: Request, _ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead) throws -> LoadedListPage {
        let name = try Self.listName(context)
        let date = try request.queryText("date")
        guard date.isEmpty || Self.isEditionDate(date) else {
            throw PageError.badRequest(
                Translations.marked("An edition is named by its date, like 2024-03-17; “{value}” is not one."),
                values: ["value": String(date.prefix(40))]
            )
        }
        let requested = try request.queryText("sort")
        guard requested.isEmpty || ListSort(rawValue: requested) != nil else {
            throw PageError.badRequest(
                Translations.marked("Lists can be sorted by rank, weeks on the list, how many here want a book or their rating; “{value}” is none of them."),
                values: ["value": String(requested.prefix(40))]
            )
        }
        let remembered = ListSortCookie(request.cookieValue(ListSortCookie.name))
        let sort = ListSort(rawValue: requested) ?? remembered.sort(of: name)
        let favorites = try read.catalog.favoriteLists(userID: user.userID)
        // What the household thinks of each book is filled per request; only the household's
        // orders follow its wishes and ratings, which grow the wishlist generation.
        let key = ListPageKey(
            list: name, date: date, sort: sort, isFavorite: favorites.contains(name), isAdmin: user.isAdmin,
            statusLine: pages.notices.statusLine(), language: user.pageLanguage,
            generation: try read.catalog.generation() + (sort.followsHousehold ? read.wishlist.generation() : 0)
        )
        let lookup = try Self.listPageLookup(key, favorites: favorites, user: user, cache: listPageCache(key.sort), read)
        return LoadedListPage(name: name, date: date, requested: requested, remembered: remembered, lookup: lookup)
    }

    static func listPageLookup(
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
        let standings = try read.reading.standings(of: bookIDs)
        let isStartPage = isCurrent && !favorites.isEmpty ? try read.catalog.defaultList(userID: user.userID) == name : false
        return .found(ListPageRead(
            key: key, cached: cached, edition: edition, standings: standings,
            shownStandings: try read.reading.standings(standings, asSeenBy: user.userID),
            marks: try read.wishlist.itemIDs(userID: user.userID, books: bookIDs),
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
        /// The household's wishes and ratings of the edition's books, read with every request.
        let standings: [String: BookStanding]
        /// The same as the visitor reads them on each row: her own wishes not among them.
        let shownStandings: [String: BookStanding]
        let marks: [String: ItemID]
        let newThisWeek: [NewEntry]

        init(
            key: ListPageKey, cached: ListPage?, edition: ListEdition?, standings: [String: BookStanding], shownStandings: [String: BookStanding],
            marks: [String: ItemID], newThisWeek: [NewEntry]
        ) {
            (self.key, self.cached, self.edition, self.standings, self.shownStandings) = (key, cached, edition, standings, shownStandings)
            (self.marks, self.newThisWeek) = (marks, newThisWeek)
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
    static func edition(of name: String, date: String, _ read: PageRead) throws -> EditionLookup {
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
    func sharedListPage(_ edition: ListEdition, standings: [String: BookStanding], key: ListPageKey) throws -> ListPage {
        let list = edition.list, name = list.nameEncoded
        let ordered = Self.ordered(edition.books, by: key.sort, standings: standings)
        let editionPath = { (date: String) in SitePath.list(name) + (date == edition.currentDate ? "" : "?date=" + date) }
        let indexes = Dictionary(ordered.enumerated().map { ($1.book.id, $0) }) { first, _ in first }
        let slot = { (name: String) in ListPage.Slot(name, indexes: indexes) }
        var marks: [WishlistMarks<ListPage.Slot>] = []
        let rows = try ordered.map { listed -> TemplateValue in
            let movement = Movement(listed, earlier: edition.earlier[listed.book.id], previousEdition: edition.previous)
            guard case .dictionary(var row) = BookPresenter.bookRow(listed.book, listed: listed, movement: movement, wishlistItem: nil) else { return .null }
            marks.append(try wishlistMarks(row, language: key.language, own: slot))
            row["actions"] = .slot("mark:" + listed.book.id)
            row["flash_html"] = .slot("flash:" + listed.book.id)
            row["standing_html"] = .slot("standing:" + listed.book.id)
            return .dictionary(row)
        }
        let page = try pages.renderShared(
            "lists/show.html", title: edition.isCurrent ? list.displayName : "\(list.displayName), \(list.publishedDate)", nav: "lists",
            isAdmin: key.isAdmin, statusLine: key.statusLine, language: key.language,
            values: [
                "list": BookPresenter.listValue(list, isFavorite: key.isFavorite),
                "sort": .string(key.sort.rawValue),
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
        listPageCache(key.sort).keep(entry, for: key)
        return entry
    }

    /// A row's "what the household thinks" line (partials/book-standing.html), empty when nobody
    /// here wants or has rated the book; each figure's rendered once (``StandingLineCache``).
    func standingHTML(_ standing: BookStanding?, language: String) throws -> TemplateValue {
        guard let standing else { return .null }
        return .html(try standingLines.html(for: standing, language: language) {
            try pages.fragment("partials/book-standing.html", ["book": ["standing": ReadingPresenter.standingValue(standing)]], language: language)
        })
    }

    /// An edition's books in a list page's order; ties keep the NYT's rank.
    static func ordered(_ books: [ListedBook], by sort: ListSort, standings: [String: BookStanding]) -> [ListedBook] {
        switch sort {
        case .rank:
            return books
        case .weeks:
            return books.sorted { ($0.weeksOnList, -$0.rank) > ($1.weeksOnList, -$1.rank) }
        case .wanted:
            let wanted = { (book: ListedBook) in standings[book.book.id]?.wantCount ?? 0 }
            return books.sorted { (wanted($0), -$0.rank) > (wanted($1), -$1.rank) }
        case .rating:
            // Rated books first, best first; a tie on the average goes to the one rated more often.
            let rating = { (book: ListedBook) in (standings[book.book.id]?.averageRating ?? -1, standings[book.book.id]?.ratingCount ?? 0) }
            return books.sorted { (rating($0).0, rating($0).1, -$0.rank) > (rating($1).0, rating($1).1, -$1.rank) }
        }
    }

    /// A book's wishlist mark in both states, with slots for the visitor's token, the page's
    /// address and the item's id.
    /// The add form and the "on your wishlist" mark of `row`; `withNote`, the book page's, also
    /// opens onto a note and a priority, and holds the `list_choice` slot.
    func wishlistMarks<Slot>(
        _ row: [String: TemplateValue], withNote: Bool = false, language: String, own: (String) -> Slot?
    ) throws -> WishlistMarks<Slot> {
        let id = row["id"].flatMap { if case .string(let id) = $0 { id } else { nil } } ?? ""
        var on = row
        on["on_wishlist"] = .bool(true)
        on["wishlist_item_path"] = .slot("item:" + id)
        let shared: [String: TemplateValue] = [
            "csrf_token": .slot(PageRenderer.Slot.csrfToken), "return_to": .slot("return_to"), "with_note": .bool(withNote),
            "list_choice": withNote ? .slot("list_choice") : .null,
        ]
        return WishlistMarks(
            add: try pages.renderSharedFragment("partials/add-to-wishlist.html", shared.merging(["book": .dictionary(row)]) { $1 }, language: language, own: own),
            on: try pages.renderSharedFragment("partials/add-to-wishlist.html", shared.merging(["book": .dictionary(on)]) { $1 }, language: language, own: own)
        )
    }
}
