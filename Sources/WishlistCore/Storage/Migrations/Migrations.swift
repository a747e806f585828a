import GRDB

package extension AppDatabase {
    /// The schema's history, one file a migration beside this one (`NN-name.swift` for migration
    /// "N-name"). Append new migrations; never edit one that has shipped, because databases from
    /// earlier versions upgrade by replaying only what they lack, and the names are stored in them.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-secrets", migrate: Migrations.createSecrets)
        migrator.registerMigration("2-accounts", migrate: Migrations.createAccounts)
        migrator.registerMigration("3-catalog", migrate: Migrations.createCatalog)
        migrator.registerMigration("4-wishlist", migrate: Migrations.createWishlist)
        migrator.registerMigration("5-book-isbns", migrate: Migrations.createBookISBNs)
        migrator.registerMigration("6-household", migrate: Migrations.createHousehold)
        migrator.registerMigration("7-administration", migrate: Migrations.createAdministration)
        migrator.registerMigration("8-editions", migrate: Migrations.createEditions)
        migrator.registerMigration("9-feed-links", migrate: Migrations.createFeedLinks)
        migrator.registerMigration("10-passkeys", migrate: Migrations.createPasskeys)
        migrator.registerMigration("11-catalog-generation", migrate: Migrations.createCatalogGeneration)
        migrator.registerMigration("12-wishlist-generation", migrate: Migrations.createWishlistGeneration)
        migrator.registerMigration("13-search-current-books", migrate: Migrations.searchCurrentBooksOnly)
        migrator.registerMigration("14-reservation-generation", migrate: Migrations.separateReservationGeneration)
        migrator.registerMigration("15-passkey-challenge-browser", migrate: Migrations.bindPasskeyChallengesToBrowsers)
        migrator.registerMigration("16-readers", migrate: Migrations.createReaders)
        migrator.registerMigration("17-gift-cycle", migrate: Migrations.createGiftCycle)
        migrator.registerMigration("18-gift-ideas", migrate: Migrations.createGiftIdeas)
        migrator.registerMigration("19-any-book-and-covers", migrate: Migrations.createAddedBooksAndCovers)
        migrator.registerMigration("20-sign-in-identities", migrate: Migrations.createSignInIdentities)
        migrator.registerMigration("21-mail", migrate: Migrations.createMail)
        migrator.registerMigration("22-display-names", migrate: Migrations.createDisplayNames)
        migrator.registerMigration("23-wishlist-by-book-and-user", migrate: Migrations.indexWishlistByBookAndUser)
        migrator.registerMigration("24-household-figures", migrate: Migrations.createHouseholdFigures)
        migrator.registerMigration("25-owner-generations", migrate: Migrations.createOwnerGenerations)
        migrator.registerMigration("26-signin-review", migrate: Migrations.reviewSignIn)
        migrator.registerMigration("27-mail-review", migrate: Migrations.sealMailAndFreeUnconfirmedAddresses)
        migrator.registerMigration("28-data-review", migrate: Migrations.trackImportsAndWishesAgain)
        migrator.registerMigration("29-authors", migrate: Migrations.createAuthors)
        migrator.registerMigration("30-occasions", migrate: Migrations.createOccasions)
        migrator.registerMigration("31-children", migrate: Migrations.createChildren)
        migrator.registerMigration("32-first-week", migrate: Migrations.createFirstWeek)
        migrator.registerMigration("33-api-tokens", migrate: Migrations.createAPITokens)
        migrator.registerMigration("34-list-share-links", migrate: Migrations.sharePerList)
        migrator.registerMigration("35-language", migrate: Migrations.addMemberLanguage)
        migrator.registerMigration("36-reading-goal", migrate: Migrations.createReadingNowAndGoals)
        migrator.registerMigration("37-wishlist-by-book-shared", migrate: Migrations.indexWishlistByBookUserAndShared)
        // Triggers only, no table made again: immediate foreign key checks spare the upgrade a check of every row.
        migrator.registerMigration(
            "38-imported-wishes-counted-by-statement", foreignKeyChecks: .immediate, migrate: Migrations.countImportedWishesByStatement
        )
        return migrator
    }
}

/// The migrations' steps, each in the file named after its migration.
enum Migrations {}
