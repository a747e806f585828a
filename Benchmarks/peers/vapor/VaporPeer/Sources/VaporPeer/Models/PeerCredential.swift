import Fluent
import Vapor

/// The peer's own password record (Bcrypt), table `vapor_peer_credential` in the peer's own
/// database (`.peer`): the app's Argon2 hashes are left alone. A credential signs in the app's
/// `user` row whose `username_key` is its lower-cased username.
final class PeerCredential: Model, @unchecked Sendable {
    static let schema = "vapor_peer_credential"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "username")
    var username: String

    @Field(key: "password_hash")
    var passwordHash: String

    init() {}

    init(username: String, passwordHash: String) {
        self.username = username
        self.passwordHash = passwordHash
    }
}

extension PeerCredential: ModelCredentialsAuthenticatable {
    static let usernameKey = \PeerCredential.$username
    static let passwordHashKey = \PeerCredential.$passwordHash

    func verify(password: String) throws -> Bool {
        try Bcrypt.verify(password, created: self.passwordHash)
    }
}
