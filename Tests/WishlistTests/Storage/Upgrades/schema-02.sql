-- The database of the migrations up to 2-accounts, seeded by UpgradeFixtures.seeds.
-- Written by hand, once, never in CI: WISHLIST_WRITE_UPGRADE_FIXTURES=1 swift test --filter UpgradeFixtureWriter
-- rows: grdb_migrations=2 secret=1 session=1 throttle_event=1 user=3
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "secret" ("name" TEXT PRIMARY KEY NOT NULL, "value" BLOB NOT NULL);
CREATE TABLE "user" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "username" TEXT NOT NULL, "username_key" TEXT NOT NULL UNIQUE, "email" TEXT, "email_key" TEXT UNIQUE, "password_hash" TEXT NOT NULL, "created_at" DATETIME NOT NULL);
CREATE TABLE "session" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "token_hash" BLOB NOT NULL UNIQUE, "created_at" DATETIME NOT NULL, "last_seen_at" DATETIME NOT NULL, "user_agent" TEXT NOT NULL DEFAULT '');
CREATE TABLE "throttle_event" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "scope" TEXT NOT NULL, "happened_at" DATETIME NOT NULL);
INSERT INTO "grdb_migrations" ("identifier") VALUES ('1-secrets');
INSERT INTO "grdb_migrations" ("identifier") VALUES ('2-accounts');
INSERT INTO "secret" ("name", "value") VALUES ('csrf', X'000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at") VALUES (1, 'Alice', 'alice', 'alice@example.com', 'alice@example.com', '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:00:00.000');
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at") VALUES (2, 'bob', 'bob', NULL, NULL, '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:05:00.000');
INSERT INTO "user" ("id", "username", "username_key", "email", "email_key", "password_hash", "created_at") VALUES (3, 'carol', 'carol', 'carol@example.com', 'carol@example.com', '$argon2id$v=19$m=64,t=1,p=1$dXBncmFkZS1maXh0dXJlcw$uJbBP+UbIogjQycLsyxomDrg8TNFhdBtPdMjoeLoi3g', '2024-03-01 10:10:00.000');
INSERT INTO "session" ("id", "user_id", "token_hash", "created_at", "last_seen_at", "user_agent") VALUES (1, 1, X'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', '2024-03-01 10:00:00.000', '2024-03-02 08:00:00.000', 'Firefox');
INSERT INTO "throttle_event" ("id", "scope", "happened_at") VALUES (1, 'password:bob', '2024-03-02 09:00:00.000');
DELETE FROM sqlite_sequence;
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('user', 3);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('session', 1);
INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('throttle_event', 1);
CREATE INDEX "session_on_user_id" ON "session"("user_id");
CREATE INDEX "throttle_event_on_scope_time" ON "throttle_event"("scope", "happened_at");
CREATE INDEX "throttle_event_on_time" ON "throttle_event"("happened_at");
COMMIT;
