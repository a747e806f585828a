import Foundation

/// What a name looks like, for telling whether one member's name could pass as another's: UTS #39's
/// confusable skeleton, without case. "аlice" with a Cyrillic "а", "AIice" with a capital "I",
/// "alice" with a zero-width joiner inside and "alice" all have the skeleton "allce". A skeleton is for
/// comparing, never for showing.
///
/// The name is compatibility-decomposed (NFKD, so full-width "ｂｏｂ" is "bob"), its
/// default-ignorable characters (zero-width joiners and spaces, soft hyphens, variation selectors,
/// Hangul fillers) are dropped, each character becomes what `confusables.txt` says it counts as, or
/// else its lower case, and runs of spaces count as one. `confusables.txt` is a resource that
/// `scripts/make-confusables.py` (`make confusables`) writes from Unicode's confusables data as
/// Debian's ICU carries it; the server reads the file and never loads ICU.
///
/// Skeletons are stored (`user.username_skeleton`, `user.display_name_skeleton`), so a new version
/// of the file needs a migration that computes them again, as migration 26 first did.
public enum NameSkeleton {
    public static func of(_ name: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in name.decomposedStringWithCompatibilityMapping.unicodeScalars where !scalar.properties.isDefaultIgnorableCodePoint {
            if let counted = table[scalar] {
                mapped.append(contentsOf: counted)
            } else {
                mapped.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        // Mapped marks may stand out of their canonical order; NFD puts them back.
        return String(mapped).decomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Each listed character and what it counts as.
    static let table: [Unicode.Scalar: [Unicode.Scalar]] = {
        let url = (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appendingPathComponent("confusables.txt")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("\(url.path) is missing: the build's resources were not installed beside the executable")
        }
        return parse(String(decoding: data, as: UTF8.self))
    }()

    /// Lines of hexadecimal code points, the first what the rest count as; `#` starts a comment line.
    static func parse(_ text: String) -> [Unicode.Scalar: [Unicode.Scalar]] {
        var table: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let scalars = line.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            guard let first = scalars.first else { continue }
            table[first] = Array(scalars.dropFirst())
        }
        return table
    }
}
