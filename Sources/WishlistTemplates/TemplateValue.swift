import CivilTime
import Foundation

/// The data a template renders: a tree of scalars, arrays and string-keyed dictionaries.
///
/// Build it with literals (`["title": "Dune", "count": 3]`): the presenters turn each model into
/// the dictionary its template reads.
public enum TemplateValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case date(Date)
    /// HTML written without escaping in text positions; see ``TrustedHTML``.
    case html(TrustedHTML)
    case array([TemplateValue])
    case dictionary([String: TemplateValue])
    /// A hole for a value that differs per request, named for ``SlottedHTML/write(into:fill:)``
    /// to fill. Only ``TemplateLibrary/renderSlotted(_:_:)`` keeps it; an ordinary render writes
    /// nothing. Output it plainly (`{{ name }}`): filters are not applied to a slot.
    case slot(String)
}

package extension TemplateValue {
    /// Whether `{% if %}` treats the value as true: null, false, "", 0, 0.0 and empty collections are false.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .date: true
        case .html(let value): !value.html.isEmpty
        case .array(let value): !value.isEmpty
        case .dictionary(let value): !value.isEmpty
        case .slot: true
        }
    }

    /// Follows `path` through nested dictionaries; anything missing yields `.null`.
    func lookup(_ path: [String]) -> TemplateValue {
        var current = self
        for key in path {
            guard case .dictionary(let entries) = current, let next = entries[key] else { return .null }
            current = next
        }
        return current
    }

    /// The text a scalar renders as, or nil for null, arrays and dictionaries (which render nothing).
    var text: String? {
        switch self {
        case .null, .array, .dictionary, .slot: nil
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): value
        case .date(let value): CivilDateTime(value).isoDate
        case .html(let value): value.html
        }
    }
}

extension TemplateValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension TemplateValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: TemplateValue...) { self = .array(elements) }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// Later duplicates of a key win, as in a JSON object.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
