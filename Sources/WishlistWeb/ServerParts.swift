import CivilTime
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// What the application is assembled from, made once by ``WishlistServer/build(config:logger:clock:httpLimits:)``:
/// the stores, the page renderer and caches, the security pieces the middleware shares, and the
/// background jobs. Its methods add the middleware in order, the routes (`ServerParts+Routes.swift`)
/// and list the services.
struct ServerParts {
    let config: AppConfig
    let database: AppDatabase
    let catalogSync: CatalogSync
    let hasher: PasswordHasher
    let accounts: AccountService
    let logger: Logger
    let clock: WallClock
    let httpLimits: CurlHTTPClient.Limits
    /// How long Open Library may take to answer a look-up.
    let lookUpTimeoutSeconds: Int

    let staticFiles: StaticFiles
    /// Every shipped language's catalog, read once at start, and how a page's is chosen.
    let languages: LanguageCatalogs
    let languageChoice: LanguageChoice
    let pages: PageRenderer
    let csrf: CSRFProtection
    let cookies: SessionCookies
    let mail: MailParts?
    let metrics: MetricsRegistry
    let addressing: ClientAddressing
    let pageCaches: PageCaches
    /// Filled as the pages' routes are added, each with its loader.
    let pageLoaders = PageLoaders()
    let memo: PageReadMemo
    let stores: Stores
    let importer: GoodreadsImporter
    let pictures: PictureProcessor
    /// Photos of barcodes decode on a pool of their own, one at a time, two waiting.
    let barcodes: BookBarcodeReader
    let coverFetcher: CoverFetcher
    let signInAttempts: SignInAttempts
    let relyingParty: RelyingParty
    /// Where "today" is, for birthdays (`server.timeZone`).
    let serverTimeZone: ZoneRules

    init(
        config: AppConfig, database: AppDatabase, catalogSync: CatalogSync, hasher: PasswordHasher, accounts: AccountService,
        logger: Logger, clock: WallClock, httpLimits: CurlHTTPClient.Limits, lookUpTimeoutSeconds: Int, views: CompiledViews
    ) async throws {
        self.config = config
        self.database = database
        self.catalogSync = catalogSync
        self.hasher = hasher
        self.accounts = accounts
        self.logger = logger
        self.clock = clock
        self.httpLimits = httpLimits
        self.lookUpTimeoutSeconds = lookUpTimeoutSeconds
        staticFiles = StaticFiles(directory: config.server.publicDirectory, reload: config.server.devMode)
        languages = views.languages
        languageChoice = LanguageChoice(languages: views.pageLanguages, serverDefault: config.server.language)
        pages = PageRenderer(
            templates: views.templates,
            signupOpen: Self.passwordSignup(config) == .open,
            notices: SiteNotices(showsSampleData: config.nyt.apiKey.isEmpty, statusLine: { catalogSync.currentStatusLine }),
            assets: staticFiles
        )
        csrf = try await CSRFProtection.load(from: database)
        cookies = SessionCookies(secure: config.server.secureCookies)
        mail = try MailParts(config: config, database: database, languages: languages, clock: clock, logger: logger)
        metrics = MetricsRegistry()
        addressing = ClientAddressing(trustedProxies: config.server.trustedProxies, believed: config.server.forwardedHeader)
        pageCaches = PageCaches(metrics: config.metrics.enabled ? metrics : nil)
        memo = PageReadMemo(changes: database.changes, statusLine: pages.notices.statusLine, metrics: config.metrics.enabled ? metrics : nil)
        stores = Stores(database: database, clock: clock)
        // What an import cut short by a stopped process left is taken away before anyone sees more of it.
        importer = GoodreadsImporter(database: database)
        try await importer.rollBackUnfinished()
        pictures = try PictureProcessor()
        barcodes = BookBarcodeReader(pictures: try PictureProcessor(threads: 1, maxWaiting: 2))
        coverFetcher = CoverFetcher(
            store: stores.covers,
            cache: try CoverCache(
                directory: CoverCache.directory(besideDatabase: config.database.path), capacityBytes: config.covers.cacheMegabytes * 1_048_576
            ),
            pictures: pictures,
            // Covers come from URLs a catalog or a book record names: public addresses only, and
            // the services this configuration names by address.
            reachable: .publicAnd(servicesAt: [config.openLibrary.coversURL, config.openLibrary.baseURL, config.nyt.baseURL]),
            clock: clock, logger: logger
        )
        signInAttempts = SignInAttempts(database: database, clock: clock)
        relyingParty = RelyingParty(publicURL: config.server.effectivePublicURL, database: database, clock: clock)
        serverTimeZone = try ZoneRules.load(named: config.server.timeZone)
    }

