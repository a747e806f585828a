import CArgon2
#if canImport(CMalloc)
import CMalloc
#endif
import Foundation
import NIOPosix
import Synchronization

/// Argon2id password hashing through libargon2, on threads of its own.
///
/// Each hash holds `memoryKiB` of memory and a core for tens of milliseconds, so at most
/// `maxConcurrent` run at once and at most `maxWaiting` more may queue behind them; past that the
/// caller gets `PasswordHasher.Busy` at once (a 503), instead of a pile-up that would starve the
/// rest of the server of memory and time.
public final class PasswordHasher: Sendable {
    public struct Busy: Error {}

    public static let saltBytes = 16
    public static let hashBytes = 32

    private let parameters: AppConfig.Argon2
    private let threadPool: NIOThreadPool
    private let capacity: Int
    private let admitted = Atomic<Int>(0)
    /// A real hash of a random password: unknown users are checked against it, so they cost the
    /// same time as known ones and answer no faster.
    private let dummyHash: String
    let pacing: VerificationPacing

    public convenience init(parameters: AppConfig.Argon2, maxConcurrent: Int, maxWaiting: Int) throws {
        try self.init(parameters: parameters, maxConcurrent: maxConcurrent, maxWaiting: maxWaiting, pacingClock: .real)
    }

    init(parameters: AppConfig.Argon2, maxConcurrent: Int, maxWaiting: Int, pacingClock: VerificationPacing.Clock) throws {
        self.parameters = parameters
        self.capacity = maxConcurrent + maxWaiting
        self.threadPool = ThreadPools.process.start(threads: maxConcurrent)
        self.pacing = VerificationPacing(clock: pacingClock)
        // Making the dummy hash costs what checking against it costs: the first measure of the floor.
        self.dummyHash = try pacing.measured(parameterSet: Self.parameterSet(parameters)) {
            try Self.encode(password: SecureRandom.token(), salt: SecureRandom.bytes(Self.saltBytes), parameters: parameters)
        }
    }

    deinit {
        ThreadPools.process.close(threadPool)
    }

    /// A PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) for `password` with a fresh salt.
    public func hash(_ password: String) async throws -> String {
        let parameters = self.parameters
        let salt = SecureRandom.bytes(Self.saltBytes)
        return try await run { try Self.encode(password: password, salt: salt, parameters: parameters) }
    }

    /// Whether `password` matches `encoded`; with no stored hash, checks against the dummy hash
    /// (and answers false) so the caller's timing does not reveal that the account is missing.
    /// Every check takes as long as one against the dearest parameters in use (`VerificationPacing`).
    public func verify(_ password: String, against encoded: String?) async throws -> Bool {
        let target = encoded ?? dummyHash
        let pacing = self.pacing
        let parameterSet = Self.parameterSet(of: target)
        let matches = try await run { pacing.paced(parameterSet: parameterSet) { Self.verify(password: password, encoded: target) } }
        return matches && encoded != nil
    }

    /// Whether a stored hash was made with other parameters than the configured ones.
    public func needsRehash(_ encoded: String) -> Bool {
        Self.parameterSet(of: encoded) != Self.parameterSet(parameters)
    }

    /// Measures what a check costs with each of `parameterSets` (as stored hashes spell them,
    /// `m=…,t=…,p=…`), so that the first sign-in against an old hash already meets the floor.
    public func calibrate(storedParameterSets: [String]) async throws {
        let pacing = self.pacing
        for parameterSet in storedParameterSets where parameterSet != Self.parameterSet(parameters) {
            guard let old = AppConfig.Argon2(parameterSet: parameterSet) else { continue }
            _ = try await run {
                try pacing.measured(parameterSet: parameterSet) {
                    try Self.encode(password: SecureRandom.token(), salt: SecureRandom.bytes(Self.saltBytes), parameters: old)
                }
            }
        }
    }

    /// `m=19456,t=2,p=1`: the parameters as a PHC string names them.
    static func parameterSet(_ parameters: AppConfig.Argon2) -> String {
        "m=\(parameters.memoryKiB),t=\(parameters.iterations),p=\(parameters.parallelism)"
    }

    /// The parameter field of a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
    static func parameterSet(of encoded: String) -> String {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        return fields.count > 3 ? String(fields[3]) : ""
    }

    /// Hashes admitted and not yet finished, running or waiting.
    package var admittedCount: Int { admitted.load(ordering: .relaxed) }

    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let previouslyAdmitted = admitted.add(1, ordering: .relaxed).oldValue
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard previouslyAdmitted < capacity else { throw Busy() }
        return try await threadPool.runIfActive {
            Self.releaseFreeHeap()
            return try work()
        }
    }

    /// Gives the kernel back the free memory the heaps hold, before a hash takes its block
    /// (`memoryKiB`, 19 MiB): the server's peak memory is that block on top of what the heaps
    /// hold then, and after a while of serving pages about 3 MB of that is free. Outside the
    /// paced part of a check: it costs the same whether or not the account exists.
    private static func releaseFreeHeap() {
        #if canImport(CMalloc)
        _ = malloc_trim(0)
        #endif
    }

    // MARK: libargon2

    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "argon2: " + String(cString: argon2_error_message(code)) }
    }

    private static func encode(password: String, salt: [UInt8], parameters: AppConfig.Argon2) throws -> String {
        let (t, m, p) = (UInt32(parameters.iterations), UInt32(parameters.memoryKiB), UInt32(parameters.parallelism))
        let length = argon2_encodedlen(t, m, p, UInt32(salt.count), UInt32(hashBytes), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let password = Array(password.utf8)
        let status = argon2id_hash_encoded(t, m, p, password, password.count, salt, salt.count, hashBytes, &encoded, length)
        guard status == ARGON2_OK.rawValue else { throw Failure(code: status) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func verify(password: String, encoded: String) -> Bool {
        let password = Array(password.utf8)
        return argon2id_verify(encoded, password, password.count) == ARGON2_OK.rawValue
    }
}

package extension AppConfig.Argon2 {
    /// Reads `m=…,t=…,p=…`; nil for anything else, or values libargon2 would refuse.
    init?(parameterSet: String) {
        var values: [Substring: Int] = [:]
        for field in parameterSet.split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]), value > 0, value <= 1 << 22 else { return nil }
            values[pair[0]] = value
        }
        guard values.count == 3, let m = values["m"], let t = values["t"], let p = values["p"] else { return nil }
        self.init(memoryKiB: m, iterations: t, parallelism: p)
    }
}
