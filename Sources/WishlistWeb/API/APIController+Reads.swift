import Foundation
import Hummingbird
import WishlistCore

/// The API's reads beyond her wants: her lists, the catalog, and the people who share with what
/// a giver sees of their lists (issue 54). A member's lists come with the caller's own part of
/// each reservation, as her page shows it to that giver; her own name is answered like a name
/// nobody has, so no answer ever shows a member what is planned for her.
extension APIController {
    func addReadRoutes(to routes: SiteRouter) {
        routes.add(.apiLists, use: myLists)
        routes.add(.apiCatalogLists, use: catalogLists)
        routes.add(.apiCatalogList, use: catalogList)
        routes.add(.apiCatalogBook, use: catalogBook)
        routes.add(.apiCatalogSearch, use: catalogSearch)
        routes.add(.apiPeople, use: people)
        routes.add(.apiPerson, use: person)
        routes.add(.apiPersonWants, use: personWants)
    }

    // MARK: Her lists

    struct List: Encodable {
        let id: Int64
        let name: String
        let occasion: String
        let occasionDate: String?
        let visibility: String
        let isDefault: Bool
        let wantCount: Int

        init(_ list: WishList) {
            id = list.id.rawValue
            name = list.name
            occasion = list.occasion.rawValue
            occasionDate = list.occasionDate
            visibility = list.visibility.rawValue
            isDefault = list.isDefault
            wantCount = list.itemCount
        }
    }

    @Sendable func myLists(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        return APIResponse.json(APIResponse.Named("lists", try await lists.lists(ownerID: caller.userID).map(List.init)), for: request)
    }

    // MARK: The catalog

    struct CatalogList: Encodable {
        let name: String
        let displayName: String
        let publishedDate: String
        let bookCount: Int

        init(_ list: ListSummary) {
            name = list.nameEncoded
            displayName = list.displayName
            publishedDate = list.publishedDate
            bookCount = list.bookCount
        }
    }

    struct ListedBookBody: Encodable {
        let rank: Int
        let weeksOnList: Int
        let bookId: String
        let title: String
        let author: String
    }

    struct CatalogListPage: Encodable {
        let list: CatalogList
        let books: [ListedBookBody]
    }

    struct Book: Encodable {
        let id: String
        let title: String
        let author: String
        let publisher: String
        let description: String
        let isbn10: String
        let isbn13: String
    }

    @Sendable func catalogLists(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireCaller()
        return APIResponse.json(APIResponse.Named("lists", try await catalog.currentLists().map(CatalogList.init)), for: request)
    }

    @Sendable func catalogList(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireCaller()
        let name = context.parameters.get("name") ?? ""
        guard name.count <= 100, let (list, books) = try await catalog.list(named: name) else {
            throw APIProblem.notFound("No current list is named “\(name.prefix(40))”.")
        }
        let body = CatalogListPage(list: CatalogList(list), books: books.map { listed in
            ListedBookBody(rank: listed.rank, weeksOnList: listed.weeksOnList, bookId: listed.book.id, title: listed.book.title, author: listed.book.author)
        })
        return APIResponse.json(body, for: request)
    }

    @Sendable func catalogBook(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireCaller()
        let id = context.parameters.get("id") ?? ""
        guard CatalogBook.isUsableID(id), let book = try await catalog.book(id: id) else {
            throw APIProblem.notFound("No book in the catalog has the id “\(id.prefix(40))”.")
        }
        return APIResponse.json(
            Book(id: book.id, title: book.title, author: book.author, publisher: book.publisher, description: book.description, isbn10: book.isbn10, isbn13: book.isbn13),
            for: request
        )
    }

    struct FoundBook: Encodable {
        let id: String
        let title: String
        let author: String
    }

    struct SearchPage: Encodable {
        let books: [FoundBook]
        let total: Int
        let page: Int
        let pages: Int
    }

    /// `GET /api/v1/catalog/search?q=…&page=N`: the books on the current lists whose title or
    /// author match, as the search page finds them, 100 a page; no words to look for find nothing.
    @Sendable func catalogSearch(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireCaller()
        let query = try request.queryText("q")
        let number = try APIResponse.pageNumber(request)
        let page = try await database.pageRead { try $0.catalog.search(query, page: number) }
        let body = SearchPage(
            books: page.items.map { FoundBook(id: $0.id, title: $0.title, author: $0.author) }, total: page.total, page: page.number, pages: page.pageCount
        )
        return APIResponse.json(body, headers: APIResponse.links(page, path: SitePath.apiCatalogSearch(query)), for: request)
    }

    // MARK: The household

    struct Person: Encodable {
        let username: String
        let name: String
        let wantCount: Int
    }

