import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// `/admin`: the accounts (never their lists), invites, the catalog's state and the audit log,
/// for admins only. Everyone else gets the ordinary 404, also for the forms: an admin demoted
/// while the page was open finds the forms gone.
struct AdminController {
    let administration: Administration
    let accounts: AccountService
    let invites: Invites
    let database: AppDatabase
    let databasePath: String
    let signup: AppConfig.Signup
    let pages: PageRenderer
    let clock: WallClock
    /// Where the reset and invite links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String
    /// With mail on: invites can be mailed, and the outbox's waiting and failed messages show.
    let accountMail: AccountMail?
    let outbox: MailOutbox?

    func addRoutes(to routes: SiteRouter) {
        routes.add(.admin, use: show)
        routes.add(.disableMember, use: disable)
        routes.add(.enableMember, use: enable)
        routes.add(.deleteMember, use: delete)
        routes.add(.memberResetLink, use: makeResetLink)
        routes.add(.createInvite, use: makeInvite)
        routes.add(.revokeInvite, use: revokeInvite)
    }

    static let confirmations = [
        "disabled": Translations.marked("The account is disabled and signed out everywhere."),
        "enabled": Translations.marked("The account can sign in again."),
        "deleted": Translations.marked("The account and everything of theirs were deleted."),
        "invite-revoked": Translations.marked("The invite was revoked; its link no longer works."),
    ]

