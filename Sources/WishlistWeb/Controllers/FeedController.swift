import Foundation
import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages

/// The Atom feed of books new on a user's favourite lists, at a secret address a feed reader can
/// poll without a session. An unknown or reset token answers 404, like a revoked share link.
struct FeedController {
    /// How far back the feed reaches from each list's newest edition: two months of editions.
    static let weeks = 8

    let feedLinks: SecretLinkStore
    let catalog: CatalogStore
    let authors: AuthorStore
    /// Where the feed's links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String
    let languages: LanguageChoice

    func addRoutes(to routes: SiteRouter) {
        routes.add(.favoritesFeed, use: favorites)
        routes.add(.authorsFeed, use: followedAuthors)
    }

    static let notFound = PageError(
        .notFound, title: Translations.marked("This feed doesn’t exist"),
        message: Translations.marked("No feed has this address: its owner may have reset the feed link. The current link is in Settings."),
        headers: ShareLinkController.privateHeaders
    )

    @Sendable func favorites(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        guard let owner = try await feedLinks.owner(token: token), let made = try await feedLinks.createdAt(userID: owner.userID) else {
            throw Self.notFound
        }
        let translations = feedLanguage(owner, request)
        return Self.response(AtomFeed(
            id: NewEntry.uniformName(of: "favorites-feed:\(owner.userID)"),
            title: translations.text("New on {name}’s favourite lists", values: ["name": owner.name]),
            subtitle: translations.text("Books new on your favourite New York Times best-seller lists, edition by edition."),
            origin: publicOrigin,
            selfPath: SitePath.favoritesFeed(token),
            emptyUpdated: made,
            entries: try await catalog.feedEntries(userID: owner.userID, weeks: Self.weeks),
            translations: translations
        ))
    }

    /// The books new on any list by the authors the link's owner follows, behind the same token.
    @Sendable func followedAuthors(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        guard let owner = try await feedLinks.owner(token: token), let made = try await feedLinks.createdAt(userID: owner.userID) else {
            throw Self.notFound
        }
        let translations = feedLanguage(owner, request)
        return Self.response(AtomFeed(
            id: NewEntry.uniformName(of: "authors-feed:\(owner.userID)"),
            title: translations.text("New from the authors {name} follows", values: ["name": owner.name]),
            subtitle: translations.text("Books by the authors you follow that are new on a New York Times best-seller list, edition by edition."),
            origin: publicOrigin,
            selfPath: SitePath.authorsFeed(token),
            emptyUpdated: made,
            entries: try await authors.feedEntries(userID: owner.userID, weeks: Self.weeks).map(\.entry),
            translations: translations
        ))
    }

    /// A feed is its owner's, read by her reader without a session: in the language she chose,
    /// else the reader's `Accept-Language`, else the server's, as her pages are.
    func feedLanguage(_ owner: SecretLinkStore.Owner, _ request: Request) -> Translations {
        languages.translations(member: owner.language, acceptLanguage: request.headers[.acceptLanguage]).translations
    }

    private static func response(_ feed: AtomFeed) -> Response {
        var headers = ShareLinkController.privateHeaders
        headers[.contentType] = "application/atom+xml; charset=utf-8"
        headers[.cacheControl] = "private, max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: feed.xml)))
    }
}
