import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A one-time confirmation after a redirect ("Added “Title” to your wishlist"), carried by a
/// short-lived cookie that holds only the code of a ``Flash`` naming what happened, never text to
/// show: the text is made here, from the signed-in user's own data, in the page's language. A form
/// on a card (a book of a list, member or search page) adds "@" and the card's id, so that the page
/// shows the confirmation on that card rather than at the top (``PageFlash/card``).
struct FlashMiddleware: RouterMiddleware {
    static let cookieName = "wishlist_flash"

    let wishlist: WishlistStore
    let household: HouseholdStore
    let reading: ReadingStore
    let secure: Bool

    /// The cookie a redirect sets to show `code` on the next page, on the card `card` when it has it.
    static func cookie(_ code: String, card: String? = nil, secure: Bool) -> Cookie {
        let value = card.map { LocalPath.isCardID($0) ? code + "@" + $0 : code } ?? code
        return Cookie(name: cookieName, value: value, maxAge: 60, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// A cookie's code and the card it names, if any.
    static func parts(of value: String) -> (code: String, card: String?) {
        guard let at = value.firstIndex(of: "@") else { return (value, nil) }
        let card = String(value[value.index(after: at)...])
        return (String(value[..<at]), LocalPath.isCardID(card) ? card : nil)
    }

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard request.method == .get, let value = request.cookieValue(Self.cookieName), !value.isEmpty else {
            return try await next(request, context)
        }
        var context = context
        if let user = context.visitor.signedIn {
            let (code, card) = Self.parts(of: value)
            context.visitor.flash = try await message(for: code, userID: user.userID, in: context.visitor.translations)
            context.visitor.flash?.card = card
        }
        var response = try await next(request, context)
        response.setCookie(Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax))
        return response
    }

    /// The confirmation in the visitor's language: titles and names are values of the catalog's
    /// sentence, so each language places them (and its own quotation marks) where it reads well.
    private func message(for code: String, userID: UserID, in translations: Translations) async throws -> PageFlash? {
        guard let flash = Flash(code: code) else { return nil }
        switch flash {
        case .read(let bookID, let offWishlist):
            return try await readingMessage(bookID: bookID, removedFromWishlist: offWishlist, userID: userID, in: translations)
        case .rated(let bookID):
            guard let saved = try await reading.reading(bookID: bookID, userID: userID), let rating = saved.rating else { return nil }
            let values = ["rating": translations.language.formatted(rating), "title": saved.title]
            return PageFlash(kind: "success", message: translations.text("Saved: {rating} of 5 stars for “{title}”. A review and the date you finished it are up to you.", values: values))
        case .added(let id):
            guard let item = try await wishlist.item(id: id, userID: userID) else { return nil }
            return PageFlash(
                kind: "success", message: translations.text("Added “{title}” to your wishlist.", values: ["title": item.title]),
                link: (SitePath.wishlist, translations.text("View your wishlist", context: "flash"))
            )
        case .already(let id):
            guard let item = try await wishlist.item(id: id, userID: userID) else { return nil }
            return PageFlash(
                kind: "info", message: translations.text("“{title}” is already on your wishlist.", values: ["title": item.title]),
                link: (SitePath.wishlistItem(item.id), translations.text("Open it", context: "flash"))
            )
        case .reserved(let id):
            guard let reserved = try await household.reservedTitle(itemID: id, giverID: userID) else { return nil }
            let values = ["title": reserved.title, "name": reserved.ownerName]
            return PageFlash(
                kind: "success", message: translations.text("You reserved “{title}” as a gift for {name}. {name} won’t see that it is reserved.", values: values),
                link: (SitePath.reservations, translations.text("Gifts I’m giving"))
            )
        case .readingNow(let bookID):
            guard let title = try await reading.readingNow(userID: userID).first(where: { $0.bookID == bookID })?.title else { return nil }
            return PageFlash(
                kind: "success", message: translations.text("You’re reading “{title}” now. It is at the top of the books you’ve read.", values: ["title": title]),
                link: (SitePath.reading, translations.text("Books I’ve read"))
            )
        default:
            return Self.plainMessage(flash, in: translations)
        }
    }
}

extension FlashMiddleware {
    private func readingMessage(bookID: String, removedFromWishlist: Bool, userID: UserID, in translations: Translations) async throws -> PageFlash? {
        guard let saved = try await reading.reading(bookID: bookID, userID: userID) else { return nil }
        let message = removedFromWishlist
            ? translations.text("Saved: you’ve read “{title}”. It is off your wishlist now.", values: ["title": saved.title])
            : translations.text("Saved: you’ve read “{title}”.", values: ["title": saved.title])
        return PageFlash(kind: "success", message: message, link: (SitePath.reading, translations.text("Books I’ve read")))
    }

