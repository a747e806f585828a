import Fluent
import FluentSQLiteDriver
import Leaf
import Vapor

/// Wires the peer up the way Vapor's documentation does: Fluent on SQLite, Leaf views, sessions,
/// then migrations and routes.
func configure(_ app: Application) async throws {
    // The app's database file (made by the app itself; see make-database.py): the default
    // database, which the page reads. No migration of the peer touches it.
    guard let path = Environment.get("DATABASE_PATH"), !path.isEmpty else {
        throw Abort(.internalServerError, reason: "Set DATABASE_PATH to the app's SQLite file.")
    }
    app.databases.use(.sqlite(.file(path)), as: .sqlite, isDefault: true)
    // The peer's own state (its password table, Fluent's migration log, Fluent sessions when
    // chosen) in a second SQLite file: `PEER_DATABASE_PATH`, else vapor-peer.sqlite beside the app's.
    let peerPath = Environment.get("PEER_DATABASE_PATH")
        ?? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("vapor-peer.sqlite").path
    app.databases.use(.sqlite(.file(peerPath)), as: .peer, isDefault: false)

    // Bound to loopback; `serve --hostname/--port` on the command line win over these.
    app.http.server.configuration.hostname = Environment.get("HOST") ?? "127.0.0.1"
    app.http.server.configuration.port = Environment.get("PORT").flatMap(Int.init) ?? 8091

    // Templates live in Resources/Views of this package, wherever the process was started.
    app.directory = DirectoryConfiguration(workingDirectory: packageDirectory(app))
    app.views.use(.leaf)

    // Sessions: Vapor's memory driver unless PEER_SESSIONS=fluent (see README.md).
    if Environment.get("PEER_SESSIONS") == "fluent" {
        app.sessions.use(.fluent(.peer))
        app.migrations.add(SessionRecord.migration, to: .peer)
    } else {
        app.sessions.use(.memory)
    }
    // Vapor's cookie (`vapor-session`), made HttpOnly: no script needs to read it.
    app.sessions.configuration = .init(cookieName: "vapor-session") { id in
        HTTPCookies.Value(string: id.string, expires: Date(timeIntervalSinceNow: 7 * 86_400), isSecure: false, isHTTPOnly: true, sameSite: .lax)
    }
    app.middleware.use(app.sessions.middleware)

    app.migrations.add(CreatePeerCredential(), to: .peer)
    app.migrations.add(SeedBenchCredential(), to: .peer)
    try await app.autoMigrate()

    try routes(app)
}

/// The folder holding Package.swift and Resources/: the working directory when it has the views,
/// else the package this binary was built from.
private func packageDirectory(_ app: Application) -> String {
    let fromWorkingDirectory = app.directory.workingDirectory
    if FileManager.default.fileExists(atPath: fromWorkingDirectory + "Resources/Views/list.leaf") {
        return fromWorkingDirectory
    }
    // Sources/VaporPeer/configure.swift -> the package root.
    let source = URL(fileURLWithPath: #filePath)
    return source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/"
}

extension DatabaseID {
    /// The peer's own SQLite file.
    static let peer = DatabaseID(string: "peer")
}
