import Foundation
import WishlistCore
import WishlistTemplates

/// The list page's data, as the app holds it after the queries of `GET /lists/hardcover-fiction`
/// and before any template engine sees it.
///
/// The books come from the app's own sample catalog, read from its JSON files
/// (`Sources/WishlistCore/Catalog/SampleCatalog`, `--catalog`) and decoded and cleaned by the app's own
/// code (`NYTResponses`, `CatalogEdition` and the `TitleCase` it applies, from the app's `WishlistCore` product),
/// exactly as a sync stores them. The signed-in user "bench" has three
/// of the fifteen books on the wishlist (ranks 2, 5 and 9, items 1, 2 and 3), as `make bench`
/// arranges on the server, so both branches of "Add to wishlist" are rendered.
struct ListPageData {
    var nameEncoded: String
    var displayName: String
    var frequency: ListFrequency
    var publishedDate: String
    var fetchedAt: Date?
    var isFavorite: Bool
    var entries: [CatalogEdition.Entry]
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
    var statusLine: String?

    var wishlistCount: Int { wishlistItems.count }

    static let listName = "hardcover-fiction"
    static let wishlistRanks = [2, 5, 9]

    /// `catalog` is the sample catalog's folder, whose files sit at the API's paths (`lists/names.json`).
    static func sample(catalog: URL, csrfToken: String, userName: String, fetchedAt: Date) throws -> ListPageData {
        let decoder = JSONDecoder()
        let names = try decoder.decode(NYTNamesResponse.self, from: Data(contentsOf: catalog.appendingPathComponent("lists/names.json")))
        let overview = try decoder.decode(NYTOverviewResponse.self, from: Data(contentsOf: catalog.appendingPathComponent("lists/full-overview.json")))
        guard let name = names.results.first(where: { $0.listNameEncoded == listName }),
              let list = overview.results.lists.first(where: { $0.listNameEncoded == listName }),
              let frequency = ListFrequency(rawValue: name.updated)
        else { throw BenchError("the sample catalog has no list \(listName)") }
        let edition = CatalogEdition(list, publishedDate: overview.results.publishedDate, frequency: frequency)
        var items: [String: Int64] = [:]
        for (index, rank) in wishlistRanks.enumerated() {
            guard let entry = edition.entries.first(where: { $0.rank == rank }) else { throw BenchError("no book at rank \(rank)") }
            items[entry.book.id] = Int64(index + 1)
        }
        return ListPageData(
            nameEncoded: edition.listNameEncoded, displayName: edition.displayName, frequency: edition.frequency,
            publishedDate: edition.publishedDate, fetchedAt: fetchedAt, isFavorite: false, entries: edition.entries,
            wishlistItems: items, sort: "rank", returnTo: "/lists/\(listName)",
            title: edition.displayName, nav: "lists", csrfToken: csrfToken, signupOpen: true, sampleData: true,
            userName: userName, statusLine: nil
        )
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Our engine: the values CatalogController.show and PageRenderer.render build

extension ListPageData {
    /// A copy of `CatalogController.show` + `PageRenderer.render` (keep them in step).
    var templateValue: TemplateValue {
        var context: [String: TemplateValue] = [
            "list": [
                "name_encoded": .string(nameEncoded), "display_name": .string(displayName),
                "frequency": .string(frequency.label), "period": .string(frequency.period), "published_date": .string(publishedDate),
                "fetched_at": fetchedAt.map(TemplateValue.date) ?? .null, "book_count": .int(entries.count),
                "is_favorite": .bool(isFavorite),
            ],
            "sort": .string(sort),
            "books": .array(entries.map { Self.bookRow($0, wishlistItem: wishlistItems[$0.book.id]) }),
            "return_to": .string(returnTo),
        ]
        context["title"] = .string(title)
        context["nav"] = .string(nav)
        context["csrf_token"] = .string(csrfToken)
        context["signup_open"] = .bool(signupOpen)
        context["sample_data"] = .bool(sampleData)
        context["user"] = ["name": .string(userName), "wishlist_count": .int(wishlistCount)]
        context["status_line"] = statusLine.map(TemplateValue.string) ?? .null
        return .dictionary(context)
    }

    static func coverValue(url: String?, width: Int, height: Int) -> TemplateValue {
        guard let url, width > 0, height > 0 else { return ["url": "", "width": 128, "height": 193] }
        return ["url": .string(url), "width": .int(width), "height": .int(height)]
    }

    static func movement(_ entry: CatalogEdition.Entry) -> TemplateValue {
        switch entry.rankLastWeek {
        case 0: return ["kind": "new", "amount": 0]
        case let last where last > entry.rank: return ["kind": "up", "amount": .int(last - entry.rank)]
        case let last where last < entry.rank: return ["kind": "down", "amount": .int(entry.rank - last)]
        default: return ["kind": "same", "amount": 0]
        }
    }

    static func bookRow(_ entry: CatalogEdition.Entry, wishlistItem: Int64?) -> TemplateValue {
        let book = entry.book
        var row: [String: TemplateValue] = [
            "id": .string(book.id), "title": .string(book.title), "author": .string(book.author),
            "description": .string(book.description), "path": .string("/books/\(book.id)"),
            "cover": coverValue(url: book.imageURL, width: book.imageWidth, height: book.imageHeight),
            "on_wishlist": .bool(wishlistItem != nil),
            "wishlist_item": wishlistItem.map { .int(Int($0)) } ?? .null,
        ]
        row["rank"] = .int(entry.rank)
        row["weeks_on_list"] = .int(entry.weeksOnList)
        row["movement"] = movement(entry)
        return .dictionary(row)
    }
}

// MARK: - Stencil: the same values as [String: Any]

extension ListPageData {
    var stencilContext: [String: Any] {
        var list: [String: Any] = [
            "name_encoded": nameEncoded, "display_name": displayName, "frequency": frequency.label,
            "published_date": publishedDate, "book_count": entries.count, "is_favorite": isFavorite,
        ]
        list["fetched_at"] = fetchedAt
        var context: [String: Any] = [
            "list": list, "sort": sort, "return_to": returnTo,
            "books": entries.map { entry -> [String: Any] in
                let book = entry.book
                let hasCover = book.imageURL != nil && book.imageWidth > 0 && book.imageHeight > 0
                var row: [String: Any] = [
                    "id": book.id, "title": book.title, "author": book.author, "description": book.description,
                    "path": "/books/\(book.id)",
                    "cover": hasCover
                        ? ["url": book.imageURL ?? "", "width": book.imageWidth, "height": book.imageHeight] as [String: Any]
                        : ["url": "", "width": 128, "height": 193] as [String: Any],
                    "rank": entry.rank, "weeks_on_list": entry.weeksOnList,
                    "movement": Self.movementParts(entry).map { ["kind": $0.kind, "amount": $0.amount] as [String: Any] } ?? [:],
                ]
                let item = wishlistItems[book.id]
                row["on_wishlist"] = item != nil
                row["wishlist_item"] = item.map { Int($0) }
                return row
            },
            "title": title, "nav": nav, "csrf_token": csrfToken, "signup_open": signupOpen, "sample_data": sampleData,
            "user": ["name": userName, "wishlist_count": wishlistCount] as [String: Any],
        ]
        context["status_line"] = statusLine
        return context
    }

    static func movementParts(_ entry: CatalogEdition.Entry) -> (kind: String, amount: Int)? {
        switch entry.rankLastWeek {
        case 0: ("new", 0)
        case let last where last > entry.rank: ("up", last - entry.rank)
        case let last where last < entry.rank: ("down", entry.rank - last)
        default: ("same", 0)
        }
    }
}

// MARK: - Mustache: logic-less, so the template's decisions are made here

extension ListPageData {
    /// Everything the Views/ templates compute (comparisons, dates, plurals, URL encoding,
    /// "is this string empty") done in Swift, since Mustache cannot. The timed "page" figure for
    /// Mustache includes this step; the "render" figure does not.
    var mustacheContext: [String: Any] {
        let period = frequency == .monthly ? "month" : "week"
        var list: [String: Any] = [
            "display_name": displayName, "frequency": frequency.label,
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
            "list": list, "return_to": returnTo, "period": period,
            "books_label": Formats.pluralize(entries.count, "book"),
            "has_books": !entries.isEmpty, "sort_weeks": sort == "weeks",
            "books": entries.map { entry -> [String: Any] in
                let book = entry.book
                let hasCover = book.imageURL != nil && book.imageWidth > 0 && book.imageHeight > 0
                let movement = Self.movementParts(entry)
                let item = wishlistItems[book.id]
                var row: [String: Any] = [
                    "id": book.id, "title": book.title, "author": book.author, "has_author": !book.author.isEmpty,
                    "description": book.description, "has_description": !book.description.isEmpty,
                    "path": "/books/\(book.id)",
                    "cover": [
                        "has_url": hasCover, "has_size": hasCover, "url": book.imageURL ?? "",
                        "width": hasCover ? book.imageWidth : 128, "height": hasCover ? book.imageHeight : 193,
                    ] as [String: Any],
                    "rank": entry.rank, "has_rank": entry.rank != 0,
                    "has_weeks": entry.weeksOnList != 0, "weeks_label": Formats.pluralize(entry.weeksOnList, "week"),
                    "has_meta": movement != nil || entry.weeksOnList != 0,
                    "movement": [
                        "has_kind": movement != nil, "is_new": movement?.kind == "new", "is_up": movement?.kind == "up",
                        "is_down": movement?.kind == "down", "is_same": movement?.kind == "same",
                        "amount": movement?.amount ?? 0, "has_amount": (movement?.amount ?? 0) != 0,
                    ] as [String: Any],
                    "on_wishlist": item != nil, "has_lists": false,
                ]
                row["wishlist_item_url"] = item.map { Formats.urlencode(String($0)) }
                return row
            },
            "title": title, "nav_is": [nav: true], "csrf_token": csrfToken,
            "signup_open": signupOpen, "sample_data": sampleData,
            "user": ["name": userName, "wishlist_count": wishlistCount, "wishlist_count_is_one": wishlistCount == 1] as [String: Any],
        ]
        context["status_line"] = statusLine
        return context
    }
}
