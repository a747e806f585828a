import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The user's wishlist: add, list, open, annotate, remove, export and import.
struct WishlistController {
    let database: AppDatabase
    let wishlist: WishlistStore
    let lists: WishListStore
    let reading: ReadingStore
    let importer: GoodreadsImporter
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    let pageCaches: PageCaches
    let secureCookies: Bool
    /// A manager adds and removes a child's wants with these forms, naming her in `for` (issue 51).
    let children: Children

    func addRoutes(to routes: SiteRouter, loaders: PageLoaders) {
        routes.page(.wishlist, loaders: loaders, database: database, read: { request, _, user, read in
            try self.loadIndexPage(request, user, read)
        }, respond: index)
        routes.add(.addWish, use: add)
        routes.add(.wishlistExport, use: export)
        routes.add(.wishlistImport, use: importCSV)
        routes.add(.received, use: receivedBooks)
        routes.add(.wishAgain, use: wishAgain)
        routes.add(.confirmReceived, use: confirmReceived)
        routes.add(.markReceived, use: markReceived)
        routes.add(.wishlistItem, use: show)
        routes.add(.saveNote, use: saveNote)
        routes.add(.confirmRemoval, use: confirmRemoval)
        routes.add(.removeWish, use: remove)
    }

    static let notFound = PageError(
        .notFound, title: Translations.marked("Not on your wishlist"),
        message: Translations.marked("That book isn’t on your wishlist. It may have been removed; your wishlist shows everything that is.")
    )

    // MARK: Handlers

    @Sendable func index(_ request: Request, context: AppRequestContext, loaded: LoadedIndexPage) async throws -> Response {
        let user = try context.signedInUser()
        let entry = try sharedIndexPage(loaded, isAdmin: user.isAdmin, for: context.visitor)
        return try pages.respond(entry.page, for: context.visitor) { _ in .value(.null) }
    }

    /// The wishlist page's order and page number, checked, and its cached page or what to render it from.
    private func loadIndexPage(_ request: Request, _ user: Visitor.SignedIn, _ read: PageRead) throws -> LoadedIndexPage {
        let requested = try request.queryText("sort")
        guard let sort = requested.isEmpty ? .added : WishlistSort(rawValue: requested) else {
            throw PageError.badRequest(
                Translations.marked("The wishlist can be sorted by date added, priority, title or author; “{value}” is none of them."),
                values: ["value": String(requested.prefix(40))]
            )
        }
        let number = try PageNumber.parse(request.queryText("page"))
        let listText = try request.queryText("list")
        var list: ListID?
        if !listText.isEmpty {
            // Another's list, or one deleted since, is the same 404 as one that never was.
            guard let id = ListID(listText), try read.lists.list(id: id, ownerID: user.userID) != nil else { throw WishListsController.notFound }
            list = id
        }
        var key = WishlistPageKey(
            page: .own, ownerID: user.userID, sort: sort, pageNumber: number, isAdmin: user.isAdmin, statusLine: pages.notices.statusLine(),
            language: user.pageLanguage,
            generation: try read.catalog.generation() + read.wishlist.wishesGeneration(ownerID: user.userID)
        )
        key.list = list
        if let cached = pageCaches.ownWishlists.entry(key) { return LoadedIndexPage(sort: sort, list: list, read: .cached(cached)) }
        let items = if let list {
            try read.wishlist.items(userID: user.userID, onList: list, sort: sort, page: number)
        } else {
            try read.wishlist.items(userID: user.userID, sort: sort, page: number)
        }
        return LoadedIndexPage(
            sort: sort, list: list, read: .fresh(key, items, try read.catalog.placements(of: items.items.compactMap(\.bookID))),
            lists: try read.lists.lists(ownerID: user.userID)
        )
    }

    struct LoadedIndexPage: KeepablePageRead, Sendable {
        let sort: WishlistSort
        let list: ListID?
        let read: WishlistPageRead<WishlistItem>
        /// Her lists, read only for a page rendered afresh (their changes grow her generation).
        var lists: [WishList] = []

