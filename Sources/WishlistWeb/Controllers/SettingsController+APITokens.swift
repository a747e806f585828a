import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Settings → API tokens (issue 54): make a token (shown once), see when and from where each was
/// last used, revoke one. The API itself is ``APIController``.
extension SettingsController {
    func addAPITokenRoutes(to routes: SiteRouter) {
        routes.add(.createAPIToken, use: createAPIToken)
        routes.add(.revokeAPIToken, use: revokeAPIToken)
    }

    struct APITokenForm {
        let name: String
        let scope: APIScope?
        /// Nil: never expires; `.some(nil)` never happens, an unknown choice is `expiryIsValid` false.
        let expiryDays: Int?
        let expiryIsValid: Bool

        init(_ form: FormBody) throws {
            name = try form.text("name", maxLength: 240).trimmingCharacters(in: .whitespaces)
            scope = APIScope(rawValue: try form.text("scope", maxLength: 20))
            let expiry = try form.text("expiry", maxLength: 10)
            expiryDays = Int(expiry).flatMap { APITokenStore.expiryDays.contains($0) ? $0 : nil }
            expiryIsValid = expiry == "never" || expiryDays != nil
        }

        /// What is wrong with the form, worded in `translations`' language.
        func errors(in translations: Translations) -> FieldErrors {
            var errors: FieldErrors = [:]
            if APITokenStore.nameProblem(name) != nil {
                errors["name"] = translations.text("Give the token a name of 1 to 60 characters, such as the script or device that uses it.")
            }
            if scope == nil { errors["scope"] = translations.text("Choose what the token may do: read, or read and change.") }
            if !expiryIsValid { errors["expiry"] = translations.text("Choose when the token stops working: in 30, 90 or 365 days, or never.") }
            return errors
        }
    }

    /// Makes a token and shows it on the page this once: only its hash is kept.
    @Sendable func createAPIToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let form = try APITokenForm(context.form)
        let errors = form.errors(in: context.visitor.translations)
        guard errors.isEmpty, let scope = form.scope else {
            return try await page(.apiTokens, context, errors: errors, status: .unprocessableContent)
        }
        switch try await accounts.apiTokens.create(userID: user.userID, name: form.name, scope: scope, expiryDays: form.expiryDays) {
        case .created(let secret, let token):
            return try await page(.apiTokens, context, shownOnce: ["new_token": ["secret": .string(secret), "name": .string(token.name)]])
        case .throttled(let seconds):
            let refusal = PageError.tooManyAttempts(retryAfter: seconds, action: .apiToken)
            return try await page(.apiTokens, context, errors: ["name": refusal.message(in: context.visitor.translations)], status: .tooManyRequests, headers: refusal.headers)
        }
    }

    @Sendable func revokeAPIToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let id = context.parameters.get("id").flatMap(APITokenID.init),
              try await accounts.apiTokens.revoke(id: id, userID: user.userID)
        else { throw PageError.notFound }
        return redirect(to: SitePath.settings(.apiTokens, done: "api-token-revoked"))
    }

    /// The section's values: her tokens, never their secrets.
    func apiTokenValues(user: Visitor.SignedIn) async throws -> [String: TemplateValue] {
        let tokens = try await accounts.apiTokens.tokens(userID: user.userID)
        return [
            "tokens": .array(tokens.map { token in
                [
                    "id": .id(token.id), "revoke_path": .string(SitePath.revokeAPIToken(token.id)), "name": .string(token.name),
                    "scope": .string(token.scope.rawValue),
                    "created_at": .date(token.createdAt), "expires_at": token.expiresAt.map(TemplateValue.date) ?? .null,
                    "last_used_at": token.lastUsedAt.map(TemplateValue.date) ?? .null,
                    "last_used_from": token.lastUsedFrom.map(TemplateValue.string) ?? .null,
                ]
            }),
            "expiry_days": .array(APITokenStore.expiryDays.map { .int($0) }),
        ]
    }
}
