-- The database of the migrations up to 38-imported-wishes-counted-by-statement, seeded by UpgradeFixtures.seeds.
-- Written by hand, once, never in CI: WISHLIST_WRITE_UPGRADE_FIXTURES=1 swift test --filter UpgradeFixtureWriter
-- rows: api_request=1 api_token=2 audit_event=1 book=8 book_credit=4 book_household=7 book_isbn=11 book_link=2 book_search=3 catalog_generation=1 catalog_list=2 catalog_sync_state=1 child_hand_over=1 child_manager=1 cover=2 edition=3 edition_entry=6 email_verification=1 favorite_book=1 favorite_list=1 feed_link=1 followed_author=1 gift_idea=1 goodreads_import=0 grdb_migrations=38 guest_reservation=1 invite=2 list_entry=3 mail_outbox=3 name_generation=1 owner_generation=5 passkey=1 passkey_challenge=2 passkey_user=1 password_reset=1 profile_picture=1 reading=4 reading_goal=1 reading_now=1 received_item=2 reservation=7 secret=1 session=1 setup_link=1 share_link=2 sign_in_attempt=2 sign_in_identity=2 throttle_event=1 unsubscribe_link=1 user=5 wish_list=8 wish_list_item=12 wishlist_generation=1 wishlist_item=11
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "secret" ("name" TEXT PRIMARY KEY NOT NULL, "value" BLOB NOT NULL);
CREATE TABLE "user" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "username" TEXT NOT NULL, "username_key" TEXT NOT NULL UNIQUE, "email" TEXT, "email_key" TEXT UNIQUE, "password_hash" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "default_list" TEXT, "sharing" TEXT NOT NULL DEFAULT 'private', "is_admin" BOOLEAN NOT NULL DEFAULT 0, "disabled_at" DATETIME, "bio" TEXT NOT NULL DEFAULT '', "birthday" TEXT, "email_verified_at" DATETIME, "digest_weekly" BOOLEAN NOT NULL DEFAULT 0, "digest_week" TEXT, "display_name" TEXT, "display_name_key" TEXT, "username_skeleton" TEXT, "display_name_skeleton" TEXT, kind TEXT NOT NULL DEFAULT 'member' CHECK (kind IN ('member', 'child')), language TEXT);
CREATE TABLE "session" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL, "last_seen_at" DATETIME NOT NULL, "user_agent" TEXT NOT NULL DEFAULT '');
CREATE TABLE "throttle_event" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "scope" TEXT NOT NULL, "happened_at" DATETIME NOT NULL);
CREATE TABLE "catalog_list" ("name_encoded" TEXT PRIMARY KEY NOT NULL, "display_name" TEXT NOT NULL, "frequency" TEXT NOT NULL, "newest_published_date" TEXT NOT NULL, "is_current" BOOLEAN NOT NULL DEFAULT 0, "published_date" TEXT, "fetched_at" DATETIME);
CREATE TABLE "book" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "contributor" TEXT NOT NULL, "publisher" TEXT NOT NULL, "description" TEXT NOT NULL, "price" TEXT, "isbn10" TEXT NOT NULL, "isbn13" TEXT NOT NULL, "other_isbns" TEXT NOT NULL, "image_url" TEXT, "image_width" INTEGER NOT NULL, "image_height" INTEGER NOT NULL, "source" TEXT NOT NULL DEFAULT 'nyt', "first_published" INTEGER, "added_at" DATETIME, "import_id" INTEGER);
CREATE TABLE "book_link" ("book_id" TEXT NOT NULL REFERENCES "book"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "position" INTEGER NOT NULL, "name" TEXT NOT NULL, "url" TEXT NOT NULL, PRIMARY KEY ("book_id", "kind", "position"));
CREATE TABLE "list_entry" ("list_name_encoded" TEXT NOT NULL REFERENCES "catalog_list"("name_encoded") ON DELETE CASCADE, "rank" INTEGER NOT NULL, "book_id" TEXT NOT NULL REFERENCES "book"("id"), "rank_last_week" INTEGER NOT NULL, "weeks_on_list" INTEGER NOT NULL, PRIMARY KEY ("list_name_encoded", "rank"));
CREATE VIRTUAL TABLE book_search USING fts5(book_id UNINDEXED, title, author, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE "favorite_list" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "list_name_encoded" TEXT NOT NULL, "created_at" DATETIME NOT NULL, PRIMARY KEY ("user_id", "list_name_encoded"));
CREATE TABLE "api_request" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "requested_at" DATETIME NOT NULL);
CREATE TABLE "catalog_sync_state" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "source" TEXT NOT NULL, "last_attempt_at" DATETIME, "last_success_at" DATETIME, "last_error" TEXT, "consecutive_failures" INTEGER NOT NULL DEFAULT 0);
CREATE TABLE "wishlist_item" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "book_id" TEXT, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "publisher" TEXT NOT NULL, "description" TEXT NOT NULL, "isbn10" TEXT NOT NULL, "isbn13" TEXT NOT NULL, "image_url" TEXT, "image_width" INTEGER NOT NULL, "image_height" INTEGER NOT NULL, "buy_links" TEXT NOT NULL, "reading_links" TEXT NOT NULL, "note" TEXT NOT NULL DEFAULT '', "added_at" DATETIME NOT NULL, "priority" INTEGER NOT NULL DEFAULT 0, "import_id" INTEGER, shared BOOLEAN NOT NULL DEFAULT 0);
CREATE TABLE "book_isbn" ("book_id" TEXT NOT NULL REFERENCES "book"("id") ON DELETE CASCADE, "isbn" TEXT NOT NULL, PRIMARY KEY ("book_id", "isbn"));
CREATE TABLE "reservation" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "item_id" INTEGER UNIQUE REFERENCES "wishlist_item"("id") ON DELETE SET NULL, "giver_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "owner_id" INTEGER REFERENCES "user"("id") ON DELETE SET NULL, "owner_name" TEXT NOT NULL, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "reserved_at" DATETIME NOT NULL, "bought_at" DATETIME, "card" TEXT NOT NULL DEFAULT '', "received_item_id" INTEGER REFERENCES "received_item"("id") ON DELETE SET NULL, "idea_id" INTEGER REFERENCES "gift_idea"("id") ON DELETE SET NULL);
CREATE TABLE "password_reset" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL, "expires_at" DATETIME NOT NULL, "used_at" DATETIME);
CREATE TABLE "invite" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "token_hash" BLOB NOT NULL UNIQUE, "created_by" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "expires_at" DATETIME NOT NULL, "used_at" DATETIME, "used_by" TEXT);
CREATE TABLE "audit_event" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "happened_at" DATETIME NOT NULL, "actor" TEXT NOT NULL, "action" TEXT NOT NULL, "subject" TEXT NOT NULL);
CREATE TABLE "edition" ("list_name_encoded" TEXT NOT NULL REFERENCES "catalog_list"("name_encoded") ON DELETE CASCADE, "published_date" TEXT NOT NULL, "previous_published_date" TEXT, "fetched_at" DATETIME NOT NULL, PRIMARY KEY ("list_name_encoded", "published_date"));
CREATE TABLE "edition_entry" ("list_name_encoded" TEXT NOT NULL, "published_date" TEXT NOT NULL, "rank" INTEGER NOT NULL, "book_id" TEXT NOT NULL REFERENCES "book"("id"), "rank_last_week" INTEGER NOT NULL, "weeks_on_list" INTEGER NOT NULL, PRIMARY KEY ("list_name_encoded", "published_date", "rank"), FOREIGN KEY ("list_name_encoded", "published_date") REFERENCES "edition"("list_name_encoded", "published_date") ON DELETE CASCADE);
CREATE TABLE "feed_link" ("user_id" INTEGER PRIMARY KEY REFERENCES "user"("id") ON DELETE CASCADE, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL);
CREATE TABLE "passkey_user" ("user_id" INTEGER PRIMARY KEY REFERENCES "user"("id") ON DELETE CASCADE, "handle" BLOB NOT NULL UNIQUE);
CREATE TABLE "passkey" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "credential_id" BLOB NOT NULL UNIQUE, "public_key" BLOB NOT NULL, "sign_count" INTEGER NOT NULL, "name" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "last_used_at" DATETIME);
CREATE TABLE "passkey_challenge" ("challenge" BLOB PRIMARY KEY NOT NULL, "purpose" TEXT NOT NULL, "user_id" INTEGER REFERENCES "user"("id") ON DELETE CASCADE, "expires_at" DATETIME NOT NULL, "browser" BLOB, "address" TEXT);
CREATE TABLE catalog_generation (value INTEGER NOT NULL);
CREATE TABLE wishlist_generation (value INTEGER NOT NULL);
CREATE TABLE "reading" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "book_id" TEXT, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "isbn13" TEXT NOT NULL DEFAULT '', "rating" INTEGER CHECK (("rating" IS NULL) OR (("rating" >= 1) AND ("rating" <= 5))), "review" TEXT NOT NULL DEFAULT '', "finished_on" TEXT, "updated_at" DATETIME NOT NULL, "import_id" INTEGER);
CREATE TABLE "favorite_book" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "reading_id" INTEGER NOT NULL REFERENCES "reading"("id") ON DELETE CASCADE, PRIMARY KEY ("user_id", "position"));
CREATE TABLE "profile_picture" ("user_id" INTEGER PRIMARY KEY REFERENCES "user"("id") ON DELETE CASCADE, "key" TEXT NOT NULL UNIQUE, "large" BLOB NOT NULL, "small" BLOB NOT NULL, "uploaded_at" DATETIME NOT NULL);
CREATE TABLE "received_item" ("id" INTEGER PRIMARY KEY, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "book_id" TEXT, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "publisher" TEXT NOT NULL, "description" TEXT NOT NULL, "isbn10" TEXT NOT NULL, "isbn13" TEXT NOT NULL, "image_url" TEXT, "image_width" INTEGER NOT NULL, "image_height" INTEGER NOT NULL, "buy_links" TEXT NOT NULL, "reading_links" TEXT NOT NULL, "note" TEXT NOT NULL, "priority" INTEGER NOT NULL, "added_at" DATETIME NOT NULL, "received_at" DATETIME NOT NULL, "wished_again_at" DATETIME);
CREATE TABLE "gift_idea" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "suggested_by" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "book_id" TEXT NOT NULL, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "note" TEXT NOT NULL, "created_at" DATETIME NOT NULL);
CREATE TABLE "cover" ("url" TEXT PRIMARY KEY NOT NULL, "key" TEXT UNIQUE, "status" TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'failed', 'evicted')) DEFAULT 'pending', "failures" INTEGER NOT NULL DEFAULT 0, "retry_at" DATETIME, "large_height" INTEGER, "fetched_at" DATETIME);
CREATE TABLE "sign_in_identity" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "issuer" TEXT NOT NULL, "subject" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "last_used_at" DATETIME, UNIQUE ("issuer", "subject"));
CREATE TABLE "sign_in_attempt" ("state" TEXT PRIMARY KEY NOT NULL, "browser" BLOB NOT NULL, "nonce" TEXT NOT NULL, "code_verifier" TEXT NOT NULL, "user_id" INTEGER REFERENCES "user"("id") ON DELETE CASCADE, "next" TEXT NOT NULL DEFAULT '/', "address" TEXT NOT NULL, "expires_at" DATETIME NOT NULL, "invite_hash" BLOB);
CREATE TABLE "mail_outbox" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "kind" TEXT NOT NULL, "user_id" INTEGER REFERENCES "user"("id") ON DELETE CASCADE, "recipient" TEXT NOT NULL, "message" BLOB NOT NULL, "created_at" DATETIME NOT NULL, "next_attempt_at" DATETIME NOT NULL, "attempts" INTEGER NOT NULL DEFAULT 0, "state" TEXT NOT NULL DEFAULT 'waiting', "last_reply" TEXT, "finished_at" DATETIME);
CREATE TABLE "email_verification" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "email" TEXT NOT NULL, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL, "expires_at" DATETIME NOT NULL, "used_at" DATETIME);
CREATE TABLE "unsubscribe_link" ("token_hash" BLOB PRIMARY KEY, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "created_at" DATETIME NOT NULL);
CREATE TABLE book_household (
    book_id TEXT PRIMARY KEY NOT NULL,
    wanted INTEGER NOT NULL DEFAULT 0,
    rating_sum INTEGER NOT NULL DEFAULT 0,
    rating_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE owner_generation (
    user_id INTEGER PRIMARY KEY NOT NULL,
    wishes INTEGER NOT NULL DEFAULT 0,
    about INTEGER NOT NULL DEFAULT 0,
    givers INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE name_generation (value INTEGER NOT NULL);
CREATE TABLE "goodreads_import" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "started_at" DATETIME NOT NULL);
CREATE TABLE "book_credit" ("book_id" TEXT NOT NULL REFERENCES "book"("id") ON DELETE CASCADE, "position" INTEGER NOT NULL, "author_key" TEXT NOT NULL, "name" TEXT NOT NULL, "role" TEXT NOT NULL, PRIMARY KEY ("book_id", "position"));
CREATE TABLE "followed_author" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "author_key" TEXT NOT NULL, "name" TEXT NOT NULL, "followed_at" DATETIME NOT NULL, PRIMARY KEY ("user_id", "author_key"));
CREATE TABLE wish_list (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    occasion TEXT NOT NULL DEFAULT 'none',
    occasion_date TEXT,
    visibility TEXT NOT NULL DEFAULT 'household',
    is_default BOOLEAN NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0,
    created_at DATETIME NOT NULL
);
CREATE TABLE wish_list_item (
    list_id INTEGER NOT NULL REFERENCES wish_list(id) ON DELETE CASCADE,
    item_id INTEGER NOT NULL REFERENCES wishlist_item(id) ON DELETE CASCADE,
    PRIMARY KEY (list_id, item_id)
);
CREATE TABLE child_manager (
    child_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    manager_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    added_at DATETIME NOT NULL,
    PRIMARY KEY (child_id, manager_id)
);
CREATE TABLE child_hand_over (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    child_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL UNIQUE,
    created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL,
    used_at DATETIME
);
CREATE TABLE "setup_link" ("token_hash" BLOB PRIMARY KEY NOT NULL, "created_at" DATETIME NOT NULL, "used_at" DATETIME);
CREATE TABLE "api_token" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "name" TEXT NOT NULL, "scope" TEXT NOT NULL, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL, "expires_at" DATETIME, "last_used_at" DATETIME, "last_used_from" TEXT);
CREATE TABLE share_link (
    list_id INTEGER PRIMARY KEY REFERENCES wish_list(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL UNIQUE,
    created_at DATETIME NOT NULL
);
CREATE TABLE guest_reservation (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id INTEGER NOT NULL UNIQUE REFERENCES wishlist_item(id) ON DELETE CASCADE,
    guest_name TEXT NOT NULL,
    cancel_token_hash BLOB NOT NULL UNIQUE,
    reserved_at DATETIME NOT NULL
);
CREATE TABLE "reading_now" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "book_id" TEXT NOT NULL REFERENCES "book"("id") ON DELETE CASCADE, "started_at" DATETIME NOT NULL, PRIMARY KEY ("user_id", "book_id"));
CREATE TABLE "reading_goal" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "year" INTEGER NOT NULL, "books" INTEGER NOT NULL CHECK (("books" >= 1) AND ("books" <= 1000)), PRIMARY KEY ("user_id", "year"));
INSERT INTO "grdb_migrations" ("identifier") VALUES ('1-secrets');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('2-accounts');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('3-catalog');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('4-wishlist');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('5-book-isbns');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('6-household');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('7-administration');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('8-editions');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('9-feed-links');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('10-passkeys');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('11-catalog-generation');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('12-wishlist-generation');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('13-search-current-books');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('14-reservation-generation');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('15-passkey-challenge-browser');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('16-readers');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('17-gift-cycle');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('18-gift-ideas');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('19-any-book-and-covers');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('20-sign-in-identities');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('21-mail');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('22-display-names');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('23-wishlist-by-book-and-user');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('24-household-figures');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('25-owner-generations');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('26-signin-review');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('27-mail-review');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('28-data-review');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('29-authors');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('30-occasions');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('31-children');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('32-first-week');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('33-api-tokens');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('34-list-share-links');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('35-language');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('36-reading-goal');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('37-wishlist-by-book-shared');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('38-imported-wishes-counted-by-statement');
INSERT INTO "secret" ("name", "value") VALUES ('csrf', X'000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at", "default_list", "sharing", "is_admin", "disabled_at", "bio", "birthday", "email_verified_at", "digest_weekly", "digest_week", "display_name", "display_name_key", "username_skeleton", "display_name_skeleton", "kind", "language") VALUES (1, 'Alice', 'alice', 'alice@example.com', 'alice@example.com', '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:00:00.000', 'hardcover-fiction', 'household', 1, NULL, 'Reads on trains.', '04-12', '2024-03-12 09:00:00.000', 1, '2024-03-11', NULL, NULL, 'allce', NULL, 'member', 'de');
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at", "default_list", "sharing", "is_admin", "disabled_at", "bio", "birthday", "email_verified_at", "digest_weekly", "digest_week", "display_name", "display_name_key", "username_skeleton", "display_name_skeleton", "kind", "language") VALUES (2, 'bob', 'bob', NULL, NULL, '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:05:00.000', NULL, 'household', 0, NULL, '', NULL, NULL, 0, NULL, 'Alice', 'alice', 'bob', 'allce', 'member', NULL);
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at", "default_list", "sharing", "is_admin", "disabled_at", "bio", "birthday", "email_verified_at", "digest_weekly", "digest_week", "display_name", "display_name_key", "username_skeleton", "display_name_skeleton", "kind", "language") VALUES (3, 'carol', 'carol', 'carol@example.com', NULL, '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:10:00.000', NULL, 'private', 0, NULL, '', NULL, NULL, 0, NULL, 'Grandma Carol', 'grandma carol', 'carol', 'grandrna carol', 'member', NULL);
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at", "default_list", "sharing", "is_admin", "disabled_at", "bio", "birthday", "email_verified_at", "digest_weekly", "digest_week", "display_name", "display_name_key", "username_skeleton", "display_name_skeleton", "kind", "language") VALUES (4, 'dana.q', 'dana.q', 'alice@example.com', NULL, '', '2024-03-11 09:05:00.000', NULL, 'private', 0, NULL, '', NULL, NULL, 0, NULL, NULL, NULL, 'dana.q', NULL, 'member', NULL);
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at", "default_list", "sharing", "is_admin", "disabled_at", "bio", "birthday", "email_verified_at", "digest_weekly", "digest_week", "display_name", "display_name_key", "username_skeleton", "display_name_skeleton", "kind", "language") VALUES (10, '~bea', '~bea', NULL, NULL, '', '2024-03-21 09:00:00.000', NULL, 'household', 0, NULL, '', '05-04', NULL, 0, NULL, 'Bea', 'bea', '~bea', 'bea', 'child', NULL);
INSERT INTO "session" ("id", "user_id", "token_hash", "created_at", "last_seen_at", "user_agent") VALUES (1, 1, X'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', '2024-03-01 10:00:00.000', '2024-03-02 08:00:00.000', 'Firefox');
INSERT INTO "throttle_event" ("id", "scope", "happened_at") VALUES (1, 'password:bob', '2024-03-02 09:00:00.000');
INSERT INTO "catalog_list" ("name_encoded", "display_name", "frequency", "newest_published_date", "is_current", "published_date", "fetched_at") VALUES ('hardcover-fiction', 'Hardcover Fiction', 'WEEKLY', '2024-03-10', 1, '2024-03-10', '2024-03-05 06:00:00.000');
INSERT INTO "catalog_list" ("name_encoded", "display_name", "frequency", "newest_published_date", "is_current", "published_date", "fetched_at") VALUES ('e-book-fiction', 'E-Book Fiction', 'WEEKLY', '2017-01-29', 0, '2017-01-29', '2024-03-05 06:00:00.000');
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000019', 'The Lantern Road', 'Ada Marsh', 'by Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0.00', '0000000019', '9780000000019', '9780000000057', 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500, 'nyt', NULL, NULL, NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000026', 'Salt and Iron', 'Ben Okafor', 'by Ben Okafor', 'Quay', 'Two foundries, one town.', NULL, '0000000027', '9780000000026', '', NULL, 0, 0, 'nyt', NULL, NULL, NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000033', 'The Quiet Year', 'Cleo Park', 'by Cleo Park', 'Harbour', 'A village without its bells.', NULL, '0000000035', '9780000000033', '', NULL, 0, 0, 'nyt', NULL, NULL, NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000040', 'North of Nowhere', 'Dev Rao', 'by Dev Rao', 'Quay', 'A map with a hole in it.', NULL, '0000000043', '9780000000040', '', NULL, 0, 0, 'nyt', NULL, NULL, NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000064', 'The Orchard Keeper', 'Mina Hale', '', 'Fieldstone', '', NULL, '000000006X', '9780000000064', '', NULL, 0, 0, 'added', NULL, '2024-03-05 08:01:00.000', NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('added-183625fba682', 'Letters Never Sent', 'Anonymous', '', '', '', NULL, '', '', '', NULL, 0, 0, 'added', NULL, '2024-03-05 08:02:00.000', NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('added-be76df9aba8b', 'Winter Birds', 'Ola Berg', '', '', '', NULL, '', '', '', NULL, 0, 0, 'added', NULL, '2024-03-05 08:05:00.000', NULL);
INSERT INTO "book" ("id", "title", "author", "contributor", "publisher", "description", "price", "isbn10", "isbn13", "other_isbns", "image_url", "image_width", "image_height", "source", "first_published", "added_at", "import_id") VALUES ('9780000000071', 'Tidewater', 'Ines Alves', '', 'Littoral', 'Found on Open Library.', NULL, '0000000078', '9780000000071', '', 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, 'added', 1998, '2024-03-10 10:00:00.000', NULL);
INSERT INTO "book_link" ("book_id", "kind", "position", "name", "url") VALUES ('9780000000019', 'buy', 0, 'Bookshop', 'https://bookshop.org/a/1/9780000000019');
INSERT INTO "book_link" ("book_id", "kind", "position", "name", "url") VALUES ('9780000000019', 'reading', 0, 'Review', 'https://example.com/reviews/lantern-road');
INSERT INTO "list_entry" ("list_name_encoded", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', 1, '9780000000019', 2, 5);
INSERT INTO "list_entry" ("list_name_encoded", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', 2, '9780000000026', 1, 12);
INSERT INTO "list_entry" ("list_name_encoded", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', 3, '9780000000040', 0, 1);
INSERT INTO "book_search" ("book_id", "title", "author") VALUES ('9780000000019', 'The Lantern Road', 'Ada Marsh');
INSERT INTO "book_search" ("book_id", "title", "author") VALUES ('9780000000026', 'Salt and Iron', 'Ben Okafor');
INSERT INTO "book_search" ("book_id", "title", "author") VALUES ('9780000000040', 'North of Nowhere', 'Dev Rao');
INSERT INTO "favorite_list" ("user_id", "list_name_encoded", "created_at") VALUES (1, 'hardcover-fiction', '2024-03-05 07:00:00.000');
INSERT INTO "api_request" ("id", "requested_at") VALUES (1, '2024-03-05 06:00:00.000');
INSERT INTO "catalog_sync_state" ("id", "source", "last_attempt_at", "last_success_at", "last_error", "consecutive_failures") VALUES (1, 'sample', '2024-03-05 06:00:00.000', '2024-03-05 06:00:00.000', NULL, 0);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (1, 1, '9780000000019', 'The Lantern Road', 'Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0000000019', '9780000000019', 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500, '[["Bookshop","https://bookshop.org/a/1/9780000000019"]]', '[]', 'For the long train ride', '2024-03-05 08:00:00.000', 1, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (2, 1, '9780000000064', 'The Orchard Keeper', 'Mina Hale', 'Fieldstone', '', '000000006X', '9780000000064', NULL, 0, 0, '[]', '[]', 'From the Goodreads list', '2024-03-05 08:01:00.000', 0, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (3, 1, 'added-183625fba682', 'Letters Never Sent', 'Anonymous', '', '', '', '', NULL, 0, 0, '[]', '[]', '', '2024-03-05 08:02:00.000', 0, NULL, 0);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (4, 1, '9780000000026', 'Salt & Iron', 'Ben Okafor', 'Quay', '', '', '9780000000026', NULL, 0, 0, '[]', '[]', '', '2024-03-05 08:03:00.000', 0, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (5, 2, '9780000000019', 'The Lantern Road', 'Ada Marsh', 'Harbour', 'A ferryman''s last crossing.', '0000000019', '9780000000019', 'http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', 330, 500, '[]', '[]', 'Signed, if they still have it', '2024-03-05 09:00:00.000', 0, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (6, 2, '9780000000026', 'Salt and Iron', 'Ben Okafor', 'Quay', 'Two foundries, one town.', '0000000027', '9780000000026', NULL, 0, 0, '[]', '[]', '', '2024-03-05 09:01:00.000', -1, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (9, 2, '9780000000071', 'Tidewater', 'Ines Alves', 'Littoral', 'Found on Open Library.', '0000000078', '9780000000071', 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, '[]', '[]', 'Any edition', '2024-03-10 10:01:00.000', 1, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (10, 1, '9780000000071', 'Tidewater', 'Ines Alves', 'Littoral', 'Found on Open Library.', '0000000078', '9780000000071', 'http://127.0.0.1:9/b/id/12345-L.jpg', 0, 0, '[]', '[]', '', '2024-03-13 10:00:00.000', 0, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (11, 1, '9780000000033', 'The Quiet Year', 'Cleo Park', 'Harbour', 'A village without its bells.', '0000000035', '9780000000033', NULL, 0, 0, '[]', '[]', 'The paperback', '2024-03-16 10:00:00.000', 0, NULL, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (12, 3, '9780000000040', 'North of Nowhere', 'Dev Rao', 'Quay', '', '0000000043', '9780000000040', NULL, 0, 0, '[]', '[]', 'From Goodreads', '2024-03-16 11:00:00.000', 0, 1, 1);
INSERT INTO "wishlist_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "added_at", "priority", "import_id", "shared") VALUES (13, 10, '9780000000040', 'North of Nowhere', 'Dev Rao', 'Quay', '', '0000000043', '9780000000040', NULL, 0, 0, '[]', '[]', 'For the summer', '2024-03-21 09:05:00.000', 0, NULL, 1);
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000019', '9780000000019');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000019', '0000000019');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000019', '9780000000057');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000026', '9780000000026');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000026', '0000000027');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000033', '9780000000033');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000033', '0000000035');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000040', '9780000000040');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000040', '0000000043');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000064', '9780000000064');
INSERT INTO "book_isbn" ("book_id", "isbn") VALUES ('9780000000071', '9780000000071');
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (1, 5, 1, 2, 'bob', 'The Lantern Road', 'Ada Marsh', '2024-03-06 10:00:00.000', '2024-03-08 12:30:00.000', '', NULL, NULL);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (2, 1, 3, 1, 'Alice', 'The Lantern Road', 'Ada Marsh', '2024-03-06 10:01:00.000', NULL, '', NULL, NULL);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (3, NULL, 2, 1, 'Alice', 'The Quiet Year', 'Cleo Park', '2024-03-06 10:02:00.000', '2024-03-08 12:00:00.000', 'Happy birthday, Alice!', 7, NULL);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (4, NULL, 3, NULL, 'dave', 'A Removed Book', 'Someone', '2024-03-06 10:03:00.000', NULL, '', NULL, NULL);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (5, NULL, 3, 1, 'Alice', 'North of Nowhere', 'Dev Rao', '2024-03-09 19:05:00.000', NULL, '', NULL, 1);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (6, 10, 2, 1, 'Alice', 'Tidewater', 'Ines Alves', '2024-03-15 10:00:00.000', NULL, '', NULL, NULL);
INSERT INTO "reservation" ("id", "item_id", "giver_id", "owner_id", "owner_name", "title", "author", "reserved_at", "bought_at", "card", "received_item_id", "idea_id") VALUES (20, 13, 2, 10, 'Bea', 'North of Nowhere', 'Dev Rao', '2024-03-21 10:00:00.000', NULL, '', NULL, NULL);
INSERT INTO "password_reset" ("id", "user_id", "token_hash", "created_at", "expires_at", "used_at") VALUES (1, 2, X'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3', '2024-03-06 12:00:00.000', '2024-03-07 12:00:00.000', NULL);
INSERT INTO "invite" ("id", "token_hash", "created_by", "created_at", "expires_at", "used_at", "used_by") VALUES (1, X'd4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4', 'Alice', '2024-03-01 10:06:00.000', '2024-03-08 10:06:00.000', '2024-03-01 10:10:00.000', 'carol');
INSERT INTO "invite" ("id", "token_hash", "created_by", "created_at", "expires_at", "used_at", "used_by") VALUES (2, X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', 'alice', '2024-03-16 08:00:00.000', '2024-03-23 08:00:00.000', NULL, NULL);
INSERT INTO "audit_event" ("id", "happened_at", "actor", "action", "subject") VALUES (1, '2024-03-06 12:00:00.000', 'Alice', 'made a password reset link', 'bob');
INSERT INTO "edition" ("list_name_encoded", "published_date", "previous_published_date", "fetched_at") VALUES ('hardcover-fiction', '2024-03-10', '2024-03-03', '2024-03-05 06:00:00.000');
INSERT INTO "edition" ("list_name_encoded", "published_date", "previous_published_date", "fetched_at") VALUES ('e-book-fiction', '2017-01-29', NULL, '2024-03-05 06:00:00.000');
INSERT INTO "edition" ("list_name_encoded", "published_date", "previous_published_date", "fetched_at") VALUES ('hardcover-fiction', '2024-03-03', NULL, '2024-03-05 06:00:00.000');
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-10', 1, '9780000000019', 2, 5);
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-10', 2, '9780000000026', 1, 12);
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-10', 3, '9780000000040', 0, 1);
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-03', 1, '9780000000026', 1, 11);
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-03', 2, '9780000000019', 3, 4);
INSERT INTO "edition_entry" ("list_name_encoded", "published_date", "rank", "book_id", "rank_last_week", "weeks_on_list") VALUES ('hardcover-fiction', '2024-03-03', 3, '9780000000033', 0, 7);
INSERT INTO "feed_link" ("user_id", "token_hash", "created_at") VALUES (1, X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', '2024-03-06 13:00:00.000');
INSERT INTO "passkey_user" ("user_id", "handle") VALUES (1, X'f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6');
INSERT INTO "passkey" ("id", "user_id", "credential_id", "public_key", "sign_count", "name", "created_at", "last_used_at") VALUES (1, 1, X'0a0b0c0d0e0f', X'a5010203262001215820', 3, 'Alice''s laptop', '2024-03-06 14:00:00.000', '2024-03-07 08:00:00.000');
INSERT INTO "passkey_challenge" ("challenge", "purpose", "user_id", "expires_at", "browser", "address") VALUES (X'1a1b1c1d', 'sign-in', NULL, '2024-03-07 08:05:00.000', NULL, NULL);
INSERT INTO "passkey_challenge" ("challenge", "purpose", "user_id", "expires_at", "browser", "address") VALUES (X'2a2b2c2d', 'registration', 1, '2024-03-08 08:05:00.000', X'3a3b3c3d', '192.0.2.7');
INSERT INTO "catalog_generation" ("value") VALUES (0);
INSERT INTO "wishlist_generation" ("value") VALUES (48);
INSERT INTO "reading" ("id", "user_id", "book_id", "title", "author", "isbn13", "rating", "review", "finished_on", "updated_at", "import_id") VALUES (1, 1, '9780000000019', 'The Lantern Road', 'Ada Marsh', '9780000000019', 5, 'Could not put it down.', '2024-02-20', '2024-03-07 09:00:00.000', NULL);
INSERT INTO "reading" ("id", "user_id", "book_id", "title", "author", "isbn13", "rating", "review", "finished_on", "updated_at", "import_id") VALUES (2, 1, '9780000000064', 'The Orchard Keeper', 'Mina Hale', '9780000000064', 4, '', NULL, '2024-03-07 09:01:00.000', NULL);
INSERT INTO "reading" ("id", "user_id", "book_id", "title", "author", "isbn13", "rating", "review", "finished_on", "updated_at", "import_id") VALUES (3, 1, '9780000000071', 'Tidewater', 'Ines Alves', '', 4, '', NULL, '2024-03-14 10:00:00.000', NULL);
INSERT INTO "reading" ("id", "user_id", "book_id", "title", "author", "isbn13", "rating", "review", "finished_on", "updated_at", "import_id") VALUES (4, 3, '9780000000071', 'Tidewater', 'Ines Alves', '', 5, 'Read it twice.', NULL, '2024-03-15 11:00:00.000', NULL);
INSERT INTO "favorite_book" ("user_id", "position", "reading_id") VALUES (1, 0, 1);
INSERT INTO "profile_picture" ("user_id", "key", "large", "small", "uploaded_at") VALUES (1, 'bGFyZ2Vfc21hbGwx', X'ffd8ffe000104a464946', X'ffd8ffe0', '2024-03-07 09:02:00.000');
INSERT INTO "received_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "priority", "added_at", "received_at", "wished_again_at") VALUES (7, 1, '9780000000033', 'The Quiet Year', 'Cleo Park', 'Harbour', 'A village without its bells.', '0000000035', '9780000000033', NULL, 0, 0, '[]', '[]', 'The paperback', 0, '2024-03-05 08:04:00.000', '2024-03-09 18:00:00.000', '2024-03-16 10:00:00.000');
INSERT INTO "received_item" ("id", "user_id", "book_id", "title", "author", "publisher", "description", "isbn10", "isbn13", "image_url", "image_width", "image_height", "buy_links", "reading_links", "note", "priority", "added_at", "received_at", "wished_again_at") VALUES (8, 1, 'added-be76df9aba8b', 'Winter Birds', 'Ola Berg', '', '', '', '', NULL, 0, 0, '[]', '[]', '', 0, '2024-03-05 08:05:00.000', '2024-03-09 18:00:00.000', NULL);
INSERT INTO "gift_idea" ("id", "owner_id", "suggested_by", "book_id", "title", "author", "note", "created_at") VALUES (1, 1, 2, '9780000000040', 'North of Nowhere', 'Dev Rao', 'She loved his first one.', '2024-03-09 19:00:00.000');
INSERT INTO "cover" ("url", "key", "status", "failures", "retry_at", "large_height", "fetched_at") VALUES ('http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg', NULL, 'failed', 2, '2024-03-10 12:00:00.000', NULL, NULL);
INSERT INTO "cover" ("url", "key", "status", "failures", "retry_at", "large_height", "fetched_at") VALUES ('http://127.0.0.1:9/b/id/12345-L.jpg', NULL, 'pending', 0, NULL, NULL, NULL);
INSERT INTO "sign_in_identity" ("id", "user_id", "issuer", "subject", "created_at", "last_used_at") VALUES (1, 2, 'https://id.example.org/realms/home', 'f3a9c1d2-bob', '2024-03-11 09:00:00.000', '2024-03-12 08:30:00.000');
INSERT INTO "sign_in_identity" ("id", "user_id", "issuer", "subject", "created_at", "last_used_at") VALUES (2, 4, 'https://id.example.org/realms/home', 'a7e0-dana', '2024-03-11 09:05:00.000', NULL);
INSERT INTO "sign_in_attempt" ("state", "browser", "nonce", "code_verifier", "user_id", "next", "address", "expires_at", "invite_hash") VALUES ('c3RhdGUtb25l', X'5a5b5c5d', 'bm9uY2Utb25l', 'dmVyaWZpZXItb25l', NULL, '/wishlist', '192.0.2.7', '2024-03-12 08:40:00.000', NULL);
INSERT INTO "sign_in_attempt" ("state", "browser", "nonce", "code_verifier", "user_id", "next", "address", "expires_at", "invite_hash") VALUES ('c3RhdGUtdHdv', X'6a6b6c6d', 'bm9uY2UtdHdv', 'dmVyaWZpZXItdHdv', NULL, '/', '192.0.2.8', '2024-03-16 08:40:00.000', X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5');
INSERT INTO "mail_outbox" ("id", "kind", "user_id", "recipient", "message", "created_at", "next_attempt_at", "attempts", "state", "last_reply", "finished_at") VALUES (1, 'digest', 1, 'alice@example.com', X'', '2024-03-12 09:05:00.000', '2024-03-12 09:07:00.000', 1, 'failed', 'not sent: written before an upgrade that keeps no message readable in the database; ask for it again', '2026-11-30 13:49:08.576');
INSERT INTO "mail_outbox" ("id", "kind", "user_id", "recipient", "message", "created_at", "next_attempt_at", "attempts", "state", "last_reply", "finished_at") VALUES (2, 'password-reset', 1, 'alice@example.com', X'', '2024-03-12 09:06:00.000', '2024-03-12 09:06:00.000', 1, 'failed', '550 5.1.1 No such mailbox', '2024-03-12 09:06:01.000');
INSERT INTO "mail_outbox" ("id", "kind", "user_id", "recipient", "message", "created_at", "next_attempt_at", "attempts", "state", "last_reply", "finished_at") VALUES (3, 'address-in-use', 1, 'alice@example.com', X'', '2024-03-16 09:00:00.000', '2024-03-16 09:00:00.000', 1, 'sent', '250 2.0.0 Queued', '2024-03-16 09:00:01.000');
INSERT INTO "email_verification" ("id", "user_id", "email", "token_hash", "created_at", "expires_at", "used_at") VALUES (1, 1, 'alice@example.com', X'01020304', '2024-03-12 08:50:00.000', '2024-03-13 08:50:00.000', '2024-03-12 09:00:00.000');
INSERT INTO "unsubscribe_link" ("token_hash", "user_id", "created_at") VALUES (X'0a0b0c0d', 1, '2024-03-12 09:05:00.000');
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000019', 2, 5, 1);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000026', 2, 0, 0);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000064', 1, 4, 1);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000071', 2, 4, 1);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('added-183625fba682', 0, 0, 0);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000033', 1, 0, 0);
INSERT INTO "book_household" ("book_id", "wanted", "rating_sum", "rating_count") VALUES ('9780000000040', 1, 0, 0);
INSERT INTO "owner_generation" ("user_id", "wishes", "about", "givers") VALUES (1, 14, 2, 2);
INSERT INTO "owner_generation" ("user_id", "wishes", "about", "givers") VALUES (2, 3, 3, 0);
INSERT INTO "owner_generation" ("user_id", "wishes", "about", "givers") VALUES (3, 2, 3, 0);
INSERT INTO "owner_generation" ("user_id", "wishes", "about", "givers") VALUES (4, 0, 3, 0);
INSERT INTO "owner_generation" ("user_id", "wishes", "about", "givers") VALUES (10, 4, 0, 1);
INSERT INTO "name_generation" ("value") VALUES (1);
INSERT INTO "book_credit" ("book_id", "position", "author_key", "name", "role") VALUES ('9780000000019', 0, 'ada marsh', 'Ada Marsh', 'author');
INSERT INTO "book_credit" ("book_id", "position", "author_key", "name", "role") VALUES ('9780000000026', 0, 'ben okafor', 'Ben Okafor', 'author');
INSERT INTO "book_credit" ("book_id", "position", "author_key", "name", "role") VALUES ('9780000000033', 0, 'cleo park', 'Cleo Park', 'author');
INSERT INTO "book_credit" ("book_id", "position", "author_key", "name", "role") VALUES ('9780000000040', 0, 'dev rao', 'Dev Rao', 'author');
INSERT INTO "followed_author" ("user_id", "author_key", "name", "followed_at") VALUES (1, 'ada marsh', 'Ada Marsh', '2024-03-17 09:00:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (1, 1, 'Wishlist', 'none', NULL, 'household', 1, 0, '2024-03-01 10:00:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (2, 2, 'Wishlist', 'none', NULL, 'household', 1, 0, '2024-03-01 10:05:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (3, 3, 'Wishlist', 'none', NULL, 'household', 1, 0, '2024-03-01 10:10:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (4, 4, 'Wishlist', 'none', NULL, 'household', 1, 0, '2024-03-11 09:05:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (20, 1, 'Birthday', 'birthday', NULL, 'household', 0, 1, '2024-03-20 09:00:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (21, 1, 'Someday', 'none', NULL, 'private', 0, 2, '2024-03-20 09:01:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (22, 1, 'Lisbon', 'date', '2024-07-01', 'household', 0, 3, '2024-03-20 09:02:00.000');
INSERT INTO "wish_list" ("id", "user_id", "name", "occasion", "occasion_date", "visibility", "is_default", "position", "created_at") VALUES (23, 10, 'Wishlist', 'none', NULL, 'household', 1, 0, '2024-03-21 09:00:00.000');
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (1, 2);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (1, 4);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (1, 10);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (1, 11);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (1, 1);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (2, 6);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (2, 5);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (2, 9);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (3, 12);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (20, 1);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (21, 3);
INSERT INTO "wish_list_item" ("list_id", "item_id") VALUES (23, 13);
INSERT INTO "child_manager" ("child_id", "manager_id", "added_at") VALUES (10, 1, '2024-03-21 09:00:00.000');
INSERT INTO "child_hand_over" ("id", "child_id", "token_hash", "created_by", "created_at", "expires_at", "used_at") VALUES (1, 10, X'00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 1, '2024-03-21 11:00:00.000', '2024-03-28 11:00:00.000', NULL);
INSERT INTO "setup_link" ("token_hash", "created_at", "used_at") VALUES (X'5e7f0c1d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5', '2024-03-01 08:00:00.000', '2024-03-01 08:05:00.000');
INSERT INTO "api_token" ("id", "user_id", "name", "scope", "token_hash", "created_at", "expires_at", "last_used_at", "last_used_from") VALUES (1, 1, 'Home Assistant', 'read', X'a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0', '2024-03-21 09:00:00.000', NULL, '2024-03-21 10:00:00.000', '192.0.2.7');
INSERT INTO "api_token" ("id", "user_id", "name", "scope", "token_hash", "created_at", "expires_at", "last_used_at", "last_used_from") VALUES (2, 1, 'Shortcut', 'read-write', X'b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0', '2024-03-21 09:05:00.000', '2024-06-19 09:05:00.000', NULL, NULL);
INSERT INTO "share_link" ("list_id", "token_hash", "created_at") VALUES (2, X'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2', '2024-03-06 11:00:00.000');
INSERT INTO "share_link" ("list_id", "token_hash", "created_at") VALUES (20, X'e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5', '2024-03-22 09:00:00.000');
INSERT INTO "guest_reservation" ("id", "item_id", "guest_name", "cancel_token_hash", "reserved_at") VALUES (1, 2, 'Grandpa', X'f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6', '2024-03-22 09:05:00.000');
INSERT INTO "reading_now" ("user_id", "book_id", "started_at") VALUES (2, '9780000000033', '2024-03-23 20:00:00.000');
INSERT INTO "reading_goal" ("user_id", "year", "books") VALUES (1, 2024, 24);
DELETE FROM sqlite_sequence;
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('user', 10);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('session', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('throttle_event', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('api_request', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('wishlist_item', 13);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('reservation', 20);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('password_reset', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('invite', 2);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('audit_event', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('passkey', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('reading', 4);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('gift_idea', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('sign_in_identity', 2);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('email_verification', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('mail_outbox', 3);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('wish_list', 23);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('child_hand_over', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('api_token', 2);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('guest_reservation', 1);
CREATE INDEX "session_on_user_id" ON "session"("user_id");
CREATE INDEX "throttle_event_on_scope_time" ON "throttle_event"("scope", "happened_at");
CREATE INDEX "throttle_event_on_time" ON "throttle_event"("happened_at");
CREATE INDEX "list_entry_on_book_id" ON "list_entry"("book_id");
CREATE INDEX "api_request_on_requested_at" ON "api_request"("requested_at");
CREATE UNIQUE INDEX "wishlist_item_unique_book" ON "wishlist_item"("user_id", "book_id");
CREATE INDEX "wishlist_item_by_added" ON "wishlist_item"("user_id", "added_at");
CREATE INDEX wishlist_item_by_title ON wishlist_item (user_id, title COLLATE NOCASE);
CREATE INDEX wishlist_item_by_author ON wishlist_item (user_id, author COLLATE NOCASE);
CREATE INDEX "book_isbn_on_isbn" ON "book_isbn"("isbn");
CREATE INDEX "wishlist_item_by_priority" ON "wishlist_item"("user_id", "priority", "added_at");
CREATE INDEX "user_by_sharing" ON "user"("sharing", "username_key");
CREATE INDEX "reservation_on_giver_id" ON "reservation"("giver_id");
CREATE INDEX "reservation_on_owner_id" ON "reservation"("owner_id");
CREATE INDEX "password_reset_on_user_id" ON "password_reset"("user_id");
CREATE INDEX "audit_event_on_happened_at" ON "audit_event"("happened_at");
CREATE INDEX "edition_entry_by_book" ON "edition_entry"("book_id", "list_name_encoded", "published_date");
CREATE INDEX "passkey_on_user_id" ON "passkey"("user_id");
CREATE INDEX "passkey_challenge_on_expires_at" ON "passkey_challenge"("expires_at");
CREATE TRIGGER catalog_list_insert_generation AFTER INSERT ON catalog_list
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER catalog_list_update_generation AFTER UPDATE ON catalog_list
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER catalog_list_delete_generation AFTER DELETE ON catalog_list
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER list_entry_insert_generation AFTER INSERT ON list_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER list_entry_update_generation AFTER UPDATE ON list_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER list_entry_delete_generation AFTER DELETE ON list_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_insert_generation AFTER INSERT ON edition
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_update_generation AFTER UPDATE ON edition
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_delete_generation AFTER DELETE ON edition
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_entry_insert_generation AFTER INSERT ON edition_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_entry_update_generation AFTER UPDATE ON edition_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER edition_entry_delete_generation AFTER DELETE ON edition_entry
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER wishlist_item_update_wishlist_generation AFTER UPDATE ON wishlist_item
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER wishlist_item_delete_wishlist_generation AFTER DELETE ON wishlist_item
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER user_insert_wishlist_generation AFTER INSERT ON user
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER user_update_wishlist_generation AFTER UPDATE ON user
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER user_delete_wishlist_generation AFTER DELETE ON user
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE INDEX "list_entry_by_book" ON "list_entry"("book_id");
CREATE TRIGGER list_entry_insert_search AFTER INSERT ON list_entry
    WHEN NOT EXISTS (SELECT 1 FROM book_search WHERE book_id = NEW.book_id)
    BEGIN INSERT INTO book_search (book_id, title, author) SELECT id, title, author FROM book WHERE id = NEW.book_id; END;
CREATE TRIGGER list_entry_delete_search AFTER DELETE ON list_entry
    WHEN NOT EXISTS (SELECT 1 FROM list_entry WHERE book_id = OLD.book_id)
    BEGIN DELETE FROM book_search WHERE book_id = OLD.book_id; END;
CREATE TRIGGER book_update_search AFTER UPDATE OF title, author ON book
    BEGIN UPDATE book_search SET title = NEW.title, author = NEW.author WHERE book_id = NEW.id; END;
CREATE INDEX "passkey_challenge_by_browser" ON "passkey_challenge"("browser");
CREATE INDEX "passkey_challenge_by_address" ON "passkey_challenge"("address");
CREATE UNIQUE INDEX "reading_unique_book" ON "reading"("user_id", "book_id");
CREATE INDEX "reading_by_book" ON "reading"("book_id");
CREATE INDEX "reading_by_finished" ON "reading"("user_id", "finished_on");
CREATE INDEX "favorite_book_on_reading_id" ON "favorite_book"("reading_id");
CREATE TRIGGER reading_insert_wishlist_generation AFTER INSERT ON reading
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER reading_update_wishlist_generation AFTER UPDATE ON reading
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER reading_delete_wishlist_generation AFTER DELETE ON reading
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER favorite_book_insert_wishlist_generation AFTER INSERT ON favorite_book
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER favorite_book_update_wishlist_generation AFTER UPDATE ON favorite_book
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER favorite_book_delete_wishlist_generation AFTER DELETE ON favorite_book
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER profile_picture_insert_wishlist_generation AFTER INSERT ON profile_picture
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER profile_picture_update_wishlist_generation AFTER UPDATE ON profile_picture
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER profile_picture_delete_wishlist_generation AFTER DELETE ON profile_picture
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE INDEX "received_item_by_user" ON "received_item"("user_id", "received_at");
CREATE INDEX "reservation_by_received_item" ON "reservation"("received_item_id");
CREATE TRIGGER received_item_insert_wishlist_generation AFTER INSERT ON received_item
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER received_item_update_wishlist_generation AFTER UPDATE ON received_item
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER received_item_delete_wishlist_generation AFTER DELETE ON received_item
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE INDEX "gift_idea_on_suggested_by" ON "gift_idea"("suggested_by");
CREATE UNIQUE INDEX "gift_idea_unique_book" ON "gift_idea"("owner_id", "book_id");
CREATE UNIQUE INDEX "reservation_unique_idea" ON "reservation"("idea_id");
CREATE TRIGGER book_insert_generation AFTER INSERT ON book WHEN NEW.source = 'nyt'
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER book_update_generation AFTER UPDATE ON book WHEN NEW.source = 'nyt'
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE TRIGGER book_delete_generation AFTER DELETE ON book WHEN OLD.source = 'nyt'
BEGIN UPDATE catalog_generation SET value = value + 1; END;
CREATE INDEX "cover_by_status" ON "cover"("status", "retry_at");
CREATE TRIGGER book_insert_cover AFTER INSERT ON book WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE TRIGGER book_update_cover AFTER UPDATE OF image_url ON book WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE TRIGGER wishlist_item_insert_cover AFTER INSERT ON wishlist_item WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE TRIGGER wishlist_item_update_cover AFTER UPDATE OF image_url ON wishlist_item WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE TRIGGER received_item_insert_cover AFTER INSERT ON received_item WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE TRIGGER received_item_update_cover AFTER UPDATE OF image_url ON received_item WHEN COALESCE(NEW.image_url, '') <> ''
BEGIN INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url); END;
CREATE INDEX "sign_in_identity_on_user_id" ON "sign_in_identity"("user_id");
CREATE INDEX "sign_in_attempt_on_address" ON "sign_in_attempt"("address");
CREATE INDEX "sign_in_attempt_on_expires_at" ON "sign_in_attempt"("expires_at");
CREATE INDEX "mail_outbox_due" ON "mail_outbox"("state", "next_attempt_at");
CREATE INDEX "email_verification_by_user" ON "email_verification"("user_id");
CREATE INDEX "unsubscribe_link_by_user" ON "unsubscribe_link"("user_id");
CREATE INDEX "user_by_display_name_key" ON "user"("display_name_key");
CREATE TRIGGER reading_insert_household AFTER INSERT ON reading
WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND (SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)
BEGIN INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (NEW.book_id, 1 * NEW.rating, 1)
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER reading_delete_household AFTER DELETE ON reading
WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND (SELECT 1 FROM user WHERE user.id = OLD.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)
BEGIN INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (OLD.book_id, -1 * OLD.rating, -1)
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER reading_update_household_old AFTER UPDATE OF book_id, user_id, rating ON reading
WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND (SELECT 1 FROM user WHERE user.id = OLD.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)
BEGIN INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (OLD.book_id, -1 * OLD.rating, -1)
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER reading_update_household_new AFTER UPDATE OF book_id, user_id, rating ON reading
WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND (SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)
BEGIN INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (NEW.book_id, 1 * NEW.rating, 1)
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER wishlist_item_delete_owner_generation AFTER DELETE ON wishlist_item BEGIN INSERT INTO owner_generation (user_id, wishes) SELECT OLD.user_id, 1 WHERE OLD.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; END;
CREATE TRIGGER wishlist_item_update_owner_generation AFTER UPDATE ON wishlist_item BEGIN
    INSERT INTO owner_generation (user_id, wishes) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
    INSERT INTO owner_generation (user_id, wishes) SELECT (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END), 1 WHERE (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
END;
CREATE TRIGGER reading_insert_owner_generation AFTER INSERT ON reading BEGIN INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER reading_delete_owner_generation AFTER DELETE ON reading BEGIN INSERT INTO owner_generation (user_id, about) SELECT OLD.user_id, 1 WHERE OLD.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER reading_update_owner_generation AFTER UPDATE ON reading BEGIN
    INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
    INSERT INTO owner_generation (user_id, about) SELECT (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END), 1 WHERE (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
END;
CREATE TRIGGER favorite_book_insert_owner_generation AFTER INSERT ON favorite_book BEGIN INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER favorite_book_delete_owner_generation AFTER DELETE ON favorite_book BEGIN INSERT INTO owner_generation (user_id, about) SELECT OLD.user_id, 1 WHERE OLD.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER favorite_book_update_owner_generation AFTER UPDATE ON favorite_book BEGIN
    INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
    INSERT INTO owner_generation (user_id, about) SELECT (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END), 1 WHERE (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
END;
CREATE TRIGGER profile_picture_insert_owner_generation AFTER INSERT ON profile_picture BEGIN INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER profile_picture_delete_owner_generation AFTER DELETE ON profile_picture BEGIN INSERT INTO owner_generation (user_id, about) SELECT OLD.user_id, 1 WHERE OLD.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER profile_picture_update_owner_generation AFTER UPDATE ON profile_picture BEGIN
    INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
    INSERT INTO owner_generation (user_id, about) SELECT (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END), 1 WHERE (CASE WHEN OLD.user_id IS NOT NEW.user_id THEN OLD.user_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
END;
CREATE TRIGGER reservation_insert_owner_generation AFTER INSERT ON reservation BEGIN INSERT INTO owner_generation (user_id, givers) SELECT NEW.owner_id, 1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE TRIGGER reservation_delete_owner_generation AFTER DELETE ON reservation BEGIN INSERT INTO owner_generation (user_id, givers) SELECT OLD.owner_id, 1 WHERE OLD.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE TRIGGER reservation_update_owner_generation AFTER UPDATE ON reservation BEGIN
    INSERT INTO owner_generation (user_id, givers) SELECT NEW.owner_id, 1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
    INSERT INTO owner_generation (user_id, givers) SELECT (CASE WHEN OLD.owner_id IS NOT NEW.owner_id THEN OLD.owner_id END), 1 WHERE (CASE WHEN OLD.owner_id IS NOT NEW.owner_id THEN OLD.owner_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
END;
CREATE TRIGGER gift_idea_insert_owner_generation AFTER INSERT ON gift_idea BEGIN INSERT INTO owner_generation (user_id, givers) SELECT NEW.owner_id, 1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE TRIGGER gift_idea_delete_owner_generation AFTER DELETE ON gift_idea BEGIN INSERT INTO owner_generation (user_id, givers) SELECT OLD.owner_id, 1 WHERE OLD.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE TRIGGER gift_idea_update_owner_generation AFTER UPDATE ON gift_idea BEGIN
    INSERT INTO owner_generation (user_id, givers) SELECT NEW.owner_id, 1 WHERE NEW.owner_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
    INSERT INTO owner_generation (user_id, givers) SELECT (CASE WHEN OLD.owner_id IS NOT NEW.owner_id THEN OLD.owner_id END), 1 WHERE (CASE WHEN OLD.owner_id IS NOT NEW.owner_id THEN OLD.owner_id END) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
END;
CREATE TRIGGER user_update_owner_generation AFTER UPDATE ON user BEGIN INSERT INTO owner_generation (user_id, about) SELECT NEW.id, 1 WHERE NEW.id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER user_delete_owner_generation AFTER DELETE ON user BEGIN
    INSERT INTO owner_generation (user_id, wishes) SELECT OLD.id, 1 WHERE OLD.id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; INSERT INTO owner_generation (user_id, about) SELECT OLD.id, 1 WHERE OLD.id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; INSERT INTO owner_generation (user_id, givers) SELECT OLD.id, 1 WHERE OLD.id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
    UPDATE name_generation SET value = value + 1;
END;
CREATE TRIGGER user_insert_name_generation AFTER INSERT ON user BEGIN UPDATE name_generation SET value = value + 1; END;
CREATE TRIGGER user_rename_name_generation AFTER UPDATE OF username, display_name, display_name_key ON user
    BEGIN UPDATE name_generation SET value = value + 1; END;
CREATE INDEX "user_by_username_skeleton" ON "user"("username_skeleton");
CREATE INDEX "user_by_display_name_skeleton" ON "user"("display_name_skeleton");
CREATE INDEX "goodreads_import_on_user_id" ON "goodreads_import"("user_id");
CREATE INDEX wishlist_item_by_import ON wishlist_item (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX reading_by_import ON reading (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX book_by_import ON book (import_id) WHERE import_id IS NOT NULL;
CREATE INDEX "book_credit_by_author" ON "book_credit"("author_key", "book_id");
CREATE INDEX wish_list_by_user ON wish_list (user_id, position);
CREATE UNIQUE INDEX wish_list_one_default ON wish_list (user_id) WHERE is_default;
CREATE INDEX wish_list_item_by_item ON wish_list_item (item_id);
CREATE TRIGGER user_insert_default_list AFTER INSERT ON user BEGIN
    INSERT INTO wish_list (user_id, name, occasion, visibility, is_default, position, created_at)
    VALUES (NEW.id, 'Wishlist', 'none', 'household', 1, 0, NEW.created_at);
END;
CREATE TRIGGER wish_list_item_insert_shared AFTER INSERT ON wish_list_item BEGIN
    UPDATE wishlist_item SET shared = 1 WHERE id = NEW.item_id AND NOT shared
        AND (SELECT visibility FROM wish_list WHERE id = NEW.list_id) = 'household';
    INSERT INTO owner_generation (user_id, wishes) SELECT (SELECT user_id FROM wish_list WHERE id = NEW.list_id), 1 WHERE (SELECT user_id FROM wish_list WHERE id = NEW.list_id) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
END;
CREATE TRIGGER wish_list_item_delete_shared AFTER DELETE ON wish_list_item BEGIN
    UPDATE wishlist_item SET shared = 0 WHERE id = OLD.item_id AND shared AND NOT EXISTS (SELECT 1 FROM wish_list_item JOIN wish_list ON wish_list.id = wish_list_item.list_id
        WHERE wish_list_item.item_id = OLD.item_id AND wish_list.visibility = 'household');
    INSERT INTO owner_generation (user_id, wishes) SELECT (SELECT user_id FROM wish_list WHERE id = OLD.list_id), 1 WHERE (SELECT user_id FROM wish_list WHERE id = OLD.list_id) IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
END;
CREATE TRIGGER wish_list_update_shared AFTER UPDATE OF visibility ON wish_list BEGIN
    UPDATE wishlist_item SET shared = EXISTS (SELECT 1 FROM wish_list_item JOIN wish_list ON wish_list.id = wish_list_item.list_id
        WHERE wish_list_item.item_id = wishlist_item.id AND wish_list.visibility = 'household')
        WHERE id IN (SELECT item_id FROM wish_list_item WHERE list_id = NEW.id) AND shared IS NOT EXISTS (SELECT 1 FROM wish_list_item JOIN wish_list ON wish_list.id = wish_list_item.list_id
        WHERE wish_list_item.item_id = wishlist_item.id AND wish_list.visibility = 'household');
END;
CREATE TRIGGER wish_list_insert_owner_generation AFTER INSERT ON wish_list BEGIN INSERT INTO owner_generation (user_id, wishes) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; END;
CREATE TRIGGER wish_list_update_owner_generation AFTER UPDATE ON wish_list BEGIN INSERT INTO owner_generation (user_id, wishes) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; END;
CREATE TRIGGER wish_list_delete_owner_generation AFTER DELETE ON wish_list BEGIN INSERT INTO owner_generation (user_id, wishes) SELECT OLD.user_id, 1 WHERE OLD.user_id IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1; END;
CREATE TRIGGER wishlist_item_delete_household AFTER DELETE ON wishlist_item
WHEN OLD.book_id IS NOT NULL AND OLD.shared AND (SELECT 1 FROM user WHERE user.id = OLD.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted) VALUES (OLD.book_id, -1)
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted; END;
CREATE TRIGGER wishlist_item_update_household_old AFTER UPDATE OF book_id, user_id, shared ON wishlist_item
WHEN OLD.book_id IS NOT NULL AND OLD.shared AND (SELECT 1 FROM user WHERE user.id = OLD.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted) VALUES (OLD.book_id, -1)
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted; END;
CREATE TRIGGER wishlist_item_update_household_new AFTER UPDATE OF book_id, user_id, shared ON wishlist_item
WHEN NEW.book_id IS NOT NULL AND NEW.shared AND (SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted) VALUES (NEW.book_id, 1)
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted; END;
CREATE TRIGGER user_joins_household AFTER UPDATE OF sharing, disabled_at ON user
WHEN NOT (OLD.sharing = 'household' AND OLD.disabled_at IS NULL) AND (NEW.sharing = 'household' AND NEW.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted)
    SELECT book_id, 1 * COUNT(*) FROM wishlist_item WHERE user_id = NEW.id AND book_id IS NOT NULL AND shared GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
INSERT INTO book_household (book_id, rating_sum, rating_count)
    SELECT book_id, 1 * SUM(rating), 1 * COUNT(*) FROM reading
    WHERE user_id = NEW.id AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER user_leaves_household AFTER UPDATE OF sharing, disabled_at ON user
WHEN (OLD.sharing = 'household' AND OLD.disabled_at IS NULL) AND NOT (NEW.sharing = 'household' AND NEW.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted)
    SELECT book_id, -1 * COUNT(*) FROM wishlist_item WHERE user_id = OLD.id AND book_id IS NOT NULL AND shared GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
INSERT INTO book_household (book_id, rating_sum, rating_count)
    SELECT book_id, -1 * SUM(rating), -1 * COUNT(*) FROM reading
    WHERE user_id = OLD.id AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE TRIGGER user_delete_household BEFORE DELETE ON user
WHEN (OLD.sharing = 'household' AND OLD.disabled_at IS NULL) BEGIN INSERT INTO book_household (book_id, wanted)
    SELECT book_id, -1 * COUNT(*) FROM wishlist_item WHERE user_id = OLD.id AND book_id IS NOT NULL AND shared GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
INSERT INTO book_household (book_id, rating_sum, rating_count)
    SELECT book_id, -1 * SUM(rating), -1 * COUNT(*) FROM reading
    WHERE user_id = OLD.id AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
    ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count; END;
CREATE INDEX child_manager_by_manager ON child_manager (manager_id);
CREATE INDEX child_hand_over_by_child ON child_hand_over (child_id);
CREATE TRIGGER session_refuses_children BEFORE INSERT ON session
WHEN (SELECT kind FROM user WHERE id = NEW.user_id) = 'child' BEGIN
    SELECT RAISE(ABORT, 'a child profile has no way to sign in');
END;
CREATE TRIGGER passkey_refuses_children BEFORE INSERT ON passkey
WHEN (SELECT kind FROM user WHERE id = NEW.user_id) = 'child' BEGIN
    SELECT RAISE(ABORT, 'a child profile has no way to sign in');
END;
CREATE TRIGGER sign_in_identity_refuses_children BEFORE INSERT ON sign_in_identity
WHEN (SELECT kind FROM user WHERE id = NEW.user_id) = 'child' BEGIN
    SELECT RAISE(ABORT, 'a child profile has no way to sign in');
END;
CREATE INDEX "api_token_on_user_id" ON "api_token"("user_id");
CREATE TRIGGER guest_reservation_insert_owner_generation AFTER INSERT ON guest_reservation BEGIN INSERT INTO owner_generation (user_id, givers) SELECT user_id, 1 FROM wishlist_item WHERE id = NEW.item_id
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE TRIGGER guest_reservation_delete_owner_generation AFTER DELETE ON guest_reservation BEGIN INSERT INTO owner_generation (user_id, givers) SELECT user_id, 1 FROM wishlist_item WHERE id = OLD.item_id
    ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1; END;
CREATE INDEX "reading_now_on_book_id" ON "reading_now"("book_id");
CREATE TRIGGER reading_now_insert_owner_generation AFTER INSERT ON reading_now BEGIN INSERT INTO owner_generation (user_id, about) SELECT NEW.user_id, 1
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE TRIGGER reading_now_delete_owner_generation AFTER DELETE ON reading_now BEGIN INSERT INTO owner_generation (user_id, about) SELECT OLD.user_id, 1
    ON CONFLICT (user_id) DO UPDATE SET about = about + 1; END;
CREATE INDEX "wishlist_item_by_book_user_and_shared" ON "wishlist_item"("book_id", "user_id", "shared");
CREATE TRIGGER wishlist_item_insert_wishlist_generation AFTER INSERT ON wishlist_item WHEN NEW.import_id IS NULL
BEGIN UPDATE wishlist_generation SET value = value + 1; END;
CREATE TRIGGER wishlist_item_insert_owner_generation AFTER INSERT ON wishlist_item WHEN NEW.import_id IS NULL BEGIN
    INSERT INTO owner_generation (user_id, wishes) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
        ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
END;
CREATE TRIGGER wishlist_item_insert_default_list AFTER INSERT ON wishlist_item WHEN NEW.import_id IS NULL BEGIN
    INSERT INTO wish_list_item (list_id, item_id) SELECT id, NEW.id FROM wish_list WHERE user_id = NEW.user_id AND is_default;
END;
CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item
WHEN NEW.import_id IS NULL AND NEW.book_id IS NOT NULL AND NEW.shared AND (SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL) BEGIN
    INSERT INTO book_household (book_id, wanted) VALUES (NEW.book_id, 1)
        ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
END;
COMMIT;
