import Foundation

/// How members are named on pages and in mail: the display name a member chose ("Mum"), or the
/// username when they chose none; URLs keep the username.
///
/// A display name must never let one member pass as another, so it is shown with the username
/// beside it ("Mum (@alice)") whenever another account's display name or username reads the
/// same (``key(_:)``). "@" is refused in display names, so that form cannot be typed as a name.
public enum MemberName {
    public static let displayNameMaximumLength = 40

    /// Why a typed display name cannot be saved.
    public enum Problem: Error, Equatable {
        case tooLong(count: Int)
        case invisibleCharacter
        case atSign

        /// The sentence shown beside the field.
        public var message: String {
            switch self {
            case .tooLong(let count):
                "A display name can be up to \(MemberName.displayNameMaximumLength) characters; this one has \(count). Shorten it and save again."
            case .invisibleCharacter:
                "A display name can’t hold control or invisible formatting characters (such as a tab, a line break or a direction mark). Retype it and save again."
            case .atSign:
                "A display name can’t contain “@”, which marks usernames. Leave it out and save again."
            }
        }
    }

    /// The display name to store for what was typed, trimmed; nil when empty ("use my username").
    /// Length is counted in characters as a reader sees them, not in bytes.
    public static func displayName(_ typed: String) throws(Problem) -> String? {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return nil }
        if name.unicodeScalars.contains(where: isInvisible) { throw .invisibleCharacter }
        // The key: full-width and small "@"s are "@" too.
        if key(name).contains("@") { throw .atSign }
        if name.count > displayNameMaximumLength { throw .tooLong(count: name.count) }
        return name
    }

    /// The form in which two names are "the same": compatibility-normalised (so full-width
    /// "ｂｏｂ" is "bob"), lower-cased, with runs of spaces as one. Usernames are ASCII and
    /// lower-cased in `username_key`, so a display name's key compares with them too.
    static func key(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// SQL for the name to show of the `user` row called `alias`: its display name, with
    /// " (@username)" when another account's display name or username has the same key; its
    /// username when it has no display name. NULL when a LEFT JOIN found no row.
    static func shownSQL(_ alias: String) -> String {
        """
        (CASE WHEN \(alias).display_name IS NULL THEN \(alias).username
            WHEN EXISTS (SELECT 1 FROM user AS namesake WHERE namesake.id <> \(alias).id
                AND (namesake.display_name_key = \(alias).display_name_key OR namesake.username_key = \(alias).display_name_key))
            THEN \(alias).display_name || ' (@' || \(alias).username || ')'
            ELSE \(alias).display_name END)
        """
    }

    /// Control characters (a tab, a line break) and the invisible formatting ones (direction
    /// marks and overrides, zero-width spaces) that can make a name look like another. The
    /// zero-width joiners stay: some scripts and emoji need them.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        case .format: scalar != "\u{200C}" && scalar != "\u{200D}"
        default: false
        }
    }
}
