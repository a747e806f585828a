import Hummingbird
import WishlistCore

extension ServerParts {
    /// Every controller's routes, bound to the table's (``Route``). The pages people spend their time on come first: Hummingbird's
    /// router tries a path's first component against each registered one in the order they were added.
    func addRoutes(public router: Router<AppRequestContext>, signedIn: RouterGroup<AppRequestContext>) {
        let gate = BearerTokenMiddleware(
            tokens: accounts.apiTokens, rateLimit: APIRateLimit(perMinute: config.api.requestsPerMinute, clock: clock), addressing: addressing
        )
        let routes = SiteRouter(router: router, signedIn: signedIn, api: router.group().add(middleware: gate))
        addReadingPages(to: routes)
        addSiteRoutes(to: routes)
        let singleSignOn = addSignInRoutes(to: routes)
        addSettingsRoutes(to: routes, singleSignOn: singleSignOn)
        addAPIRoutes(to: routes)
    }

    /// The JSON API (issue 54): its own gate, the bearer token, in place of the session.
    private func addAPIRoutes(to routes: SiteRouter) {
        APIController(
            database: database, wishlist: stores.wishlist, lists: stores.lists, catalog: stores.catalog, household: stores.household,
            pages: pages, staticFiles: staticFiles, clock: clock
        ).addRoutes(to: routes)
    }

    /// The catalog, the wishlist, the household, ideas, reading, profiles and added books.
    private func addReadingPages(to routes: SiteRouter) {
        let secureCookies = config.server.secureCookies
        CatalogController(
            database: database, catalog: stores.catalog, pages: pages, clock: clock, wishlist: stores.wishlist, authors: stores.authors,
            pageCaches: pageCaches, secureCookies: secureCookies, links: config.books.linkTemplates, covers: coverFetcher.cache
        ).addRoutes(to: routes, loaders: pageLoaders)
        WishlistController(
            database: database, wishlist: stores.wishlist, lists: stores.lists, reading: stores.reading, importer: importer,
            catalog: stores.catalog, pages: pages, clock: clock, pageCaches: pageCaches, secureCookies: secureCookies,
            children: Children(database: database, clock: clock)
        ).addRoutes(to: routes, loaders: pageLoaders)
        WishListsController(
            lists: stores.lists, shareLinks: stores.shareLinks, pages: pages, clock: clock, publicOrigin: config.server.publicOrigin,
            secureCookies: secureCookies, children: Children(database: database, clock: clock)
        ).addRoutes(to: routes)
        ChildrenController(
            children: Children(database: database, clock: clock), profiles: ProfileStore(database: database), wishlist: stores.wishlist,
            lists: stores.lists, shareLinks: stores.shareLinks, pictures: pictures, pages: pages,
            clock: clock, logger: logger, publicOrigin: config.server.publicOrigin
        ).addRoutes(to: routes)
        HouseholdController(
            database: database, household: stores.household, catalog: stores.catalog, pages: pages, clock: clock,
            timeZone: serverTimeZone, pageCaches: pageCaches, secureCookies: secureCookies, links: config.books.linkTemplates
        ).addRoutes(to: routes, loaders: pageLoaders)
        AuthorsController(database: database, authors: stores.authors, pages: pages, clock: clock).addRoutes(to: routes, loaders: pageLoaders)
        // One client for the add-a-book page and gift ideas: Open Library's rate and answers are shared.
        let openLibrary = OpenLibraryClient(baseURL: config.openLibrary.baseURL, coversURL: config.openLibrary.coversURL, timeoutSeconds: lookUpTimeoutSeconds)
        IdeasController(
            database: database, household: stores.household, catalog: stores.catalog, added: AddedBookStore(database: database), openLibrary: openLibrary,
            covers: stores.covers, fetcher: coverFetcher, pages: pages, clock: clock, logger: logger, secureCookies: secureCookies
        ).addRoutes(to: routes)
        ReadingController(
            database: database, reading: stores.reading, catalog: stores.catalog, wishlist: stores.wishlist, pages: pages, clock: clock,
            secureCookies: secureCookies
        ).addRoutes(to: routes, loaders: pageLoaders)
        ProfileController(
            profiles: ProfileStore(database: database), reading: stores.reading, pictures: pictures, pages: pages, clock: clock, logger: logger
        ).addRoutes(to: routes)
        WelcomeController(
            profiles: ProfileStore(database: database), household: stores.household, pages: pages, defaultSharing: config.accounts.defaultSharing
        ).addRoutes(to: routes)
        AddBookController(
            added: AddedBookStore(database: database), catalog: stores.catalog, wishlist: stores.wishlist,
            openLibrary: openLibrary,
            covers: stores.covers, fetcher: coverFetcher, barcodes: barcodes, pages: pages, clock: clock, logger: logger, secureCookies: secureCookies
        ).addRoutes(to: routes)
    }

