import Foundation
import GRDB
import Synchronization

/// A Goodreads export added to a member's wishlist (the to-read shelf) and books read (the read
/// shelf): all of it, or, when anything fails, nothing.
///
/// SQLite has one writer, and every sign-in, add or reservation waits for it. One transaction for
/// a 5,000-row import held it for 15 s in a debug build (issue 50), so the import is written in
/// slices instead, each a transaction of at most ``Slice/rows`` rows and about ``Slice/duration``,
/// and others' writes go in between. What makes it all or nothing is the import's id (migration
/// 28): every row it writes carries it, and a failure deletes them again, in slices too. A process
/// that dies in the middle leaves its `goodreads_import` row, and the next start does the same
/// (``rollBackUnfinished(userID:)``). Meanwhile the member's pages show the import as far as it
/// has come, as if she were adding the books very fast (docs/decisions/imports-in-slices.md).
///
/// Catalog matching and what is there already are read first, outside the writer. A member runs
/// one import at a time: a second, while the first runs, is refused (``Outcome/alreadyImporting``),
/// so that two never count each other's books as new.
public final class GoodreadsImporter: Sendable {
    /// How much one transaction may write: up to `rows` rows, and no row begun once `duration`
    /// has passed.
    public struct Slice: Sendable {
        public var rows: Int
        public var duration: Duration

        public init(rows: Int, duration: Duration) {
            self.rows = rows
            self.duration = duration
        }

        /// About 20 ms in a release build, so that a write waits for at most about that (a sign-in
        /// writes three times); a debug build runs fewer rows in the same time. Shorter costs more:
        /// each commit writes again the pages every slice changes (Benchmarks/history.md, "An
        /// import's slices of 20 ms").
        public static let standard = Slice(rows: 1000, duration: .milliseconds(20))
    }

    public enum Outcome: Sendable, Equatable {
        case imported(WishlistImportSummary)
        /// Another import of this member's is under way; nothing was done.
        case alreadyImporting
    }

    let database: AppDatabase
    let slice: Slice
    /// Runs after each slice of an import has committed, while the writer is free: a test's seam,
    /// which pauses an import between slices or fails it there.
    let betweenSlices: @Sendable () async throws -> Void
    /// The members whose import is under way in this process.
    private let importing = Mutex<Set<UserID>>([])
    private let checkpoints: ImportCheckpoints

    public init(database: AppDatabase, slice: Slice = .standard, betweenSlices: @escaping @Sendable () async throws -> Void = {}) {
        self.database = database
        self.slice = slice
        self.betweenSlices = betweenSlices
        checkpoints = ImportCheckpoints(path: database.pool.path)
    }

    /// Imports `books` for the member, her wishes onto `list` (one of hers, which the caller
    /// checked) or her default list. When it throws, nothing of it is left (or, should even
    /// deleting it fail, it is deleted at the next start or her next import).
    public func run(_ books: [GoodreadsImportedBook], userID: UserID, list: ListID? = nil, at now: Date) async throws -> Outcome {
        guard importing.withLock({ $0.insert(userID).inserted }) else { return .alreadyImporting }
        do {
            let outcome = try await importBooks(books, userID: userID, list: list, at: now)
            await finished(userID)
            return outcome
        } catch {
            await finished(userID)
            throw error
        }
    }

    private func importBooks(_ books: [GoodreadsImportedBook], userID: UserID, list: ListID?, at now: Date) async throws -> Outcome {
        try await rollBackUnfinished(userID: userID)
        let importID = try await database.write { db in
            try db.execute(sql: ImportWriterSettings.importing)
            try db.execute(sql: "INSERT INTO goodreads_import (user_id, started_at) VALUES (?, ?)", arguments: [userID, StoredDate(now)])
            return ImportID(db.lastInsertedRowID)
        }
        do {
            let summary = try await write(books, importID: importID, userID: userID, list: list, at: now)
            try await database.write { db in try Self.finish(importID: importID, userID: userID, db) }
            return .imported(summary)
        } catch {
            // In a task of its own, so that a request cancelled meanwhile still takes its rows away.
            await Task { try? await rollBack(importID: importID) }.value
            throw error
        }
    }

