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
}
