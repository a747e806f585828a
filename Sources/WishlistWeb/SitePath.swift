import WishlistCore

/// The links the Swift code writes and redirects to, each printed from its route in the table
/// (``Route``), with the parameters typed: a route's pattern is written once, there. Templates
/// link with the `path` values built here where a page shows items, and with `paths`
/// (``PageRenderer/paths``) to the sections.
enum SitePath {
    static let signIn = Route.signInPage.path()
    static let catalog = Route.catalog.path()
    static let wishlist = Route.wishlist.path()
    static let wishlistImport = Route.wishlistImport.path()
    static let received = Route.received.path()
    static let profile = Route.profile.path()
    static let profilePicture = Route.uploadPicture.path()
    static func picture(_ key: String, size: Int) -> String { Route.picture.path("\(key)-\(size).jpg") }
    static func cover(_ key: String, _ size: CoverSize) -> String { Route.cover.path("\(key)-\(size.name).jpg") }
    static let newBook = Route.newBook.path()
    /// A photo of a book's barcode, posted from `/books/new`.
    static let scanBook = Route.scanBook.path()
    /// The look-up of an ISBN, where a scan or a shared page leads.
    static func lookUp(isbn: String) -> String { newBook + "?isbn=" + isbn }
    static let people = Route.people.path()
    static let reservations = Route.reservations.path()

    /// The sign-in page, returning to `next` (a local path) afterwards.
    static func signIn(returningTo next: String) -> String {
        signIn + "?next=" + LocalPath.percentEncoded(next)
    }

    static func list(_ nameEncoded: String) -> String { Route.list.path(nameEncoded) }
    static func book(_ id: String) -> String { Route.book.path(id) }
    static func bookReading(_ id: String) -> String { Route.bookReading.path(id) }
    static func forgetReading(_ id: String) -> String { Route.forgetReading.path(id) }
    static func bookRating(_ id: String) -> String { Route.rateBook.path(id) }
    /// "Reading now": posting here starts it, and to `stopReading` ends it (issue 57).
    static func readingNow(_ id: String) -> String { Route.startReading.path(id) }
    static func stopReading(_ id: String) -> String { Route.stopReading.path(id) }
    static let readingGoal = Route.setReadingGoal.path()
    static let reading = Route.reading.path()
    static func wishlistItem(_ id: ItemID) -> String { Route.wishlistItem.path("\(id)") }
    static func placeItem(_ id: ItemID) -> String { Route.placeItem.path("\(id)") }
    /// "I got it": the question, and its answer posted to the same address.
    static func confirmReceived(_ id: ItemID) -> String { Route.confirmReceived.path("\(id)") }
    static func confirmRemoval(_ id: ItemID) -> String { Route.confirmRemoval.path("\(id)") }
    /// One of the visitor's lists: the wishlist filtered to it (issue 51).
    static func wishList(_ id: ListID) -> String { wishlist + "?list=\(id)" }
    static func wishListEdit(_ id: ListID) -> String { Route.wishListEdit.path("\(id)") }
    static func wishListExport(_ id: ListID) -> String { Route.wishListExport.path("\(id)") }
    static func deleteWishList(_ id: ListID) -> String { Route.deleteWishList.path("\(id)") }
    static func listShareLink(_ id: ListID) -> String { Route.createListShareLink.path("\(id)") }
    static func revokeListShareLink(_ id: ListID) -> String { Route.revokeListShareLink.path("\(id)") }
    static func guestReservation(_ token: String) -> String { Route.guestReservation.path(token) }
    static let newWishList = Route.newWishList.path()
    /// Usernames are ASCII letters, digits, `.`, `-` and `_`, all safe in a path as they are.
    static func person(_ username: String) -> String { Route.person.path(username) }
    static func ideas(_ username: String) -> String { Route.ideas.path(username) }
    /// A child's profile is made here (issue 51), from the form at `newChild`.
    static let children = Route.createChild.path()
    static let newChild = Route.newChild.path()
    static func childManagers(_ username: String) -> String { Route.childManagers.path(username) }
    static func childHandOver(_ username: String) -> String { Route.handOverChild.path(username) }
    static func childLists(_ username: String) -> String { Route.createChildList.path(username) }
    static func childList(_ username: String, _ list: ListID) -> String { Route.saveChildList.path(username, "\(list)") }
    static func deleteChildList(_ username: String, _ list: ListID) -> String { Route.deleteChildList.path(username, "\(list)") }
    static func childListExport(_ username: String, _ list: ListID) -> String { Route.childListExport.path(username, "\(list)") }
    static func childListShareLink(_ username: String, _ list: ListID) -> String { Route.createChildListShareLink.path(username, "\(list)") }
    static func revokeChildListShareLink(_ username: String, _ list: ListID) -> String { Route.revokeChildListShareLink.path(username, "\(list)") }
    static func handOver(_ token: String) -> String { Route.handOverPage.path(token) }
    /// A member's shared list, a stable address (issue 51).
    static func personList(_ username: String, _ list: ListID) -> String { Route.personList.path(username, "\(list)") }
    static func personReading(_ username: String) -> String { Route.personReading.path(username) }
    static func sharedList(_ token: String) -> String { Route.sharedList.path(token) }
    static func favoritesFeed(_ token: String) -> String { Route.favoritesFeed.path(token) }
    static func authorsFeed(_ token: String) -> String { Route.authorsFeed.path(token) }
    /// The household's birthdays and occasions (issue 51), behind the feed link's token.
    static func occasionsCalendar(_ token: String) -> String { Route.occasionsCalendar.path(token + ".ics") }
    /// An author's page, by their key (``AuthorKey``) with hyphens for spaces: "/authors/brene-brown".
    /// The page takes any spelling of the name, since it reads the key of what it is given.
    static func author(_ key: String) -> String {
        Route.author.path(PercentEncoding.encode(key.replacingOccurrences(of: " ", with: "-")))
    }
    static func followAuthor(_ key: String) -> String {
        Route.followAuthor.path(PercentEncoding.encode(key.replacingOccurrences(of: " ", with: "-")))
    }
    static func passwordReset(_ token: String) -> String { Route.passwordResetPage.path(token) }
    static func signUp(invite token: String) -> String { Route.signUpPage.path() + "?invite=" + token }
    static func admin(done: String) -> String { Route.admin.path() + "?done=" + done }
    static func setup(_ token: String) -> String { Route.setupPage.path(token) }
    /// The paths the core's mail links to (``MailPaths``), printed here so that it writes none.
    static let mail = MailPaths(
        verifyEmail: { Route.verifyEmail.path($0) }, forgot: Route.forgotPage.path(), passwordReset: passwordReset,
        signUp: { signUp(invite: $0) }, unsubscribe: { Route.unsubscribePage.path($0) }, book: book, person: person, personList: personList
    )
    /// Where every sign-up ends: display name, birthday and sharing, then People (issue 57).
    static let welcome = Route.welcome.path()

