import Foundation
import NIOPosix
import Synchronization

/// The cover files, `{key}-{width}.jpg`, in a folder beside the database: re-fetchable, so
/// outside backups. Past `capacityBytes` the covers least recently served go, both sizes at
/// once. Which were served when is kept in memory; after a restart the files' times stand in
/// for it. Every file operation runs on a thread of its own, never on an event loop.
package final class CoverCache: Sendable {
    package let directory: URL
    let capacityBytes: Int
    private let threadPool: NIOThreadPool
    private let state: Mutex<State>

    private struct State {
        /// Both files' bytes, by key.
        var sizes: [String: Int] = [:]
        var total = 0
        /// A counter's value at each key's last use: a larger one is more recent.
        var lastUse: [String: UInt64] = [:]
        var clock: UInt64 = 0

        mutating func use(_ key: String) {
            clock += 1
            lastUse[key] = clock
        }
    }

    /// Creates the folder (0700) if needed and counts what is in it.
    package init(directory: URL, capacityBytes: Int) throws {
        self.directory = directory
        self.capacityBytes = capacityBytes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.state = Mutex(try Self.survey(directory))
        self.threadPool = ThreadPools.process.start(threads: 1)
    }

    deinit {
        ThreadPools.process.close(threadPool)
    }

    /// The folder for the database at `databasePath`: `covers/` beside it.
    package static func directory(besideDatabase databasePath: String) -> URL {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("covers", isDirectory: true)
    }

    package func contains(_ key: String) -> Bool {
        state.withLock { $0.sizes[key] != nil }
    }

    package var storedBytes: Int { state.withLock { $0.total } }

    /// Writes both sizes (each to a temporary name, then renamed, so a reader never sees half a
    /// file) and returns the keys deleted to stay under the capacity. A write that fails (a full
    /// disk) throws `CoverCache.WriteFailure` and leaves no temporary file taking up room.
    package func store(_ cover: ProcessedCover, key: String) async throws -> [String] {
        let directory = self.directory
        try await threadPool.runIfActive {
            let files = [(CoverSize.small, cover.small), (.large, cover.large)].map { size, bytes in
                let name = Self.fileName(key, size)
                let temporary = directory.appendingPathComponent(".\(name).partial")
                return (bytes, final: directory.appendingPathComponent(name), temporary: temporary)
            }
            do {
                for (bytes, final, temporary) in files {
                    try Data(bytes).write(to: temporary)
                    guard rename(temporary.path, final.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
            } catch {
                for file in files { unlink(file.temporary.path) }
                throw WriteFailure(reason: String(describing: error))
            }
        }
        let evicted = state.withLock { state in
            state.total += cover.small.count + cover.large.count - (state.sizes[key] ?? 0)
            state.sizes[key] = cover.small.count + cover.large.count
            state.use(key)
            return evictions(&state)
        }
        try await delete(evicted)
        return evicted
    }

    /// A size of a stored cover, or nil when its file is not there.
    package func read(_ key: String, _ size: CoverSize) async -> [UInt8]? {
        guard contains(key) else { return nil }
        let path = directory.appendingPathComponent(Self.fileName(key, size)).path
        let bytes = (try? await threadPool.runIfActive { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }) ?? nil
        guard let bytes else {
            forget([key])
            return nil
        }
        state.withLock { $0.use(key) }
        return bytes
    }

    /// Keys no longer to count as stored (their files went missing).
    package func forget(_ keys: [String]) {
        state.withLock { state in
            for key in keys {
                state.total -= state.sizes.removeValue(forKey: key) ?? 0
                state.lastUse[key] = nil
            }
        }
    }

    /// The folder would not take a cover's files: the disk is full or the folder not writable.
    package struct WriteFailure: Error, CustomStringConvertible {
        package let reason: String
        package var description: String { reason }
    }

    // MARK: Inside

    static func fileName(_ key: String, _ size: CoverSize) -> String { "\(key)-\(size.name).jpg" }

    /// The least recently used keys to delete until the total is under the capacity.
    private func evictions(_ state: inout State) -> [String] {
        var evicted: [String] = []
        while state.total > capacityBytes, let oldest = state.lastUse.min(by: { $0.value < $1.value })?.key {
            state.total -= state.sizes.removeValue(forKey: oldest) ?? 0
            state.lastUse[oldest] = nil
            evicted.append(oldest)
        }
        return evicted
    }

    private func delete(_ keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        let directory = self.directory
        try await threadPool.runIfActive {
            for key in keys {
                for size in CoverSize.allCases { unlink(directory.appendingPathComponent(Self.fileName(key, size)).path) }
            }
        }
    }

    /// The covers in the folder with both sizes present, oldest-modified first as least used.
    private static func survey(_ directory: URL) throws -> State {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        var files: [String: (bytes: Int, modified: Date)] = [:]
        // A write the process did not live to finish.
        for name in names where name.hasSuffix(".partial") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        for name in names where name.hasSuffix(".jpg") && !name.hasPrefix(".") {
            let key = String(name.prefix(CoverKey.length))
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            let bytes = (attributes?[.size] as? Int) ?? 0
            let modified = (attributes?[.modificationDate] as? Date) ?? .distantPast
            let known = files[key]
            files[key] = ((known?.bytes ?? 0) + bytes, max(known?.modified ?? .distantPast, modified))
        }
        var state = State()
        for (key, file) in files.sorted(by: { $0.value.modified < $1.value.modified })
        where CoverSize.allCases.allSatisfy({ names.contains(fileName(key, $0)) }) {
            state.sizes[key] = file.bytes
            state.total += file.bytes
            state.use(key)
        }
        return state
    }
}