    /// The member's import is over: the writer goes back to the settings of every other write,
    /// unless another member's import runs. Decided in the writer's turn, so that an import
    /// beginning meanwhile sets its own settings after this.
    private func finished(_ userID: UserID) async {
        _ = importing.withLock { $0.remove(userID) }
        // In a task of its own, so that a request cancelled meanwhile still puts them back.
        await Task { [self] in
            try? await database.pool.writeWithoutTransaction { db in
                guard self.importing.withLock({ $0.isEmpty }) else { return }
                try db.execute(sql: ImportWriterSettings.notImporting)
            }
        }.value
    }

    /// Deletes what the imports left that never finished: all of them at start, before the
    /// server takes requests, or the member's own before she imports again.
    public func rollBackUnfinished(userID: UserID? = nil) async throws {
        let unfinished = try await database.pool.read { db in
            try ImportID.fetchAll(db, sql: "SELECT id FROM goodreads_import WHERE ?1 IS NULL OR user_id = ?1", arguments: [userID])
        }
        for importID in unfinished {
            try await rollBack(importID: importID)
        }
    }

    // MARK: Writing

    /// What an import has done so far, handed from one slice's transaction to the next.
    private final class Progress: Sendable {
        struct State {
            var next = 0
            var summary = WishlistImportSummary()
            var wishes: PresentBooks
            var readings: PresentBooks
        }

        let rows: [(book: GoodreadsImportedBook, match: CatalogBook)]
        let state: Mutex<State>

        init(rows: [(book: GoodreadsImportedBook, match: CatalogBook)], wishes: PresentBooks, readings: PresentBooks) {
            self.rows = rows
            state = Mutex(State(wishes: wishes, readings: readings))
        }
    }

    private func write(_ books: [GoodreadsImportedBook], importID: ImportID, userID: UserID, list: ListID?, at now: Date) async throws -> WishlistImportSummary {
        // The wishes first, then the readings; each book copied once, into its row.
        let shelved = books.indices.filter { books[$0].shelf == .toRead } + books.indices.filter { books[$0].shelf == .read }
        let progress = try await database.pool.read { db in
            let matches = try WishlistStore.matchCatalog(books, db)
            return Progress(
                rows: shelved.map { (books[$0], matches[$0]) },
                wishes: try PresentBooks(userID: userID, table: "wishlist_item", db),
                readings: try PresentBooks(userID: userID, table: "reading", db)
            )
        }
        try await inSlices(then: betweenSlices) { db, limit in
            try progress.state.withLock { state in
                let rows = progress.rows[state.next..<min(state.next + min(limit, WishlistStore.importedWishesAStatement), progress.rows.count)]
                try Self.add(rows, importID: importID, userID: userID, list: list, at: now, &state, db)
                state.next = rows.endIndex
                return rows.count
            }
        }
        return progress.state.withLock { $0.summary }
    }

    /// Rows of the file: each a wish or a reading, unless the member has the book already. The
    /// wishes among them are written together, after the books they need, up to
    /// ``WishlistStore/importedWishesAStatement`` a statement.
    private static func add(
        _ rows: ArraySlice<(book: GoodreadsImportedBook, match: CatalogBook)>, importID: ImportID, userID: UserID, list: ListID?, at now: Date,
        _ state: inout Progress.State, _ db: Database
    ) throws {
        var wishes: [WishlistStore.ImportedWish] = []
        for (imported, match) in rows {
            switch imported.shelf {
            case .toRead:
                if let book = try state.wishes.insertGivingABook(match, at: now, importID: importID, db) {
                    wishes.append(WishlistStore.ImportedWish(book: book, note: imported.notes, addedAt: imported.dateAdded ?? now))
                } else {
                    state.summary.alreadyPresent += 1
                }
            case .read:
                if let book = try state.readings.insertGivingABook(match, at: now, importID: importID, db),
                   try ReadingStore.insertImported(book, imported, userID: userID, at: now, importID: importID, db) {
                    state.summary.readAdded += 1
                } else {
                    state.summary.readAlreadyPresent += 1
                }
            }
        }
        let added = try WishlistStore.insertImported(wishes, userID: userID, importID: importID, db)
        // Moved in the rows' own transaction: a wish bound for a private list is never seen on the default one.
        if let list {
            for itemID in added { _ = try WishListStore.place(itemID: itemID, on: [list], ownerID: userID, db) }
        }
        state.summary.added += added.count
        state.summary.alreadyPresent += wishes.count - added.count
    }

