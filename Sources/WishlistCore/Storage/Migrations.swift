import GRDB

package extension AppDatabase {
    /// The schema's history. Append new migrations; never edit one that has shipped, because
    /// databases from earlier versions upgrade by replaying only what they lack.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-secrets", migrate: createSecrets)
        migrator.registerMigration("2-accounts", migrate: createAccounts)
        migrator.registerMigration("3-catalog", migrate: createCatalog)
        migrator.registerMigration("4-wishlist", migrate: createWishlist)
        migrator.registerMigration("5-book-isbns", migrate: createBookISBNs)
        migrator.registerMigration("6-household", migrate: createHousehold)
        migrator.registerMigration("7-administration", migrate: createAdministration)
        migrator.registerMigration("8-editions", migrate: createEditions)
        migrator.registerMigration("9-feed-links", migrate: createFeedLinks)
        migrator.registerMigration("10-passkeys", migrate: createPasskeys)
        migrator.registerMigration("11-catalog-generation", migrate: createCatalogGeneration)
        migrator.registerMigration("12-wishlist-generation", migrate: createWishlistGeneration)
        migrator.registerMigration("13-search-current-books", migrate: searchCurrentBooksOnly)
        migrator.registerMigration("14-reservation-generation", migrate: separateReservationGeneration)
        migrator.registerMigration("15-passkey-challenge-browser", migrate: bindPasskeyChallengesToBrowsers)
        migrator.registerMigration("16-readers", migrate: createReaders)
        migrator.registerMigration("17-gift-cycle", migrate: createGiftCycle)
        migrator.registerMigration("18-gift-ideas", migrate: createGiftIdeas)
        migrator.registerMigration("19-any-book-and-covers", migrate: createAddedBooksAndCovers)
        migrator.registerMigration("20-sign-in-identities", migrate: createSignInIdentities)
        migrator.registerMigration("21-mail", migrate: createMail)
        migrator.registerMigration("22-display-names", migrate: createDisplayNames)
        migrator.registerMigration("23-wishlist-by-book-and-user", migrate: indexWishlistByBookAndUser)
        migrator.registerMigration("24-household-figures", migrate: createHouseholdFigures)
        migrator.registerMigration("25-owner-generations", migrate: createOwnerGenerations)
        migrator.registerMigration("26-signin-review", migrate: reviewSignIn)
        migrator.registerMigration("27-mail-review", migrate: sealMailAndFreeUnconfirmedAddresses)
        migrator.registerMigration("28-data-review", migrate: trackImportsAndWishesAgain)
        migrator.registerMigration("29-authors", migrate: createAuthors)
        migrator.registerMigration("30-occasions", migrate: createOccasions)
        return migrator
    }

    /// Server-side secrets that must survive restarts (the CSRF key).
    private static func createSecrets(_ db: Database) throws {
        try db.create(table: "secret") { table in
            table.primaryKey("name", .text)
            table.column("value", .blob).notNull()
        }
    }

    /// Users, their sign-in sessions, and the events that throttle sign-in and sign-up.
    private static func createAccounts(_ db: Database) throws {
        try db.create(table: "user") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("username", .text).notNull()
            // Lower-cased copies make "Alice" and "alice" the same account.
            table.column("username_key", .text).notNull().unique()
            table.column("email", .text)
            table.column("email_key", .text).unique()
            table.column("password_hash", .text).notNull()
            table.column("created_at", .datetime).notNull()
        }
        try db.create(table: "session") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            // SHA-256 of the cookie's token: a copy of the database cannot be used to sign in.
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("last_seen_at", .datetime).notNull()
            table.column("user_agent", .text).notNull().defaults(to: "")
        }
        try db.create(table: "throttle_event") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("scope", .text).notNull()
            table.column("happened_at", .datetime).notNull()
        }
        try db.create(index: "throttle_event_on_scope_time", on: "throttle_event", columns: ["scope", "happened_at"])
        try db.create(index: "throttle_event_on_time", on: "throttle_event", columns: ["happened_at"])
    }

    /// The cached catalog, the API request log, and each user's favourite lists.
    private static func createCatalog(_ db: Database) throws {
        try db.create(table: "catalog_list") { table in
            table.primaryKey("name_encoded", .text)
            table.column("display_name", .text).notNull()
            table.column("frequency", .text).notNull()
            table.column("newest_published_date", .text).notNull()
            // Lists the API still publishes; dead ones stay for history but are not shown.
            table.column("is_current", .boolean).notNull().defaults(to: false)
            table.column("published_date", .text)
            table.column("fetched_at", .datetime)
        }
        try db.create(table: "book") { table in
            table.primaryKey("id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("contributor", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("price", .text)
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("other_isbns", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
        }
        try db.create(table: "book_link") { table in
            table.column("book_id", .text).notNull().references("book", onDelete: .cascade)
            table.column("kind", .text).notNull()
            table.column("position", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("url", .text).notNull()
            table.primaryKey(["book_id", "kind", "position"])
        }
        try db.create(table: "list_entry") { table in
            table.column("list_name_encoded", .text).notNull().references("catalog_list", onDelete: .cascade)
            table.column("rank", .integer).notNull()
            table.column("book_id", .text).notNull().indexed().references("book")
            table.column("rank_last_week", .integer).notNull()
            table.column("weeks_on_list", .integer).notNull()
            table.primaryKey(["list_name_encoded", "rank"])
        }
        // Full-text search over title and author that ignores case and accents.
        try db.execute(sql: """
            CREATE VIRTUAL TABLE book_search USING fts5(book_id UNINDEXED, title, author, tokenize = 'unicode61 remove_diacritics 2')
            """)
        try db.create(table: "favorite_list") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("list_name_encoded", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.primaryKey(["user_id", "list_name_encoded"])
        }
        try db.create(table: "api_request") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("requested_at", .datetime).notNull().indexed()
        }
        try db.create(table: "catalog_sync_state") { table in
            table.primaryKey("id", .integer).check { $0 == 1 }
            table.column("source", .text).notNull()
            table.column("last_attempt_at", .datetime)
            table.column("last_success_at", .datetime)
            table.column("last_error", .text)
            table.column("consecutive_failures", .integer).notNull().defaults(to: 0)
        }
    }

    /// Wishlist items keep their own copy of what the user saw, so they outlive the catalog's
    /// lists; and each user may choose the list that opens after sign-in.
    private static func createWishlist(_ db: Database) throws {
        try db.create(table: "wishlist_item") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            // The catalog's id, or NULL for a book imported from elsewhere.
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
            table.column("buy_links", .text).notNull()
            table.column("reading_links", .text).notNull()
            table.column("note", .text).notNull().defaults(to: "")
            table.column("added_at", .datetime).notNull()
        }
        try db.create(index: "wishlist_item_unique_book", on: "wishlist_item", columns: ["user_id", "book_id"], unique: true)
        try db.create(index: "wishlist_item_by_added", on: "wishlist_item", columns: ["user_id", "added_at"])
        try db.execute(sql: "CREATE INDEX wishlist_item_by_title ON wishlist_item (user_id, title COLLATE NOCASE)")
        try db.execute(sql: "CREATE INDEX wishlist_item_by_author ON wishlist_item (user_id, author COLLATE NOCASE)")
        try db.alter(table: "user") { table in
            table.add(column: "default_list", .text)
        }
    }

    /// Every ISBN of every catalog book, indexed, so an import matches a row with one index
    /// lookup instead of scanning `book` for an ISBN inside `other_isbns`. Filled from the books
    /// already stored; from here on the catalog keeps it up to date.
    private static func createBookISBNs(_ db: Database) throws {
        try db.create(table: "book_isbn") { table in
            table.column("book_id", .text).notNull().references("book", onDelete: .cascade)
            table.column("isbn", .text).notNull().indexed()
            table.primaryKey(["book_id", "isbn"])
        }
        let books = try Row.fetchAll(db, sql: "SELECT id, isbn10, isbn13, other_isbns FROM book")
        for book in books {
            let id: String = book["id"]
            let otherISBNs: String = book["other_isbns"]
            let isbns: [String] = [book["isbn13"], book["isbn10"]] + otherISBNs.split(separator: " ").map(String.init)
            for isbn in isbns where !isbn.isEmpty {
                try db.execute(sql: "INSERT OR IGNORE INTO book_isbn (book_id, isbn) VALUES (?, ?)", arguments: [id, isbn])
            }
        }
    }

    /// Sharing with the household, gift reservations, item priorities and share links.
    ///
    /// A reservation keeps copies of the owner's name and the book's title, because it outlives
    /// what it points at: when the owner removes the item (or deletes the account) the foreign
    /// keys become NULL and the giver is told what happened until they dismiss it.
    private static func createHousehold(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "sharing", .text).notNull().defaults(to: "private")
        }
        try db.alter(table: "wishlist_item") { table in
            // 1 high, 0 normal, -1 low: "high first" is a descending sort on an index.
            table.add(column: "priority", .integer).notNull().defaults(to: 0)
        }
        try db.create(index: "wishlist_item_by_priority", on: "wishlist_item", columns: ["user_id", "priority", "added_at"])
        try db.create(index: "user_by_sharing", on: "user", columns: ["sharing", "username_key"])
        try db.create(table: "reservation") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("item_id", .integer).unique().references("wishlist_item", onDelete: .setNull)
            table.column("giver_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("owner_id", .integer).indexed().references("user", onDelete: .setNull)
            table.column("owner_name", .text).notNull()
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("reserved_at", .datetime).notNull()
        }
        try db.create(table: "share_link") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            // SHA-256 of the link's token, as for sessions.
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
        }
    }

    /// Admins, disabled accounts, one-time links (password resets and invites) and the audit log.
    /// Links keep only their token's SHA-256, and stay after use so their pages can say "used".
    /// The audit log names people as text: it outlives the accounts it mentions.
    private static func createAdministration(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "is_admin", .boolean).notNull().defaults(to: false)
            table.add(column: "disabled_at", .datetime)
        }
        try db.create(table: "password_reset") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
        }
        try db.create(table: "invite") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_by", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
            table.column("used_by", .text)
        }
        try db.create(table: "audit_event") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("happened_at", .datetime).notNull().indexed()
            table.column("actor", .text).notNull()
            table.column("action", .text).notNull()
            table.column("subject", .text).notNull()
        }
    }

    /// Every edition of every list, kept by published date, so books have a rank history and old
    /// editions can be read. `list_entry` stays the current edition (the pages' fast path); the
    /// current editions already stored become the first history.
    private static func createEditions(_ db: Database) throws {
        try db.create(table: "edition") { table in
            table.column("list_name_encoded", .text).notNull().references("catalog_list", onDelete: .cascade)
            table.column("published_date", .text).notNull()
            // The date of the edition before, as the API named it; NULL until an answer says it.
            table.column("previous_published_date", .text)
            table.column("fetched_at", .datetime).notNull()
            table.primaryKey(["list_name_encoded", "published_date"])
        }
        try db.create(table: "edition_entry") { table in
            table.column("list_name_encoded", .text).notNull()
            table.column("published_date", .text).notNull()
            table.column("rank", .integer).notNull()
            table.column("book_id", .text).notNull().references("book")
            table.column("rank_last_week", .integer).notNull()
            table.column("weeks_on_list", .integer).notNull()
            table.primaryKey(["list_name_encoded", "published_date", "rank"])
            table.foreignKey(["list_name_encoded", "published_date"], references: "edition", onDelete: .cascade)
        }
        // A book's history: its entries by list and date, in one index range.
        try db.create(index: "edition_entry_by_book", on: "edition_entry", columns: ["book_id", "list_name_encoded", "published_date"])
        try db.execute(sql: """
            INSERT INTO edition (list_name_encoded, published_date, fetched_at)
            SELECT name_encoded, published_date, COALESCE(fetched_at, CURRENT_TIMESTAMP) FROM catalog_list WHERE published_date IS NOT NULL
            """)
        try db.execute(sql: """
            INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list)
            SELECT list_entry.list_name_encoded, catalog_list.published_date, list_entry.rank, list_entry.book_id,
                list_entry.rank_last_week, list_entry.weeks_on_list
            FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
            WHERE catalog_list.published_date IS NOT NULL
            """)
    }

    /// The Atom feed's secret link, one per user, kept like the share link: only the token's SHA-256.
    private static func createFeedLinks(_ db: Database) throws {
        try db.create(table: "feed_link") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
        }
    }

    /// Passkeys (WebAuthn credentials), the random handle each user's passkeys carry, and the
    /// single-use challenges of the ceremonies. Everything goes with the account.
    private static func createPasskeys(_ db: Database) throws {
        try db.create(table: "passkey_user") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            table.column("handle", .blob).notNull().unique()
        }
        try db.create(table: "passkey") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("credential_id", .blob).notNull().unique()
            // The COSE key, exactly as the authenticator sent it.
            table.column("public_key", .blob).notNull()
            table.column("sign_count", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("last_used_at", .datetime)
        }
        try db.create(table: "passkey_challenge") { table in
            table.primaryKey("challenge", .blob)
            table.column("purpose", .text).notNull()
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("expires_at", .datetime).notNull().indexed()
        }
    }

    /// The catalog tables whose rows a list page shows.
    static let catalogTables = ["catalog_list", "list_entry", "book", "edition", "edition_entry"]

    /// A number that grows with every change to the catalog, whichever process makes it (the
    /// server's refresh or `wishlist sync` beside it): rendered catalog pages are cached under it.
    private static func createCatalogGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE catalog_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO catalog_generation (value) VALUES (0)")
        for table in catalogTables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE catalog_generation SET value = value + 1; END
                    """)
            }
        }
    }

    /// What a wishlist page shows besides the catalog: the items, their reservations, and the
    /// people (who shares, who gives).
    static let wishlistTables = ["wishlist_item", "reservation", "user"]

    /// One number that grows with every change to the wishlist tables, by any process: rendered
    /// wishlist pages are cached under it and the catalog generation, as list pages are under the
    /// latter alone.
    private static func createWishlistGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE wishlist_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO wishlist_generation (value) VALUES (0)")
        for table in wishlistTables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_wishlist_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE wishlist_generation SET value = value + 1; END
                    """)
            }
        }
    }

    /// Search finds books on the current lists, yet every book the history ever stored stayed in
    /// `book_search`, so each prefix query grew with the years kept. Now the index holds the books
    /// of `list_entry` (the current editions, a few hundred), kept so by triggers whichever
    /// process writes. The book's rowid is not used as the index's: `VACUUM INTO` (backups) may
    /// renumber a table without an integer primary key.
    private static func searchCurrentBooksOnly(_ db: Database) throws {
        try db.create(index: "list_entry_by_book", on: "list_entry", columns: ["book_id"])
        try db.execute(sql: """
            DELETE FROM book_search;
            INSERT INTO book_search (book_id, title, author)
                SELECT id, title, author FROM book WHERE id IN (SELECT book_id FROM list_entry);
            CREATE TRIGGER list_entry_insert_search AFTER INSERT ON list_entry
                WHEN NOT EXISTS (SELECT 1 FROM book_search WHERE book_id = NEW.book_id)
                BEGIN INSERT INTO book_search (book_id, title, author) SELECT id, title, author FROM book WHERE id = NEW.book_id; END;
            CREATE TRIGGER list_entry_delete_search AFTER DELETE ON list_entry
                WHEN NOT EXISTS (SELECT 1 FROM list_entry WHERE book_id = OLD.book_id)
                BEGIN DELETE FROM book_search WHERE book_id = OLD.book_id; END;
            CREATE TRIGGER book_update_search AFTER UPDATE OF title, author ON book
                BEGIN UPDATE book_search SET title = NEW.title, author = NEW.author WHERE book_id = NEW.id; END;
            """)
    }

    /// Reservations move out of the wishlist generation into one of their own. The owner's pages
    /// were cached under a number every reservation grew, so her next page after a giver reserved
    /// was rendered afresh, and its timing told her (issue 27). Her pages are now kept under what
    /// only her items and the accounts change; a giver's view of a member's list under both.
    private static func separateReservationGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE reservation_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO reservation_generation (value) VALUES (0)")
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                DROP TRIGGER reservation_\(event.lowercased())_wishlist_generation;
                CREATE TRIGGER reservation_\(event.lowercased())_reservation_generation AFTER \(event) ON reservation
                BEGIN UPDATE reservation_generation SET value = value + 1; END
                """)
        }
    }

    /// A passkey challenge names the browser that asked for it (the SHA-256 of its cookie token)
    /// and the client's address: a ceremony must be finished by the same browser, a browser holds
    /// a few live challenges at most, and an address a few dozen, where one server-wide cap let
    /// anyone block passkeys for everyone (issue 27). Challenges live five minutes, so the rows
    /// made before this migration, without a browser, simply expire.
    private static func bindPasskeyChallengesToBrowsers(_ db: Database) throws {
        try db.alter(table: "passkey_challenge") { table in
            table.add(column: "browser", .blob)
            table.add(column: "address", .text)
        }
        try db.create(index: "passkey_challenge_by_browser", on: "passkey_challenge", columns: ["browser"])
        try db.create(index: "passkey_challenge_by_address", on: "passkey_challenge", columns: ["address"])
    }

    /// What each member has read, rated and thought, and their profile: a bio, a birthday, a
    /// picture and favourite books (issue 28). A reading keeps its own copy of the title and
    /// author, as a wishlist item does, so a book imported from Goodreads that the catalog does
    /// not know is still a reading with a name. Readings, favourites and pictures are household
    /// pages' content, so they grow the wishlist generation like items do.
    private static func createReaders(_ db: Database) throws {
        try db.create(table: "reading") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("isbn13", .text).notNull().defaults(to: "")
            table.column("rating", .integer).check { $0 == nil || ($0 >= 1 && $0 <= 5) }
            table.column("review", .text).notNull().defaults(to: "")
            // YYYY-MM-DD, or NULL when the reader did not say.
            table.column("finished_on", .text)
            table.column("updated_at", .datetime).notNull()
        }
        try db.create(index: "reading_unique_book", on: "reading", columns: ["user_id", "book_id"], unique: true)
        try db.create(index: "reading_by_book", on: "reading", columns: ["book_id"])
        try db.create(index: "reading_by_finished", on: "reading", columns: ["user_id", "finished_on"])
        // "How many here want it" counts a book's items across members.
        try db.create(index: "wishlist_item_by_book", on: "wishlist_item", columns: ["book_id"])
        try db.alter(table: "user") { table in
            table.add(column: "bio", .text).notNull().defaults(to: "")
            // MM-DD: a birthday without the year.
            table.add(column: "birthday", .text)
        }
        try db.create(table: "favorite_book") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("position", .integer).notNull()
            table.column("reading_id", .integer).notNull().indexed().references("reading", onDelete: .cascade)
            table.primaryKey(["user_id", "position"])
        }
        try db.create(table: "profile_picture") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            // Random and new with every upload: the picture's address, cached for a year.
            table.column("key", .text).notNull().unique()
            table.column("large", .blob).notNull()
            table.column("small", .blob).notNull()
            table.column("uploaded_at", .datetime).notNull()
        }
        for table in ["reading", "favorite_book", "profile_picture"] {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_wishlist_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE wishlist_generation SET value = value + 1; END
                    """)
            }
        }
    }

    /// The rest of a gift's life (issue 29): a giver marks a reservation bought and may write a
    /// card; the owner's "I got it" moves the item out of `wishlist_item` into `received_item`
    /// (same id: `wishlist_item`'s ids are never reused, so a move back restores the item as it
    /// was) and points its reservation there, so the giver sees it given and the owner, now, the
    /// card. Bought and card are columns of `reservation`, so they grow only the reservation
    /// generation and no page of the owner's; received items grow the wishlist generation.
    private static func createGiftCycle(_ db: Database) throws {
        try db.create(table: "received_item") { table in
            table.primaryKey("id", .integer)
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
            table.column("buy_links", .text).notNull()
            table.column("reading_links", .text).notNull()
            table.column("note", .text).notNull()
            table.column("priority", .integer).notNull()
            table.column("added_at", .datetime).notNull()
            table.column("received_at", .datetime).notNull()
        }
        try db.create(index: "received_item_by_user", on: "received_item", columns: ["user_id", "received_at"])
        try db.alter(table: "reservation") { table in
            table.add(column: "bought_at", .datetime)
            table.add(column: "card", .text).notNull().defaults(to: "")
            table.add(column: "received_item_id", .integer).references("received_item", onDelete: .setNull)
        }
        try db.create(index: "reservation_by_received_item", on: "reservation", columns: ["received_item_id"])
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER received_item_\(event.lowercased())_wishlist_generation AFTER \(event) ON received_item
                BEGIN UPDATE wishlist_generation SET value = value + 1; END
                """)
        }
    }

    /// Gift ideas (issue 29): a book the others suggest for a member, with a note, which they
    /// can reserve as they reserve her items. An idea is never the owner's row: it lives in a
    /// table of its own that no query on her behalf reads, and it grows only the reservation
    /// generation, so neither her pages' bytes nor their timing change when one is added. When
    /// she wishes for the same book, the idea's reservation moves to her new item and the idea
    /// goes, in the same transaction as her add.
    private static func createGiftIdeas(_ db: Database) throws {
        try db.create(table: "gift_idea") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("owner_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("suggested_by", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("book_id", .text).notNull()
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("note", .text).notNull()
            table.column("created_at", .datetime).notNull()
        }
        try db.create(index: "gift_idea_unique_book", on: "gift_idea", columns: ["owner_id", "book_id"], unique: true)
        try db.alter(table: "reservation") { table in
            table.add(column: "idea_id", .integer).references("gift_idea", onDelete: .setNull)
        }
        try db.create(index: "reservation_unique_idea", on: "reservation", columns: ["idea_id"], unique: true)
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER gift_idea_\(event.lowercased())_reservation_generation AFTER \(event) ON gift_idea
                BEGIN UPDATE reservation_generation SET value = value + 1; END
                """)
        }
    }

    /// Books no list carries, added by a member through Open Library or by hand, and the covers
    /// the server fetches and serves itself (issue 30).
    ///
    /// An added book is a `book` row like a list's, `source` 'added', under its ISBN-13 when it
    /// has one: the NYT's books have their primary ISBN-13 as id, so when a list later carries it
    /// the list's upsert finds the same row, and wishes, reservations and readings stay on it.
    /// Adding one grows no generation: no cached page shows a book before it exists, and the
    /// catalog generation growing when a giver adds a book for an idea would re-render the
    /// owner's pages (their timing would tell her).
    ///
    /// `cover` names each image URL any page may show; pages link `/covers/{key}-{size}.jpg`
    /// with the key computed from the URL, and the files live beside the database, outside
    /// backups. Triggers add a row whenever a book or an item brings a URL, so every writer
    /// (sync, imports, the CLI) is covered. Items imported before this migration
    /// without a book get one now, so no item is a half-book without a page.
    private static func createAddedBooksAndCovers(_ db: Database) throws {
        try db.alter(table: "book") { table in
            table.add(column: "source", .text).notNull().defaults(to: "nyt")
            table.add(column: "first_published", .integer)
            table.add(column: "added_at", .datetime)
        }
        for event in ["INSERT", "UPDATE"] {
            try db.execute(sql: """
                DROP TRIGGER book_\(event.lowercased())_generation;
                CREATE TRIGGER book_\(event.lowercased())_generation AFTER \(event) ON book WHEN NEW.source = 'nyt'
                BEGIN UPDATE catalog_generation SET value = value + 1; END
                """)
        }
        try db.execute(sql: """
            DROP TRIGGER book_delete_generation;
            CREATE TRIGGER book_delete_generation AFTER DELETE ON book WHEN OLD.source = 'nyt'
            BEGIN UPDATE catalog_generation SET value = value + 1; END
            """)
        try db.create(table: "cover") { table in
            table.primaryKey("url", .text)
            // `CoverKey` of the URL, which pages compute without a query; set by the cover job
            // in Swift, since SQLite has no SHA-256 for the triggers.
            table.column("key", .text).unique()
            table.column("status", .text).notNull().defaults(to: "pending")
                .check(sql: "status IN ('pending', 'ready', 'failed', 'evicted')")
            table.column("failures", .integer).notNull().defaults(to: 0)
            // NULL: due now.
            table.column("retry_at", .datetime)
            table.column("large_height", .integer)
            table.column("fetched_at", .datetime)
        }
        try db.create(index: "cover_by_status", on: "cover", columns: ["status", "retry_at"])
        // Not `INSERT OR IGNORE`: inside a trigger the outer statement's conflict policy wins, and
        // the catalog's upsert of a book would then fail on a URL already known.
        let newCover = "INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url)"
        for table in ["book", "wishlist_item", "received_item"] {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_insert_cover AFTER INSERT ON \(table) WHEN COALESCE(NEW.image_url, '') <> ''
                BEGIN \(newCover); END;
                CREATE TRIGGER \(table)_update_cover AFTER UPDATE OF image_url ON \(table) WHEN COALESCE(NEW.image_url, '') <> ''
                BEGIN \(newCover); END;
                """)
        }
        try db.execute(sql: """
            INSERT OR IGNORE INTO cover (url)
            SELECT image_url FROM (
                SELECT image_url FROM book UNION SELECT image_url FROM wishlist_item UNION SELECT image_url FROM received_item
            ) WHERE COALESCE(image_url, '') <> ''
            """)
        for table in ["wishlist_item", "received_item", "reading"] {
            try giveBooks(toRowsWithoutOne: table, db)
        }
    }

    /// Each row of `table` without a book gets the catalog book of its ISBN-13 when there is
    /// one, else a new added book of its own copy. A member who has two rows that turn out to be
    /// one book keeps the second without a book (`UPDATE OR IGNORE`: one row a book a member).
    private static func giveBooks(toRowsWithoutOne table: String, _ db: Database) throws {
        let hasCopy = table != "reading"
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE book_id IS NULL")
        for row in rows {
            let typed: String = row["isbn13"]
            let isbn = try? ISBN(typed)
            let known = try isbn.flatMap { try String.fetchOne(db, sql: "SELECT book_id FROM book_isbn WHERE isbn = ?", arguments: [$0.isbn13]) }
            let id = known ?? isbn?.isbn13 ?? "added-" + SecureRandom.hex(byteCount: 6)
            if known == nil {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns,
                                                    image_url, image_width, image_height, source, added_at)
                        VALUES (?, ?, ?, '', ?, ?, ?, ?, '', ?, ?, ?, 'added', ?)
                        """,
                    arguments: [
                        id, row["title"], row["author"], hasCopy ? row["publisher"] as String : "", hasCopy ? row["description"] as String : "",
                        isbn?.isbn10 ?? "", isbn?.isbn13 ?? "", hasCopy ? row["image_url"] as String? : nil,
                        hasCopy ? row["image_width"] as Int : 0, hasCopy ? row["image_height"] as Int : 0, row[hasCopy ? "added_at" : "updated_at"] as DatabaseValue,
                    ])
                if let isbn {
                    try db.execute(sql: "INSERT OR IGNORE INTO book_isbn (book_id, isbn) VALUES (?, ?)", arguments: [id, isbn.isbn13])
                }
            }
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET book_id = ? WHERE id = ?", arguments: [id, row["id"]])
        }
    }

    /// Single sign-on (issue 32): the provider identities linked to accounts, and the sign-ins
    /// under way at a provider, each bound to the browser that started it. An account made by
    /// single sign-on has no password: its `password_hash` is empty, which never verifies.
    private static func createSignInIdentities(_ db: Database) throws {
        try db.create(table: "sign_in_identity") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("issuer", .text).notNull()
            // The provider's `sub`: unique within its issuer, the only stable name of a person there.
            table.column("subject", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("last_used_at", .datetime)
            table.uniqueKey(["issuer", "subject"])
        }
        try db.create(table: "sign_in_attempt") { table in
            // The `state` sent to the provider, which it hands back.
            table.primaryKey("state", .text)
            // SHA-256 of the short-lived cookie's token: only the browser that started it may finish it.
            table.column("browser", .blob).notNull()
            table.column("nonce", .text).notNull()
            table.column("code_verifier", .text).notNull()
            // Set when a signed-in member links an identity rather than signing in.
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("next", .text).notNull().defaults(to: "/")
            // The client address that started it: each address holds a bounded number at once.
            table.column("address", .text).notNull().indexed()
            table.column("expires_at", .datetime).notNull().indexed()
        }
    }

    /// The outbox, address verification, the weekly digest's choice and its unsubscribe links.
    /// Addresses given before mail existed start unverified: nobody has shown they are theirs.
    private static func createMail(_ db: Database) throws {
        try db.create(table: "mail_outbox") { table in
            table.autoIncrementedPrimaryKey("id")
            // verification, password-reset, invite, digest, test
            table.column("kind", .text).notNull()
            // Deleting an account takes its unsent mail with it.
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("recipient", .text).notNull()
            table.column("message", .blob).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("next_attempt_at", .datetime).notNull()
            table.column("attempts", .integer).notNull().defaults(to: 0)
            // waiting, sent, failed
            table.column("state", .text).notNull().defaults(to: "waiting")
            table.column("last_reply", .text)
            table.column("finished_at", .datetime)
        }
        try db.create(index: "mail_outbox_due", on: "mail_outbox", columns: ["state", "next_attempt_at"])
        try db.create(table: "email_verification") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("email", .text).notNull()
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
        }
        try db.create(index: "email_verification_by_user", on: "email_verification", columns: ["user_id"])
        try db.create(table: "unsubscribe_link") { table in
            table.column("token_hash", .blob).primaryKey()
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("created_at", .datetime).notNull()
        }
        try db.create(index: "unsubscribe_link_by_user", on: "unsubscribe_link", columns: ["user_id"])
        try db.alter(table: "user") { table in
            table.add(column: "email_verified_at", .datetime)
            table.add(column: "digest_weekly", .boolean).notNull().defaults(to: false)
            // The Monday (yyyy-MM-dd) of the last week a digest was queued for.
            table.add(column: "digest_week", .text)
        }
    }

    /// The name a member chooses to be known by (issue 36), NULL for "use my username", and its
    /// comparison key (``MemberName/key(_:)``), which pages look up to tell namesakes apart.
    /// Changing it updates `user`, so it grows the wishlist generation and every cached page
    /// that shows names is rendered again.
    private static func createDisplayNames(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "display_name", .text)
            table.add(column: "display_name_key", .text)
        }
        try db.create(index: "user_by_display_name_key", on: "user", columns: ["display_name_key"])
    }

    /// The household's "wanted by" counts go from each book's items to their members: with the
    /// member in the index, a count reads only the index, not an item row per wish (issue 34).
    /// It leads with `book_id`, so it also answers everything `wishlist_item_by_book` did.
    private static func indexWishlistByBookAndUser(_ db: Database) throws {
        try db.create(index: "wishlist_item_by_book_and_user", on: "wishlist_item", columns: ["book_id", "user_id"])
        try db.drop(index: "wishlist_item_by_book")
    }

    /// Each book's household figures (how many sharing members want it, the sum and number of
    /// their ratings), kept by triggers as wishes, readings and members change. Counted live, a
    /// list's figures read every wish of its 15 books and each wisher's member row: on a big
    /// household's popular books thousands of rows, 1-2 ms of every list, book and search page
    /// (issue 34). Kept, they are one row a book. `HouseholdFiguresTests` checks the kept figures
    /// against the live count after every kind of change.
    ///
    /// "A sharing member" is `sharing = 'household' AND disabled_at IS NULL`, as
    /// ``ReadingStore/Reader/sharingMember`` says. A member's own change of sharing, or her being
    /// disabled or enabled, moves all her wishes and ratings in or out at once. Deleting a member
    /// takes hers out first (`BEFORE DELETE`): the cascade then deletes her items and readings
    /// when her row is gone, and their triggers, finding no sharing member, leave the figures be.
    private static func createHouseholdFigures(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE book_household (
                book_id TEXT PRIMARY KEY NOT NULL,
                wanted INTEGER NOT NULL DEFAULT 0,
                rating_sum INTEGER NOT NULL DEFAULT 0,
                rating_count INTEGER NOT NULL DEFAULT 0
            )
            """)
        let member = { (id: String) in "(SELECT 1 FROM user WHERE user.id = \(id) AND user.sharing = 'household' AND user.disabled_at IS NULL)" }
        // Adds `sign` times a wish of `book` (an expression).
        let wish = { (book: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted) VALUES (\(book), \(sign))
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            """
        }
        let rating = { (book: String, rating: String, sign: String) in
            """
            INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (\(book), \(sign) * \(rating), \(sign))
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;
            CREATE TRIGGER wishlist_item_delete_household AFTER DELETE ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_old AFTER UPDATE OF book_id, user_id ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_new AFTER UPDATE OF book_id, user_id ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;

            CREATE TRIGGER reading_insert_household AFTER INSERT ON reading
            WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND \(member("NEW.user_id"))
            BEGIN \(rating("NEW.book_id", "NEW.rating", "1")) END;
            CREATE TRIGGER reading_delete_household AFTER DELETE ON reading
            WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND \(member("OLD.user_id"))
            BEGIN \(rating("OLD.book_id", "OLD.rating", "-1")) END;
            CREATE TRIGGER reading_update_household_old AFTER UPDATE OF book_id, user_id, rating ON reading
            WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND \(member("OLD.user_id"))
            BEGIN \(rating("OLD.book_id", "OLD.rating", "-1")) END;
            CREATE TRIGGER reading_update_household_new AFTER UPDATE OF book_id, user_id, rating ON reading
            WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND \(member("NEW.user_id"))
            BEGIN \(rating("NEW.book_id", "NEW.rating", "1")) END;
            """)
        // A member joining or leaving the household brings or takes all her figures.
        let isMember = { (row: String) in "(\(row).sharing = 'household' AND \(row).disabled_at IS NULL)" }
        let everything = { (user: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted)
                SELECT book_id, \(sign) * COUNT(*) FROM wishlist_item WHERE user_id = \(user) AND book_id IS NOT NULL GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            INSERT INTO book_household (book_id, rating_sum, rating_count)
                SELECT book_id, \(sign) * SUM(rating), \(sign) * COUNT(*) FROM reading
                WHERE user_id = \(user) AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER user_joins_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN NOT \(isMember("OLD")) AND \(isMember("NEW")) BEGIN \(everything("NEW.id", "1")) END;
            CREATE TRIGGER user_leaves_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN \(isMember("OLD")) AND NOT \(isMember("NEW")) BEGIN \(everything("OLD.id", "-1")) END;
            CREATE TRIGGER user_delete_household BEFORE DELETE ON user
            WHEN \(isMember("OLD")) BEGIN \(everything("OLD.id", "-1")) END;
            """)
        try db.execute(sql: """
            INSERT INTO book_household (book_id, wanted)
                SELECT book_id, COUNT(*) FROM wishlist_item CROSS JOIN user ON user.id = wishlist_item.user_id
                WHERE book_id IS NOT NULL AND \(isMember("user")) GROUP BY book_id;
            INSERT INTO book_household (book_id, rating_sum, rating_count)
                SELECT book_id, SUM(rating), COUNT(*) FROM reading CROSS JOIN user ON user.id = reading.user_id
                WHERE book_id IS NOT NULL AND rating IS NOT NULL AND \(isMember("user")) GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = excluded.rating_sum, rating_count = excluded.rating_count;
            """)
    }

    /// A generation per member, in place of the household-wide ones her pages were kept under
    /// (issue 34). Every wish, reading or reservation by anyone grew the wishlists' or the
    /// reservations' generation, so in a busy household her wishlist and her page as the others
    /// see it were rendered again on almost every view. Now each counts only what its page shows:
    ///
    /// - `wishes`: her items. Her own wishlist page is kept under it and the catalog's alone;
    ///   nothing a giver does touches it (issue 27's rule, ``HouseholdStore/Reader``).
    /// - `about`: her account row, readings, favourites and picture, which her member page shows.
    /// - `givers`: reservations and gift ideas for her (the reservation's `owner_id`).
    /// - `name_generation`: every account's name as pages show it, since a reserver's shown name
    ///   depends on whether anyone else took it (``MemberName``); names change rarely.
    ///
    /// The row outlives the account (no foreign key, and deleting the account grows it), so a new
    /// account that reuses the id never meets a page kept under the old one's numbers. The
    /// reservations' generation, which nothing reads any more, goes.
    private static func createOwnerGenerations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE owner_generation (
                user_id INTEGER PRIMARY KEY NOT NULL,
                wishes INTEGER NOT NULL DEFAULT 0,
                about INTEGER NOT NULL DEFAULT 0,
                givers INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE name_generation (value INTEGER NOT NULL);
            INSERT INTO name_generation (value) VALUES (0);
            """)
        // Grows `counter` of the member `user` names (an expression, NULL for none).
        let grow = { (counter: String, user: String) in
            """
            INSERT INTO owner_generation (user_id, \(counter)) SELECT \(user), 1 WHERE \(user) IS NOT NULL
                ON CONFLICT (user_id) DO UPDATE SET \(counter) = \(counter) + 1;
            """
        }
        let counted = [("wishlist_item", "user_id", "wishes"), ("reading", "user_id", "about"), ("favorite_book", "user_id", "about"),
                       ("profile_picture", "user_id", "about"), ("reservation", "owner_id", "givers"), ("gift_idea", "owner_id", "givers")]
        for (table, owner, counter) in counted {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_insert_owner_generation AFTER INSERT ON \(table) BEGIN \(grow(counter, "NEW.\(owner)")) END;
                CREATE TRIGGER \(table)_delete_owner_generation AFTER DELETE ON \(table) BEGIN \(grow(counter, "OLD.\(owner)")) END;
                CREATE TRIGGER \(table)_update_owner_generation AFTER UPDATE ON \(table) BEGIN
                    \(grow(counter, "NEW.\(owner)"))
                    \(grow(counter, "(CASE WHEN OLD.\(owner) IS NOT NEW.\(owner) THEN OLD.\(owner) END)"))
                END;
                """)
        }
        try db.execute(sql: """
            CREATE TRIGGER user_update_owner_generation AFTER UPDATE ON user BEGIN \(grow("about", "NEW.id")) END;
            CREATE TRIGGER user_delete_owner_generation AFTER DELETE ON user BEGIN
                \(grow("wishes", "OLD.id")) \(grow("about", "OLD.id")) \(grow("givers", "OLD.id"))
                UPDATE name_generation SET value = value + 1;
            END;
            CREATE TRIGGER user_insert_name_generation AFTER INSERT ON user BEGIN UPDATE name_generation SET value = value + 1; END;
            CREATE TRIGGER user_rename_name_generation AFTER UPDATE OF username, display_name, display_name_key ON user
                BEGIN UPDATE name_generation SET value = value + 1; END;
            """)
        for event in ["insert", "update", "delete"] {
            try db.execute(sql: "DROP TRIGGER reservation_\(event)_reservation_generation; DROP TRIGGER gift_idea_\(event)_reservation_generation")
        }
        try db.execute(sql: "DROP TABLE reservation_generation")
    }

    /// Issue 50's sign-in review:
    /// - Names are compared by what they look like (``NameSkeleton``), so that "аlice" with a
    ///   Cyrillic "а" or a zero-width joiner shows the username beside it: each account's
    ///   username and display name get their skeletons, computed here for the names already
    ///   stored, and indexed for ``MemberName/shownSQL(_:)``'s look-ups.
    /// - A sign-in through single sign-on started from an invite link carries the invite (the
    ///   SHA-256 of its token, as `invite` keeps it) to the callback, which spends it when the
    ///   identity gets a new account (`accounts.signup: invite`).
    private static func reviewSignIn(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "username_skeleton", .text)
            table.add(column: "display_name_skeleton", .text)
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, username, display_name FROM user") {
            let displayName: String? = row["display_name"]
            try db.execute(
                sql: "UPDATE user SET username_skeleton = ?, display_name_skeleton = ? WHERE id = ?",
                arguments: [NameSkeleton.of(row["username"]), displayName.map(NameSkeleton.of), row["id"]]
            )
        }
        try db.create(index: "user_by_username_skeleton", on: "user", columns: ["username_skeleton"])
        try db.create(index: "user_by_display_name_skeleton", on: "user", columns: ["display_name_skeleton"])
        try db.alter(table: "sign_in_attempt") { table in
            table.add(column: "invite_hash", .blob)
        }
    }

    /// Issue 50. The outbox's messages are sealed from now on (``OutboxKey``); the ones written
    /// before were readable, links and all, so their words go, zeroed in the file, and a message
    /// that still waited fails with a sentence for `/admin`: its link can be asked for again.
    /// And `email_key` becomes the key of a confirmed address only, so that its UNIQUE holds
    /// among confirmed addresses and an unconfirmed one blocks nobody (dropping the column's
    /// constraint instead would mean rebuilding `user`, its triggers and every reference to it).
    private static func sealMailAndFreeUnconfirmedAddresses(_ db: Database) throws {
        let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.execute(sql: """
            UPDATE mail_outbox SET state = 'failed', finished_at = strftime('%Y-%m-%d %H:%M:%f', 'now'),
                last_reply = 'not sent: written before an upgrade that keeps no message readable in the database; ask for it again'
                WHERE state = 'waiting';
            UPDATE mail_outbox SET message = X'';
            UPDATE user SET email_key = NULL WHERE email_verified_at IS NULL;
            """)
        try db.execute(sql: "PRAGMA secure_delete = \(secureDelete)")
    }

    /// Issue 50, two changes.
    ///
    /// A Goodreads import is written in short transactions, so that nobody else waits on the one
    /// writer for its whole run (`GoodreadsImporter`). It stays all or nothing for its member:
    /// each row it writes (a wish, a reading, a book it had to add) carries its `import_id`, and
    /// its `goodreads_import` row lives until the import has finished. A failure, or a process
    /// that stopped in the middle, leaves that row behind, and whatever carries its id is deleted.
    /// The ids stay on the rows afterwards (clearing them would write every row again); the
    /// table's ids are never reused, so a finished import's id never names a new one.
    ///
    /// A received book wished for again is a new wish and stays received: the date she wished
    /// for it again is kept on the received book, for its givers' "Given" history.
    private static func trackImportsAndWishesAgain(_ db: Database) throws {
        try db.create(table: "goodreads_import") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("started_at", .datetime).notNull()
        }
        for table in ["wishlist_item", "reading", "book"] {
            try db.alter(table: table) { $0.add(column: "import_id", .integer) }
            try db.execute(sql: "CREATE INDEX \(table)_by_import ON \(table) (import_id) WHERE import_id IS NOT NULL")
        }
        try db.alter(table: "received_item") { $0.add(column: "wished_again_at", .datetime) }
    }
}
