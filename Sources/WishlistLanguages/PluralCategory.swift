/// A CLDR plural category: which form of a counted word a language uses for a count ("1 Buch",
/// "2 Bücher"). Each language uses some of them, always with `other` (CLDR's plural rules).
package enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other
}
