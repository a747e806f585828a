import Foundation
import Logging
import WishlistLanguages

/// Every setting of the application, with the defaults the README documents.
///
/// Values come, in increasing priority, from these defaults, `config.json`, environment variables
/// and command-line flags; `ConfigLoader` applies them in that order.
public struct AppConfig: Sendable, Equatable {
    public struct Server: Sendable, Equatable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// Behind HTTPS: cookies get `Secure` and the `__Host-` name prefix.
        public var secureCookies = false
        /// Re-reads templates when they change on disk; for working on `Views/`.
        public var devMode = false
        public var viewsDirectory = "Views"
        public var publicDirectory = "Public"
        public var logLevel = Logger.Level.info
        /// A connection that sends nothing for this long is closed: one that stalls in the middle
        /// of a request's head or body, or an idle keep-alive connection.
        public var idleTimeoutSeconds = 20
        /// Connections beyond this many wait to be accepted until others close, so stalled
        /// clients cannot use up the process's file descriptors.
        public var maxConnections = 512
        /// The origin browsers use, whose host is the passkeys' relying-party id; empty means
        /// `http://localhost:{port}`.
        public var publicURL = ""
        /// Reverse proxies whose `forwardedHeader` is believed (``ForwardedClient``); empty: the
        /// TCP peer is the client.
        public var trustedProxies: [AddressRange] = []
        /// The forwarding header a trusted proxy sets; the other one is ignored.
        public var forwardedHeader = ForwardingHeader.xForwardedFor
        /// The IANA zone in which "today" is reckoned (birthdays); read from the system's zoneinfo
        /// by `ZoneRules`, without ICU.
        public var timeZone = "UTC"
        /// The language of a page whose reader chose none and whose browser asks for none the
        /// server has (issue 53): a shipped language's code.
        public var language = "en"
        /// For tests only: the pseudo-language en-XA (every text accented and bracketed) may be
        /// chosen, by `Accept-Language` or `language`.
        public var pseudoLanguage = false

        /// `publicURL`, or its default for this port.
        public var effectivePublicURL: URL {
            URL(string: publicURL.isEmpty ? "http://localhost:\(port)" : publicURL) ?? URL(string: "http://localhost")!
        }

