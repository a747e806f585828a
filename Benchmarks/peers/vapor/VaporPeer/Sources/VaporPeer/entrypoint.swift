import Logging
import Vapor

/// `VaporPeer serve --env production --hostname 127.0.0.1 --port 8091 --log warning`, with the
/// app's SQLite file in `DATABASE_PATH`. Vapor's own command line: `serve`, `migrate`, `routes`.
@main
enum Entrypoint {
    static func main() async throws {
        var env = try Environment.detect()
        try LoggingSystem.bootstrap(from: &env)

        let app = try await Application.make(env)
        do {
            try await configure(app)
            try await app.execute()
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
