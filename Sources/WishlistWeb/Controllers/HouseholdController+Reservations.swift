import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages

/// The reservation forms of a member's page and of Gifts I'm giving: reserve, cancel, bought, the
/// card, and dismissing a notice. Each returns to the page it came from.
extension HouseholdController {
    @Sendable func reserve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = ItemID(try context.form.text("item", maxLength: 40)) else { throw Self.nothingToReserve }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        switch try await household.reserve(itemID: itemID, giverID: user.userID, at: clock.now()) {
        case .reserved:
            return confirm(.reserved(itemID), returningTo: returnTo, item: itemID)
        case .alreadyYours:
            throw PageError(
                .conflict, title: Translations.marked("Already reserved by you"),
                message: Translations.marked("You have already reserved this book as a gift, so nothing changed. Gifts I’m giving lists it.")
            )
        case .takenBy(let name):
            if let page = try await lostRace(itemID, to: name, returnTo: returnTo, context) { return page }
            throw PageError(
                .conflict, title: Translations.marked("Already reserved"),
                message: Translations.marked("{name} has already reserved this book as a gift, so it can’t be reserved twice. Choose another book from the list."),
                values: { _ in ["name": name] }
            )
        case .notFound:
            throw Self.nothingToReserve
        }
    }

    /// A reservation someone else made first: the member's page the giver came from, again,
    /// with who was quicker on the book's card, as a 409. Only a giver gets here (`reserve` finds
    /// no item of one's own list), so an owner never reads who reserved her book. Nil when
    /// `returnTo` is not a member's page, which the plain error page answers.
    func lostRace(_ itemID: ItemID, to name: String, returnTo: String, _ context: AppRequestContext) async throws -> Response? {
        guard let (username, sort, page) = Self.memberPage(returnTo) else { return nil }
        let viewer = try context.signedInUser()
        let loaded = try await database.pageRead { try self.loadMemberPage(username: username, sort: sort, page: page, viewer, $0) }
        guard case .found(let member, let sort, let read, let about, let lists) = loaded else { return nil }
        var visitor = context.visitor
        visitor.flash = PageFlash(kind: "error", message: visitor.translations.text("Already reserved by {name} — pick another.", values: ["name": name]), card: Card.item(itemID))
        let entry = try sharedMemberPage(member, sort: sort, read: read, lists: lists, isAdmin: viewer.isAdmin)
        var response = try respond(entry, about: try memberAbout(member, about, in: visitor.translations), for: visitor)
        response.status = .conflict
        return response
    }

    /// The member, the order and the page number of a member's page at `path`
    /// (`/people/{username}?sort=…&page=…`); an order or a number the page does not know is left
    /// out rather than refused.
    static func memberPage(_ path: String) -> (username: String, sort: String, page: Int)? {
        guard let parts = URLComponents(string: path), parts.path.hasPrefix(SitePath.people + "/") else { return nil }
        let username = String(parts.path.dropFirst(SitePath.people.count + 1))
        guard !username.isEmpty, !username.contains("/") else { return nil }
        let field = { (name: String) in parts.queryItems?.first { $0.name == name }?.value ?? "" }
        let sort = field("sort")
        return (username, WishlistSort(rawValue: sort) == nil ? "" : sort, (try? PageNumber.parse(field("page"))) ?? 1)
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        guard try await household.cancel(itemID: itemID, giverID: user.userID) else { throw Self.reservationNotFound }
        return confirm(.unreserved, returningTo: returnTo, item: itemID)
    }

    @Sendable func markBought(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changeBought(context, to: true)
    }

    @Sendable func unmarkBought(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changeBought(context, to: false)
    }

    func changeBought(_ context: AppRequestContext, to bought: Bool) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        switch try await household.markBought(itemID: itemID, giverID: user.userID, bought, at: clock.now()) {
        case .changed:
            return confirm(bought ? .bought : .unbought, returningTo: returnTo, item: itemID)
        case .unchanged:
            throw PageError(
                .conflict, title: bought ? Translations.marked("Already bought") : Translations.marked("Not marked bought"),
                message: bought
                    ? Translations.marked("You had already marked this gift bought, so nothing changed.")
                    : Translations.marked("This gift wasn’t marked bought, so nothing changed.")
            )
        case .notReserved:
            throw Self.reservationNotFound
        }
    }

    @Sendable func writeCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        let message = try context.form.text("message", maxLength: 4 * HouseholdStore.cardMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines)
        guard message.count <= HouseholdStore.cardMaximumLength else {
            let length = message.count
            throw PageError(
                .unprocessableContent, title: Translations.marked("That card is too long"),
                message: Translations.marked("A card can be up to {maximum} characters; this one has {length}. Go back, shorten it and save it again."),
                values: { translations in
                    ["maximum": translations.language.formatted(HouseholdStore.cardMaximumLength), "length": translations.language.formatted(length)]
                }
            )
        }
        guard try await household.setCard(itemID: itemID, giverID: user.userID, message: message) != .notReserved else {
            throw Self.reservationNotFound
        }
        return confirm(message.isEmpty ? .cardRemoved : .card, returningTo: returnTo, item: itemID)
    }

    @Sendable func dismiss(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let reservationID = context.parameters.get("reservation").flatMap(ReservationID.init) else { throw Self.noticeNotFound }
        guard try await household.dismiss(reservationID: reservationID, giverID: user.userID) else { throw Self.noticeNotFound }
        return redirect(to: SitePath.reservations)
    }
}
