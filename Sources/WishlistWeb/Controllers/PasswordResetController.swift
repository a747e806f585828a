import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// `GET/POST /reset/{token}`: a new password through the one-time link an admin handed over (or
/// "Forgot your password?" mailed). The link works once; setting the password ends every session
/// of the account, and a tick unlinks its single sign-on identities too, which someone who got in
/// may have linked, and another (ticked at first) revokes its API tokens (issue 54).
struct PasswordResetController {
    let accounts: AccountService
    let pages: PageRenderer

    func addRoutes(to routes: SiteRouter) {
        routes.add(.passwordResetPage, use: show)
        routes.add(.resetPassword, use: reset)
    }

    /// The token is in the address: it must not travel on in a Referer.
    static let headers: HTTPFields = [HTTPField.Name("Referrer-Policy")!: "no-referrer"]

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let (state, username) = try await accounts.resetLinks.check(token: token)
        guard state == .valid, let username else { throw Self.refusal(state) }
        return try await page(context, token: token, username: username, revokingTokens: true, errors: [:])
    }

    @Sendable func reset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let limit = 4 * AccountRules.passwordLengths.upperBound
        let new = try context.form.text("new_password", maxLength: limit)
        let confirmation = try context.form.text("new_password_confirm", maxLength: limit)
        let unlinking = try context.form.text("unlink_identities", maxLength: 10) == "yes"
        let revoking = try context.form.text("revoke_tokens", maxLength: 10) == "yes"
        let (state, username) = try await accounts.resetLinks.check(token: token)
        guard state == .valid, let username else { throw Self.refusal(state) }
        switch try await accounts.resetPassword(token: token, new: new, confirmation: confirmation, unlinkingIdentities: unlinking, revokingTokens: revoking) {
        case .invalid(let problems):
            return try await page(
                context, token: token, username: username, revokingTokens: revoking,
                errors: AccountFormFields.passwordReset.errors(problems, in: context.visitor.translations), status: .unprocessableContent
            )
        case .link(.valid):
            return redirect(to: SitePath.signIn + "?done=password-reset", headers: Self.headers)
        case .link(let state):
            throw Self.refusal(state)
        }
    }

    private static func refusal(_ state: LinkState) -> PageError {
        var error = PageError.resetLink(state)
        error.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return error
    }

    /// The form; `revokingTokens` is whether "Sign out my API tokens too" is ticked (at first it is).
    private func page(
        _ context: AppRequestContext, token: String, username: String, revokingTokens: Bool, errors: FieldErrors, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let identities = try await accounts.resetLinks.linkedIdentities(token: token)
        let apiTokens = try await accounts.resetLinks.apiTokens(token: token)
        return try pages.render(
            "accounts/reset.html", title: context.visitor.translations.text("Set a new password"), for: context.visitor, status: status, headers: Self.headers,
            values: [
                "username": .string(username), "identities": .int(identities), "api_tokens": .int(apiTokens),
                "revoke_tokens": .bool(revokingTokens), "errors": TemplateValue(errors), "noindex": true,
            ]
        )
    }
}
