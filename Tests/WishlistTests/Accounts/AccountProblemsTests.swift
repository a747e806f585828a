import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 27: the core set `errors["new_password_confirm"]`, a form's field name. It now says
/// what is wrong, and each form says which of its fields shows it.
@Suite("Account problems: named by the core, placed by the form", .removesTemporaryDirectories)
struct AccountProblemsTests {
    @Test func eachFormPlacesTheCoresProblemsInItsOwnFields() {
        let problems: AccountProblems = [.password: "Too short.", .passwordConfirmation: "The two passwords differ."]
        #expect(AccountFormFields.signUp.errors(problems) == ["password": "Too short.", "password_confirm": "The two passwords differ."])
        #expect(AccountFormFields.passwordChange.errors(problems) == ["new_password": "Too short.", "new_password_confirm": "The two passwords differ."])
        #expect(AccountFormFields.passwordReset.errors(problems) == ["new_password": "Too short.", "new_password_confirm": "The two passwords differ."])
        #expect(AccountFormFields.accountDeletion.errors([.lastAdmin: "Not the last admin."]) == ["delete_password": "Not the last admin."])
        #expect(AccountFormFields.passwordReset.errors([.username: "No."]) == ["form": "No."], "a problem without a field shows at the top")
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
        #expect(Set(problems.keys) == [.currentPassword, .password, .passwordConfirmation])
    }
}
