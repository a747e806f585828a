import GRDB

/// One read transaction for everything a page shows.
///
/// Each store lends a reader that runs its own queries on the transaction's connection; the page
/// composes them, and no store knows about another. One transaction is one trip to the database's
/// reader threads per page instead of one per query, and every part of the page comes from the
/// same snapshot.
public struct PageRead {
    let db: Database

    public var catalog: CatalogStore.Reader { CatalogStore.Reader(db: db) }
    public var wishlist: WishlistStore.Reader { WishlistStore.Reader(db: db) }
    public var lists: WishListStore.Reader { WishListStore.Reader(db: db) }
    public var household: HouseholdStore.Reader { HouseholdStore.Reader(db: db) }
    public var reading: ReadingStore.Reader { ReadingStore.Reader(db: db) }
    public var profiles: ProfileStore.Reader { ProfileStore.Reader(db: db) }
    public var authors: AuthorStore.Reader { AuthorStore.Reader(db: db) }
    public var children: Children.Reader { Children.Reader(db: db) }
}

extension AppDatabase {
    /// Runs `body` in one read transaction (``read(_:)``). Keep it to queries: it holds a reader
    /// connection, and may be run twice.
    public func pageRead<Value: Sendable>(_ body: @escaping @Sendable (PageRead) throws -> Value) async throws -> Value {
        try await read { db in try body(PageRead(db: db)) }
    }
}
