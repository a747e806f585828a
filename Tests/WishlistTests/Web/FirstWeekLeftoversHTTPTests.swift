import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The first week's small defects left after part 1 (issue 57, defect 3), over HTTP.
@Suite("A family's first week: the small defects left", .removesTemporaryDirectories)
struct FirstWeekLeftoversHTTPTests {
    /// "Where you are signed in" says when each session began and was last seen, to the minute,
    /// with its zone, so that a session someone else opened at night stands out.
    @Test func theSessionsTableShowsTimes() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { ana in
            try await ana.signUp("ana")
            let page = try await ana.get("/settings/sign-in")
            #expect(page.text.contains(#"<time datetime="2026-09-21T14:13:20Z">Sep 21, 2026 at 14:13 UTC</time>"#))
        }
    }

    /// In the household's zone (`server.timeZone`), as its birthdays are, rather than in UTC: the
    /// hour and the day a member reads, and the offset beside it (issue 57).
    @Test func sessionAndPasskeyTimesAreInTheHouseholdsZone() async throws {
        let time = ManualClock(Date(timeIntervalSince1970: 1_790_000_000 + 9 * 3600))  // 21 September 2026, 23:13:20 UTC
        for (zone, shown) in [("Europe/Berlin", "Sep 22, 2026 at 01:13 UTC+2"), ("America/St_Johns", "Sep 21, 2026 at 20:43 UTC−2:30")] {
            let server = try await TestApp.build(clock: time.clock) { $0.server.timeZone = zone }
            try await TestApp.run(server) { ana in
                try await ana.signUp("ana")
                let userID = try await server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'ana'")! }
                try await server.database.pool.write { db in
                    try db.execute(
                        sql: "INSERT INTO passkey (user_id, credential_id, public_key, sign_count, name, created_at) VALUES (?, X'01', X'02', 0, 'Phone', ?)",
                        arguments: [userID, StoredDate(time.clock.now())]
                    )
                }
                let page = try await ana.get("/settings/sign-in")
                #expect(page.text.contains(#"<time datetime="2026-09-21T23:13:20Z">\#(shown)</time>"#), "\(zone)")
                #expect(page.text.contains(">\(shown.prefix(12))</time></td>"), "the passkey's day in \(zone)")
            }
        }
    }
}
