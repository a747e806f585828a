import Hummingbird
import WishlistCore
import WishlistLanguages

/// "Reading now" beside "I've read it", and the year's goal on "Books I've read" (issue 57).
extension ReadingController {
    /// Starts reading a book now; the form's other fields (the reading form's, whose second
    /// button this is) are not read. A book read already is not started again.
    @Sendable func startReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.book(book.id))
        switch try await reading.startReading(bookID: book.id, userID: user.userID, at: clock.now()) {
        case .unknownBook:
            throw CatalogController.unknownBook
        case .alreadyRead:
            throw PageError(
                .conflict, title: Translations.marked("You’ve read it already"),
                message: Translations.marked("You marked “{title}” read, so it can’t be one you’re reading now. Forget that you read it first, on its page, to start it again."),
                values: { [title = book.title] _ in ["title": title] }
            )
        case .started:
            return Flash.readingNow(bookID: book.id).redirect(to: LocalPath.atConfirmation(returnTo), card: Card.book(book.id), secure: secureCookies)
        }
    }

    @Sendable func stopReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let book = try await catalogBook(context)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.book(book.id))
        _ = try await reading.stopReading(bookID: book.id, userID: user.userID)
        return Flash.notReadingNow.redirect(to: returnTo, secure: secureCookies)
    }

    /// Sets this year's goal (1 to 1000 books), or clears it when the field is empty.
    @Sendable func setGoal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let entered = try context.form.text("goal", maxLength: 40)
        let year = FinishedDate(clock.now()).year
        switch ReadingGoal.entry(entered) {
        case .refused:
            throw PageError(
                .unprocessableContent, title: Translations.marked("That goal isn’t a number of books"),
                message: Translations.marked("A goal is a whole number of books from 1 to {maximum}; “{entered}” is not. Go back and enter a number, or leave the field empty for no goal."),
                values: { [entered = String(entered.prefix(40))] translations in ["maximum": translations.language.formatted(1000), "entered": entered] }
            )
        case .cleared:
            try await reading.setGoal(userID: user.userID, year: year, books: nil)
            return Flash.goalCleared.redirect(to: SitePath.reading, secure: secureCookies)
        case .books(let count):
            try await reading.setGoal(userID: user.userID, year: year, books: count)
            return Flash.goalSaved.redirect(to: SitePath.reading, secure: secureCookies)
        }
    }
}
