import ArgumentParser
import CivilTime
import Foundation
import WishlistCore
import WishlistWeb

#if canImport(Glibc)
import Glibc
#endif

/// `wishlist user create|reset-password|delete NAME`: account administration without the web.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Create users, reset passwords, delete users, make and unmake admins, list and remove passkeys.",
        subcommands: [Create.self, ResetPassword.self, Delete.self, Promote.self, Demote.self, Passkeys.self]
    )

    struct Create: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user (works with sign-up closed).")
        @OptionGroup var options: ConfigOptions
        @OptionGroup var account: NameAndPassword
        @Flag(help: "Make the user an admin, who may open /admin.") var admin = false

        func execute() async throws {
            let accounts = try await makeAccounts(options)
            let user = try await worded { try await accounts.createUser(username: account.name, password: try account.readPassword(), isAdmin: admin) }
            print("created \(admin ? "admin" : "user") \(user.username)")
        }
    }

    struct Promote: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a user an admin.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The username.") var name: String

        func execute() async throws {
            let (_, database) = try options.openDatabase()
            try await setAdmin(true, name, database)
            print("\(name) is an admin")
        }
    }

    struct Demote: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an admin an ordinary user again (not the last admin).")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The username.") var name: String

        func execute() async throws {
            let (_, database) = try options.openDatabase()
            try await setAdmin(false, name, database)
            print("\(name) is no longer an admin")
        }
    }

    /// Lost-device recovery: see a user's passkeys and remove one. Resetting a password leaves
    /// passkeys alone, so this is how a lost phone's passkey stops working.
    struct Passkeys: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's passkeys, or remove one with --remove ID.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The username.") var name: String
        @Option(help: "Remove the passkey with this number (from the list).") var remove: Int64?

        func execute() async throws {
            let (_, database) = try options.openDatabase()
            let store = PasskeyStore(database: database)
            guard let (userID, passkeys) = try await store.passkeys(username: name) else { throw AccountService.AdminError.noSuchUser(name) }
            if let remove {
                guard try await store.remove(passkeyID: PasskeyID(remove), userID: userID) else {
                    throw AccountService.AdminError.invalid("\(name) has no passkey number \(remove); run `wishlist user passkeys \(name)` for the list")
                }
                print("removed passkey \(remove) of \(name)")
                return
            }
            guard !passkeys.isEmpty else { return print("\(name) has no passkeys") }
            let day = { (date: Date) in CivilDateTime(date).isoDate }
            for passkey in passkeys {
                print("\(passkey.id)\t\(passkey.name)\tadded \(day(passkey.createdAt))\tlast used \(passkey.lastUsedAt.map(day) ?? "never")")
            }
        }
    }

    struct ResetPassword: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a new password and sign the user out everywhere.")
        @OptionGroup var options: ConfigOptions
        @OptionGroup var account: NameAndPassword

        func execute() async throws {
            let accounts = try await makeAccounts(options)
            try await worded { try await accounts.resetPassword(username: account.name, to: try account.readPassword()) }
            print("password of \(account.name) reset; its sessions were ended")
        }
    }

    struct Delete: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user and everything that belongs to them.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "The username.") var name: String

        func execute() async throws {
            let accounts = try await makeAccounts(options)
            try await accounts.deleteUser(username: name)
            print("deleted user \(name)")
        }
    }
}

/// The username and how to read the new password, for the commands that set one.
struct NameAndPassword: ParsableArguments {
    @Argument(help: "The username.") var name: String
    @Flag(help: "Read the password from standard input instead of the terminal.") var passwordStdin = false

    func readPassword() throws -> String {
        try WishlistCLI.readPassword(fromStdin: passwordStdin, confirm: true)
    }
}

/// Promotes or demotes, with the command line's wording of the refusals.
private func setAdmin(_ admin: Bool, _ name: String, _ database: AppDatabase) async throws {
    do {
        try await Administration(database: database, clock: .system).setAdmin(admin, username: name)
    } catch Administration.Refusal.noSuchUser {
        throw AccountService.AdminError.noSuchUser(name)
    } catch Administration.Refusal.lastAdmin {
        throw AccountService.AdminError.invalid("\(name) is the only admin; promote another user first")
    }
}

/// `work`, with a username or password the rules refuse worded as the sign-up form words it, in English.
private func worded<Value>(_ work: () async throws -> Value) async throws -> Value {
    do {
        return try await work()
    } catch AccountService.AdminError.refused(let field, let fault) {
        throw AccountService.AdminError.invalid("\(field): \(fault.englishSentence)")
    }
}

private func makeAccounts(_ options: ConfigOptions) async throws -> AccountService {
    let (config, database) = try options.openDatabase()
    let hasher = try PasswordHasher(parameters: config.accounts.argon2, maxConcurrent: 1, maxWaiting: 1)
    return AccountService(database: database, hasher: hasher, settings: config.accounts, clock: .system)
}

struct PasswordInputError: Error, CustomStringConvertible {
    let description: String
}

/// One line from stdin, or from the terminal with echo turned off (asked twice to catch typos).
private func readPassword(fromStdin: Bool, confirm: Bool) throws -> String {
    if fromStdin {
        guard let line = Swift.readLine(strippingNewline: true) else { throw PasswordInputError(description: "no password on standard input") }
        return line
    }
    guard isatty(STDIN_FILENO) == 1 else {
        throw PasswordInputError(description: "standard input is not a terminal; use --password-stdin")
    }
    let password = try readHidden(prompt: "Password: ")
    if confirm, try readHidden(prompt: "Password again: ") != password {
        throw PasswordInputError(description: "the two passwords differ")
    }
    return password
}

private func readHidden(prompt: String) throws -> String {
    FileHandle.standardError.write(Data(prompt.utf8))
    var saved = termios()
    tcgetattr(STDIN_FILENO, &saved)
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    defer {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        FileHandle.standardError.write(Data("\n".utf8))
    }
    guard let line = Swift.readLine(strippingNewline: true) else { throw PasswordInputError(description: "no password entered") }
    return line
}
