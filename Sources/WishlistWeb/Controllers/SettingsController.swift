import CivilTime
import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Settings: `/settings` lists its pages, and each section page (``SettingsSection``) holds a few
/// forms, so that each is short on a phone. Every form's POST keeps the path design.md gives it
/// and returns to its section's page, at the confirmation; a refused form is that page again.
struct SettingsController {
    let accounts: AccountService
    let catalog: CatalogStore
    /// The authors a member follows, listed beside her favourite lists.
    let authors: AuthorStore
    let household: HouseholdStore
    let shareLinks: ShareLinkStore
    let feedLinks: SecretLinkStore
    let passkeys: PasskeyStore
    let exports: MemberDataExport
    let pages: PageRenderer
    let cookies: SessionCookies
    let clock: WallClock
    /// The household's zone (`server.timeZone`): sessions' and passkeys' times are shown in it.
    let timeZone: ZoneRules
    /// Where share and feed links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String
    /// With mail on: the e-mail section (address, its confirmation, the weekly digest).
    let accountMail: AccountMail?
    /// Single sign-on, when `accounts.oidc` is on: the linked identities, and linking one.
    var singleSignOn: SingleSignOnController?
    var identities: SignInIdentities? { singleSignOn?.identities }

    func addRoutes(to routes: SiteRouter) {
        routes.add(.settings, use: overview)
        for section in SettingsSection.allCases where section != .email || accountMail != nil {
            routes.add(section.route) { request, context in try await show(section, request, context: context) }
        }
        routes.add(.setDefaultList, use: setDefaultList)
        routes.add(.setSharing, use: setSharing)
        routes.add(.createShareLink, use: createShareLink)
        routes.add(.revokeShareLink, use: revokeShareLink)
        routes.add(.createFeedLink, use: createFeedLink)
        routes.add(.revokeFeedLink, use: revokeFeedLink)
        routes.add(.changePassword, use: changePassword)
        routes.add(.signOutOthers, use: signOutOthers)
        routes.add(.exportData, use: downloadData)
        routes.add(.deleteAccount, use: deleteAccount)
        addAPITokenRoutes(to: routes)
        routes.add(.setLanguage, use: setLanguage)
        if singleSignOn != nil {
            routes.add(.linkSingleSignOn, use: linkSingleSignOn)
        }
        if accountMail != nil {
            routes.add(.changeEmail, use: changeEmail)
            routes.add(.resendVerification, use: resendVerification)
            routes.add(.setDigest, use: setDigest)
        }
    }

    /// Confirmations shown after a redirect, named by `?done=`.
    static let confirmations = [
        "password": Translations.marked("Your password was changed, and every other browser was signed out."),
        "signed-out-others": Translations.marked("Every other browser was signed out."),
        "signed-out-unlinked": Translations.marked("Every other browser was signed out, and single sign-on was unlinked: it no longer opens your account."),
        "start-page": Translations.marked("Your start page was saved. It opens when you sign in."),
        "sharing-household": Translations.marked("Your wishlist is now shared with everyone on this server."),
        "sharing-private": Translations.marked("Your wishlist is private now. Only you can see it."),
        "share-link-revoked": Translations.marked("The share link no longer works. Nobody can open your list through it."),
        "feed-link-revoked": Translations.marked("The feed link no longer works. Feed readers that had it will get nothing new."),
        "passkey-added": Translations.marked("Your passkey was added. Next time, sign in with it instead of your password."),
        "passkey-removed": Translations.marked("The passkey was removed. It can no longer sign you in here."),
        "email-changed": Translations.marked("Your address was saved. Open the link we sent to it to confirm it."),
        "email-removed": Translations.marked("Your address was removed. No mail will be sent to you."),
        "email-sent": Translations.marked("A new confirmation link is on its way. It works for 24 hours."),
        "digest-on": Translations.marked("The weekly digest is on. It comes only in weeks with news."),
        "digest-off": Translations.marked("The weekly digest is off."),
        "identity-linked": Translations.marked("Single sign-on is linked. Next time, sign in with it."),
        "identity-unlinked": Translations.marked("Single sign-on was unlinked. It can no longer sign you in here."),
        "api-token-revoked": Translations.marked("The token was revoked. Anything that used it can no longer reach your account."),
        "language": Translations.marked("Your language was saved."),
    ]

    struct PasswordForm {
        let current: String
        let new: String
        let confirmation: String

        init(_ form: FormBody) throws {
            let limit = 4 * AccountRules.passwordLengths.upperBound
            current = try form.text("current_password", maxLength: limit)
            new = try form.text("new_password", maxLength: limit)
            confirmation = try form.text("new_password_confirm", maxLength: limit)
        }
    }

