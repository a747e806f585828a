import Foundation
import GRDB

/// A book on a user's wishlist, with its own copy of what the user saw when adding it.
public struct WishlistItem: Sendable, Equatable {
    public let id: ItemID
    public let bookID: String?
    public let title: String
    public let author: String
    public let publisher: String
    public let description: String
    public let isbn10: String
    public let isbn13: String
    public let imageURL: String?
    public let imageWidth: Int
    public let imageHeight: Int
    /// Where to buy it and read about it, as stored (JSON), decoded only by what shows them: a
    /// wishlist page of fifty books decoded a hundred of these for nothing (issue 34).
    let storedBuyLinks: String
    let storedReadingLinks: String
    public let note: String
    public let priority: Priority
    public let addedAt: Date

    public var buyLinks: [CatalogBook.Link] { StoredLinks.decode(storedBuyLinks) }
    public var readingLinks: [CatalogBook.Link] { StoredLinks.decode(storedReadingLinks) }
}

public enum WishlistSort: String, Sendable, CaseIterable {
    case added, title, author, priority

    var orderBy: String {
        switch self {
        case .added: return "added_at DESC, id DESC"
        case .priority: return "priority DESC, added_at DESC, id DESC"
        // Ties end on the id, so that a wishlist cut into pages puts every item on exactly one.
        case .title: return "title COLLATE NOCASE, added_at DESC, id DESC"
        case .author: return "author COLLATE NOCASE, title COLLATE NOCASE, id DESC"
        }
    }
}

/// What an import did, for the summary the user sees.
public struct WishlistImportSummary: Sendable, Equatable {
    public var added = 0
    public var alreadyPresent = 0
    /// Books of the "read" shelf added to the books read, and those that were there already.
    public var readAdded = 0
    public var readAlreadyPresent = 0
    public var skipped: [GoodreadsImport.Skip] = []
}

/// The `wishlist_item` table. Every query is scoped to one user: another user's item id finds
/// nothing, exactly like an id that does not exist.
public struct WishlistStore: Sendable {
    public enum AddOutcome: Sendable, Equatable {
        case added(WishlistItem)
        case alreadyThere(WishlistItem)
    }

    public static let noteMaximumLength = 2000

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Adds a catalog book unless it is already there (checked and inserted in one transaction),
    /// to the default list or to `list` (one of the user's, which the caller checked): a want
    /// already there is put on `list` as well.
    /// Adds `book` with `note` and `priority` (the book page's form has both; a list row's button
    /// neither). A book already wished for keeps her note and priority: the form was a stale page's.
    public func add(
        _ book: CatalogBook, userID: UserID, list: ListID? = nil, note: String = "", priority: Priority = .normal, at now: Date
    ) async throws -> AddOutcome {
        try await database.write { db in
            if let existing = try Self.fetchOne(db, "user_id = ? AND book_id = ?", [userID, book.id]) {
                if let list {
                    try db.execute(sql: "INSERT OR IGNORE INTO wish_list_item (list_id, item_id) SELECT id, ? FROM wish_list WHERE id = ? AND user_id = ?", arguments: [existing.id, list.rawValue, userID])
                }
                return .alreadyThere(existing)
            }
            try Self.insert(book, userID: userID, note: note, priority: priority, addedAt: now, db)
            let itemID = ItemID(db.lastInsertedRowID)
            if let list {
                _ = try WishListStore.place(itemID: itemID, on: [list], ownerID: userID, db)
            }
            try Self.absorbIdea(bookID: book.id, into: itemID, ownerID: userID, db)
            return .added(try Self.fetchOne(db, "id = ?", [itemID])!)
        }
    }

    public func items(userID: UserID, sort: WishlistSort) async throws -> [WishlistItem] {
        try await database.pool.read { try Reader(db: $0).items(userID: userID, sort: sort) }
    }

    public func items(userID: UserID, sort: WishlistSort, page number: Int) async throws -> PagedList<WishlistItem> {
        try await database.pool.read { try Reader(db: $0).items(userID: userID, sort: sort, page: number) }
    }

