import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Renders pages from the compiled templates, adding what the layout of every page needs (who is
/// signed in, the CSRF token, notices) to the page's own values.
public struct PageRenderer: Sendable {
    let templates: TemplateLibrary
    let signupOpen: Bool
    let notices: SiteNotices
    /// `Public/`'s files, for their versioned URLs (`assets.style_css`).
    let assets: StaticFiles

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
        let translations = visitor.translations
        // A refused form says so first, in the title a screen reader announces (GOV.UK's pattern).
        let title = ErrorSummary(values["errors"]).isEmpty ? title : translations.text("Error: {title}", values: ["title": title])
        let stylesheet = layoutStylesheet(for: visitor)
        var context = layoutValues(title: title, nav: nav, language: translations.language.code, values: values)
        context["stylesheet"] = stylesheet.head
        context["csrf_token"] = .string(visitor.csrfToken)
        if context["flash"] == nil, let flash = visitor.flash { context["flash"] = flash.templateValue }
        if let flash = context["flash"], flash != .null {
            context["flash_html"] = .html(try fragment("partials/flash.html", ["flash": flash], language: visitor.translations.language.code))
        }
        if let user = visitor.signedIn {
            context["user"] = [
                "name": .string(user.name), "wishlist_count": .int(user.wishlistCount),
                "wishlist_noun": .string(Self.wishlistNoun(user.wishlistCount, in: translations)), "is_admin": .bool(user.isAdmin),
            ]
            context["status_line"] = notices.statusLine().map(TemplateValue.string) ?? .null
        }
        let body = try templates.render(template, .dictionary(context), language: visitor.translations.language.code)
        var fields = Self.pageHeaders(headers)
        if stylesheet.linked, fields[.contentSecurityPolicy] == nil {
            fields[.contentSecurityPolicy] = Self.linkedStylesheetPolicy
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
    }

    /// A signed-in page rendered once for every visitor of the same kind (administrator or not):
    /// what differs per visitor is left in slots, filled by ``respond(_:for:fill:)``. `values`
    /// may hold slots of the page's own, which `own` resolves once, here, to the page's keys; a
    /// name it does not know stays empty.
    func renderShared<Own>(
        _ template: String, title: String, nav: String, isAdmin: Bool, statusLine: String?, language: String, values: [String: TemplateValue],
        own: (String) -> Own? = { _ in nil }
    ) throws -> SharedHTML<Own> {
        var context = layoutValues(title: title, nav: nav, language: language, values: values)
        context["stylesheet"] = .slot(Slot.stylesheet)
        context["csrf_token"] = .slot(Slot.csrfToken)
        context["flash_html"] = .slot(Slot.flash)
        context["user"] = [
            "name": .slot(Slot.name), "wishlist_count": .slot(Slot.wishlistCount), "wishlist_noun": .slot(Slot.wishlistNoun),
            "is_admin": .bool(isAdmin),
        ]
        context["status_line"] = statusLine.map(TemplateValue.string) ?? .null
        return try templates.renderSlotted(template, .dictionary(context), language: language).mapSlots { PageSlot($0, own: own) }
    }

    /// A part of a shared page with slots of its own (a book's wishlist mark), resolved like the
    /// page's by `own`, so that it can fill one of the page's holes.
    func renderSharedFragment<Own>(
        _ template: String, _ values: [String: TemplateValue], language: String, own: (String) -> Own?
    ) throws -> SharedHTML<Own> {
        try templates.renderSlotted(template, .dictionary(Self.withPaths(values)), language: language).mapSlots { PageSlot($0, own: own) }
    }

    /// A page from ``renderShared(_:title:nav:isAdmin:statusLine:language:values:own:)`` for this visitor;
    /// the page's own slots go to `fill`.
    func respond<Own>(_ page: SharedHTML<Own>, for visitor: Visitor, fill: (Own) -> SharedHTML<Own>.Fill) throws -> Response {
        let language = visitor.translations.language.code
        let flash = try visitor.flash.map { TemplateValue.html(try fragment("partials/flash.html", ["flash": $0.templateValue], language: language)) } ?? .null
        let count = visitor.signedIn?.wishlistCount ?? 0
        // Made once: a page has a CSRF token in every form.
        let csrfToken = SharedHTML<Own>.Fill.escaped(EscapedValue(.string(visitor.csrfToken)))
        let stylesheet = layoutStylesheet(for: visitor)
        var body = ByteBufferAllocator().buffer(capacity: page.byteCount + 1024)
        page.write(into: &body) { slot in
            switch slot {
            case .csrfToken: csrfToken
            case .stylesheet: .value(stylesheet.head)
            case .flash: .value(flash)
            case .name: .value(.string(visitor.signedIn?.name ?? ""))
            case .wishlistCount: .value(.int(count))
            case .wishlistNoun: .value(.string(Self.wishlistNoun(count, in: visitor.translations)))
            case .own(let own): fill(own)
            case .unknown: .value(.null)
            }
        }
        return Response(status: .ok, headers: stylesheet.linked ? Self.linkedSharedPageHeaders : Self.sharedPageHeaders, body: ResponseBody(byteBuffer: body))
    }

    private static let sharedPageHeaders = pageHeaders([:])
    private static let linkedSharedPageHeaders = {
        var headers = pageHeaders([:])
        headers[.contentSecurityPolicy] = linkedStylesheetPolicy
        return headers
    }()

    /// A page that links the stylesheet has no inline style, and its policy allows none
    /// (`SecurityHeadersMiddleware` gives every other response the one for the inline sheet).
    static let linkedStylesheetPolicy = SecurityHeadersMiddleware<AppRequestContext>.contentSecurityPolicy(inlineStyle: nil)

    /// The `style-src` source for the sheet inline in this visitor's pages; nil when they link it.
    func inlineStylePolicySource(for visitor: Visitor) -> String? {
        guard let stylesheet = assets.current.stylesheet, !stylesheet.isHeld(visitor.heldStylesheet) else { return nil }
        return stylesheet.policySource
    }

    /// The head's stylesheet for this visitor (``PageStylesheet/head(held:)``), and whether it is
    /// the link to the file rather than the sheet inline.
    private func layoutStylesheet(for visitor: Visitor) -> (head: TemplateValue, linked: Bool) {
        guard let stylesheet = assets.current.stylesheet else { return (.null, false) }
        return (.html(stylesheet.head(held: visitor.heldStylesheet)), stylesheet.isHeld(visitor.heldStylesheet))
    }

    /// A page with no slots of its own.
    func respond(_ page: SharedHTML<Never>, for visitor: Visitor) throws -> Response {
        try respond(page, for: visitor) { never in switch never {} }
    }

    /// The names of the layout's slots, on every shared page.
    enum Slot {
        static let stylesheet = "stylesheet"
        static let csrfToken = "csrf_token"
        static let flash = "flash_html"
        static let name = "user.name"
        static let wishlistCount = "user.wishlist_count"
        static let wishlistNoun = "user.wishlist_noun"
    }

    private func layoutValues(title: String, nav: String, language: String, values: [String: TemplateValue]) -> [String: TemplateValue] {
        var context = values
        // `<html lang>`: the language the page's templates were compiled in.
        context["language"] = .string(language)
        context["title"] = .string(title)
        context["error_summary"] = ErrorSummary(values["errors"]).templateValue
        context["nav"] = .string(nav)
        context["paths"] = Self.paths
        context["signup_open"] = .bool(signupOpen)
        context["sample_data"] = .bool(notices.showsSampleData)
        context["assets"] = assets.current.urls
        return context
    }

    /// The sections' paths, printed from the route table, for the navigation and the pages'
    /// links (`{{ paths.catalog }}`), so that a template does not spell a route's path again.
    static let paths: TemplateValue = [
        "catalog": .string(SitePath.catalog), "search": .string(Route.search.path()), "wishlist": .string(SitePath.wishlist),
        "people": .string(SitePath.people), "new_book": .string(SitePath.newBook), "reading": .string(SitePath.reading),
        "reservations": .string(SitePath.reservations), "settings": .string(SitePath.settings), "admin": .string(Route.admin.path()),
        "sign_in": .string(SitePath.signIn), "sign_up": .string(Route.signUpPage.path()), "sign_out": .string(Route.signOut.path()),
        "forgot": .string(Route.forgotPage.path()),
        "settings_language": .string(Route.setLanguage.path()), "home": .string(Route.home.path()),
        "single_sign_on_start": .string(Route.singleSignOnStart.path()),
        // The pages' own links and forms with no parameter (issue 55).
        "received": .string(SitePath.received), "new_wish_list": .string(SitePath.newWishList), "create_wish_list": .string(Route.createWishList.path()),
        "wishlist_export": .string(Route.wishlistExport.path()), "wishlist_import": .string(SitePath.wishlistImport),
        "add_wish": .string(Route.addWish.path()), "reserve": .string(Route.reserve.path()), "scan_book": .string(SitePath.scanBook),
        "new_child": .string(SitePath.newChild), "create_child": .string(SitePath.children), "save_welcome": .string(Route.saveWelcome.path()),
        "create_invite": .string(Route.createInvite.path()), "api_about": .string(Route.apiAbout.path()),
        "api_description": .string(Route.apiDescription.path()), "settings_api_tokens": .string(Route.settingsAPITokens.path()),
        "settings_sharing": .string(Route.settingsSharing.path()), "create_api_token": .string(Route.createAPIToken.path()),
        "export_data": .string(Route.exportData.path()), "delete_account": .string(Route.deleteAccount.path()),
        "change_email": .string(Route.changeEmail.path()), "resend_verification": .string(Route.resendVerification.path()),
        "set_digest": .string(Route.setDigest.path()), "set_default_list": .string(Route.setDefaultList.path()),
        "create_feed_link": .string(Route.createFeedLink.path()), "revoke_feed_link": .string(Route.revokeFeedLink.path()),
        "change_password": .string(Route.changePassword.path()), "save_profile": .string(Route.saveProfile.path()),
        "upload_picture": .string(SitePath.profilePicture), "delete_picture": .string(Route.deletePicture.path()),
        "set_sharing": .string(Route.setSharing.path()), "create_share_link": .string(Route.createShareLink.path()),
        "revoke_share_link": .string(Route.revokeShareLink.path()), "sign_out_others": .string(Route.signOutOthers.path()),
        "link_single_sign_on": .string(Route.linkSingleSignOn.path()),
        "settings_lists": .string(Route.settingsLists.path()),
    ]

    private static func pageHeaders(_ headers: HTTPFields) -> HTTPFields {
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return fields
    }

    /// The screen-reader word after the wishlist badge's number, in the count's plural form.
    static func wishlistNoun(_ count: Int, in translations: Translations) -> String {
        translations.text(one: "book", other: "books", count: count)
    }

    /// A part of a page (a partial), rendered on its own for a cache to keep.
    func fragment(_ template: String, _ values: [String: TemplateValue], language: String? = nil) throws -> TrustedHTML {
        TrustedHTML(trusted: String(buffer: try templates.render(template, .dictionary(Self.withPaths(values)), language: language)))
    }

    /// A part's values with the sections' and forms' ``paths``, as a whole page has them.
    private static func withPaths(_ values: [String: TemplateValue]) -> [String: TemplateValue] {
        var values = values
        values["paths"] = paths
        return values
    }

    /// The error page for `error`, keeping its headers (such as `Retry-After`), with a link
    /// `wayBack`, in the visitor's language.
    func render(_ error: PageError, wayBack: WayBack = .home, for visitor: Visitor) throws -> Response {
        let translations = visitor.translations
        let title = error.title(in: translations)
        return try render(
            "errors/error.html", title: title, for: visitor, status: error.status, headers: error.headers,
            values: [
                "error": ["status": .int(error.status.code), "title": .string(title), "message": .string(error.message(in: translations))],
                "way_back": ["path": .string(wayBack.path), "label": .string(wayBack.label(in: translations))],
            ]
        )
    }
}

/// The problems of a refused form in the order its fields come, each linking to its field.
struct ErrorSummary {
    /// Field names in page order, and the id of the element each one's link leads to where it is
    /// not the field's name. "form" is a problem with the whole form; it leads to its first field.
    static let order: [(field: String, target: String)] = [
        ("form", "username"), ("username", "username"), ("email", "email"), ("password", "password"),
        ("password_confirm", "password_confirm"), ("list", "default-list"), ("current_password", "current_password"),
        ("new_password", "new_password"), ("new_password_confirm", "new_password_confirm"), ("delete_password", "delete_password"),
        ("priority", "priority-high"), ("note", "note"), ("file", "import-file"),
        ("rating", "rating-none"), ("review", "review"), ("finished", "finished"),
        ("picture", "picture-file"), ("display_name", "display_name"), ("bio", "bio"), ("birthday_month", "birthday_month"),
        ("favorites", "favorites"), ("sharing", "sharing-private"),
        ("lookup_isbn", "lookup_isbn"), ("title", "title"), ("author", "author"), ("isbn", "isbn"), ("link", "link"),
        ("name", "name"), ("occasion", "occasion-none"), ("date", "date"), ("visibility", "visibility-household"),
    ]

    let problems: [(message: String, href: String)]

    init(_ errors: TemplateValue?) {
        guard case .dictionary(let fields)? = errors else {
            problems = []
            return
        }
        let known = Self.order.compactMap { field, target -> (String, String)? in
            guard case .string(let message)? = fields[field] else { return nil }
            return (message, "#" + target)
        }
        let others = fields.keys.filter { key in !Self.order.contains { $0.field == key } }.sorted().compactMap { key -> (String, String)? in
            guard case .string(let message)? = fields[key] else { return nil }
            return (message, "#" + key)
        }
        problems = known + others
    }

    var isEmpty: Bool { problems.isEmpty }

    var templateValue: TemplateValue {
        .array(problems.map { ["message": .string($0.message), "href": .string($0.href)] })
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

/// A shared page, its holes resolved to ``PageSlot``s.
typealias SharedHTML<Own: Sendable> = SlottedHTML<PageSlot<Own>>

/// A hole of a shared page: one of the layout's, filled alike on every page, or one of the page's
/// own, resolved when the page was rendered (``PageRenderer/renderShared(_:title:nav:isAdmin:statusLine:language:values:own:)``).
enum PageSlot<Own: Sendable>: Sendable {
    case stylesheet, csrfToken, flash, name, wishlistCount, wishlistNoun
    case own(Own)
    /// A name neither the layout nor the page knows: the hole stays empty.
    case unknown

    init(_ name: String, own: (String) -> Own?) {
        typealias Names = PageRenderer.Slot
        switch name {
        case Names.stylesheet: self = .stylesheet
        case Names.csrfToken: self = .csrfToken
        case Names.flash: self = .flash
        case Names.name: self = .name
        case Names.wishlistCount: self = .wishlistCount
        case Names.wishlistNoun: self = .wishlistNoun
        default: self = own(name).map(PageSlot.own) ?? .unknown
        }
    }
}

extension PageSlot: Equatable where Own: Equatable {}
