import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Sign-up, sign-in and sign-out.
struct AccountsController {
    let accounts: AccountService
    let pages: PageRenderer
    let cookies: SessionCookies
    let metrics: MetricsRegistry
    let signup: AppConfig.Signup
    let invites: Invites
    let setupLinks: SetupLinks
    let sessionMaxAge: Int
    let addressing: ClientAddressing
    /// With mail on: a new address gets its confirmation link, and sign-in offers "Forgot your password?".
    let accountMail: AccountMail?
    /// False (`accounts.passwordSignIn`): the sign-in page offers only the other ways in.
    var passwordSignIn = true
    /// The single sign-on button's label, when `accounts.oidc` is on: the default is worded in the
    /// page's language (a catalog key), a label the admin wrote shows as written.
    var singleSignOnLabel: String?
    /// Whether a new identity gets an account through single sign-on (`accounts.signup`, unless
    /// `accounts.oidc.signup` is false): the sign-up page then offers the button too, carrying
    /// its invite.
    var singleSignOnSignup = AppConfig.Signup.closed

    /// Why single sign-on did not sign someone in, said on the sign-in page in its language, named by `?refused=`.
    static let refusals = [
        "sso-no-account": Translations.marked("No account here is linked to that single sign-on identity, and new accounts can’t be made with it. Sign in another way and link it from Settings, or ask an admin for an account."),
        "sso-invitation": Translations.marked("No account here is linked to that single sign-on identity, and on this server accounts are made by invitation. Open your invite link and choose single sign-on there, or sign in another way and link it from Settings."),
    ]

    func addRoutes(to routes: SiteRouter) {
        routes.add(.signInPage, use: showLogin)
        routes.add(.signIn, use: login)
        routes.add(.signUpPage, use: showSignup)
        routes.add(.signUp, use: signup)
        routes.add(.signOut, use: logout)
        // The first admin's sign-up, through the link `wishlist serve` prints (issue 57).
        routes.add(.setupPage, use: showSetup)
        routes.add(.setUp, use: setUp)
    }

    struct LoginForm {
        let username: String
        let password: String
        let next: String

        init(_ form: FormBody) throws {
            username = try form.text("username")
            password = try form.text("password", maxLength: 4 * AccountRules.passwordLengths.upperBound)
            next = LocalPath.validated(try form.text("next", maxLength: 2000))
        }
    }

    struct SignupForm {
        let username: String
        let email: String
        let password: String
        let passwordConfirm: String
        let invite: String

        init(_ form: FormBody) throws {
            username = try form.text("username")
            email = try form.text("email", maxLength: AccountRules.emailMaximumLength)
            invite = try form.text("invite", maxLength: 100)
            // Read beyond the limit so the rule, not the reader, tells the person it is too long.
            password = try form.text("password", maxLength: 4 * AccountRules.passwordLengths.upperBound)
            passwordConfirm = try form.text("password_confirm", maxLength: 4 * AccountRules.passwordLengths.upperBound)
        }
    }