    public func item(id: ItemID, userID: UserID) async throws -> WishlistItem? {
        try await database.pool.read { db in try Self.fetchOne(db, "id = ? AND user_id = ?", [id, userID]) }
    }

    /// Saves the note and the priority; false when the user has no such item.
    public func update(id: ItemID, userID: UserID, note: String, priority: Priority) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE wishlist_item SET note = ?, priority = ? WHERE id = ? AND user_id = ?",
                arguments: [note, priority.storedValue, id, userID]
            )
            return db.changesCount == 1
        }
    }

    /// Removes the item and returns what it was, or nil when the user has no such item.
    public func delete(id: ItemID, userID: UserID) async throws -> WishlistItem? {
        try await database.write { db in
            guard let item = try Self.fetchOne(db, "id = ? AND user_id = ?", [id, userID]) else { return nil }
            try db.execute(sql: "DELETE FROM wishlist_item WHERE id = ?", arguments: [id])
            return item
        }
    }

    public func count(userID: UserID) async throws -> Int {
        try await database.pool.read { try Reader(db: $0).count(userID: userID) }
    }

    /// Catalog book id → wishlist item id, to mark books already on the wishlist.
    public func itemIDsByBook(userID: UserID) async throws -> [String: ItemID] {
        try await database.pool.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT id, book_id FROM wishlist_item WHERE user_id = ? AND book_id IS NOT NULL"), arguments: [userID])
            return Dictionary(rows.map { ($0["book_id"] as String, $0["id"] as ItemID) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The wishlist's queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// Grows with every change to anyone's items, readings or account (migrations 12 and 14),
        /// never with a reservation: the list pages in the household's orders are kept under it.
        public func generation() throws -> Int64 {
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM wishlist_generation")) ?? 0
        }

        /// Grows with every change to the member's own items and with nothing else (migration 25):
        /// her wishlist page is kept under it, so neither the household's traffic nor a giver's
        /// reservation changes whether her next view comes from the cache.
        public func wishesGeneration(ownerID: UserID) throws -> Int64 {
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT wishes FROM owner_generation WHERE user_id = ?"), arguments: [ownerID]) ?? 0
        }

        public func items(userID: UserID, sort: WishlistSort) throws -> [WishlistItem] {
            try Row.decodeAll(db.cachedStatement(sql: "SELECT * FROM wishlist_item WHERE user_id = ? ORDER BY \(sort.orderBy)"), arguments: [userID], decoder: WishlistStore.items(in:))
        }

        /// Page `number` of the user's wishlist in `sort`'s order; a number past the last page is
        /// the last page.
        public func items(userID: UserID, sort: WishlistSort, page number: Int) throws -> PagedList<WishlistItem> {
            try PagedList.read(
                db, count: "SELECT COUNT(*) FROM wishlist_item WHERE user_id = ?", rows: "SELECT * FROM wishlist_item WHERE user_id = ? ORDER BY \(sort.orderBy)",
                arguments: [userID], page: number, decoder: WishlistStore.items(in:)
            )
        }

        /// Page `number` of the wants on one of the user's lists, in `sort`'s order, as ``items(userID:sort:page:)``.
        public func items(userID: UserID, onList list: ListID, sort: WishlistSort, page number: Int) throws -> PagedList<WishlistItem> {
            let onList = "FROM wishlist_item JOIN wish_list_item ON wish_list_item.item_id = wishlist_item.id AND wish_list_item.list_id = ? WHERE user_id = ?"
            return try PagedList.read(
                db, count: "SELECT COUNT(*) \(onList)", rows: "SELECT wishlist_item.* \(onList) ORDER BY \(sort.orderBy)",
                arguments: [list.rawValue, userID], page: number, decoder: WishlistStore.items(in:)
            )
        }

        public func count(userID: UserID) throws -> Int {
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM wishlist_item WHERE user_id = ?"), arguments: [userID]) ?? 0
        }

        /// Of these catalog books, those on the user's wishlist, with their item ids: one index
        /// lookup per book, however long the wishlist.
        public func itemIDs(userID: UserID, books: [String]) throws -> [String: ItemID] {
            guard !books.isEmpty else { return [:] }
            // One statement for any number of books: the ids go in as one JSON array, which costs
            // far less to bind than an argument per book.
            let cursor = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT book_id, id FROM wishlist_item WHERE user_id = ? AND book_id IN (SELECT value FROM json_each(?))"),
                arguments: [userID, JSONText.array(of: books)]
            )
            var items: [String: ItemID] = [:]
            while let row = try cursor.next() {
                items[row[0] as String] = row[1] as ItemID
            }
            return items
        }
    }

    /// A want an import (``GoodreadsImporter``) adds: the book, her note from the file, when she shelved it.
    struct ImportedWish {
        let book: CatalogBook
        let note: String
        let addedAt: Date
    }

    /// The most wants of an import one statement adds: beyond about ten the cost a row no longer
    /// falls, and a statement of 16 takes about a millisecond, a small part of an import's slice.
    static let importedWishesAStatement = 16

    /// Adds wants of an import, tagged with the import's id so that a failed import takes them
    /// away again; returns the ids of those added, leaving out any book the member has
    /// already (she added it herself while the import ran). Several a statement, because each
    /// statement on `wishlist_item` sets up its triggers' programs and a statement journal: a
    /// row's insert cost a quarter more alone (Benchmarks/history.md, "An import's wishes written
    /// several a statement").
    ///
    /// The want is written shared as her default list makes it (migration 30): the default list's
    /// trigger then finds nothing to change, and the row is not written twice, with every update
    /// trigger of `wishlist_item` run again for it (issue 58).
    static func insertImported(_ wishes: [ImportedWish], userID: UserID, importID: ImportID, _ db: Database) throws -> [ItemID] {
        var added: [ItemID] = []
        var rest = wishes[...]
        while !rest.isEmpty {
            // 16, 8, 4, 2 or 1 rows: five statements kept prepared, each with its triggers' programs.
            let count = 1 << (Int.bitWidth - 1 - min(rest.count, Self.importedWishesAStatement).leadingZeroBitCount)
            added += try insertImported(statementOf: rest.prefix(count), userID: userID, importID: importID, db)
            rest = rest.dropFirst(count)
        }
        try countImported(added, userID: userID, importID: importID, db)
        return added
    }

    /// What the insert triggers of `wishlist_item` do for each want added any other way, done once
    /// for the import's wants `added` (ids in the order added, all of this transaction): migration
    /// 38 has the triggers leave rows with an `import_id`, which cost a third of a wish's insert
    /// run for each row. The wishlists' and her own generation grow by one a want, each goes on
    /// her default list (whose trigger counts it for the list, as when the row's trigger put it
    /// there), and the household counts the book of each shared want while she shares. Before
    /// any move to another list, as the triggers ran before it.
    static func countImported(_ added: [ItemID], userID: UserID, importID: ImportID, _ db: Database) throws {
        // The lowest and highest: SQLite does not promise `RETURNING`'s order.
        guard let first = added.min(), let last = added.max() else { return }
        try db.cachedStatement(sql: "UPDATE wishlist_generation SET value = value + ?").execute(arguments: [added.count])
        try db.cachedStatement(
            sql: "INSERT INTO owner_generation (user_id, wishes) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + excluded.wishes"
        ).execute(arguments: [userID, added.count])
        let theseWishes: StatementArguments = [importID, first, last]
        try db.cachedStatement(
            sql: """
                INSERT INTO wish_list_item (list_id, item_id)
                    SELECT wish_list.id, wishlist_item.id FROM wishlist_item
                    JOIN wish_list ON wish_list.user_id = wishlist_item.user_id AND wish_list.is_default
                    WHERE wishlist_item.import_id = ? AND wishlist_item.id BETWEEN ? AND ?
                """
        ).execute(arguments: theseWishes)
        try db.cachedStatement(
            sql: """
                INSERT INTO book_household (book_id, wanted)
                    SELECT book_id, 1 FROM wishlist_item
                    WHERE import_id = ? AND id BETWEEN ? AND ? AND book_id IS NOT NULL AND shared
                        AND EXISTS (SELECT 1 FROM user WHERE user.id = wishlist_item.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)
                    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted
                """
        ).execute(arguments: theseWishes)
    }

    private static func insertImported(statementOf wishes: ArraySlice<ImportedWish>, userID: UserID, importID: ImportID, _ db: Database) throws -> [ItemID] {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE((SELECT visibility = 'household' FROM wish_list WHERE user_id = ? AND is_default), 0))"
        var arguments: [(any DatabaseValueConvertible)?] = []
        arguments.reserveCapacity(17 * wishes.count)
        for wish in wishes {
            let book = wish.book
            arguments += [
                userID, book.id, book.title, book.author, book.publisher, book.description,
                book.isbn10, book.isbn13, book.imageURL, book.imageWidth, book.imageHeight,
                StoredLinks.encode(book.buyLinks), StoredLinks.encode(book.readingLinks), wish.note, StoredDate(wish.addedAt), importID, userID,
            ]
        }
        return try ItemID.fetchAll(
            db.cachedStatement(
                sql: """
                    INSERT INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13,
                        image_url, image_width, image_height, buy_links, reading_links, note, added_at, import_id, shared)
                    VALUES \(repeatElement(row, count: wishes.count).joined(separator: ", "))
                    ON CONFLICT (user_id, book_id) DO NOTHING
                    RETURNING id
                    """
            ),
            arguments: StatementArguments(arguments)
        )
    }

    // MARK: Rows

    private static func fetchOne(_ db: Database, _ condition: String, _ arguments: StatementArguments) throws -> WishlistItem? {
        try Row.decodeOne(db.makeStatement(sql: "SELECT * FROM wishlist_item WHERE \(condition)"), arguments: arguments, decoder: items(in:))
    }

    private static func insert(_ book: CatalogBook, userID: UserID, note: String, priority: Priority, addedAt: Date, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13,
                    image_url, image_width, image_height, buy_links, reading_links, note, priority, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                userID, book.id, book.title, book.author, book.publisher, book.description,
                book.isbn10, book.isbn13, book.imageURL, book.imageWidth, book.imageHeight,
                StoredLinks.encode(book.buyLinks), StoredLinks.encode(book.readingLinks), note, priority.storedValue, StoredDate(addedAt),
            ]
        )
    }

    /// The catalog book for each imported book, or the imported book as the user's own.
    /// Matched by ISBN-13, else ISBN-10, all of the file's ISBNs looked up in one statement.
    static func matchCatalog(_ books: [GoodreadsImportedBook], _ db: Database) throws -> [CatalogBook] {
        var isbns: [String] = []
        isbns.reserveCapacity(2 * books.count)
        for book in books {
            if !book.isbn13.isEmpty { isbns.append(book.isbn13) }
            if !book.isbn10.isEmpty { isbns.append(book.isbn10) }
        }
        let bookIDs = try CatalogStore.bookIDs(isbns: isbns, db)
        var catalogBooks: [String: CatalogBook] = [:]
        return try books.map { imported in
            guard let id = bookIDs[imported.isbn13] ?? bookIDs[imported.isbn10] else { return ownBook(imported) }
            if let book = catalogBooks[id] { return book }
            let book = try CatalogStore.Reader(db: db).book(id: id) ?? ownBook(imported)
            catalogBooks[id] = book
            return book
        }
    }

    private static func ownBook(_ imported: GoodreadsImportedBook) -> CatalogBook {
        CatalogBook(
            id: "", title: imported.title, author: imported.author, contributor: "", publisher: imported.publisher,
            description: "", price: nil, isbn10: imported.isbn10, isbn13: imported.isbn13, otherISBNs: [],
            imageURL: nil, imageWidth: 0, imageHeight: 0, buyLinks: [], readingLinks: []
        )
    }

    /// A decoder of the items of `statement`'s rows (every column of `wishlist_item`, and maybe
    /// others), which finds their columns once for all of them.
    static func items(in statement: Statement) -> (Row) -> WishlistItem {
        let columns = ItemColumns(ColumnPlaces(statement))
        return { row in item(row, columns) }
    }

    static func item(_ row: Row, _ at: ItemColumns) -> WishlistItem {
        WishlistItem(
            id: row[at.id], bookID: row[at.bookID], title: row[at.title], author: row[at.author], publisher: row[at.publisher],
            description: row[at.description], isbn10: row[at.isbn10], isbn13: row[at.isbn13], imageURL: row[at.imageURL],
            imageWidth: row[at.imageWidth], imageHeight: row[at.imageHeight],
            storedBuyLinks: row[at.buyLinks], storedReadingLinks: row[at.readingLinks], note: row[at.note],
            priority: Priority(storedValue: row[at.priority]), addedAt: (row[at.addedAt] as StoredDate).date
        )
    }

    /// Where rows hold the columns of `wishlist_item` that ``item(_:_:)`` reads.
    struct ItemColumns {
        let id, bookID, title, author, publisher, description, isbn10, isbn13: Int
        let imageURL, imageWidth, imageHeight, buyLinks, readingLinks, note, priority, addedAt: Int

        init(_ columns: ColumnPlaces) {
            id = columns.of("id")
            bookID = columns.of("book_id")
            title = columns.of("title")
            author = columns.of("author")
            publisher = columns.of("publisher")
            description = columns.of("description")
            isbn10 = columns.of("isbn10")
            isbn13 = columns.of("isbn13")
            imageURL = columns.of("image_url")
            imageWidth = columns.of("image_width")
            imageHeight = columns.of("image_height")
            buyLinks = columns.of("buy_links")
            readingLinks = columns.of("reading_links")
            note = columns.of("note")
            priority = columns.of("priority")
            addedAt = columns.of("added_at")
        }
    }
}

