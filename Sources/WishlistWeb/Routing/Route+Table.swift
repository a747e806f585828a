import WishlistLanguages

/// Every route of the site, declared once: method, pattern, who may ask, body and CSRF rule.
/// The controllers bind each to its handler (`routes.add(.signIn, use: signIn)`), in the order
/// Hummingbird should try them; ``SitePath`` prints their links. A new route is a line here, a
/// line in ``all``, and a line in its controller's `addRoutes`.
extension Route {
    // Signing in and up (`AccountsController`), passkeys (`PasskeyController`), single sign-on.
    static let signInPage = get("/login", .anyone)
    static let signIn = post("/login", .anyone, csrf: .sessionToken)
    static let signUpPage = get("/signup", .anyone)
    static let signUp = post("/signup", .anyone, csrf: .sessionToken)
    static let signOut = post("/logout", .anyone, csrf: .sessionToken)
    /// The first admin's sign-up, through the one-time link `wishlist serve` prints (issue 57).
    static let setupPage = get("/setup/{token}", .anyone)
    static let setUp = post("/setup/{token}", .anyone, csrf: .sessionToken)
    /// Where every sign-up ends: display name, birthday and sharing (issue 57).
    static let welcome = get("/welcome", .members)
    static let saveWelcome = post("/welcome", .members, csrf: .sessionToken)
    static let passkeySignInOptions = post("/passkeys/sign-in/options", .anyone, csrf: .headerToken)
    static let passkeySignIn = post("/passkeys/sign-in", .anyone, csrf: .headerToken)
    static let passkeyRegistrationOptions = post("/passkeys/registration/options", .anyone, csrf: .headerToken)
    static let passkeyRegistration = post("/passkeys/registration", .anyone, csrf: .headerToken)
    static let removePasskey = post("/settings/passkeys/{id}/remove", .members, csrf: .sessionToken)
    static let singleSignOnStart = get("/oidc/start", .anyone)
    static let singleSignOnCallback = get("/oidc/callback", .anyone)
    static let unlinkSingleSignOn = post("/settings/single-sign-on/{id}/unlink", .members, csrf: .sessionToken)

    // Mail's links (`MailController`) and password resets (`PasswordResetController`).
    static let forgotPage = get("/forgot", .anyone)
    static let forgot = post("/forgot", .anyone, csrf: .sessionToken)
    static let verifyEmail = get("/verify-email/{token}", .anyone)
    static let unsubscribePage = get("/unsubscribe/{token}", .anyone)
    static let unsubscribe = post("/unsubscribe/{token}", .anyone, csrf: .linkToken)
    static let passwordResetPage = get("/reset/{token}", .anyone)
    static let resetPassword = post("/reset/{token}", .anyone, csrf: .sessionToken)

    // What anyone may fetch: the home page, health, metrics, covers, share links, feeds.
    static let home = get("/", .anyone)
    static let health = get("/healthz", .anyone)
    static let metrics = get("/metrics", .anyone)
    static let cover = get("/covers/{file}", .anyone)
    static let sharedList = get("/shared/{token}", .anyone)
    static let favoritesFeed = get("/feeds/{token}/favorites.atom", .anyone)
    static let authorsFeed = get("/feeds/{token}/authors.atom", .anyone)
    /// `{token}` is the feed link's token and `.ics`: a calendar app asks for a file.
    static let occasionsCalendar = get("/calendar/{token}", .anyone)

    // The catalog (`CatalogController`) and authors (`AuthorsController`).
    static let catalog = get("/lists", .members)
    static let list = get("/lists/{list}", .members)
    static let favoriteList = post("/lists/{list}/favorite", .members, csrf: .sessionToken)
    static let book = get("/books/{id}", .members)
    static let search = get("/search", .members)
    static let author = get("/authors/{name}", .members)
    static let followAuthor = post("/authors/{name}/follow", .members, csrf: .sessionToken)

