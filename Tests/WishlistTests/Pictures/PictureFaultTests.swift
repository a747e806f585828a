import Dispatch
import Foundation
import GRDB
import Logging
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The picture codecs under load and the picture store on a full disk.
@Suite("Pictures under concurrency and on a full disk", .removesTemporaryDirectories)
struct PictureFaultTests {
    typealias Fake = FakeOpenLibraryServer

    /// Five members upload at once while the cover job fetches three covers: the processor's
    /// queue (one decoding, four waiting) is shared, so an upload or a cover may be turned away as
    /// busy, but an upload only when the queue is full; every other upload is a correct picture,
    /// and every cover is one once it has had its next try.
    @Test func uploadsAndCoverFetchesAtOnceAllComeOutAsPicturesOrBusy() async throws {
        let fake = Fake(clock: .system)
        let time = ManualClock()
        try await fake.run { baseURL in
            let server = try await CoverDiskFullTests.server(coversFrom: baseURL, clock: time.clock, logger: Self.quiet)
            let coverKeys = CoverDiskFullTests.coverKeys(coversFrom: baseURL)
            let names = ["ada", "bob", "cyd", "dia", "eve"]
            try await TestApp.run(server) { browser in
                var members: [TestBrowser] = []
                for name in names {
                    var member = TestBrowser(client: browser.client)
                    #expect(try await member.signUp(name).status == .seeOther)
                    members.append(member)
                }
                let statuses = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                    // The books come now, so that their covers are fetched beside the uploads,
                    // by this job alone (the app's own job waits for a nudge or its poll).
                    group.addTask {
                        _ = try await CoverDiskFullTests.addBooks(server, coversFrom: baseURL)
                        await server.coverFetcher.fetchDue()
                        return (-1, "covers")
                    }
                    for (index, member) in members.enumerated() {
                        group.addTask {
                            var member = member
                            let response = try await member.uploadPicture(PictureSamples.png(width: 300 + index, height: 200))
                            let busy = response.shows("Too many pictures are being processed just now")
                            let stored = response.location == "/settings/profile?done=picture"
                            return (index, stored ? "stored" : busy ? "busy" : "\(response.status) \(response.location ?? "")")
                        }
                    }
                    return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
                }
                let outcomes = names.indices.compactMap { statuses[$0] }
                #expect(outcomes.allSatisfy { $0 == "stored" || $0 == "busy" }, "\(outcomes)")
                let stored = outcomes.filter { $0 == "stored" }.count
                #expect(stored == names.count || stored >= 5 - CoverFetcher.concurrentFetches, "busy only with the queue full: \(outcomes)")
                for (index, member) in members.enumerated() where statuses[index] == "stored" {
                    var member = member
                    try await Self.expectSquarePicture(of: names[index], in: server, seenBy: &member)
                }
            }
            // A cover turned away as busy waits its turn like any failure: a day at most.
            time.advance(by: CoverStore.longestRetry + 1)
            await server.coverFetcher.fetchDue()
            for key in coverKeys {
                #expect(try await CoverHTTPTests.status(server, key) == "ready")
                let large = try #require(await server.coverFetcher.cache.read(key, .large))
                #expect(CoverHTTPTests.width(ofJPEG: large)?.0 == PictureProcessor.coverLargeWidth)
            }
        }
    }

    /// Good and malformed pictures of every format at once: each good one becomes its two
    /// squares, each malformed one is refused as unreadable or too big, and no more than the
    /// processor's threads decode at a time.
    @Test func goodAndMalformedPicturesAtOnceEachGetTheirOwnAnswer() async throws {
        let processor = try PictureProcessor(threads: 2, maxWaiting: 14)
        var samples: [(bytes: [UInt8], good: Bool)] = []
        for format in PictureFormat.allCases {
            let good = picture(format, width: 320, height: 240)
            samples.append((good, true))
            samples.append((Array(good.prefix(good.count / 2)), false))
            samples.append((Array(good.prefix(40)) + Array(repeating: 0xA5, count: good.count), false))
        }
        samples.append((PictureSamples.pngClaiming(width: 50_000, height: 50_000), false))
        let outcomes = try await withThrowingTaskGroup(of: (Int, Result<ProcessedPicture, PictureProblem>).self) { group in
            for (index, sample) in samples.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await processor.process(bytes: sample.bytes, declaredType: nil)))
                    } catch let problem as PictureProblem {
                        return (index, .failure(problem))
                    }
                }
            }
            return try await group.reduce(into: [Int: Result<ProcessedPicture, PictureProblem>]()) { $0[$1.0] = $1.1 }
        }
        for (index, sample) in samples.enumerated() {
            switch outcomes[index] {
            case .success(let processed)?:
                #expect(sample.good, "sample \(index) was malformed yet accepted")
                #expect(PictureSamples.jpegFrame(processed.large).map { $0.width == 256 && $0.height == 256 } == true)
            case .failure(let problem)?:
                #expect(!sample.good, "sample \(index): \(problem)")
                #expect(problem != .busy, "the queue had room for all")
            case nil:
                Issue.record("sample \(index) got no answer")
            }
        }
        #expect(processor.admittedCount == 0, "every picture's place in the queue was given back")
    }

    @Test func noMoreThanTheProcessorsThreadsRunAtOnce() async throws {
        let processor = try PictureProcessor(threads: 2, maxWaiting: 4)
        let occupancy = Occupancy()
        let gate = DispatchSemaphore(value: 0)
        let jobs = (0..<6).map { _ in
            Task {
                try await processor.run {
                    occupancy.enter()
                    gate.wait()
                    occupancy.leave()
                }
            }
        }
        while processor.admittedCount < 6 || occupancy.running < 2 { await Task.yield() }
        await #expect(throws: PictureProblem.busy) {
            try await processor.process(bytes: picture(.jpeg, width: 64, height: 64), declaredType: nil)
        }
        for _ in jobs { gate.signal() }
        for job in jobs { try await job.value }
        #expect(occupancy.most == 2)
    }

    /// The picture is stored in the database: a full disk refuses the write with the 503 page that
    /// says so, the picture acknowledged before stays, and the next try after space returns works.
    @Test func anUploadOnAFullDiskIsRefusedWithA503AndTheOldPictureStays() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect(try await maya.uploadPicture(PictureSamples.png(width: 40, height: 40)).status == .seeOther)
            let before = try await Self.pictureKey(home.server)
            try await home.server.database.pool.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE TABLE ballast (bytes BLOB)")
                try db.execute(sql: """
                    CREATE TRIGGER fill_the_disk AFTER UPDATE ON profile_picture
                    BEGIN INSERT INTO ballast VALUES (randomblob(1000000)); END
                    """)
                try db.execute(sql: "PRAGMA max_page_count = 1")
            }
            let refused = try await maya.uploadPicture(PictureSamples.png(width: 50, height: 50))
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.shows("The server has run out of disk space"))
            #expect(try await Self.pictureKey(home.server) == before, "the acknowledged picture is kept")
            try await Self.expectSquarePicture(of: "maya", in: home.server, seenBy: &maya)

            try await home.server.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1073741823") }
            #expect(try await maya.uploadPicture(PictureSamples.png(width: 50, height: 50)).status == .seeOther)
            #expect(try await Self.pictureKey(home.server) != before)
        }
    }

    // MARK: Helpers

    /// How many jobs run at once, and the most that ever did.
    final class Occupancy: Sendable {
        private let counts = Mutex<(running: Int, most: Int)>((0, 0))
        var running: Int { counts.withLock { $0.running } }
        var most: Int { counts.withLock { $0.most } }

        func enter() {
            counts.withLock { $0 = ($0.running + 1, max($0.most, $0.running + 1)) }
        }

        func leave() {
            counts.withLock { $0.running -= 1 }
        }
    }

    static var quiet: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    static func pictureKey(_ server: WishlistServer) async throws -> String? {
        try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT key FROM profile_picture") }
    }

    /// The member's stored picture is served as a 256-pixel square JPEG.
    static func expectSquarePicture(of username: String, in server: WishlistServer, seenBy browser: inout TestBrowser) async throws {
        let key = try await server.database.pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT key FROM profile_picture JOIN user ON user.id = user_id WHERE username = ?", arguments: [username])
        }
        let served = try await browser.get("/pictures/\(try #require(key))-256.jpg")
        #expect(PictureSamples.jpegFrame(Array(served.body.readableBytesView)).map { $0.width == 256 && $0.height == 256 } == true)
    }
}
