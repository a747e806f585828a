import Crypto
import Foundation
import NIOCore
import WishlistTemplates

/// The files of `Public/`, read once when the server starts, each with its content hash and, for
/// text, its gzipped bytes (compressed once, here, not per request). Pages link them through
/// ``urls`` (`/static/style.css?v=<hash>`), which may be cached for a year: a new file has a new
/// hash, so a new URL. The directory is a few tens of kilobytes.
///
/// In development (`server.devMode`) the directory is read again on every request, like the
/// templates, so an edited stylesheet shows on reload.
struct StaticFiles: Sendable {
    struct File: Sendable {
        let bytes: ByteBuffer
        /// The gzipped bytes, where that makes the file smaller and its type is text.
        let gzipped: ByteBuffer?
        let contentType: String
        /// The first 16 hex digits of the SHA-256 of `bytes`.
        let hash: String
    }

    struct Snapshot: Sendable {
        let files: [String: File]
        /// For the templates: `assets.style_css` is `/static/style.css?v=<hash>`, for every file
        /// (the name's dots and dashes made underscores).
        let urls: TemplateValue
        /// `style.css` as the pages carry it, inline or linked; the file is served as they carry it.
        let stylesheet: PageStylesheet?
        /// The placeholder jacket as a `data:` URL, for the book's own page (``inlineSVG(_:)``).
        let coverPlaceholder: String?
    }

    private let directory: String
    private let reload: Bool
    private let loaded: Snapshot

    init(directory: String, reload: Bool) {
        self.directory = directory
        self.reload = reload
        self.loaded = Self.load(directory)
    }

    var current: Snapshot { reload ? Self.load(directory) : loaded }
    /// Whether ``current`` reads the directory again each time (development).
    var reloads: Bool { reload }

    static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "ico": "image/x-icon",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
    ]

    /// The manifest is read last: it names icons, and gets their versioned URLs.
    static let manifestName = "manifest.webmanifest"

    static func load(_ directory: String) -> Snapshot {
        let root = URL(fileURLWithPath: directory, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var contents: [String: Data] = [:]
        for name in names where !name.hasPrefix(".") {
            contents[name] = FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
        }
        let stylesheet = contents[PageStylesheet.fileName].flatMap { PageStylesheet(css: String(decoding: $0, as: UTF8.self)) }
        // One sheet, whether a page carries it or links it: the same text, so the same hash.
        if let stylesheet { contents[PageStylesheet.fileName] = Data(stylesheet.text.utf8) }
        var files: [String: File] = [:]
        var urls: [String: String] = [:]
        for (name, data) in contents where name != manifestName {
            files[name] = file(name, data)
            urls[name] = versionedURL(name, hash: files[name]!.hash)
        }
        if let manifest = contents[manifestName] {
            files[manifestName] = file(manifestName, versioningIcons(in: manifest, urls))
        }
        let templateURLs = Dictionary(uniqueKeysWithValues: urls.map { name, url in
            (String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" }), TemplateValue.string(url))
        })
        return Snapshot(
            files: files, urls: .dictionary(templateURLs), stylesheet: stylesheet, coverPlaceholder: contents[placeholderName].map(inlineSVG)
        )
    }

    /// The jacket shown for a book without a cover. A book's own page carries it in its HTML
    /// (``Snapshot/coverPlaceholder``), as it carries a real cover: there it is the largest
    /// picture, painted with the page rather than a round trip after it.
    static let placeholderName = "cover-placeholder.svg"

    /// An SVG file as a `data:` URL, without its comments and the spaces between its tags, the
    /// characters a URL or an attribute cannot hold as they are percent-encoded.
    static func inlineSVG(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
            .replacing(/<!--.*?-->/.dotMatchesNewlines(), with: "")
            .replacing(/>\s+</, with: "><")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let reserved: [Character: String] = ["%": "%25", "\"": "%22", "'": "%27", "<": "%3C", ">": "%3E", "#": "%23", "&": "%26", "\n": "%0A"]
        return "data:image/svg+xml," + text.map { reserved[$0] ?? String($0) }.joined()
    }

    private static func file(_ name: String, _ data: Data) -> File {
        let bytes = ByteBuffer(bytes: data)
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let contentType = contentTypes[ext] ?? "application/octet-stream"
        let hash = contentHash(data)
        var gzipped: ByteBuffer?
        if CompressionMiddleware<AppRequestContext>.kind(ofContentType: contentType) != nil,
           let compressed = Gzip.compress(bytes, level: Gzip.staticLevel), compressed.readableBytes < bytes.readableBytes {
            gzipped = compressed
        }
        return File(bytes: bytes, gzipped: gzipped, contentType: contentType, hash: hash)
    }

    /// The first 16 hex digits of the SHA-256 of `data`: a file's version in its URL.
    static func contentHash(_ data: Data) -> String {
        SHA256.hash(data: data).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// `/static/NAME?v=<hash>`, as pages link a file of `Public/`.
    static func versionedURL(_ name: String, hash: String) -> String {
        StaticFilesMiddleware.prefix + "/" + name + "?v=" + hash
    }

    /// The manifest's `"/static/NAME"` icons at the URLs the pages use (`?v=<hash>`): the browser
    /// fetches the manifest's icon beside the page's, and with the same URL a cached copy serves
    /// both instead of a second download (issue 34).
    private static func versioningIcons(in manifest: Data, _ urls: [String: String]) -> Data {
        var text = String(decoding: manifest, as: UTF8.self)
        for (name, url) in urls {
            text = text.replacingOccurrences(of: "\"" + StaticFilesMiddleware.prefix + "/" + name + "\"", with: "\"" + url + "\"")
        }
        return Data(text.utf8)
    }
}