    static let noSuchInvite = PageError(
        .notFound, title: Translations.marked("No such invite"),
        message: Translations.marked("That invite was used or revoked already; the list on the admin page shows the ones left.")
    )

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try adminSession(context)
        let done = request.uri.queryParameters["done"].flatMap { Self.confirmations[String($0)] }.map { context.visitor.translations.text($0) }
        let listing = try NameListing(filter: request.queryText("q"), page: request.queryText("page"))
        return try await page(context, admin: admin, listing: listing, confirmation: done)
    }

    @Sendable func disable(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(context, done: "disabled") { try await administration.setDisabled(true, userID: $0, by: $1) }
    }

    @Sendable func enable(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(context, done: "enabled") { try await administration.setDisabled(false, userID: $0, by: $1) }
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(context, done: "deleted") { try await administration.delete(userID: $0, by: $1) }
    }

    /// A one-time link, shown on the page this once: only its hash is kept.
    @Sendable func makeResetLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try adminSession(context)
        let userID = try Self.id(context.parameters.get("user"))
        let token: String
        let removingOtherWaysIn = try context.form.text("remove_passkeys", maxLength: 10) == "yes"
        do {
            token = try await accounts.resetLinks.create(userID: userID, by: admin)
            if removingOtherWaysIn { try await administration.removePasskeysAndIdentities(userID: userID, by: admin) }
        } catch let refusal as Administration.Refusal {
            throw refusal.page
        }
        let username = try await administration.username(userID: userID) ?? ""
        let link = publicOrigin + SitePath.passwordReset(token)
        return try await page(
            context, admin: admin, listing: .returning(context.form), newLink: ["kind": "reset", "url": .string(link), "for": .string(username)]
        )
    }

    /// A new invite link, shown this once; with mail on and an address given, also mailed there.
    @Sendable func makeInvite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try adminSession(context)
        let email = try context.form.text("email", maxLength: 4 * AccountRules.emailMaximumLength).trimmingCharacters(in: .whitespaces)
        if accountMail != nil, !email.isEmpty, let problem = AccountRules.emailProblem(email) {
            return try await page(
                context, admin: admin, listing: NameListing(), errors: ["invite_email": problem.sentence(in: context.visitor.translations)], inviteEmail: email, status: .unprocessableContent
            )
        }
        let token = try await invites.create(by: admin)
        let link = publicOrigin + SitePath.signUp(invite: token)
        var mailedTo = TemplateValue.null
        if let accountMail, !email.isEmpty {
            _ = try await accountMail.sendInvite(token: token, to: email, by: admin)
            mailedTo = .string(email)
        }
        return try await page(context, admin: admin, listing: NameListing(), newLink: ["kind": "invite", "url": .string(link), "mailed_to": mailedTo])
    }

    @Sendable func revokeInvite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let admin = try adminSession(context)
        guard let id = context.parameters.get("invite").flatMap(InviteID.init), try await invites.revoke(id: id, by: admin) else {
            throw Self.noSuchInvite
        }
        return redirect(to: SitePath.admin(done: "invite-revoked"))
    }

    // MARK: Helpers

    private func outboxRows() async throws -> TemplateValue {
        guard let outbox else { return .null }
        return .array(try await outbox.problems().map { entry in
            [
                "id": .id(entry.id), "kind": .string(entry.kind), "recipient": .string(entry.recipient), "created_at": .date(entry.createdAt),
                "next_attempt_at": .date(entry.nextAttemptAt), "state": .string(entry.state), "attempts": .int(entry.attempts),
                "last_reply": .string(entry.lastReply ?? ""),
            ]
        })
    }

    /// The signed-in admin as the audit log names them, or the 404 everyone else gets.
    private func adminSession(_ context: AppRequestContext) throws -> Administration.Actor {
        guard let user = context.visitor.signedIn, user.isAdmin else { throw PageError.notFound }
        return Administration.Actor(userID: user.userID, username: user.username)
    }

    private func change(
        _ context: AppRequestContext, done: String, _ action: (UserID, Administration.Actor) async throws -> Void
    ) async throws -> Response {
        let admin = try adminSession(context)
        let userID = try Self.id(context.parameters.get("user"))
        do {
            try await action(userID, admin)
        } catch let refusal as Administration.Refusal {
            throw refusal.page
        }
        return redirect(to: SitePath.admin(done: done) + NameListing.returning(context.form).query)
    }

    private static func id(_ text: String?) throws -> UserID {
        guard let id = text.flatMap(UserID.init) else { throw Administration.Refusal.noSuchUser.page }
        return id
    }

    private func page(
        _ context: AppRequestContext, admin: Administration.Actor, listing: NameListing,
        confirmation: String? = nil, newLink: TemplateValue? = nil, errors: FieldErrors = [:], inviteEmail: String = "",
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let now = clock.now()
        let facts = try await ServerFacts.read(database, path: databasePath, now: now)
        var accounts = try await administration.accounts(containing: listing.filter, page: listing.page)
        if accounts.items.isEmpty, accounts.number > accounts.pageCount {
            // Past the end (the last account of the last page was just deleted, or an old link):
            // the last page rather than an error.
            accounts = try await administration.accounts(containing: listing.filter, page: accounts.pageCount)
        }
        // How many API tokens each has, never their names or secrets (issue 54).
        let tokenCounts = try await self.accounts.apiTokens.countsByMember()
        let users = accounts.items.map { account -> TemplateValue in
            [
                "id": .id(account.id), "name": .string(account.username), "display_name": account.displayName.map(TemplateValue.string) ?? .null,
                "enable_path": .string(SitePath.enableMember(account.id)), "disable_path": .string(SitePath.disableMember(account.id)),
                "reset_link_path": .string(SitePath.memberResetLink(account.id)), "delete_path": .string(SitePath.deleteMember(account.id)),
                "created_at": .date(account.createdAt),
                "last_seen_at": account.lastSeenAt.map(TemplateValue.date) ?? .null, "items": .int(account.itemCount),
                "ways_in": .string(Self.summary(of: account.waysIn, in: context.visitor.translations)), "api_tokens": .int(tokenCounts[account.id] ?? 0),
                "is_admin": .bool(account.isAdmin), "is_disabled": .bool(account.isDisabled), "is_you": .bool(account.id == admin.userID),
            ]
        }
        let invites = try await invites.all().map { invite -> TemplateValue in
            [
                "id": .id(invite.id), "revoke_path": .string(SitePath.revokeInvite(invite.id)), "created_by": .string(invite.createdBy),
                "created_at": .date(invite.createdAt),
                "expires_at": .date(invite.expiresAt), "used_by": invite.usedBy.map(TemplateValue.string) ?? .null,
                "open": .bool(invite.usedBy == nil && invite.expiresAt > now),
            ]
        }
        let events = try await administration.recentEvents().map { event -> TemplateValue in
            ["at": .date(event.at), "actor": .string(event.actor), "action": .string(event.action), "subject": .string(event.subject)]
        }
        return try pages.render(
            "admin/index.html", title: context.visitor.translations.text("Admin", context: "nav"), nav: "admin", for: context.visitor, status: status,
            values: [
                "mail_on": .bool(accountMail != nil), "outbox": try await outboxRows(), "errors": TemplateValue(errors),
                "invite_email": .string(inviteEmail),
                "users": .array(users), "invites": .array(invites), "events": .array(events),
                "listing": listing.templateValue(accounts, path: Route.admin.path(), anchor: "#accounts"),
                "signup": .string(signup.rawValue), "new_link": newLink ?? .null,
                "flash": confirmation.map { ["kind": "success", "message": .string($0)] } ?? .null,
                "server": [
                    "version": .string(ServerFacts.version),
                    "last_attempt": facts.lastRefreshAttempt.map(TemplateValue.date) ?? .null,
                    "last_success": facts.lastRefreshSuccess.map(TemplateValue.date) ?? .null,
                    "last_error": facts.lastRefreshError.map(TemplateValue.string) ?? .null,
                    "failures": .int(facts.consecutiveFailures),
                    "api_requests": .int(facts.apiRequestsLastDay),
                    "database_size": .string(Self.fileSize(facts.databaseBytes, in: context.visitor.translations)),
                ],
            ]
        )
    }

    /// How an account signs in, in the admin's language: "password, 2 passkeys, single sign-on", or
    /// "none" (an account only a reset link or the trusted header can open).
    static func summary(of ways: SignInIdentities.WaysIn, in translations: Translations) -> String {
        var parts: [String] = []
        if ways.password { parts.append(translations.text("password", context: "a way to sign in")) }
        if ways.passkeys > 0 { parts.append(translations.text(one: "{count} passkey", other: "{count} passkeys", count: ways.passkeys)) }
        if ways.identities > 0 { parts.append(translations.text("single sign-on", context: "a way to sign in")) }
        return parts.isEmpty ? translations.text("none", context: "ways to sign in") : parts.joined(separator: ", ")
    }

    /// A size in decimal units, as file managers show one, in the admin's language: "812 bytes",
    /// "4.1 MB", "4,1 Mo". (Foundation's `ByteCountFormatter` would load ICU into the server for this one line.)
    static func fileSize(_ bytes: Int, in translations: Translations) -> String {
        guard bytes >= 1000 else { return translations.text(one: "{count} byte", other: "{count} bytes", count: bytes, context: "the size of a file") }
        var value = Double(bytes) / 1000
        var units = [Translations.marked("{size} KB"), Translations.marked("{size} MB"), Translations.marked("{size} GB"), Translations.marked("{size} TB")][...]
        while value.rounded() >= 1000, units.count > 1 {
            value /= 1000
            units = units.dropFirst()
        }
        let size = String(format: value < 99.95 ? "%.1f" : "%.0f", value).replacingOccurrences(of: ".", with: translations.language.decimalSeparator)
        return translations.text(units.first!, values: ["size": size])
    }
}
