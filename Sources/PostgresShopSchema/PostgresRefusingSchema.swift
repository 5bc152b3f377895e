// PostgresRefusingSchema: migration 11 — the server's basket and favourite functions say why they
// refuse, and checkout prices a line by the one shared rule (issue 33).
//
// - Migration 5's functions declined with no row, and the store ran its whole step-by-step
//   transaction again only to find the words. Now each refusal raises its own SQLSTATE (class SH,
//   PostgresRefusal) with a JSON detail holding what the words need (the customer's username, the
//   product, the line's quantity); PostgresRefusal turns code and detail into ShopCore's line. A
//   refused `basket add` is one round trip, as an accepted one; at psql the refusal is an error.
// - `shopsh_checkout` totals a line with `LineTotalSQL` (the rule every report and seed uses)
//   instead of its own `round(numeric)`, and its refusals carry details too.
// - The limits ShopCore keeps that a login at psql could still pass hold on the server too: the
//   texts' lengths (in Unicode scalars, as ShopCore counts them) and a basket's number of lines
//   (a trigger under the basket's lock, for an INSERT that is not the functions').
//
// The functions of migration 10 are replaced from their own text, as migration 10 did:
// `replacing` fails at start-up of a test run if that text no longer matches.

import ShopCore
import ShopStoreKit

