import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The read-only list behind a share link, for people without an account: one of a member's
/// lists (issue 57), its titles, authors, covers, notes and priorities, and nothing of any other
/// list or member. A guest may reserve a want with their name (``GuestReservations``): the page
/// then says "Reserved" on it, naming no one, and shows the guest a cancel link once.
struct ShareLinkController {
    let shareLinks: ShareLinkStore
    let lists: WishListStore
    let guests: GuestReservations
    let pages: PageRenderer
    let addressing: ClientAddressing
    /// Where cancel links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String

    func addRoutes(to routes: SiteRouter) {
        routes.add(.sharedList, use: show)
        routes.add(.reserveAsGuest, use: reserve)
        routes.add(.guestReservation, use: showCancel)
        routes.add(.cancelGuestReservation, use: cancel)
    }

    /// The token is in the address: search engines must not index the page, and links on it must
    /// not carry the address to another site (or, through the Referer, to this site's own log).
    static let privateHeaders: HTTPFields = [
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Robots-Tag")!: "noindex, nofollow",
    ]

    static let notFound = PageError(
        .notFound, title: Translations.marked("This link doesn’t work"),
        message: Translations.marked("The list behind this link isn’t shared any more: its owner may have replaced or revoked the link. Ask them for a new one."),
        headers: privateHeaders
    )

    static let notOnTheList = PageError(
        .notFound, title: Translations.marked("Not on this list"),
        message: Translations.marked("That book isn’t on this list any more. Go back to the list to see the books on it now."), headers: privateHeaders
    )

    static let unknownCancelLink = PageError(
        .notFound, title: Translations.marked("Nothing to cancel"),
        message: Translations.marked("This reservation is no longer held: it was cancelled already, or the book has left the list."), headers: privateHeaders
    )

    /// What a page answers about the guest's form: a refusal beside a want's name field, the
    /// reservation just made, or a sentence above the list.
    struct Outcome {
        var itemID: ItemID?
        var name = ""
        var nameError: String?
        /// The want just reserved (``itemID``) has this cancel link.
        var cancelLink: String?
        var notice: String?
        var status: HTTPResponse.Status = .ok
        var headers: HTTPFields = [:]
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await page(try await sharedList(context), context: context, outcome: Outcome())
    }

