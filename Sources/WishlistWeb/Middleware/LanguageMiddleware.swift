import HTTPTypes
import Hummingbird
import WishlistLanguages

/// The language of a request's page (issue 53, design.md "In your language"): the member's
/// setting, else the first language of the browser's `Accept-Language` the server has, else
/// `server.language`. A page that followed the browser says so with `Vary: Accept-Language`.
struct LanguageMiddleware: RouterMiddleware {
    let choice: LanguageChoice

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        let (translations, followsBrowser) = choice.translations(member: context.visitor.signedIn?.language, acceptLanguage: request.headers[.acceptLanguage])
        context.visitor.translations = translations
        context.visitor.signedIn?.pageLanguage = translations.language.code
        var response = try await next(request, context)
        if followsBrowser, response.headers.firstValue(.contentType)?.hasPrefix("text/html") == true {
            response.headers.append(HTTPField(name: .vary, value: "Accept-Language"))
        }
        return response
    }
}

/// The languages a page can be in, by code, and how one is chosen.
struct LanguageChoice: Sendable {
    private let byCode: [String: Translations]
    /// What a browser may ask for, in the server's order: the shipped languages, and en-XA when
    /// the tests' switch is on (`server.pseudoLanguage`).
    let codes: [String]
    let serverDefault: Translations

    /// `languages` as `LanguageCatalogs.all` gives them, English first; `serverDefault` one of their codes.
    init(languages: [Translations], serverDefault code: String) {
        byCode = Dictionary(languages.map { ($0.language.code, $0) }, uniquingKeysWith: { first, _ in first })
        codes = languages.map(\.language.code)
        serverDefault = byCode[code] ?? Translations()
    }

    /// The code of `translations(member:acceptLanguage:)`'s language.
    func code(member: String?, acceptLanguage: String?) -> String {
        translations(member: member, acceptLanguage: acceptLanguage).translations.language.code
    }

    /// The member's language when she chose one the server has; otherwise the browser's or the
    /// server's, and `followsBrowser` is true: the page depends on `Accept-Language`.
    func translations(member: String?, acceptLanguage: String?) -> (translations: Translations, followsBrowser: Bool) {
        if let member, let chosen = byCode[member] {
            return (chosen, false)
        }
        let asked = acceptLanguage.flatMap { AcceptLanguage($0).preferred(among: codes) }
        return (asked.flatMap { byCode[$0] } ?? serverDefault, true)
    }
}
