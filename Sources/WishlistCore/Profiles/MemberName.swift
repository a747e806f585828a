import Foundation

/// How members are named on pages and in mail: the display name a member chose ("Mum"), or the
/// username when they chose none; URLs keep the username.
///
/// A display name must never let one member pass as another, so it is shown with the username
/// beside it ("Mum (@alice)") whenever another account's display name or username looks the
/// same (``NameSkeleton``: "аlice" with a Cyrillic "а" looks like "alice"). "@" is refused in
/// display names, so that form cannot be typed as a name.
public enum MemberName {
    public static let displayNameMaximumLength = 40

    /// Why a typed display name cannot be saved; the web layer words each.
    public enum Problem: Error, Equatable {
        case tooLong(count: Int)
        case invisibleCharacter
        case atSign
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

    /// The form in which names are searched and sorted: compatibility-normalised (so full-width
    /// "ｂｏｂ" is "bob"), lower-cased, with runs of spaces as one. Usernames are ASCII and
    /// lower-cased in `username_key`, so a display name's key compares with them too. Whether
    /// two names could be taken for each other is the skeleton's to say (``NameSkeleton``).
    static func key(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping.lowercased()
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// SQL for the name to show of the `user` row called `alias`: its display name, with
    /// " (@username)" when another account's display name or username has the same skeleton;
    /// its username when it has no display name. NULL when a LEFT JOIN found no row.
    static func shownSQL(_ alias: String) -> String {
        """
        (CASE WHEN \(alias).display_name IS NULL THEN \(alias).username
            WHEN EXISTS (SELECT 1 FROM user AS namesake WHERE namesake.id <> \(alias).id
                AND (namesake.display_name_skeleton = \(alias).display_name_skeleton
                    OR namesake.username_skeleton = \(alias).display_name_skeleton))
            THEN \(alias).display_name || ' (@' || \(alias).username || ')'
            ELSE \(alias).display_name END)
        """
    }

    /// Control characters (a tab, a line break) and the invisible ones (direction marks and
    /// overrides, zero-width spaces, Hangul fillers, the combining grapheme joiner) that can make
    /// a name look like another or like nothing. The zero-width joiners and the variation
    /// selectors stay: emoji and some scripts need them, and the skeleton ignores them.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .format: return !isJoinerOrSelector(scalar)
        default: return scalar.properties.isDefaultIgnorableCodePoint && !isJoinerOrSelector(scalar)
        }
    }

    /// Zero-width (non-)joiners, variation selectors and Mongolian free variation selectors:
    /// invisible, but part of how emoji and some scripts are written.
    private static func isJoinerOrSelector(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0x180B...0x180D, 0x180F, 0xFE00...0xFE0F, 0xE0100...0xE01EF: true
        default: false
        }
    }
}
