import Foundation
import Hummingbird
import Logging
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Settings → Profile: the display name, the bio, the birthday, the favourite books and the
/// picture; and the pictures themselves, served from our own origin.
struct ProfileController {
    let profiles: ProfileStore
    let reading: ReadingStore
    let pictures: PictureProcessor
    let pages: PageRenderer
    let clock: WallClock
    let logger: Logger

    func addRoutes(to routes: SiteRouter) {
        routes.add(.profile, use: show)
        routes.add(.saveProfile, use: save)
        routes.add(.uploadPicture, use: uploadPicture)
        routes.add(.deletePicture, use: deletePicture)
        routes.add(.picture, use: picture)
    }

    static let noSuchPicture = PageError(
        .notFound, title: Translations.marked("No such picture"), message: Translations.marked("That picture has been replaced or removed. Reload the page to see the current one.")
    )

    static let confirmations = [
        "saved": Translations.marked("Your profile was saved."),
        "picture": Translations.marked("Your new picture is up."),
        "picture-removed": Translations.marked("Your picture was removed; your initials show instead."),
    ]

    /// What the profile form holds: the saved profile, or what was typed when saving failed.
    struct ProfileForm {
        var displayName: String
        var bio: String
        var month: String
        var day: String
        var favorites: Set<ReadingID>

        init(_ profile: Profile) {
            displayName = profile.displayName ?? ""
            bio = profile.bio
            month = profile.birthday.map { String($0.month) } ?? ""
            day = profile.birthday.map { String($0.day) } ?? ""
            favorites = Set(profile.favorites.map(\.id))
        }

        init(_ form: FormBody, readings: [Reading]) throws {
            // Room beyond the limit, so that a long name is answered beside the field, not with a 400.
            displayName = try form.text("display_name", maxLength: 10 * MemberName.displayNameMaximumLength)
            bio = try form.text("bio", maxLength: 4 * Profile.bioMaximumLength)
            month = try form.text("birthday_month", maxLength: 10)
            day = try form.text("birthday_day", maxLength: 10)
            favorites = Set(try readings.filter { try form.checkbox("favorite_\($0.id)") }.map(\.id))
        }
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let profile = try await profiles.profile(userID: user.userID)
        let done = request.uri.queryParameters["done"].flatMap { Self.confirmations[String($0)] }.map { context.visitor.translations.text($0) }
        return try await page(context, profile: profile, form: ProfileForm(profile), done: done)
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let readings = try await reading.readings(userID: user.userID, sort: .finished)
        let form = try ProfileForm(context.form, readings: readings)
        var errors: FieldErrors = [:]
        let translations = context.visitor.translations
        let displayName = Self.displayName(form.displayName, errors: &errors, in: translations)
        let bio = form.bio.trimmingCharacters(in: .whitespacesAndNewlines)
        if bio.count > Profile.bioMaximumLength {
            errors["bio"] = translations.text(
                "A bio can be up to {maximum} characters; this one has {length}. Shorten it and save again.",
                values: ["maximum": translations.language.formatted(Profile.bioMaximumLength), "length": translations.language.formatted(bio.count)]
            )
        }
        let birthday = Self.birthday(month: form.month, day: form.day, errors: &errors, in: translations)
        if form.favorites.count > Profile.favoriteMaximumCount {
            errors["favorites"] = translations.text(
                "Choose up to {maximum} favourite books; you chose {count}.",
                values: ["maximum": translations.language.formatted(Profile.favoriteMaximumCount), "count": translations.language.formatted(form.favorites.count)]
            )
        }
        let profile = try await profiles.profile(userID: user.userID)
        guard errors.isEmpty else {
            return try await page(context, profile: profile, form: form, errors: errors, status: .unprocessableContent)
        }
        // Favourites keep the order of "Books I've read", newest first.
        let favorites = readings.map(\.id).filter(form.favorites.contains)
        guard try await profiles.save(userID: user.userID, displayName: displayName, bio: bio, birthday: birthday, favorites: favorites) == .saved else {
            errors["favorites"] = translations.text("One of those books is no longer among the books you’ve read. Choose again.")
            return try await page(context, profile: profile, form: form, errors: errors, status: .unprocessableContent)
        }
        return redirect(to: SitePath.profile + "?done=saved")
    }

    /// The typed display name, checked; a problem goes to `errors`. Settings and the welcome share it.
    static func displayName(_ typed: String, errors: inout FieldErrors, in translations: Translations) -> String? {
        do {
            return try MemberName.displayName(typed)
        } catch {
            errors["display_name"] = error.sentence(in: translations)
            return nil
        }
    }

