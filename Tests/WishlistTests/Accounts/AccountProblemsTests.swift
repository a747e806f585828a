import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

/// Issue 27: the core set `errors["new_password_confirm"]`, a form's field name. It now says
/// what is wrong, and each form says which of its fields shows it. Issue 53: what is wrong is an
/// ``AccountFault`` with its values, which the web layer words in the reader's language.
@Suite("Account problems: named by the core, placed and worded by the form", .removesTemporaryDirectories)
struct AccountProblemsTests {
    static let catalogs = Result { try LanguageCatalogs.load(from: repositoryRoot.appendingPathComponent("Languages")) }

    @Test func eachFormPlacesTheCoresProblemsInItsOwnFields() {
        let english = Translations()
        let problems: AccountProblems = [.password: .passwordTooShort(minimum: 8), .passwordConfirmation: .passwordsDiffer]
        let worded = ["Use at least 8 characters.", "The two passwords differ."]
        #expect(AccountFormFields.signUp.errors(problems, in: english) == ["password": worded[0], "password_confirm": worded[1]])
        #expect(AccountFormFields.passwordChange.errors(problems, in: english) == ["new_password": worded[0], "new_password_confirm": worded[1]])
        #expect(AccountFormFields.passwordReset.errors(problems, in: english) == ["new_password": worded[0], "new_password_confirm": worded[1]])
        #expect(AccountFormFields.accountDeletion.errors([.lastAdmin: .lastAdmin], in: english).keys.sorted() == ["delete_password"])
        #expect(AccountFormFields.passwordReset.errors([.username: .usernameTaken], in: english) == ["form": "That username isn’t available. Choose another."], "a problem without a field shows at the top")
    }

    /// Each rule's fault carries the bound its sentence names, not a sentence.
    @Test func theRulesCarryTheirValues() {
        #expect(AccountRules.usernameProblem("") == .usernameMissing)
        #expect(AccountRules.usernameProblem("al") == .usernameLength(minimum: 3, maximum: 32))
        #expect(AccountRules.usernameProblem(String(repeating: "a", count: 33)) == .usernameLength(minimum: 3, maximum: 32))
        #expect(AccountRules.usernameProblem("al ice") == .usernameCharacters)
        #expect(AccountRules.usernameProblem("alice") == nil)
        #expect(AccountRules.passwordProblem("") == .passwordMissing)
        #expect(AccountRules.passwordProblem("short") == .passwordTooShort(minimum: 8))
        #expect(AccountRules.passwordProblem(String(repeating: "p", count: 1025)) == .passwordTooLong(maximum: 1024))
        #expect(AccountRules.emailProblem("nobody") == .emailMalformed)
    }

    /// The values land in each language's sentence, its numbers written its own way.
    @Test func theWebLayerWordsAFaultWithItsValuesInTheReadersLanguage() throws {
        let catalogs = try Self.catalogs.get()
        let german = catalogs.translations(for: "de"), french = catalogs.translations(for: "fr")
        #expect(AccountFault.usernameLength(minimum: 3, maximum: 32).sentence(in: Translations()) == "Use 3 to 32 characters.")
        #expect(AccountFault.usernameLength(minimum: 3, maximum: 32).sentence(in: german) == "Verwende 3 bis 32 Zeichen.")
        #expect(AccountFault.passwordTooLong(maximum: 1024).sentence(in: Translations()) == "Use at most 1,024 characters.")
        #expect(AccountFault.passwordTooLong(maximum: 1024).sentence(in: german) == "Verwende höchstens 1.024 Zeichen.")
        #expect(AccountFault.passwordTooShort(minimum: 8).sentence(in: french) == "Utilise au moins 8 caractères.")
        #expect(AccountFault.usernameTaken.sentence(in: german) == "Dieser Benutzername ist nicht frei. Wähle einen anderen.")
    }

    @Test func theCoreNamesProblemsNotFields() async throws {
        let server = try await TestApp.build()
        let user = try await server.accounts.createUser(username: "maya", password: "correct horse battery")
        let outcome = try await server.accounts.changePassword(
            userID: user.id, current: "wrong password", new: "short", confirmation: "other", keepingSession: SessionID(0)
        )
        guard case .invalid(let problems) = outcome else {
            Issue.record("expected problems, got \(outcome)")
            return
        }
        #expect(problems == [.currentPassword: .wrongPassword(current: true), .password: .passwordTooShort(minimum: 8), .passwordConfirmation: .passwordsDiffer])
    }

    @Test func aTakenUsernameIsAFaultOfItsOwn() async throws {
        let server = try await TestApp.build()
        _ = try await server.accounts.createUser(username: "maya", password: "correct horse battery")
        let outcome = try await server.accounts.signUp(
            username: "Maya", email: "", password: "correct horse battery", confirmation: "correct horse battery", address: "127.0.0.1"
        )
        #expect(outcome == .invalid([.username: .usernameTaken]))
    }
}