    static let settings = Route.settings.path()

    // The forms' targets on the pages that show a thing (issue 55): each printed from its route.
    static func favoriteList(_ nameEncoded: String) -> String { Route.favoriteList.path(nameEncoded) }
    static func saveNote(_ id: ItemID) -> String { Route.saveNote.path("\(id)") }
    static func removeWish(_ id: ItemID) -> String { Route.removeWish.path("\(id)") }
    static func wishAgain(_ id: ItemID) -> String { Route.wishAgain.path("\(id)") }
    static func markBought(_ id: ItemID) -> String { Route.markBought.path("\(id)") }
    static func unmarkBought(_ id: ItemID) -> String { Route.unmarkBought.path("\(id)") }
    static func writeCard(_ id: ItemID) -> String { Route.writeCard.path("\(id)") }
    static func cancelReservation(_ id: ItemID) -> String { Route.cancelReservation.path("\(id)") }
    static func dismissNotice(_ id: ReservationID) -> String { Route.dismissNotice.path("\(id)") }
    static func reserveIdea(_ username: String, _ id: IdeaID) -> String { Route.reserveIdea.path(username, "\(id)") }
    static func cancelIdeaReservation(_ username: String, _ id: IdeaID) -> String { Route.cancelIdeaReservation.path(username, "\(id)") }
    static func removePasskey(_ id: PasskeyID) -> String { Route.removePasskey.path("\(id)") }
    static func unlinkSingleSignOn(_ id: IdentityID) -> String { Route.unlinkSingleSignOn.path("\(id)") }
    static func revokeAPIToken(_ id: APITokenID) -> String { Route.revokeAPIToken.path("\(id)") }
    static func disableMember(_ id: UserID) -> String { Route.disableMember.path("\(id)") }
    static func enableMember(_ id: UserID) -> String { Route.enableMember.path("\(id)") }
    static func deleteMember(_ id: UserID) -> String { Route.deleteMember.path("\(id)") }
    static func memberResetLink(_ id: UserID) -> String { Route.memberResetLink.path("\(id)") }
    static func revokeInvite(_ id: InviteID) -> String { Route.revokeInvite.path("\(id)") }

    // The API's (issue 54): where a write's `Location` and a paged read's `Link`s lead (issue 55).
    static let api = Route.apiAbout.path()
    static let apiWants = Route.apiWants.path()
    static func apiWant(_ id: ItemID) -> String { Route.apiWant.path("\(id)") }
    static func apiList(_ id: ListID) -> String { Route.apiEditList.path("\(id)") }
    static let apiReadings = Route.apiReadings.path()
    /// A reading is named by its catalog book, whose id is safe in a path (``CatalogBook/isUsableID(_:)``).
    static func apiReading(_ bookID: String) -> String { Route.apiEditReading.path(bookID) }
    static let apiReservations = Route.apiGifts.path()
    static let apiPeople = Route.apiPeople.path()
    static func apiPersonWants(_ username: String, list: ListID?) -> String {
        Route.apiPersonWants.path(username) + (list.map { "?list=\($0)" } ?? "")
    }
    /// The search for `query`, every byte of it but RFC 3986's unreserved characters percent-encoded.
    static func apiCatalogSearch(_ query: String) -> String { Route.apiCatalogSearch.path() + "?q=" + PercentEncoding.encode(query) }

    /// A settings section's page at the confirmation named `done` (`SettingsController.confirmations`).
    static func settings(_ section: SettingsSection, done: String) -> String {
        LocalPath.atConfirmation(section.path + "?done=" + done)
    }
}