    /// The birthday chosen in the month and day menus (both or neither); a problem goes to `errors`.
    static func birthday(month: String, day: String, errors: inout FieldErrors, in translations: Translations) -> Birthday? {
        guard !month.isEmpty || !day.isEmpty else { return nil }
        let birthday = Int(month).flatMap { month in Int(day).flatMap { Birthday(month: month, day: $0) } }
        if birthday == nil { errors["birthday_month"] = translations.text("Choose both the month and a day that month has, or neither.") }
        return birthday
    }

    /// The month and day menus' choices, `selected` as `month` and `day` say, the months named in
    /// the page's language.
    static func birthdayChoices(month: String, day: String, in language: LanguageData) -> [String: TemplateValue] {
        [
            "months": .array(language.monthNames.enumerated().map { index, name in
                ["value": .string(String(index + 1)), "name": .string(name), "selected": .bool(month == String(index + 1))]
            }),
            "days": .array((1...31).map { value in ["value": .string(String(value)), "selected": .bool(day == String(value))] }),
        ]
    }

    /// Checks, decodes and re-encodes the upload off the event loop (``PictureProcessor``); a
    /// picture that cannot be used is the profile page again with a sentence beside the field.
    @Sendable func uploadPicture(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let file = context.upload, !(file.filename ?? "").isEmpty || file.body.readableBytes > 0 else {
            return try await refusedPicture(context, userID: user.userID, context.visitor.translations.text("Choose a picture file, then press Upload picture."))
        }
        let processed: ProcessedPicture
        do {
            processed = try await pictures.process(bytes: file.body, declaredType: file.contentType)
        } catch let problem as PictureProblem {
            if case .unreadable(let reason) = problem {
                logger.info("picture refused", metadata: ["reason": .string(String(reason.prefix(200)))])
            }
            return try await refusedPicture(
                context, userID: user.userID, problem.sentence(in: context.visitor.translations), status: problem == .busy ? .serviceUnavailable : .unprocessableContent
            )
        }
        _ = try await profiles.setPicture(userID: user.userID, large: processed.large, small: processed.small, at: clock.now())
        return redirect(to: SitePath.profile + "?done=picture")
    }

    @Sendable func deletePicture(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        _ = try await profiles.deletePicture(userID: user.userID)
        return redirect(to: SitePath.profile + "?done=picture-removed")
    }

    /// `KEY-256.jpg` or `KEY-64.jpg`. A new picture has a new key, so a year of caching is safe.
    @Sendable func picture(_ request: Request, context: AppRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".jpg"), let dash = file.lastIndex(of: "-") else { throw Self.noSuchPicture }
        let key = String(file[..<dash])
        let size = file[file.index(after: dash)...].dropLast(4)
        guard size == "256" || size == "64", key.count == 16, let bytes = try await profiles.picture(key: key, large: size == "256") else {
            throw Self.noSuchPicture
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/jpeg", .cacheControl: "public, max-age=31536000, immutable"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    private func refusedPicture(
        _ context: AppRequestContext, userID: UserID, _ message: String, status: HTTPResponse.Status = .unprocessableContent
    ) async throws -> Response {
        let profile = try await profiles.profile(userID: userID)
        return try await page(context, profile: profile, form: ProfileForm(profile), errors: ["picture": message], status: status)
    }

    private func page(
        _ context: AppRequestContext, profile: Profile, form: ProfileForm, done: String? = nil, errors: FieldErrors = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let user = try context.signedInUser()
        let readings = try await reading.readings(userID: user.userID, sort: .finished)
        return try pages.render(
            "settings/profile.html", title: context.visitor.translations.text("Your profile"), nav: "settings", for: context.visitor, status: status,
            values: [
                "flash": done.map { ["kind": "success", "message": .string($0)] } ?? .null,
                "avatar": ProfilePresenter.avatarValue(
                    username: user.username, displayName: profile.displayName, pictureKey: profile.pictureKey, size: 256
                ),
                "username": .string(user.username),
                "display_name": .string(form.displayName),
                "has_picture": .bool(profile.pictureKey != nil),
                "bio": .string(form.bio),
                "readings": .array(readings.map { reading in
                    [
                        "id": .id(reading.id), "title": .string(reading.title), "author": .string(reading.author),
                        "checked": .bool(form.favorites.contains(reading.id)),
                    ]
                }),
                "errors": TemplateValue(errors),
            ].merging(Self.birthdayChoices(month: form.month, day: form.day, in: context.visitor.translations.language)) { first, _ in first }
        )
    }
}
