import Hummingbird
import WishlistCore
import WishlistTemplates

/// Renders pages from the compiled templates, adding what the layout of every page needs (who is
/// signed in, the CSRF token, notices) to the page's own values.
public struct PageRenderer: Sendable {
    let templates: TemplateLibrary
    let signupOpen: Bool
    let notices: SiteNotices

    /// A full HTML page. Pages are personal, so no cache may keep them.
    public func render(
        _ template: String,
        title: String,
        nav: String = "",
        for visitor: Visitor,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        values: [String: TemplateValue] = [:]
    ) throws -> Response {
        var context = values
        context["title"] = .string(title)
        context["nav"] = .string(nav)
        context["csrf_token"] = .string(visitor.csrfToken)
        context["signup_open"] = .bool(signupOpen)
        context["sample_data"] = .bool(notices.showsSampleData)
        if context["flash"] == nil, let flash = visitor.flash { context["flash"] = flash.templateValue }
        if let user = visitor.signedIn {
            context["user"] = ["name": .string(user.username), "wishlist_count": .int(user.wishlistCount), "is_admin": .bool(user.isAdmin)]
            context["status_line"] = notices.statusLine().map(TemplateValue.string) ?? .null
        }
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        let body = try templates.render(template, .dictionary(context))
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
    }

    /// The error page for `error`, keeping its headers (such as `Retry-After`).
    public func render(_ error: PageError, for visitor: Visitor) throws -> Response {
        try render(
            "errors/error.html", title: error.title, for: visitor, status: error.status, headers: error.headers,
            values: ["error": ["status": .int(error.status.code), "title": .string(error.title), "message": .string(error.message)]]
        )
    }
}

/// Site-wide facts that pages show: whether the catalog is the bundled sample, and the state of
/// the last catalog refresh.
public struct SiteNotices: Sendable {
    public var showsSampleData: Bool
    public var statusLine: @Sendable () -> String?

    public init(showsSampleData: Bool, statusLine: @escaping @Sendable () -> String?) {
        self.showsSampleData = showsSampleData
        self.statusLine = statusLine
    }
}

/// A `303 See Other` to a local path: the answer to every successful form.
func redirect(to location: String, headers: HTTPFields = [:]) -> Response {
    var fields = headers
    fields[.location] = location
    fields[.cacheControl] = "no-store"
    return Response(status: .seeOther, headers: fields)
}
