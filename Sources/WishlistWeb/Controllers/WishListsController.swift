import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A member's lists (issue 51): make, edit and delete them, choose the lists a want is on, and
/// give each list its own share link (issue 57). The wants themselves are the wishlist's
/// (``WishlistController``); `/wishlist?list={id}` shows one list's.
struct WishListsController {
    let lists: WishListStore
    let shareLinks: ShareLinkStore
    let pages: PageRenderer
    let clock: WallClock
    /// Where share links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String
    let secureCookies: Bool
    /// A manager puts a child's want on her lists with the same form, naming her in `for`.
    let children: Children

    func addRoutes(to routes: SiteRouter) {
        routes.add(.newWishList, use: newList)
        routes.add(.createWishList, use: create)
        routes.add(.wishListEdit, use: edit)
        routes.add(.saveWishList, use: save)
        routes.add(.deleteWishList, use: delete)
        routes.add(.placeItem, use: place)
        routes.add(.createListShareLink, use: createShareLink)
        routes.add(.revokeListShareLink, use: revokeShareLink)
        routes.add(.wishListExport, use: export)
    }

    static let notFound = PageError(
        .notFound, title: Translations.marked("Not one of your lists"),
        message: Translations.marked("That list isn’t one of yours. It may have been deleted; your wishlist shows the lists you have.")
    )

    // MARK: Handlers

    @Sendable func newList(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await formPage(context, list: nil, entered: WishListDraft(name: "", occasion: Occasion.none.rawValue, date: "", visibility: ListVisibility.household.rawValue))
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let draft = try Self.draft(context.form)
        switch draft.checked() {
        case .failure(let problems):
            return try await formPage(context, list: nil, entered: draft, errors: Self.errors(problems, in: context.visitor.translations), status: .unprocessableContent)
        case .success(let checked):
            let list = try await lists.create(checked, ownerID: user.userID, at: clock.now())
            return Flash.listMade.redirect(to: SitePath.wishList(list.id), secure: secureCookies)
        }
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let list = try await ownList(context)
        return try await formPage(context, list: list, entered: Self.draft(of: list))
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let list = try await ownList(context)
        let draft = try Self.draft(context.form)
        switch draft.checked() {
        case .failure(let problems):
            return try await formPage(context, list: list, entered: draft, errors: Self.errors(problems, in: context.visitor.translations), status: .unprocessableContent)
        case .success(let checked):
            guard try await lists.update(id: list.id, ownerID: user.userID, checked) else { throw Self.notFound }
            return Flash.listSaved.redirect(to: SitePath.wishList(list.id), secure: secureCookies)
        }
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let deleteWants = try context.form.checkbox("delete_wants")
        switch try await lists.delete(id: try Self.listID(context), ownerID: user.userID, deleteWants: deleteWants) {
        case .deleted:
            return (deleteWants ? Flash.listDeletedWants : .listDeleted).redirect(to: SitePath.wishlist, secure: secureCookies)
        case .isDefault:
            throw PageError(
                .conflict, title: Translations.marked("Your wishlist stays"),
                message: Translations.marked("Your first list can’t be deleted: a book you add goes there, and so does every book of a list you delete. Rename it if you like.")
            )
        case .notFound:
            throw Self.notFound
        }
    }