    // The wishlist (`WishlistController`) and its lists (`WishListsController`).
    static let wishlist = get("/wishlist", .members)
    static let addWish = post("/wishlist", .members, csrf: .sessionToken)
    static let wishlistExport = get("/wishlist.csv", .members)
    /// A Goodreads export: its 50,000 rows at 400 bytes each, twice a plain export's rows.
    static let wishlistImport = post("/wishlist/import", .members, csrf: .sessionToken, body: .upload(Upload(
        field: "file", maximumBytes: 20 * 1024 * 1024, tooLarge: Translations.marked("Goodreads exports can be up to 20 MB. Upload a smaller file.")
    )))
    static let received = get("/wishlist/received", .members)
    static let wishAgain = post("/wishlist/received/{item}/restore", .members, csrf: .sessionToken)
    /// "I got it" asks once before the book moves (issue 57).
    static let confirmReceived = get("/wishlist/{item}/received", .members)
    static let markReceived = post("/wishlist/{item}/received", .members, csrf: .sessionToken)
    static let wishlistItem = get("/wishlist/{item}", .members)
    static let saveNote = post("/wishlist/{item}", .members, csrf: .sessionToken)
    static let confirmRemoval = get("/wishlist/{item}/remove", .members)
    static let removeWish = post("/wishlist/{item}/delete", .members, csrf: .sessionToken)
    static let newWishList = get("/wishlist/lists/new", .members)
    static let createWishList = post("/wishlist/lists", .members, csrf: .sessionToken)
    static let wishListEdit = get("/wishlist/lists/{list}", .members)
    static let saveWishList = post("/wishlist/lists/{list}", .members, csrf: .sessionToken)
    static let deleteWishList = post("/wishlist/lists/{list}/delete", .members, csrf: .sessionToken)
    static let placeItem = post("/wishlist/{item}/lists", .members, csrf: .sessionToken)
    /// Each list's own share link (issue 57); Settings → Sharing's is the default list's.
    static let createListShareLink = post("/wishlist/lists/{list}/share-link", .members, csrf: .sessionToken)
    static let revokeListShareLink = post("/wishlist/lists/{list}/share-link/delete", .members, csrf: .sessionToken)
    /// A guest reserves a want of the link's list with their name: the link's token allows it, and
    /// the form carries the anti-CSRF token of the guest's anonymous session, as sign-in's does
    /// (`ShareLinkController`).
    static let reserveAsGuest = post("/shared/{token}", .anyone, csrf: .sessionToken)
    /// The guest's private cancel link, shown once: a page with one button, then the cancel.
    static let guestReservation = get("/guest-reservations/{token}", .anyone)
    static let cancelGuestReservation = post("/guest-reservations/{token}", .anyone, csrf: .sessionToken)

    // The household (`HouseholdController`) and gift ideas (`IdeasController`).
    static let people = get("/people", .members)
    static let person = get("/people/{username}", .members)
    static let personList = get("/people/{username}/lists/{list}", .members)
    static let personReading = get("/people/{username}/reading", .members)
    static let reservations = get("/reservations", .members)
    static let reserve = post("/reservations", .members, csrf: .sessionToken)
    static let cancelReservation = post("/reservations/{item}/delete", .members, csrf: .sessionToken)
    static let markBought = post("/reservations/{item}/bought", .members, csrf: .sessionToken)
    static let unmarkBought = post("/reservations/{item}/bought/delete", .members, csrf: .sessionToken)
    static let writeCard = post("/reservations/{item}/card", .members, csrf: .sessionToken)
    static let dismissNotice = post("/reservations/notices/{reservation}/dismiss", .members, csrf: .sessionToken)
    static let ideas = get("/people/{username}/ideas", .members)
    static let suggestIdea = post("/people/{username}/ideas", .members, csrf: .sessionToken)
    static let reserveIdea = post("/people/{username}/ideas/{idea}/reserve", .members, csrf: .sessionToken)
    static let cancelIdeaReservation = post("/people/{username}/ideas/{idea}/reservation/delete", .members, csrf: .sessionToken)

