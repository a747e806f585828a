import WishlistCore
import WishlistTemplates

extension TemplateValue {
    /// A row's id as a page shows it (in a form's field or an element's id).
    static func id<Tag>(_ id: ID<Tag>) -> TemplateValue {
        .int(Int(id.rawValue))
    }
}
