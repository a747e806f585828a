import Foundation
import Hummingbird
import Logging
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// "Add a book that is not on a list" (`/books/new`): look it up on Open Library by ISBN or by
/// title and author and choose a result, or type it by hand when nothing is found or look-up is
/// off or down. The book gets a page of its own, and goes on the wishlist when the box is ticked.
/// An ISBN can also come from a photo of the book's barcode, or a page shared into the app
/// (`AddBookController+Barcodes.swift`).
struct AddBookController {
    let added: AddedBookStore
    let catalog: CatalogStore
    let wishlist: WishlistStore
    let openLibrary: OpenLibraryClient
    let covers: CoverStore
    let fetcher: CoverFetcher
    let barcodes: BookBarcodeReader
    let pages: PageRenderer
    let clock: WallClock
    let logger: Logger
    let secureCookies: Bool

    func addRoutes(to routes: SiteRouter) {
        routes.add(.newBook, use: page)
        routes.add(.addBook, use: add)
        routes.add(.scanBook, use: scan)
        routes.add(.sharedBook, use: shared)
    }

    /// What the person typed into the hand-entry form, shown again when it is refused.
    struct TypedBook {
        var title = ""
        var author = ""
        var isbn = ""
        var link = ""
        var wish = true
    }

    // MARK: Handlers

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = (isbn: try request.queryText("isbn"), title: try request.queryText("title"), author: try request.queryText("author"))
        var typed = TypedBook(title: query.title, author: query.author)
        guard !query.isbn.isEmpty || !query.title.isEmpty || !query.author.isEmpty else {
            return try render(context, query: query, typed: typed)
        }
        let isbn: ISBN
        if query.isbn.isEmpty {
            return try await lookUp(.search(title: query.title, author: query.author), context, query: query, typed: typed)
        }
        do {
            isbn = try ISBN(query.isbn)
        } catch {
            return try render(context, query: query, typed: typed, errors: ["lookup_isbn": error.sentence(in: context.visitor.translations)], status: .unprocessableContent)
        }
        typed.isbn = query.isbn
        if let known = try await catalog.listedBookID(isbn: isbn) {
            return try render(context, query: query, typed: typed, known: known)
        }
        return try await lookUp(.isbn(isbn), context, query: query, typed: typed)
    }

    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let form = context.form
        let typed = TypedBook(
            title: try form.text("title", maxLength: 4 * NewBookInput.titleMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines),
            author: try form.text("author", maxLength: 4 * NewBookInput.authorMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines),
            isbn: try form.text("isbn", maxLength: 40).trimmingCharacters(in: .whitespaces),
            link: try form.text("link", maxLength: 2 * NewBookInput.linkMaximumLength).trimmingCharacters(in: .whitespaces),
            wish: try form.checkbox("wish")
        )
        let book: NewBook
        if try form.text("source", maxLength: 20) == "openlibrary" {
            book = try Self.chosenResult(typed, form: form, openLibrary: openLibrary)
        } else if let checked = NewBookInput.book(title: typed.title, author: typed.author, isbn: typed.isbn, link: typed.link) {
            book = checked
        } else {
            let problems = NewBookInput.problems(title: typed.title, author: typed.author, isbn: typed.isbn, link: typed.link)
            return try render(context, query: ("", "", ""), typed: typed, errors: NewBookFormFields.errors(problems, in: context.visitor.translations), status: .unprocessableContent)
        }
        let now = clock.now()
        let outcome = try await added.add(book, at: now)
        if book.coverURL != nil { fetcher.nudge() }
        guard let saved = try await catalog.book(id: outcome.bookID) else { throw CatalogController.unknownBook }
        guard typed.wish else {
            // Only a list's book is "here already": one another member added answers as a new
            // add, so adding tells nobody what the others added.
            let listed = outcome == .known(bookID: saved.id) && !saved.isAdded
            return (listed ? Flash.bookKnown : .bookAdded).redirect(to: SitePath.book(saved.id), secure: secureCookies)
        }
        switch try await wishlist.add(saved, userID: user.userID, at: now) {
        case .added(let item): return Flash.added(item.id).redirect(to: SitePath.book(outcome.bookID), secure: secureCookies)
        case .alreadyThere(let item): return Flash.already(item.id).redirect(to: SitePath.book(outcome.bookID), secure: secureCookies)
        }
    }

    // MARK: Look-up

    enum Lookup {
        case isbn(ISBN)
        case search(title: String, author: String)
    }

    private func lookUp(
        _ lookup: Lookup, _ context: AppRequestContext, query: (isbn: String, title: String, author: String), typed: TypedBook
    ) async throws -> Response {
        let results: [LookupResult]
        do {
            switch lookup {
            case .isbn(let isbn): results = try await openLibrary.lookUp(isbn)
            case .search(let title, let author): results = try await openLibrary.search(title: title, author: author)
            }
        } catch {
            if case .unavailable(let reason) = error { logger.notice("Open Library look-up failed: \(reason)") }
            return try render(context, query: query, typed: typed, lookupProblem: error)
        }
        // Recorded before the page links them, so the cover route knows each key's address.
        for result in results {
            if let id = result.coverID { try await covers.want(openLibrary.coverURL(id: id)) }
        }
        if results.contains(where: { $0.coverID != nil }) { fetcher.nudge() }
        return try render(context, query: query, typed: typed, results: results)
    }

    /// A result's hidden fields, checked as strictly as typing: they came back from the browser.
    /// Gift ideas add a chosen result the same way (`IdeasController`).
    static func chosenResult(_ typed: TypedBook, form: FormBody, openLibrary: OpenLibraryClient) throws -> NewBook {
        guard !typed.title.isEmpty, typed.title.count <= NewBookInput.titleMaximumLength, typed.author.count <= NewBookInput.authorMaximumLength else {
            throw PageError.badRequest(Translations.marked("That result could not be added: its title is missing or too long. Look the book up again."))
        }
        let isbn = typed.isbn.isEmpty ? nil : try? ISBN(typed.isbn)
        let year = Int(try form.text("year", maxLength: 6)).flatMap { (1...9999).contains($0) ? $0 : nil }
        let cover = Int(try form.text("cover", maxLength: 12)).flatMap { $0 > 0 ? $0 : nil }
        let work = try form.text("work", maxLength: 40)
        let link = openLibrary.pageLink(workKey: work)
        return NewBook(
            title: typed.title, author: typed.author, isbn: isbn, firstPublished: year, link: link,
            coverURL: cover.map(openLibrary.coverURL(id:))
        )
    }

    // MARK: The page

    func render(
        _ context: AppRequestContext, query: (isbn: String, title: String, author: String), typed: TypedBook,
        results: [LookupResult]? = nil, known: String? = nil, lookupProblem: OpenLibraryClient.Failure? = nil,
        errors: FieldErrors = [:], status: HTTPResponse.Status = .ok
    ) throws -> Response {
        var values: [String: TemplateValue] = [
            "query": ["isbn": .string(query.isbn), "title": .string(query.title), "author": .string(query.author)],
            "typed": [
                "title": .string(typed.title), "author": .string(typed.author), "isbn": .string(typed.isbn), "link": .string(typed.link),
                "wish": .bool(typed.wish),
            ],
            "lookup_on": .bool(openLibrary.isOn),
            "errors": TemplateValue(errors),
            "barcode_script": true,
        ]
        if let results {
            values["results"] = .array(results.map { Self.resultValue($0, openLibrary: openLibrary) })
            values["searched"] = true
        }
        if let known { values["known_path"] = .string(SitePath.book(known)) }
        if let lookupProblem { values["lookup_problem"] = .string(Self.sentence(lookupProblem, in: context.visitor.translations)) }
        return try pages.render("books/new.html", title: context.visitor.translations.text("Add a book"), nav: "addbook", for: context.visitor, status: status, values: values)
    }

    /// A result as `books/new.html` and the ideas page show it, with its form's hidden fields.
    static func resultValue(_ result: LookupResult, openLibrary: OpenLibraryClient) -> TemplateValue {
        [
            "title": .string(result.title), "author": .string(result.author), "year": result.firstPublished.map { .int($0) } ?? .null,
            "isbn": .string(result.isbn?.isbn13 ?? ""), "publisher": .string(result.publisher),
            "cover_id": result.coverID.map { .string(String($0)) } ?? "",
            "work": .string(result.workKey ?? ""),
            "cover": BookPresenter.coverValue(url: result.coverID.map(openLibrary.coverURL(id:)), width: 0, height: 0),
        ]
    }

    /// Why look-up cannot help now, in the reader's language.
    static func sentence(_ failure: OpenLibraryClient.Failure, in translations: Translations) -> String {
        switch failure {
        case .off: translations.text("Look-up is off on this server. Type the book in below.")
        case .unavailable: translations.text("Open Library could not be reached just now. Type the book in below, or try again later.")
        case .busy: translations.text("Many look-ups are waiting for Open Library just now. Try again in a few seconds, or type the book in below.")
        }
    }
}
