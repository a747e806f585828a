import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages

/// Her lists through the API (issue 54): making, changing and deleting one, and putting a want on
/// exactly the lists she names, with the list form's rules and words (``WishListDraft``) and the
/// store the pages use. Another member's list or want is the 404 of one that never was.
extension APIController {
    func addListRoutes(to routes: SiteRouter) {
        routes.add(.apiCreateList, use: createList)
        routes.add(.apiEditList, use: editList)
        routes.add(.apiDeleteList, use: deleteList)
        routes.add(.apiPlaceWant, use: placeWant)
    }

    struct ListFields: Decodable {
        let name: String?
        let occasion: String?
        let occasionDate: String?
        let visibility: String?
    }

    struct ListPlacement: Decodable {
        let lists: [Int64]
    }

    /// `POST /api/v1/lists` `{"name": "Birthday", "occasion": "birthday", "visibility": "private"}`:
    /// occasion defaults to `none` and visibility to `household`, as the form's choices do.
    @Sendable func createList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let fields = try await APIResponse.body(ListFields.self, of: request)
        let draft = WishListDraft(
            name: fields.name ?? "", occasion: fields.occasion ?? Occasion.none.rawValue, date: fields.occasionDate ?? "",
            visibility: fields.visibility ?? ListVisibility.household.rawValue
        )
        let made = try await lists.create(try Self.checked(draft), ownerID: caller.userID, at: clock.now())
        let headers: HTTPFields = [.location: SitePath.apiList(made.id)]
        return APIResponse.json(List(made), status: .created, headers: headers, for: request)
    }

    /// `PATCH /api/v1/lists/{id}`: any of name, occasion, occasion_date and visibility.
    @Sendable func editList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let list = try await ownList(context, caller)
        let fields = try await APIResponse.body(ListFields.self, of: request)
        let draft = WishListDraft(
            name: fields.name ?? list.name, occasion: fields.occasion ?? list.occasion.rawValue,
            date: fields.occasionDate ?? list.occasionDate ?? "", visibility: fields.visibility ?? list.visibility.rawValue
        )
        guard try await lists.update(id: list.id, ownerID: caller.userID, try Self.checked(draft)),
              let saved = try await lists.list(id: list.id, ownerID: caller.userID)
        else { throw Self.listNotFound }
        return APIResponse.json(List(saved), for: request)
    }

    /// `DELETE /api/v1/lists/{id}[?delete_wants=true]`: its wants go back to the default list
    /// unless `delete_wants`, when those on no other list go with it.
    @Sendable func deleteList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let deleteWants: Bool
        switch request.uri.queryParameters["delete_wants"].map(String.init) {
        case nil, "false": deleteWants = false
        case "true": deleteWants = true
        case let other?: throw APIProblem.badRequest("delete_wants must be true or false, not “\(other.prefix(20))”.")
        }
        guard let id = context.parameters.get("id").flatMap(ListID.init) else { throw Self.listNotFound }
        switch try await lists.delete(id: id, ownerID: caller.userID, deleteWants: deleteWants) {
        case .deleted: return APIResponse.noContent
        case .isDefault: throw APIProblem(status: .conflict, detail: "Your first list can’t be deleted: a book you add goes there. Rename it if you like.")
        case .notFound: throw Self.listNotFound
        }
    }

    /// `PUT /api/v1/wants/{id}/lists` `{"lists": [1, 3]}`: the want on exactly those lists of
    /// hers (moving and copying in one), as the want page's list form does.
    @Sendable func placeWant(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        guard let itemID = context.parameters.get("id").flatMap(ItemID.init) else { throw Self.wantNotFound }
        let placement = try await APIResponse.body(ListPlacement.self, of: request)
        guard placement.lists.count <= 1000, placement.lists.allSatisfy({ $0 > 0 }) else {
            throw APIProblem.unprocessable("lists must hold the ids of your lists.")
        }
        switch try await lists.place(itemID: itemID, on: Set(placement.lists.map { ListID($0) }), ownerID: caller.userID) {
        case .saved:
            guard let item = try await wishlist.item(id: itemID, userID: caller.userID) else { throw Self.wantNotFound }
            return APIResponse.json(Want(item, lists: try await lists.listIDs(itemID: itemID)), for: request)
        case .noList:
            throw APIProblem.unprocessable("A want is on at least one of your lists: name one, or remove the want instead.")
        case .notFound:
            // The same answer for another's want, another's list, or one that never was.
            throw APIProblem.notFound("You have no want with that id, or no list with one of those ids.")
        }
    }

    static let listNotFound = APIProblem.notFound("You have no list with that id.")

    /// The draft checked; its problems are a 422 in the list form's words.
    private static func checked(_ draft: WishListDraft) throws -> WishListDraft.Checked {
        switch draft.checked() {
        case .success(let checked): return checked
        case .failure(let problems):
            let errors = WishListsController.errors(problems, in: Translations())
            throw APIProblem.unprocessable(["name", "occasion", "date", "visibility"].compactMap { errors[$0] }.joined(separator: " "))
        }
    }

    private func ownList(_ context: AppRequestContext, _ caller: APICaller) async throws -> WishList {
        guard let id = context.parameters.get("id").flatMap(ListID.init),
              let list = try await lists.list(id: id, ownerID: caller.userID)
        else { throw Self.listNotFound }
        return list
    }
}