    /// What anyone may ask for: covers, health, metrics, share links, feeds, password resets,
    /// sign-in and sign-up, and the mail's links.
    private func addSiteRoutes(to routes: SiteRouter) {
        CoversController(
            store: stores.covers, cache: coverFetcher.cache, fetcher: coverFetcher, publicDirectory: config.server.publicDirectory
        ).addRoutes(to: routes)
        SystemController(database: database, catalog: stores.catalog).addRoutes(to: routes)
        if config.metrics.enabled {
            let gauges = ServerGauges(database: database, databasePath: config.database.path, hasher: hasher, clock: clock)
            MetricsController(
                metrics: metrics, gauges: gauges, pageCaches: pageCaches, allowFrom: config.metrics.allowFrom, addressing: addressing
            ).addRoutes(to: routes)
        }
        ShareLinkController(
            shareLinks: stores.shareLinks, lists: stores.lists, guests: GuestReservations(database: database, clock: clock, settings: config.accounts),
            pages: pages, addressing: addressing, publicOrigin: config.server.publicOrigin
        ).addRoutes(to: routes)
        FeedController(feedLinks: stores.feedLinks, catalog: stores.catalog, authors: stores.authors, publicOrigin: config.server.publicOrigin, languages: languageChoice)
            .addRoutes(to: routes)
        CalendarController(feedLinks: stores.feedLinks, database: database, clock: clock, publicOrigin: config.server.publicOrigin, languages: languageChoice)
            .addRoutes(to: routes)
        PasswordResetController(accounts: accounts, pages: pages).addRoutes(to: routes)
        HandOverController(accounts: accounts, pages: pages, cookies: cookies, sessionMaxAge: sessionMaxAge, addressing: addressing).addRoutes(to: routes)
        let oidc = config.accounts.oidc
        AccountsController(
            accounts: accounts, pages: pages, cookies: cookies, metrics: metrics, signup: Self.passwordSignup(config),
            invites: stores.invites, setupLinks: SetupLinks(database: database, clock: clock),
            sessionMaxAge: sessionMaxAge, addressing: addressing, accountMail: mail?.accountMail, passwordSignIn: config.accounts.passwordSignIn,
            singleSignOnLabel: oidc.isOn ? oidc.buttonLabel : nil,
            singleSignOnSignup: oidc.isOn ? config.accounts.singleSignOnSignup : .closed
        ).addRoutes(to: routes)
        if let mail {
            MailController(
                accountMail: mail.accountMail, unsubscribeLinks: mail.unsubscribeLinks, pages: pages, metrics: metrics, addressing: addressing
            ).addRoutes(to: routes)
        }
    }

    /// Single sign-on, when configured, and passkeys; the single sign-on controller is Settings' too.
    private func addSignInRoutes(to routes: SiteRouter) -> SingleSignOnController? {
        var singleSignOn: SingleSignOnController?
        if config.accounts.oidc.isOn {
            singleSignOn = SingleSignOnController(
                provider: OpenIDProvider(
                    settings: config.accounts.oidc, redirectURI: config.server.publicOrigin + Route.singleSignOnCallback.path(), clock: clock, limits: httpLimits
                ),
                attempts: signInAttempts, identities: stores.identities, accounts: accounts, cookies: cookies, sessionMaxAge: sessionMaxAge,
                metrics: metrics, logger: logger, addressing: addressing, passwordSignIn: config.accounts.passwordSignIn,
                signup: config.accounts.singleSignOnSignup, invites: stores.invites
            )
            singleSignOn?.addRoutes(to: routes)
        }
        PasskeyController(
            relyingParty: relyingParty, accounts: accounts, cookies: cookies,
            sessionMaxAge: sessionMaxAge, metrics: metrics, addressing: addressing
        ).addRoutes(to: routes)
        return singleSignOn
    }

    /// Settings and the administration page.
    private func addSettingsRoutes(to routes: SiteRouter, singleSignOn: SingleSignOnController?) {
        SettingsController(
            accounts: accounts, catalog: stores.catalog, authors: stores.authors, household: stores.household, shareLinks: stores.shareLinks,
            feedLinks: stores.feedLinks, passkeys: relyingParty.store,
            exports: MemberDataExport(database: database, sessions: accounts.sessions), pages: pages,
            cookies: cookies, clock: clock, timeZone: serverTimeZone, publicOrigin: config.server.publicOrigin, accountMail: mail?.accountMail,
            singleSignOn: singleSignOn
        ).addRoutes(to: routes)
        AdminController(
            administration: Administration(database: database, clock: clock), accounts: accounts, invites: stores.invites,
            database: database, databasePath: config.database.path, signup: config.accounts.signup, pages: pages, clock: clock,
            publicOrigin: config.server.publicOrigin, accountMail: mail?.accountMail, outbox: mail?.outbox
        ).addRoutes(to: routes)
    }
}
