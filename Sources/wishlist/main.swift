import ArgumentParser
import Foundation

/// A subcommand that does its work asynchronously. (Calling ArgumentParser's own async `run()`
/// through an existential picks its synchronous overload, which only prints help.)
protocol ExecutableCommand: ParsableCommand {
    func execute() async throws
}

// Exit codes: 0 success, 1 failure, 2 usage (ArgumentParser's own default for usage is 64).
do {
    var command = try WishlistCommand.parseAsRoot()
    if let executable = command as? any ExecutableCommand {
        try await executable.execute()
    } else {
        try command.run()
    }
} catch {
    let code = WishlistCommand.exitCode(for: error)
    let message = WishlistCommand.fullMessage(for: error)
    if code == .success {
        print(message)
        exit(0)
    }
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code == .validationFailure ? 2 : 1)
}
