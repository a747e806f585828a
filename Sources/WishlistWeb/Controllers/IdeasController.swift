import Foundation
import Hummingbird
import Logging
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Gift ideas for a member: the others suggest books, with a note, and reserve them like her
/// items. Every page here is a giver's; for the member herself these addresses answer exactly
/// as her own `/people/{username}` does, so nothing tells her there are ideas.
struct IdeasController {
    let database: AppDatabase
    let household: HouseholdStore
    let catalog: CatalogStore
    /// A book found on Open Library becomes a book here when it is suggested (issue 57).
    let added: AddedBookStore
    let openLibrary: OpenLibraryClient
    let covers: CoverStore
    let fetcher: CoverFetcher
    let pages: PageRenderer
    let clock: WallClock
    let logger: Logger
    let secureCookies: Bool

    func addRoutes(to routes: SiteRouter) {
        routes.add(.ideas, use: show)
        routes.add(.suggestIdea, use: suggest)
        routes.add(.reserveIdea, use: reserve)
        routes.add(.cancelIdeaReservation, use: cancel)
    }

    static let ideaNotFound = PageError(
        .notFound, title: Translations.marked("No such gift idea"),
        message: Translations.marked("That gift idea isn’t there any more: the member may have wished for the book themselves, or stopped sharing their list.")
    )

    /// The ideas, and with `?q=` books to suggest: any the household knows (every book the catalog
    /// keeps, and those members added) and, with look-up on, Open Library's (issue 57).
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
        let found = query.isEmpty ? [] : try await catalog.searchKnown(query, limit: 20)
        let (lookedUp, lookupProblem) = query.isEmpty ? ([], nil) : try await openLibraryBooks(query, known: Set(found.map(\.id)), in: context.visitor.translations)
        let path = SitePath.ideas(member.username)
        return try pages.render(
            "people/ideas.html", title: context.visitor.translations.text("Gift ideas for {name}", values: ["name": member.name]), nav: "people", for: context.visitor,
            values: [
                "member": ["name": .string(member.name), "path": .string(SitePath.person(member.username)), "ideas_path": .string(path)],
                "ideas": .array(ideas.map { Self.ideaValue($0, of: member.username) }),
                "q": .string(query), "searched": .bool(!query.isEmpty),
                "results": .array(found.map { ["id": .string($0.id), "title": .string($0.title), "author": .string($0.author)] }),
                "lookup_on": .bool(openLibrary.isOn), "lookup_problem": lookupProblem.map(TemplateValue.string) ?? .null,
                "lookup_results": .array(lookedUp.map { AddBookController.resultValue($0, openLibrary: openLibrary) }),
                "return_to": .string(path),
            ]
        )
    }

    @Sendable func suggest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard case .member(let member) = try await lookUp(context, viewerID: user.userID) else { throw HouseholdController.memberNotFound }
        let bookID = try await suggestedBookID(context.form)
        let note = try context.form.text("note", maxLength: 4 * HouseholdStore.ideaNoteMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= HouseholdStore.ideaNoteMaximumLength else {
            throw PageError(
                .unprocessableContent, title: Translations.marked("That note is too long"),
                message: Translations.marked("A note on an idea can be up to {maximum} characters; this one has {length}. Go back, shorten it and suggest again."),
                values: { [length = note.count] translations in
                    ["maximum": translations.language.formatted(HouseholdStore.ideaNoteMaximumLength), "length": translations.language.formatted(length)]
                }
            )
        }
        guard CatalogBook.isUsableID(bookID) else { throw CatalogController.unknownBook }
        switch try await household.suggest(bookID: bookID, for: member.id, by: user.userID, note: note, at: clock.now()) {
        case .suggested:
            return Flash.idea.redirect(to: SitePath.ideas(member.username), secure: secureCookies)
        case .alreadySuggested(let name):
            throw PageError(
                .conflict, title: Translations.marked("Already an idea"),
                message: Translations.marked("{name} has already suggested this book for {member}, so it is among the ideas once. Reserve it there."),
                values: { [member = member.name] _ in ["name": name, "member": member] }
            )
        case .alreadyWished:
            throw PageError(
                .conflict, title: Translations.marked("Already on the wishlist"),
                message: Translations.marked("{member} wishes for this book already, so it isn’t an idea: reserve it on their wishlist instead."),
                values: { [member = member.name] _ in ["member": member] }
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
            throw PageError(.conflict, title: Translations.marked("Already reserved by you"), message: Translations.marked("You have already reserved this idea as a gift, so nothing changed."))
        case .takenBy(let name):
            throw PageError(
                .conflict, title: Translations.marked("Already reserved"),
                message: Translations.marked("{name} has already reserved this idea as a gift, so it can’t be reserved twice."), values: { _ in ["name": name] }
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

    // MARK: Open Library

    /// Open Library's books for `query`, less those the household knows already; when it cannot
    /// answer, the sentence that says so (the household's books are still there).
    private func openLibraryBooks(_ query: String, known: Set<String>, in translations: Translations) async throws -> ([LookupResult], String?) {
        guard openLibrary.isOn else { return ([], nil) }
        let results: [LookupResult]
        do {
            results = try await openLibrary.search(words: query)
        } catch {
            if case .unavailable(let reason) = error { logger.notice("Open Library look-up failed: \(reason)") }
            return ([], error == .busy
                ? translations.text("Many look-ups are waiting for Open Library just now: only the books the household knows are shown. Try again in a few seconds.")
                : translations.text("Open Library could not be reached just now: only the books the household knows are shown. Try again later."))
        }
        let fresh = results.filter { $0.isbn.map { !known.contains($0.isbn13) } ?? true }
        // Recorded before the page links them, so the cover route knows each key's address.
        for result in fresh {
            if let id = result.coverID { try await covers.want(openLibrary.coverURL(id: id)) }
        }
        if fresh.contains(where: { $0.coverID != nil }) { fetcher.nudge() }
        return (fresh, nil)
    }

    /// The book an idea names: a book here (`book`), or an Open Library result chosen on the ideas
    /// page (`source=openlibrary` and its hidden fields), which becomes a book here first, as
    /// "Add a book" makes it, so that choosing it is one step.
    private func suggestedBookID(_ form: FormBody) async throws -> String {
        guard try form.text("source", maxLength: 20) == "openlibrary" else { return try form.text("book", maxLength: 40) }
        let typed = AddBookController.TypedBook(
            title: try form.text("title", maxLength: 4 * NewBookInput.titleMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines),
            author: try form.text("author", maxLength: 4 * NewBookInput.authorMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines),
            isbn: try form.text("isbn", maxLength: 40).trimmingCharacters(in: .whitespaces), wish: false
        )
        let book = try AddBookController.chosenResult(typed, form: form, openLibrary: openLibrary)
        let outcome = try await added.add(book, at: clock.now())
        if book.coverURL != nil { fetcher.nudge() }
        return outcome.bookID
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
