import Foundation
import Hummingbird
import WishlistCore

/// The JSON API under `/api/v1/` (issue 54), for scripts, Home Assistant and a phone's
/// shortcuts. Its routes are all added here; each is behind ``BearerTokenMiddleware`` but the
/// description (`openapi.json`) and the page for people (`APIController+Description.swift`). It speaks for the token's member only, and
/// like her pages never tells her what others plan for her.
struct APIController {
    let database: AppDatabase
    let wishlist: WishlistStore
    let lists: WishListStore
    let catalog: CatalogStore
    let household: HouseholdStore
    let pages: PageRenderer
    let staticFiles: StaticFiles
    let clock: WallClock

    /// Whether `path` is the API's, which answers in JSON and knows no cookies: its page for
    /// people, or anything under it.
    static func isAPI(_ path: String) -> Bool {
        path == SitePath.api || path.hasPrefix("/api/")
    }

    func addRoutes(to routes: SiteRouter) {
        addDescriptionRoutes(to: routes)
        routes.add(.apiWants, use: wants)
        routes.add(.apiAddWant, use: addWant)
        routes.add(.apiWant, use: want)
        routes.add(.apiEditWant, use: editWant)
        routes.add(.apiRemoveWant, use: removeWant)
        addReadRoutes(to: routes)
        addGiftRoutes(to: routes)
        addReadingRoutes(to: routes)
        addListRoutes(to: routes)
    }

    // MARK: My wants

    /// What her want and a giver's view of it (``SharedWant``) both say: the book, her note and
    /// priority, and the lists it is on.
    struct WantFields: Encodable {
        let id: Int64
        let bookId: String?
        let title: String
        let author: String
        let isbn13: String
        let note: String
        let priority: String
        /// The ids of the member's lists the want is on.
        let lists: [Int64]

        init(_ item: WishlistItem, lists: [ListID]) {
            id = item.id.rawValue
            bookId = item.bookID
            title = item.title
            author = item.author
            isbn13 = item.isbn13
            note = item.note
            priority = item.priority.rawValue
            self.lists = lists.map(\.rawValue)
        }
    }

    /// Her own want: its fields and when she added it.
    struct Want: Encodable {
        let fields: WantFields
        let addedAt: Date

        init(_ item: WishlistItem, lists: [ListID]) {
            fields = WantFields(item, lists: lists)
            addedAt = item.addedAt
        }

        /// One object: the fields beside `added_at`, as the answer has always been.
        func encode(to encoder: any Encoder) throws {
            try fields.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(addedAt, forKey: .addedAt)
        }

        enum CodingKeys: String, CodingKey { case addedAt }
    }

    /// A page of wants: her own (``Want``) or a member's as a giver sees them (``SharedWant``).
    struct WantsPage<Item: JSONWritable> {
        let wants: [Item]
        let total: Int
        let page: Int
        let pages: Int

        init<Read>(_ wants: [Item], of read: PagedList<Read>) {
            self.wants = wants
            (total, page, pages) = (read.total, read.number, read.pageCount)
        }
    }

    /// `GET /api/v1/wants?page=N`: all her wants, newest first, 100 a page.
    @Sendable func wants(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let number = try APIResponse.pageNumber(request)
        let (page, placed) = try await database.pageRead { read in
            let page = try read.wishlist.items(userID: caller.userID, sort: .added, page: number)
            return (page, try read.lists.listIDs(items: page.items.map(\.id)))
        }
        let body = WantsPage(page.items.map { Want($0, lists: placed[$0.id] ?? []) }, of: page)
        return APIResponse.json(body, headers: APIResponse.links(page, path: SitePath.apiWants), for: request)
    }

    @Sendable func want(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let item = try await ownWant(context, caller)
        return APIResponse.json(Want(item, lists: try await lists.listIDs(itemID: item.id)), for: request)
    }

    struct NewWant: Decodable {
        let bookId: String
        let list: Int64?
    }

    /// `POST /api/v1/wants` `{"book_id": "…", "list": 3}`: 201 with the want, or 200 with the one
    /// already there (put on `list` as well).
    @Sendable func addWant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await APIResponse.body(NewWant.self, of: request)
        var list: ListID?
        if let raw = body.list {
            guard raw > 0, try await lists.list(id: ListID(raw), ownerID: caller.userID) != nil else {
                throw APIProblem.unprocessable("You have no list with the id \(raw).")
            }
            list = ListID(raw)
        }
        guard CatalogBook.isUsableID(body.bookId), let book = try await catalog.book(id: body.bookId) else {
            throw APIProblem.unprocessable("No book in the catalog has the id “\(body.bookId.prefix(40))”.")
        }
        let (item, status): (WishlistItem, HTTPResponse.Status) = switch try await wishlist.add(book, userID: caller.userID, list: list, at: clock.now()) {
        case .added(let item): (item, .created)
        case .alreadyThere(let item): (item, .ok)
        }
        let headers: HTTPFields = [.location: SitePath.apiWant(item.id)]
        return APIResponse.json(Want(item, lists: try await lists.listIDs(itemID: item.id)), status: status, headers: headers, for: request)
    }

    struct WantChange: Decodable {
        let note: String?
        let priority: String?
    }

    /// `PATCH /api/v1/wants/{id}` `{"note": "…", "priority": "high"}`: either or both.
    @Sendable func editWant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let item = try await ownWant(context, caller)
        let change = try await APIResponse.body(WantChange.self, of: request)
        let note = change.note ?? item.note
        guard note.count <= WishlistStore.noteMaximumLength else {
            throw APIProblem.unprocessable("A note can be up to 2,000 characters; this one has \(note.count).")
        }
        guard let priority = change.priority.map(Priority.init(rawValue:)) ?? item.priority else {
            throw APIProblem.unprocessable("priority must be high, normal or low.")
        }
        guard try await wishlist.update(id: item.id, userID: caller.userID, note: note, priority: priority),
              let saved = try await wishlist.item(id: item.id, userID: caller.userID)
        else { throw Self.wantNotFound }
        return APIResponse.json(Want(saved, lists: try await lists.listIDs(itemID: saved.id)), for: request)
    }

    @Sendable func removeWant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let item = try await ownWant(context, caller)
        guard try await wishlist.delete(id: item.id, userID: caller.userID) != nil else { throw Self.wantNotFound }
        return APIResponse.noContent
    }

    static let wantNotFound = APIProblem.notFound("You have no want with that id.")

    /// The want `{id}` names, hers: another member's is as unknown as one that never was.
    private func ownWant(_ context: AppRequestContext, _ caller: APICaller) async throws -> WishlistItem {
        guard let id = context.parameters.get("id").flatMap(ItemID.init),
              let item = try await wishlist.item(id: id, userID: caller.userID)
        else { throw Self.wantNotFound }
        return item
    }
}

/// The tests compare a page's written JSON with its synthesized `Encodable`'s (`JSONWriterTests`).
extension APIController.WantsPage: Encodable where Item: Encodable {}

extension AppRequestContext {
    /// The member the bearer token speaks for; routes behind ``BearerTokenMiddleware`` always have one.
    func requireCaller() throws -> APICaller {
        guard let apiCaller else { throw APIProblem.noToken }
        return apiCaller
    }
}
