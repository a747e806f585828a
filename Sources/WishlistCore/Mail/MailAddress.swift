/// An address the app will put in an envelope and a `To:` header: a dot-atom local part, an `@`
/// and a host name of letters, digits and hyphens, in ASCII, at most 254 characters.
///
/// Narrower than RFC 5321 on purpose. Quoted local parts (`"a@b"@c`), comments, IP literals
/// and non-ASCII addresses (which need the server's SMTPUTF8) are refused: they are rare among
/// real mailboxes and each is a way to smuggle a second recipient or header past a looser parser.
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init?(_ text: String) {
        guard text.utf8.count <= AccountRules.emailMaximumLength,
              let at = text.lastIndex(of: "@")
        else { return nil }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard Self.isDotAtom(local), local.utf8.count <= 64, Self.isHostName(domain) else { return nil }
        self.text = text
    }

    public var description: String { text }

    /// The domain part, for the `Message-ID`.
    var domain: Substring { text[text.index(after: text.lastIndex(of: "@")!)...] }

    /// RFC 5322's `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    private static func isAtomCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
        }
    }

    private static func isDotAtom(_ text: Substring) -> Bool {
        let atoms = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return !text.isEmpty && atoms.allSatisfy { !$0.isEmpty && $0.allSatisfy(isAtomCharacter) }
    }

    /// Two or more labels of letters, digits and inner hyphens, each at most 63 long.
    private static func isHostName(_ text: Substring) -> Bool {
        let labels = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { byte in
                    byte == UInt8(ascii: "-") || (byte < 0x80 && (Character(Unicode.Scalar(byte)).isLetter || Character(Unicode.Scalar(byte)).isNumber))
                }
        }
    }
}
