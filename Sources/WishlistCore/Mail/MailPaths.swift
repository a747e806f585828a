/// The site's paths a message links to. The web layer prints them from its route table and hands
/// them to the ``Mailer``, so a path is written once, with its route, and the core stays free of
/// HTTP (issue 55, `docs/decisions/the-core-is-given-site-paths.md`).
public struct MailPaths: Sendable {
    public let verifyEmail: @Sendable (_ token: String) -> String
    public let forgot: String
    public let passwordReset: @Sendable (_ token: String) -> String
    public let signUp: @Sendable (_ invite: String) -> String
    public let unsubscribe: @Sendable (_ token: String) -> String
    public let book: @Sendable (_ id: String) -> String
    public let person: @Sendable (_ username: String) -> String
    public let personList: @Sendable (_ username: String, _ list: ListID) -> String

    public init(
        verifyEmail: @escaping @Sendable (String) -> String, forgot: String, passwordReset: @escaping @Sendable (String) -> String,
        signUp: @escaping @Sendable (String) -> String, unsubscribe: @escaping @Sendable (String) -> String,
        book: @escaping @Sendable (String) -> String, person: @escaping @Sendable (String) -> String,
        personList: @escaping @Sendable (String, ListID) -> String
    ) {
        self.verifyEmail = verifyEmail
        self.forgot = forgot
        self.passwordReset = passwordReset
        self.signUp = signUp
        self.unsubscribe = unsubscribe
        self.book = book
        self.person = person
        self.personList = personList
    }
}
