import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The pages mail leads to or starts from: "Forgot your password?" (`/forgot`), an address's
/// confirmation link (`/verify-email/{token}`) and the digest's unsubscribe link
/// (`/unsubscribe/{token}`). Added only when mail is on.
struct MailController {
    let accountMail: AccountMail
    let unsubscribeLinks: UnsubscribeLinks
    let pages: PageRenderer
    let metrics: MetricsRegistry
    let addressing: ClientAddressing

    func addRoutes(to routes: SiteRouter) {
        routes.add(.forgotPage, use: showForgot)
        routes.add(.forgot, use: forgot)
        routes.add(.verifyEmail, use: verify)
        routes.add(.unsubscribePage, use: showUnsubscribe)
        routes.add(.unsubscribe, use: unsubscribe)
    }

    /// The same words whether or not anything matched.
    static let forgotAnswer = Translations.marked("If that is the username or confirmed e-mail address of an account here, a link to set a new password is on its way to that account’s address. It works for an hour. Check your spam folder if nothing arrives in a few minutes.")

    @Sendable func showForgot(_ request: Request, context: AppRequestContext) throws -> Response {
        try forgotPage(context, query: "", errors: [:])
    }

    @Sendable func forgot(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = try context.form.text("name_or_email", maxLength: AccountRules.emailMaximumLength).trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else {
            return try forgotPage(context, query: query, errors: ["name_or_email": context.visitor.translations.text("Enter your username or your e-mail address.")], status: .unprocessableContent)
        }
        switch try await accountMail.forgotPassword(nameOrAddress: query, clientAddress: addressing.address(of: request, context)) {
        case .queued:
            return try pages.render(
                "accounts/forgot.html", title: context.visitor.translations.text("Check your mail"), nav: "login", for: context.visitor,
                values: ["sent": true, "answer": .string(context.visitor.translations.text(Self.forgotAnswer)), "noindex": true]
            )
        case .throttled(let seconds):
            metrics.increment(.throttled, [("action", "forgot-password")])
            let page = PageError.tooManyAttempts(retryAfter: seconds, action: .passwordResetRequest)
            return try forgotPage(context, query: query, errors: ["form": page.message(in: context.visitor.translations)], status: .tooManyRequests, headers: page.headers)
        }
    }

    @Sendable func verify(_ request: Request, context: AppRequestContext) async throws -> Response {
        var refusal: PageError
        switch try await accountMail.verify(token: context.parameters.get("token") ?? "") {
        case .confirmed:
            return try pages.render(
                "accounts/verified.html", title: context.visitor.translations.text("Address confirmed"), for: context.visitor,
                headers: PasswordResetController.headers, values: ["noindex": true]
            )
        case .takenByAnother: refusal = .addressConfirmedByAnother
        case .refused(let state): refusal = .verificationLink(state)
        }
        refusal.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        throw refusal
    }

    /// A page with one button, not an answer that unsubscribes: mail scanners open links.
    @Sendable func showUnsubscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard try await unsubscribeLinks.isValid(token: context.parameters.get("token") ?? "") else { throw Self.unknownUnsubscribeLink }
        return try pages.render(
            "accounts/unsubscribe.html", title: context.visitor.translations.text("Stop the weekly digest"), for: context.visitor, headers: PasswordResetController.headers,
            values: ["noindex": true]
        )
    }

    /// The page's button, and RFC 8058's one-click POST from a mail provider.
    @Sendable func unsubscribe(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard try await unsubscribeLinks.unsubscribe(token: context.parameters.get("token") ?? "") else { throw Self.unknownUnsubscribeLink }
        return try pages.render(
            "accounts/unsubscribe.html", title: context.visitor.translations.text("Weekly digest stopped"), for: context.visitor, headers: PasswordResetController.headers,
            values: ["done": true, "noindex": true]
        )
    }

    static let unknownUnsubscribeLink = PageError(
        .notFound, title: Translations.marked("This link doesn’t work"),
        message: Translations.marked("There is no such unsubscribe link, or it is more than six months old. Sign in and turn the digest off in Settings.")
    )

    private func forgotPage(
        _ context: AppRequestContext, query: String, errors: FieldErrors, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        try pages.render(
            "accounts/forgot.html", title: context.visitor.translations.text("Forgot your password?"), nav: "login", for: context.visitor, status: status, headers: headers,
            values: ["form": ["name_or_email": .string(query)], "errors": TemplateValue(errors), "noindex": true]
        )
    }
}
