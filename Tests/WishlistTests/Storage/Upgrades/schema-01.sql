-- The database of the migrations up to 1-secrets, seeded by UpgradeFixtures.seeds.
-- Written by hand, once, never in CI: WISHLIST_WRITE_UPGRADE_FIXTURES=1 swift test --filter UpgradeFixtureWriter
-- rows: grdb_migrations=1 secret=1
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "secret" ("name" TEXT PRIMARY KEY NOT NULL, "value" BLOB NOT NULL);
INSERT INTO "grdb_migrations" ("identifier") VALUES ('1-secrets');
INSERT INTO "secret" ("name", "value") VALUES ('csrf', X'000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
COMMIT;
