import ArgumentParser
import Foundation
import WishlistCore

/// `wishlist mail test ADDRESS`: checks the mail settings by sending one message at once,
/// outside the outbox, and prints the server's answer.
struct MailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "Check the server's mail settings.", subcommands: [Test.self]
    )

    struct Test: ExecutableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a test message to ADDRESS and print the mail server's answer.")
        @OptionGroup var options: ConfigOptions
        @Argument(help: "Where to send it.") var address: String

        func execute() async throws {
            let config = try options.load()
            guard config.mail.isEnabled, let sender = config.mail.sender else {
                throw ValidationError("mail is off: set mail.smtpURL and mail.from (WISHLIST_SMTP_URL, WISHLIST_MAIL_FROM) first")
            }
            guard let recipient = MailAddress(address) else { throw ValidationError("\(address.prefix(100)) is not an address mail can be sent to") }
            do {
                let message = Mailer.testMessage(from: sender, to: recipient, at: Date())
                let reply = try await SMTPClient(settings: config.mail).send(message, from: sender, to: recipient)
                print("sent to \(recipient): the server answered \(reply.text)")
            } catch let failure as SMTPClient.Failure {
                throw MailTestFailure(failure: failure)
            }
        }
    }
}

struct MailTestFailure: Error, CustomStringConvertible {
    let failure: SMTPClient.Failure
    var description: String { "not sent: \(failure.description)" }
}
