import CivilTime
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A member's page as the others see it: her shared wishlist with each book's reservation
/// controls, her profile and her reading, each kept rendered (the page caches) and filled per visitor.
extension HouseholdController {
    /// A member's shared list, highest priority first unless another order is asked for.
    @Sendable func member(_ request: Request, context: AppRequestContext, loaded: LoadedMemberPage) async throws -> Response {
        let user = try context.signedInUser()
        switch loaded {
        case .viewer: return redirect(to: SitePath.wishlist)
        case .notFound: throw Self.memberNotFound
        case .found(let member, let sort, let read, let about, let lists):
            let entry = try sharedMemberPage(member, sort: sort, read: read, lists: lists, isAdmin: user.isAdmin)
            return try respond(entry, about: try memberAbout(member, about, in: context.visitor.translations), for: context.visitor)
        }
    }

    /// Whose page this is and in what order, checked, and its cached page or what to render it from.
    func loadMemberPage(_ request: Request, _ context: AppRequestContext, _ viewer: Visitor.SignedIn, _ read: PageRead) throws -> LoadedMemberPage {
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

    func loadMemberPage(
        username: String, list: ListID? = nil, sort requested: String, page number: Int, _ viewer: Visitor.SignedIn, _ read: PageRead
    ) throws -> LoadedMemberPage {
        let member: Member
        switch try read.household.member(named: String(username.prefix(AccountRules.usernameLengths.upperBound + 1)), viewerID: viewer.userID) {
        case .viewer: return .viewer
        case .notFound: return .notFound
        case .member(let found): member = found
        }
        guard let sort = requested.isEmpty ? .priority : WishlistSort(rawValue: requested) else {
            throw PageError.badRequest(
                Translations.marked("A wishlist can be sorted by priority, date added, title or author; “{value}” is none of them."),
                values: ["value": String(requested.prefix(40))]
            )
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
            language: viewer.pageLanguage,
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
            member, sort, wishlist, try loadMemberAbout(member, catalogGeneration: catalogGeneration, language: viewer.pageLanguage, read),
            MemberLists(
                all: sharedLists, chosen: chosen, today: today,
                // Read only to render, and only for a birthday list.
                birthday: !wishlist.isCached && sharedLists.contains { $0.occasion == .birthday } ? try read.profiles.profile(userID: member.id).birthday : nil
            )
        )
    }

    /// The member's profile and reading as her page shows them, kept or read to render.
    func loadMemberAbout(_ member: Member, catalogGeneration: Int64, language: String, _ read: PageRead) throws -> MemberAboutRead {
        let year = FinishedDate(clock.now()).year
        let key = MemberAboutKey(
            ownerID: member.id, readingYear: year, language: language, generation: try catalogGeneration + read.household.memberAboutGeneration(ownerID: member.id)
        )
        if let cached = pageCaches.memberAbouts.entry(key) { return .cached(cached) }
        return .fresh(key, MemberAbout(
            profile: try read.profiles.profile(userID: member.id),
            readThisYear: try read.reading.finishedCount(userID: member.id, year: year),
            readings: try read.reading.readings(userID: member.id, sort: .finished, page: 1),
            readingNow: try read.reading.readingNow(userID: member.id)
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
        .notFound, title: Translations.marked("No shared list here"),
        message: Translations.marked("That list isn’t one shared with you. Its owner may have deleted it or kept it to herself; her page shows the lists she shares.")
    )

    /// A member's page for `visitor`, a confirmation that belongs to one of its cards shown there.
    /// Each book's reservation controls are the visitor's own when they hold it, everyone else's otherwise.
    func respond(_ entry: WishlistPage, about: MemberAboutPage, for visitor: Visitor) throws -> Response {
        let cardFlash = try pages.cardFlash(visitor, cards: entry.cards)
        let viewerID = visitor.signedIn?.userID
        let wishCount = ProfilePresenter.wishCountText(entry.wishCount, in: visitor.translations)
        return try pages.respond(entry.page, for: cardFlash?.visitor ?? visitor) { slot in
            switch slot {
            case .flash(let card): .value(card == cardFlash?.index ? cardFlash!.html : .null)
            case .reservation(let card): entry.reservations[card].map { .fragment($0.seen(by: viewerID)) } ?? .value(.null)
            case .profile: .fragment(about.profile)
            case .reading: .fragment(about.reading)
            case .wishCount: .value(wishCount)
            }
        }
    }

    /// A member's profile and reading, from the cache, or rendered from the page's read and kept
    /// (``MemberAboutCache``).
    func memberAbout(_ member: Member, _ read: MemberAboutRead, in translations: Translations) throws -> MemberAboutPage {
        switch read {
        case .cached(let page):
            return page
        case .fresh(let key, let about):
            let slot = { (name: String) in WishlistPage.Slot(name, indexes: [:]) }
            let memberValue: TemplateValue = [
                "name": .string(member.name),
                // A display name always has the username under it on the member's own page.
                "username": member.name == member.username ? .null : .string(member.username),
            ]
            let page = MemberAboutPage(
                profile: try pages.renderSharedFragment(
                    "partials/member-profile.html",
                    ["profile": ProfilePresenter.profileValue(
                        about.profile, username: member.username, wishCount: .slot("wish_count"), readThisYear: about.readThisYear, in: translations
                    ), "member": memberValue],
                    language: key.language, own: slot
                ),
                reading: try pages.renderSharedFragment(
                    "partials/member-reading.html",
                    ["readings": .array(about.readings.items.map(ReadingPresenter.readingValue)), "count": .int(about.readings.total),
                     "reading_now": .array(about.readingNow.map(ReadingPresenter.readingNowValue)),
                     "pager": .dictionary(about.readings.pagerFields(link: Self.memberReadingLink(member))), "member": memberValue],
                    language: key.language, own: slot
                )
            )
            pageCaches.memberAbouts.keep(page, for: key)
            return page
        }
    }

    /// A member's page as the others see it: from the cache, or rendered from the page's read
    /// and kept (``WishlistPageCache``); `respond` fills in each visitor's own part.
    func sharedMemberPage(
        _ member: Member, sort: WishlistSort, read: WishlistPageRead<HeldItem>, lists: MemberLists, isAdmin: Bool
    ) throws -> WishlistPage {
        switch read {
        case .cached(let page):
            return page
        case .fresh(let key, let items, let placements):
            let memberPath = SitePath.person(member.username)
            let path = lists.chosen.map { SitePath.personList(member.username, $0.id) } ?? memberPath
            let cards = items.items.map { Card.item($0.item.id) }
            let indexes = WishlistPage.Slot.cardIndexes(cards)
            let slot = { (name: String) in WishlistPage.Slot(name, indexes: indexes) }
            let sortField = sort == .priority ? nil : "sort=" + sort.rawValue
            let link = { (page: Int) in PageNumber.link(path, sortField, page == 1 ? nil : "page=\(page)") }
            let returnTo = TemplateValue.string(link(items.number))
            let reservations: [WishlistPage.ReservationActions?] = try items.items.map { held in
                if held.seenByHolder == nil { nil } else { try reservationActions(held, returnTo: returnTo, language: key.language, slot: slot) }
            }
            let page = WishlistPage(page: try pages.renderShared(
                "people/show.html", title: member.name, nav: "people", isAdmin: isAdmin, statusLine: key.statusLine, language: key.language,
                values: [
                    "profile_html": .slot("profile"),
                    "reading_html": .slot("reading"),
                    "member": ["name": .string(member.name), "path": .string(memberPath), "ideas_path": .string(SitePath.ideas(member.username)), "count": .int(items.total)],
                    "page_path": .string(path),
                    "lists": .array(lists.all.map { list in
                        [
                            "name": .string(list.name), "path": .string(SitePath.personList(member.username, list.id)),
                            "occasion": .string(WishListsController.occasionKind(list)), "occasion_date": .string(list.occasionDate ?? ""),
                            "count": .int(list.itemCount), "days": list.daysUntilOccasion(birthday: lists.birthday, from: lists.today).map(TemplateValue.int) ?? .null,
                            "current": .bool(list.id == lists.chosen?.id),
                        ]
                    }),
                    "list": lists.chosen.map { ["name": .string($0.name)] } ?? .null,
                    "sort": .string(sort.rawValue),
                    "items": .array(items.items.map { held in
                        var value = ItemPresenter.giverRowValue(held.item, placements: placements[held.item.bookID ?? ""] ?? [])
                        value["get_links"] = getLinks(held.item)
                        if held.seenByHolder == nil {
                            // Open, or a guest's: every giver sees the same controls, rendered with the row.
                            value.merge(Self.reservationValue(held.seenByOthers.reservation)) { _, reservation in reservation }
                        } else {
                            value["reservation_html"] = .slot("reservation:" + Card.item(held.item.id))
                        }
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

    /// A book's reservation controls as the member who holds it sees them and as everyone else
    /// does, each with a slot for the visitor's token: each visitor is given one of them. An open
    /// book's, or a guest's, are the same for every giver and rendered with its row instead.
    func reservationActions(
        _ held: HeldItem, returnTo: TemplateValue, language: String, slot: @escaping (String) -> WishlistPage.Slot?
    ) throws -> WishlistPage.ReservationActions {
        let actions = { (shared: SharedItem) in
            try pages.renderSharedFragment(
                "partials/reservation-actions.html",
                ["item": .dictionary(Self.sharedItemValue(shared)),
                 "return_to": returnTo, "csrf_token": .slot(PageRenderer.Slot.csrfToken)],
                language: language, own: slot
            )
        }
        return WishlistPage.ReservationActions(
            holderID: held.holder?.id, forOthers: try actions(held.seenByOthers), forHolder: try held.seenByHolder.map(actions)
        )
    }

    // MARK: Values

    /// What `partials/reservation-actions.html` (and `partials/book-givers.html`, around it)
    /// reads of an item, and no more: a member's page renders it once or twice for each of up to
    /// 100 books, and the row's own value (cover, lists, paths of the owner's forms) is not read there.
    /// The paths of the holder's forms only when she is the one looking: nobody else is shown them,
    /// and a book's page names up to a dozen wants, mostly open (issue 58).
    static func sharedItemValue(_ shared: SharedItem) -> [String: TemplateValue] {
        let item = shared.item
        var value: [String: TemplateValue] = ["id": .id(item.id), "title": .string(item.title), "note": .string(item.note)]
        value.merge(reservationValue(shared.reservation)) { _, reservation in reservation }
        if case .byViewer = shared.reservation {
            value["mark_bought_path"] = .string(SitePath.markBought(item.id))
            value["unmark_bought_path"] = .string(SitePath.unmarkBought(item.id))
            value["card_path"] = .string(SitePath.writeCard(item.id))
            value["cancel_path"] = .string(SitePath.cancelReservation(item.id))
        }
        return value
    }

    /// Whose a book is, as `partials/reservation-actions.html` reads it beside the item's fields.
    static func reservationValue(_ reservation: SharedItem.Reservation) -> [String: TemplateValue] {
        switch reservation {
        case .open: ["reservation": "open"]
        case .byViewer(let bought, let card): ["reservation": "you", "bought": .bool(bought), "card": .string(card)]
        case .byOther(let name, let bought): ["reservation": "other", "reserved_by": .string(name), "bought": .bool(bought)]
        }
    }
}
