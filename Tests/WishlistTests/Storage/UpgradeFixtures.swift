import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// The databases earlier versions left behind, one per migration, kept as SQL text in
/// `Storage/Upgrades/schema-NN.sql`: the schema of the first NN migrations and the rows a
/// household would have written by then. Text, so that a fixture reads and diffs in review and
/// loads into any SQLite; made once, so that what an old version wrote stays fixed however the
/// migrations' code moves on. Cover addresses are on a closed loopback port: the app's cover job
/// runs while the test renders pages, and nothing a test does may reach beyond this machine.
enum UpgradeFixtures {
    static let folder = repositoryRoot.appendingPathComponent("Tests/WishlistTests/Storage/Upgrades")
    static let regenerate = "WISHLIST_WRITE_UPGRADE_FIXTURES=1 swift test --filter UpgradeFixtureWriter"

    /// The fixture of the database `migration` left, under the migration's number.
    static func url(_ migration: String) -> URL {
        let number = AppDatabase.migrator.migrations.firstIndex(of: migration)! + 1
        return folder.appendingPathComponent(String(format: "schema-%02d.sql", number))
    }

    /// The database as it stood after `last`: each migration up to it, each followed by the rows
    /// its version's users would have added, so older rows also went through the later
    /// migrations' backfills as they did on a real server.
    static func make(upTo last: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        for migration in AppDatabase.migrator.migrations.prefix(through: AppDatabase.migrator.migrations.firstIndex(of: last)!) {
            try AppDatabase.migrator.migrate(queue, upTo: migration)
            if let seed = seeds[migration] {
                try queue.write { try $0.execute(sql: seed) }
            }
        }
        return queue
    }

    /// The comment lines above a fixture's SQL: what it is, how it was made, and its row counts,
    /// which the upgrade test expects to find again.
    static func header(_ migration: String, counts: [String: Int]) -> [String] {
        [
            "The database of the migrations up to \(migration), seeded by UpgradeFixtures.seeds.",
            "Written by hand, once, never in CI: \(regenerate)",
            "rows: " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
        ]
    }

