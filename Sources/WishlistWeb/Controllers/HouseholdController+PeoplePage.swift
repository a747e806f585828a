import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// People: the members who share, found by name, their birthdays and their lists' occasions to come.
extension HouseholdController {
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
            "people/index.html", title: context.visitor.translations.text("People", context: "nav"), nav: "people", for: context.visitor,
            values: [
                "members": .array(members.items.map { member in
                    [
                        "name": .string(member.name), "path": .string(SitePath.person(member.username)), "count": .int(member.itemCount),
                        "managed_by": .string(Self.namesText(member.managerNames, in: context.visitor.translations)),
                        "manage_path": member.managedByViewer ? .string(SitePath.childManagers(member.username)) : .null,
                        "lists": .array(Self.occasionLists(occasions[member.id], username: member.username, today: today)),
                    ]
                }),
                "listing": listing.templateValue(members, path: SitePath.people),
                "sharing": .string(try await household.sharing(userID: user.userID).rawValue),
                "birthdays": .array(try await upcomingBirthdays(viewerID: user.userID, in: context.visitor.translations)),
            ]
        )
    }

    /// "Mum", "Mum and Dad", "Gran, Mum and Dad" ("Oma, Mama und Papa"); "" for none.
    static func namesText(_ names: [String], in translations: Translations) -> String {
        guard let last = names.last else { return "" }
        guard names.count > 1 else { return last }
        return translations.text("{names} and {last}", context: "a list of names", values: ["names": names.dropLast().joined(separator: ", "), "last": last])
    }

    /// A member's shared lists with an occasion still to come, soonest first, as People shows them:
    /// "maya’s Birthday list: in 12 days" (`days`, worded by the page).
    static func occasionLists(_ occasions: SharedOccasions?, username: String, today: (year: Int, month: Int, day: Int)) -> [TemplateValue] {
        guard let occasions else { return [] }
        return occasions.lists.compactMap { list in list.daysUntilOccasion(birthday: occasions.birthday, from: today).map { (list, $0) } }
            .sorted { ($0.1, $0.0.id.rawValue) < ($1.1, $1.0.id.rawValue) }
            .map { list, days in
                ["name": .string(list.name), "path": .string(SitePath.personList(username, list.id)), "days": .int(days)]
            }
    }

    /// Birthdays of the members who share, in the next 30 days by the server's time zone, soonest first.
    func upcomingBirthdays(viewerID: UserID, in translations: Translations) async throws -> [TemplateValue] {
        let today = timeZone.localDay(at: clock.now())
        let birthdays = try await database.pageRead { try $0.profiles.birthdays(excluding: viewerID) }
        return birthdays.map { ($0.username, $0.name, $0.birthday, $0.birthday.daysUntil(from: today)) }
            .filter { $0.3 <= 30 }
            .sorted { ($0.3, $0.1.lowercased()) < ($1.3, $1.1.lowercased()) }
            .map { username, name, birthday, days in
                [
                    "name": .string(name), "path": .string(SitePath.person(username)), "date": .string(birthday.text(in: translations)),
                    "days": .int(days),
                ]
            }
    }
}
