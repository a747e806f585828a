import CivilTime
import Foundation
import Hummingbird
import WishlistCore
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

    func addRoutes(to group: RouterGroup<AppRequestContext>, loaders: PageLoaders) {
        group.get("people", use: people)
        group.page("people/:username", loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadMemberPage(request, context, user, read)
        }, respond: member)
        group.page("people/:username/lists/:list", loaders: loaders, database: database, read: { request, context, user, read in
            try self.loadMemberPage(request, context, user, read)
        }, respond: member)
        group.get("people/:username/reading", use: memberReading)
        group.get("reservations", use: gifts)
        group.post("reservations", use: reserve)
        group.post("reservations/:item/delete", use: cancel)
        group.post("reservations/:item/bought", use: markBought)
        group.post("reservations/:item/bought/delete", use: unmarkBought)
        group.post("reservations/:item/card", use: writeCard)
        group.post("reservations/notices/:reservation/dismiss", use: dismiss)
    }

    static let memberNotFound = PageError(
        .notFound, title: "No shared wishlist here",
        message: "Nobody by that name shares a wishlist on this server. People lists everyone who does."
    )
    static let nothingToReserve = PageError(
        .notFound, title: "Nothing to reserve",
        message: "That book isn't on a wishlist shared with you, so nothing was reserved. It may have been removed, or its owner may have stopped sharing."
    )
    static let reservationNotFound = PageError(
        .notFound, title: "No such reservation",
        message: "You haven't reserved that book, so there was nothing to cancel. Gifts I'm giving lists every book you have reserved."
    )
    static let noticeNotFound = PageError(
        .notFound, title: "Nothing to dismiss",
        message: "That notice is gone already. Gifts I'm giving shows the ones that are left."
    )

    // MARK: Handlers

    @Sendable func people(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let listing = try NameListing(filter: request.queryText("q"), page: request.queryText("page"))
        var members = try await household.members(excluding: user.userID, containing: listing.filter, page: listing.page)
        if members.items.isEmpty, members.number > members.pageCount {
            // Past the end (an old link, or people stopped sharing): the last page.
            members = try await household.members(excluding: user.userID, containing: listing.filter, page: members.pageCount)
        }
        let today = timeZone.localDay(at: clock.now())
        let occasions = Dictionary(
            try await database.pageRead { try $0.lists.sharedOccasions(excluding: user.userID) }.map { ($0.ownerID, $0) }, uniquingKeysWith: { first, _ in first }
        )
        return try pages.render(
            "people/index.html", title: "People", nav: "people", for: context.visitor,
            values: [
                "members": .array(members.items.map { member in
                    [
                        "name": .string(member.name), "path": .string(SitePath.person(member.username)), "count": .int(member.itemCount),
                        "lists": .array(Self.occasionLists(occasions[member.id], username: member.username, today: today)),
                    ]
                }),
                "listing": listing.templateValue(members, path: SitePath.people),
                "sharing": .string(try await household.sharing(userID: user.userID).rawValue),
                "birthdays": .array(try await upcomingBirthdays(viewerID: user.userID)),
            ]
        )
    }

    /// A member's shared lists with an occasion still to come, soonest first, as People shows them:
    /// "Birthday: in 12 days".
    static func occasionLists(_ occasions: SharedOccasions?, username: String, today: (year: Int, month: Int, day: Int)) -> [TemplateValue] {
        guard let occasions else { return [] }
        return occasions.lists.compactMap { list in list.daysUntilOccasion(birthday: occasions.birthday, from: today).map { (list, $0) } }
            .sorted { ($0.1, $0.0.id.rawValue) < ($1.1, $1.0.id.rawValue) }
            .map { list, days in
                ["name": .string(list.name), "path": .string(SitePath.personList(username, list.id.rawValue)), "when": .string(WishListsController.whenText(days))]
            }
    }

    /// Birthdays of the members who share, in the next 30 days by the server's time zone, soonest first.
    private func upcomingBirthdays(viewerID: Int64) async throws -> [TemplateValue] {
        let today = timeZone.localDay(at: clock.now())
        let birthdays = try await database.pageRead { try $0.profiles.birthdays(excluding: viewerID) }
        return birthdays.map { ($0.username, $0.name, $0.birthday, $0.birthday.daysUntil(from: today)) }
            .filter { $0.3 <= 30 }
            .sorted { ($0.3, $0.1.lowercased()) < ($1.3, $1.1.lowercased()) }
            .map { username, name, birthday, days in
                [
                    "name": .string(name), "path": .string(SitePath.person(username)), "date": .string(birthday.text),
                    "when": .string(days == 0 ? "Birthday today" : days == 1 ? "Birthday tomorrow" : "Birthday in \(days) days"),
                ]
            }
    }

    /// A member's shared list, highest priority first unless another order is asked for.
    @Sendable func member(_ request: Request, context: AppRequestContext, loaded: LoadedMemberPage) async throws -> Response {
        let user = try context.signedInUser()
        switch loaded {
        case .viewer: return redirect(to: SitePath.wishlist)
        case .notFound: throw Self.memberNotFound
        case .found(let member, let sort, let read, let about, let lists):
            let entry = try sharedMemberPage(member, sort: sort, read: read, lists: lists, isAdmin: user.isAdmin)
            return try respond(entry, about: try memberAbout(member, about), for: context.visitor)
        }
    }

    /// Whose page this is and in what order, checked, and its cached page or what to render it from.
    private func loadMemberPage(_ request: Request, _ context: AppRequestContext, _ viewer: Visitor.SignedIn, _ read: PageRead) throws -> LoadedMemberPage {
        var list: ListID?
        if let text = context.parameters.get("list") {
            // An unreadable id is a list that does not exist: the same page as another's or a private one.
            guard let id = ListID(text) else { return .notFound }
            list = id
        }
        return try loadMemberPage(
            username: context.parameters.get("username") ?? "", list: list, sort: try request.queryText("sort"),
            page: try PageNumber.parse(request.queryText("page")), viewer, read
        )
    }

    private func loadMemberPage(
        username: String, list: ListID? = nil, sort requested: String, page number: Int, _ viewer: Visitor.SignedIn, _ read: PageRead
    ) throws -> LoadedMemberPage {
        let member: Member
        switch try read.household.member(named: String(username.prefix(AccountRules.usernameLengths.upperBound + 1)), viewerID: viewer.userID) {
        case .viewer: return .viewer
        case .notFound: return .notFound
        case .member(let found): member = found
        }
        guard let sort = requested.isEmpty ? .priority : WishlistSort(rawValue: requested) else {
            throw PageError.badRequest("A wishlist can be sorted by priority, date added, title or author; “\(requested.prefix(40))” is none of them.")
        }
        // Her shared lists, read before the cache: a private list's page is the same 404 as an unknown member's.
        let sharedLists = try read.lists.sharedLists(ownerID: member.id)
        let chosen = try list.map { id in
            guard let found = sharedLists.first(where: { $0.id == id }) else { throw Self.memberListNotFound }
            return found
        }
        let catalogGeneration = try read.catalog.generation()
        var key = WishlistPageKey(
            page: .member, ownerID: member.id, sort: sort, pageNumber: number, isAdmin: viewer.isAdmin, statusLine: pages.notices.statusLine(),
            generation: try catalogGeneration + read.household.memberWishlistGeneration(ownerID: member.id)
        )
        key.list = list
        // Her lists say how soon their occasions are, so the page is kept a day at a time.
        let today = timeZone.localDay(at: clock.now())
        key.day = sharedLists.contains { $0.occasion != .none } ? CivilDateTime.daysSinceEpoch(year: today.year, month: today.month, day: today.day) : nil
        let wishlist: WishlistPageRead<HeldItem>
        if let cached = pageCaches.memberWishlists.entry(key) {
            wishlist = .cached(cached)
        } else {
            let items = if let list {
                try read.household.items(ownerID: member.id, onList: list, sort: sort, page: number)
            } else {
                try read.household.items(ownerID: member.id, sort: sort, page: number)
            }
            wishlist = .fresh(key, items, try read.catalog.placements(of: items.items.compactMap(\.item.bookID)))
        }
        return .found(
            member, sort, wishlist, try loadMemberAbout(member, catalogGeneration: catalogGeneration, read),
            MemberLists(
                all: sharedLists, chosen: chosen, today: today,
                // Read only to render, and only for a birthday list.
                birthday: !wishlist.isCached && sharedLists.contains { $0.occasion == .birthday } ? try read.profiles.profile(userID: member.id).birthday : nil
            )
        )
    }

    /// The member's profile and reading as her page shows them, kept or read to render.
    private func loadMemberAbout(_ member: Member, catalogGeneration: Int64, _ read: PageRead) throws -> MemberAboutRead {
        let year = FinishedDate(clock.now()).year
        let key = MemberAboutKey(
            ownerID: member.id, readingYear: year, generation: try catalogGeneration + read.household.memberAboutGeneration(ownerID: member.id)
        )
        if let cached = pageCaches.memberAbouts.entry(key) { return .cached(cached) }
        return .fresh(key, MemberAbout(
            profile: try read.profiles.profile(userID: member.id),
            readThisYear: try read.reading.finishedCount(userID: member.id, year: year),
            readings: try read.reading.readings(userID: member.id, sort: .finished, page: 1)
        ))
    }

    enum LoadedMemberPage: KeepablePageRead, Sendable {
        /// The viewer's own name: their own wishlist is elsewhere.
        case viewer
        case notFound
        /// The member, the order, her page's wishlist and profile, each kept or read to render, and her shared lists.
        case found(Member, WishlistSort, WishlistPageRead<HeldItem>, MemberAboutRead, MemberLists)

        var isWorthKeeping: Bool {
            if case .found(_, _, let wishlist, let about, _) = self { wishlist.isCached && about.isCached } else { true }
        }
    }

    /// A member's lists the household sees, and the one her page shows (`/people/{username}/lists/{id}`), if any.
    struct MemberLists: Sendable {
        let all: [WishList]
        let chosen: WishList?
        /// The day their occasions are reckoned from, and her birthday, for her birthday lists.
        let today: (year: Int, month: Int, day: Int)
        let birthday: Birthday?
    }

    static let memberListNotFound = PageError(
        .notFound, title: "No shared list here",
        message: "That list isn't one shared with you. Its owner may have deleted it or kept it to herself; her page shows the lists she shares."
    )

    /// The books a member has read, a page at a time: the rest of what her page's foot begins.
    /// Opened far less often than her page, so read on its own rather than with the session
    /// (``PageLoaders`` hold the most visited pages).
    @Sendable func memberReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.signedInUser()
        switch try await database.pageRead({ try self.loadMemberReading(request, context, viewer, $0) }) {
        case .viewer: return redirect(to: SitePath.reading)
        case .notFound: throw Self.memberNotFound
        case .found(let member, let readings):
            return try pages.render(
                "people/reading.html", title: "Books \(member.name) has read", nav: "people", for: context.visitor,
                values: [
                    "member": ["name": .string(member.name), "path": .string(SitePath.person(member.username))],
                    "readings": .array(readings.items.map(ReadingPresenter.readingValue)), "count": .int(readings.total),
                    "pager": .dictionary(readings.pagerFields(link: Self.memberReadingLink(member))),
                ]
            )
        }
    }

    /// Page `number` of the member's reading: the first is on her page too.
    private static func memberReadingLink(_ member: Member) -> (Int) -> String {
        { number in PageNumber.link(SitePath.personReading(member.username), number == 1 ? nil : "page=\(number)") }
    }

    /// Whose reading this is, checked as her page is, and the page of it asked for.
    private func loadMemberReading(_ request: Request, _ context: AppRequestContext, _ viewer: Visitor.SignedIn, _ read: PageRead) throws -> LoadedMemberReading {
        let username = context.parameters.get("username") ?? ""
        let number = try PageNumber.parse(request.queryText("page"))
        switch try read.household.member(named: String(username.prefix(AccountRules.usernameLengths.upperBound + 1)), viewerID: viewer.userID) {
        case .viewer: return .viewer
        case .notFound: return .notFound
        case .member(let member): return .found(member, try read.reading.readings(userID: member.id, sort: .finished, page: number))
        }
    }

    enum LoadedMemberReading: Sendable {
        /// The viewer's own name: "Books I've read" is hers.
        case viewer
        case notFound
        case found(Member, PagedList<Reading>)
    }

    /// A member's page for `visitor`, a confirmation that belongs to one of its cards shown there.
    /// Each book's reservation controls are the visitor's own when they hold it, everyone else's otherwise.
    private func respond(_ entry: WishlistPage, about: MemberAboutPage, for visitor: Visitor) throws -> Response {
        let cardFlash = try pages.cardFlash(visitor, cards: entry.cards)
        let viewerID = visitor.signedIn?.userID
        let wishCount = ProfilePresenter.wishCountText(entry.wishCount)
        return try pages.respond(entry.page, for: cardFlash?.visitor ?? visitor) { slot in
            switch slot {
            case .flash(let card): .value(card == cardFlash?.index ? cardFlash!.html : .null)
            case .reservation(let card): .fragment(entry.reservations[card].seen(by: viewerID))
            case .profile: .fragment(about.profile)
            case .reading: .fragment(about.reading)
            case .wishCount: .value(wishCount)
            }
        }
    }

    /// A member's profile and reading, from the cache, or rendered from the page's read and kept
    /// (``MemberAboutCache``).
    private func memberAbout(_ member: Member, _ read: MemberAboutRead) throws -> MemberAboutPage {
        switch read {
        case .cached(let page):
            return page
        case .fresh(let key, let about):
            let slot = { (name: String) in WishlistPage.Slot(name, cards: []) }
            let memberValue: TemplateValue = [
                "name": .string(member.name),
                // A display name always has the username under it on the member's own page.
                "username": member.name == member.username ? .null : .string(member.username),
            ]
            let page = MemberAboutPage(
                profile: try pages.renderSharedFragment(
                    "partials/member-profile.html",
                    ["profile": ProfilePresenter.profileValue(
                        about.profile, username: member.username, wishCount: .slot("wish_count"), readThisYear: about.readThisYear
                    ), "member": memberValue],
                    own: slot
                ),
                reading: try pages.renderSharedFragment(
                    "partials/member-reading.html",
                    ["readings": .array(about.readings.items.map(ReadingPresenter.readingValue)), "count": .int(about.readings.total),
                     "pager": .dictionary(about.readings.pagerFields(link: Self.memberReadingLink(member))), "member": memberValue],
                    own: slot
                )
            )
            pageCaches.memberAbouts.keep(page, for: key)
            return page
        }
    }

    /// A member's page as the others see it: from the cache, or rendered from the page's read
    /// and kept (``WishlistPageCache``); `respond` fills in each visitor's own part.
    private func sharedMemberPage(
        _ member: Member, sort: WishlistSort, read: WishlistPageRead<HeldItem>, lists: MemberLists, isAdmin: Bool
    ) throws -> WishlistPage {
        switch read {
        case .cached(let page):
            return page
        case .fresh(let key, let items, let placements):
            let memberPath = SitePath.person(member.username)
            let path = lists.chosen.map { SitePath.personList(member.username, $0.id.rawValue) } ?? memberPath
            let cards = items.items.map { Card.item($0.item.id) }
            let slot = { (name: String) in WishlistPage.Slot(name, cards: cards) }
            let sortField = sort == .priority ? nil : "sort=" + sort.rawValue
            let link = { (page: Int) in PageNumber.link(path, sortField, page == 1 ? nil : "page=\(page)") }
            let returnTo = TemplateValue.string(link(items.number))
            let reservations = try items.items.map { try reservationActions($0, placements: placements[$0.item.bookID ?? ""] ?? [], returnTo: returnTo, slot: slot) }
            let page = WishlistPage(page: try pages.renderShared(
                "people/show.html", title: member.name, nav: "people", isAdmin: isAdmin, statusLine: key.statusLine,
                values: [
                    "profile_html": .slot("profile"),
                    "reading_html": .slot("reading"),
                    "member": ["name": .string(member.name), "path": .string(memberPath), "count": .int(items.total)],
                    "page_path": .string(path),
                    "lists": .array(lists.all.map { list in
                        [
                            "name": .string(list.name), "path": .string(SitePath.personList(member.username, list.id.rawValue)),
                            "occasion": .string(WishListsController.occasionLabel(list)), "count": .int(list.itemCount),
                            "when": .string(WishListsController.whenText(list.daysUntilOccasion(birthday: lists.birthday, from: lists.today))),
                            "current": .bool(list.id == lists.chosen?.id),
                        ]
                    }),
                    "list": lists.chosen.map { ["name": .string($0.name)] } ?? .null,
                    "sort": .string(sort.rawValue),
                    "items": .array(items.items.map { held in
                        var value = ItemPresenter.othersValue(held.item, placements: placements[held.item.bookID ?? ""] ?? [])
                        value["get_links"] = getLinks(held.item)
                        value["reservation_html"] = .slot("reservation:" + Card.item(held.item.id))
                        value["flash_html"] = .slot("flash:" + Card.item(held.item.id))
                        return .dictionary(value)
                    }),
                    "return_to": returnTo,
                    "pager": .dictionary(items.pagerFields(link: link)),
                ],
                own: slot
            ), cards: cards, reservations: reservations, wishCount: member.itemCount)
            pageCaches.memberWishlists.keep(page, for: key)
            return page
        }
    }

    /// Where to borrow or buy a wished-for book, for `partials/get-links.html`: the item's own copy
    /// of its ISBN, title, author and the NYT's buy links, through the configured templates.
    private func getLinks(_ item: WishlistItem) -> TemplateValue {
        let facts = BookPresenter.linkFacts(isbn13: item.isbn13, title: item.title, author: item.author)
        let (borrow, buy) = BookPresenter.getLinks(facts, templates: links, nytBuyLinks: item.buyLinks)
        return ["borrow": borrow, "buy": buy, "any": .bool(borrow != .array([]) || buy != .array([]))]
    }

    /// A book's reservation controls as its holder sees them and as everyone else does, each with
    /// a slot for the visitor's token.
    private func reservationActions(
        _ held: HeldItem, placements: [Placement], returnTo: TemplateValue, slot: @escaping (String) -> WishlistPage.Slot?
    ) throws -> WishlistPage.ReservationActions {
        let actions = { (shared: SharedItem) in
            try pages.renderSharedFragment(
                "partials/reservation-actions.html",
                ["item": .dictionary(Self.sharedItemValue(shared, placements: placements)),
                 "return_to": returnTo, "csrf_token": .slot(PageRenderer.Slot.csrfToken)],
                own: slot
            )
        }
        return WishlistPage.ReservationActions(
            holderID: held.holder?.id, forOthers: try actions(held.seenByOthers), forHolder: try held.seenByHolder.map(actions)
        )
    }

    @Sendable func gifts(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let gifts = try await household.gifts(giverID: user.userID)
        var notices: [TemplateValue] = []
        var given: [TemplateValue] = []
        var groups: [(owner: String, name: String, gifts: [TemplateValue], shared: Bool)] = []
        // The cards a form here returns to: the books on lists still shared.
        let cards = gifts.map { gift in if case .reserved(let item) = gift.state { Card.item(item.id) } else { "" } }
        let cardFlash = try pages.cardFlash(context.visitor, cards: cards)
        for (index, gift) in gifts.enumerated() {
            let value: TemplateValue
            let shared: Bool
            switch gift.state {
            case .reserved(let item):
                value = .dictionary(ItemPresenter.othersValue(item, placements: []).merging([
                    "reservation": "you", "bought": .bool(gift.boughtAt != nil), "card": .string(gift.card),
                    "flash_html": index == cardFlash?.index ? cardFlash!.html : .null,
                ]) { $1 })
                shared = true
            case .idea(let id, let note):
                value = [
                    "idea": true, "id": .int(Int(id)), "title": .string(gift.title), "author": .string(gift.author), "note": .string(note),
                    "cancel_path": .string(SitePath.ideas(gift.ownerName) + "/\(id)/reservation/delete"),
                ]
                shared = true
            case .given(let receivedAt, let wishedAgainAt):
                given.append([
                    "owner": .string(gift.ownerShownName), "title": .string(gift.title), "author": .string(gift.author),
                    "received_at": .date(receivedAt), "card": .string(gift.card),
                    "wished_again_at": wishedAgainAt.map(TemplateValue.date) ?? .null,
                ])
                continue
            case .listHidden(let itemID):
                // Only what was stored when reserving: the list is no longer the giver's to read.
                value = ["id": .int(Int(itemID.rawValue)), "title": .string(gift.title), "author": .string(gift.author)]
                shared = false
            case .removed, .listGone:
                notices.append([
                    "id": .int(Int(gift.id)), "owner": .string(gift.ownerShownName), "title": .string(gift.title),
                    "list_gone": .bool(gift.state == .listGone),
                ])
                continue
            }
            if groups.last?.owner == gift.ownerName {
                groups[groups.count - 1].gifts.append(value)
            } else {
                groups.append((gift.ownerName, gift.ownerShownName, [value], shared))
            }
        }
        return try pages.render(
            "reservations/index.html", title: "Gifts I’m giving", nav: "reservations", for: cardFlash?.visitor ?? context.visitor,
            values: [
                "notices": .array(notices),
                "given": .array(given),
                "groups": .array(groups.map { group in
                    [
                        "owner": .string(group.name), "path": .string(SitePath.person(group.owner)), "shared": .bool(group.shared),
                        "gifts": .array(group.gifts),
                    ]
                }),
                "count": .int(groups.reduce(0) { $0 + $1.gifts.count }),
                "return_to": .string(SitePath.reservations),
            ]
        )
    }

    @Sendable func reserve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = ItemID(try context.form.text("item", maxLength: 40)) else { throw Self.nothingToReserve }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        switch try await household.reserve(itemID: itemID, giverID: user.userID, at: clock.now()) {
        case .reserved:
            return redirectWithFlash(to: returnTo, "reserved-\(itemID)", item: itemID)
        case .alreadyYours:
            throw PageError(
                .conflict, title: "Already reserved by you",
                message: "You have already reserved this book as a gift, so nothing changed. Gifts I'm giving lists it."
            )
        case .takenBy(let name):
            if let page = try await lostRace(itemID, to: name, returnTo: returnTo, context) { return page }
            throw PageError(
                .conflict, title: "Already reserved",
                message: "\(name) has already reserved this book as a gift, so it can't be reserved twice. Choose another book from the list."
            )
        case .notFound:
            throw Self.nothingToReserve
        }
    }

    /// A reservation someone else made first: the member's page the giver came from, again,
    /// with who was quicker on the book's card, as a 409. Only a giver gets here (`reserve` finds
    /// no item of one's own list), so an owner never reads who reserved her book. Nil when
    /// `returnTo` is not a member's page, which the plain error page answers.
    private func lostRace(_ itemID: ItemID, to name: String, returnTo: String, _ context: AppRequestContext) async throws -> Response? {
        guard let (username, sort, page) = Self.memberPage(returnTo) else { return nil }
        let viewer = try context.signedInUser()
        let loaded = try await database.pageRead { try self.loadMemberPage(username: username, sort: sort, page: page, viewer, $0) }
        guard case .found(let member, let sort, let read, let about, let lists) = loaded else { return nil }
        var visitor = context.visitor
        visitor.flash = PageFlash(kind: "error", message: "Already reserved by \(name) — pick another.", card: Card.item(itemID))
        let entry = try sharedMemberPage(member, sort: sort, read: read, lists: lists, isAdmin: viewer.isAdmin)
        var response = try respond(entry, about: try memberAbout(member, about), for: visitor)
        response.status = .conflict
        return response
    }

    /// The member, the order and the page number of a member's page at `path`
    /// (`/people/{username}?sort=…&page=…`); an order or a number the page does not know is left
    /// out rather than refused.
    static func memberPage(_ path: String) -> (username: String, sort: String, page: Int)? {
        guard let parts = URLComponents(string: path), parts.path.hasPrefix(SitePath.people + "/") else { return nil }
        let username = String(parts.path.dropFirst(SitePath.people.count + 1))
        guard !username.isEmpty, !username.contains("/") else { return nil }
        let field = { (name: String) in parts.queryItems?.first { $0.name == name }?.value ?? "" }
        let sort = field("sort")
        return (username, WishlistSort(rawValue: sort) == nil ? "" : sort, (try? PageNumber.parse(field("page"))) ?? 1)
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        guard try await household.cancel(itemID: itemID, giverID: user.userID) else { throw Self.reservationNotFound }
        return redirectWithFlash(to: returnTo, "unreserved", item: itemID)
    }

    @Sendable func markBought(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changeBought(context, to: true)
    }

    @Sendable func unmarkBought(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changeBought(context, to: false)
    }

    private func changeBought(_ context: AppRequestContext, to bought: Bool) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        switch try await household.markBought(itemID: itemID, giverID: user.userID, bought, at: clock.now()) {
        case .changed:
            return redirectWithFlash(to: returnTo, bought ? "bought" : "unbought", item: itemID)
        case .unchanged:
            throw PageError(
                .conflict, title: bought ? "Already bought" : "Not marked bought",
                message: bought ? "You had already marked this gift bought, so nothing changed." : "This gift wasn't marked bought, so nothing changed."
            )
        case .notReserved:
            throw Self.reservationNotFound
        }
    }

    @Sendable func writeCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let itemID = context.parameters.get("item").flatMap(ItemID.init) else { throw Self.reservationNotFound }
        let returnTo = LocalPath.validated(try context.form.text("return_to", maxLength: 2000), fallback: SitePath.reservations)
        let message = try context.form.text("message", maxLength: 4 * HouseholdStore.cardMaximumLength).trimmingCharacters(in: .whitespacesAndNewlines)
        guard message.count <= HouseholdStore.cardMaximumLength else {
            throw PageError(
                .unprocessableContent, title: "That card is too long",
                message: "A card can be up to 500 characters; this one has \(message.count). Go back, shorten it and save it again."
            )
        }
        guard try await household.setCard(itemID: itemID, giverID: user.userID, message: message) != .notReserved else {
            throw Self.reservationNotFound
        }
        return redirectWithFlash(to: returnTo, message.isEmpty ? "cardremoved" : "card", item: itemID)
    }

    @Sendable func dismiss(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let reservationID = context.parameters.get("reservation").flatMap(ReservationID.init) else { throw Self.noticeNotFound }
        guard try await household.dismiss(reservationID: reservationID, giverID: user.userID) else { throw Self.noticeNotFound }
        return redirect(to: SitePath.reservations)
    }

    // MARK: Values

    static func sharedItemValue(_ shared: SharedItem, placements: [Placement]) -> [String: TemplateValue] {
        var value = ItemPresenter.othersValue(shared.item, placements: placements)
        switch shared.reservation {
        case .open: value["reservation"] = "open"
        case .byViewer(let bought, let card):
            value["reservation"] = "you"
            value["bought"] = .bool(bought)
            value["card"] = .string(card)
        case .byOther(let name, let bought):
            value["reservation"] = "other"
            value["reserved_by"] = .string(name)
            value["bought"] = .bool(bought)
        }
        return value
    }

    /// Back to `returnTo`, at the confirmation `code`, shown on the item's card.
    private func redirectWithFlash(to returnTo: String, _ code: String, item itemID: ItemID) -> Response {
        var response = redirect(to: LocalPath.atConfirmation(returnTo))
        response.setCookie(FlashMiddleware.cookie(code, card: Card.item(itemID), secure: secureCookies))
        return response
    }
}
