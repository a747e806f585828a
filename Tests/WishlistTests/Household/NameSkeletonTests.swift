import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// Issue 50: a display name must not pass as another member's name through letters of another
/// script that look alike or characters nobody sees. Names are compared by their skeleton
/// (UTS #39, without case, default-ignorable characters dropped), from Unicode's data as Debian's
/// ICU carries it (`scripts/make-confusables.py`).
@Suite("Display names: compared by what they look like", .removesTemporaryDirectories)
struct NameSkeletonTests {
    /// A look-alike and the name it passes as.
    static let lookAlikes: [(String, String, String)] = [
        ("Cyrillic а", "\u{0430}lice", "alice"),
        ("Cyrillic е", "\u{0435}ve", "eve"),
        ("Cyrillic о", "b\u{043E}b", "bob"),
        ("Cyrillic р", "\u{0440}eter", "peter"),
        ("Cyrillic с", "\u{0441}arol", "carol"),
        ("Cyrillic capitals", "\u{0410}L\u{0406}\u{0421}\u{0415}", "alice"),
        ("Greek ο", "b\u{03BF}b", "bob"),
        ("rn for m", "rnallory", "mallory"),
        ("capital I for l", "AIice", "alice"),
        ("digit 0 for o", "b0b", "bob"),
        ("another case", "ALICE", "alice"),
        ("zero-width joiner", "al\u{200D}ice", "alice"),
        ("zero-width non-joiner", "al\u{200C}ice", "alice"),
        ("zero-width space", "al\u{200B}ice", "alice"),
        ("soft hyphen", "al\u{00AD}ice", "alice"),
        ("variation selector", "a\u{FE00}lice\u{FE0F}", "alice"),
        ("combining grapheme joiner", "ali\u{034F}ce", "alice"),
        ("full-width letters", "ａｌｉｃｅ", "alice"),
        ("spaces", "  Auntie \u{00A0}  Ana ", "auntie ana"),
    ]

    @Test(arguments: 0..<lookAlikes.count)
    func aLookAlikeHasTheSkeletonOfTheNameItPassesAs(_ index: Int) {
        let (what, lookAlike, original) = Self.lookAlikes[index]
        #expect(NameSkeleton.of(lookAlike) == NameSkeleton.of(original), "\(what)")
    }

    @Test func namesThatDifferToTheEyeKeepDifferentSkeletons() {
        let distinct = [("alice", "alina"), ("bob", "rob"), ("Mum", "Mom"), ("Zoë", "Zoe"), ("ana", "anna"), ("Вера", "Вела")]
        for (one, other) in distinct {
            #expect(NameSkeleton.of(one) != NameSkeleton.of(other), "\(one) and \(other)")
        }
        // Case does not make two names differ, in any script.
        #expect(NameSkeleton.of("Вера") == NameSkeleton.of("вера"))
        #expect(NameSkeleton.of("Zoë") == NameSkeleton.of("ZOE\u{308}"))
    }

    @Test func aSkeletonIsItsOwnSkeleton() {
        for name in Self.lookAlikes.map(\.1) + ["Mum ❤️", "Grandma Carol", "مريم", "Жанна"] {
            let skeleton = NameSkeleton.of(name)
            #expect(NameSkeleton.of(skeleton) == skeleton, "\(name)")
        }
    }

    @Test func theTableIsUnicodesAndSaysWhichVersion() throws {
        #expect(NameSkeleton.table.count > 2000)
        #expect(NameSkeleton.table["I"] == ["l"] && NameSkeleton.table["1"] == ["l"] && NameSkeleton.table["m"] == ["r", "n"])
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Sources/WishlistCore/Profiles/confusables.txt"), encoding: .utf8)
        #expect(text.hasPrefix("# What each character counts as"))
        #expect(text.contains("from Unicode's confusables.txt (UTS #39), Unicode ") && text.contains("scripts/make-confusables.py"))
    }

    @Test func invisibleCharactersThatAreNotJoinersOrSelectorsAreRefusedAtSave() throws {
        for typed in ["\u{3164}", "Mum\u{3164}", "ali\u{034F}ce", "a\u{115F}b"] {
            #expect(throws: MemberName.Problem.invisibleCharacter, "\(typed.debugDescription)") { try MemberName.displayName(typed) }
        }
        // Emoji need their joiners and selectors.
        #expect(try MemberName.displayName("Mum ❤\u{FE0F}") == "Mum ❤\u{FE0F}")
        #expect(try MemberName.displayName("👩\u{200D}👧 Ana") == "👩\u{200D}👧 Ana")
    }

    // MARK: Stored

    /// The shown name of every account, by username.
    static func shownNames(_ db: Database) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT username, \(MemberName.shownSQL("user")) AS name FROM user").map {
            ($0["username"], $0["name"])
        })
    }

    @Test func namesStoredBeforeSkeletonsWereComparedAreComparedByThemAfterTheUpgrade() throws {
        let queue = try DatabaseQueue()
        let migrations = AppDatabase.migrator.migrations
        try AppDatabase.migrator.migrate(queue, upTo: migrations[migrations.firstIndex(of: "26-signin-review")! - 1])
        try queue.write { db in
            // As the last version stored them: the key alone, which told these apart.
            try db.execute(sql: """
                INSERT INTO user (username, username_key, password_hash, created_at, display_name, display_name_key) VALUES
                    ('alice', 'alice', 'x', '2026-01-01 00:00:00.000', NULL, NULL),
                    ('eve', 'eve', 'x', '2026-01-01 00:00:00.000', '\u{0430}lice', '\u{0430}lice'),
                    ('mallory', 'mallory', 'x', '2026-01-01 00:00:00.000', 'Bob\u{200D}', 'bob\u{200D}'),
                    ('bob', 'bob', 'x', '2026-01-01 00:00:00.000', 'Grandpa', 'grandpa')
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let names = try queue.read(Self.shownNames)
        #expect(names["eve"] == "\u{0430}lice (@eve)")
        #expect(names["mallory"] == "Bob\u{200D} (@mallory)")
        #expect(names["alice"] == "alice" && names["bob"] == "Grandpa")
    }

    @Test func everyWayToMakeAnAccountStoresTheSkeletonOfItsUsername() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("skeletons.sqlite").path)
        let hasher = try PasswordHasher(parameters: .init(memoryKiB: 64, iterations: 1, parallelism: 1), maxConcurrent: 1, maxWaiting: 4)
        let accounts = AccountService(database: database, hasher: hasher, settings: .init(), clock: .system)
        _ = try await accounts.createUser(username: "Rnallory", password: "correct horse battery")
        _ = try await accounts.signIn(trustedUsername: "proxied", signup: true)
        _ = try await accounts.signIn(issuer: "https://id.example.org", subject: "s-1", preferredUsername: "Sso Person", signup: .open)
        let stored = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT username, username_skeleton FROM user").map { ($0["username"] as String, $0["username_skeleton"] as String?) }
        }
        #expect(stored.count == 3)
        for (username, skeleton) in stored {
            #expect(skeleton == NameSkeleton.of(username), "\(username)")
        }
    }
}