    /// The confirmations that name nothing of the visitor's: one sentence each, and a link for some.
    private static func plainMessage(_ flash: Flash, in translations: Translations) -> PageFlash? {
        switch flash {
        case .removed:
            return PageFlash(kind: "success", message: translations.text("The book was removed from your wishlist."))
        case .unreserved:
            return PageFlash(kind: "success", message: translations.text("Your reservation was cancelled. The book is free for others to reserve."))
        case .note:
            return PageFlash(kind: "success", message: translations.text("Your priority and note were saved."))
        case .idea:
            return PageFlash(kind: "success", message: translations.text("Your idea is added. The others who see the list see it too; its owner never does."))
        case .ideaReserved:
            return PageFlash(
                kind: "success", message: translations.text("You reserved this idea as a gift. Its owner won’t see that."),
                link: (SitePath.reservations, translations.text("Gifts I’m giving"))
            )
        case .bought:
            return PageFlash(kind: "success", message: translations.text("Marked bought. The others who see the list see it is bought; its owner never does."))
        case .unbought:
            return PageFlash(kind: "success", message: translations.text("No longer marked bought."))
        case .card:
            return PageFlash(kind: "success", message: translations.text("Your card is saved. It will be read once the book has arrived, with your name."))
        case .cardRemoved:
            return PageFlash(kind: "success", message: translations.text("Your card is removed: the gift stays anonymous."))
        case .received:
            return PageFlash(
                kind: "success", message: translations.text("Enjoy it! The book moved to the books you received."),
                link: (SitePath.received, translations.text("Books you received"))
            )
        case .wishedAgain:
            return PageFlash(kind: "success", message: translations.text("The book is on your wishlist again, as a new wish. It stays among the books you received."))
        case .bookAdded:
            return PageFlash(kind: "success", message: translations.text("The book is added. It has a page like any other: wish for it, read it, rate it."))
        case .bookKnown:
            return PageFlash(kind: "info", message: translations.text("This book is on the NYT’s lists already, with that ISBN: here it is."))
        case .listMade:
            return PageFlash(kind: "success", message: translations.text("Your list is made. Add books to it from any book’s page, or tick it on a book of your wishlist."))
        case .listSaved:
            return PageFlash(kind: "success", message: translations.text("Your list is saved."))
        case .listDeleted:
            return PageFlash(kind: "success", message: translations.text("The list is deleted. Its books stay on your wishlist; those on no other list are on your first list now."))
        case .listDeletedWants:
            return PageFlash(kind: "success", message: translations.text("The list is deleted, with the books that were on no other list."))
        case .listsPlaced:
            return PageFlash(kind: "success", message: translations.text("The book’s lists are saved."))
        case .favorited:
            return PageFlash(kind: "success", message: translations.text("Added to your favourites."))
        case .unfavorited:
            return PageFlash(kind: "success", message: translations.text("Removed from your favourites."))
        case .shareLinkRevoked:
            return PageFlash(kind: "success", message: translations.text("The list’s share link is revoked: it no longer opens the list."))
        case .unread:
            return PageFlash(
                kind: "success", message: translations.text("Forgotten: the book is no longer among the books you’ve read."),
                link: (SitePath.reading, translations.text("Books I’ve read"))
            )
        case .notReadingNow:
            return PageFlash(kind: "success", message: translations.text("No longer among the books you’re reading now."))
        case .goalSaved:
            return PageFlash(kind: "success", message: translations.text("Your goal for this year is saved."))
        case .goalCleared:
            return PageFlash(kind: "success", message: translations.text("Your goal for this year is cleared."))
        case .added, .already, .reserved, .read, .rated, .readingNow:
            return nil  // worded with the visitor's data, in message(for:userID:in:)
        }
    }
}

/// A confirmation as the layout shows it.
public struct PageFlash: Sendable {
    public var kind: String
    public var message: String
    public var link: (url: String, label: String)?
    /// The id of the card (`book-<id>`, `item-<id>`) the confirmation belongs to: a page that
    /// shows that card shows it there, any other at the top.
    public var card: String?

    var templateValue: TemplateValue {
        var value: [String: TemplateValue] = ["kind": .string(kind), "message": .string(message)]
        if let link { value["link"] = ["url": .string(link.url), "label": .string(link.label)] }
        return .dictionary(value)
    }
}
