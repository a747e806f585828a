import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages

/// `GET /covers/{key}-{width}.jpg`: every cover a page shows, from the server's own cache
/// (`CoverFetcher`). Public, as share links show covers. A fetched cover never changes under its
/// key, so it is cached for a year; a cover not fetched yet, or that failed, is the placeholder
/// jacket, which the browser must ask for again next time.
struct CoversController {
    let store: CoverStore
    let cache: CoverCache
    let fetcher: CoverFetcher
    let placeholder: [UInt8]

    /// How long a page's request waits for a cover the job has not fetched yet (an Open
    /// Library result's, seen for the first time) before it gets the placeholder.
    static let patience: Duration = .seconds(4)

    init(store: CoverStore, cache: CoverCache, fetcher: CoverFetcher, publicDirectory: String) {
        self.store = store
        self.cache = cache
        self.fetcher = fetcher
        let placeholderPath = URL(fileURLWithPath: publicDirectory).appendingPathComponent(StaticFiles.placeholderName).path
        self.placeholder = FileManager.default.contents(atPath: placeholderPath).map { [UInt8]($0) } ?? []
    }

    func addRoutes(to routes: SiteRouter) {
        routes.add(.cover, use: cover)
    }

    @Sendable func cover(_ request: Request, context: AppRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".jpg"), let dash = file.lastIndex(of: "-"),
              case let key = file[..<dash], CoverKey.isWellFormed(key),
              let size = CoverSize(name: file[file.index(after: dash)...].dropLast(4))
        else { throw Self.noSuchCover }
        if let bytes = await cache.read(String(key), size) { return Self.image(bytes) }
        guard let cover = try await store.cover(key: String(key)) else { return placeholderResponse() }
        switch cover.status {
        case .ready, .evicted:
            // Its files went (room made, a restored backup): fetched again, now.
            try await store.markEvicted(keys: [cover.key])
            try await store.fetchAgain(key: cover.key)
        case .pending:
            break
        case .failed:
            return placeholderResponse()
        }
        fetcher.hurry(cover)
        await fetcher.waitUntilSettled(cover.key, timeout: Self.patience)
        if let bytes = await cache.read(cover.key, size) { return Self.image(bytes) }
        return placeholderResponse()
    }

    private static func image(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/jpeg", .cacheControl: "public, max-age=31536000, immutable"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    private func placeholderResponse() -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: placeholder))
        )
    }

    static let noSuchCover = PageError(.notFound, title: Translations.marked("Cover not found"), message: Translations.marked("There is no such cover here."))
}
