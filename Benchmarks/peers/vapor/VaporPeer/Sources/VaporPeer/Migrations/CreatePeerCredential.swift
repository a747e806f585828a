import Fluent
import Vapor

/// The peer's own table of password hashes, in the peer's own database (see configure.swift).
struct CreatePeerCredential: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PeerCredential.schema)
            .field("id", .int, .identifier(auto: true))
            .field("username", .string, .required)
            .field("password_hash", .string, .required)
            .unique(on: "username")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PeerCredential.schema).delete()
    }
}

/// The benchmark's user: `bench` with the benchmark's password, hashed with Bcrypt (cost 12,
/// Vapor's default). `BENCH_PASSWORD` changes the password the first time migrations run.
struct SeedBenchCredential: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let password = Environment.get("BENCH_PASSWORD") ?? "bench-password-2026"
        try await PeerCredential(username: "bench", passwordHash: Bcrypt.hash(password)).create(on: database)
    }

    func revert(on database: any Database) async throws {
        try await PeerCredential.query(on: database).filter(\.$username == "bench").delete()
    }
}
