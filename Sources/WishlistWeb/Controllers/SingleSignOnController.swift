import Foundation
import Hummingbird
import Logging
import WishlistCore
import WishlistLanguages

/// Sign-in through the OpenID Connect provider (authorization code flow with PKCE), and linking
/// an identity there to a signed-in member's account from Settings.
struct SingleSignOnController {
    let provider: OpenIDProvider
    let attempts: SignInAttempts
    let identities: SignInIdentities
    let accounts: AccountService
    let cookies: SessionCookies
    let sessionMaxAge: Int
    let metrics: MetricsRegistry
    let logger: Logger
    let addressing: ClientAddressing
    /// Whether the sign-in page has the password form, which an unreachable provider's page offers.
    let passwordSignIn: Bool
    /// Who gets an account through a new identity (``AppConfig/Accounts/singleSignOnSignup``).
    let signup: AppConfig.Signup
    let invites: Invites

    /// Signing in starts with a link, not a form: a forged link only starts an attempt that the
    /// browser following it alone can finish, at its provider. Linking adds a way into an account,
    /// so it is a form that asks for the password (Settings' `POST /settings/single-sign-on/link`,
    /// which calls ``startLinking(_:request:context:)``); its page lists the provider in its
    /// `form-action` (``formActionSources``), since Chromium holds the redirect a form's answer
    /// makes to that directive.
    func addRoutes(to routes: SiteRouter) {
        routes.add(.singleSignOnStart, use: start)
        routes.add(.singleSignOnCallback, use: callback)
        routes.add(.unlinkSingleSignOn, use: unlink)
    }

    /// The short-lived cookie that binds an attempt to this browser: `Lax`, since the provider
    /// sends the browser back with a top-level GET from its own site.
    var attemptCookieName: String { cookies.secure ? "__Host-wishlist_oidc" : "wishlist_oidc" }

    func attemptCookie(_ token: String, maxAge: Int) -> Cookie {
        Cookie(name: attemptCookieName, value: token, maxAge: maxAge, path: "/", secure: cookies.secure, httpOnly: true, sameSite: .lax)
    }

    // MARK: Starting

    /// `?next=` is where to go afterwards; `?invite=`, the invite of the sign-up page the button
    /// was on, which a new identity's account spends under `accounts.signup: invite`.
    @Sendable func start(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try FormBody(query: request.uri.query ?? "")
        let next = LocalPath.validated(try query.text("next", maxLength: 2000))
        let invite = try query.text("invite", maxLength: 100)
        var inviteHash: Data?
        if signup == .invite, !invite.isEmpty {
            let state = try await invites.check(token: invite)
            guard state == .valid else { throw PageError.invite(state) }
            inviteHash = Invites.hash(invite)
        }
        return try await redirectToProvider(linkingUserID: nil, next: next, inviteHash: inviteHash, address: addressing.address(of: request, context))
    }

    /// Sends a member who has confirmed it is her (Settings checked the password) to the provider
    /// to link her identity there.
    func startLinking(_ user: Visitor.SignedIn, request: Request, context: AppRequestContext) async throws -> Response {
        try await redirectToProvider(linkingUserID: user.userID, next: SettingsSection.signIn.path, address: addressing.address(of: request, context))
    }

    /// The origins a page whose form starts linking adds to its `form-action`: the provider's.
    var formActionSources: [String] { provider.authorizationOrigins }

    private func redirectToProvider(linkingUserID: UserID?, next: String, inviteHash: Data? = nil, address: String) async throws -> Response {
        let browserToken = SecureRandom.token()
        let attempt: SignInAttempt
        do {
            attempt = try await attempts.start(
                browserToken: browserToken, address: address, linkingUserID: linkingUserID, next: next, inviteHash: inviteHash
            )
        } catch is SignInAttempts.Busy {
            throw PageError.tooManyAttempts(retryAfter: Int(SignInAttempts.lifetime), action: .signIn)
        }
        let url: String
        do {
            url = try await provider.authorizationURL(for: attempt)
        } catch {
            throw unreachable(error, linking: linkingUserID != nil)
        }
        var response = redirect(to: url)
        response.setCookie(attemptCookie(browserToken, maxAge: Int(SignInAttempts.lifetime)))
        return response
    }

