// PostgresCouponSchema: migration 15 — coupons (issue 36), held by the server as SQLite holds
// them (Schema v11: the same tables and columns, in PostgreSQL types):
//
// - `coupons`: an admin adds and disables them (PostgresRoles: INSERT, UPDATE); CHECKs keep what
//   CouponRules.check keeps, also at psql. `basket_coupons`: a basket's one coupon, which support
//   attaches and takes off. `coupon_uses` and `order_lines.coupon_minor`: written by nobody but
//   checkout.
// - Checkout is `shopsh_checkout(buyer, ship_to, without_coupon)`: it locks the basket's coupon
//   row, then the coupon (`FOR UPDATE`), so two checkouts with one code are served one after the
//   other and its uses are counted under that lock; it refuses a coupon that gives nothing now
//   (CouponRules.quote's checks, in its order, each with its own SQLSTATE: PostgresRefusal's SHK
//   codes), runs the checkout of migration 14 (renamed `shopsh_checkout_to_address`, callable by
//   the owner only), then takes the discount off (`discountSQL` and `shopsh_coupon_split`:
//   CouponRules' rule in SQL), counts the use and takes the coupon off the basket. Its audit row
//   ends as AuditChange.checkout writes it on SQLite (the total after the coupon, and its code).
// - The server audits coupons (`coupon add|disable|update`, AuditChange.couponAdded's fields) and
//   baskets' coupons (`basket … coupon add|remove`) itself, through the statement triggers every
//   audited table has.
//
// Functions of earlier migrations are replaced from their own text (a released migration is never
// edited): `replacing` fails loudly at start-up of a test run if that text no longer matches.

import ShopCore
import ShopStoreKit