        /// The scheme, host and port of `effectivePublicURL` (`https://books.example`): every
        /// absolute link the app makes (share, feed, reset and invite links) starts with it,
        /// never with the request's `Host`, which a client chooses.
        public var publicOrigin: String { RelyingParty.origin(of: effectivePublicURL) }
    }

    public struct Database: Sendable, Equatable {
        public var path = "data/wishlist.sqlite"
    }

    public struct NYT: Sendable, Equatable {
        /// Empty means: serve the bundled sample catalog.
        public var apiKey = ""
        public var baseURL = "https://api.nytimes.com/svc/books/v3"
        public var refreshHours = 24
        /// The key's quota; the NYT's default keys allow 5 a minute and 500 a day, some keys more.
        public var requestsPerMinute = 5
        public var requestsPerDay = 500
        /// Editions older than this many weeks before a list's newest are deleted after a refresh.
        public var historyWeeks = 104
    }

    public struct Argon2: Sendable, Equatable {
        public var memoryKiB = 19456
        public var iterations = 2
        public var parallelism = 1
    }

    public enum Signup: String, Sendable, Equatable, CaseIterable {
        /// Anyone who reaches the server may make an account.
        case open
        /// Only `wishlist user create` makes accounts.
        case closed
        /// Only an admin's invite link (`/signup?invite=…`) makes an account.
        case invite
    }

    public struct Accounts: Sendable, Equatable {
        public var signup = Signup.open
        /// Who sees a new member's lists as the welcome after sign-up first offers it; the member
        /// chooses there, and an account whose welcome is skipped stays private.
        public var defaultSharing = Sharing.private
        public var argon2 = Argon2()
        /// How many Argon2 hashes may run at once; each holds `argon2.memoryKiB` of memory and a
        /// core. One leaves the other core of a small machine to serve pages during a sign-in storm.
        public var maxConcurrentHashes = 1
        /// How many more may wait for a free slot; beyond that sign-ins get a 503 at once.
        public var maxWaitingHashes = 64
        public var sessionIdleDays = 14
        public var sessionAbsoluteDays = 30
        public var throttleWindowMinutes = 15
        public var failedLoginsPerAccount = 5
        public var failedLoginsPerAddress = 20
        public var signupsPerAddress = 10
        /// Sign-in through an OpenID Connect provider (issue 32).
        public var oidc = OIDC()
        /// False hides the password forms; allowed only with another way in (`oidc` or
        /// `trustedHeader`), so that no configuration locks every member out.
        public var passwordSignIn = true
        /// The header (such as `Remote-User`) in which an authenticating proxy names the user,
        /// believed only from `server.trustedProxies`; empty: no header is believed.
        public var trustedHeader = ""

        /// Who gets an account by signing in through single sign-on with an identity no account
        /// has: nobody with `oidc.signup` false, otherwise whom `signup` admits (anyone, only the
        /// holder of an invite, or nobody), so that closing sign-up closes it through single sign-on too.
        public var singleSignOnSignup: Signup { oidc.signup == false ? .closed : signup }
    }

    /// The OpenID Connect provider and this app's client there. Its description masks the client
    /// secret, so that printing a configuration cannot leak it.
    public struct OIDC: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        /// Empty turns single sign-on off.
        public var issuer = ""
        public var clientID = ""
        public var clientSecret = ""
        /// The default is a catalog key, worded in each page's language; a label the admin writes
        /// is shown as written (issue 53).
        public var buttonLabel = Translations.marked("Sign in with single sign-on")
        /// What pages call the provider when it can't be reached; empty: the issuer's host.
        public var providerName = ""
        /// Whether an identity no account has linked may get a new account; nil: as `accounts.signup`
        /// says (``Accounts/singleSignOnSignup``). True with `accounts.signup: closed` is refused at start.
        public var signup: Bool?

        public var isOn: Bool { !issuer.isEmpty }

        /// `providerName`, or else the issuer's host: a name people can recognise, never a path.
        public var displayName: String {
            if !providerName.isEmpty { return providerName }
            return URLComponents(string: issuer)?.host ?? "The single sign-on provider"
        }

        public var description: String {
            "OIDC(issuer: \(issuer), clientID: \(clientID), clientSecret: \(clientSecret.isEmpty ? "empty" : "set"), signup: \(signup.map(String.init) ?? "as accounts.signup"))"
        }

        public var debugDescription: String { description }
    }

    public struct Metrics: Sendable, Equatable {
        /// Serves `GET /metrics` (Prometheus' text format) to the scrapers of `allowFrom`.
        public var enabled = false
        /// The peers `/metrics` answers, when they came through no proxy.
        public var allowFrom = AddressRange.loopback
    }

    /// Book look-up for books no list carries (issue 30).
    public struct OpenLibrary: Sendable, Equatable {
        /// Empty turns look-up off; typing a book by hand stays.
        public var baseURL = "https://openlibrary.org"
        /// Where a chosen result's cover is fetched from, by the server's cover job.
        public var coversURL = "https://covers.openlibrary.org"
    }

    /// The cover cache beside the database (`<database>.covers/`).
    public struct Covers: Sendable, Equatable {
        /// Past this, the covers least recently served are deleted (and fetched again if asked for).
        public var cacheMegabytes = 256
    }

    /// Mail through an SMTP server (``SMTPClient``); without `smtpURL` the app sends none and
    /// offers nothing that needs it. Its description masks the password, as ``OIDC``'s does the secret.
    public struct Mail: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
        /// `smtp://host:587` (STARTTLS) or `smtps://host:465`.
        public var smtpURL = ""
        public var username = ""
        /// Never logged or shown.
        public var password = ""
        /// The `From` of every message; required with `smtpURL`.
        public var from = ""
        /// How long one message may take, connection to the server's last answer, before the
        /// try counts as failed (and is retried).
        public var timeoutSeconds = 60

        public var isEnabled: Bool { !smtpURL.isEmpty }
        /// `from`, already checked by the configuration loader when mail is on.
        public var sender: MailAddress? { MailAddress(from) }

        public var description: String {
            "Mail(smtpURL: \(smtpURL), username: \(username), password: \(password.isEmpty ? "empty" : "set"), from: \(from))"
        }

        public var debugDescription: String { description }
    }

    /// Where a book can be borrowed and bought beyond the NYT's own links (issue 52).
    public struct Books: Sendable, Equatable {
        public var borrowLinks = [BookLinkTemplates.worldCat]
        /// Shown before the NYT's buy links, which stay.
        public var buyLinks: [BookLinkTemplate] = []

        public var linkTemplates: BookLinkTemplates { BookLinkTemplates(borrow: borrowLinks, buy: buyLinks) }
    }

    public var server = Server()
    public var database = Database()
    public var nyt = NYT()
    public var openLibrary = OpenLibrary()
    public var covers = Covers()
    public var accounts = Accounts()
    public var metrics = Metrics()
    public var mail = Mail()
    public var books = Books()
    public var api = API()

    /// The JSON API with personal tokens (issue 54).
    public struct API: Sendable, Equatable {
        /// Requests one token may make in a minute; past it, 429 with `Retry-After`.
        public var requestsPerMinute = 60
    }

    public init() {}
}
