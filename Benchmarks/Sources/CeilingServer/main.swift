import Foundation
import Hummingbird
import Logging

// The ceilings for `make bench`: Hummingbird (the app's version and traits) with no middleware, no
// database, no templates, answering
//
// - `/` with a fixed 3-byte body, the HTTP stack's ceiling;
// - `/pages/NAME` with the bytes of `DIRECTORY/NAME.html`, read once at start: the same bytes a
//   page of the app served, from memory. A page's share of its own bytes ceiling is what the app
//   costs beyond moving those bytes.
//
// usage: ceiling-server [PORT] [DIRECTORY]   (listens on 127.0.0.1 only; stops on SIGTERM or Ctrl-C)

let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap { Int($0) } ?? 8090
let pages = try arguments.dropFirst().first.map(savedPages(in:)) ?? [:]

/// Every `NAME.html` in `directory`, by NAME.
func savedPages(in directory: String) throws -> [String: ByteBuffer] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".html") }
    return try Dictionary(uniqueKeysWithValues: names.map { name in
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
        return (String(name.dropLast(".html".count)), ByteBuffer(bytes: bytes))
    })
}

let hello = ByteBuffer(string: "ok\n")
let router = Router()
router.get("/") { _, _ in
    Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: hello))
}
router.get("/pages/:name") { _, context in
    guard let page = context.parameters.get("name").flatMap({ pages[$0] }) else { return Response(status: .notFound) }
    // The app's page headers that cost something to write: the type and no-store.
    return Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: page)
    )
}

var logger = Logger(label: "ceiling-server")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
    logger: logger
)
try await app.runService()
