import Foundation
import Hummingbird
import WishlistCore
import WishlistTemplates

/// Settings → Profile: the bio, the birthday, the favourite books and the picture.
struct ProfileController {
    let profiles: ProfileStore
    let reading: ReadingStore
    let pages: PageRenderer
    let clock: WallClock

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("settings/profile", use: show)
        group.post("settings/profile", use: save)
    }

    static let confirmations = [
        "saved": "Your profile was saved.",
        "picture": "Your new picture is up.",
        "picture-removed": "Your picture was removed; your initials show instead.",
    ]

    /// What the profile form holds: the saved profile, or what was typed when saving failed.
    struct ProfileForm {
        var bio: String
        var month: String
        var day: String
        var favorites: Set<Int64>

        init(_ profile: Profile) {
            bio = profile.bio
            month = profile.birthday.map { String($0.month) } ?? ""
            day = profile.birthday.map { String($0.day) } ?? ""
            favorites = Set(profile.favorites.map(\.id))
        }

        init(_ form: FormBody, readings: [Reading]) throws {
            bio = try form.text("bio", maxLength: 4 * Profile.bioMaximumLength)
            month = try form.text("birthday_month", maxLength: 10)
            day = try form.text("birthday_day", maxLength: 10)
            favorites = Set(try readings.filter { try form.text("favorite_\($0.id)", maxLength: 10) == "yes" }.map(\.id))
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let profile = try await profiles.profile(userID: user.userID)
        let done = request.uri.queryParameters["done"].flatMap { Self.confirmations[String($0)] }
        return try await page(context, profile: profile, form: ProfileForm(profile), done: done)
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let readings = try await reading.readings(userID: user.userID, sort: .finished)
        let form = try ProfileForm(context.form, readings: readings)
        var errors: FieldErrors = [:]
        let bio = form.bio.trimmingCharacters(in: .whitespacesAndNewlines)
        if bio.count > Profile.bioMaximumLength {
            errors["bio"] = "A bio can be up to 500 characters; this one has \(bio.count). Shorten it and save again."
        }
        var birthday: Birthday?
        if !form.month.isEmpty || !form.day.isEmpty {
            birthday = Int(form.month).flatMap { month in Int(form.day).flatMap { Birthday(month: month, day: $0) } }
            if birthday == nil { errors["birthday_month"] = "Choose both the month and a day that month has, or neither." }
        }
        if form.favorites.count > Profile.favoriteMaximumCount {
            errors["favorites"] = "Choose up to 6 favourite books; you chose \(form.favorites.count)."
        }
        let profile = try await profiles.profile(userID: user.userID)
        guard errors.isEmpty else {
            return try await page(context, profile: profile, form: form, errors: errors, status: .unprocessableContent)
        }
        // Favourites keep the order of "Books I've read", newest first.
        let favorites = readings.map(\.id).filter(form.favorites.contains)
        guard try await profiles.save(userID: user.userID, bio: bio, birthday: birthday, favorites: favorites) == .saved else {
            errors["favorites"] = "One of those books is no longer among the books you’ve read. Choose again."
            return try await page(context, profile: profile, form: form, errors: errors, status: .unprocessableContent)
        }
        return redirect(to: SitePath.profile + "?done=saved")
    }

    private func page(
        _ context: AppRequestContext, profile: Profile, form: ProfileForm, done: String? = nil, errors: FieldErrors = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let user = try context.signedInUser()
        let readings = try await reading.readings(userID: user.userID, sort: .finished)
        return try pages.render(
            "settings/profile.html", title: "Your profile", nav: "settings", for: context.visitor, status: status,
            values: [
                "flash": done.map { ["kind": "success", "message": .string($0)] } ?? .null,
                "avatar": ProfilePresenter.avatarValue(username: user.username, pictureKey: profile.pictureKey, size: 256),
                "has_picture": .bool(profile.pictureKey != nil),
                "bio": .string(form.bio),
                "months": .array(Birthday.monthNames.enumerated().map { index, name in
                    ["value": .string(String(index + 1)), "name": .string(name), "selected": .bool(form.month == String(index + 1))]
                }),
                "days": .array((1...31).map { day in ["value": .string(String(day)), "selected": .bool(form.day == String(day))] }),
                "readings": .array(readings.map { reading in
                    [
                        "id": .int(Int(reading.id)), "title": .string(reading.title), "author": .string(reading.author),
                        "checked": .bool(form.favorites.contains(reading.id)),
                    ]
                }),
                "errors": TemplateValue(errors),
            ]
        )
    }
}
