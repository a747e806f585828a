import CivilTime
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The household: the wishlists others share, and the gifts the signed-in user reserves from them.
///
/// Every page here is a giver's view of someone else's list. The owner's own pages live in
/// `WishlistController` and never read a reservation.
struct HouseholdController {
    let database: AppDatabase
    let household: HouseholdStore
    let catalog: CatalogStore
    let pages: PageRenderer
    let clock: WallClock
    /// Where "today" is, for birthdays (`server.timeZone`).
    let timeZone: ZoneRules
    let pageCaches: PageCaches
    let secureCookies: Bool
    /// Where a giver can borrow or buy a wished-for book (`books.borrowLinks`, `books.buyLinks`).
    var links = BookLinkTemplates(borrow: [], buy: [])

    func addRoutes(to routes: SiteRouter, loaders: PageLoaders) {
        routes.add(.people, use: people)
        routes.page(.person, loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadMemberPage(request, context, user, read)
        }, respond: member)
        routes.page(.personList, loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadMemberPage(request, context, user, read)
        }, respond: member)
        routes.add(.personReading, use: memberReading)
        routes.add(.reservations, use: gifts)
        routes.add(.reserve, use: reserve)
        routes.add(.cancelReservation, use: cancel)
        routes.add(.markBought, use: markBought)
        routes.add(.unmarkBought, use: unmarkBought)
        routes.add(.writeCard, use: writeCard)
        routes.add(.dismissNotice, use: dismiss)
    }

    static let memberNotFound = PageError(
        .notFound, title: Translations.marked("No shared wishlist here"),
        message: Translations.marked("Nobody by that name shares a wishlist on this server. People lists everyone who does.")
    )
    static let nothingToReserve = PageError(
        .notFound, title: Translations.marked("Nothing to reserve"),
        message: Translations.marked("That book isn’t on a wishlist shared with you, so nothing was reserved. It may have been removed, or its owner may have stopped sharing.")
    )
    static let reservationNotFound = PageError(
        .notFound, title: Translations.marked("No such reservation"),
        message: Translations.marked("You haven’t reserved that book, so there was nothing to cancel. Gifts I’m giving lists every book you have reserved.")
    )
    static let noticeNotFound = PageError(
        .notFound, title: Translations.marked("Nothing to dismiss"),
        message: Translations.marked("That notice is gone already. Gifts I’m giving shows the ones that are left.")
    )

    /// Back to `returnTo`, at the confirmation `flash`, shown on the item’s card.
    func confirm(_ flash: Flash, returningTo returnTo: String, item itemID: ItemID) -> Response {
        flash.redirect(to: LocalPath.atConfirmation(returnTo), card: Card.item(itemID), secure: secureCookies)
    }
}

