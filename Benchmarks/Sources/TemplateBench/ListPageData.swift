import Crypto
import Foundation
import WishlistCore
import WishlistTemplates

/// The list page's data, as the app holds it after the read of `GET /lists/hardcover-fiction`
/// and before any template engine sees it.
///
/// The books come from the app's own sample catalog, read from its JSON files
/// (`Sources/WishlistCore/Catalog/SampleCatalog`, `--catalog`) and decoded and cleaned by the app's own
/// code (`NYTResponses`, `CatalogEdition` and the `TitleCase` it applies, from the app's `WishlistCore` product),
/// exactly as a sync stores them. The signed-in user "bench" has three
/// of the fifteen books on the wishlist (ranks 2, 5 and 9, items 1, 2 and 3), as `make bench`
/// arranges on the server, so both branches of "Add to wishlist" are rendered. The sample's
/// earlier editions of the list (`lists/<date>/hardcover-fiction.json`, stored by the app at its
/// first start) give the link to the previous edition and the movement of the books the API calls
/// new. "bench" shares nothing with the household (a new member's default), so no row says what
/// the household thinks of its book.
struct ListPageData {
    var nameEncoded: String
    var displayName: String
    var frequency: ListFrequency
    var publishedDate: String
    var fetchedAt: Date?
    var isFavorite: Bool
    var entries: [CatalogEdition.Entry]
    /// The stored edition before this one (`yyyy-MM-dd`), if any, and where each book of this one
    /// that the API calls new (`rank_last_week` 0) was last seen on the list before it.
    var previousEdition: String?
    var earlier: [String: (date: String, rank: Int)]
    /// Book id → wishlist item id.
    var wishlistItems: [String: Int64]
    var sort: String
    var returnTo: String
    // What PageRenderer adds for the layout.
    var title: String
    var nav: String
    var csrfToken: String
    var signupOpen: Bool
    var sampleData: Bool
    var userName: String
    var isAdmin: Bool
    var statusLine: String?
    /// `Public/`'s files by template name (`style_css`) → versioned URL, as `StaticFiles` makes them.
    var assets: [String: String]

    var wishlistCount: Int { wishlistItems.count }
    var wishlistNoun: String { wishlistCount == 1 ? "book" : "books" }

    static let listName = "hardcover-fiction"
    static let wishlistRanks = [2, 5, 9]

    /// `catalog` is the sample catalog's folder, whose files sit at the API's paths (`lists/names.json`);
    /// `publicDirectory` is the app's `Public/`.
    static func sample(catalog: URL, publicDirectory: URL, csrfToken: String, userName: String, fetchedAt: Date) throws -> ListPageData {
        let decoder = JSONDecoder()
        let names = try decoder.decode(NYTNamesResponse.self, from: Data(contentsOf: catalog.appendingPathComponent("lists/names.json")))
        let overview = try decoder.decode(NYTOverviewResponse.self, from: Data(contentsOf: catalog.appendingPathComponent("lists/full-overview.json")))
        guard let name = names.results.first(where: { $0.listNameEncoded == listName }),
              let list = overview.results.lists.first(where: { $0.listNameEncoded == listName }),
              let frequency = ListFrequency(rawValue: name.updated)
        else { throw BenchError("the sample catalog has no list \(listName)") }
        let edition = CatalogEdition(list, publishedDate: overview.results.publishedDate, frequency: frequency)
        let history = try earlierEditions(catalog: catalog, before: edition.publishedDate, frequency: frequency)
        var items: [String: Int64] = [:]
        for (index, rank) in wishlistRanks.enumerated() {
            guard let entry = edition.entries.first(where: { $0.rank == rank }) else { throw BenchError("no book at rank \(rank)") }
            items[entry.book.id] = Int64(index + 1)
        }
        return ListPageData(
            nameEncoded: edition.listNameEncoded, displayName: edition.displayName, frequency: edition.frequency,
            publishedDate: edition.publishedDate, fetchedAt: fetchedAt, isFavorite: false, entries: edition.entries,
            previousEdition: history.last?.publishedDate, earlier: lastSeen(edition.entries, in: history),
            wishlistItems: items, sort: "rank", returnTo: "/lists/\(listName)",
            title: edition.displayName, nav: "lists", csrfToken: csrfToken, signupOpen: true, sampleData: true,
            userName: userName, isAdmin: false, statusLine: nil, assets: try Assets.urls(publicDirectory)
        )
    }

    var listPath: String { "/lists/" + nameEncoded }

