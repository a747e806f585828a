import Hummingbird
import WishlistCore
import WishlistTemplates

/// People: the members who share, found by name, and their birthdays to come.
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
        return try pages.render(
            "people/index.html", title: "People", nav: "people", for: context.visitor,
            values: [
                "members": .array(members.items.map { ["name": .string($0.name), "path": .string(SitePath.person($0.username)), "count": .int($0.itemCount)] }),
                "listing": listing.templateValue(members, path: SitePath.people),
                "sharing": .string(try await household.sharing(userID: user.userID).rawValue),
                "birthdays": .array(try await upcomingBirthdays(viewerID: user.userID)),
            ]
        )
    }

    /// Birthdays of the members who share, in the next 30 days by the server's time zone, soonest first.
    func upcomingBirthdays(viewerID: UserID) async throws -> [TemplateValue] {
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
}
