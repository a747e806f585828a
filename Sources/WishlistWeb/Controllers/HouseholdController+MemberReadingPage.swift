import Hummingbird
import WishlistCore

/// The books a member has read, past what her page shows.
extension HouseholdController {
    /// The books a member has read, a page at a time: the rest of what her page's foot begins.
    /// Opened far less often than her page, so read on its own rather than with the session
    /// (``PageLoaders`` hold the most visited pages).
    @Sendable func memberReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let viewer = try context.signedInUser()
        switch try await database.pageRead({ try self.loadMemberReading(request, context, viewer, $0) }) {
        case .viewer: return redirect(to: SitePath.reading)
        case .notFound: throw Self.memberNotFound
        case .found(let member, let readings, let readingNow):
            return try pages.render(
                "people/reading.html", title: context.visitor.translations.text("Books {name} has read", values: ["name": member.name]), nav: "people", for: context.visitor,
                values: [
                    "member": ["name": .string(member.name), "path": .string(SitePath.person(member.username))],
                    "readings": .array(readings.items.map(ReadingPresenter.readingValue)), "count": .int(readings.total),
                    "reading_now": .array(readingNow.map(ReadingPresenter.readingNowValue)),
                    "pager": .dictionary(readings.pagerFields(link: Self.memberReadingLink(member))),
                ]
            )
        }
    }

    /// Page `number` of the member's reading: the first is on her page too.
    static func memberReadingLink(_ member: Member) -> (Int) -> String {
        { number in PageNumber.link(SitePath.personReading(member.username), number == 1 ? nil : "page=\(number)") }
    }

    /// Whose reading this is, checked as her page is, and the page of it asked for.
    func loadMemberReading(_ request: Request, _ context: AppRequestContext, _ viewer: Visitor.SignedIn, _ read: PageRead) throws -> LoadedMemberReading {
        let username = context.parameters.get("username") ?? ""
        let number = try PageNumber.parse(request.queryText("page"))
        switch try read.household.member(named: String(username.prefix(AccountRules.usernameLengths.upperBound + 1)), viewerID: viewer.userID) {
        case .viewer: return .viewer
        case .notFound: return .notFound
        case .member(let member):
            return .found(member, try read.reading.readings(userID: member.id, sort: .finished, page: number), try read.reading.readingNow(userID: member.id))
        }
    }

    enum LoadedMemberReading: Sendable {
        /// The viewer's own name: "Books I've read" is hers.
        case viewer
        case notFound
        /// Her readings' page, and the books she reads now (issue 57).
        case found(Member, PagedList<Reading>, [CurrentReading])
    }
}
