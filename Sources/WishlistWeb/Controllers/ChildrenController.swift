import Foundation
import Hummingbird
import Logging
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Children's profiles (issue 51): a member makes one (`/people/new-child`), and her managers add
/// or remove co-managers (`/people/{username}/managers`). Her page and lists are a member's.
struct ChildrenController {
    let children: Children
    let profiles: ProfileStore
    /// Her wants, which the managers page lists with their Remove buttons.
    let wishlist: WishlistStore
    /// Her lists, which her managers make, edit and delete on the managers page.
    let lists: WishListStore
    /// Her lists' share links, which her managers make and revoke for guests without an account.
    let shareLinks: ShareLinkStore
    let pictures: PictureProcessor
    let pages: PageRenderer
    let clock: WallClock
    let logger: Logger
    /// Where hand-over links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String

    /// The routes, in one place (the route table takes them at merge).
    func addRoutes(to routes: SiteRouter) {
        routes.add(.newChild, use: newChild)
        routes.add(.createChild, use: create)
        routes.add(.childManagers, use: managers)
        routes.add(.changeChildManagers, use: changeManagers)
        routes.add(.handOverChild, use: handOver)
        routes.add(.createChildList, use: createList)
        routes.add(.saveChildList, use: saveList)
        routes.add(.deleteChildList, use: deleteList)
        routes.add(.childListExport, use: exportList)
        routes.add(.createChildListShareLink, use: createShareLink)
        routes.add(.revokeChildListShareLink, use: revokeShareLink)
    }

    /// A non-manager asking for a child's managers gets the page an unknown name gets.
    static let notManaged = PageError(
        .notFound, title: Translations.marked("No profile you manage"),
        message: Translations.marked("You don’t manage a child’s profile by that name. People lists the profiles you manage, marked “managed by” you.")
    )

    static let confirmations = [
        "added": Translations.marked("The co-manager was added; they can now manage this profile too."),
        "removed": Translations.marked("The manager was removed."),
        "wish-removed": Translations.marked("The book was removed from the wishlist."),
        "wish-saved": Translations.marked("The note and priority were saved."),
        "wish-placed": Translations.marked("The book’s lists are saved."),
        "list-made": Translations.marked("The list was made."),
        "list-saved": Translations.marked("The list was saved."),
        "list-deleted": Translations.marked("The list was deleted; its books stay on her wishlist."),
        "list-deleted-wants": Translations.marked("The list was deleted, and its books that were on no other list with it."),
        "link-revoked": Translations.marked("The list’s share link was revoked: it no longer works."),
    ]

    /// The form as typed, to show again beside its errors.
    struct ChildForm {
        var name = ""
        var month = ""
        var day = ""

        init() {}

        init(_ form: FormBody) throws {
            name = try form.text("name", maxLength: 10 * MemberName.displayNameMaximumLength)
            month = try form.text("birthday_month", maxLength: 10)
            day = try form.text("birthday_day", maxLength: 10)
        }
    }

    // MARK: Handlers

    @Sendable func newChild(_ request: Request, context: AppRequestContext) async throws -> Response {
        try newChildPage(context, form: ChildForm())
    }

