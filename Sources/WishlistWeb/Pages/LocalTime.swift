import CivilTime
import Foundation
import WishlistTemplates

/// A moment as the household reads it (issue 57): its wall-clock time in `server.timeZone`, the
/// zone birthdays and the digest already use, rather than in UTC. The templates' `date` filter
/// prints in UTC, so the value handed to it is the moment moved by the zone's offset then; a
/// page's `datetime` attribute keeps the moment itself.
enum LocalTime {
    static func value(_ date: Date, in zone: ZoneRules) -> TemplateValue {
        .date(date.addingTimeInterval(TimeInterval(zone.utcOffset(at: date))))
    }

    /// What follows a time: "UTC", "UTC+2", "UTC−3:30" (the zone's offset then, with a minus sign).
    static func zoneLabel(_ date: Date, in zone: ZoneRules) -> String {
        let offset = zone.utcOffset(at: date)
        guard offset != 0 else { return "UTC" }
        let minutes = abs(offset) / 60
        return "UTC" + (offset < 0 ? "−" : "+") + "\(minutes / 60)" + (minutes % 60 == 0 ? "" : String(format: ":%02d", minutes % 60))
    }
}