    @Sendable func showLogin(_ request: Request, context: AppRequestContext) throws -> Response {
        let next = LocalPath.validated((try? FormBody(query: request.uri.query).text("next", maxLength: 2000)) ?? "/")
        if context.visitor.signedIn != nil { return redirect(to: next) }
        let confirmation = request.uri.queryParameters["done"] == "password-reset" ? Translations.marked("Your new password is set. Sign in with it.") : nil
        let refusal = request.uri.queryParameters["refused"].flatMap { Self.refusals[String($0)] }
        return try loginPage(context, username: "", next: next, errors: [:], confirmation: confirmation, refusal: refusal)
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard passwordSignIn else { throw PageError.notFound }
        let form = try LoginForm(context.form)
        var errors = FieldErrors()
        if form.username.isEmpty { errors["username"] = Translations.marked("Enter your username.") }
        if form.password.isEmpty { errors["password"] = Translations.marked("Enter your password.") }
        guard errors.isEmpty else {
            return try loginPage(context, username: form.username, next: form.next, errors: errors, status: .unprocessableContent)
        }
        let userAgent = request.headers[.userAgent] ?? ""
        switch try await accounts.signIn(username: form.username, password: form.password, address: addressing.address(of: request, context), userAgent: userAgent) {
        case .signedIn(_, let token):
            metrics.increment(.signIns, [("outcome", "success")])
            return sessionStarted(token, redirectingTo: form.next)
        case .rejected:
            metrics.increment(.signIns, [("outcome", "rejected")])
            return try loginPage(
                context, username: form.username, next: form.next,
                errors: ["form": Translations.marked("Wrong username or password.")], status: .unprocessableContent
            )
        case .throttled(let seconds):
            metrics.increment(.signIns, [("outcome", "throttled")])
            metrics.increment(.throttled, [("action", "sign-in")])
            let page = PageError.tooManyAttempts(retryAfter: seconds, action: .signIn)
            return try loginPage(
                context, username: form.username, next: form.next,
                errors: ["form": page.message(in: context.visitor.translations)], status: .tooManyRequests, headers: page.headers
            )
        }
    }

    @Sendable func showSignup(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.visitor.signedIn != nil { return redirect(to: "/") }
        let invite = try await admittedInvite(try request.queryText("invite"))
        return try signupPage(context, username: "", email: "", invite: invite, errors: [:])
    }

    /// The sign-up page's single sign-on button, when a new identity would get an account: with
    /// the page's invite, which the sign-in carries to the account it makes.
    private func singleSignOnSignupButton(invite: String?, in translations: Translations) -> TemplateValue {
        guard let singleSignOnLabel, singleSignOnSignup != .closed else { return .null }
        return ["label": .string(translations.text(singleSignOnLabel)), "invite": .string(invite ?? "")]
    }