    // Children's profiles (`ChildrenController`) and their hand-over (`HandOverController`).
    static let newChild = get("/people/new-child", .members)
    /// A child's profile with its optional picture (the picture rule's 8 MB, as a member's own).
    static let createChild = post("/people/children", .members, csrf: .sessionToken, body: .upload(pictureUpload))
    static let childManagers = get("/people/{username}/managers", .members)
    static let changeChildManagers = post("/people/{username}/managers", .members, csrf: .sessionToken)
    static let handOverChild = post("/people/{username}/hand-over", .members, csrf: .sessionToken)
    static let handOverPage = get("/hand-over/{token}", .anyone)
    static let takeOver = post("/hand-over/{token}", .anyone, csrf: .sessionToken)

    // Reading (`ReadingController`) and added books (`AddBookController`).
    static let reading = get("/reading", .members)
    static let bookReading = get("/books/{id}/reading", .members)
    static let saveReading = post("/books/{id}/reading", .members, csrf: .sessionToken)
    static let forgetReading = post("/books/{id}/reading/delete", .members, csrf: .sessionToken)
    static let newBook = get("/books/new", .members)
    static let addBook = post("/books/new", .members, csrf: .sessionToken)
    /// A photo of a book's barcode (8 MB, the picture rule's, and room for the form around it).
    static let scanBook = post("/books/new/scan", .members, csrf: .sessionToken, body: .upload(Upload(
        field: "photo", maximumBytes: 8 * 1024 * 1024 + 64 * 1024, tooLarge: Translations.marked("Photos can be up to 8 MB. Take a closer one, or a smaller size.")
    )))
    static let sharedBook = get("/books/new/shared", .members)

    // Settings (`SettingsController`, a page per ``SettingsSection``) and the profile (`ProfileController`).
    static let settings = get("/settings", .members)
    static let settingsLists = get("/settings/lists", .members)
    static let settingsSharing = get("/settings/sharing", .members)
    static let settingsEmail = get("/settings/email", .members)
    static let settingsPassword = get("/settings/password", .members)
    static let settingsSignIn = get("/settings/sign-in", .members)
    static let settingsData = get("/settings/data", .members)
    static let settingsAPITokens = get("/settings/api-tokens", .members)
    static let createAPIToken = post("/settings/api-tokens", .members, csrf: .sessionToken)
    static let revokeAPIToken = post("/settings/api-tokens/{id}/delete", .members, csrf: .sessionToken)
    static let setDefaultList = post("/settings/default-list", .members, csrf: .sessionToken)
    static let setSharing = post("/settings/sharing", .members, csrf: .sessionToken)
    static let createShareLink = post("/settings/share-link", .members, csrf: .sessionToken)
    static let revokeShareLink = post("/settings/share-link/delete", .members, csrf: .sessionToken)
    static let createFeedLink = post("/settings/feed-link", .members, csrf: .sessionToken)
    static let revokeFeedLink = post("/settings/feed-link/delete", .members, csrf: .sessionToken)
    static let changePassword = post("/settings/password", .members, csrf: .sessionToken)
    // Settings → Language (issue 53): the language her pages are in, or her browser's.
    static let settingsLanguage = get("/settings/language", .members)
    static let setLanguage = post("/settings/language", .members, csrf: .sessionToken)
    static let signOutOthers = post("/settings/sessions/sign-out-others", .members, csrf: .sessionToken)
    static let exportData = post("/settings/export", .members, csrf: .sessionToken)
    static let deleteAccount = post("/settings/delete-account", .members, csrf: .sessionToken)
    static let linkSingleSignOn = post("/settings/single-sign-on/link", .members, csrf: .sessionToken)
    static let changeEmail = post("/settings/email", .members, csrf: .sessionToken)
    static let resendVerification = post("/settings/email/verify", .members, csrf: .sessionToken)
    static let setDigest = post("/settings/digest", .members, csrf: .sessionToken)
    static let profile = get("/settings/profile", .members)
    static let saveProfile = post("/settings/profile", .members, csrf: .sessionToken)
    /// A profile picture (8 MB, the picture rule's, and room for the form around it).
    static let uploadPicture = post("/settings/profile/picture", .members, csrf: .sessionToken, body: .upload(pictureUpload))
    static let pictureUpload = Upload(
        field: "picture", maximumBytes: 8 * 1024 * 1024 + 64 * 1024, tooLarge: Translations.marked("Pictures can be up to 8 MB. Choose a smaller picture.")
    )
    static let deletePicture = post("/settings/profile/picture/delete", .members, csrf: .sessionToken)
    static let picture = get("/pictures/{file}", .members)