/// What is on a user's wishlist (or among the books they read), to tell which imported books
/// are there already: a catalog book by its id; any book by its ISBN-13, or by title and author
/// ignoring ASCII case as SQLite's NOCASE does.
struct PresentBooks {
    private struct TitleAndAuthor: Hashable {
        let title: String
        let author: String

        init(_ title: String, _ author: String) {
            self.title = Self.folded(title)
            self.author = Self.folded(author)
        }

        /// A–Z to a–z, nothing else, exactly as NOCASE compares.
        private static func folded(_ text: String) -> String {
            String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
    }

    private var bookIDs: Set<String> = []
    private var isbn13s: Set<String> = []
    private var titlesAndAuthors: Set<TitleAndAuthor> = []

    /// `table` is `wishlist_item` or `reading`.
    init(userID: UserID, table: String, _ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT book_id, isbn13, title, author FROM \(table) WHERE user_id = ?", arguments: [userID])
        for row in rows {
            remember(bookID: row["book_id"], isbn13: row["isbn13"], TitleAndAuthor(row["title"], row["author"]))
        }
    }

    /// Records an imported book as present, with a book of its own when the catalog had none
    /// (an added book, `AddedBookStore`, tagged with the import); nil when it was present already.
    mutating func insertGivingABook(_ book: CatalogBook, at now: Date, importID: ImportID, _ db: Database) throws -> CatalogBook? {
        guard insert(book) else { return nil }
        guard book.id.isEmpty else { return book }
        let added = try AddedBookStore.book(forImported: book, at: now, importID: importID, db)
        guard bookIDs.insert(added.id).inserted else { return nil }
        return added
    }

    /// Records `book` as present; false when it already was. Its title and author are folded
    /// once, for the test and the record both: an import does it for every row.
    private mutating func insert(_ book: CatalogBook) -> Bool {
        let titleAndAuthor = TitleAndAuthor(book.title, book.author)
        if book.id.isEmpty {
            guard !isbn13s.contains(book.isbn13), !titlesAndAuthors.contains(titleAndAuthor) else { return false }
        } else {
            guard !bookIDs.contains(book.id) else { return false }
        }
        remember(bookID: book.id.isEmpty ? nil : book.id, isbn13: book.isbn13, titleAndAuthor)
        return true
    }

    private mutating func remember(bookID: String?, isbn13: String, _ titleAndAuthor: TitleAndAuthor) {
        if let bookID { bookIDs.insert(bookID) }
        if !isbn13.isEmpty { isbn13s.insert(isbn13) }
        titlesAndAuthors.insert(titleAndAuthor)
    }
}