    // MARK: Coming back

    @Sendable func callback(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try FormBody(query: request.uri.query ?? "")
        let state = try query.text("state", maxLength: 200)
        guard let browserToken = request.cookieValue(attemptCookieName), !state.isEmpty,
              let attempt = try await attempts.finish(state: state, browserToken: browserToken)
        else { throw Self.staleAttempt }
        let providerError = try query.text("error", maxLength: 200)
        guard providerError.isEmpty else {
            // OAuth error codes are letters and underscores; nothing else from the query reaches the log.
            logger.info("single sign-on: the provider answered \(String(providerError.filter { $0.isASCII && ($0.isLetter || $0 == "_") }.prefix(60)))")
            throw Self.providerDeclined
        }
        let code = try query.text("code", maxLength: 4096)
        guard !code.isEmpty else { throw PageError.badRequest(Translations.marked("The provider sent you back without a sign-in code. Start again from the sign-in page.")) }

        let token: IDToken
        do {
            token = try await provider.redeem(code: code, for: attempt)
        } catch {
            metrics.increment(.signIns, [("outcome", "rejected")])
            throw refusal(error, linking: attempt.linkingUserID != nil)
        }
        var response = try await finish(attempt, token: token, request: request, context: context)
        response.setCookie(attemptCookie("", maxAge: 0))
        return response
    }

    private func finish(_ attempt: SignInAttempt, token: IDToken, request: Request, context: AppRequestContext) async throws -> Response {
        if let userID = attempt.linkingUserID {
            return try await finishLinking(userID: userID, token: token, context: context)
        }
        let outcome = try await accounts.signIn(
            issuer: provider.settings.issuer, subject: token.subject, preferredUsername: token.preferredUsername, signup: identitySignup(attempt)
        )
        switch outcome {
        case .signedIn(let user):
            metrics.increment(.signIns, [("outcome", "success")])
            return try await startSession(for: user, replacing: context.visitor.signedIn, request: request, redirectingTo: attempt.next)
        case .created(let user):
            metrics.increment(.signIns, [("outcome", "success")])
            // A new account starts in the welcome, as a password sign-up does (issue 57).
            return try await startSession(for: user, replacing: context.visitor.signedIn, request: request, redirectingTo: SitePath.welcome)
        case .unknown, .invalidName:
            metrics.increment(.signIns, [("outcome", "rejected")])
            // Said on the sign-in page, where the other ways in are.
            return redirect(to: SitePath.signIn + "?refused=" + (signup == .invite ? "sso-invitation" : "sso-no-account"))
        case .inviteRefused(let state):
            metrics.increment(.signIns, [("outcome", "rejected")])
            throw PageError.invite(state)
        case .disabled:
            metrics.increment(.signIns, [("outcome", "rejected")])
            throw Self.refusedAccount
        }
    }

    /// Whether the identity may get an account if it has none: as `accounts.signup` says, an
    /// invite only counting when the sign-in was started from one.
    private func identitySignup(_ attempt: SignInAttempt) -> AccountService.IdentitySignup {
        switch signup {
        case .open: .open
        case .invite: .invite(hash: attempt.inviteHash)
        case .closed: .closed
        }
    }

    /// Links only for the member who started linking, still signed in in this browser.
    private func finishLinking(userID: UserID, token: IDToken, context: AppRequestContext) async throws -> Response {
        guard context.visitor.signedIn?.userID == userID else { throw Self.staleAttempt }
        do {
            try await identities.link(userID: userID, issuer: provider.settings.issuer, subject: token.subject)
        } catch SignInIdentities.Refusal.linkedElsewhere {
            throw PageError(
                .conflict, title: Translations.marked("Linked to another account"),
                message: Translations.marked("That single sign-on identity already signs in to another account here. Sign in with it to use that account, or ask an admin.")
            )
        }
        return redirect(to: SitePath.settings(.signIn, done: "identity-linked"))
    }