/// The DDL of migration 11 (constant SQL; the schema's name is quoted by the server).
package enum PostgresRefusingSchema {
    /// `RAISE` of `refusal`, whose detail is the JSON object of `fields` (SQL expressions by key).
    package static func raise(_ refusal: PostgresRefusal, _ fields: KeyValuePairs<String, String>) -> String {
        let detail = fields.map { "'\($0.key)', \($0.value)" }.joined(separator: ", ")
        return "RAISE EXCEPTION '\(refusal.serverMessage)' USING ERRCODE = '\(refusal.rawValue)', "
            + "DETAIL = jsonb_build_object(\(detail))::text;"
    }

    /// `IF condition THEN RAISE … END IF;`
    package static func refuse(if condition: String, _ refusal: PostgresRefusal, _ fields: KeyValuePairs<String, String>) -> String {
        "IF \(condition) THEN \(raise(refusal, fields)) END IF;"
    }

    package static let username = "(SELECT u.username FROM users u WHERE u.id = uid)"
    package static let heldQuantity = "(SELECT b.quantity FROM basket_lines b WHERE b.user_id = uid AND b.product_id = item.id)"
    package static let product: KeyValuePairs<String, String> = ["product": "item.id", "sku": "item.sku", "title": "item.title"]

    /// The refusals every function shares: the customer and the product looked up, the customer's
    /// state, the product's stock and the basket's room.
    package static func refusing(_ text: String) -> String {
        var text = PostgresHardeningSchema.replacing(text, "IF uid IS NULL THEN RETURN; END IF;",
            with: refuse(if: "uid IS NULL", .noSuchCustomer, ["customer": "customer_name"]))
        text = PostgresHardeningSchema.replacing(text, "IF item.id IS NULL THEN RETURN; END IF;",
            with: refuse(if: "item.id IS NULL", .noSuchProduct, ["product": "item_ref"]))
        let buying = "IF ustatus <> 'active' OR item.stock <= 0 THEN RETURN; END IF;"
        if text.contains(buying) {
            text = PostgresHardeningSchema.replacing(text, buying, with: refuse(if: "ustatus <> 'active'", .customerDisabled,
                                                                                 ["customer": username])
                + "\n" + refuse(if: "item.stock <= 0", .outOfStock, product))
        }
        let full = "IF NOT held AND lines >= \(BasketLimits.maxLines) THEN RETURN; END IF;"
        if text.contains(full) {
            text = PostgresHardeningSchema.replacing(text, full, with: refuse(if: "NOT held AND lines >= \(BasketLimits.maxLines)",
                                                                               .basketFull, ["customer": username]))
        }
        return text
    }

    /// `stored IS NULL` after the write: in an add, the line would pass its limit; in a set to 0
    /// or a remove, the basket does not hold the product.
    package static func refusingMissedWrite(_ text: String, _ refusal: PostgresRefusal) -> String {
        let fields: KeyValuePairs<String, String> = refusal == .lineFull
            ? ["customer": username, "sku": "item.sku", "quantity": heldQuantity, "adding": "amount"]
            : ["customer": username, "product": "item.id", "sku": "item.sku"]
        return PostgresHardeningSchema.replacing(text, "IF stored IS NULL THEN RETURN; END IF;",
                                                 with: refuse(if: "stored IS NULL", refusal, fields))
    }

    /// The line rule in checkout: LineTotalSQL over the basket's line and its product (its `%`
    /// written `%%`, as `inThisSchema`'s format() wants it).
    package static let checkoutNet = "sum(\(LineTotalSQL.discounted(unitPrice: "p.price_minor", quantity: "b.quantity", discount: "p.discount_hundredths")))"
        .replacingOccurrences(of: "%", with: "%%")

    package static var checkout: String {
        var text = PostgresHardeningSchema.recreated(PostgresServerRules.checkout)
        text = PostgresHardeningSchema.replacing(
            text, "sum(round(p.price_minor::numeric * b.quantity * (10000 - p.discount_hundredths) / 10000))", with: checkoutNet)
        text = PostgresHardeningSchema.replacing(
            text, "RAISE EXCEPTION 'no such customer' USING ERRCODE = '\(PostgresRefusal.checkoutNoCustomer.rawValue)';",
            with: raise(.checkoutNoCustomer, ["customer": "buyer_id"]))
        text = PostgresHardeningSchema.replacing(
            text, "RAISE EXCEPTION 'the customer is disabled' USING ERRCODE = '\(PostgresRefusal.checkoutDisabled.rawValue)';",
            with: raise(.checkoutDisabled, ["customer": "buyer.username"]))
        text = PostgresHardeningSchema.replacing(
            text, "RAISE EXCEPTION 'the basket is empty' USING ERRCODE = '\(PostgresRefusal.checkoutEmpty.rawValue)';",
            with: raise(.checkoutEmpty, ["customer": "buyer.username"]))
        text = PostgresHardeningSchema.replacing(
            text, "RAISE EXCEPTION 'not enough stock' USING ERRCODE = '\(PostgresRefusal.checkoutShortOfStock.rawValue)', DETAIL = line.product_id::text;",
            with: raise(.checkoutShortOfStock, ["product": "line.product_id", "sku": "(SELECT p.sku FROM products p WHERE p.id = line.product_id)", "title": "(SELECT p.title FROM products p WHERE p.id = line.product_id)"]))
        return text
    }

    /// CHECKs of the product texts' lengths, from ProductLimits (rows from before are not checked again).
    package static let textLimits: [String] = [
        ("title", ProductLimits.maxTitleLength), ("description", ProductLimits.maxDescriptionLength),
        ("category", ProductLimits.maxCategoryLength), ("brand", ProductLimits.maxBrandLength),
    ].map { column, limit in
        "ALTER TABLE products ADD CONSTRAINT products_\(column)_limit CHECK (char_length(\(column)) <= \(limit)) NOT VALID"
    }

    /// A new line in a basket that holds `BasketLimits.maxLines` products is refused, however it
    /// is inserted (counted under the basket's lock, as the functions count).
    package static let basketRoom = PostgresServerRules.inThisSchema("""
        CREATE FUNCTION shopsh_basket_room() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE uid BIGINT := NEW.user_id;
        BEGIN
            PERFORM shopsh_lock_basket(uid);
            IF NOT EXISTS (SELECT 1 FROM basket_lines b WHERE b.user_id = uid AND b.product_id = NEW.product_id)
               AND (SELECT count(*) FROM basket_lines b WHERE b.user_id = uid) >= \(BasketLimits.maxLines) THEN
                \(raise(.basketFull, ["customer": username]))
            END IF;
            RETURN NEW;
        END
        $body$
        """)

    package static var statements: [String] {
        let renamed = PostgresHardeningSchema.renamed
        return textLimits + [
            basketRoom,
            "CREATE TRIGGER basket_lines_room BEFORE INSERT ON basket_lines FOR EACH ROW EXECUTE FUNCTION shopsh_basket_room()",
        ] + [
            refusingMissedWrite(refusing(renamed(PostgresBasketStatements.add)), .lineFull),
            refusingMissedWrite(refusing(renamed(PostgresBasketStatements.set)), .notInBasket),
            refusingMissedWrite(refusing(renamed(PostgresBasketStatements.remove)), .notInBasket),
            refusing(renamed(PostgresBasketStatements.favorite)),
            checkout,
        ].map(PostgresServerRules.inThisSchema)
    }
}
