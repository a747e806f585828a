import Fluent
import Vapor

/// `GET /lists/:list`: one best-seller list's current edition for the signed-in user, with their
/// wishlist marks; and the star that makes a list a favourite.
struct ListController: RouteCollection {
    static let startPath = "/lists/hardcover-fiction"

    func boot(routes: any RoutesBuilder) throws {
        routes.get("lists", ":list", use: self.show)
        routes.grouped(CSRFMiddleware()).post("lists", ":list", "favorite", use: self.toggleFavorite)
    }

    func show(req: Request) async throws -> View {
        let user = try req.auth.require(AppUser.self)
        let userID = try user.requireID()
        let list = try await Self.currentList(req)
        guard let publishedDate = list.publishedDate else { throw Abort(.notFound) }
        let name = try list.requireID()

        let sort = req.query[String.self, at: "sort"] ?? "rank"
        guard sort == "rank" || sort == "weeks" else {
            throw Abort(.badRequest, reason: "Lists can be sorted by rank or by weeks on the list.")
        }

        // The books of the current edition, each with its catalog row, in rank order.
        let entries = try await ListEntry.query(on: req.db)
            .join(Book.self, on: \ListEntry.$book.$id == \Book.$id)
            .filter(\.$id.$listName == name)
            .sort("rank")
            .all()

        // The edition stored before this one: what "up", "down" and "same" are measured against.
        let previousEdition = try await Edition.query(on: req.db)
            .filter(\.$id.$listName == name)
            .filter(\.$id.$publishedDate < publishedDate)
            .sort("published_date", .descending)
            .first()?.id?.publishedDate

        // The books the API gives no rank last week for: where each was last seen on this list, if
        // ever. One query for all of them (as the app's `earlierAppearances(list:before:books:)`),
        // newest first, so the first row of a book is its latest earlier appearance.
        var earlier: [String: (date: String, rank: Int)] = [:]
        let unranked = entries.filter { $0.rankLastWeek == 0 }.map { $0.$book.id }
        if !unranked.isEmpty {
            let seen = try await EditionEntry.query(on: req.db)
                .filter(\.$id.$listName == name)
                .filter(\.$book.$id ~~ unranked)
                .filter(\.$id.$publishedDate < publishedDate)
                .sort("published_date", .descending)
                .all()
            for appearance in seen {
                if let id = appearance.id, earlier[appearance.$book.id] == nil {
                    earlier[appearance.$book.id] = (id.publishedDate, id.rank)
                }
            }
        }

        let items = try await WishlistItem.query(on: req.db).filter(\.$user.$id == userID).all()
        var itemByBook: [String: Int] = [:]
        for item in items {
            if let bookID = item.bookID, itemByBook[bookID] == nil { itemByBook[bookID] = item.id }
        }
        let favorites = try await FavoriteList.query(on: req.db).filter(\.$id.$userID == userID).all()
        let isFavorite = favorites.contains { $0.id?.listName == name }

        var rows = try entries.map { entry -> BookRow in
            let book = try entry.joined(Book.self)
            let movement = Movement(entry, earlier: earlier[entry.$book.id], previousEdition: previousEdition)
            return BookRow(entry: entry, book: book, movement: movement, wishlistItem: itemByBook[entry.$book.id])
        }
        if sort == "weeks" {
            rows.sort { ($0.weeksOnList, -$0.rank) > ($1.weeksOnList, -$1.rank) }
        }

        let context = ListPageContext(
            title: list.displayName,
            nav: "lists",
            user: .init(name: user.username, wishlistCount: items.count, isAdmin: user.isAdmin),
            csrfToken: req.session.csrfToken,
            sampleData: Environment.get("SAMPLE_DATA") != "0",
            list: .init(list, publishedDate: publishedDate, isFavorite: isFavorite),
            previousEdition: previousEdition.map { .init(path: "/lists/\(name)?date=\($0)", date: $0, display: DateText.short($0)) },
            sort: sort,
            bookCount: DateText.count(rows.count, "book"),
            hasBooks: !rows.isEmpty,
            books: rows,
            returnTo: LocalPath.validated(req.url.string, fallback: req.url.path)
        )
        return try await req.view.render("list", context)
    }

    func toggleFavorite(req: Request) async throws -> Response {
        let user = try req.auth.require(AppUser.self)
        let userID = try user.requireID()
        let list = try await Self.currentList(req)
        let name = try list.requireID()
        let returnTo = LocalPath.validated(try? req.content.get(String.self, at: "return_to"), fallback: "/lists")
        if let favorite = try await FavoriteList.query(on: req.db)
            .filter(\.$id.$userID == userID).filter(\.$id.$listName == name).first() {
            try await favorite.delete(on: req.db)
        } else {
            try await FavoriteList(userID: userID, listName: name, createdAt: DateText.storedNow()).create(on: req.db)
        }
        return req.redirect(to: returnTo, redirectType: .normal)
    }

    /// The list named in the path, when it is a current list with an edition.
    private static func currentList(_ req: Request) async throws -> CatalogList {
        guard let name = req.parameters.get("list"),
              let list = try await CatalogList.query(on: req.db)
                .filter(\.$id == name)
                .filter(\.$isCurrent == true)
                .filter(\.$publishedDate != nil)
                .first()
        else { throw Abort(.notFound, reason: "There is no current best-seller list by that name.") }
        return list
    }
}

/// How a book moved since the edition before, as the app decides it: the API's rank last week
/// when it gives one; else the stored history (on the edition just before: moved from its rank
/// there; seen earlier, or more than a week on the list: returning; otherwise new).
enum Movement {
    case new, returning, same
    case up(Int), down(Int)

    init(_ entry: ListEntry, earlier: (date: String, rank: Int)?, previousEdition: String?) {
        let rank = entry.id?.rank ?? 0
        if entry.rankLastWeek != 0 {
            self = Self.between(entry.rankLastWeek, rank)
        } else if let earlier, earlier.date == previousEdition {
            self = Self.between(earlier.rank, rank)
        } else {
            self = earlier != nil || entry.weeksOnList > 1 ? .returning : .new
        }
    }

    private static func between(_ before: Int, _ now: Int) -> Self {
        before > now ? .up(before - now) : before < now ? .down(now - before) : .same
    }

    var kind: String {
        switch self {
        case .new: "new"
        case .returning: "returning"
        case .same: "same"
        case .up: "up"
        case .down: "down"
        }
    }

    var amount: Int {
        switch self {
        case .up(let places), .down(let places): places
        default: 0
        }
    }
}
