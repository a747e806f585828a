import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The book page: details, lists, rank charts and links, rendered once for everyone
/// (``BookPageCache``), with the visitor's wishlist mark and reading and the household's opinion
/// filled in.
extension CatalogController {
    /// A book's page: one read (the session's, ``PageLoaders``) for the visitor's wishlist mark,
    /// and the catalog's part only when the rendered page is not cached (``BookPageCache``).
    @Sendable func book(_ request: Request, context: AppRequestContext, loaded: LoadedBookPage) async throws -> Response {
        let read = loaded.read
        guard let read else { throw Self.unknownBook }
        let entry: BookPage
        if let cached = read.cached {
            entry = cached
        } else {
            let content = read.content!
            entry = try sharedBookPage(content, key: read.key, translations: context.visitor.translations, cover: await heldCover(of: content.book))
        }
        let returnTo = Self.returnPath(request)
        let language = context.visitor.translations.language.code
        // A tap on the stars comes back here with its confirmation beside them (issue 57).
        let readingFlash = try pages.cardFlash(context.visitor, cards: [Card.book(read.key.bookID)])
        let yourReading = SharedHTML<BookPage.Slot>.Fill.value(.html(try pages.fragment("partials/reading-form.html", [
            "csrf_token": .string(context.visitor.csrfToken), "errors": .null, "reading_flash": readingFlash?.html ?? .null,
            "reading": ReadingPresenter.formValue(
                bookID: read.key.bookID, title: entry.title, reading: read.reading, readingNow: read.readingNow, onWishlist: read.wishlistItem != nil, returnTo: returnTo, now: clock.now()
            ),
        ], language: language)))
        let household = SharedHTML<BookPage.Slot>.Fill.value(.html(try pages.fragment(
            "partials/household-opinion.html", ["opinion": ReadingPresenter.opinionValue(read.opinion)], language: language
        )))
        let childrenMarks = SharedHTML<BookPage.Slot>.Fill.value(read.children.isEmpty ? .null : .html(try pages.fragment(
            "partials/add-for-children.html", [
                "csrf_token": .string(context.visitor.csrfToken), "book_id": .string(read.key.bookID), "title": .string(entry.title),
                "children": .array(read.children.map {
                    ["username": .string($0.username), "path": .string(SitePath.person($0.username)), "name": .string($0.name), "wants": .bool($0.wantsBook)]
                }),
            ], language: language
        )))
        let listChoice = SharedHTML<BookPage.Slot>.Fill.value(read.lists.count < 2 ? .null : .html(try pages.fragment(
            "partials/list-choice.html", ["lists": .array(read.lists.map(WishListsController.listValue))], language: language
        )))
        let (givers, visitor) = try giversHTML(
            read.wants, everyone: try Self.namesEveryGiver(request), bookID: read.key.bookID, returnTo: returnTo, for: readingFlash?.visitor ?? context.visitor
        )
        return try pages.respond(entry.page, for: visitor) { slot in
            switch slot {
            case .childrenMarks: childrenMarks
            case .returnTo: .value(.string(returnTo))
            case .wishlistMark: .fragment(entry.marks.mark(itemID: read.wishlistItem))
            case .listChoice: listChoice
            case .item: .value(read.wishlistItem.map { .string(SitePath.wishlistItem($0)) } ?? .null)
            case .yourReading: yourReading
            case .household: household
            case .givers: givers
            }
        }
    }

    /// A book page's id, checked, and what the page reads for it (nil: no such book).
    func loadBookPage(_ request: Request, _ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead) throws -> LoadedBookPage {
        let id = context.parameters.get("id") ?? ""
        guard CatalogBook.isUsableID(id) else { throw Self.unknownBook }
        // The household panel is filled per request: the page follows only the catalog.
        let key = BookPageKey(bookID: id, isAdmin: user.isAdmin, statusLine: pages.notices.statusLine(), language: user.pageLanguage, generation: try read.catalog.generation())
        var cached = pageCaches.books.entry(key)
        // A page kept without its cover, which has come since: rendered again, to carry it.
        if let coming = cached?.coverToCome, covers?.contains(coming) == true { cached = nil }
        var content: BookPageContent?
        if cached == nil {
            guard let book = try read.catalog.book(id: id) else { return LoadedBookPage(read: nil) }
            content = BookPageContent(
                book: book, placements: try read.catalog.placements(of: [id])[id] ?? [], histories: try read.catalog.rankHistory(bookID: id)
            )
        }
        let wishlistItem = try read.wishlist.itemIDs(userID: user.userID, books: [id])[id]
        return LoadedBookPage(read: BookPageRead(
            key: key, cached: cached, content: content, wishlistItem: wishlistItem, reading: try read.reading.reading(bookID: id, userID: user.userID),
            readingNow: try read.reading.isReadingNow(bookID: id, userID: user.userID),
            opinion: try read.reading.opinion(bookID: id), children: try read.children.managed(by: user.userID, book: id),
            wants: try read.household.wants(bookID: id, viewerID: user.userID, readingWhole: Self.mayName(request, viewerID: user.userID)),
            // Her lists matter only to the add form, which a book she wants does not show.
            lists: wishlistItem == nil ? try read.lists.lists(ownerID: user.userID) : []
        ))
    }

