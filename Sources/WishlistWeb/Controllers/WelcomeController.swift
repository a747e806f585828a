import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// `/welcome`, where every sign-up ends (issue 57): the display name, the birthday and who sees
/// one's lists, the household's choice explained and preselected where the admin chose that
/// default (`accounts.defaultSharing`); then People. Skipping it leaves the account as it is.
struct WelcomeController {
    let profiles: ProfileStore
    let household: HouseholdStore
    let pages: PageRenderer
    let defaultSharing: Sharing

    func addRoutes(to routes: SiteRouter) {
        routes.add(.welcome, use: show)
        routes.add(.saveWelcome, use: save)
    }

    /// What the welcome's form holds: the account as it is, or what was typed when saving failed.
    struct WelcomeForm {
        var displayName: String
        var month: String
        var day: String
        var sharing: String

        init(_ profile: Profile, sharing: Sharing) {
            displayName = profile.displayName ?? ""
            month = profile.birthday.map { String($0.month) } ?? ""
            day = profile.birthday.map { String($0.day) } ?? ""
            self.sharing = sharing.rawValue
        }

        init(_ form: FormBody) throws {
            displayName = try form.text("display_name", maxLength: 10 * MemberName.displayNameMaximumLength)
            month = try form.text("birthday_month", maxLength: 10)
            day = try form.text("birthday_day", maxLength: 10)
            sharing = try form.text("sharing", maxLength: 40)
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let profile = try await profiles.profile(userID: user.userID)
        // A member who shares already keeps that; anyone else is offered the admin's default.
        let sharing = try await household.sharing(userID: user.userID) == .household ? .household : defaultSharing
        return try page(context, form: WelcomeForm(profile, sharing: sharing))
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let form = try WelcomeForm(context.form)
        var errors: FieldErrors = [:]
        let displayName = ProfileController.displayName(form.displayName, errors: &errors, in: context.visitor.translations)
        let birthday = ProfileController.birthday(month: form.month, day: form.day, errors: &errors, in: context.visitor.translations)
        let sharing = Sharing(rawValue: form.sharing)
        if sharing == nil { errors["sharing"] = context.visitor.translations.text("Choose who sees your lists: only you, or everyone on this server.") }
        guard errors.isEmpty, let sharing else { return try page(context, form: form, errors: errors, status: .unprocessableContent) }
        // The welcome asks only these; the bio and favourites stay as they are.
        let profile = try await profiles.profile(userID: user.userID)
        _ = try await profiles.save(
            userID: user.userID, displayName: displayName, bio: profile.bio, birthday: birthday, favorites: profile.favorites.map(\.id)
        )
        try await household.setSharing(userID: user.userID, sharing)
        return redirect(to: SitePath.people)
    }

    private func page(
        _ context: AppRequestContext, form: WelcomeForm, errors: FieldErrors = [:], status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let user = try context.signedInUser()
        return try pages.render(
            "accounts/welcome.html", title: context.visitor.translations.text("Welcome"), nav: "settings", for: context.visitor, status: status,
            values: [
                "username": .string(user.username),
                "display_name": .string(form.displayName),
                "sharing": .string(form.sharing),
                "errors": TemplateValue(errors),
            ].merging(ProfileController.birthdayChoices(month: form.month, day: form.day, in: context.visitor.translations.language)) { first, _ in first }
        )
    }
}
