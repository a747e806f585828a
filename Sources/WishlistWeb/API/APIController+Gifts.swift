import Foundation
import Hummingbird
import WishlistCore

/// Reserving a member's want and cancelling it, and "Gifts I'm giving" (issue 54), as the
/// reservation forms do them: a want of one's own, or on a list the household does not see, is
/// the 404 of one that never was, so nothing here tells an owner about her own wants.
extension APIController {
    func addGiftRoutes(to routes: SiteRouter) {
        routes.add(.apiGifts, use: gifts)
        routes.add(.apiReserve, use: reserve)
        routes.add(.apiCancelReservation, use: cancelReservation)
    }

    struct GiftBody: Encodable {
        let id: Int64
        /// The want reserved, while it is on her shared list; nil once it is not.
        let wantId: Int64?
        /// Her username when it was reserved.
        let owner: String
        let ownerName: String
        let title: String
        let author: String
        let reservedAt: Date
        let bought: Bool
        /// `reserved`, `list_hidden`, `removed`, `list_gone`, `given` or `idea`.
        let state: String

        init(_ gift: Gift) {
            id = gift.id.rawValue
            owner = gift.ownerName
            ownerName = gift.ownerShownName
            title = gift.title
            author = gift.author
            reservedAt = gift.reservedAt
            bought = gift.boughtAt != nil
            switch gift.state {
            case .reserved(let item): (wantId, state) = (item.id.rawValue, "reserved")
            case .listHidden: (wantId, state) = (nil, "list_hidden")
            case .removed: (wantId, state) = (nil, "removed")
            case .listGone: (wantId, state) = (nil, "list_gone")
            case .given: (wantId, state) = (nil, "given")
            case .idea: (wantId, state) = (nil, "idea")
            }
        }
    }

    struct NewReservation: Decodable {
        let wantId: Int64
    }

    struct ReservationBody: Encodable {
        let wantId: Int64
        let reservation: String
    }

    /// `GET /api/v1/reservations`: the gifts she is giving, as Gifts I'm giving lists them.
    @Sendable func gifts(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let gifts = APIResponse.Named("reservations", try await household.gifts(giverID: caller.userID).map(GiftBody.init))
        return APIResponse.json(gifts, for: request)
    }

    /// `POST /api/v1/reservations` `{"want_id": 12}`: 201 reserved, 200 already hers, 409 another giver's.
    @Sendable func reserve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await APIResponse.body(NewReservation.self, of: request)
        guard body.wantId > 0 else { throw Self.nothingToReserve }
        let itemID = ItemID(body.wantId)
        let headers: HTTPFields = [.location: SitePath.apiReservations]
        switch try await household.reserve(itemID: itemID, giverID: caller.userID, at: clock.now()) {
        case .reserved:
            return APIResponse.json(ReservationBody(wantId: body.wantId, reservation: "yours"), status: .created, headers: headers, for: request)
        case .alreadyYours:
            return APIResponse.json(ReservationBody(wantId: body.wantId, reservation: "yours"), headers: headers, for: request)
        case .takenBy:
            throw APIProblem(status: .conflict, detail: "Another giver has already reserved this want.")
        case .notFound:
            throw Self.nothingToReserve
        }
    }

    /// `DELETE /api/v1/reservations/{want id}`: cancels her reservation of that want.
    @Sendable func cancelReservation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        guard let itemID = context.parameters.get("id").flatMap(ItemID.init),
              try await household.cancel(itemID: itemID, giverID: caller.userID)
        else { throw APIProblem.notFound("You have no reservation of a want with that id.") }
        return APIResponse.noContent
    }

    static let nothingToReserve = APIProblem.notFound("No want with that id is on a list shared with you.")
}