    struct LoadedBookPage: KeepablePageRead, Sendable {
        let read: BookPageRead?

        var isWorthKeeping: Bool { read == nil || read?.cached != nil }
    }

    static let unknownBook = PageError(
        .notFound, title: Translations.marked("Book not found"), message: Translations.marked("We couldn’t find that book. It may have left the lists; browse the current lists instead.")
    )

    struct BookPageContent: Sendable {
        let book: CatalogBook
        let placements: [Placement]
        let histories: [RankHistory]
    }

    struct BookPageRead: Sendable {
        let key: BookPageKey
        let cached: BookPage?
        let content: BookPageContent?
        let wishlistItem: ItemID?
        let reading: Reading?
        /// She is reading it now (issue 57).
        let readingNow: Bool
        /// What the household thinks of the book, read with every request.
        let opinion: HouseholdOpinion
        /// The children the visitor manages, each with whether she wants the book.
        let children: [(username: String, name: String, wantsBook: Bool)]
        /// The other members' shared wants of the book, with their reservations (never the visitor's own),
        /// those the page may name read whole.
        let wants: [BookWant]
        /// The visitor's lists, her default first, while the book is not on her wishlist (issue 51).
        let lists: [WishList]
    }

    /// How many wants a book page names before "and N more" (docs/decisions/book-page-names-twelve-wanters.md).
    static let namedGivers = 12

    /// Whether the book page names everyone who wants the book (`?givers=all`, its "and N more" link).
    static func namesEveryGiver(_ request: Request) throws -> Bool {
        switch try request.queryText("givers") {
        case "": return false
        case "all": return true
        case let other:
            throw PageError.badRequest(
                Translations.marked("A book page names everyone who wants it with “givers=all”; “{value}” is not that."), values: ["value": String(other.prefix(40))]
            )
        }
    }

    /// Whether a book page names the want at `index` of its wants by name: the first
    /// ``namedGivers``, and beyond them each one the visitor holds or has just used a form on, so
    /// that her controls and its confirmation stay.
    static func names(_ index: Int, _ want: BookWant, viewerID: UserID?, flashCard: String?) -> Bool {
        index < namedGivers || (viewerID != nil && want.holder?.id == viewerID) || Card.item(want.itemID) == flashCard
    }

    /// The wants the page for `request` may name (``names(_:_:viewerID:flashCard:)``), for its read
    /// to read them whole: every one for `?givers=all` (and for a bad value, which the page answers
    /// with a 400), and the card that the flash cookie names, before ``FlashMiddleware`` has
    /// decided whether its confirmation shows.
    static func mayName(_ request: Request, viewerID: UserID) -> (Int, BookWant) -> Bool {
        if (try? namesEveryGiver(request)) != false { return { _, _ in true } }
        let flashCard = request.cookieValue(FlashMiddleware.cookieName).flatMap { FlashMiddleware.parts(of: $0).card }
        return { index, want in names(index, want, viewerID: viewerID, flashCard: flashCard) }
    }

    /// "Who here wants it" (partials/book-givers.html) for `visitor`, each want with her
    /// reservation controls as on the member's page, and the confirmation of a form on one of
    /// them shown there; the visitor is returned without that confirmation. Unless `everyone`,
    /// a long list names those ``names(_:_:viewerID:flashCard:)`` picks and links to the rest.
    func giversHTML(
        _ wants: [BookWant], everyone: Bool, bookID: String, returnTo: String, for visitor: Visitor
    ) throws -> (SharedHTML<BookPage.Slot>.Fill, Visitor) {
        guard !wants.isEmpty else { return (.value(.null), visitor) }
        let viewerID = visitor.signedIn?.userID, flashCard = visitor.flash?.card
        // Each want the page names was read whole (``mayName(_:viewerID:)``).
        let named: [(want: BookWant, held: HeldItem)] = wants.enumerated().compactMap { index, want in
            guard everyone || Self.names(index, want, viewerID: viewerID, flashCard: flashCard), let held = want.held else { return nil }
            return (want, held)
        }
        let cardFlash = try pages.cardFlash(visitor, cards: named.map { Card.item($0.want.itemID) })
        let values = named.enumerated().map { index, named in
            let (want, held) = named
            let seen = (held.holder?.id == viewerID ? held.seenByHolder : nil) ?? held.seenByOthers
            var value = HouseholdController.sharedItemValue(seen)
            value["person_name"] = .string(want.name)
            value["person_path"] = .string(SitePath.person(want.username))
            value["flash_html"] = index == cardFlash?.index ? cardFlash!.html : .null
            return TemplateValue.dictionary(value)
        }
        let html = try pages.fragment("partials/book-givers.html", [
            "wants": .array(values), "return_to": .string(returnTo), "csrf_token": .string(visitor.csrfToken),
            "more": .int(wants.count - named.count), "all_path": .string(SitePath.book(bookID) + "?givers=all#givers"),
        ], language: visitor.translations.language.code)
        return (.value(.html(html)), cardFlash?.visitor ?? visitor)
    }

