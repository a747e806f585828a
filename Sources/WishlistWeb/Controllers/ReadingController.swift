import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// What a member has read: mark a book read with a rating, a review and a date, edit or forget
/// it, and "Books I've read".
struct ReadingController {
    let database: AppDatabase
    let reading: ReadingStore
    let catalog: CatalogStore
    let wishlist: WishlistStore
    let pages: PageRenderer
    let clock: WallClock
    let secureCookies: Bool

    func addRoutes(to routes: SiteRouter, loaders: PageLoaders) {
        routes.page(.reading, loaders: loaders, database: database, read: { [clock] request, _, user, read in
            try Self.loadIndex(request, user, read, year: FinishedDate(clock.now()).year)
        }, respond: index)
        routes.add(.bookReading, use: edit)
        routes.add(.saveReading, use: save)
        routes.add(.forgetReading, use: forget)
        routes.add(.rateBook, use: rate)
        routes.add(.startReading, use: startReading)
        routes.add(.stopReading, use: stopReading)
        routes.add(.setReadingGoal, use: setGoal)
    }

    // MARK: Handlers

    /// What "Books I've read" shows, read in the session's transaction (``PageLoaders``): a page
    /// of 100 in the order asked for (`?sort=`, `?page=`, as a wishlist's), and at the top the
    /// books she reads now and the year's count beside her goal (issue 57).
    struct IndexRead: Sendable {
        let sort: ReadingSort
        let readings: PagedList<Reading>
        let readingNow: [CurrentReading]
        let year: Int
        let readThisYear: Int
        let goal: Int?
    }

    static func loadIndex(_ request: Request, _ user: Visitor.SignedIn, _ read: PageRead, year: Int) throws -> IndexRead {
        let requested = try request.queryText("sort")
        guard let sort = requested.isEmpty ? .finished : ReadingSort(rawValue: requested) else {
            throw PageError.badRequest(
                Translations.marked("Books you’ve read can be sorted by date finished, rating, title or author; “{value}” is none of them."),
                values: ["value": String(requested.prefix(40))]
            )
        }
        let number = try PageNumber.parse(request.queryText("page"))
        return IndexRead(
            sort: sort, readings: try read.reading.readings(userID: user.userID, sort: sort, page: number),
            readingNow: try read.reading.readingNow(userID: user.userID), year: year,
            readThisYear: try read.reading.finishedCount(userID: user.userID, year: year), goal: try read.reading.goal(userID: user.userID, year: year)
        )
    }

    @Sendable func index(_ request: Request, context: AppRequestContext, page: IndexRead) async throws -> Response {
        let sortField = page.sort == .finished ? nil : "sort=" + page.sort.rawValue
        let link = { (number: Int) in PageNumber.link(SitePath.reading, sortField, number == 1 ? nil : "page=\(number)") }
        // Each row rates in one tap and comes back to itself, told so there (issue 57).
        let here = link(page.readings.number)
        let cards = page.readings.items.map { $0.bookID.map(Card.book) ?? "" }
        let cardFlash = try pages.cardFlash(context.visitor, cards: cards)
        let rows = page.readings.items.enumerated().map { index, saved in
            guard case .dictionary(var value) = ReadingPresenter.readingValue(saved), let bookID = saved.bookID else {
                return ReadingPresenter.readingValue(saved)
            }
            value["card"] = .string(cards[index])
            value["tap"] = ReadingPresenter.tapValue(bookID: bookID, title: saved.title, rating: saved.rating, returnTo: here)
            value["flash_html"] = index == cardFlash?.index ? cardFlash!.html : .null
            return .dictionary(value)
        }
        return try pages.render(
            "reading/index.html", title: context.visitor.translations.text("Books I’ve read"), nav: "reading", for: cardFlash?.visitor ?? context.visitor,
            values: [
                "sort": .string(page.sort.rawValue), "readings": .array(rows),
                "count": .int(page.readings.total), "pager": .dictionary(page.readings.pagerFields(link: link)),
                "reading_now": .array(page.readingNow.map(ReadingPresenter.readingNowValue)), "year": .int(page.year),
                "year_read": .int(page.readThisYear),
                "goal": page.goal.map { .int($0) } ?? .null, "goal_path": .string(SitePath.readingGoal),
            ]
        )
    }

