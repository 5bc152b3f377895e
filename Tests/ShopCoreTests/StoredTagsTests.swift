// StoredTagsTests: the comma-joined tag column round-trips, including non-ASCII tags.

import ShopCore
import Testing

@Suite struct ProductTagsTests {
    @Test func tagsRoundTripThroughTheStoredText() {
        for tags in [[], ["beauty"], ["beauty", "mascara"], ["café", "日本茶", "👍 good"]] {
            #expect(StoredTags.decode(StoredTags.encode(tags)) == tags)
        }
    }

    @Test func emptyPiecesAreDropped() {
        #expect(StoredTags.decode("") == [])
        #expect(StoredTags.decode(",a,,b,") == ["a", "b"])
    }
}
