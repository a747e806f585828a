extension Unicode.Scalar {
    /// A control character other than tab and the line breaks (NUL, escape, DEL, ...): nothing a
    /// person types, and what corrupts logs, terminals and exported files. Form fields and
    /// imported files refuse text that holds one, by this one rule.
    package var isForbiddenControlCharacter: Bool {
        value < 0x20 && self != "\t" && self != "\n" && self != "\r" || value == 0x7F
    }
}
