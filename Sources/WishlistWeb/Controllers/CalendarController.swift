import Foundation
import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages

/// The household's birthdays and occasions as an iCalendar feed (issue 51), for a calendar app to
/// subscribe to without a session: behind the link's owner's feed token (Settings → Feed link), so
/// that resetting that link stops both. Only members who share are in it, and only their lists the
/// household sees; an unknown or reset token answers 404, as the Atom feeds do.
struct CalendarController {
    let feedLinks: SecretLinkStore
    let database: AppDatabase
    let clock: WallClock
    /// Where the events' links lead (``AppConfig/Server/publicOrigin``).
    let publicOrigin: String
    let languages: LanguageChoice

    func addRoutes(to routes: SiteRouter) {
        routes.add(.occasionsCalendar, use: calendar)
    }

    @Sendable func calendar(_ request: Request, context: AppRequestContext) async throws -> Response {
        let file = context.parameters.get("token") ?? ""
        guard file.hasSuffix(".ics"), let owner = try await feedLinks.owner(token: String(file.dropLast(4))) else { throw FeedController.notFound }
        let occasions = try await database.pageRead { try $0.lists.sharedOccasions(excluding: owner.userID) }
        // In the language of the link's owner, as her Atom feeds are.
        let translations = languages.translations(member: owner.language, acceptLanguage: request.headers[.acceptLanguage]).translations
        let calendar = ICalendar(
            name: translations.text("Birthdays and occasions"), stamp: clock.now(), events: occasions.flatMap { events($0, in: translations) }
        )
        var headers = ShareLinkController.privateHeaders
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.cacheControl] = "private, max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: calendar.text)))
    }

    /// A member's birthday, and each of her lists with an occasion: a birthday list on her
    /// birthday (none without one), a Christmas list on 25 December, a dated list once, on its day.
    func events(_ member: SharedOccasions, in translations: Translations) -> [ICalendar.Event] {
        let host = URL(string: publicOrigin)?.host ?? "localhost"
        var events: [ICalendar.Event] = []
        if let birthday = member.birthday {
            events.append(ICalendar.Event(
                uid: "birthday-\(member.ownerID)@\(host)", summary: translations.text("{name}’s birthday", values: ["name": member.name]), start: (2000, birthday.month, birthday.day),
                recurrence: .yearly, url: publicOrigin + SitePath.person(member.username)
            ))
        }
        for list in member.lists {
            let start: (year: Int, month: Int, day: Int)
            let recurrence: ICalendar.Event.Recurrence
            switch list.occasion {
            case .none:
                continue
            case .birthday:
                guard let birthday = member.birthday else { continue }
                (start, recurrence) = ((2000, birthday.month, birthday.day), .yearly)
            case .christmas:
                (start, recurrence) = ((2000, 12, 25), .yearly)
            case .date:
                let parts = (list.occasionDate ?? "").split(separator: "-").compactMap { Int($0) }
                guard parts.count == 3 else { continue }
                (start, recurrence) = ((parts[0], parts[1], parts[2]), .once)
            }
            events.append(ICalendar.Event(
                uid: "list-\(list.id)@\(host)", summary: translations.text("{name}’s {list} list", values: ["name": member.name, "list": list.name]), start: start,
                recurrence: recurrence, url: publicOrigin + SitePath.personList(member.username, list.id)
            ))
        }
        return events
    }
}