    @Sendable func reserve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let shared = try await sharedList(context)
        guard let itemID = ItemID(try context.form.text("item", maxLength: 20)) else { throw Self.notOnTheList }
        let typed = try context.form.text("name", maxLength: 4 * GuestReservations.nameMaximumLength)
        var outcome = Outcome(itemID: itemID, name: typed)
        switch GuestReservations.checkedName(typed) {
        case .failure(let problem):
            outcome.nameError = Self.message(problem, in: context.visitor.translations)
            outcome.status = .unprocessableContent
        case .success(let name):
            let address = addressing.address(of: request, context)
            switch try await guests.reserve(itemID: itemID, onList: shared.list.id, name: name, clientAddress: address) {
            case .reserved(let token):
                outcome = Outcome(itemID: itemID, cancelLink: publicOrigin + SitePath.guestReservation(token))
            case .taken:
                outcome.notice = context.visitor.translations.text("Someone has just reserved that book. Choose another one, or ask the family what they would like.")
                outcome.status = .conflict
            case .notFound:
                throw Self.notOnTheList
            case .throttled(let seconds):
                let refusal = PageError.tooManyAttempts(retryAfter: seconds, action: .reservation)
                outcome.notice = refusal.message(in: context.visitor.translations)
                outcome.status = .tooManyRequests
                outcome.headers = refusal.headers
            }
        }
        return try await page(shared, context: context, outcome: outcome)
    }

    /// A page with one button, not an answer that cancels: mail and chat apps open links.
    @Sendable func showCancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let held = try await guests.held(cancelToken: context.parameters.get("token") ?? "") else { throw Self.unknownCancelLink }
        return try pages.render(
            "shared/cancel.html", title: context.visitor.translations.text("Cancel your reservation"), for: context.visitor, headers: Self.privateHeaders,
            values: ["book_title": .string(held.title), "owner": .string(held.ownerName), "guest": .string(held.guestName), "noindex": true]
        )
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard try await guests.cancel(cancelToken: context.parameters.get("token") ?? "") else { throw Self.unknownCancelLink }
        return try pages.render(
            "shared/cancel.html", title: context.visitor.translations.text("Reservation cancelled"), for: context.visitor, headers: Self.privateHeaders,
            values: ["cancelled": true, "noindex": true]
        )
    }

    // MARK: Pages

    /// The list a link opens; a private one shows nothing, as a revoked link does
    /// (docs/decisions/share-links-per-list.md).
    private func sharedList(_ context: AppRequestContext) async throws -> ShareLinkStore.Shared {
        guard let shared = try await shareLinks.shared(token: context.parameters.get("token") ?? ""), shared.list.visibility == .household
        else { throw Self.notFound }
        return shared
    }

    private func page(_ shared: ShareLinkStore.Shared, context: AppRequestContext, outcome: Outcome) async throws -> Response {
        let list = shared.list
        let items = try await lists.items(onList: list.id, ownerID: list.ownerID, sort: .priority)
        // Its owner, signed in, sees her list as before: no reservation, not even a guest's, reaches her.
        let isOwner = context.visitor.signedIn?.userID == list.ownerID
        let reserved = isOwner ? [] : try await guests.reservedItems(onList: list.id)
        var headers = Self.privateHeaders
        headers.append(contentsOf: outcome.headers)
        return try pages.render(
            "shared/show.html", title: Self.title(of: list, owner: shared.ownerName, in: context.visitor.translations),
            for: context.visitor, status: outcome.status, headers: headers,
            values: [
                "owner": .string(shared.ownerName),
                "list_name": list.isDefault ? .null : .string(list.name),
                "items": .array(items.map { item in
                    var value = ItemPresenter.value(item, placements: [], link: "")
                    if !isOwner { value.merge(Self.guestValues(item.id, reserved: reserved.contains(item.id), outcome: outcome)) { _, new in new } }
                    return .dictionary(value)
                }),
                "count": .int(items.count),
                "guests": .bool(!isOwner),
                "reserved_title": .string(items.first { $0.id == outcome.itemID }?.title ?? ""),
                "cancel_link": outcome.cancelLink.map(TemplateValue.string) ?? .null,
                "notice": outcome.notice.map(TemplateValue.string) ?? .null,
                "noindex": true,
            ]
        )
    }

    /// "Maya’s wishlist", or "Maya’s Birthday" for another of her lists.
    private static func title(of list: WishList, owner: String, in translations: Translations) -> String {
        list.isDefault
            ? translations.text("{name}’s wishlist", values: ["name": owner])
            : translations.text("{owner}’s {list}", values: ["owner": owner, "list": list.name])
    }

    /// A row's guest form: open or "Reserved", and what the guest typed and was told about it.
    private static func guestValues(_ id: ItemID, reserved: Bool, outcome: Outcome) -> [String: TemplateValue] {
        let refused = outcome.itemID == id && outcome.nameError != nil
        return [
            "guest_state": .string(reserved ? "reserved" : "open"),
            "guest_name_id": .string("guest-name-\(id)"),
            "guest_name_value": .string(refused ? outcome.name : ""),
            "guest_name_error": refused ? .string(outcome.nameError ?? "") : .null,
        ]
    }

    /// The sentence beside a guest's name, in the reader's language.
    static func message(_ problem: GuestReservations.NameProblem, in translations: Translations) -> String {
        switch problem {
        case .missing: translations.text("Give your name, so the family knows who is bringing it.")
        case .tooLong:
            translations.text(
                "A name can be up to {maximum} characters. Shorten it and reserve again.",
                values: ["maximum": translations.language.formatted(GuestReservations.nameMaximumLength)]
            )
        case .controlCharacters: translations.text("A name is one line of text.")
        }
    }
}
