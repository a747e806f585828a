import Foundation
import Synchronization

/// One of Open Library's answers to a look-up, for the person to choose from.
public struct LookupResult: Sendable, Equatable {
    public let title: String
    public let author: String
    public let firstPublished: Int?
    public let isbn: ISBN?
    public let publisher: String
    /// Open Library's cover id: the cover is fetched by the server's cover job once chosen.
    public let coverID: Int?
    /// `/works/OL…W`, for the link to the book's Open Library page.
    public let workKey: String?

    public init(title: String, author: String, firstPublished: Int?, isbn: ISBN?, publisher: String, coverID: Int?, workKey: String?) {
        self.title = title
        self.author = author
        self.firstPublished = firstPublished
        self.isbn = isbn
        self.publisher = publisher
        self.coverID = coverID
        self.workKey = workKey
    }
}

/// Book look-up through Open Library's search and ISBN APIs, over libcurl. Open Library asks its
/// callers for at most a request a second and a `User-Agent` naming them; answers are kept for a
/// day, so a person paging back and forth costs it nothing. What it sees: the words and ISBNs
/// typed, from the server's address, never a user's.
public final class OpenLibraryClient: Sendable {
    public enum Failure: Error, Equatable {
        /// `openLibrary.baseURL` is empty.
        case off
        /// Down, slow, or answering what is not its API: the person types the book instead.
        case unavailable(reason: String)
        /// More look-ups waiting than a few seconds of its rate would serve.
        case busy
    }

    /// At most this many results a search.
    static let resultLimit = 10

    private let baseURL: String
    private let coversURL: String
    private let http: CurlHTTPClient
    private let spacing: RequestSpacing
    private let answers = Mutex(AnswerCache())
    /// When Open Library last failed, if it has not answered since.
    private let lastOutage = Mutex<ContinuousClock.Instant?>(nil)
    static let outagePause: Duration = .seconds(30)
    public static let defaultTimeoutSeconds = 10

    /// A look-up is up to three requests (edition, work, author) a second apart, each allowed
    /// `timeoutSeconds`; the first that fails ends it, so a person waits about that long at
    /// worst before being offered to type the book in.
    public init(
        baseURL: String, coversURL: String, minimumInterval: Duration = .seconds(1), timeoutSeconds: Int = OpenLibraryClient.defaultTimeoutSeconds
    ) {
        self.baseURL = baseURL
        self.coversURL = coversURL
        self.http = CurlHTTPClient(
            limits: .init(
                connectTimeoutSeconds: min(5, timeoutSeconds), totalTimeoutSeconds: timeoutSeconds,
                maximumBodyBytes: 2 * 1024 * 1024, maximumRedirects: 3
            ),
            threads: baseURL.isEmpty ? 1 : Self.transfersAtOnce(interval: minimumInterval, timeoutSeconds: timeoutSeconds)
        )
        self.spacing = RequestSpacing(interval: minimumInterval)
    }

    /// A thread for every request the spacing can have under way at once (with look-up on): one
    /// starts each `interval` and each lasts at most `timeoutSeconds`. With fewer, a slow Open
    /// Library would queue each person's request behind the others' until its timeout ran out
    /// waiting (10 at most, for an interval made tiny).
    static func transfersAtOnce(interval: Duration, timeoutSeconds: Int) -> Int {
        guard interval > .zero else { return 10 }
        let overlapping = (Duration.seconds(timeoutSeconds) / interval).rounded(.up)
        return Int(min(10, max(1, overlapping)))
    }

    public var isOn: Bool { !baseURL.isEmpty }

    /// Where a chosen result's cover is fetched from (`default=false`: a 404 rather than a blank
    /// picture when Open Library has none).
    public func coverURL(id: Int) -> String {
        "\(coversURL)/b/id/\(id)-L.jpg?default=false"
    }