    /// A new session and token, as at a password sign-in; a session this browser had ends.
    private func startSession(for user: User, replacing old: Visitor.SignedIn?, request: Request, redirectingTo next: String) async throws -> Response {
        if let id = old?.sessionID { try await accounts.sessions.delete(id: id) }
        let token = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
        var response = redirect(to: LocalPath.validated(next))
        response.setCookie(cookies.cookie(token, maxAge: sessionMaxAge))
        return response
    }

    // MARK: Unlinking

    @Sendable func unlink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let id = context.parameters.get("id").flatMap(IdentityID.init) else { throw Self.noSuchIdentity }
        do {
            try await identities.unlink(identityID: id, userID: user.userID)
        } catch SignInIdentities.Refusal.notFound {
            throw Self.noSuchIdentity
        } catch SignInIdentities.Refusal.lastWayIn {
            throw PageError(
                .conflict, title: Translations.marked("Your only way in"),
                message: Translations.marked("Single sign-on is the only way into your account, so it can’t be unlinked. Add a passkey first, or ask an admin to set a password.")
            )
        }
        return redirect(to: SitePath.settings(.signIn, done: "identity-unlinked"))
    }

    // MARK: Refusals

    static let staleAttempt = PageError(
        .badRequest, title: Translations.marked("This sign-in can’t be finished"),
        message: Translations.marked("It was started in another browser, already finished, or more than ten minutes ago. Start again from the sign-in page.")
    )

    static let providerDeclined = PageError(
        .forbidden, title: Translations.marked("Not signed in"),
        message: Translations.marked("The single sign-on provider did not sign you in. Start again from the sign-in page, or sign in another way.")
    )

    static let refusedAccount = PageError(
        .forbidden, title: Translations.marked("Sign-in refused"),
        message: Translations.marked("This account can’t sign in. Ask an admin of this server.")
    )

    static let noSuchIdentity = PageError(
        .notFound, title: Translations.marked("Not linked"),
        message: Translations.marked("Your account has no such single sign-on identity. Settings lists the ones it has.")
    )

    /// The page for a failed code exchange or token check; the reason goes to the log only.
    private func refusal(_ failure: OpenIDProvider.Failure, linking: Bool) -> PageError {
        switch failure {
        case .unavailable:
            return unreachable(failure, linking: linking)
        case .codeRefused:
            logger.warning("single sign-on refused: \(failure.description)")
            return PageError(
                .badRequest, title: Translations.marked("The provider refused this sign-in"),
                message: Translations.marked("The provider would not confirm this sign-in: its code was used already or does not belong to this browser. Start again from the sign-in page.")
            )
        case .token:
            logger.warning("single sign-on refused: \(failure.description)")
            return PageError(
                .forbidden, title: Translations.marked("This sign-in couldn’t be trusted"),
                message: Translations.marked("The answer from the single sign-on provider did not pass our checks, so you are not signed in. Start again from the sign-in page; if it keeps happening, tell an admin.")
            )
        }
    }

    /// The page for a provider that is down, slow or answering nonsense: it names the provider
    /// and the ways in that do not need it. What failed goes to the log.
    private func unreachable(_ failure: OpenIDProvider.Failure, linking: Bool) -> PageError {
        logger.warning("single sign-on: \(failure.description)")
        let name = provider.settings.displayName
        let message = if linking {
            Translations.marked("{name} can’t be reached right now, so your identity there can’t be linked. Try again in a few minutes.")
        } else if passwordSignIn {
            Translations.marked("{name} can’t be reached right now — sign in with your password or passkey, or try again in a few minutes.")
        } else {
            Translations.marked("{name} can’t be reached right now — sign in with your passkey, or try again in a few minutes.")
        }
        return PageError(.badGateway, title: Translations.marked("{name} can’t be reached"), message: message, values: { _ in ["name": name] })
    }
}
