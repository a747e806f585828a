import Foundation
import Hummingbird
import WishlistCore
import WishlistTemplates

/// Gift ideas for a member: the others suggest books, with a note, and reserve them like her
/// items. Every page here is a giver's; for the member herself these addresses answer exactly
/// as her own `/people/{username}` does, so nothing tells her there are ideas.
struct IdeasController {
    let database: AppDatabase
    let household: HouseholdStore
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    let secureCookies: Bool

    func addRoutes(to routes: SiteRouter) {
        routes.add(.ideas, use: show)
        routes.add(.suggestIdea, use: suggest)
        routes.add(.reserveIdea, use: reserve)
        routes.add(.cancelIdeaReservation, use: cancel)
    }

    static let ideaNotFound = PageError(
        .notFound, title: "No such gift idea",
        message: "That gift idea isn't there any more: the member may have wished for the book themselves, or stopped sharing their list."
    )

    /// The ideas, and with `?q=` books from the catalog to suggest.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let member: Member
        switch try await lookUp(context, viewerID: user.userID) {
        case .viewer: return redirect(to: SitePath.wishlist)
        case .notFound: throw HouseholdController.memberNotFound
        case .member(let found): member = found
        }
        let query = try request.queryText("q")
        let ideas = try await database.pageRead { try $0.household.ideas(for: member.id, viewerID: user.userID) }
        let found = query.isEmpty ? [] : try await catalog.search(query, limit: 20)
        let path = SitePath.ideas(member.username)
        return try pages.render(
            "people/ideas.html", title: "Gift ideas for \(member.name)", nav: "people", for: context.visitor,
            values: [
                "member": ["name": .string(member.name), "path": .string(SitePath.person(member.username)), "ideas_path": .string(path)],
                "ideas": .array(ideas.map { Self.ideaValue($0, of: member.username) }),
                "q": .string(query), "searched": .bool(!query.isEmpty),
                "results": .array(found.map { ["id": .string($0.id), "title": .string($0.title), "author": .string($0.author)] }),
                "return_to": .string(path),
            ]
        )
    }

    @Sendable func suggest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard case .member(let member) = try await lookUp(context, viewerID: user.userID) else { throw HouseholdController.memberNotFound }
        let bookID = try context.form.text("book", maxLength: 40)
        let note = try context.form.text("note", maxLength: 4 * HouseholdStore.ideaNoteMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= HouseholdStore.ideaNoteMaximumLength else {
            throw PageError(
                .unprocessableContent, title: "That note is too long",
                message: "A note on an idea can be up to 500 characters; this one has \(note.count). Go back, shorten it and suggest again."
            )
        }
        guard CatalogBook.isUsableID(bookID) else { throw CatalogController.unknownBook }
        switch try await household.suggest(bookID: bookID, for: member.id, by: user.userID, note: note, at: clock.now()) {
        case .suggested:
            return Flash.idea.redirect(to: SitePath.ideas(member.username), secure: secureCookies)
        case .alreadySuggested(let name):
            throw PageError(
                .conflict, title: "Already an idea",
                message: "\(name) has already suggested this book for \(member.name), so it is among the ideas once. Reserve it there."
            )
        case .alreadyWished:
            throw PageError(
                .conflict, title: "Already on the wishlist",
                message: "\(member.name) wishes for this book already, so it isn't an idea: reserve it on their wishlist instead."
            )
        case .unknownBook:
            throw CatalogController.unknownBook
        case .notFound:
            throw HouseholdController.memberNotFound
        }
    }

    @Sendable func reserve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let (member, ideaID) = try await memberAndIdea(context, viewerID: user.userID)
        switch try await household.reserveIdea(ideaID: ideaID, giverID: user.userID, at: clock.now()) {
        case .reserved:
            return Flash.ideaReserved.redirect(to: SitePath.ideas(member.username), secure: secureCookies)
        case .alreadyYours:
            throw PageError(.conflict, title: "Already reserved by you", message: "You have already reserved this idea as a gift, so nothing changed.")
        case .takenBy(let name):
            throw PageError(
                .conflict, title: "Already reserved", message: "\(name) has already reserved this idea as a gift, so it can't be reserved twice."
            )
        case .notFound:
            throw Self.ideaNotFound
        }
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let (member, ideaID) = try await memberAndIdea(context, viewerID: user.userID)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.ideas(member.username))
        guard try await household.cancelIdea(ideaID: ideaID, giverID: user.userID) else { throw HouseholdController.reservationNotFound }
        return Flash.unreserved.redirect(to: returnTo, secure: secureCookies)
    }

    // MARK: Input

    private func lookUp(_ context: AppRequestContext, viewerID: UserID) async throws -> HouseholdStore.Lookup {
        let username = String((context.parameters.get("username") ?? "").prefix(AccountRules.usernameLengths.upperBound + 1))
        return try await database.pageRead { try $0.household.member(named: username, viewerID: viewerID) }
    }

    private func memberAndIdea(_ context: AppRequestContext, viewerID: UserID) async throws -> (Member, IdeaID) {
        guard case .member(let member) = try await lookUp(context, viewerID: viewerID) else { throw HouseholdController.memberNotFound }
        guard let ideaID = context.parameters.get("idea").flatMap(IdeaID.init) else { throw Self.ideaNotFound }
        return (member, ideaID)
    }

    static func ideaValue(_ idea: GiftIdea, of username: String) -> TemplateValue {
        var value: [String: TemplateValue] = [
            "id": .id(idea.id), "title": .string(idea.title), "author": .string(idea.author), "note": .string(idea.note),
            "suggested_by": .string(idea.suggestedBy), "book_path": .string(SitePath.book(idea.bookID)),
            "reserve_path": .string(SitePath.reserveIdea(username, idea.id)), "cancel_path": .string(SitePath.cancelIdeaReservation(username, idea.id)),
        ]
        switch idea.reservation {
        case .open: value["reservation"] = "open"
        case .byViewer: value["reservation"] = "you"
        case .byOther(let name, _):
            value["reservation"] = "other"
            value["reserved_by"] = .string(name)
        }
        return .dictionary(value)
    }
}