    struct PeoplePage: Encodable {
        let people: [Person]
        let total: Int
        let page: Int
        let pages: Int
    }

    struct PersonBody: Encodable {
        let username: String
        let name: String
        let wantCount: Int
        /// Her lists the household sees.
        let lists: [List]
    }

    /// One of her shared wants as the caller, a giver, sees it: the want's fields and the caller's
    /// part of its reservation.
    struct SharedWant: Encodable {
        let fields: WantFields
        /// `open`, `yours` (the caller reserved it) or `taken` (another giver did).
        let reservation: String
        /// Who took it, when another giver did.
        let reservedBy: String?
        /// Whether the giver who reserved it has bought it; nil while open.
        let bought: Bool?

        /// One object: the want's fields beside the reservation's, as the answer has always been.
        func encode(to encoder: any Encoder) throws {
            try fields.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reservation, forKey: .reservation)
            try container.encodeIfPresent(reservedBy, forKey: .reservedBy)
            try container.encodeIfPresent(bought, forKey: .bought)
        }

        enum CodingKeys: String, CodingKey { case reservation, reservedBy, bought }
    }

    /// `GET /api/v1/people?page=N`: the members who share, 100 a page, by name.
    @Sendable func people(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let number = try APIResponse.pageNumber(request)
        var members = try await household.members(excluding: caller.userID, page: number)
        if members.items.isEmpty, members.number > members.pageCount {
            members = try await household.members(excluding: caller.userID, page: members.pageCount)
        }
        let body = PeoplePage(
            people: members.items.map { Person(username: $0.username, name: $0.name, wantCount: $0.itemCount) },
            total: members.total, page: members.number, pages: members.pageCount
        )
        return APIResponse.json(body, headers: APIResponse.links(members, path: SitePath.apiPeople), for: request)
    }

    @Sendable func person(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let username = context.parameters.get("username") ?? ""
        let (member, shared) = try await database.pageRead { read -> (Member?, [WishList]) in
            guard case .member(let member) = try read.household.member(named: username, viewerID: caller.userID) else { return (nil, []) }
            return (member, try read.lists.sharedLists(ownerID: member.id))
        }
        guard let member else { throw Self.personNotFound }
        return APIResponse.json(
            PersonBody(username: member.username, name: member.name, wantCount: member.itemCount, lists: shared.map(List.init)), for: request
        )
    }

    /// `GET /api/v1/people/{username}/wants?page=N[&list=ID]`: her shared wants, with the caller's
    /// part of each reservation.
    @Sendable func personWants(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let username = context.parameters.get("username") ?? ""
        let number = try APIResponse.pageNumber(request)
        let listID = try Self.listID(request)
        let read = try await database.pageRead { read -> (PagedList<HeldItem>, [ItemID: [ListID]])? in
            guard case .member(let member) = try read.household.member(named: username, viewerID: caller.userID) else { return nil }
            let page: PagedList<HeldItem>
            if let listID {
                guard try read.lists.sharedLists(ownerID: member.id).contains(where: { $0.id == listID }) else { return nil }
                page = try read.household.items(ownerID: member.id, onList: listID, sort: .added, page: number)
            } else {
                page = try read.household.items(ownerID: member.id, sort: .added, page: number)
            }
            return (page, try read.lists.listIDs(items: page.items.map(\.item.id)))
        }
        guard let (page, placed) = read else { throw Self.personNotFound }
        let body = WantsPage(page.items.map { Self.sharedWant($0, placed: placed[$0.item.id] ?? [], caller: caller) }, of: page)
        return APIResponse.json(body, headers: APIResponse.links(page, path: SitePath.apiPersonWants(username, list: listID)), for: request)
    }

    /// `?list=`: nil when absent; anything but an id is a 400.
    private static func listID(_ request: Request) throws -> ListID? {
        guard let text = request.uri.queryParameters["list"] else { return nil }
        guard let id = ListID(text) else { throw APIProblem.badRequest("list must be a list’s id.") }
        return id
    }

    /// A want as the caller sees it: her part of its reservation, not another giver's card.
    static func sharedWant(_ held: HeldItem, placed: [ListID], caller: APICaller) -> SharedWant {
        let (state, by): (String, String?) = switch held.holder {
        case nil: ("open", nil)
        case let holder? where holder.id == caller.userID: ("yours", nil)
        case let holder?: ("taken", holder.name)
        }
        return SharedWant(fields: WantFields(held.item, lists: placed), reservation: state, reservedBy: by, bought: held.holder?.bought)
    }

    /// A name nobody has, a member who does not share, a disabled one and the caller herself: all alike.
    static let personNotFound = APIProblem.notFound("Nobody who shares their lists has that username.")
}