    /// The list of Settings' pages, each with a line on what it holds.
    @Sendable func overview(_ request: Request, context: AppRequestContext) async throws -> Response {
        try pages.render(
            "settings/settings.html", title: context.visitor.translations.text("Settings", context: "nav"), nav: "settings", for: context.visitor,
            values: ["settings_nav": SettingsSection.navigation(current: nil, mail: accountMail != nil, in: context.visitor.translations)]
        )
    }

    func show(_ section: SettingsSection, _ request: Request, context: AppRequestContext) async throws -> Response {
        let done = request.uri.queryParameters["done"].flatMap { Self.confirmations[String($0)] }
        return try await page(section, context, confirmation: done.map { context.visitor.translations.text($0) })
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let form = try PasswordForm(context.form)
        let outcome = try await accounts.changePassword(
            userID: user.userID, current: form.current, new: form.new, confirmation: form.confirmation, keepingSession: user.sessionID
        )
        return try await respond(to: outcome, fields: .passwordChange, section: .password, context: context) {
            redirect(to: SitePath.settings(.password, done: "password"))
        }
    }

    /// The list `GET /` opens; an empty value means the catalog.
    @Sendable func setDefaultList(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let list = try context.form.text("list", maxLength: 100)
        guard try await catalog.setDefaultList(userID: user.userID, list: list.isEmpty ? nil : list) else {
            let problem = context.visitor.translations.text("That list isn’t one of the current best-seller lists. Choose one from the menu.")
            return try await page(.lists, context, errors: ["list": problem], status: .badRequest)
        }
        return redirect(to: SitePath.settings(.lists, done: "start-page"))
    }

    @Sendable func setSharing(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let text = try context.form.text("sharing", maxLength: 40)
        guard let sharing = Sharing(rawValue: text) else {
            let problem = context.visitor.translations.text("Choose who may see your wishlist: only you, or everyone on this server.")
            return try await page(.sharing, context, errors: ["sharing": problem], status: .badRequest)
        }
        try await household.setSharing(userID: user.userID, sharing)
        return redirect(to: SitePath.settings(.sharing, done: "sharing-\(sharing.rawValue)"))
    }

