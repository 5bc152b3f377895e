// ProductTagsTests: the comma-joined tag column round-trips, including non-ASCII tags.

import Testing
@testable import ShopStoreSQLite

@Suite struct ProductTagsTests {
    @Test func tagsRoundTripThroughTheStoredText() {
        for tags in [[], ["beauty"], ["beauty", "mascara"], ["café", "日本茶", "👍 good"]] {
            #expect(SQLiteProductService.decodeTags(SQLiteProductService.encodeTags(tags)) == tags)
        }
    }

    @Test func emptyPiecesAreDropped() {
        #expect(SQLiteProductService.decodeTags("") == [])
        #expect(SQLiteProductService.decodeTags(",a,,b,") == ["a", "b"])
    }
}