    @Sendable func signup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try SignupForm(context.form)
        let invite = try await admittedInvite(form.invite)
        let outcome = try await accounts.signUp(
            username: form.username, email: form.email, password: form.password,
            confirmation: form.passwordConfirm, address: addressing.address(of: request, context), invite: invite
        )
        return try await answer(outcome, to: form, invite: invite, setupToken: nil, request: request, context: context)
    }

    /// The setup link's sign-up page, whatever `accounts.signup` says: the link is the way in of
    /// whoever started the server.
    @Sendable func showSetup(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let state = try await setupLinks.check(token: token)
        guard state == .valid else { throw PageError.setupLink(state) }
        return try signupPage(context, username: "", email: "", invite: nil, setupToken: token, errors: [:])
    }

    @Sendable func setUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let form = try SignupForm(context.form)
        let outcome = try await accounts.signUp(
            username: form.username, email: form.email, password: form.password,
            confirmation: form.passwordConfirm, address: addressing.address(of: request, context), setupLink: token
        )
        return try await answer(outcome, to: form, invite: nil, setupToken: token, request: request, context: context)
    }

    /// A sign-up's answer, through the form, an invite or the setup link: her session and the
    /// welcome, or the form again with what to change.
    private func answer(
        _ outcome: AccountService.SignUpOutcome, to form: SignupForm, invite: String?, setupToken: String?, request: Request, context: AppRequestContext
    ) async throws -> Response {
        switch outcome {
        case .created(let user):
            try await accountMail?.sendVerification(userID: user.id)
            return try await startSession(for: user, request: request, redirectingTo: SitePath.welcome)
        case .invalid(let problems):
            return try signupPage(
                context, username: form.username, email: form.email, invite: invite, setupToken: setupToken,
                errors: AccountFormFields.signUp.errors(problems, in: context.visitor.translations), status: .unprocessableContent
            )
        case .throttled(let seconds):
            metrics.increment(.throttled, [("action", "sign-up")])
            let page = PageError.tooManyAttempts(retryAfter: seconds, action: .signUp)
            return try signupPage(
                context, username: form.username, email: form.email, invite: invite, setupToken: setupToken,
                errors: ["form": page.message(in: context.visitor.translations)], status: .tooManyRequests, headers: page.headers
            )
        case .inviteRefused(let state):
            throw PageError.invite(state)
        case .setupLinkRefused(let state):
            throw PageError.setupLink(state)
        }
    }

    /// Whether this visitor may sign up: with sign-up open, yes (no invite needed); by invitation,
    /// only with a valid invite, which is returned; closed, never. Refusals are pages that say why.
    private func admittedInvite(_ token: String) async throws -> String? {
        switch signup {
        case .open: return nil
        case .closed: throw PageError.notFound
        case .invite:
            guard !token.isEmpty else { throw PageError.invitationOnly }
            let state = try await invites.check(token: token)
            guard state == .valid else { throw PageError.invite(state) }
            return token
        }
    }

    /// Ends the session on the server; the browser's cookie is cleared too.
    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        if let id = context.visitor.signedIn?.sessionID {
            try await accounts.sessions.delete(id: id)
        }
        var response = redirect(to: SitePath.signIn)
        response.setCookie(cookies.cookie("", maxAge: 0))
        return response
    }

    /// A new session and token at every sign-in: a cookie planted before it is worth nothing after.
    private func startSession(for user: User, request: Request, redirectingTo next: String) async throws -> Response {
        let token = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
        return sessionStarted(token, redirectingTo: next)
    }

    /// The redirect that gives the browser its new session's cookie.
    private func sessionStarted(_ token: String, redirectingTo next: String) -> Response {
        var response = redirect(to: next)
        response.setCookie(cookies.cookie(token, maxAge: sessionMaxAge))
        return response
    }

    private func loginPage(
        _ context: AppRequestContext, username: String, next: String, errors: FieldErrors,
        status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], confirmation: String? = nil, refusal: String? = nil
    ) throws -> Response {
        let translations = context.visitor.translations
        let flash: TemplateValue? = confirmation.map { ["kind": "success", "message": .string(translations.text($0))] }
            ?? refusal.map { ["kind": "error", "message": .string(translations.text($0))] }
        return try pages.render(
            "accounts/login.html", title: translations.text("Sign in"), nav: "login", for: context.visitor, status: status, headers: headers,
            values: [
                "form": ["username": .string(username), "next": .string(next)], "errors": TemplateValue(errors, in: translations),
                "flash": flash ?? .null,
                "passkey_script": true, "mail_on": .bool(accountMail != nil),
                "password_sign_in": .bool(passwordSignIn),
                "single_sign_on": singleSignOnLabel.map { ["label": .string(translations.text($0))] } ?? .null,
            ]
        )
    }

    /// The sign-up page; with `setupToken`, the setup link's, which makes the admin and whose
    /// token, in the address, must not travel on in a Referer.
    private func signupPage(
        _ context: AppRequestContext, username: String, email: String, invite: String?, setupToken: String? = nil, errors: FieldErrors,
        status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        var headers = headers
        if setupToken != nil { headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer" }
        let translations = context.visitor.translations
        return try pages.render(
            "accounts/signup.html", title: setupToken == nil ? translations.text("Create your account") : translations.text("Set up this server"), nav: "signup",
            for: context.visitor, status: status, headers: headers,
            values: [
                "form": ["username": .string(username), "email": .string(email), "invite": .string(invite ?? "")],
                "setup_path": setupToken.map { .string(SitePath.setup($0)) } ?? .null,
                "errors": TemplateValue(errors),
                "single_sign_on": setupToken == nil ? singleSignOnSignupButton(invite: invite, in: translations) : .null,
                "noindex": .bool(setupToken != nil),
            ]
        )
    }
}

extension TemplateValue {
    /// Field errors as a dictionary the templates read as `errors.username`.
    init(_ errors: FieldErrors) {
        self = .dictionary(errors.mapValues(TemplateValue.string))
    }

    /// Field errors in the reader's language: each English sentence is its catalog key, and one
    /// the catalog lacks (a sentence with a number in it) stays English.
    init(_ errors: FieldErrors, in translations: Translations) {
        self = .dictionary(errors.mapValues { .string(translations.text($0)) })
    }
}