    /// The row counts a fixture's header recorded.
    static func recordedCounts(_ text: Substring) -> [String: Int] {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("-- rows: ") }) else { return [:] }
        return Dictionary(uniqueKeysWithValues: line.dropFirst("-- rows: ".count).split(separator: " ").map { pair in
            let parts = pair.split(separator: "=")
            return (String(parts[0]), Int(parts[1])!)
        })
    }

    /// Every seeded user's password, hashed with the tests' cheap Argon2 parameters
    /// (`TestApp.config`), so that the upgrade test signs in as they would.
    static let password = "correct horse battery"
    static let passwordHash = "$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g"

    /// What each version's users wrote, in that version's schema. Half-books (items, readings and
    /// received items with no `book_id`, as Goodreads imports made them before migration 19) come
    /// in the three kinds migration 19 tells apart: the ISBN of a catalog book, an ISBN no book
    /// has, and no ISBN.
    static let seeds: [String: String] = [
        "1-secrets": """
            INSERT INTO secret (name, value) VALUES ('csrf', X'000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
            """,
        "2-accounts": """
            INSERT INTO user (id, username, username_key, email, email_key, password_hash, created_at) VALUES
                (1, 'Alice', 'alice', 'alice@example.com', 'alice@example.com', '\(passwordHash)', '2024-03-01 10:00:00.000'),
                (2, 'bob', 'bob', NULL, NULL, '\(passwordHash)', '2024-03-01 10:05:00.000'),
                (3, 'carol', 'carol', 'carol@example.com', 'carol@example.com', '\(passwordHash)', '2024-03-01 10:10:00.000');
            INSERT INTO session (user_id, token_hash, created_at, last_seen_at, user_agent) VALUES
                (1, X'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', '2024-03-01 10:00:00.000', '2024-03-02 08:00:00.000', 'Firefox');
            INSERT INTO throttle_event (scope, happened_at) VALUES ('password:bob', '2024-03-02 09:00:00.000');
            """,
        "3-catalog": """
            INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current, published_date, fetched_at) VALUES
                ('hardcover-fiction', 'Hardcover Fiction', 'WEEKLY', '2024-03-10', 1, '2024-03-10', '2024-03-05 06:00:00.000'),
                ('e-book-fiction', 'E-Book Fiction', 'WEEKLY', '2017-01-29', 0, '2017-01-29', '2024-03-05 06:00:00.000');
            INSERT INTO book (id, title, author, contributor, publisher, description, price, isbn10, isbn13, other_isbns, image_url, image_width, image_height) VALUES
                ('9780000000019', 'The Lantern Road', 'Ada Marsh', 'by Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0.00', '0000000019', '9780000000019', '9780000000057',
                 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500),
                ('9780000000026', 'Salt and Iron', 'Ben Okafor', 'by Ben Okafor', 'Quay', 'Two foundries, one town.', NULL, '0000000027', '9780000000026', '', NULL, 0, 0),
                ('9780000000033', 'The Quiet Year', 'Cleo Park', 'by Cleo Park', 'Harbour', 'A village without its bells.', NULL, '0000000035', '9780000000033', '', NULL, 0, 0),
                ('9780000000040', 'North of Nowhere', 'Dev Rao', 'by Dev Rao', 'Quay', 'A map with a hole in it.', NULL, '0000000043', '9780000000040', '', NULL, 0, 0);
            INSERT INTO book_link (book_id, kind, position, name, url) VALUES
                ('9780000000019', 'buy', 0, 'Bookshop', 'https://bookshop.org/a/1/9780000000019'),
                ('9780000000019', 'reading', 0, 'Review', 'https://example.com/reviews/lantern-road');
            INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) VALUES
                ('hardcover-fiction', 1, '9780000000019', 2, 5),
                ('hardcover-fiction', 2, '9780000000026', 1, 12),
                ('hardcover-fiction', 3, '9780000000040', 0, 1);
            INSERT INTO book_search (book_id, title, author) SELECT book_id, title, author FROM list_entry JOIN book ON book.id = book_id;
            INSERT INTO favorite_list (user_id, list_name_encoded, created_at) VALUES (1, 'hardcover-fiction', '2024-03-05 07:00:00.000');
            INSERT INTO api_request (requested_at) VALUES ('2024-03-05 06:00:00.000');
            INSERT INTO catalog_sync_state (id, source, last_attempt_at, last_success_at, last_error, consecutive_failures) VALUES
                (1, 'sample', '2024-03-05 06:00:00.000', '2024-03-05 06:00:00.000', NULL, 0);
            """,
        "4-wishlist": """
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, added_at) VALUES
                (1, 1, '9780000000019', 'The Lantern Road', 'Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0000000019', '9780000000019',
                 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500,
                 '[["Bookshop","https://bookshop.org/a/1/9780000000019"]]', '[]', 'For the long train ride', '2024-03-05 08:00:00.000'),
                (2, 1, NULL, 'The Orchard Keeper', 'Mina Hale', 'Fieldstone', '', '000000006X', '9780000000064', NULL, 0, 0, '[]', '[]', 'From the Goodreads list', '2024-03-05 08:01:00.000'),
                (3, 1, NULL, 'Letters Never Sent', 'Anonymous', '', '', '', '', NULL, 0, 0, '[]', '[]', '', '2024-03-05 08:02:00.000'),
                (4, 1, NULL, 'Salt & Iron', 'Ben Okafor', 'Quay', '', '', '9780000000026', NULL, 0, 0, '[]', '[]', '', '2024-03-05 08:03:00.000'),
                (5, 2, '9780000000019', 'The Lantern Road', 'Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0000000019', '9780000000019',
                 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500, '[]', '[]', 'Signed, if they still have it', '2024-03-05 09:00:00.000'),
                (6, 2, '9780000000026', 'Salt and Iron', 'Ben Okafor', 'Quay', 'Two foundries, one town.', '0000000027', '9780000000026', NULL, 0, 0,
                 '[]', '[]', '', '2024-03-05 09:01:00.000'),
                (7, 1, '9780000000033', 'The Quiet Year', 'Cleo Park', 'Harbour', 'A village without its bells.', '0000000035', '9780000000033', NULL, 0, 0,
                 '[]', '[]', 'The paperback', '2024-03-05 08:04:00.000'),
                (8, 1, NULL, 'Winter Birds', 'Ola Berg', '', '', '', '', NULL, 0, 0, '[]', '[]', '', '2024-03-05 08:05:00.000');
            UPDATE user SET default_list = 'hardcover-fiction' WHERE id = 1;
            """,
        "6-household": """
            UPDATE user SET sharing = 'household' WHERE id IN (1, 2);
            UPDATE wishlist_item SET priority = 1 WHERE id = 1;
            UPDATE wishlist_item SET priority = -1 WHERE id = 6;
            INSERT INTO reservation (id, item_id, giver_id, owner_id, owner_name, title, author, reserved_at) VALUES
                (1, 5, 1, 2, 'bob', 'The Lantern Road', 'Ada Marsh', '2024-03-06 10:00:00.000'),
                (2, 1, 3, 1, 'Alice', 'The Lantern Road', 'Ada Marsh', '2024-03-06 10:01:00.000'),
                (3, 7, 2, 1, 'Alice', 'The Quiet Year', 'Cleo Park', '2024-03-06 10:02:00.000'),
                (4, NULL, 3, NULL, 'dave', 'A Removed Book', 'Someone', '2024-03-06 10:03:00.000');
            INSERT INTO share_link (user_id, token_hash, created_at) VALUES
                (2, X'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2', '2024-03-06 11:00:00.000');
            """,
        "7-administration": """
            UPDATE user SET is_admin = 1 WHERE id = 1;
            INSERT INTO password_reset (user_id, token_hash, created_at, expires_at, used_at) VALUES
                (2, X'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3', '2024-03-06 12:00:00.000', '2024-03-07 12:00:00.000', NULL);
            INSERT INTO invite (token_hash, created_by, created_at, expires_at, used_at, used_by) VALUES
                (X'd4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4', 'Alice', '2024-03-01 10:06:00.000', '2024-03-08 10:06:00.000',
                 '2024-03-01 10:10:00.000', 'carol');
            INSERT INTO audit_event (happened_at, actor, action, subject) VALUES ('2024-03-06 12:00:00.000', 'Alice', 'made a password reset link', 'bob');
            """,
        "8-editions": """
            INSERT INTO edition (list_name_encoded, published_date, previous_published_date, fetched_at) VALUES
                ('hardcover-fiction', '2024-03-03', NULL, '2024-03-05 06:00:00.000');
            UPDATE edition SET previous_published_date = '2024-03-03' WHERE list_name_encoded = 'hardcover-fiction' AND published_date = '2024-03-10';
            INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list) VALUES
                ('hardcover-fiction', '2024-03-03', 1, '9780000000026', 1, 11),
                ('hardcover-fiction', '2024-03-03', 2, '9780000000019', 3, 4),
                ('hardcover-fiction', '2024-03-03', 3, '9780000000033', 0, 7);
            """,
        "9-feed-links": """
            INSERT INTO feed_link (user_id, token_hash, created_at) VALUES
                (1, X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', '2024-03-06 13:00:00.000');
            """,
        "10-passkeys": """
            INSERT INTO passkey_user (user_id, handle) VALUES (1, X'f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6');
            INSERT INTO passkey (user_id, credential_id, public_key, sign_count, name, created_at, last_used_at) VALUES
                (1, X'0a0b0c0d0e0f', X'a5010203262001215820', 3, 'Alice''s laptop', '2024-03-06 14:00:00.000', '2024-03-07 08:00:00.000');
            INSERT INTO passkey_challenge (challenge, purpose, user_id, expires_at) VALUES (X'1a1b1c1d', 'sign-in', NULL, '2024-03-07 08:05:00.000');
            """,
        "15-passkey-challenge-browser": """
            INSERT INTO passkey_challenge (challenge, purpose, user_id, browser, address, expires_at) VALUES
                (X'2a2b2c2d', 'registration', 1, X'3a3b3c3d', '192.0.2.7', '2024-03-08 08:05:00.000');
            """,
        "16-readers": """
            INSERT INTO reading (id, user_id, book_id, title, author, isbn13, rating, review, finished_on, updated_at) VALUES
                (1, 1, '9780000000019', 'The Lantern Road', 'Ada Marsh', '9780000000019', 5, 'Could not put it down.', '2024-02-20', '2024-03-07 09:00:00.000'),
                (2, 1, NULL, 'The Orchard Keeper', 'Mina Hale', '9780000000064', 4, '', NULL, '2024-03-07 09:01:00.000');
            UPDATE user SET bio = 'Reads on trains.', birthday = '04-12' WHERE id = 1;
            INSERT INTO favorite_book (user_id, position, reading_id) VALUES (1, 0, 1);
            INSERT INTO profile_picture (user_id, key, large, small, uploaded_at) VALUES
                (1, 'bGFyZ2Vfc21hbGwx', X'ffd8ffe000104a464946', X'ffd8ffe0', '2024-03-07 09:02:00.000');
            """,
        "17-gift-cycle": """
            INSERT INTO received_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at, received_at)
                SELECT id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                       buy_links, reading_links, note, priority, added_at, '2024-03-09 18:00:00.000'
                FROM wishlist_item WHERE id IN (7, 8);
            DELETE FROM wishlist_item WHERE id IN (7, 8);
            UPDATE reservation SET bought_at = '2024-03-08 12:00:00.000', card = 'Happy birthday, Alice!', received_item_id = 7 WHERE id = 3;
            UPDATE reservation SET bought_at = '2024-03-08 12:30:00.000' WHERE id = 1;
            """,
        "18-gift-ideas": """
            INSERT INTO gift_idea (id, owner_id, suggested_by, book_id, title, author, note, created_at) VALUES
                (1, 1, 2, '9780000000040', 'North of Nowhere', 'Dev Rao', 'She loved his first one.', '2024-03-09 19:00:00.000');
            INSERT INTO reservation (id, item_id, giver_id, owner_id, owner_name, title, author, reserved_at, idea_id) VALUES
                (5, NULL, 3, 1, 'Alice', 'North of Nowhere', 'Dev Rao', '2024-03-09 19:05:00.000', 1);
            """,
        "19-any-book-and-covers": """
            INSERT INTO book (id, title, author, contributor, publisher, description, price, isbn10, isbn13, other_isbns, image_url, image_width, image_height,
                              source, first_published, added_at) VALUES
                ('9780000000071', 'Tidewater', 'Ines Alves', '', 'Littoral', 'Found on Open Library.', NULL, '0000000078', '9780000000071', '',
                 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, 'added', 1998, '2024-03-10 10:00:00.000');
            INSERT INTO book_isbn (book_id, isbn) VALUES ('9780000000071', '9780000000071');
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at) VALUES
                (9, 2, '9780000000071', 'Tidewater', 'Ines Alves', 'Littoral', 'Found on Open Library.', '0000000078', '9780000000071',
                 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, '[]', '[]', 'Any edition', 1, '2024-03-10 10:01:00.000');
            UPDATE cover SET status = 'failed', failures = 2, retry_at = '2024-03-10 12:00:00.000'
                WHERE url = 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg';
            """,
        "20-sign-in-identities": """
            INSERT INTO sign_in_identity (id, user_id, issuer, subject, created_at, last_used_at) VALUES
                (1, 2, 'https://id.example.org/realms/home', 'f3a9c1d2-bob', '2024-03-11 09:00:00.000', '2024-03-12 08:30:00.000');
            INSERT INTO user (id, username, username_key, email, email_key, password_hash, created_at) VALUES
                (4, 'dana.q', 'dana.q', NULL, NULL, '', '2024-03-11 09:05:00.000');
            INSERT INTO sign_in_identity (id, user_id, issuer, subject, created_at, last_used_at) VALUES
                (2, 4, 'https://id.example.org/realms/home', 'a7e0-dana', '2024-03-11 09:05:00.000', NULL);
            INSERT INTO sign_in_attempt (state, browser, nonce, code_verifier, user_id, next, address, expires_at) VALUES
                ('c3RhdGUtb25l', X'5a5b5c5d', 'bm9uY2Utb25l', 'dmVyaWZpZXItb25l', NULL, '/wishlist', '192.0.2.7', '2024-03-12 08:40:00.000');
            """,
        // Alice confirmed her address and asked for the digest; a verification link and a digest
        // wait in the outbox, a reset mail failed, and one unsubscribe link exists.
        "21-mail": """
            UPDATE user SET email_verified_at = '2024-03-12 09:00:00.000', digest_weekly = 1, digest_week = '2024-03-11' WHERE id = 1;
            INSERT INTO email_verification (id, user_id, email, token_hash, created_at, expires_at, used_at) VALUES
                (1, 1, 'alice@example.com', X'01020304', '2024-03-12 08:50:00.000', '2024-03-13 08:50:00.000', '2024-03-12 09:00:00.000');
            INSERT INTO mail_outbox (id, kind, user_id, recipient, message, created_at, next_attempt_at, attempts, state, last_reply, finished_at) VALUES
                (1, 'digest', 1, 'alice@example.com', X'446174653a20', '2024-03-12 09:05:00.000', '2024-03-12 09:07:00.000', 1, 'waiting', '451 4.3.0 Try later', NULL),
                (2, 'password-reset', 1, 'alice@example.com', X'446174653a20', '2024-03-12 09:06:00.000', '2024-03-12 09:06:00.000', 1, 'failed', '550 5.1.1 No such mailbox', '2024-03-12 09:06:01.000');
            INSERT INTO unsubscribe_link (token_hash, user_id, created_at) VALUES (X'0a0b0c0d', 1, '2024-03-12 09:05:00.000');
            """,
        // Carol goes by "Grandma Carol"; Bob calls himself "Alice", another account's username,
        // so pages must show his username beside it.
        "22-display-names": """
            UPDATE user SET display_name = 'Grandma Carol', display_name_key = 'grandma carol' WHERE id = 3;
            UPDATE user SET display_name = 'Alice', display_name_key = 'alice' WHERE id = 2;
            """,
        // Alice wants Tidewater too, so two sharing members' wishes of it meet in the new index.
        "23-wishlist-by-book-and-user": """
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at) VALUES
                (10, 1, '9780000000071', 'Tidewater', 'Ines Alves', 'Littoral', 'Found on Open Library.', '0000000078', '9780000000071',
                 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, '[]', '[]', '', 0, '2024-03-13 10:00:00.000');
            """,
        // A rating after the household's figures are kept, so the next upgrade starts with a kept row.
        "24-household-figures": """
            INSERT INTO reading (user_id, book_id, title, author, rating, review, updated_at) VALUES
                (1, '9780000000071', 'Tidewater', 'Ines Alves', 4, '', '2024-03-14 10:00:00.000');
            """,
        // Bob reserves Alice's Tidewater and Carol rates it, after each member's pages have
        // generations of their own.
        "25-owner-generations": """
            INSERT INTO reservation (id, item_id, giver_id, owner_id, owner_name, title, author, reserved_at) VALUES
                (6, 10, 2, 1, 'Alice', 'Tidewater', 'Ines Alves', '2024-03-15 10:00:00.000');
            INSERT INTO reading (user_id, book_id, title, author, rating, review, updated_at) VALUES
                (3, '9780000000071', 'Tidewater', 'Ines Alves', 5, 'Read it twice.', '2024-03-15 11:00:00.000');
            """,
        // Admin Alice invites again, and the invitee presses single sign-on on the invite's
        // sign-up page: the sign-in waits at the provider, carrying the invite.
        "26-signin-review": """
            INSERT INTO invite (token_hash, created_by, created_at, expires_at, used_at, used_by) VALUES
                (X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', 'alice', '2024-03-16 08:00:00.000', '2024-03-23 08:00:00.000', NULL, NULL);
            INSERT INTO sign_in_attempt (state, browser, nonce, code_verifier, user_id, next, address, expires_at, invite_hash) VALUES
                ('c3RhdGUtdHdv', X'6a6b6c6d', 'bm9uY2UtdHdv', 'dmVyaWZpZXItdHdv', NULL, '/', '192.0.2.8', '2024-03-16 08:40:00.000',
                 X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5');
            """,
        // Dana gives the address Alice confirmed: it stays unconfirmed, blocks nobody, and Alice
        // was told by a notice that has left the outbox, empty.
        "27-mail-review": """
            UPDATE user SET email = 'alice@example.com' WHERE id = 4;
            INSERT INTO mail_outbox (id, kind, user_id, recipient, message, created_at, next_attempt_at, attempts, state, last_reply, finished_at) VALUES
                (3, 'address-in-use', 1, 'alice@example.com', X'', '2024-03-16 09:00:00.000', '2024-03-16 09:00:00.000', 1, 'sent', '250 2.0.0 Queued', '2024-03-16 09:00:01.000');
            """,
        // Alice wishes for a book she received again (a new wish; the received one stays, its
        // card and reservation with it), and Carol's finished import brought a wish.
        "28-data-review": """
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at)
                SELECT 11, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                       buy_links, reading_links, note, priority, '2024-03-16 10:00:00.000'
                FROM received_item WHERE id = 7;
            UPDATE received_item SET wished_again_at = '2024-03-16 10:00:00.000' WHERE id = 7;
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at, import_id) VALUES
                (12, 3, '9780000000040', 'North of Nowhere', 'Dev Rao', 'Quay', '', '0000000043', '9780000000040', NULL, 0, 0,
                 '[]', '[]', 'From Goodreads', 0, '2024-03-16 11:00:00.000', 1);
            """,
        // Alice follows the author of The Lantern Road (issue 52).
        "29-authors": """
            INSERT INTO followed_author (user_id, author_key, name, followed_at) VALUES (1, 'ada marsh', 'Ada Marsh', '2024-03-17 09:00:00.000');
            """,
        // Alice's reserved book on her birthday list as well, and a book only on a private list.
        "30-occasions": """
            INSERT INTO wish_list (id, user_id, name, occasion, occasion_date, visibility, is_default, position, created_at) VALUES
                (20, 1, 'Birthday', 'birthday', NULL, 'household', 0, 1, '2024-03-20 09:00:00.000'),
                (21, 1, 'Someday', 'none', NULL, 'private', 0, 2, '2024-03-20 09:01:00.000'),
                (22, 1, 'Lisbon', 'date', '2024-07-01', 'household', 0, 3, '2024-03-20 09:02:00.000');
            INSERT INTO wish_list_item (list_id, item_id) VALUES (20, 1), (21, 3);
            DELETE FROM wish_list_item WHERE item_id = 3 AND list_id != 21;
            """,
        // Alice manages her daughter Bea's profile (issue 51); Bob reserved Bea's wish, and a
        // hand-over link Alice made has expired.
        "31-children": """
            INSERT INTO user (id, username, username_key, username_skeleton, password_hash, created_at, kind, sharing, display_name, display_name_key, display_name_skeleton, birthday) VALUES
                (10, '~bea', '~bea', '~bea', '', '2024-03-21 09:00:00.000', 'child', 'household', 'Bea', 'bea', 'bea', '05-04');
            INSERT INTO child_manager (child_id, manager_id, added_at) VALUES (10, 1, '2024-03-21 09:00:00.000');
            INSERT INTO wishlist_item (id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
                                       buy_links, reading_links, note, priority, added_at) VALUES
                (13, 10, '9780000000040', 'North of Nowhere', 'Dev Rao', 'Quay', '', '0000000043', '9780000000040', NULL, 0, 0,
                 '[]', '[]', 'For the summer', 0, '2024-03-21 09:05:00.000');
            INSERT INTO reservation (id, item_id, giver_id, owner_id, owner_name, title, author, reserved_at) VALUES
                (20, 13, 2, 10, 'Bea', 'North of Nowhere', 'Dev Rao', '2024-03-21 10:00:00.000');
            INSERT INTO child_hand_over (id, child_id, token_hash, created_by, created_at, expires_at) VALUES
                (1, 10, X'00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 1, '2024-03-21 11:00:00.000', '2024-03-28 11:00:00.000');
            """,
        "32-first-week": """
            INSERT INTO setup_link (token_hash, created_at, used_at) VALUES
                (X'5e7f0c1d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5', '2024-03-01 08:00:00.000', '2024-03-01 08:05:00.000');
            """,
        // Alice's API tokens (issue 54): one used, read-write and expiring; one read, never used.
        "33-api-tokens": """
            INSERT INTO api_token (id, user_id, name, scope, token_hash, created_at, expires_at, last_used_at, last_used_from) VALUES
                (1, 1, 'Home Assistant', 'read', X'a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0', '2024-03-21 09:00:00.000', NULL,
                 '2024-03-21 10:00:00.000', '192.0.2.7'),
                (2, 1, 'Shortcut', 'read-write', X'b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0', '2024-03-21 09:05:00.000',
                 '2024-06-19 09:05:00.000', NULL, NULL);
            """,
        // Alice's share link for her Birthday list alone, and Grandpa's reservation on her wishlist's link (issue 57).
        "34-list-share-links": """
            INSERT INTO share_link (list_id, token_hash, created_at) VALUES
                (20, X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', '2024-03-22 09:00:00.000');
            INSERT INTO guest_reservation (id, item_id, guest_name, cancel_token_hash, reserved_at) VALUES
                (1, 2, 'Grandpa', X'f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6', '2024-03-22 09:05:00.000');
            """,
        // Alice reads the app in German; everyone else follows the browser (issue 53).
        "35-language": """
            UPDATE user SET language = 'de' WHERE id = 1;
            """,
        // Bob reads The Quiet Year now, and Alice means to read 24 books in 2024 (issue 57).
        "36-reading-goal": """
            INSERT INTO reading_now (user_id, book_id, started_at) VALUES (2, '9780000000033', '2024-03-23 20:00:00.000');
            INSERT INTO reading_goal (user_id, year, books) VALUES (1, 2024, 24);
            """,
    ]
}

/// Writes the fixtures that are missing: run by hand (`UpgradeFixtures.regenerate`) after adding a
/// migration and its seed. Existing fixtures are left alone, since each is what its version wrote;
/// delete one to write it again.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["WISHLIST_WRITE_UPGRADE_FIXTURES"] == "1"))
struct UpgradeFixtureWriter {
    @Test func writeTheMissingFixtures() throws {
        try FileManager.default.createDirectory(at: UpgradeFixtures.folder, withIntermediateDirectories: true)
        for migration in AppDatabase.migrator.migrations where !FileManager.default.fileExists(atPath: UpgradeFixtures.url(migration).path) {
            let text = try UpgradeFixtures.make(upTo: migration).read { db in
                try SQLDump.text(of: db, header: UpgradeFixtures.header(migration, counts: try SQLDump.rowCounts(db)))
            }
            try text.write(to: UpgradeFixtures.url(migration), atomically: true, encoding: .utf8)
        }
    }
}