/// The DDL of migration 15 (constant SQL; the schema's name is quoted by the server).
package enum PostgresCouponSchema {
    /// The function checkout calls, as grants name it.
    package static let checkoutSignature = "shopsh_checkout(BIGINT, BIGINT, BOOLEAN)"
    /// Migration 14's checkout, kept under this name for the new one to call (owner only).
    package static let retiredCheckoutSignature = "shopsh_checkout_to_address(BIGINT, BIGINT)"

    /// CouponRules.discount in SQL: P % of `eligibleTotal` (never negative) rounded once, half away
    /// from zero, or the amount capped at the total. Integer division of NUMERICs (`div`), never `/`:
    /// a NUMERIC quotient is itself rounded to a scale the server picks from the operands' sizes, and
    /// rounding it again is not rounding once. The arguments are constant SQL (column names or
    /// variables of the caller), never values.
    package static func discountSQL(percentHundredths: String, amountMinor: String, eligibleTotal: String) -> String {
        let whole = Percentage.hundredthsRange.upperBound
        return """
        (CASE WHEN \(percentHundredths) IS NOT NULL
              THEN div(\(eligibleTotal)::numeric * \(percentHundredths) + \(whole / 2), \(whole))::bigint
              ELSE LEAST(\(amountMinor), \(eligibleTotal))::bigint END)
        """
    }

    /// CouponRules.split in SQL: `discount` minor units over lines worth `totals` (0 for a line out
    /// of scope), by largest remainder — each line ⌊discount × total / sum⌋ (`div` of NUMERICs: exact,
    /// where `floor(a / b)` floors a quotient the server has already rounded, and gave a line one unit
    /// too many when ⌊a / b⌋ + 1 was within 10⁻⁴ of the quotient), and
    /// the units left over one each to the lines with the largest remainders, the earlier line
    /// (lower position, i.e. line number) first on a tie. The parts add up to `discount` exactly.
    package static let split = """
        CREATE FUNCTION shopsh_coupon_split(discount BIGINT, totals BIGINT[]) RETURNS BIGINT[]
        LANGUAGE sql IMMUTABLE AS $body$
        WITH lines AS (SELECT t.n, GREATEST(COALESCE(t.v, 0), 0)::numeric AS v FROM unnest(totals) WITH ORDINALITY AS t(v, n)),
             whole AS (SELECT sum(v) AS total FROM lines),
             parts AS (SELECT l.n, l.v, CASE WHEN w.total > 0 AND discount > 0 THEN div(discount::numeric * l.v, w.total) ELSE 0 END AS part,
                              CASE WHEN w.total > 0 AND discount > 0 THEN mod(discount::numeric * l.v, w.total) ELSE 0 END AS remainder
                       FROM lines l CROSS JOIN whole w),
             left_over AS (SELECT CASE WHEN (SELECT total FROM whole) > 0 AND discount > 0 THEN discount - sum(part) ELSE 0 END AS units FROM parts),
             ranked AS (SELECT p.n, row_number() OVER (ORDER BY p.remainder DESC, p.n) AS place FROM parts p WHERE p.v > 0)
        SELECT COALESCE(array_agg((p.part + CASE WHEN r.place <= (SELECT units FROM left_over) THEN 1 ELSE 0 END)::bigint ORDER BY p.n),
                        '{}'::bigint[])
        FROM parts p LEFT JOIN ranked r ON r.n = p.n
        $body$
        """

    /// The audit's fields of a coupon row `alias` (AuditChange.couponAdded): value (`10.00%`,
    /// `10.50%`, `5.00 USD`: Percentage and Money as they print), min_total, starts, expires, max_uses, per_customer, scope (`all`,
    /// `category beauty`, `products 1, 2`), description. The one definition: the trigger's
    /// fast path for added coupons and shopsh_audit_fields (over the row's JSON image) both use it.
    static func couponFields(_ alias: String) -> String {
        let c = alias + "."
        return """
            jsonb_build_object(
                'value', CASE WHEN \(c)percent_hundredths IS NOT NULL THEN shopsh_hundredths_text(\(c)percent_hundredths) || '%'
                              ELSE shopsh_hundredths_text(\(c)amount_minor) || ' ' || \(c)currency END,
                'min_total', CASE WHEN \(c)min_total_minor IS NOT NULL THEN shopsh_hundredths_text(\(c)min_total_minor) || ' ' || \(c)currency END,
                'starts', to_char(\(c)starts, 'YYYY-MM-DD'), 'expires', to_char(\(c)expires, 'YYYY-MM-DD'),
                'max_uses', \(c)max_uses, 'per_customer', \(c)per_customer,
                'scope', CASE WHEN \(c)category IS NOT NULL THEN 'category ' || \(c)category
                              WHEN \(c)product_ids IS NOT NULL THEN 'products ' || array_to_string(\(c)product_ids, ', ')
                              ELSE 'all' END,
                'description', \(c)description)
            """
    }

    /// shopsh_audit_fields as migration 14 left it, with coupons.
    static var auditFields: String {
        guard let fields = PostgresAddressSchema.statements.first(where: { $0.contains("CREATE OR REPLACE FUNCTION shopsh_audit_fields") }) else {
            preconditionFailure("migration 15: migration 14 no longer creates shopsh_audit_fields")
        }
        return PostgresHardeningSchema.replacing(fields, "WHEN 'basket_lines' THEN", with: """
            WHEN 'coupons' THEN (SELECT \(couponFields("x")) FROM jsonb_populate_record(NULL::coupons, r) AS x)
                WHEN 'basket_lines' THEN
            """)
    }

    /// shopsh_audit_statement as migration 10 left it, with a fast path for added coupons: one
    /// set-based INSERT of their `add` rows (`coupons generate` adds 10,000 at once; the row by
    /// row path took seconds for them).
    static var auditStatement: String {
        guard let current = PostgresHardeningSchema.statements.first(where: { $0.contains("CREATE OR REPLACE FUNCTION shopsh_audit_statement") }) else {
            preconditionFailure("migration 15: migration 10 no longer replaces shopsh_audit_statement")
        }
        return PostgresHardeningSchema.replacing(current, "command := shopsh_audit_command();", with: """
            command := shopsh_audit_command();
                IF TG_TABLE_NAME = 'coupons' AND TG_OP = 'INSERT' THEN
                    INSERT INTO audit_log (command, entity, entity_id, action, before, after)
                    SELECT command, 'coupon', n.code, 'add', NULL, \(PostgresServerRules.formatted(couponFields("n")))
                    FROM new_rows n ORDER BY n.id;
                    RETURN NULL;
                END IF;
            """)
    }

    /// shopsh_audit_row as migration 14 left it, with coupons (entity `coupon`, id its code: `add`,
    /// `disable` when only `disabled` went true, else `update`) and baskets' coupons (entity
    /// `basket`, id the customer: `coupon add` / `coupon remove` with the code; nothing for the
    /// coupon a deleted customer's basket took with it).
    static var auditRow: String {
        let replacing = PostgresHardeningSchema.replacing
        var text = PostgresAddressSchema.auditRow
        text = replacing(text, "IF source IN ('addresses', 'notes') AND new_row IS NULL AND old_row ->> 'user_id' IS NOT NULL",
                         "IF source IN ('addresses', 'notes', 'basket_coupons') AND new_row IS NULL AND old_row ->> 'user_id' IS NOT NULL")
        text = replacing(text, "entity := CASE source WHEN 'products' THEN 'product'",
                         "entity := CASE source WHEN 'coupons' THEN 'coupon' WHEN 'basket_coupons' THEN 'basket' WHEN 'products' THEN 'product'")
        text = replacing(text, "entity_id := CASE source WHEN 'addresses' THEN r ->> 'user_id'",
                         "entity_id := CASE source WHEN 'coupons' THEN r ->> 'code' WHEN 'basket_coupons' THEN r ->> 'user_id' WHEN 'addresses' THEN r ->> 'user_id'")
        text = replacing(text, "WHEN 'products' THEN (r ->> 'id')::numeric WHEN 'addresses'",
                         "WHEN 'products' THEN (r ->> 'id')::numeric WHEN 'coupons' THEN (r ->> 'id')::numeric WHEN 'basket_coupons' THEN (r ->> 'user_id')::numeric WHEN 'addresses'")
        text = replacing(text, "IF before IS NOT DISTINCT FROM after THEN RETURN; END IF;", """
            IF source = 'coupons' THEN
                IF old_row IS NULL THEN
                    action := 'add';
                ELSIF new_row IS NULL THEN
                    action := 'delete';
                ELSIF old_row -> 'disabled' IS DISTINCT FROM new_row -> 'disabled' THEN
                    action := CASE WHEN before IS NULL AND (new_row ->> 'disabled')::boolean THEN 'disable' ELSE 'update' END;
                    before := COALESCE(before, '{}'::jsonb) || jsonb_build_object('disabled', (old_row ->> 'disabled')::boolean);
                    after := COALESCE(after, '{}'::jsonb) || jsonb_build_object('disabled', (new_row ->> 'disabled')::boolean);
                ELSE
                    action := 'update';
                END IF;
            END IF;
            IF source = 'basket_coupons' THEN
                action := 'coupon ' || CASE WHEN old_row IS NULL THEN 'add' WHEN new_row IS NULL THEN 'remove' ELSE 'update' END;
                before := CASE WHEN old_row IS NOT NULL
                               THEN jsonb_build_object('coupon', (SELECT c.code FROM coupons c WHERE c.id = (old_row ->> 'coupon_id')::bigint)) END;
                after := CASE WHEN new_row IS NOT NULL
                              THEN jsonb_build_object('coupon', (SELECT c.code FROM coupons c WHERE c.id = (new_row ->> 'coupon_id')::bigint)) END;
            END IF;
            IF before IS NOT DISTINCT FROM after THEN RETURN; END IF;
            """)
        return text
    }

    package static let statements: [String] = [
        """
        CREATE TABLE coupons (
            id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            code               TEXT NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9_-]{\(CouponRules.codeLength.lowerBound),\(CouponRules.codeLength.upperBound)}$'),
            percent_hundredths INTEGER CHECK (percent_hundredths BETWEEN 1 AND \(Percentage.hundredthsRange.upperBound)),
            amount_minor       BIGINT CHECK (amount_minor > 0 AND amount_minor <= \(ProductLimits.maxPriceMinorUnits)),
            currency           TEXT NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
            min_total_minor    BIGINT CHECK (min_total_minor >= 0 AND min_total_minor <= \(ProductLimits.maxPriceMinorUnits)),
            starts             DATE,
            expires            DATE,
            max_uses           INTEGER CHECK (max_uses BETWEEN 1 AND \(CouponRules.maxUsesLimit)),
            per_customer       INTEGER CHECK (per_customer BETWEEN 1 AND \(CouponRules.maxUsesLimit)),
            category           TEXT CHECK (category = lower(category)),
            product_ids        BIGINT[] CHECK (cardinality(product_ids) BETWEEN 1 AND \(CouponRules.maxScopeProducts)),
            description        TEXT NOT NULL DEFAULT '' CHECK (char_length(description) <= \(CouponRules.maxDescriptionLength)),
            disabled           BOOLEAN NOT NULL DEFAULT false,
            created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
            CHECK ((percent_hundredths IS NULL) <> (amount_minor IS NULL)),
            CHECK (category IS NULL OR product_ids IS NULL),
            CHECK (expires >= starts)
        )
        """,
        // `coupons list --prefix`: a range on byte order.
        "CREATE INDEX coupons_code_prefix ON coupons (code COLLATE \"C\")",
        """
        CREATE TABLE basket_coupons (
            user_id   BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            coupon_id BIGINT NOT NULL REFERENCES coupons(id),
            added_at  TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """,
        "CREATE INDEX basket_coupons_by_coupon ON basket_coupons (coupon_id)",
        // No foreign key to users: customers get deleted, their orders (and uses) stay.
        """
        CREATE TABLE coupon_uses (
            order_id       BIGINT PRIMARY KEY REFERENCES orders(id),
            coupon_id      BIGINT NOT NULL REFERENCES coupons(id),
            user_id        BIGINT,
            discount_minor BIGINT NOT NULL CHECK (discount_minor >= 0),
            used_at        TIMESTAMPTZ NOT NULL DEFAULT now()
        )
        """,
        "CREATE INDEX coupon_uses_by_coupon ON coupon_uses (coupon_id, user_id)",
        "ALTER TABLE order_lines ADD COLUMN coupon_minor BIGINT NOT NULL DEFAULT 0 CHECK (coupon_minor >= 0)",
        split,
        // Checkout with a coupon: migration 14's function is kept under another name, callable by
        // nobody but the owner, and the new one calls it.
        "ALTER FUNCTION shopsh_checkout(BIGINT, BIGINT) RENAME TO shopsh_checkout_to_address",
        "REVOKE ALL ON FUNCTION \(retiredCheckoutSignature) FROM PUBLIC",
        PostgresServerRules.inThisSchema(checkout),
        "REVOKE ALL ON FUNCTION \(checkoutSignature) FROM PUBLIC",
        // The audit of coupons and baskets' coupons.
        auditFields,
        PostgresServerRules.inThisSchema(PostgresHardeningSchema.recreated(auditRow)),
        auditStatement,
        // A returned line's refund is its share of what was paid for it (after the coupon).
        PostgresRefundSchema.returnUnitsOfPaid,
    ] + PostgresServerRules.triggers(on: "coupons") + PostgresServerRules.triggers(on: "basket_coupons")

    /// `RAISE` of a coupon refusal: its detail names the code and what the words need.
    static func refuse(_ refusal: PostgresRefusal, _ fields: KeyValuePairs<String, String> = [:]) -> String {
        var all: [(String, String)] = [("code", "c.code")]
        all += fields.map { ($0.key, $0.value) }
        let detail = all.map { "'\($0.0)', \($0.1)" }.joined(separator: ", ")
        return "RAISE EXCEPTION '\(refusal.serverMessage)' USING ERRCODE = '\(refusal.rawValue)', "
            + "DETAIL = jsonb_build_object(\(detail))::text;"
    }


    /// Checkout with the basket's coupon (see the file's header). `without_coupon`: at full price,
    /// the coupon taken off the basket all the same. Returns the order's id.
    static let checkout = """
        CREATE FUNCTION shopsh_checkout(buyer_id BIGINT, ship_to BIGINT DEFAULT NULL, without_coupon BOOLEAN DEFAULT false)
        RETURNS BIGINT
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            held BIGINT;
            c coupons%%ROWTYPE;
            today DATE := (now() AT TIME ZONE 'UTC')::date;
            uses BIGINT;
            buyer_uses BIGINT;
            new_order BIGINT;
            basket_total BIGINT;
            eligible_total BIGINT;
            numbers INTEGER[];
            totals BIGINT[];
            shares BIGINT[];
            off BIGINT;
        BEGIN
            -- The basket's coupon, then the coupon itself: checkouts with one code wait on each other here.
            SELECT bc.coupon_id INTO held FROM basket_coupons bc WHERE bc.user_id = buyer_id FOR UPDATE;
            IF held IS NOT NULL AND NOT COALESCE(without_coupon, false) THEN
                SELECT * INTO c FROM coupons WHERE id = held FOR UPDATE;
                SELECT count(*), count(*) FILTER (WHERE u.user_id = buyer_id) INTO uses, buyer_uses
                FROM coupon_uses u WHERE u.coupon_id = c.id;
                -- CouponRules.standing, then the currency (the basket is in USD).
                IF c.disabled THEN \(refuse(.couponDisabled)) END IF;
                IF c.max_uses IS NOT NULL AND uses >= c.max_uses THEN \(refuse(.couponUsedUp, ["max_uses": "c.max_uses"])) END IF;
                IF c.starts IS NOT NULL AND today < c.starts THEN
                    \(refuse(.couponScheduled, ["starts": "to_char(c.starts, 'YYYY-MM-DD')"]))
                END IF;
                IF c.expires IS NOT NULL AND today > c.expires THEN
                    \(refuse(.couponExpired, ["expires": "to_char(c.expires, 'YYYY-MM-DD')"]))
                END IF;
                IF c.per_customer IS NOT NULL AND buyer_uses >= c.per_customer THEN
                    \(refuse(.couponCustomerLimit, ["per_customer": "c.per_customer"]))
                END IF;
                IF c.currency <> 'USD' THEN \(refuse(.couponOtherCurrency, ["currency": "c.currency", "basket": "'USD'"])) END IF;
            END IF;
            new_order := shopsh_checkout_to_address(buyer_id, ship_to);
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            IF c.id IS NOT NULL THEN
                -- The order's lines as the basket's, in line order: the whole total, and each line's in scope.
                SELECT o.discounted_total_minor INTO basket_total FROM orders o WHERE o.id = new_order;
                SELECT array_agg(l.line_number ORDER BY l.line_number),
                       array_agg(CASE WHEN (c.category IS NULL AND c.product_ids IS NULL)
                                           OR (c.category IS NOT NULL AND lower(p.category) = c.category)
                                           OR (c.product_ids IS NOT NULL AND l.product_id = ANY (c.product_ids))
                                      THEN \(PostgresServerRules.formatted(LineTotalSQL.orderLine("l"))) ELSE 0 END ORDER BY l.line_number)
                INTO numbers, totals
                FROM order_lines l LEFT JOIN products p ON p.id = l.product_id WHERE l.order_id = new_order;
                SELECT COALESCE(sum(t), 0) INTO eligible_total FROM unnest(totals) AS t;
                IF c.min_total_minor IS NOT NULL AND basket_total < c.min_total_minor THEN
                    \(refuse(.couponBelowMinimum, ["minimum": "c.min_total_minor", "total": "basket_total", "currency": "c.currency", "basket": "'USD'"]))
                END IF;
                IF eligible_total <= 0 THEN
                    \(refuse(.couponNoEligibleLine, ["category": "c.category", "products": "to_jsonb(c.product_ids)"]))
                END IF;
                off := \(discountSQL(percentHundredths: "c.percent_hundredths", amountMinor: "c.amount_minor", eligibleTotal: "eligible_total"));
                shares := shopsh_coupon_split(off, totals);
                UPDATE order_lines l SET coupon_minor = s.share
                FROM unnest(numbers, shares) AS s(n, share)
                WHERE l.order_id = new_order AND l.line_number = s.n AND s.share <> 0;
                UPDATE orders SET discounted_total_minor = discounted_total_minor - off WHERE id = new_order;
                INSERT INTO coupon_uses (order_id, coupon_id, user_id, discount_minor) VALUES (new_order, c.id, buyer_id, off);
                -- The checkout's audit row, as AuditChange.checkout: the total after the coupon, and its code.
                UPDATE audit_log a
                SET after = a.after || jsonb_build_object('total', shopsh_hundredths_text(basket_total - off) || ' USD', 'coupon', c.code)
                WHERE a.entity = 'order' AND a.entity_id = new_order::text AND a.action = 'checkout'
                  AND a.change_set = pg_current_xact_id()::text::bigint;
            END IF;
            -- Used or not (without_coupon), the coupon leaves the basket with its lines.
            DELETE FROM basket_coupons bc WHERE bc.user_id = buyer_id;
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN new_order;
        END
        $body$
        """
}