    /// One edition's file, as the API's single-list endpoint sends it.
    private struct ListFile: Decodable {
        let results: NYTList
    }

    /// The sample's editions of the list published before `date`, oldest first.
    static func earlierEditions(catalog: URL, before date: String, frequency: ListFrequency) throws -> [CatalogEdition] {
        let folder = catalog.appendingPathComponent("lists")
        let dates = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.first?.isNumber == true && $0 < date }.sorted()
        return try dates.compactMap { day in
            let file = folder.appendingPathComponent(day).appendingPathComponent(listName + ".json")
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            let list = try JSONDecoder().decode(ListFile.self, from: Data(contentsOf: file)).results
            return CatalogEdition(list, publishedDate: day, frequency: frequency)
        }
    }

    /// For each entry the API calls new, its latest appearance in `history`, as
    /// `CatalogStore.earlierAppearances` reads it.
    static func lastSeen(_ entries: [CatalogEdition.Entry], in history: [CatalogEdition]) -> [String: (date: String, rank: Int)] {
        var seen: [String: (date: String, rank: Int)] = [:]
        for entry in entries where entry.rankLastWeek == 0 {
            for edition in history.reversed() {
                guard let earlier = edition.entries.first(where: { $0.book.id == entry.book.id }) else { continue }
                seen[entry.book.id] = (edition.publishedDate, earlier.rank)
                break
            }
        }
        return seen
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Our engine: the values the app's list page fills its template with

extension ListPageData {
    /// The values of `CatalogController.sharedListPage` and `PageRenderer.renderShared`, with the
    /// slots filled as `PageRenderer.respond` and `CatalogController.show` fill them for this
    /// visitor (keep them in step). A row's wishlist mark, a slot in the app, is left to the
    /// template's own include of partials/add-to-wishlist.html, which is what fills that slot.
    var templateValue: TemplateValue {
        var context: [String: TemplateValue] = [
            "list": [
                "name_encoded": .string(nameEncoded), "display_name": .string(displayName),
                "frequency": .string(frequency.label), "period": .string(frequency.period), "published_date": .string(publishedDate),
                "fetched_at": fetchedAt.map(TemplateValue.date) ?? .null, "book_count": .int(entries.count),
                "is_favorite": .bool(isFavorite),
            ],
            "sort": .string(sort),
            "books": .array(entries.map { bookRow($0, wishlistItem: wishlistItems[$0.book.id]) }),
            "new_this_week_html": .null,
            "return_to": .string(returnTo),
            "edition": [
                "is_current": true, "query": "", "next": .null, "current_path": .string(listPath),
                "previous": previousEdition.map { ["date": .string($0), "path": .string(editionPath($0))] } ?? .null,
            ],
        ]
        context["title"] = .string(title)
        context["error_summary"] = .array([])
        context["nav"] = .string(nav)
        context["signup_open"] = .bool(signupOpen)
        context["sample_data"] = .bool(sampleData)
        context["assets"] = .dictionary(assets.mapValues(TemplateValue.string))
        context["csrf_token"] = .string(csrfToken)
        context["flash_html"] = .null
        context["user"] = [
            "name": .string(userName), "wishlist_count": .int(wishlistCount), "wishlist_noun": .string(wishlistNoun),
            "is_admin": .bool(isAdmin),
        ]
        context["status_line"] = statusLine.map(TemplateValue.string) ?? .null
        return .dictionary(context)
    }

    /// As `BookPresenter.coverValue`.
    static func coverValue(url: String?, width: Int, height: Int) -> TemplateValue {
        guard let cover = Cover(url: url, width: width, height: height) else { return ["url": "", "width": 128, "height": 193] }
        return ["url": .string(cover.url), "large_url": .string(cover.largeURL), "width": .int(cover.width), "height": .int(cover.height)]
    }

    func movement(_ entry: CatalogEdition.Entry) -> TemplateValue {
        let (kind, amount) = movementParts(entry)
        return ["kind": .string(kind), "amount": .int(amount)]
    }

    /// As `BookPresenter.bookRow` with the list page's additions (`CatalogController.sharedListPage`).
    func bookRow(_ entry: CatalogEdition.Entry, wishlistItem: Int64?) -> TemplateValue {
        let book = entry.book
        var row: [String: TemplateValue] = [
            "id": .string(book.id), "title": .string(book.title), "author": .string(book.author),
            "description": .string(book.description), "path": .string("/books/\(book.id)"),
            "cover": Self.coverValue(url: book.imageURL, width: book.imageWidth, height: book.imageHeight),
            "on_wishlist": .bool(wishlistItem != nil),
            "wishlist_item": wishlistItem.map { .int(Int($0)) } ?? .null,
        ]
        row["rank"] = .int(entry.rank)
        row["weeks_on_list"] = .int(entry.weeksOnList)
        row["movement"] = movement(entry)
        row["flash_html"] = .null
        row["standing"] = .null
        return .dictionary(row)
    }

    /// As the app's `Movement`: the API's `rank_last_week` when it has one; when it is 0, the
    /// history decides: a book on the edition just before moved from its rank there, a book seen
    /// earlier is returning, and so is one the API counts more than one week on the list.
    func movementParts(_ entry: CatalogEdition.Entry) -> (kind: String, amount: Int) {
        var before = entry.rankLastWeek
        if before == 0 {
            let seen = earlier[entry.book.id]
            guard let seen, seen.date == previousEdition else {
                return seen != nil || entry.weeksOnList > 1 ? ("returning", 0) : ("new", 0)
            }
            before = seen.rank
        }
        return before > entry.rank ? ("up", before - entry.rank) : before < entry.rank ? ("down", entry.rank - before) : ("same", 0)
    }

    /// An earlier edition's page, as `CatalogController.sharedListPage` links it.
    func editionPath(_ date: String) -> String { listPath + "?date=" + date }
}

/// A cover as the app links it: ours, under /covers/, named by `CoverKey` (the first 96 bits of the
/// SHA-256 of the image's address, in hex) at 128 and 384 px; the box of a typical jacket when the
/// API gave no size.
struct Cover {
    let url: String
    let largeURL: String
    let width: Int
    let height: Int

    init?(url: String?, width: Int, height: Int) {
        guard let url, !url.isEmpty else { return nil }
        let key = SHA256.hash(data: Data(url.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        self.url = "/covers/\(key)-128.jpg"
        self.largeURL = "/covers/\(key)-384.jpg"
        (self.width, self.height) = width > 0 && height > 0 ? (width, height) : (128, 193)
    }
}

/// `assets.style_css` and the like: every file of `Public/` at `/static/NAME?v=HASH` (the first 16 hex
/// digits of its SHA-256), its name's other characters than letters and digits made `_`, as the
/// app's `StaticFiles` names them.
enum Assets {
    static func urls(_ directory: URL) throws -> [String: String] {
        var urls: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix(".") {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let hash = SHA256.hash(data: data).prefix(8).map { String(format: "%02x", $0) }.joined()
            urls[String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })] = "/static/\(name)?v=\(hash)"
        }
        guard urls["style_css"] != nil else { throw BenchError("no style.css in \(directory.path)") }
        return urls
    }
}

// MARK: - Stencil: the same values as [String: Any]

extension ListPageData {
    var stencilContext: [String: Any] {
        var list: [String: Any] = [
            "name_encoded": nameEncoded, "display_name": displayName, "frequency": frequency.label, "period": frequency.period,
            "published_date": publishedDate, "book_count": entries.count, "is_favorite": isFavorite,
        ]
        list["fetched_at"] = fetchedAt
        var context: [String: Any] = [
            "list": list, "sort": sort, "return_to": returnTo,
            "books": entries.map { entry -> [String: Any] in
                let book = entry.book
                let cover = Cover(url: book.imageURL, width: book.imageWidth, height: book.imageHeight)
                let movement = movementParts(entry)
                var row: [String: Any] = [
                    "id": book.id, "title": book.title, "author": book.author, "description": book.description,
                    "path": "/books/\(book.id)",
                    "cover": cover.map { ["url": $0.url, "large_url": $0.largeURL, "width": $0.width, "height": $0.height] as [String: Any] }
                        ?? ["url": "", "width": 128, "height": 193] as [String: Any],
                    "rank": entry.rank, "weeks_on_list": entry.weeksOnList,
                    "movement": ["kind": movement.kind, "amount": movement.amount] as [String: Any],
                ]
                let item = wishlistItems[book.id]
                row["on_wishlist"] = item != nil
                row["wishlist_item"] = item.map { Int($0) }
                return row
            },
            "edition": stencilEdition,
            "title": title, "error_summary": [Any](), "nav": nav, "signup_open": signupOpen, "sample_data": sampleData,
            "assets": assets, "csrf_token": csrfToken,
            "user": ["name": userName, "wishlist_count": wishlistCount, "wishlist_noun": wishlistNoun, "is_admin": isAdmin] as [String: Any],
        ]
        context["status_line"] = statusLine
        return context
    }

    /// Keys that would be nil are left out: an Optional in an `Any` is not nil to Stencil.
    var stencilEdition: [String: Any] {
        var edition: [String: Any] = ["is_current": true, "query": "", "current_path": listPath]
        edition["previous"] = previousEdition.map { ["date": $0, "path": editionPath($0)] }
        return edition
    }
}

// MARK: - Mustache: logic-less, so the template's decisions are made here

extension ListPageData {
    /// The sections of the "Me" menu: the menu is marked when the page is one of them.
    static let meMenuSections: Set<String> = ["reading", "settings", "admin", "addbook", "reservations"]

    /// Everything the Views/ templates compute (comparisons, dates, plurals, URL encoding,
    /// "is this string empty") done in Swift, since Mustache cannot. The timed "page" figure for
    /// Mustache includes this step; the "render" figure does not.
    var mustacheContext: [String: Any] {
        var list: [String: Any] = [
            "display_name": displayName, "frequency": frequency.label, "period": frequency.period,
            "published_iso": Formats.date(publishedDate, "yyyy-MM-dd") ?? "",
            "published_long": Formats.date(publishedDate, "MMMM d, yyyy") ?? "",
            "name_url": Formats.urlencode(nameEncoded), "is_favorite": isFavorite,
            "has_fetched_at": fetchedAt != nil,
        ]
        if let fetchedAt {
            list["fetched_iso"] = Formats.date(fetchedAt, "yyyy-MM-dd'T'HH:mm:ss'Z'") ?? ""
            list["fetched_long"] = Formats.date(fetchedAt, "MMM d, yyyy 'at' HH:mm 'UTC'") ?? ""
        }
        var context: [String: Any] = [
            "list": list, "return_to": returnTo,
            "books_label": Formats.pluralize(entries.count, "book"),
            "has_books": !entries.isEmpty, "sort_is": [sort: true],
            "books": entries.map { entry -> [String: Any] in
                let book = entry.book
                let cover = Cover(url: book.imageURL, width: book.imageWidth, height: book.imageHeight)
                let movement = movementParts(entry)
                let item = wishlistItems[book.id]
                var row: [String: Any] = [
                    "id": book.id, "title": book.title, "author": book.author, "has_author": !book.author.isEmpty,
                    "description": book.description, "has_description": !book.description.isEmpty,
                    "path": "/books/\(book.id)",
                    "cover": [
                        "has_url": cover != nil, "url": cover?.url ?? "", "large_url": cover?.largeURL ?? "",
                        "width": cover?.width ?? 128, "height": cover?.height ?? 193,
                    ] as [String: Any],
                    "rank": entry.rank, "has_rank": entry.rank != 0,
                    "has_weeks": entry.weeksOnList != 0, "weeks_label": Formats.pluralize(entry.weeksOnList, "week"),
                    "has_meta": true,
                    "movement": [
                        "has_kind": true, "is_new": movement.kind == "new", "is_returning": movement.kind == "returning",
                        "is_up": movement.kind == "up", "is_down": movement.kind == "down", "is_same": movement.kind == "same",
                        "amount": movement.amount, "has_amount": movement.amount != 0,
                    ] as [String: Any],
                    "on_wishlist": item != nil, "has_lists": false,
                    // Present and empty, so that the row's {{{flash_html}}} does not find the page's.
                    "flash_html": "",
                ]
                row["wishlist_item_url"] = item.map { Formats.urlencode(String($0)) }
                return row
            },
            "edition": mustacheEdition,
            "new_this_week_html": "",
            "title": title, "has_error_summary": false, "error_summary": [Any](),
            "nav_is": [nav: true], "nav_in_me_menu": Self.meMenuSections.contains(nav),
            "signup_open": signupOpen, "sample_data": sampleData, "assets": assets,
            "noindex": false, "passkey_script": false, "copy_share_script": false,
            "csrf_token": csrfToken, "flash_html": "",
            "user": ["name": userName, "wishlist_count": wishlistCount, "wishlist_noun": wishlistNoun, "is_admin": isAdmin] as [String: Any],
        ]
        context["status_line"] = statusLine
        return context
    }

    var mustacheEdition: [String: Any] {
        var edition: [String: Any] = ["has_nav": previousEdition != nil, "is_current": true, "query": "", "current_path": listPath]
        edition["previous"] = previousEdition.map { ["date": $0, "date_short": Formats.date($0, "MMM d, yyyy") ?? "", "path": editionPath($0)] }
        return edition
    }
}