        var isWorthKeeping: Bool { read.isCached }
    }

    /// The wishlist as its owner sees it: from the cache, or rendered from the page's read and
    /// kept (``WishlistPageCache``).
    private func sharedIndexPage(_ loaded: LoadedIndexPage, isAdmin: Bool, for visitor: Visitor) throws -> WishlistPage {
        switch loaded.read {
        case .cached(let page):
            return page
        case .fresh(let key, let items, let placements):
            let page = WishlistPage(page: try pages.renderShared(
                "wishlist/index.html", title: visitor.translations.text("Your wishlist"), nav: "wishlist", isAdmin: isAdmin, statusLine: key.statusLine, language: key.language,
                values: Self.indexValues(items, sort: loaded.sort, placements: placements, lists: loaded.lists, chosen: loaded.list)
            ))
            pageCaches.ownWishlists.keep(page, for: key)
            return page
        }
    }

    /// Adds a catalog book and goes back where the button was, at the confirmation, which the
    /// book's card shows (a page without that card shows it at the top).
    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let child = try await Self.actingFor(context, user, children: children)
        let ownerID = child?.id ?? user.userID
        let bookID = try context.form.text("book", maxLength: 40)
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.wishlist)
        let listText = try context.form.text("list", maxLength: 20)
        var list: ListID?
        if !listText.isEmpty {
            guard let id = ListID(listText), try await lists.list(id: id, ownerID: ownerID) != nil else { throw WishListsController.notFound }
            list = id
        }
        guard CatalogBook.isUsableID(bookID), let book = try await catalog.book(id: bookID) else {
            throw PageError(.notFound, title: Translations.marked("Book not found"), message: Translations.marked("We couldn’t find that book in the catalog, so nothing was added. It may have left the lists."))
        }
        let (note, priority) = try Self.noteAndPriority(context)
        let added = try await wishlist.add(book, userID: ownerID, list: list, note: note, priority: priority, at: clock.now())
        // Her page, where her managers see the book on her list, as the household does.
        if let child { return redirect(to: SitePath.person(child.username)) }
        let flash: Flash = switch added {
        case .added(let item): .added(item.id)
        case .alreadyThere(let item): .already(item.id)
        }
        return flash.redirect(to: LocalPath.atConfirmation(returnTo), card: Card.book(book.id), secure: secureCookies)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let item = try await ownItem(context, userID: user.userID)
        return try await itemPage(context, item, entered: .init(note: item.note, priority: item.priority.rawValue))
    }

    /// Saves the note and the priority. A form without `priority` (an older page) keeps the item's.
    /// A want's note and priority, hers or, with `for`, a child's she manages (issue 51).
    @Sendable func saveNote(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let child = try await Self.actingFor(context, user, children: children)
        let ownerID = child?.id ?? user.userID
        let item = try await ownItem(context, userID: ownerID)
        // Read generously so that the rule, not the reader, tells the person it is too long.
        let note = try context.form.text("note", maxLength: 4 * WishlistStore.noteMaximumLength)
        let priorityText = try context.form.text("priority", maxLength: 40)
        let entered = ItemForm(note: note, priority: priorityText.isEmpty ? item.priority.rawValue : priorityText)
        var errors: FieldErrors = [:]
        if note.count > WishlistStore.noteMaximumLength {
            let language = context.visitor.translations.language
            errors["note"] = context.visitor.translations.text("Notes can be up to {maximum} characters; this one has {length}. Shorten it and save again.", values: ["maximum": language.formatted(WishlistStore.noteMaximumLength), "length": language.formatted(note.count)])
        }
        let priority = Priority(rawValue: entered.priority)
        if priority == nil {
            errors["priority"] = context.visitor.translations.text("Choose high, normal or low.")
        }
        guard errors.isEmpty, let priority else {
            if child != nil { throw PageError(.unprocessableContent, title: Translations.marked("The note was not saved"), message: errors.values.sorted().joined(separator: " ")) }
            return try await itemPage(context, item, entered: entered, errors: errors, status: .unprocessableContent)
        }
        guard try await wishlist.update(id: item.id, userID: ownerID, note: note, priority: priority) else { throw Self.notFound }
        if let child { return redirect(to: SitePath.childManagers(child.username) + "?done=wish-saved#want-\(item.id)") }
        return Flash.note.redirect(to: SitePath.wishlistItem(item.id), secure: secureCookies)
    }

    @Sendable func confirmRemoval(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let item = try await ownItem(context, userID: user.userID)
        return try pages.render(
            "wishlist/remove.html", title: context.visitor.translations.text("Remove {title}?", values: ["title": item.title]), nav: "wishlist", for: context.visitor,
            values: [
                "item": try await itemValue(item, detailed: false),
                "return_to": .string(Self.wishlistPage(try request.queryText("return_to"))),
            ]
        )
    }

    /// Removes the item and goes back to the page of the wishlist the button was on.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let child = try await Self.actingFor(context, user, children: children)
        let returnTo = Self.wishlistPage(try context.form.text("return_to", maxLength: 200))
        guard try await wishlist.delete(id: try Self.itemID(context), userID: child?.id ?? user.userID) != nil else { throw Self.notFound }
        if let child { return redirect(to: SitePath.childManagers(child.username) + "?done=wish-removed") }
        return Flash.removed.redirect(to: returnTo, secure: secureCookies)
    }

    /// The book page's optional note and priority when adding (issue 57); a list row's button
    /// sends neither. A refusal adds nothing and says why.
    private static func noteAndPriority(_ context: AppRequestContext) throws -> (String, Priority) {
        let note = try context.form.text("note", maxLength: 4 * WishlistStore.noteMaximumLength)
        guard note.count <= WishlistStore.noteMaximumLength else {
            throw PageError(
                .unprocessableContent, title: Translations.marked("The book was not added"),
                message: Translations.marked("Notes can be up to {maximum} characters; this one has {length}. Shorten it and add the book again."),
                values: { [length = note.count] in ["maximum": $0.language.formatted(WishlistStore.noteMaximumLength), "length": $0.language.formatted(length)] }
            )
        }
        let priorityText = try context.form.text("priority", maxLength: 40)
        guard let priority = priorityText.isEmpty ? .normal : Priority(rawValue: priorityText) else {
            throw PageError(.unprocessableContent, title: Translations.marked("The book was not added"), message: Translations.marked("Choose high, normal or low."))
        }
        return (note, priority)
    }

    /// The child a manager acts for (the form's `for`, her username), nil for the member herself;
    /// a name she does not manage is the 404 a child's managers page gives.
    static func actingFor(_ context: AppRequestContext, _ user: Visitor.SignedIn, children: Children) async throws -> ChildProfile? {
        let username = try context.form.text("for", maxLength: 40)
        if username.isEmpty { return nil }
        guard let child = try await children.managed(username: username, by: user.userID) else { throw ChildrenController.notManaged }
        return child
    }

    /// `path` when it is a page of the wishlist (`/wishlist?sort=…&page=…`), the first page otherwise.
    static func wishlistPage(_ path: String) -> String {
        path.hasPrefix(SitePath.wishlist + "?") ? LocalPath.validated(path, fallback: SitePath.wishlist) : SitePath.wishlist
    }

    /// "I got it" asks once (issue 57): a page with the real button, which works without script,
    /// since moving the book shows its cards and tells its givers, and cannot be undone.
    @Sendable func confirmReceived(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let item = try await ownItem(context, userID: user.userID)
        return try pages.render(
            "wishlist/received-confirm.html", title: context.visitor.translations.text("Did you get {title}?", values: ["title": item.title]), nav: "wishlist", for: context.visitor,
            values: [
                "item": try await itemValue(item, detailed: false),
                "return_to": .string(Self.wishlistPage(try request.queryText("return_to"))),
            ]
        )
    }

    /// "I got it": the item leaves the wishlist for the received books.
    @Sendable func markReceived(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard try await wishlist.markReceived(itemID: try Self.itemID(context), userID: user.userID, at: clock.now()) != nil else {
            throw PageError(
                .notFound, title: Translations.marked("Not on your wishlist"),
                message: Translations.marked("That book isn’t on your wishlist any more (it may be among the books you received already), so nothing changed.")
            )
        }
        return Flash.received.redirect(to: SitePath.received, secure: secureCookies)
    }

    @Sendable func receivedBooks(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let received = try await wishlist.received(userID: user.userID)
        let read = try await reading.readings(userID: user.userID, sort: .finished).compactMap(\.bookID)
        let readingNow = Set(try await reading.readingNow(userID: user.userID).map(\.bookID))
        return try pages.render(
            "wishlist/received.html", title: context.visitor.translations.text("Books you received"), nav: "wishlist", for: context.visitor,
            values: [
                "items": .array(received.map { received in
                    var value = ItemPresenter.value(received.item, placements: [], link: received.item.bookID.map(SitePath.book) ?? "")
                    value["received_at"] = .date(received.receivedAt)
                    value["cards"] = .array(received.cards.map { ["giver": .string($0.giverName), "message": .string($0.message)] })
                    value["reading_path"] = .string(received.item.bookID.map(SitePath.bookReading) ?? "")
                    value["restore_path"] = .string(SitePath.wishAgain(received.item.id))
                    value["is_read"] = .bool(received.item.bookID.map(read.contains) ?? false)
                    value["now_path"] = .string(received.item.bookID.map(SitePath.readingNow) ?? "")
                    value["is_reading_now"] = .bool(received.item.bookID.map(readingNow.contains) ?? false)
                    return .dictionary(value)
                }),
            ]
        )
    }

    /// A received book wished for again: a new wish, the same answer whoever gave or wrote for it.
    @Sendable func wishAgain(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        switch try await wishlist.wishAgain(receivedID: try Self.itemID(context), userID: user.userID, at: clock.now()) {
        case .wished:
            return Flash.wishedAgain.redirect(to: SitePath.wishlist, secure: secureCookies)
        case .alreadyOnWishlist:
            throw PageError(.conflict, title: Translations.marked("Already on your wishlist"), message: Translations.marked("You have added this book to your wishlist again since, so nothing changed."))
        case .notFound:
            throw PageError(.notFound, title: Translations.marked("Not among your received books"), message: Translations.marked("That book isn’t among the books you received, so nothing changed."))
        }
    }

    // MARK: Pages

    func indexPage(
        _ context: AppRequestContext, userID: UserID, sort: WishlistSort,
        summary: WishlistImportSummary? = nil, status: HTTPResponse.Status = .unprocessableContent, importError: String? = nil
    ) async throws -> Response {
        let items = try await wishlist.items(userID: userID, sort: sort, page: 1)
        let placements = try await catalog.placements(of: items.items.compactMap(\.bookID))
        var values = Self.indexValues(items, sort: sort, placements: placements, lists: try await lists.lists(ownerID: userID), chosen: nil)
        values["import_summary"] = summary.map { $0.templateValue(in: context.visitor.translations) } ?? .null
        values["import_error"] = importError.map(TemplateValue.string) ?? .null
        values["errors"] = importError.map { ["file": .string($0)] } ?? .null
        return try pages.render(
            "wishlist/index.html", title: context.visitor.translations.text("Your wishlist"), nav: "wishlist", for: context.visitor,
            status: importError == nil ? .ok : status, values: values
        )
    }

    /// What the wishlist page shows of one page of the wishlist, with the links to its
    /// neighbours in the same order.
    static func indexValues(
        _ items: PagedList<WishlistItem>, sort: WishlistSort, placements: [String: [Placement]], lists: [WishList], chosen: ListID?
    ) -> [String: TemplateValue] {
        let sortField = sort == .added ? nil : "sort=" + sort.rawValue
        let listField = chosen.map { "list=\($0.rawValue)" }
        let link = { (page: Int) in PageNumber.link(SitePath.wishlist, sortField, listField, page == 1 ? nil : "page=\(page)") }
        let here = link(items.number)
        return [
            "lists": .array(lists.map { list in
                var value = WishListsController.listValue(list)
                if case .dictionary(var fields) = value {
                    fields["current"] = .bool(list.id == chosen)
                    value = .dictionary(fields)
                }
                return value
            }),
            "list": lists.first { $0.id == chosen }.map(WishListsController.listValue) ?? .null,
            "list_query": .string(listField.map { "&" + $0 } ?? ""),
            "sort": .string(sort.rawValue),
            "items": .array(items.items.map { itemValue($0, placements: placements[$0.bookID ?? ""] ?? [], detailed: false) }),
            "count": .int(items.total),
            "pager": .dictionary(items.pagerFields(link: link)),
            // Where removing a book comes back to, when that is not the plain first page.
            "here": here == SitePath.wishlist ? .null : .string(here),
        ]
    }

    /// What the item form holds: the saved values, or what was typed when saving failed.
    struct ItemForm {
        var note: String
        var priority: String
    }

    private func itemPage(
        _ context: AppRequestContext, _ item: WishlistItem, entered: ItemForm, errors: FieldErrors = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let value = try await itemValue(item, detailed: true)
        let userID = try context.signedInUser().userID
        let onLists = Set(try await lists.listIDs(itemID: item.id))
        let myLists = try await lists.lists(ownerID: userID).map { list -> TemplateValue in
            ["id": .int(Int(list.id.rawValue)), "name": .string(list.name), "checked": .bool(onLists.contains(list.id)), "private": .bool(list.visibility == .private)]
        }
        // "I've read it" for a catalog book: the form offers to take the book off the wishlist.
        var readingForm = TemplateValue.null
        if let bookID = item.bookID {
            let saved = try await reading.reading(bookID: bookID, userID: try context.signedInUser().userID)
            readingForm = ReadingPresenter.formValue(
                bookID: bookID, title: item.title, reading: saved, readingNow: try await reading.isReadingNow(bookID: bookID, userID: userID), onWishlist: true, returnTo: SitePath.wishlistItem(item.id), now: clock.now()
            )
        }
        return try pages.render(
            "wishlist/item.html", title: item.title, nav: "wishlist", for: context.visitor, status: status,
            values: [
                "item": value,
                "details": value,
                "buy_links": BookPresenter.linksValue(item.buyLinks, label: "name"),
                "review_links": BookPresenter.linksValue(item.readingLinks, label: "label"),
                "note_value": .string(entered.note), "priority_value": .string(entered.priority),
                "reading": readingForm,
                "my_lists": .array(myLists),
                "errors": TemplateValue(errors),
            ]
        )
    }

    private func itemValue(_ item: WishlistItem, detailed: Bool) async throws -> TemplateValue {
        let placements = try await catalog.placements(of: item.bookID.map { [$0] } ?? [])
        return Self.itemValue(item, placements: placements[item.bookID ?? ""] ?? [], detailed: detailed)
    }

    static func itemValue(_ item: WishlistItem, placements: [Placement], detailed: Bool) -> TemplateValue {
        .dictionary(ItemPresenter.value(item, placements: placements, link: SitePath.wishlistItem(item.id), detailed: detailed))
    }

    // MARK: Input


    static func itemID(_ context: AppRequestContext) throws -> ItemID {
        guard let id = context.parameters.get("item").flatMap(ItemID.init) else { throw notFound }
        return id
    }

    /// The signed-in user's item, or the same 404 for an id that is someone else's or missing.
    private func ownItem(_ context: AppRequestContext, userID: UserID) async throws -> WishlistItem {
        guard let item = try await wishlist.item(id: try Self.itemID(context), userID: userID) else { throw Self.notFound }
        return item
    }
}
