import Hummingbird
import Logging

// The ceiling for `make bench`: Hummingbird (the app's version and traits) answering one route
// with a fixed short body, no middleware, no database, no templates. Whatever the app reaches is
// measured against this, on the same machine, under the same wrk load.
//
// usage: ceiling-server [PORT]   (listens on 127.0.0.1 only; stops on SIGTERM or Ctrl-C)

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8090
let body = ByteBuffer(string: "ok\n")

let router = Router()
router.get("/") { _, _ in
    Response(
        status: .ok,
        headers: [.contentType: "text/plain; charset=utf-8"],
        body: ResponseBody(byteBuffer: body)
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