    /// The book's cover as its page shows it (the large file), when the server holds it: its key,
    /// and its bytes or nil while it has not come (docs/decisions/book-page-carries-its-cover.md).
    func heldCover(of book: CatalogBook) async -> (key: String, bytes: [UInt8]?)? {
        guard let url = book.imageURL, !url.isEmpty, let covers else { return nil }
        let key = CoverKey.of(url)
        return (key, await covers.read(key, .large))
    }

    /// The `<img>` of a book's page with its picture in it, in the box the cover's values give: the
    /// cover's large file once the server holds it, if it is no larger than
    /// ``BookPresenter/carriedCoverLimit``; the jacket for a book without one; nil while its cover
    /// has not come, or when it is linked.
    private func carriedCover(_ book: CatalogBook, _ cover: (key: String, bytes: [UInt8]?)?, width: Int, height: Int) -> TrustedHTML? {
        if let bytes = cover?.bytes {
            guard let dataURL = BookPresenter.inlineCover(bytes) else { return nil }
            return BookPresenter.carriedCover(dataURL, width: width, height: height, isPlaceholder: false)
        }
        guard (book.imageURL ?? "").isEmpty, let jacket = pages.assets.current.coverPlaceholder else { return nil }
        return BookPresenter.carriedCover(jacket, width: width, height: height, isPlaceholder: true)
    }

    /// Renders a book's page for every visitor with the same key, and keeps it; `translations`
    /// are the key's language's, for its rank charts. The cover's bytes go into the page, so that
    /// it is painted with the HTML rather than a round trip after it.
    func sharedBookPage(
        _ content: BookPageContent, key: BookPageKey, translations: Translations, cover: (key: String, bytes: [UInt8]?)?
    ) throws -> BookPage {
        let book = content.book
        var detail = BookPresenter.bookDetail(book, in: translations)
        if case .dictionary(var shown) = detail["cover"], case .int(let width) = shown["width"], case .int(let height) = shown["height"],
           let carried = carriedCover(book, cover, width: width, height: height) {
            shown["carried"] = .html(carried)
            detail["cover"] = .dictionary(shown)
        }
        let slot = { (name: String) in BookPage.Slot(name, bookID: book.id) }
        let getLinks = BookPresenter.getLinks(
            BookPresenter.linkFacts(isbn13: book.isbn13, title: book.title, author: book.author), templates: links, nytBuyLinks: book.buyLinks
        )
        let page = try pages.renderShared(
            "books/show.html", title: book.title, nav: "lists", isAdmin: key.isAdmin, statusLine: key.statusLine, language: key.language,
            values: [
                "book": .dictionary(detail),
                "details": .dictionary(detail),
                "wishlist_mark": .slot("wishlist_mark"),
                "children_marks": .slot("children_marks"),
                "lists": .array(content.placements.map(BookPresenter.placementValue)),
                "histories": .array(try content.histories.map { history in
                    let html = try charts.html(for: history, in: translations) { try pages.fragment("partials/rank-chart.html", ["chart": $0], language: key.language) }
                    return ["display_name": .string(history.displayName), "html": .html(html)]
                }),
                // The book's first list leads back from it in the breadcrumbs.
                "breadcrumb_list": content.placements.first.map(BookPresenter.placementValue) ?? .null,
                "borrow_links": getLinks.borrow,
                "buy_links": getLinks.buy,
                "review_links": BookPresenter.linksValue(book.readingLinks, label: "label", in: translations),
                "your_reading": .slot("your_reading"),
                "household_html": .slot("household"),
                "givers_html": .slot("givers"),
            ],
            own: slot
        )
        let entry = BookPage(
            page: page, marks: try wishlistMarks(detail, withNote: true, language: key.language, own: slot), title: book.title,
            coverToCome: cover?.bytes == nil ? cover?.key : nil
        )
        pageCaches.books.keep(entry, for: key)
        return entry
    }
}