    /// The last step, in one transaction: the gift ideas for books she now wishes for become
    /// reservations of her new wishes (as when she adds a book herself), and the import is done.
    /// Until here a failure takes everything away, ideas included.
    private static func finish(importID: ImportID, userID: UserID, _ db: Database) throws {
        let wished = try Row.fetchAll(
            db,
            sql: """
                SELECT wishlist_item.id, wishlist_item.book_id FROM gift_idea
                JOIN wishlist_item ON wishlist_item.user_id = gift_idea.owner_id AND wishlist_item.book_id = gift_idea.book_id
                WHERE gift_idea.owner_id = ? AND wishlist_item.import_id = ?
                """,
            arguments: [userID, importID]
        )
        for wish in wished {
            try WishlistStore.absorbIdea(bookID: wish["book_id"], into: wish["id"], ownerID: userID, db)
        }
        try db.execute(sql: "DELETE FROM goodreads_import WHERE id = ?", arguments: [importID])
    }

    // MARK: Rolling back

    /// Deletes every row the import wrote, its wishes and readings, then the books it added
    /// that nobody else has come to use meanwhile, then the import itself.
    private func rollBack(importID: ImportID) async throws {
        for table in ["wishlist_item", "reading"] {
            try await inSlices { db, _ in
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = (SELECT id FROM \(table) WHERE import_id = ? LIMIT 1)")
                    .execute(arguments: [importID])
                return db.changesCount
            }
        }
        try await inSlices { db, _ in
            try db.cachedStatement(sql: """
                DELETE FROM book WHERE id = (
                    SELECT id FROM book WHERE import_id = ?1 AND source = 'added'
                        AND NOT EXISTS (SELECT 1 FROM wishlist_item WHERE book_id = book.id)
                        AND NOT EXISTS (SELECT 1 FROM reading WHERE book_id = book.id)
                        AND NOT EXISTS (SELECT 1 FROM received_item WHERE book_id = book.id)
                        AND NOT EXISTS (SELECT 1 FROM gift_idea WHERE book_id = book.id)
                    LIMIT 1)
                """).execute(arguments: [importID])
            return db.changesCount
        }
        try await database.write { db in
            try db.execute(sql: "DELETE FROM goodreads_import WHERE id = ?", arguments: [importID])
        }
    }

    /// Runs `step` (some rows' work, at most the count it is given; how many it did, 0 once none
    /// is left) in transactions of at most `slice.rows` rows, each ended once `slice.duration` has
    /// passed, with the log's checkpoint when one is due and `pause` after each.
    private func inSlices(then pause: @Sendable () async throws -> Void = {}, _ step: @escaping @Sendable (Database, Int) throws -> Int) async throws {
        let slice = self.slice
        var more = true
        while more {
            more = try await database.pool.writeWithoutTransaction { db in
                try ImportWriterSettings.slice(db) {
                    var more = true
                    try db.inTransaction {
                        let deadline = ContinuousClock.now.advanced(by: slice.duration)
                        var rows = 0
                        while rows < slice.rows {
                            let done = try step(db, slice.rows - rows)
                            guard done > 0 else {
                                more = false
                                break
                            }
                            rows += done
                            if ContinuousClock.now >= deadline { break }
                        }
                        return .commit
                    }
                    return more
                }
            }
            await checkpoints.afterSlice()
            try await pause()
        }
    }
}
