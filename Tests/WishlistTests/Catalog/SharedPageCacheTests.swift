import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// List and book pages are rendered once and filled per visitor: these tests show that no visitor
/// ever sees another's parts and that a change to the catalog is seen at once.
@Suite("List and book pages from the shared page caches", .removesTemporaryDirectories)
struct SharedPageCacheTests {
    static func tokens(in page: String) -> Set<String> {
        Set(page.matches(of: /name="csrf_token" value="([^"]+)"/).map { String($0.1) })
    }

    @Test func eachVisitorSeesOwnMarksTokenNameAndCountOnTheSamePage() async throws {
        let server = try await TestApp.build()
        let books = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")).1.map(\.book)
        try await TestApp.run(server) { ann in
            try await ann.signUp("anna")
            #expect(try await ann.post("/wishlist", [("book", books[1].id), ("return_to", "/wishlist")]).status == .seeOther)
            var bo = TestBrowser(client: ann.client)
            let signedUp = try await bo.signUp("boris")
            #expect(signedUp.status == .seeOther, "\(signedUp.text)")
            let annPage = try await ann.get("/lists/hardcover-fiction").text
            let boResponse = try await bo.get("/lists/hardcover-fiction")
            #expect(boResponse.status == .ok, "\(boResponse.headers)")
            let boPage = boResponse.text
            let annItem = try #require(try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item") })
            #expect(annPage.contains(#"<a class="on-wishlist" href="/wishlist/\#(annItem)">"#))
            #expect(annPage.components(separatedBy: #"class="on-wishlist""#).count == 2)
            #expect(!boPage.contains(#"class="on-wishlist""#), "Ann's mark is not Bo's")
            #expect(Self.tokens(in: annPage) == [ann.csrfToken])
            #expect(Self.tokens(in: boPage) == [bo.csrfToken])
            #expect(ann.csrfToken != bo.csrfToken)
            #expect(annPage.contains(">anna</span>") && !annPage.contains(">boris</span>"))
            #expect(boPage.contains(">boris</span>") && !boPage.contains(">anna</span>"))
            #expect(annPage.contains(#"id="wishlist-count">1<span class="visually-hidden"> book</span>"#))
            #expect(boPage.contains(#"id="wishlist-count">0<span class="visually-hidden"> books</span>"#))
        }
    }