    // The administration page (`AdminController`).
    static let admin = get("/admin", .members)
    static let disableMember = post("/admin/users/{user}/disable", .members, csrf: .sessionToken)
    static let enableMember = post("/admin/users/{user}/enable", .members, csrf: .sessionToken)
    static let deleteMember = post("/admin/users/{user}/delete", .members, csrf: .sessionToken)
    static let memberResetLink = post("/admin/users/{user}/reset-link", .members, csrf: .sessionToken)
    static let createInvite = post("/admin/invites", .members, csrf: .sessionToken)
    static let revokeInvite = post("/admin/invites/{invite}/delete", .members, csrf: .sessionToken)

    // The JSON API (`APIController`, issue 54): its description is public, the rest behind a token.
    static let apiAbout = get("/api/v1", .anyone)
    static let apiDescription = get("/api/v1/openapi.json", .anyone)
    static let apiWants = api(.get, "/api/v1/wants")
    static let apiAddWant = api(.post, "/api/v1/wants")
    static let apiWant = api(.get, "/api/v1/wants/{id}")
    static let apiEditWant = api(.patch, "/api/v1/wants/{id}")
    static let apiRemoveWant = api(.delete, "/api/v1/wants/{id}")
    static let apiLists = api(.get, "/api/v1/lists")
    static let apiCatalogLists = api(.get, "/api/v1/catalog/lists")
    static let apiCatalogList = api(.get, "/api/v1/catalog/lists/{name}")
    static let apiCatalogBook = api(.get, "/api/v1/catalog/books/{id}")
    static let apiPeople = api(.get, "/api/v1/people")
    static let apiPerson = api(.get, "/api/v1/people/{username}")
    static let apiPersonWants = api(.get, "/api/v1/people/{username}/wants")
    static let apiGifts = api(.get, "/api/v1/reservations")
    static let apiReserve = api(.post, "/api/v1/reservations")
    static let apiCancelReservation = api(.delete, "/api/v1/reservations/{id}")
    // The API's part 2 (issue 54): search, her reading, and her lists' writes.
    static let apiCatalogSearch = api(.get, "/api/v1/catalog/search")
    static let apiReadings = api(.get, "/api/v1/readings")
    static let apiAddReading = api(.post, "/api/v1/readings")
    static let apiEditReading = api(.patch, "/api/v1/readings/{id}")
    static let apiForgetReading = api(.delete, "/api/v1/readings/{id}")
    static let apiCreateList = api(.post, "/api/v1/lists")
    static let apiEditList = api(.patch, "/api/v1/lists/{id}")
    static let apiDeleteList = api(.delete, "/api/v1/lists/{id}")
    static let apiPlaceWant = api(.put, "/api/v1/wants/{id}/lists")

    // A family's first week, part 2 (issue 57): a rating is one tap (`ReadingController`).
    static let rateBook = post("/books/{id}/rating", .members, csrf: .sessionToken)

