import GRDB
import WishlistLanguages

/// The language a message is worded in (issue 53): the recipient's own (`user.language`), else
/// the server's (`server.language`), as her pages are when her browser asks for none the app has.
/// A message to an address without an account (an invite) is in the server's.
public struct MailLanguages: Sendable {
    private let catalogs: [Translations]
    private let serverLanguage: String

    /// `catalogs` as `LanguageCatalogs.all` gives them; `serverLanguage` one of their codes.
    package init(catalogs: [Translations], serverLanguage: String) {
        self.catalogs = catalogs
        self.serverLanguage = serverLanguage
    }

    /// English only: for a mailer made without the catalogs (tests of the outbox itself).
    public static let english = MailLanguages(catalogs: [Translations()], serverLanguage: "en")

    /// The member's language when she chose one the server has, else the server's.
    func translations(for member: String?) -> Translations {
        catalogs.first { $0.language.code == member } ?? catalogs.first { $0.language.code == serverLanguage } ?? Translations()
    }

    /// The language of the member `userID`'s mail.
    func translations(forMember userID: UserID, _ db: Database) throws -> Translations {
        translations(for: try String.fetchOne(db, sql: "SELECT language FROM user WHERE id = ?", arguments: [userID]))
    }

    /// The language of mail to an address that is no member's.
    var server: Translations {
        translations(for: nil)
    }
}
