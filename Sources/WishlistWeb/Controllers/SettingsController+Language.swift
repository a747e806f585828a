import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Settings → Language (issue 53): a shipped language, or "browser", which follows the browser's
/// `Accept-Language` (the stored NULL every member starts with).
extension SettingsController {
    /// The form's value for following the browser.
    static let browserLanguage = "browser"

    /// Each language under its own name, as its readers look for it ("Deutsch", not "German").
    static let languageNames = ["en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"]

    func languageValues(user: Visitor.SignedIn) -> [String: TemplateValue] {
        let chosen = user.language.flatMap(LanguageData.shipped(code:))?.code ?? Self.browserLanguage
        return [
            "chosen_language": .string(chosen),
            "languages": .array(LanguageData.shipped.map { language in
                ["code": .string(language.code), "name": .string(Self.languageNames[language.code] ?? language.code)]
            }),
        ]
    }

    @Sendable func setLanguage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let code = try context.form.text("language", maxLength: 20)
        guard code == Self.browserLanguage || LanguageData.shipped(code: code) != nil else {
            let problem = context.visitor.translations.text("Choose one of the languages listed, or your browser’s.")
            return try await page(.language, context, errors: ["language": problem], status: .badRequest)
        }
        try await accounts.setLanguage(userID: user.userID, code == Self.browserLanguage ? nil : code)
        return redirect(to: SitePath.settings(.language, done: "language"))
    }
}