    // A child's lists, kept by her managers from her Manage page, and one list as a Goodreads CSV (issue 51).
    static let createChildList = post("/people/{username}/lists", .members, csrf: .sessionToken)
    static let saveChildList = post("/people/{username}/lists/{list}", .members, csrf: .sessionToken)
    static let deleteChildList = post("/people/{username}/lists/{list}/delete", .members, csrf: .sessionToken)
    static let childListExport = get("/people/{username}/lists/{list}/export.csv", .members)
    static let wishListExport = get("/wishlist/lists/{list}/export.csv", .members)
    static let createChildListShareLink = post("/people/{username}/lists/{list}/share-link", .members, csrf: .sessionToken)
    static let revokeChildListShareLink = post("/people/{username}/lists/{list}/share-link/delete", .members, csrf: .sessionToken)

    // A family's first week, part 3 (issue 57): reading now and the year's goal (`ReadingController`).
    static let startReading = post("/books/{id}/reading-now", .members, csrf: .sessionToken)
    static let stopReading = post("/books/{id}/reading-now/delete", .members, csrf: .sessionToken)
    static let setReadingGoal = post("/reading/goal", .members, csrf: .sessionToken)

    /// The table: `RouteTableTests` checks that the router has exactly these, each once.
    static let all: [Route] = [
        signInPage, signIn, signUpPage, signUp, signOut, setupPage, setUp, welcome, saveWelcome, passkeySignInOptions, passkeySignIn, passkeyRegistrationOptions,
        passkeyRegistration, removePasskey, singleSignOnStart, singleSignOnCallback, unlinkSingleSignOn,
        forgotPage, forgot, verifyEmail, unsubscribePage, unsubscribe, passwordResetPage, resetPassword,
        home, health, metrics, cover, sharedList, favoritesFeed, authorsFeed, occasionsCalendar,
        catalog, list, favoriteList, book, search, author, followAuthor,
        wishlist, addWish, wishlistExport, wishlistImport, received, wishAgain, confirmReceived, markReceived, wishlistItem, saveNote,
        confirmRemoval, removeWish, newWishList, createWishList, wishListEdit, saveWishList, deleteWishList, placeItem,
        createListShareLink, revokeListShareLink, reserveAsGuest, guestReservation, cancelGuestReservation,
        people, person, personList, personReading, reservations, reserve, cancelReservation, markBought, unmarkBought,
        writeCard, dismissNotice, ideas, suggestIdea, reserveIdea, cancelIdeaReservation,
        newChild, createChild, childManagers, changeChildManagers, handOverChild, handOverPage, takeOver,
        reading, bookReading, saveReading, forgetReading, newBook, addBook, scanBook, sharedBook,
        settings, settingsLists, settingsSharing, settingsEmail, settingsPassword, settingsSignIn, settingsData,
        settingsAPITokens, createAPIToken, revokeAPIToken,
        settingsLanguage, setLanguage,
        setDefaultList, setSharing, createShareLink, revokeShareLink, createFeedLink, revokeFeedLink, changePassword,
        signOutOthers, exportData, deleteAccount, linkSingleSignOn, changeEmail, resendVerification, setDigest,
        profile, saveProfile, uploadPicture, deletePicture, picture,
        admin, disableMember, enableMember, deleteMember, memberResetLink, createInvite, revokeInvite,
        apiAbout, apiDescription, apiWants, apiAddWant, apiWant, apiEditWant, apiRemoveWant, apiLists, apiCatalogLists,
        apiCatalogList, apiCatalogBook, apiPeople, apiPerson, apiPersonWants, apiGifts, apiReserve, apiCancelReservation,
        rateBook,
        startReading, stopReading, setReadingGoal,
        apiCatalogSearch, apiReadings, apiAddReading, apiEditReading, apiForgetReading,
        apiCreateList, apiEditList, apiDeleteList, apiPlaceWant,
        createChildList, saveChildList, deleteChildList, childListExport, wishListExport, createChildListShareLink, revokeChildListShareLink,
    ]
}
