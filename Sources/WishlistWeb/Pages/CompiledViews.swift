import Foundation
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// What a start compiles from `server.viewsDirectory`: every shipped language's catalog, read once,
/// and the templates compiled once for each page language (docs/decisions/templates-per-language.md).
/// `wishlist serve` compiles them as it builds its one server. The tests build hundreds of servers
/// from the same views and hand each the views compiled once: compiling five languages' trees is
/// most of a test server's start.
public struct CompiledViews: Sendable {
    let languages: LanguageCatalogs
    /// The languages pages are rendered in: the shipped ones, and en-XA when the tests turn it on.
    let pageLanguages: [Translations]
    let templates: TemplateLibrary

    /// ``compile(_:)`` on a thread of Dispatch's, not one of the tasks' pool, which it would hold for
    /// the third of a second it takes.
    static func compiledAside(_ server: AppConfig.Server) async throws -> CompiledViews {
        try await withCheckedThrowingContinuation { compiled in
            DispatchQueue.global().async { compiled.resume(with: Result { try compile(server) }) }
        }
    }

    public static func compile(_ server: AppConfig.Server) throws -> CompiledViews {
        let views = URL(fileURLWithPath: server.viewsDirectory, isDirectory: true)
        // The catalogs sit beside the views, as the repository and an install keep them (docs/decisions/templates-per-language.md).
        let languages = try LanguageCatalogs.load(from: views.deletingLastPathComponent().appendingPathComponent("Languages", isDirectory: true))
        // en-XA, the tests' pseudo-language, only when they turn it on (docs/decisions/choosing-a-language.md).
        let pageLanguages = languages.all + (server.pseudoLanguage ? [Translations.pseudo] : [])
        return CompiledViews(
            languages: languages, pageLanguages: pageLanguages,
            templates: try TemplateLibrary(directory: views, languages: pageLanguages, reloadOnChange: server.devMode)
        )
    }
}
