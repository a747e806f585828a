import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A list form on a child's managers page that was refused: which list (nil for a new one),
/// what was typed, and why (docs/decisions/child-lists-on-the-manage-page.md).
struct ChildListForm {
    let listID: ListID?
    let draft: WishListDraft
    let errors: FieldErrors
}

/// A child's lists (issue 51): her managers make, edit, delete and download them from her
/// managers page, as a member does her own from hers. Anyone else gets the 404 of a name she does
/// not manage; a list gone since the page was loaded is a 404 of its own that says so.
extension ChildrenController {
    static let listGone = PageError(
        .notFound, title: Translations.marked("That list is gone"),
        message: Translations.marked("That list is not on this profile any more: another manager may have deleted it a moment ago. Her managers page shows her lists as they are.")
    )

    static let defaultListStays = PageError(
        .conflict, title: Translations.marked("Her first list stays"),
        message: Translations.marked("A child’s first list can’t be deleted: a book added for her goes there, and so does every book of a list you delete. Rename it if you like.")
    )

    @Sendable func createList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        let draft = try WishListsController.draft(context.form)
        switch draft.checked() {
        case .failure(let problems):
            return try await refused(context, child: child, ChildListForm(listID: nil, draft: draft, errors: WishListsController.errors(problems, in: context.visitor.translations)))
        case .success(let checked):
            let list = try await lists.create(checked, ownerID: child.id, at: clock.now())
            return redirect(to: SitePath.childManagers(child.username) + "?done=list-made#list-\(list.id)")
        }
    }

    @Sendable func saveList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        let listID = try Self.childListID(context)
        let draft = try WishListsController.draft(context.form)
        switch draft.checked() {
        case .failure(let problems):
            guard try await lists.list(id: listID, ownerID: child.id) != nil else { throw Self.listGone }
            return try await refused(context, child: child, ChildListForm(listID: listID, draft: draft, errors: WishListsController.errors(problems, in: context.visitor.translations)))
        case .success(let checked):
            guard try await lists.update(id: listID, ownerID: child.id, checked) else { throw Self.listGone }
            return redirect(to: SitePath.childManagers(child.username) + "?done=list-saved#list-\(listID)")
        }
    }

    /// Deletes one of her lists, as ``WishListStore/delete(id:ownerID:deleteWants:)`` does a
    /// member's: in one transaction, so of two managers deleting it at once the second finds it gone.
    @Sendable func deleteList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        let deleteWants = try context.form.checkbox("delete_wants")
        switch try await lists.delete(id: try Self.childListID(context), ownerID: child.id, deleteWants: deleteWants) {
        case .deleted: return redirect(to: SitePath.childManagers(child.username) + (deleteWants ? "?done=list-deleted-wants" : "?done=list-deleted"))
        case .isDefault: throw Self.defaultListStays
        case .notFound: throw Self.listGone
        }
    }

    /// One of her lists as the Goodreads CSV of `/wishlist.csv`: her wants' books and notes,
    /// nothing a giver planned.
    @Sendable func exportList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        guard let list = try await lists.list(id: try Self.childListID(context), ownerID: child.id) else { throw Self.listGone }
        return WishListsController.csvDownload(list, items: try await lists.items(onList: list.id, ownerID: child.id, sort: .added))
    }

    /// A new share link for one of her lists (its old one stops working), shown on her managers
    /// page this once, as a member's own list's is: only its hash is kept.
    @Sendable func createShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        let listID = try Self.childListID(context)
        guard let token = try await shareLinks.create(list: listID, ownerID: child.id, at: clock.now()) else { throw Self.listGone }
        return try await managersPage(context, child: child, newShareLink: (listID, publicOrigin + SitePath.sharedList(token)))
    }

    @Sendable func revokeShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let child = try await managedChild(context)
        let listID = try Self.childListID(context)
        guard try await lists.list(id: listID, ownerID: child.id) != nil else { throw Self.listGone }
        _ = try await shareLinks.revoke(list: listID, ownerID: child.id)
        return redirect(to: SitePath.childManagers(child.username) + "?done=link-revoked#list-\(listID)")
    }

    // MARK: Helpers

    private func managedChild(_ context: AppRequestContext) async throws -> ChildProfile {
        let user = try context.signedInUser()
        guard let child = try await children.managed(username: context.parameters.get("username") ?? "", by: user.userID) else { throw Self.notManaged }
        return child
    }

    private static func childListID(_ context: AppRequestContext) throws -> ListID {
        guard let id = context.parameters.get("list").flatMap(ListID.init) else { throw listGone }
        return id
    }

    private func refused(_ context: AppRequestContext, child: ChildProfile, _ form: ChildListForm) async throws -> Response {
        try await managersPage(context, child: child, listForm: form, status: .unprocessableContent)
    }

    /// One of her lists on the managers page, with its edit form holding the list's fields, or
    /// what was typed when that form was refused.
    static func childListValue(_ list: WishList, child: ChildProfile, refused: ChildListForm?, linkedSince: Date?, newLink: String?) -> TemplateValue {
        let isRefused = refused.map { $0.listID == list.id } ?? false
        var value = WishListsController.listFields(list)
        value["form"] = formValue(isRefused ? refused!.draft : WishListsController.draft(of: list))
        value["errors"] = isRefused ? TemplateValue(refused!.errors) : .null
        value["prefix"] = .string("list-\(list.id)")
        value["save_path"] = .string(SitePath.childList(child.username, list.id))
        value["delete_path"] = .string(SitePath.deleteChildList(child.username, list.id))
        value["export_path"] = .string(SitePath.childListExport(child.username, list.id))
        value["person_path"] = .string(SitePath.personList(child.username, list.id))
        value["share_link_path"] = .string(SitePath.childListShareLink(child.username, list.id))
        value["revoke_share_link_path"] = .string(SitePath.revokeChildListShareLink(child.username, list.id))
        value["share_link"] = linkedSince.map { ["created_at": .date($0)] } ?? .null
        value["new_share_link"] = newLink.map(TemplateValue.string) ?? .null
        return .dictionary(value)
    }

    /// The form for a new list of hers: empty, or as typed when it was refused.
    static func newListValue(child: ChildProfile, refused: ChildListForm?) -> TemplateValue {
        let form = refused.flatMap { $0.listID == nil ? $0 : nil }
        let draft = form?.draft ?? WishListDraft(name: "", occasion: Occasion.none.rawValue, date: "", visibility: ListVisibility.household.rawValue)
        return [
            "path": .string(SitePath.childLists(child.username)), "form": formValue(draft),
            "errors": form.map { TemplateValue($0.errors) } ?? .null,
        ]
    }

    private static func formValue(_ draft: WishListDraft) -> TemplateValue {
        ["name": .string(draft.name), "occasion": .string(draft.occasion), "date": .string(draft.date), "visibility": .string(draft.visibility)]
    }
}
