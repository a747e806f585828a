import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// `GET/POST /hand-over/{token}`: the one-time link a child's manager made (issue 51). Opened, it
/// lets her choose a password (and keep or change her username, add an address) and become a
/// member, signed in; her managers lose her profile at once.
struct HandOverController {
    let accounts: AccountService
    let pages: PageRenderer
    let cookies: SessionCookies
    let sessionMaxAge: Int
    let addressing: ClientAddressing

    /// The routes, in one place (the route table takes them at merge).
    func addRoutes(to routes: SiteRouter) {
        routes.add(.handOverPage, use: show)
        routes.add(.takeOver, use: takeOver)
    }

    /// The token is in the address: it must not travel on in a Referer.
    static let headers: HTTPFields = [HTTPField.Name("Referrer-Policy")!: "no-referrer"]

    static func refusal(_ state: LinkState) -> PageError {
        let message = switch state {
        case .used: Translations.marked("This hand-over link was used already: the profile is a member’s account now. Sign in with the password chosen then.")
        case .expired: Translations.marked("This hand-over link is more than 7 days old. Ask a manager of the profile for a new one.")
        case .valid, .unknown: Translations.marked("This hand-over link isn’t one we know. Check that it was copied whole, or ask a manager of the profile for a new one.")
        }
        return PageError(state == .unknown || state == .valid ? .notFound : .gone, title: Translations.marked("This link doesn’t work"), message: message, headers: headers)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let link = try await accounts.handOverLink(token: context.parameters.get("token") ?? "")
        guard link.state == .valid, let username = link.username else { throw Self.refusal(link.state) }
        return try page(context, name: link.name ?? username, username: username, email: "", errors: [:])
    }

    @Sendable func takeOver(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let limit = 4 * AccountRules.passwordLengths.upperBound
        let username = try context.form.text("username", maxLength: 100).trimmingCharacters(in: .whitespaces)
        let email = try context.form.text("email", maxLength: 400).trimmingCharacters(in: .whitespaces)
        let password = try context.form.text("password", maxLength: limit)
        let confirmation = try context.form.text("password_confirm", maxLength: limit)
        let outcome = try await accounts.takeOver(
            token: token, username: username, email: email, password: password, confirmation: confirmation, address: addressing.address(of: request, context)
        )
        switch outcome {
        case .member(let user):
            let session = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
            var response = redirect(to: SitePath.wishlist, headers: Self.headers)
            response.setCookie(cookies.cookie(session, maxAge: sessionMaxAge))
            return response
        case .invalid(let problems):
            let link = try await accounts.handOverLink(token: token)
            guard link.state == .valid, let current = link.username else { throw Self.refusal(link.state) }
            return try page(context, name: link.name ?? current, username: username, email: email, errors: AccountFormFields.signUp.errors(problems, in: context.visitor.translations), status: .unprocessableContent)
        case .refused(let state):
            throw Self.refusal(state)
        case .throttled(let wait):
            throw PageError.tooManyAttempts(retryAfter: wait, action: .signUp)
        }
    }

    private func page(
        _ context: AppRequestContext, name: String, username: String, email: String, errors: FieldErrors, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        try pages.render(
            "accounts/hand-over.html", title: context.visitor.translations.text("Your own account"), for: context.visitor, status: status, headers: Self.headers,
            values: [
                "name": .string(name), "username": .string(username), "email": .string(email), "errors": TemplateValue(errors), "noindex": true,
            ]
        )
    }
}