    /// Checks the name, the birthday and the picture (if any) before anything is written, so a
    /// refused picture makes no profile.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let form = try ChildForm(context.form)
        var errors: FieldErrors = [:]
        var birthday: Birthday?
        if !form.month.isEmpty || !form.day.isEmpty {
            birthday = Int(form.month).flatMap { month in Int(form.day).flatMap { Birthday(month: month, day: $0) } }
            if birthday == nil { errors["birthday_month"] = context.visitor.translations.text("Choose both the month and a day that month has, or neither.") }
        }
        var picture: ProcessedPicture?
        if let file = context.upload, !(file.filename ?? "").isEmpty || file.body.readableBytes > 0 {
            do {
                picture = try await pictures.process(bytes: file.body, declaredType: file.contentType)
            } catch let problem as PictureProblem {
                if case .unreadable(let reason) = problem {
                    logger.info("picture refused", metadata: ["reason": .string(String(reason.prefix(200)))])
                }
                errors["picture"] = problem.sentence(in: context.visitor.translations)
            }
        }
        guard errors.isEmpty else { return try newChildPage(context, form: form, errors: errors, status: .unprocessableContent) }
        switch try await children.create(name: form.name, birthday: birthday, managerID: user.userID) {
        case .failure(let problem):
            return try newChildPage(context, form: form, errors: ["name": Self.sentence(problem, in: context.visitor.translations)], status: .unprocessableContent)
        case .success(let child):
            if let picture {
                _ = try await profiles.setPicture(userID: child.id, large: picture.large, small: picture.small, at: clock.now())
            }
            return redirect(to: SitePath.person(child.username))
        }
    }

    @Sendable func managers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let child = try await children.managed(username: context.parameters.get("username") ?? "", by: user.userID) else { throw Self.notManaged }
        let done = request.uri.queryParameters["done"].flatMap { Self.confirmations[String($0)] }.map { context.visitor.translations.text($0) }
        return try await managersPage(context, child: child, done: done)
    }

    /// `action=add` with `username`, or `action=remove` with `manager` (a manager's username).
    @Sendable func changeManagers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let child = try await children.managed(username: context.parameters.get("username") ?? "", by: user.userID) else { throw Self.notManaged }
        let outcome: Result<ChildProfile, ChildProblem>
        let done: String
        switch try context.form.text("action", maxLength: 10) {
        case "add":
            let username = try context.form.text("username", maxLength: 100).trimmingCharacters(in: .whitespaces)
            outcome = try await children.addManager(childID: child.id, username: username, actorID: user.userID)
            done = "added"
        case "remove":
            let username = try context.form.text("manager", maxLength: 100)
            guard let manager = child.managers.first(where: { $0.username == username }) else {
                return redirect(to: SitePath.childManagers(child.username) + "?done=removed")
            }
            outcome = try await children.removeManager(childID: child.id, managerID: manager.id, actorID: user.userID)
            done = "removed"
        default:
            throw PageError.badRequest(Translations.marked("The form asked for neither adding nor removing a manager. Reload the page and try again."))
        }
        switch outcome {
        case .success(let after) where !after.managers.contains(where: { $0.id == user.userID }):
            // She removed herself: the profile is no longer hers to see.
            return redirect(to: SitePath.people)
        case .success:
            return redirect(to: SitePath.childManagers(child.username) + "?done=\(done)")
        case .failure(.notManager):
            throw Self.notManaged
        case .failure(let problem):
            return try await managersPage(context, child: child, errors: ["username": Self.sentence(problem, child: child, in: context.visitor.translations)], status: .unprocessableContent)
        }
    }

    /// A new hand-over link, shown this once on the managers page (it replaces any earlier one).
    @Sendable func handOver(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let child = try await children.managed(username: context.parameters.get("username") ?? "", by: user.userID),
              let token = try await children.handOver(childID: child.id, actorID: user.userID)
        else { throw Self.notManaged }
        return try await managersPage(context, child: child, handOverLink: publicOrigin + SitePath.handOver(token))
    }

    // MARK: Pages

    static func sentence(_ problem: ChildProblem, child: ChildProfile? = nil, in translations: Translations) -> String {
        switch problem {
        case .noName: translations.text("Enter the child’s name, as the family calls her or him.")
        case .name(let problem): problem.sentence(in: translations)
        case .notManager: notManaged.message(in: translations)
        case .unknownMember: translations.text("Nobody here has that username. Co-managers are members with their own account; check the spelling on People.")
        case .lastManager:
            if let child {
                translations.text("{name} needs at least one manager: add another before you leave, or hand the profile over.", values: ["name": child.name])
            } else {
                translations.text("This profile needs at least one manager: add another before you leave, or hand the profile over.")
            }
        }
    }

    private func newChildPage(_ context: AppRequestContext, form: ChildForm, errors: FieldErrors = [:], status: HTTPResponse.Status = .ok) throws -> Response {
        try pages.render(
            "people/new-child.html", title: context.visitor.translations.text("A child’s profile"), nav: "people", for: context.visitor, status: status,
            values: [
                "name": .string(form.name),
                "months": .array(context.visitor.translations.language.monthNames.enumerated().map { index, name in
                    ["value": .string(String(index + 1)), "name": .string(name), "selected": .bool(form.month == String(index + 1))]
                }),
                "days": .array((1...31).map { day in ["value": .string(String(day)), "selected": .bool(form.day == String(day))] }),
                "errors": TemplateValue(errors),
            ]
        )
    }

    /// Her managers page; `listForm` is a list form refused, shown again beside its errors.
    func managersPage(
        _ context: AppRequestContext, child: ChildProfile, done: String? = nil, handOverLink: String? = nil, errors: FieldErrors = [:],
        listForm: ChildListForm? = nil, newShareLink: (list: ListID, url: String)? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let wants = try await wishlist.items(userID: child.id, sort: .added)
        let lists = try await lists.lists(ownerID: child.id)
        var linked: [ListID: Date] = [:]
        for list in lists {
            linked[list.id] = try await shareLinks.createdAt(list: list.id, ownerID: child.id)
        }
        let placed = try await self.lists.listIDs(items: wants.map(\.id))
        return try pages.render(
            "people/managers.html", title: context.visitor.translations.text("Managing {name}’s profile", values: ["name": child.name]), nav: "people", for: context.visitor, status: status,
            values: [
                "flash": done.map { ["kind": "success", "message": .string($0)] } ?? .null,
                "child": ["name": .string(child.name), "path": .string(SitePath.person(child.username)), "managers_path": .string(SitePath.childManagers(child.username))],
                "managers": .array(child.managers.map { ["name": .string($0.name), "username": .string($0.username)] }),
                "username": .string(child.username),
                "hand_over_path": .string(SitePath.childHandOver(child.username)),
                "hand_over_link": handOverLink.map(TemplateValue.string) ?? .null,
                "wants": .array(wants.map { want in
                    [
                        "id": .id(want.id), "save_path": .string(SitePath.saveNote(want.id)), "remove_path": .string(SitePath.removeWish(want.id)),
                        "title": .string(want.title), "author": .string(want.author), "note": .string(want.note),
                        "priorities": .array(Priority.allCases.map { ["value": .string($0.rawValue), "selected": .bool($0 == want.priority)] }),
                        "place_path": .string(SitePath.placeItem(want.id)),
                        "lists": .array(lists.map { list in
                            ["id": .id(list.id), "name": .string(list.name), "private": .bool(list.visibility == .private), "checked": .bool(placed[want.id]?.contains(list.id) == true)]
                        }),
                    ]
                }),
                "errors": TemplateValue(errors),
                "lists": .array(lists.map { list in
                    Self.childListValue(list, child: child, refused: listForm, linkedSince: linked[list.id], newLink: newShareLink?.list == list.id ? newShareLink?.url : nil)
                }),
                "new_list": Self.newListValue(child: child, refused: listForm),
            ]
        )
    }
}
