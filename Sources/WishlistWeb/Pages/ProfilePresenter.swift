import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Profiles as the templates show them: the picture (or initials on a colour), the bio, the
/// birthday and the favourite books.
enum ProfilePresenter {
    /// How many background colours initials may have; `.avatar-colour-N` in style.css, each dark
    /// enough for white letters in both colour schemes.
    static let colourCount = 8

    /// What `partials/avatar.html` needs: the picture at `size` (64 or 256) and its double for
    /// sharp screens, or the initials of the display name (else the username) on a colour
    /// derived from the username, which stays when the display name changes.
    static func avatarValue(username: String, displayName: String?, pictureKey: String?, size: Int) -> TemplateValue {
        var value: [String: TemplateValue] = ["name": .string(displayName ?? username), "size": .int(size)]
        if let pictureKey {
            value["src"] = .string(SitePath.picture(pictureKey, size: size == 256 ? 256 : 64))
            value["srcset"] = size < 256 ? .string(SitePath.picture(pictureKey, size: 256) + " 2x") : .null
        } else {
            value["initials"] = .string(initials(displayName ?? username))
            value["colour"] = .int(colourIndex(username))
        }
        return .dictionary(value)
    }

    /// The first letters of the name's first two parts ("ana-maria" → "AM"), else its first letter.
    static func initials(_ name: String) -> String {
        let parts = name.split { "-_. ".contains($0) }
        return parts.prefix(2).compactMap(\.first).map { String($0).uppercased() }.joined()
    }

    /// A colour that stays the same for a name: FNV-1a over its bytes.
    static func colourIndex(_ username: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in username.lowercased().utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return Int(hash % UInt32(colourCount))
    }

    /// The profile part of `/people/{username}`; `wishCount` as ``wishCountText(_:in:)`` says it, or a slot for it.
    static func profileValue(_ profile: Profile, username: String, wishCount: TemplateValue, readThisYear: Int, in translations: Translations) -> TemplateValue {
        [
            "avatar": avatarValue(username: username, displayName: profile.displayName, pictureKey: profile.pictureKey, size: 256),
            "bio": .string(profile.bio),
            "birthday": .string(profile.birthday?.text(in: translations) ?? ""),
            "favorites": .array(profile.favorites.map(ReadingPresenter.readingValue)),
            "wish_count": wishCount,
            "read_this_year": .int(readThisYear),
        ]
    }

    /// "1 wish", "27 wishes", in the page's language.
    static func wishCountText(_ count: Int, in translations: Translations) -> TemplateValue {
        .string(translations.text(one: "{count} wish", other: "{count} wishes", count: count))
    }
}
