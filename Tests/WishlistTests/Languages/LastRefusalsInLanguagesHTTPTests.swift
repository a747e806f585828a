import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// The last text a person read in English in every language (issue 53): Admin's refusals and its
/// database size, and a gift marked bought twice, each in the reader's language.
@Suite("The last refusals, in the reader's language, over HTTP", .removesTemporaryDirectories)
struct LastRefusalsInLanguagesHTTPTests {
    @Test func adminsRefusalsReadInTheAdminsLanguage() async throws {
        try await AdminHTTPTests.withAdmin { server, root, _ in
            let rootID = try await AdminHTTPTests.userID("root", server)
            try await root.post("/settings/language", [("language", "de")])
            let disabled = try await root.post("/admin/users/\(rootID)/disable", [])
            #expect(disabled.status == .conflict)
            #expect(disabled.shows("Für dein eigenes Konto nicht erlaubt"))
            #expect(disabled.shows("Du kannst dein eigenes Konto nicht sperren, während du damit angemeldet bist."))
            let nobody = try await root.post("/admin/users/99999/delete", [])
            #expect(nobody.status == .notFound && nobody.shows("Dieses Konto gibt es nicht. Vielleicht wurde es inzwischen gelöscht."))

            try await root.post("/settings/language", [("language", "fr")])
            let last = try await root.post("/admin/users/\(rootID)/delete", [])
            #expect(last.status == .conflict)
            #expect(last.shows("Le serveur n’aurait alors plus d’administrateur, donc rien n’a changé."))
            let invite = try await root.post("/admin/invites/99999/delete", [])
            #expect(invite.status == .notFound && invite.shows("Invitation introuvable"))
            #expect(!invite.shows("No such invite"))
        }
    }

    @Test func aGiftMarkedBoughtTwiceIsRefusedInTheGiversLanguage() async throws {
        let home = try await Household.make()
        let item = home.itemIDs[0]
        try await home.run { _, ana, _ in
            _ = try await ana.reserve(item)
            try await ana.post("/reservations/\(item)/bought", [])
            try await ana.post("/settings/language", [("language", "de")])
            let again = try await ana.post("/reservations/\(item)/bought", [])
            #expect(again.status == .conflict)
            #expect(again.shows("Schon gekauft") && again.shows("Du hattest dieses Geschenk schon als gekauft markiert, deshalb hat sich nichts geändert."))
            try await ana.post("/reservations/\(item)/bought/delete", [])
            let notBought = try await ana.post("/reservations/\(item)/bought/delete", [])
            #expect(notBought.status == .conflict && notBought.shows("Dieses Geschenk war nicht als gekauft markiert"))
        }
    }

    /// Admin's database size, with the language's decimal separator and its units' abbreviations.
    @Test func aSizeOnAdminIsWrittenInTheAdminsLanguage() throws {
        let catalogs = try LanguageCatalogs.load(from: LanguageCatalogsTests.folder)
        #expect(AdminController.fileSize(4_096, in: catalogs.translations(for: "de")) == "4,1 KB")
        #expect(AdminController.fileSize(350_400_000, in: catalogs.translations(for: "fr")) == "350\u{00A0}Mo")
        #expect(AdminController.fileSize(812, in: catalogs.translations(for: "es")) == "812 bytes")
        #expect(AdminController.fileSize(1, in: catalogs.translations(for: "fr")) == "1\u{00A0}octet")
    }
}