    /// The middleware every request passes, outermost first, then the session's: each is applied
    /// to the routes added after it, so this comes before the routes.
    func addMiddleware(to router: Router<AppRequestContext>) {
        router.add(middleware: AccessLogMiddleware())
        if config.metrics.enabled {
            router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        }
        router.add(middleware: SecurityHeadersMiddleware(behindHTTPS: config.server.secureCookies, files: staticFiles))
        // Outside the error pages, so that they are compressed too; static files come compressed.
        router.add(middleware: CompressionMiddleware(sharedPart: { staticFiles.current.stylesheet?.deflated }))
        router.add(middleware: ErrorPageMiddleware(pages: pages, browserLanguages: languageChoice))
        router.add(middleware: BodyLimitMiddleware())
        router.add(middleware: StaticFilesMiddleware(files: staticFiles, secureCookies: config.server.secureCookies))
        router.add(middleware: SessionMiddleware(
            sessions: accounts.sessions, cookies: cookies, csrf: csrf, pageLoaders: pageLoaders, memo: memo, languages: languageChoice
        ))
        if let header = HTTPField.Name(config.accounts.trustedHeader) {
            router.add(middleware: TrustedHeaderMiddleware(
                header: header, trustedProxies: config.server.trustedProxies, accounts: accounts, cookies: cookies, csrf: csrf,
                sessionMaxAge: sessionMaxAge, signup: config.accounts.signup != .closed
            ))
        }
        router.add(middleware: LanguageMiddleware(choice: languageChoice))
        router.add(middleware: FlashMiddleware(
            wishlist: stores.wishlist, household: stores.household, reading: stores.reading, secure: config.server.secureCookies
        ))
        // Again inside the session, so error pages show the signed-in navigation.
        router.add(middleware: ErrorPageMiddleware(pages: pages))
        router.add(middleware: CSRFMiddleware(csrf: csrf))
    }

    /// Without password sign-in, nobody signs up with a password either (`accounts.passwordSignIn`).
    static func passwordSignup(_ config: AppConfig) -> AppConfig.Signup {
        config.accounts.passwordSignIn ? config.accounts.signup : .closed
    }

    /// How long a session lasts at most, in seconds (`accounts.sessionAbsoluteDays`).
    var sessionMaxAge: Int { config.accounts.sessionAbsoluteDays * 86_400 }

    /// The jobs that run beside the server: the catalog's refresh, covers, the hourly purge of
    /// expired rows, and the mail's sender and digests when mail is on.
    func services() -> [any Service] {
        var services: [any Service] = [
            CatalogRefreshService(sync: catalogSync, logger: logger, metrics: metrics),
            coverFetcher,
            ExpiredRowsPurge(
                purges: [accounts.deleteExpiredRows, catalogSync.limiter.deleteExpired, signInAttempts.deleteExpired] + (mail?.purges ?? []),
                interval: .seconds(3600), logger: logger
            ),
        ]
        if let mail { services += [mail.sender, mail.digests] }
        return services
    }
}

/// The stores the controllers share, one of each over the one database.
struct Stores {
    let catalog: CatalogStore
    let wishlist: WishlistStore
    let lists: WishListStore
    let household: HouseholdStore
    let reading: ReadingStore
    let invites: Invites
    let shareLinks: ShareLinkStore
    let feedLinks: SecretLinkStore
    let covers: CoverStore
    let identities: SignInIdentities
    let authors: AuthorStore

    init(database: AppDatabase, clock: WallClock) {
        catalog = CatalogStore(database: database)
        wishlist = WishlistStore(database: database)
        lists = WishListStore(database: database)
        household = HouseholdStore(database: database)
        reading = ReadingStore(database: database)
        invites = Invites(database: database, clock: clock)
        shareLinks = ShareLinkStore(database: database)
        feedLinks = SecretLinkStore(database: database, kind: .feed)
        covers = CoverStore(database: database)
        identities = SignInIdentities(database: database, clock: clock)
        authors = AuthorStore(database: database)
    }
}

/// What sending mail takes, made only when `mail.smtpURL` is set.
struct MailParts {
    let outbox: MailOutbox
    let sender: MailSender
    let accountMail: AccountMail
    let digests: DigestService
    let unsubscribeLinks: UnsubscribeLinks
    let purges: [@Sendable () async throws -> Int]

    init?(config: AppConfig, database: AppDatabase, languages: LanguageCatalogs, clock: WallClock, logger: Logger) throws {
        guard config.mail.isEnabled, let from = config.mail.sender else { return nil }
        let outboxKey = try OutboxKey.load(besideDatabase: config.database.path)
        outbox = MailOutbox(database: database, clock: clock, key: outboxKey)
        let sender = MailSender(
            outbox: outbox, client: SMTPClient(settings: config.mail), sender: from, clock: clock, logger: logger
        )
        self.sender = sender
        let mailer = Mailer(
            sender: from, publicOrigin: config.server.publicOrigin, paths: SitePath.mail, clock: clock, outboxKey: outboxKey,
            languages: MailLanguages(catalogs: languages.all, serverLanguage: config.server.language)
        ) { sender.nudge() }
        accountMail = AccountMail(database: database, mailer: mailer, accountSettings: config.accounts, clock: clock, logger: logger)
        digests = DigestService(
            database: database, mailer: mailer, timeZone: try ZoneRules.load(named: config.server.timeZone), clock: clock, logger: logger
        )
        let unsubscribeLinks = UnsubscribeLinks(database: database)
        self.unsubscribeLinks = unsubscribeLinks
        let outbox = self.outbox
        purges = [outbox.deleteExpired, { try await unsubscribeLinks.deleteExpired(now: clock.now()) }]
    }
}
