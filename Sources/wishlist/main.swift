import ArgumentParser
import Foundation
import WishlistCore

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
let exitCode: Int32
do {
    var command = try WishlistCommand.parseAsRoot()
    if let executable = command as? any ExecutableCommand {
        try await executable.execute()
    } else {
        try command.run()
    }
    exitCode = 0
} catch {
    let code = WishlistCommand.exitCode(for: error)
    let message = WishlistCommand.fullMessage(for: error)
    if code == .success {
        print(message)
        exitCode = 0
    } else {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exitCode = code == .validationFailure ? 2 : 1
    }
}
// No thread of a pool may still be running while `exit` runs the libraries' destructors.
await ThreadPools.process.closeAll()
exit(exitCode)