    @Test func aCachedPageIsTheFreshRenderAndTheAddressIsEscapedPerRequest() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let first = try await browser.get("/lists/hardcover-fiction").text
            let second = try await browser.get("/lists/hardcover-fiction").text
            #expect(first == second)
            let odd = try await browser.get("/lists/hardcover-fiction?sort=rank&x=%22%3E%3Cb%3E").text
            #expect(odd.contains(#"name="return_to" value="/lists/hardcover-fiction?sort=rank&amp;x=%22%3E%3Cb%3E""#))
            #expect(!odd.contains("\"><b>"))
        }
    }

    @Test func aChangeToTheCatalogByAnyWriterIsSeenOnTheNextRequest() async throws {
        let server = try await TestApp.build()
        let book = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")).1[0].book
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            #expect(try await browser.get("/lists/hardcover-fiction").shows(book.title))
            // As `wishlist sync` in another process would: straight into the database.
            try await server.database.pool.write { db in
                try db.execute(sql: "UPDATE book SET title = 'A Title Changed Elsewhere' WHERE id = ?", arguments: [book.id])
            }
            let page = try await browser.get("/lists/hardcover-fiction")
            #expect(page.shows("A Title Changed Elsewhere"))
            #expect(!page.shows(book.title))
        }
    }

    @Test func theCacheKeepsNoMoreThanItsCapacityAndEachPageUnderItsOwnGeneration() throws {
        let cache = ListPageCache(page: "list", capacity: 2)
        let library = try TemporaryViews(["p.html": "x"])
        let page = try library.library().renderSlotted("p.html", [:]).mapSlots { PageSlot<ListPage.Slot>($0) { _ in nil } }
        let entry = ListPage(page: page, bookIDs: [], marks: [], isCurrent: true, byteCount: 1)
        func key(_ list: String, _ generation: Int64) -> ListPageKey {
            .init(list: list, date: "", sort: .rank, isFavorite: false, isAdmin: false, statusLine: nil, language: "en", generation: generation)
        }
        for list in ["a", "b", "c"] { cache.keep(entry, for: key(list, 1)) }
        #expect(cache.entry(key("a", 1)) == nil, "the oldest went")
        #expect(cache.entry(key("c", 1)) != nil)
        cache.keep(entry, for: key("b", 2))
        #expect(cache.entry(key("b", 1)) == nil, "a page is found only under the generation it was read at")
        #expect(cache.entry(key("b", 2)) != nil)
        #expect(cache.entry(key("c", 1)) != nil, "another page's newer generation leaves this one")
        #expect(cache.statistics.entries == 2, "the newer rendering replaced the older")
        cache.keep(entry, for: key("b", 1))
        #expect(cache.entry(key("b", 2)) != nil && cache.entry(key("b", 1)) == nil, "an older rendering, finished later, is not kept")
    }

    @Test func theCacheKeepsNoMoreThanItsBytesTheOldestRenderingGoingFirst() throws {
        let cache = ListPageCache(page: "list", capacity: 10, maximumBytes: 100)
        let library = try TemporaryViews(["p.html": "x"])
        let page = try library.library().renderSlotted("p.html", [:]).mapSlots { PageSlot<ListPage.Slot>($0) { _ in nil } }
        func entry(_ bytes: Int) -> ListPage { ListPage(page: page, bookIDs: [], marks: [], isCurrent: true, byteCount: bytes) }
        func key(_ list: String, _ generation: Int64 = 1) -> ListPageKey {
            .init(list: list, date: "", sort: .rank, isFavorite: false, isAdmin: false, statusLine: nil, language: "en", generation: generation)
        }
        for list in ["a", "b", "c"] { cache.keep(entry(30), for: key(list)) }
        #expect(cache.statistics.bytes == 90 && cache.statistics.entries == 3)
        cache.keep(entry(40), for: key("a", 2))
        #expect(cache.statistics.bytes == 100, "a newer rendering's bytes replace the older's")
        cache.keep(entry(20), for: key("d"))
        #expect(cache.entry(key("b")) == nil, "the oldest rendering went: b, not a, which was rendered again after it")
        #expect(cache.entry(key("a", 2)) != nil && cache.entry(key("c")) != nil && cache.entry(key("d")) != nil)
        #expect(cache.statistics.bytes == 90)
        cache.keep(entry(500), for: key("e"))
        #expect(cache.statistics.entries == 1 && cache.entry(key("e")) != nil, "a page over the whole budget is kept alone")
        #expect(cache.statistics.bytes == 500)
    }

    @Test func eachVisitorSeesOwnMarkOnTheSameBookPage() async throws {
        let server = try await TestApp.build()
        let book = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")).1[0].book
        try await TestApp.run(server) { ann in
            try await ann.signUp("anna")
            #expect(try await ann.post("/wishlist", [("book", book.id), ("return_to", "/wishlist")]).status == .seeOther)
            var bo = TestBrowser(client: ann.client)
            #expect(try await bo.signUp("boris").status == .seeOther)
            let boPage = try await bo.get("/books/\(book.id)").text
            let annPage = try await ann.get("/books/\(book.id)").text
            let annItem = try #require(try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item") })
            #expect(annPage.contains(#"<a class="on-wishlist" href="/wishlist/\#(annItem)">"#))
            #expect(!annPage.contains(#"<form class="add-to-wishlist""#))
            #expect(boPage.contains(#"<form class="add-to-wishlist" method="post" action="/wishlist">"#))
            #expect(boPage.contains(#"name="return_to" value="/books/\#(book.id)""#))
            #expect(!boPage.contains(#"class="on-wishlist""#), "Ann's mark is not Bo's")
            #expect(Self.tokens(in: boPage) == [bo.csrfToken])
            #expect(annPage.contains(">anna</span>") && !annPage.contains(">boris</span>"))
            #expect(boPage.contains(">boris</span>") && !boPage.contains(">anna</span>"))
            #expect(annPage.contains(#"id="wishlist-count">1<span class="visually-hidden"> book</span>"#))
            #expect(server.pageCaches.books.statistics.hits >= 1, "the second visitor's page came from the cache")
        }
    }

    @Test func aBookPageShowsAChangeToTheCatalogByAnyWriter() async throws {
        let server = try await TestApp.build()
        let book = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")).1[0].book
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let first = try await browser.get("/books/\(book.id)").text
            #expect(try await browser.get("/books/\(book.id)").text == first)
            try await server.database.pool.write { db in
                try db.execute(sql: "UPDATE book SET description = 'Told again, elsewhere.' WHERE id = ?", arguments: [book.id])
            }
            #expect(try await browser.get("/books/\(book.id)").shows("Told again, elsewhere."))
        }
    }

    /// Issue 34: list and book pages were kept under the wishlists' generation because they show
    /// what the household thinks of each book, so in a busy household every wish or rating
    /// anywhere threw them all away and nearly every view rendered its page again. What the
    /// household thinks is now filled per request; only the household's own orders follow it.
    @Test func aWishOrARatingLeavesListAndBookPagesCachedAndTheirHouseholdLinesCurrent() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        let (lists, books) = (home.server.pageCaches.lists, home.server.pageCaches.books)
        try await home.run(sharing: [.maya, .ana]) { maya, ana, _ in
            let (listPath, bookPath, byWanted) = ("/lists/hardcover-fiction", "/books/\(book)", "/lists/hardcover-fiction?sort=wanted")
            for path in [listPath, bookPath, byWanted] { try await maya.get(path) }
            // A row's count leaves its reader out (issue 57): Maya's own wish is counted on Ana's row.
            #expect(try await ana.get(listPath).shows("1 here wants it"), "Maya's wish, on Ana's row")
            let (listHits, bookHits, listMisses) = (lists.statistics.hits, books.statistics.hits, lists.statistics.misses)

            _ = try await ana.post("/wishlist", [("book", book), ("return_to", "/lists")])
            _ = try await ana.markRead(book, rating: "4")
            let list = try await maya.get(listPath)
            #expect(list.shows("1 here wants it"), "Ana's wish is on Maya's row at once")
            #expect(list.text.contains(#"</svg> 4.0 (1)</span>"#), "and the rating")
            let page = try await maya.get(bookPath)
            #expect(page.shows("2 members want it") && page.shows("4.0 average from 1 rating"))
            #expect(lists.statistics.hits == listHits + 1, "the list page came from the cache")
            #expect(books.statistics.hits == bookHits + 1, "so did the book page")
            #expect(lists.statistics.misses == listMisses, "neither was rendered again")
            let byHousehold = home.server.pageCaches.householdOrderedLists
            let orderedMisses = byHousehold.statistics.misses
            #expect(try await maya.get(byWanted).shows("1 here wants it"))
            #expect(byHousehold.statistics.misses == orderedMisses + 1, "the most-wanted order follows the wishes: rendered again")
            try await maya.get(listPath + "?sort=rank")
            #expect(lists.statistics.hits == listHits + 2, "which leaves the NYT's orders cached")
        }
    }

    @Test func wishlistPagesAreEachViewersAndSeeAnyWriteToItemsReservationsOrUsers() async throws {
        let home = try await Household.make()
        let database = home.server.database
        @Sendable func generation() async throws -> Int64 { try await database.pageRead { try $0.wishlist.wishesGeneration(ownerID: UserID(1)) } }
        try await home.run { maya, ana, ben in
            var ana2 = try await TestBrowser.signedIn("ana", like: maya)
            let first = try await ana.get("/people/maya").text
            let second = try await ana2.get("/people/maya").text
            #expect(Self.tokens(in: first) == [ana.csrfToken] && Self.tokens(in: second) == [ana2.csrfToken], "each session its own token")
            #expect(home.server.pageCaches.memberWishlists.statistics.hits >= 1)

            let before = try await generation()
            try await home.server.database.pool.write { db in
                try db.execute(sql: "UPDATE wishlist_item SET title = 'Retitled Elsewhere' WHERE id = ?", arguments: [home.itemIDs[0]])
            }
            #expect(try await generation() > before, "a write by any process grows the generation")
            #expect(try await ana.get("/people/maya").shows("Retitled Elsewhere"))
            #expect(try await maya.get("/wishlist").shows("Retitled Elsewhere"))

            #expect(try await ben.get("/people/maya").text.components(separatedBy: "Reserve as a gift").count == 4)
            #expect(try await ana.reserve(home.itemIDs[2]).status == .seeOther)
            let seenByBen = try await ben.get("/people/maya")
            #expect(seenByBen.shows("Reserved by ana"))
            #expect(seenByBen.text.components(separatedBy: "Reserve as a gift").count == 3)
            #expect(!(try await maya.get("/wishlist")).text.contains("Reserved"), "the owner never sees a reservation")
            let cancelledGeneration = try await database.pageRead { try $0.household.memberWishlistGeneration(ownerID: UserID(1)) }
            #expect(try await ana.post("/reservations/\(home.itemIDs[2])/delete", []).status == .seeOther)
            #expect(try await database.pageRead { try $0.household.memberWishlistGeneration(ownerID: UserID(1)) } > cancelledGeneration)
            #expect(try await ben.get("/people/maya").text.components(separatedBy: "Reserve as a gift").count == 4, "a cancellation is seen too")

            try await maya.share("private")
            #expect(try await ben.get("/people/maya").status == .notFound, "access is checked before the cache")
        }
    }

    /// Issue 27: the owner's pages were kept under a generation every reservation grew, so her
    /// next page after a giver reserved or cancelled was rendered afresh (13 ms against 5 ms), and
    /// its timing told her. Whether her pages come from the cache must not depend on what givers do.
    @Test func theOwnersPagesStayCachedWhenGiversReserveBuyWriteCardsSuggestAndCancel() async throws {
        let home = try await Household.make()
        let cache = home.server.pageCaches.ownWishlists
        try await home.run { maya, ana, _ in
            // The reserved book is on two of her lists (issue 51).
            let birthday = try await WishListsHTTPTests.makeList(&maya, "Birthday", occasion: "birthday")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "1"), ("list", "\(birthday)")]).status == .seeOther)
            let pages = [
                "/wishlist", "/wishlist?sort=priority", "/wishlist?sort=title", "/wishlist?sort=author", "/wishlist?list=1", "/wishlist?list=\(birthday)",
            ]
            for path in pages { try await maya.get(path) }

            /// Each page once more: how many of them came from the cache.
            func hitsOnAnotherVisit(_ maya: inout TestBrowser) async throws -> Int {
                let before = cache.statistics.hits
                for path in pages { try await maya.get(path) }
                return cache.statistics.hits - before
            }
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "nothing changed: every page from the cache")
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "a reservation leaves the owner's pages cached")
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/bought", []).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "marking it bought leaves them cached")
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/card", [("message", "Happy birthday!")]).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "so does writing a card")
            let idea = try await GiftIdeasHTTPTests.unwishedBook(home)
            #expect(try await ana.post("/people/maya/ideas", [("book", idea.id), ("note", "")]).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "and suggesting a gift idea for her")
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/delete", []).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == pages.count, "so does a cancellation")
            // The cache is not simply stuck: her own change renders afresh.
            #expect(try await maya.post("/wishlist/\(home.itemIDs[1])", [("note", "Signed copy"), ("priority", "high")]).status == .seeOther)
            #expect(try await hitsOnAnotherVisit(&maya) == 0, "her own edit is seen on every page")
        }
    }

    /// Issue 34: every wish, reading or reservation by anyone grew the generation every wishlist
    /// page was kept under, so in a busy household they were rendered again on almost every view.
    /// A member's pages now follow her own changes, and a giver's shown name, and nobody else's;
    /// and her page's wishlist and her profile and reading each follow only their own.
    @Test func aMembersPagesStayCachedWhileOthersWriteAndFollowHerChangesAndGiversNames() async throws {
        let home = try await Household.make()
        let caches = home.server.pageCaches
        let books = try #require(try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")).1.map(\.book)
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            /// Maya's wishlist as she sees it, and her page as Ben sees it, its wishlist and its
            /// profile and reading: each from the cache or not.
            func cached(_ maya: inout TestBrowser, _ ben: inout TestBrowser) async throws -> (own: Bool, member: Bool, about: Bool) {
                let hits = (caches.ownWishlists.statistics.hits, caches.memberWishlists.statistics.hits, caches.memberAbouts.statistics.hits)
                #expect(try await maya.get("/wishlist").status == .ok)
                #expect(try await ben.get("/people/maya").status == .ok)
                return (caches.ownWishlists.statistics.hits > hits.0, caches.memberWishlists.statistics.hits > hits.1,
                        caches.memberAbouts.statistics.hits > hits.2)
            }
            _ = try await cached(&maya, &ben)
            #expect(try await cached(&maya, &ben) == (true, true, true))

            #expect(try await ana.post("/wishlist", [("book", books[7].id), ("return_to", "/wishlist")]).status == .seeOther)
            try await ana.markRead(books[8].id, rating: "4")
            #expect(try await ana.get("/wishlist").status == .ok)
            #expect(try await cached(&maya, &ben) == (true, true, true), "another member's wish and rating leave Maya's pages cached")

            try await maya.markRead(books[9].id, rating: "5")
            #expect(try await cached(&maya, &ben) == (true, true, false), "her reading is on her page's profile, not on a wishlist")
            let afterReading = try await ben.get("/people/maya")
            #expect(afterReading.shows(books[9].title) && afterReading.text.contains(#"has read <span class="heading-count">1</span>"#))
            #expect(afterReading.shows("3 wishes"), "the count from the wishlist's page")

            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await cached(&maya, &ben) == (true, false, true), "a reservation for her: her wishlist as the others see it")
            #expect(try await ben.get("/people/maya").shows("Reserved by ana"))

            #expect(try await ana.setDisplayName("Auntie Ana").status == .seeOther)
            #expect(try await cached(&maya, &ben) == (true, false, false), "a giver's new name, which may change how hers is shown")
            #expect(try await ben.get("/people/maya").shows("Reserved by Auntie Ana"))

            #expect(try await maya.post("/wishlist", [("book", books[10].id), ("return_to", "/wishlist")]).status == .seeOther)
            #expect(try await cached(&maya, &ben) == (false, false, true), "her own wish: both wishlists, and the count her profile shows")
            #expect(try await maya.get("/wishlist").shows(books[10].title))
            let afterWish = try await ben.get("/people/maya")
            #expect(afterWish.shows(books[10].title) && afterWish.shows("4 wishes") && !afterWish.shows("3 wishes"))
        }
    }

    /// A member's page is rendered once for all the others: each book's reservation controls are
    /// filled per request, the holder's own (bought, her card, cancel) for her alone.
    @Test func aMembersPageIsOneForAllTheOthersAndEachSeesOnlyTheirOwnReservation() async throws {
        let home = try await Household.make()
        let cache = home.server.pageCaches.memberWishlists
        try await home.run { maya, ana, ben in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/card", [("message", "Love from Ana")]).status == .seeOther)

            let misses = cache.statistics.misses
            let seenByAna = try await ana.get("/people/maya")
            let seenByBen = try await ben.get("/people/maya")
            #expect(cache.statistics.misses == misses + 1, "one rendering for both givers")
            #expect(seenByAna.shows("Reserved by you") && seenByAna.text.contains("Love from Ana"))
            #expect(seenByAna.text.components(separatedBy: "Reserve as a gift").count == 3)
            #expect(seenByBen.shows("Reserved by ana") && !seenByBen.text.contains("Love from Ana"), "her card is hers")
            #expect(!seenByBen.shows("Reserved by you") && !seenByBen.text.contains(#"class="cancel-reservation-form""#))
            #expect(seenByBen.text.components(separatedBy: "Reserve as a gift").count == 3)
            #expect(Self.tokens(in: seenByAna.text) == [ana.csrfToken] && Self.tokens(in: seenByBen.text) == [ben.csrfToken])
        }
    }

    /// An open book's "Reserve" form is the same for every giver: it is rendered with its row, and
    /// only a reserved book's controls are kept apart, one rendering for its holder and one for
    /// the others (issue 58: rendering a separate fragment for each of up to 100 books was most
    /// of a member's page's own work).
    @Test func aMembersPageKeepsControlsApartOnlyForAReservedBook() async throws {
        let home = try await Household.make()
        try await home.run { _, ana, ben in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ben.get("/people/maya").text.components(separatedBy: "Reserve as a gift").count == 3)
            let generation = try await home.server.database.pageRead { try $0.catalog.generation() + $0.household.memberWishlistGeneration(ownerID: UserID(1)) }
            let key = WishlistPageKey(
                page: .member, ownerID: UserID(1), sort: .priority, pageNumber: 1, isAdmin: false,
                statusLine: home.server.catalogSync.currentStatusLine, language: "en", generation: generation
            )
            let page = try #require(home.server.pageCaches.memberWishlists.entry(key))
            #expect(page.reservations.count == 3)
            #expect(page.reservations.compactMap { $0 }.map(\.holderID) == [UserID(2)], "Ana's book alone, for her and for the others")
        }
    }

    /// A list page's "2 here want it" lines are rendered once per figure and language (issue 58):
    /// another count, rating or language is another line.
    @Test func aStandingLineIsRenderedOncePerFigureAndLanguage() throws {
        let cache = StandingLineCache(capacity: 3)
        let renders = Mutex(0)
        let render = { () -> TrustedHTML in renders.withLock { $0 += 1 }; return TrustedHTML(trusted: "<p class=\"book-standing\"></p>") }
        let two = BookStanding(wantCount: 2, averageRating: nil, ratingCount: 0)
        for _ in 1...3 { _ = cache.html(for: two, language: "en", render) }
        #expect(renders.withLock { $0 } == 1)
        _ = cache.html(for: two, language: "de", render)
        _ = cache.html(for: BookStanding(wantCount: 2, averageRating: 4.5, ratingCount: 2), language: "en", render)
        #expect(renders.withLock { $0 } == 3, "another language and another rating are other lines")
        _ = cache.html(for: BookStanding(wantCount: 3, averageRating: nil, ratingCount: 0), language: "en", render)
        #expect(cache.count == 1, "full: started again")
    }

    /// Search rows' bylines are read once per byline (issue 58): another author, contributor line
    /// or linking is another value, and what is kept is what reading the byline gives.
    @Test func aBylineIsReadOncePerItsFields() throws {
        let cache = BylineCache(capacity: 3)
        let reads = Mutex(0)
        let read = { (author: String, contributor: String, linked: Bool) in
            cache.value(author: author, contributor: contributor, linked: linked) {
                reads.withLock { $0 += 1 }
                return BookPresenter.readBylineValue(author: author, contributor: contributor, linked: linked)
            }
        }
        let rubin = "by Adam Rubin. Illustrated by Daniel Salmieri"
        for _ in 1...3 {
            #expect(read("Adam Rubin", rubin, true) == BookPresenter.readBylineValue(author: "Adam Rubin", contributor: rubin, linked: true))
        }
        #expect(reads.withLock { $0 } == 1)
        #expect(read("Adam Rubin", rubin, false) != read("Adam Rubin", rubin, true), "an unlinked byline is another value")
        _ = read("Colleen Hoover", "", true)
        #expect(reads.withLock { $0 } == 3)
        _ = read("Tarryn Fisher", "", true)
        #expect(cache.count == 1, "full: started again")
    }
}