    /// Makes the list's new share link (its old one stops working) and shows it on the edit page
    /// this once: only its hash is kept, so it cannot be shown again after a redirect.
    @Sendable func createShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let list = try await ownList(context)
        guard let token = try await shareLinks.create(list: list.id, ownerID: list.ownerID, at: clock.now()) else { throw Self.notFound }
        return try await formPage(
            context, list: list, entered: Self.draft(of: list), newShareLink: publicOrigin + SitePath.sharedList(token)
        )
    }

    @Sendable func revokeShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let list = try await ownList(context)
        _ = try await shareLinks.revoke(list: list.id, ownerID: list.ownerID)
        return Flash.shareLinkRevoked.redirect(to: SitePath.wishListEdit(list.id), secure: secureCookies)
    }

    /// One of her lists as the Goodreads CSV of `/wishlist.csv` (its wants on the to-read shelf,
    /// newest first), private ones included: only its owner reaches it.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let list = try await ownList(context)
        return Self.csvDownload(list, items: try await lists.items(onList: list.id, ownerID: list.ownerID, sort: .added))
    }

    /// A list's wants as a Goodreads CSV download, named after the list. Nothing a giver planned
    /// is in it: the rows are the wants' own books and notes.
    static func csvDownload(_ list: WishList, items: [WishlistItem]) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(fileName(list)).csv\"",
                .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: GoodreadsCSV.export(wishes: items, readings: [])))
        )
    }

    /// The list's name in plain ASCII for a file name ("Zoë’s birthday" is `zoes-birthday`), or `list-12`.
    static func fileName(_ list: WishList) -> String {
        let folded = list.name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
            .replacingOccurrences(of: "’", with: "").replacingOccurrences(of: "'", with: "")
        let name = folded.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.joined(separator: "-")
        return name.isEmpty ? "list-\(list.id)" : String(name.prefix(60))
    }

    /// Puts a want on exactly the lists ticked: moving and copying in one plain form. With `for`,
    /// a child's want on her lists, from her managers page (issue 51).
    @Sendable func place(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let child = try await WishlistController.actingFor(context, user, children: children)
        let itemID = try WishlistController.itemID(context)
        let chosen = try context.form.values("list", maxLength: 20, maxCount: 1000)
        let ids = try chosen.map { text in
            guard let id = ListID(text) else { throw Self.notFound }
            return id
        }
        switch try await lists.place(itemID: itemID, on: Set(ids), ownerID: child?.id ?? user.userID) {
        case .saved:
            if let child { return redirect(to: SitePath.childManagers(child.username) + "?done=wish-placed#want-\(itemID)") }
            return Flash.listsPlaced.redirect(to: SitePath.wishlistItem(itemID), secure: secureCookies)
        case .noList:
            throw PageError(
                .unprocessableContent, title: Translations.marked("Choose at least one list"),
                message: Translations.marked("A book on your wishlist is on at least one of your lists. Tick one, or remove the book from your wishlist instead.")
            )
        case .notFound:
            // The same answer for another's want, another's list, or one that never was.
            throw WishlistController.notFound
        }
    }

    // MARK: Pages

    /// The form; an existing list's page also shows its share link's state, or the link just made
    /// (`newShareLink`), which only this answer shows.
    private func formPage(
        _ context: AppRequestContext, list: WishList?, entered: WishListDraft, errors: FieldErrors = [:], status: HTTPResponse.Status = .ok,
        newShareLink: String? = nil
    ) async throws -> Response {
        var shareLink = TemplateValue.null
        if let list, let made = try await shareLinks.createdAt(list: list.id, ownerID: list.ownerID) {
            shareLink = ["created_at": .date(made)]
        }
        return try pages.render(
            "wishlist/list-form.html", title: Self.formTitle(list, in: context.visitor.translations), nav: "wishlist", for: context.visitor, status: status,
            values: [
                "list": list.map(Self.listValue) ?? .null,
                "name_value": .string(entered.name), "occasion_value": .string(entered.occasion),
                "date_value": .string(entered.date), "visibility_value": .string(entered.visibility),
                "errors": TemplateValue(errors),
                "share_link": shareLink, "new_share_link": newShareLink.map(TemplateValue.string) ?? .null,
            ]
        )
    }

    /// A list as the pages show it.
    static func listValue(_ list: WishList) -> TemplateValue {
        .dictionary(listFields(list))
    }

    static func listFields(_ list: WishList) -> [String: TemplateValue] {
        [
            "id": .int(Int(list.id.rawValue)), "name": .string(list.name), "path": .string(SitePath.wishList(list.id)),
            "edit_path": .string(SitePath.wishListEdit(list.id)), "share_link_path": .string(SitePath.listShareLink(list.id)),
            "revoke_share_link_path": .string(SitePath.revokeListShareLink(list.id)), "occasion": .string(occasionKind(list)),
            "occasion_date": .string(list.occasionDate ?? ""),
            "private": .bool(list.visibility == .private), "is_default": .bool(list.isDefault), "count": .int(list.itemCount),
            "export_path": .string(SitePath.wishListExport(list.id)), "delete_path": .string(SitePath.deleteWishList(list.id)),
        ]
    }

    /// "Edit Birthday", or "New list" before there is one.
    private static func formTitle(_ list: WishList?, in translations: Translations) -> String {
        list.map { translations.text("Edit {name}", values: ["name": $0.name]) } ?? translations.text("New list")
    }

    /// The occasion a list's line names, "birthday", "christmas" or "date" (with `occasion_date`),
    /// worded by the page in its language; "" for none, or a day never given.
    static func occasionKind(_ list: WishList) -> String {
        switch list.occasion {
        case .none: ""
        case .date where list.occasionDate == nil: ""
        default: list.occasion.rawValue
        }
    }

    // MARK: Input

    /// What the form holds for a saved list.
    static func draft(of list: WishList) -> WishListDraft {
        WishListDraft(name: list.name, occasion: list.occasion.rawValue, date: list.occasionDate ?? "", visibility: list.visibility.rawValue)
    }

    static func draft(_ form: FormBody) throws -> WishListDraft {
        // Read generously so that the rule, not the reader, tells the person it is too long.
        WishListDraft(
            name: try form.text("name", maxLength: 4 * WishListDraft.nameMaximumLength),
            occasion: try form.text("occasion", maxLength: 20), date: try form.text("date", maxLength: 20),
            visibility: try form.text("visibility", maxLength: 20)
        )
    }

    /// The list form's problems beside their fields, in the reader's language.
    static func errors(_ problems: WishListProblems, in translations: Translations) -> FieldErrors {
        var errors: FieldErrors = [:]
        if problems.contains(.nameMissing) { errors["name"] = translations.text("Give the list a name, such as Birthday or Someday.") }
        if problems.contains(.nameTooLong) {
            errors["name"] = translations.text(
                "A list’s name can be up to {maximum} characters. Shorten it and save again.",
                values: ["maximum": translations.language.formatted(WishListDraft.nameMaximumLength)]
            )
        }
        if problems.contains(.nameControlCharacters) { errors["name"] = translations.text("A list’s name is one line of text.") }
        if problems.contains(.occasion) { errors["occasion"] = translations.text("Choose no occasion, your birthday, Christmas or a date.") }
        if problems.contains(.date) { errors["date"] = translations.text("Give the day of the occasion as a date, such as 2027-03-12.") }
        if problems.contains(.visibility) { errors["visibility"] = translations.text("Choose who sees the list: the household, or only you.") }
        return errors
    }

    static func listID(_ context: AppRequestContext) throws -> ListID {
        guard let id = context.parameters.get("list").flatMap(ListID.init) else { throw notFound }
        return id
    }

    /// The signed-in member's list, or the same 404 for another's or a missing one.
    private func ownList(_ context: AppRequestContext) async throws -> WishList {
        guard let list = try await lists.list(id: try Self.listID(context), ownerID: try context.signedInUser().userID) else { throw Self.notFound }
        return list
    }
}