    /// The reading form on a page of its own: where "Edit" in "Books I've read" leads, and where
    /// a refused form is shown again with its problems.
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        return try await editPage(context, book: book, userID: user.userID, returnTo: SitePath.book(book.id))
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.book(book.id))
        // Read generously so that the rule, not the reader, tells the person it is too long.
        let entered = (
            rating: try context.form.text("rating", maxLength: 40).trimmingCharacters(in: .whitespaces),
            review: try context.form.text("review", maxLength: 4 * ReadingInput.reviewMaximumLength),
            finished: try context.form.text("finished", maxLength: 40).trimmingCharacters(in: .whitespaces)
        )
        let now = clock.now()
        guard let input = ReadingInput(rating: entered.rating, review: entered.review, finished: entered.finished, now: now) else {
            let problems = ReadingInput.problems(rating: entered.rating, review: entered.review, finished: entered.finished, now: now)
            return try await editPage(
                context, book: book, userID: user.userID, returnTo: returnTo, entered: entered, errors: ReadingFormFields.errors(problems, in: context.visitor.translations),
                status: .unprocessableContent
            )
        }
        let removeFromWishlist = try context.form.checkbox("remove_from_wishlist")
        switch try await reading.record(bookID: book.id, userID: user.userID, input, removeFromWishlist: removeFromWishlist, at: now) {
        case .unknownBook:
            throw CatalogController.unknownBook
        case .recorded(let removed):
            // Back to the form's place (its book's page shows the confirmation beside it, issue 57),
            // or to the wishlist when the item it came from is gone.
            if removed && returnTo.hasPrefix(SitePath.wishlist) {
                return Flash.read(bookID: book.id, offWishlist: removed).redirect(to: SitePath.wishlist, secure: secureCookies)
            }
            return Flash.read(bookID: book.id, offWishlist: removed).redirect(to: LocalPath.atConfirmation(returnTo), card: Card.book(book.id), secure: secureCookies)
        }
    }

    /// One of five star buttons (issue 57): the rating is saved at once, the book marked read if
    /// it was not, and the reader is back where she tapped (the page's `#your-reading`, or her row).
    @Sendable func rate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.book(book.id))
        let entered = try context.form.text("rating", maxLength: 40).trimmingCharacters(in: .whitespaces)
        guard let rating = Int(entered), (1...5).contains(rating) else {
            throw PageError(
                .unprocessableContent, title: Translations.marked("That rating isn’t one to five stars"),
                message: Translations.marked("A rating is one to five stars; “{entered}” is none of them. Go back and tap a star."),
                values: { [entered = String(entered.prefix(40))] _ in ["entered": entered] }
            )
        }
        guard try await reading.rate(bookID: book.id, userID: user.userID, rating: rating, at: clock.now()) != .unknownBook else {
            throw CatalogController.unknownBook
        }
        return Flash.rated(bookID: book.id).redirect(to: LocalPath.atConfirmation(returnTo), card: Card.book(book.id), secure: secureCookies)
    }

    @Sendable func forget(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.book(book.id))
        _ = try await reading.forget(bookID: book.id, userID: user.userID)
        return Flash.unread.redirect(to: returnTo, secure: secureCookies)
    }

    // MARK: Pages

    private func editPage(
        _ context: AppRequestContext, book: CatalogBook, userID: UserID, returnTo: String,
        entered: (rating: String, review: String, finished: String)? = nil, errors: FieldErrors = [:], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let saved = try await reading.reading(bookID: book.id, userID: userID)
        let onWishlist = try await wishlist.itemIDsByBook(userID: userID)[book.id] != nil
        return try pages.render(
            "reading/edit.html", title: context.visitor.translations.text("Your reading of {title}", values: ["title": book.title]), nav: "reading", for: context.visitor, status: status,
            values: [
                "book": ["id": .string(book.id), "title": .string(book.title), "author": .string(book.author), "path": .string(SitePath.book(book.id))],
                "reading": ReadingPresenter.formValue(
                    bookID: book.id, title: book.title, reading: saved, entered: entered,
                    readingNow: try await reading.isReadingNow(bookID: book.id, userID: userID), onWishlist: onWishlist, returnTo: returnTo, now: clock.now()
                ),
                "errors": TemplateValue(errors),
            ]
        )
    }

    // MARK: Input

    /// The catalog book the path names, or the book page's 404.
    func catalogBook(_ context: AppRequestContext) async throws -> CatalogBook {
        let id = context.parameters.get("id") ?? ""
        guard CatalogBook.isUsableID(id), let book = try await catalog.book(id: id) else { throw CatalogController.unknownBook }
        return book
    }
}
