import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 55: the route table (``Route``) is the router's, once each, and every link the Swift code
/// prints is one its route answers.
@Suite("The route table", .removesTemporaryDirectories)
struct RouteTableTests {
    /// With every optional part on (metrics, mail, single sign-on), the router has exactly the
    /// table's routes: none added beside it, none of it forgotten, none twice.
    @Test func theRouterHasEveryRouteOfTheTableAndNoOther() async throws {
        let registered = try await FakeOpenIDProvider(clock: ManualClock().clock).run { issuer in
            try await TestApp.build { config in
                config.metrics.enabled = true
                config.mail.smtpURL = "smtp://127.0.0.1:9"
                config.mail.from = "wishlist@example.com"
                config.accounts.oidc = .init(issuer: issuer, clientID: FakeOpenIDProvider.clientID, clientSecret: FakeOpenIDProvider.clientSecret)
            }.registeredRoutes
        }
        let table = Route.all.map(\.description)
        #expect(Set(table).count == table.count, "a route is in the table twice")
        #expect(Set(registered).count == registered.count, "a route is registered twice")
        #expect(Set(registered).subtracting(table).sorted() == [], "registered beside the table")
        #expect(Set(table).subtracting(registered).sorted() == [], "in the table but never registered")
    }

    /// A POST cannot be declared without a rule (``Route/post(_:_:csrf:body:)`` has no default),
    /// and the rule that skips the check is a GET's alone; only uploads take more than a form.
    @Test func everyPOSTNamesHowItProvesWhereItCameFrom() {
        for route in Route.all {
            #expect((route.method == .get) == (route.csrf == .safeMethod), "\(route)")
            if case .upload = route.body { #expect(route.method == .post && route.csrf == .sessionToken, "\(route)") }
        }
        // A link's own token allows this: stop a digest. A guest's forms on a share link carry her anonymous session's token (issue 57).
        #expect(Route.all.filter { $0.csrf == .linkToken } == [.unsubscribe])
        #expect(Route.reserveAsGuest.csrf == .sessionToken && Route.cancelGuestReservation.csrf == .sessionToken)
        #expect(Route.all.filter { $0.csrf == .headerToken }.allSatisfy { $0.pattern.hasPrefix("/passkeys/") })
        // No cookie authenticates the API, so its writes need no CSRF token; nothing else is exempt that way.
        #expect(Route.all.filter { $0.csrf == .bearerToken }.allSatisfy { $0.access == .apiToken && $0.pattern.hasPrefix("/api/v1/") })
        #expect(Route.all.filter { $0.access == .apiToken }.allSatisfy { $0.csrf == .bearerToken || $0.method == .get })
    }

    /// Every printer of ``SitePath`` (and each settings section's) gives a path that Hummingbird
    /// routes to the route it was printed from, asked with that route's method.
    /// A link is its pattern with each parameter, in order, in its place: filled with the
    /// parameters' own names, every route prints its pattern back.
    @Test func aPathIsItsPatternWithTheValuesInOrder() {
        for route in Route.all {
            let names = route.pattern.split(separator: "/").filter { $0.hasPrefix("{") }.map(String.init)
            let printed: String
            switch names.count {
            case 0: printed = route.path()
            case 1: printed = route.path(names[0])
            case 2: printed = route.path(names[0], names[1])
            default: Issue.record("\(route) has \(names.count) parameters"); continue
            }
            #expect(printed == route.pattern, "\(route)")
        }
        #expect(Route.home.path() == "/")
        #expect(Route.wishlistItem.path("12") == "/wishlist/12")
        #expect(Route.person.path("ana%20b") == "/people/ana%20b")
    }

    @Test func everyPrintedPathIsAnsweredByItsOwnRoute() async throws {
        let item = ItemID(7), list = ListID(3)
        var printed: [(String, Route)] = [
            (SitePath.signIn, .signInPage), (SitePath.signIn(returningTo: "/lists/x?y=1"), .signInPage),
            (SitePath.signUp(invite: "t0k"), .signUpPage), (SitePath.passwordReset("t0k"), .passwordResetPage),
            (SitePath.catalog, .catalog), (SitePath.list("hardcover-fiction"), .list), (SitePath.book("9780000000002"), .book),
            (SitePath.bookReading("9780000000002"), .bookReading), (SitePath.reading, .reading),
            (SitePath.author("Brené Brown"), .author), (SitePath.followAuthor("Brené Brown"), .followAuthor),
            (SitePath.forgetReading("9780000000002"), .forgetReading), (SitePath.readingNow("9780000000002"), .startReading),
            (SitePath.stopReading("9780000000002"), .stopReading),
            (SitePath.wishlist, .wishlist), (SitePath.wishList(list), .wishlist), (SitePath.wishlistItem(item), .wishlistItem),
            (SitePath.wishListEdit(list), .wishListEdit), (SitePath.listShareLink(list), .createListShareLink),
            (SitePath.revokeListShareLink(list), .revokeListShareLink), (SitePath.guestReservation("t0k"), .guestReservation), (SitePath.newWishList, .newWishList), (SitePath.received, .received),
            (SitePath.wishlistImport, .wishlistImport),
            (SitePath.people, .people), (SitePath.person("maya"), .person), (SitePath.ideas("maya"), .ideas),
            (SitePath.personList("maya", list), .personList), (SitePath.personReading("maya"), .personReading),
            (SitePath.reservations, .reservations),
            (SitePath.newBook, .newBook), (SitePath.lookUp(isbn: "9780000000002"), .newBook), (SitePath.scanBook, .scanBook),
            (SitePath.profile, .profile), (SitePath.profilePicture, .uploadPicture), (SitePath.picture("abc", size: 64), .picture),
            (SitePath.cover("abc", .small), .cover), (SitePath.sharedList("t0k"), .sharedList),
            (SitePath.favoritesFeed("t0k"), .favoritesFeed), (SitePath.authorsFeed("t0k"), .authorsFeed),
            (SitePath.occasionsCalendar("t0k"), .occasionsCalendar),
            (SitePath.settings, .settings), (SitePath.admin(done: "invite"), .admin),
            (SitePath.favoriteList("hardcover-fiction"), .favoriteList), (SitePath.saveNote(item), .saveNote), (SitePath.removeWish(item), .removeWish),
            (SitePath.wishAgain(item), .wishAgain), (SitePath.markBought(item), .markBought), (SitePath.unmarkBought(item), .unmarkBought),
            (SitePath.writeCard(item), .writeCard), (SitePath.cancelReservation(item), .cancelReservation),
            (SitePath.dismissNotice(ReservationID(5)), .dismissNotice), (SitePath.reserveIdea("maya", IdeaID(2)), .reserveIdea),
            (SitePath.cancelIdeaReservation("maya", IdeaID(2)), .cancelIdeaReservation), (SitePath.removePasskey(PasskeyID(4)), .removePasskey),
            (SitePath.unlinkSingleSignOn(IdentityID(4)), .unlinkSingleSignOn), (SitePath.revokeAPIToken(APITokenID(4)), .revokeAPIToken),
            (SitePath.disableMember(UserID(2)), .disableMember), (SitePath.enableMember(UserID(2)), .enableMember),
            (SitePath.deleteMember(UserID(2)), .deleteMember), (SitePath.memberResetLink(UserID(2)), .memberResetLink),
            (SitePath.revokeInvite(InviteID(6)), .revokeInvite),
            (SitePath.mail.verifyEmail("t0k"), .verifyEmail), (SitePath.mail.forgot, .forgotPage), (SitePath.mail.unsubscribe("t0k"), .unsubscribePage),
            (SitePath.api, .apiAbout), (SitePath.apiWants, .apiWants), (SitePath.apiWant(item), .apiWant), (SitePath.apiList(list), .apiEditList),
            (SitePath.apiReadings, .apiReadings), (SitePath.apiReading("9780000000002"), .apiEditReading), (SitePath.apiReservations, .apiGifts),
            (SitePath.apiPeople, .apiPeople), (SitePath.apiPersonWants("maya", list: nil), .apiPersonWants),
            (SitePath.apiPersonWants("maya", list: list), .apiPersonWants), (SitePath.apiCatalogSearch("the a/b?&"), .apiCatalogSearch),
        ]
        for section in SettingsSection.allCases {
            printed.append((section.path, section.route))
            printed.append((SitePath.settings(section, done: "saved"), section.route))
        }
        let cases = printed
        let router = Router()
        for route in Route.all {
            router.on(RouterPath(route.pattern), method: route.method) { _, _ in route.description }
        }
        try await Application(router: router).test(.router) { client in
            for (path, route) in cases {
                // A browser keeps the fragment (`#flash`) to itself.
                let sent = String(path.prefix { $0 != "#" })
                let response = try await client.execute(uri: sent, method: route.method)
                #expect(String(buffer: response.body) == route.description, "\(path) was printed from \(route)")
            }
        }
    }

    /// Every `{{ paths.… }}` a template writes is one the renderer gives (a missing one would
    /// print an empty link that the link walk cannot see), and each is a route's path.
    @Test func everySectionPathATemplateNamesIsPrintedFromARoute() throws {
        guard case .dictionary(let paths) = PageRenderer.paths else { throw TestSetupError(description: "paths is not a dictionary") }
        let routePaths = Set(Route.all.filter { !$0.pattern.contains("{") }.map { $0.path() })
        for (name, value) in paths {
            guard case .string(let path) = value else { throw TestSetupError(description: "paths.\(name) is not text") }
            #expect(routePaths.contains(path), "paths.\(name) is \(path), no route's")
        }
        let views = repositoryRoot.appendingPathComponent("Views")
        var named = 0
        for case let file as URL in FileManager.default.enumerator(at: views, includingPropertiesForKeys: nil)! where file.pathExtension == "html" {
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: /paths\.([a-z_]+)/) {
                named += 1
                #expect(paths[String(match.1)] != nil, "\(file.lastPathComponent) links to paths.\(match.1), which no route prints")
            }
        }
        #expect(named > 40, "the templates were not read")
    }
}
