import Hummingbird
import WishlistCore
import WishlistTemplates

/// Gifts I'm giving: the giver's reservations and ideas by member, the given ones, and the
/// notices of books that went.
extension HouseholdController {
    @Sendable func gifts(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let gifts = try await household.gifts(giverID: user.userID)
        var notices: [TemplateValue] = []
        var given: [TemplateValue] = []
        var groups: [(owner: String, name: String, gifts: [TemplateValue], shared: Bool)] = []
        // The cards a form here returns to: the books on lists still shared.
        let cards = gifts.map { gift in if case .reserved(let item) = gift.state { Card.item(item.id) } else { "" } }
        let cardFlash = try pages.cardFlash(context.visitor, cards: cards)
        // Where each reserved book stands now, as a member's page says it (issue 57: every row said
        // "Not on a current list", books at #3 and #5 included).
        let placements = try await catalog.placements(of: gifts.compactMap { gift in
            if case .reserved(let item) = gift.state { item.bookID } else { nil }
        })
        for (index, gift) in gifts.enumerated() {
            let value: TemplateValue
            let shared: Bool
            switch gift.state {
            case .reserved(let item):
                value = .dictionary(ItemPresenter.othersValue(item, placements: placements[item.bookID ?? ""] ?? []).merging([
                    "reservation": "you", "bought": .bool(gift.boughtAt != nil), "card": .string(gift.card),
                    "flash_html": index == cardFlash?.index ? cardFlash!.html : .null,
                ]) { $1 })
                shared = true
            case .idea(let id, let note):
                value = [
                    "idea": true, "id": .id(id), "title": .string(gift.title), "author": .string(gift.author), "note": .string(note),
                    "cancel_path": .string(SitePath.cancelIdeaReservation(gift.ownerName, id)),
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
                value = ["id": .id(itemID), "title": .string(gift.title), "author": .string(gift.author), "cancel_path": .string(SitePath.cancelReservation(itemID))]
                shared = false
            case .removed, .listGone:
                notices.append([
                    "id": .id(gift.id), "dismiss_path": .string(SitePath.dismissNotice(gift.id)), "owner": .string(gift.ownerShownName), "title": .string(gift.title),
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
            "reservations/index.html", title: context.visitor.translations.text("Gifts I’m giving"), nav: "reservations", for: cardFlash?.visitor ?? context.visitor,
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
}
