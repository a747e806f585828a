import ArgumentParser
import Foundation

// The app keeps, shows and logs time in UTC. Naming GMT as the process's zone, before anything
// reads it, makes Foundation's current time zone its built-in GMT: any other name, the host's
// "Etc/UTC" included, is looked up in ICU, which then stays loaded, 2 MB of resident memory
// (Hummingbird's `Date` header builds a `Calendar`, which asks for the current zone).
// See docs/memory.md.
setenv("TZ", "GMT", 1)

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