    /// The book's Open Library page, for the link on its page here; nil for a key that is not one.
    public func pageLink(workKey: String) -> CatalogBook.Link? {
        guard Self.isPathKey(workKey) else { return nil }
        return CatalogBook.Link(name: "Open Library", url: "\(baseURL.isEmpty ? "https://openlibrary.org" : baseURL)\(workKey)")
    }

    /// The edition with this ISBN, or none when Open Library does not know it.
    public func lookUp(_ isbn: ISBN) async throws(Failure) -> [LookupResult] {
        guard let edition: OpenLibraryEdition = try await fetch("/isbn/\(isbn.isbn13).json") else { return [] }
        guard let title = edition.title?.trimmed, !title.isEmpty else { return [] }
        let fullTitle = edition.subtitle.map(\.trimmed).map { $0.isEmpty ? title : "\(title): \($0)" } ?? title
        return [LookupResult(
            title: fullTitle, author: try await authorName(of: edition), firstPublished: Self.year(in: edition.publishDate), isbn: isbn,
            publisher: edition.publishers?.first?.trimmed ?? "", coverID: edition.covers?.first { $0 > 0 }, workKey: edition.works?.first?.key
        )]
    }

    /// Books whose title and author match, as Open Library ranks them.
    public func search(title: String, author: String) async throws(Failure) -> [LookupResult] {
        var query = [("fields", "key,title,author_name,first_publish_year,isbn,cover_i"), ("limit", String(Self.resultLimit))]
        if !title.isEmpty { query.insert(("title", title), at: 0) }
        if !author.isEmpty { query.insert(("author", author), at: title.isEmpty ? 0 : 1) }
        return try await search(query)
    }

    /// Books matching `words` anywhere Open Library looks (title, author, subjects), as a gift
    /// idea's one search field asks (issue 57).
    public func search(words: String) async throws(Failure) -> [LookupResult] {
        try await search([("q", words), ("fields", "key,title,author_name,first_publish_year,isbn,cover_i"), ("limit", String(Self.resultLimit))])
    }

    private func search(_ query: [(String, String)]) async throws(Failure) -> [LookupResult] {
        guard let answer: OpenLibrarySearchAnswer = try await fetch("/search.json?" + Self.encode(query)) else { return [] }
        return answer.docs.prefix(Self.resultLimit).compactMap { document in
            guard let title = document.title?.trimmed, !title.isEmpty else { return nil }
            return LookupResult(
                title: title, author: document.authorName?.first?.trimmed ?? "", firstPublished: document.firstPublishYear,
                isbn: document.isbn?.lazy.compactMap { try? ISBN($0) }.first, publisher: "",
                coverID: document.coverI.flatMap { $0 > 0 ? $0 : nil }, workKey: document.key
            )
        }
    }

    // MARK: Requests

    /// The edition's first author by name: from its own list, or else from its work's.
    private func authorName(of edition: OpenLibraryEdition) async throws(Failure) -> String {
        var key = edition.authors?.first?.key
        if key == nil, let work = edition.works?.first?.key, Self.isPathKey(work) {
            let answer: OpenLibraryWork? = try await fetch("\(work).json")
            key = answer?.authors?.first?.author?.key
        }
        guard let key, Self.isPathKey(key) else { return "" }
        let author: OpenLibraryAuthor? = try await fetch("\(key).json")
        return author?.name?.trimmed ?? ""
    }

    /// A decoded answer, nil for a 404; any other status, a transport failure or an answer that
    /// does not decode means Open Library cannot help now.
    private func fetch<Answer: Decodable>(_ path: String) async throws(Failure) -> Answer? {
        guard isOn else { throw .off }
        let url = baseURL + path
        let body: [UInt8]?
        if let cached = answers.withLock({ $0.answer(for: url) }) {
            body = cached
        } else {
            body = try await request(url)
            answers.withLock { $0.keep(body, for: url) }
        }
        guard let body else { return nil }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(body))
        } catch {
            throw .unavailable(reason: "Open Library’s answer to \(path) did not decode")
        }
    }

    /// The body of a 200, nil for a 404.
    /// Once Open Library could not be reached or answered with an error, it is not asked again
    /// for `outagePause`: the next person is told at once instead of after a timeout, and a down
    /// service is not queued at.
    private func request(_ url: String) async throws(Failure) -> [UInt8]? {
        if let since = lastOutage.withLock({ $0 }), since.duration(to: .now) < Self.outagePause {
            throw .unavailable(reason: "Open Library failed moments ago; not asked again yet")
        }
        do {
            try await spacing.waitForTurn()
            let response = try await http.get(url)
            switch response.status {
            case 200, 404:
                lastOutage.withLock { $0 = nil }
                return response.status == 200 ? response.body : nil
            default:
                throw Failure.unavailable(reason: "Open Library answered \(response.status)")
            }
        } catch let failure as Failure {
            if failure != .busy { lastOutage.withLock { $0 = .now } }
            throw failure
        } catch is CancellationError {
            // The person left; Open Library did nothing wrong.
            throw .unavailable(reason: "the look-up was cancelled")
        } catch {
            lastOutage.withLock { $0 = .now }
            throw .unavailable(reason: String(describing: error))
        }
    }

    // MARK: Text

    /// `/works/OL1W`, `/authors/OL1A`: a path of letters and digits, nothing that could leave the host.
    static func isPathKey(_ key: String) -> Bool {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].isEmpty && ["works", "authors", "books"].contains(parts[1])
            && !parts[2].isEmpty && parts[2].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The first four-digit year in Open Library's free-text date ("March 3, 2015", "1988").
    static func year(in text: String?) -> Int? {
        guard let text else { return nil }
        var digits = ""
        for character in text + " " {
            if character.isASCII, character.isNumber { digits.append(character); continue }
            if digits.count == 4, let year = Int(digits) { return year }
            digits = ""
        }
        return nil
    }

    static func encode(_ query: [(String, String)]) -> String {
        query.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
    }
}

/// Open Library's answers by URL, for a day, at most `capacity` of them (the oldest goes first).
private struct AnswerCache {
    static let lifetime: Duration = .seconds(24 * 3600)
    static let capacity = 256

    private var entries: [String: (body: [UInt8]?, at: ContinuousClock.Instant)] = [:]

    /// The kept body (nil inside for a 404), or nil when none is kept.
    func answer(for url: String) -> [UInt8]?? {
        guard let entry = entries[url], entry.at.duration(to: .now) < Self.lifetime else { return nil }
        return .some(entry.body)
    }

    mutating func keep(_ body: [UInt8]?, for url: String) {
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.at < $1.value.at })?.key {
            entries[oldest] = nil
        }
        entries[url] = (body, .now)
    }
}

/// Spaces requests `interval` apart, in the order they asked, and turns away those that would
/// wait more than a few intervals.
final class RequestSpacing: Sendable {
    private let interval: Duration
    private let next = Mutex(ContinuousClock.now)
    private let mostWaiting = 5

    init(interval: Duration) {
        self.interval = interval
        next.withLock { $0 = .now - interval }
    }

    /// Returns at the next free moment, which it takes; throws `busy` when that is too far ahead.
    func waitForTurn() async throws {
        guard let turn = reserve(at: .now) else { throw OpenLibraryClient.Failure.busy }
        try await Task.sleep(until: turn, clock: .continuous)
    }

    /// The moment a request asking at `now` may go, taken for it; nil when it would wait more
    /// than `mostWaiting` intervals.
    func reserve(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        next.withLock { next in
            let turn = max(now, next)
            guard now.duration(to: turn) <= interval * mostWaiting else { return nil }
            next = turn + interval
            return turn
        }
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
