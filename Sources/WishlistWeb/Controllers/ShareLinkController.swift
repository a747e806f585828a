import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistTemplates

/// The read-only list behind a share link, for people without an account: titles, authors,
/// covers, notes and priorities. No reservations and nothing of any other member.
struct ShareLinkController {
    static let pathPrefix = "/shared/"

    let shareLinks: SecretLinkStore
    let wishlist: WishlistStore
    let lists: WishListStore
    let pages: PageRenderer

    func addRoutes(to routes: SiteRouter) {
        routes.add(.sharedList, use: show)
    }

    /// The token is in the address: search engines must not index the page, and links on it must
    /// not carry the address to another site (or, through the Referer, to this site's own log).
    static let privateHeaders: HTTPFields = [
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Robots-Tag")!: "noindex, nofollow",
    ]

    static let notFound = PageError(
        .notFound, title: "This link doesn't work",
        message: "The list behind this link isn't shared any more: its owner may have replaced or revoked the link. Ask them for a new one.",
        headers: privateHeaders
    )

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let owner = try await shareLinks.owner(token: context.parameters.get("token") ?? "") else { throw Self.notFound }
        // The link opens one list; a private one shows nothing, as a revoked link does.
        guard let list = try await lists.shareLinkList(ownerID: owner.userID), list.visibility == .household else { throw Self.notFound }
        let items = try await lists.items(onList: list.id, ownerID: owner.userID, sort: .priority)
        return try pages.render(
            "shared/show.html", title: "\(owner.name)’s wishlist", for: context.visitor, headers: Self.privateHeaders,
            values: [
                "owner": .string(owner.name),
                "items": .array(items.map { .dictionary(ItemPresenter.value($0, placements: [], link: "")) }),
                "count": .int(items.count),
                "noindex": true,
            ]
        )
    }
}