    /// Makes a new share link (the old one stops working) and shows it on the page this once:
    /// only its hash is kept, so it cannot be shown again after a redirect.
    @Sendable func createShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        // Her default list's, as the wishlist's link was before lists; every list has one on its edit page.
        guard let token = try await shareLinks.create(list: nil, ownerID: user.userID, at: clock.now()) else { throw PageError.notFound }
        let link = publicOrigin + SitePath.sharedList(token)
        return try await page(.sharing, context, shownOnce: ["new_share_link": .string(link)])
    }

    @Sendable func revokeShareLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        _ = try await shareLinks.revoke(list: nil, ownerID: user.userID)
        return redirect(to: SitePath.settings(.sharing, done: "share-link-revoked"))
    }

    /// Makes a new feed link (the old one stops working) and shows it this once, like a share link.
    @Sendable func createFeedLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let token = try await feedLinks.create(userID: user.userID, at: clock.now())
        let link = publicOrigin + SitePath.favoritesFeed(token)
        // The same token reads the feed of new books by the authors she follows.
        return try await page(.lists, context, shownOnce: [
            "new_feed_link": .string(link), "new_authors_feed_link": .string(publicOrigin + SitePath.authorsFeed(token)),
            "new_calendar_link": .string(publicOrigin + SitePath.occasionsCalendar(token)),
        ])
    }

    @Sendable func revokeFeedLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        _ = try await feedLinks.revoke(userID: user.userID)
        return redirect(to: SitePath.settings(.lists, done: "feed-link-revoked"))
    }

    /// Signs out every other browser; with `unlink_identities` ticked, single sign-on too, which a
    /// stolen session may have linked, unless it is the account's only way in.
    @Sendable func signOutOthers(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let unlinking = try context.form.text("unlink_identities", maxLength: 10) == "yes"
        if unlinking, let identities {
            do {
                try await identities.unlinkAll(userID: user.userID)
            } catch SignInIdentities.Refusal.lastWayIn {
                let problem = context.visitor.translations.text("Single sign-on is your only way in, so it can’t be unlinked. Add a passkey first, or ask an admin to set a password.")
                return try await page(.signIn, context, errors: ["unlink_identities": problem], status: .conflict)
            }
        }
        try await accounts.sessions.deleteAll(userID: user.userID, except: user.sessionID)
        return redirect(to: SitePath.settings(.signIn, done: unlinking ? "signed-out-unlinked" : "signed-out-others"))
    }

    /// Starts linking a single sign-on identity once the member has shown it is her: her password,
    /// or, for an account without one, a recent sign-in (``AccountService/confirmOwner(userID:sessionID:password:)``).
    /// A POST with the CSRF token: a link followed in a stolen session must not add a lasting way in.
    @Sendable func linkSingleSignOn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let singleSignOn else { throw PageError.notFound }
        let password = try context.form.text("password", maxLength: 4 * AccountRules.passwordLengths.upperBound)
        let outcome = try await accounts.confirmOwner(userID: user.userID, sessionID: user.sessionID, password: password)
        return try await respond(to: outcome, fields: .singleSignOnLink, section: .signIn, context: context) {
            try await singleSignOn.startLinking(user, request: request, context: context)
        }
    }

    /// "Download my data": a ZIP of everything the app holds about her. A POST with the CSRF token
    /// though it changes nothing, so that no other site can start the download in her browser and
    /// no prefetch or history entry repeats it; `no-store`, as every personal answer is.
    @Sendable func downloadData(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let download = try await exports.download(userID: user.userID, at: clock.now()) else {
            throw PageError(.notFound, title: Translations.marked("No account"), message: Translations.marked("Your account no longer exists, so there is nothing to download."))
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip", .contentDisposition: "attachment; filename=\"\(download.fileName)\"",
                .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: download.bytes))
        )
    }

    @Sendable func changeEmail(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let email = try context.form.text("email", maxLength: 4 * AccountRules.emailMaximumLength).trimmingCharacters(in: .whitespaces)
        if let problem = try await accountMail?.changeAddress(userID: user.userID, to: email) {
            return try await page(.email, context, errors: ["email": problem.sentence(in: context.visitor.translations)], status: .unprocessableContent)
        }
        return redirect(to: SitePath.settings(.email, done: email.isEmpty ? "email-removed" : "email-changed"))
    }

    @Sendable func resendVerification(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        if case .throttled(let seconds) = try await accountMail?.resendVerification(userID: user.userID) {
            let refusal = PageError.tooManyAttempts(retryAfter: seconds, action: .confirmationLink)
            return try await page(.email, context, errors: ["email": refusal.message(in: context.visitor.translations)], status: .tooManyRequests, headers: refusal.headers)
        }
        return redirect(to: SitePath.settings(.email, done: "email-sent"))
    }

    @Sendable func setDigest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let choice = try context.form.text("digest", maxLength: 20)
        guard choice.isEmpty || choice == "weekly" else {
            return try await page(.email, context, errors: ["digest": context.visitor.translations.text("Tick the box for a weekly digest, or leave it empty for none.")], status: .badRequest)
        }
        try await accountMail?.setDigest(userID: user.userID, weekly: choice == "weekly")
        return redirect(to: SitePath.settings(.email, done: choice.isEmpty ? "digest-off" : "digest-on"))
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let password = try context.form.text("password", maxLength: 4 * AccountRules.passwordLengths.upperBound)
        let outcome = try await accounts.deleteAccount(userID: user.userID, password: password)
        return try await respond(to: outcome, fields: .accountDeletion, section: .data, context: context) {
            var response = redirect(to: SitePath.signIn)
            response.setCookie(cookies.cookie("", maxAge: 0))
            return response
        }
    }

    /// The answer to a form that checks the password: `done`, the form's section again with its
    /// errors, or, when the account has had too many wrong passwords, with the throttling sentence.
    private func respond(
        to outcome: AccountService.PasswordCheckOutcome, fields: AccountFormFields, section: SettingsSection, context: AppRequestContext,
        done: () async throws -> Response
    ) async throws -> Response {
        switch outcome {
        case .done:
            return try await done()
        case .invalid(let problems):
            return try await page(section, context, errors: fields.errors(problems, in: context.visitor.translations), status: .unprocessableContent)
        case .throttled(let seconds):
            let refusal = PageError.tooManyAttempts(retryAfter: seconds, action: .password)
            let field = fields.names[.currentPassword] ?? "form"
            return try await page(section, context, errors: [field: refusal.message(in: context.visitor.translations)], status: .tooManyRequests, headers: refusal.headers)
        }
    }

    /// The "Single sign-on" section's values, or null to leave it out. Linking asks for the
    /// password, or explains the recent sign-in that stands in for it.
    private func singleSignOnSection(userID: UserID) async throws -> TemplateValue {
        guard let identities else { return .null }
        return [
            "identities": .array(try await identities.identities(of: userID).map { identity in
                [
                    "id": .id(identity.id), "unlink_path": .string(SitePath.unlinkSingleSignOn(identity.id)), "created_at": .date(identity.createdAt),
                    "last_used_at": identity.lastUsedAt.map(TemplateValue.date) ?? .null,
                ]
            }),
            "has_password": .bool(try await identities.waysIn(userID: userID).password),
        ]
    }

    /// A section's page. `shownOnce` holds a link just made (`new_share_link`, `new_feed_link`),
    /// which only this answer shows.
    func page(
        _ section: SettingsSection, _ context: AppRequestContext, errors: FieldErrors = [:], confirmation: String? = nil,
        shownOnce: [String: TemplateValue] = [:], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) async throws -> Response {
        let user = try context.signedInUser()
        var values = try await sectionValues(section, user: user)
        values.merge(shownOnce) { _, new in new }
        values["settings_nav"] = SettingsSection.navigation(current: section, mail: accountMail != nil, in: context.visitor.translations)
        values["errors"] = TemplateValue(errors)
        values["flash"] = confirmation.map { ["kind": "success", "message": .string($0)] } ?? .null
        var headers = headers
        if section == .signIn, let singleSignOn {
            // The linking form's answer leads to the provider.
            headers[.contentSecurityPolicy] = SecurityHeadersMiddleware<AppRequestContext>.contentSecurityPolicy(
                inlineStyle: pages.inlineStylePolicySource(for: context.visitor), formActions: singleSignOn.formActionSources
            )
        }
        return try pages.render(
            section.template, title: context.visitor.translations.text(section.title), nav: "settings", for: context.visitor, status: status, headers: headers, values: values
        )
    }

    /// What one section's forms show: only what that page needs is read.
    private func sectionValues(_ section: SettingsSection, user: Visitor.SignedIn) async throws -> [String: TemplateValue] {
        switch section {
        case .lists:
            let lists = try await catalog.currentLists()
            let favorites = try await catalog.favoriteLists(userID: user.userID)
            let named = { (list: ListSummary) -> TemplateValue in
                [
                    "name_encoded": .string(list.nameEncoded), "display_name": .string(list.displayName),
                    "path": .string(SitePath.list(list.nameEncoded)), "favorite_path": .string(SitePath.favoriteList(list.nameEncoded)),
                ]
            }
            return [
                "lists": .array(lists.map(named)),
                "favorites": .array(lists.filter { favorites.contains($0.nameEncoded) }.map(named)),
                "default_list": .string(try await catalog.defaultList(userID: user.userID) ?? ""),
                "feed_link": try await feedLinks.createdAt(userID: user.userID).map { ["created_at": .date($0)] } ?? .null,
                "followed_authors": .array(try await authors.followed(userID: user.userID).map { author in
                    ["name": .string(author.name), "path": .string(SitePath.author(author.key))]
                }),
            ]
        case .sharing:
            return [
                "sharing": .string(try await household.sharing(userID: user.userID).rawValue),
                "share_link": try await shareLinks.createdAt(list: nil, ownerID: user.userID).map { ["created_at": .date($0)] } ?? .null,
            ]
        case .email:
            let mailState = try await accountMail?.addressState(userID: user.userID)
            return [
                "email": mailState.map { ["address": .string($0.email ?? ""), "verified": .bool($0.isVerified)] } ?? .null,
                "digest": .bool(mailState?.wantsDigest ?? false),
            ]
        case .signIn:
            return try await signInValues(user: user)
        case .apiTokens:
            return try await apiTokenValues(user: user)
        case .language:
            return languageValues(user: user)
        case .password, .data:
            return [:]
        }
    }

    /// Passkeys, single sign-on and the signed-in browsers.
    private func signInValues(user: Visitor.SignedIn) async throws -> [String: TemplateValue] {
        let sessions = try await accounts.sessions.list(userID: user.userID).map { session -> TemplateValue in
            [
                "browser": .string(BrowserName.describe(session.userAgent)),
                "created_at": .date(session.createdAt), "created_local": LocalTime.value(session.createdAt, in: timeZone),
                "created_zone": .string(LocalTime.zoneLabel(session.createdAt, in: timeZone)),
                "last_seen_at": .date(session.lastSeenAt), "last_seen_local": LocalTime.value(session.lastSeenAt, in: timeZone),
                "last_seen_zone": .string(LocalTime.zoneLabel(session.lastSeenAt, in: timeZone)),
                "is_current": .bool(session.id == user.sessionID),
            ]
        }
        return [
            "passkeys": .array(try await passkeys.passkeys(userID: user.userID).map { passkey in
                [
                    "id": .id(passkey.id), "remove_path": .string(SitePath.removePasskey(passkey.id)), "name": .string(passkey.name),
                    "created_at": LocalTime.value(passkey.createdAt, in: timeZone),
                    "last_used_at": passkey.lastUsedAt.map { LocalTime.value($0, in: timeZone) } ?? .null,
                ]
            }),
            "passkey_script": true,
            "sso": try await singleSignOnSection(userID: user.userID),
            "sessions": .array(sessions),
            "other_sessions": .bool(sessions.count > 1),
        ]
    }
}
