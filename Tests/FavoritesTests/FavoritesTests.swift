// FavoritesTests: tests of the favorites plugin (being written).
