// PostgresShipmentSchema: shipments held by the server — an
// order's units ship and its parcels are delivered only through the owner's functions, which
// keep ShipmentRules (units ship at most once; shipped when no unit is left, delivered when every
// parcel arrived; never backwards) under the order's lock and write one audit row each; and no
// cancel after a shipment, at psql too. The client checks first with ShipmentRules, so that a
// refusal is worded in ShopCore's words; the server's codes (SHS…) back it up.

import ShopCore

/// The DDL of shipments on the server (constant SQL).
package enum PostgresShipmentSchema {
    package static let shipSignature = "shopsh_ship(BIGINT, TEXT, TEXT, INTEGER[], INTEGER[])"
    package static let deliverSignature = "shopsh_deliver(BIGINT, BIGINT)"

    package static let statements: [String] = [
        PostgresServerRules.inThisSchema(unitsLeft),
        "REVOKE EXECUTE ON FUNCTION shopsh_units_left(BIGINT) FROM PUBLIC",
        PostgresServerRules.inThisSchema(ship),
        PostgresServerRules.inThisSchema(deliver),
        "REVOKE EXECUTE ON FUNCTION \(shipSignature), \(deliverSignature) FROM PUBLIC",
        // No cancel after a shipment (ShipmentRules.checkCancel), at psql either.
        PostgresServerRules.inThisSchema(PostgresHardeningSchema.recreated(statusMoves)),
    ]

    /// `shopsh_set_order_status` as this migration leaves it: as the stock ledger's, and no cancel
    /// of an order that has shipped units.
    static let statusMoves = PostgresHardeningSchema.replacing(
        PostgresStockLedgerSchema.statusMoves,
        "INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());",
        with: """
            IF next_status = 'cancelled' AND EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = target_order) THEN
                RAISE EXCEPTION 'an order that shipped is not cancelled' USING ERRCODE = '\(PostgresRefusal.notAllowedMove.rawValue)';
            END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            """)

    /// The units of each line of an order not shipped yet: ordered, less returned, less shipped
    /// (ShipmentRules.unshipped); lines with none left are left out.
    static let unitsLeft = """
        CREATE FUNCTION shopsh_units_left(target_order BIGINT, OUT line_number INTEGER, OUT units INTEGER)
        RETURNS SETOF record LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
            SELECT l.line_number, (l.quantity - l.returned - COALESCE(s.shipped, 0))::integer
            FROM order_lines l
            LEFT JOIN (SELECT sl.line_number, sum(sl.quantity) AS shipped
                       FROM shipment_lines sl JOIN shipments sh ON sh.id = sl.shipment_id
                       WHERE sh.order_id = target_order GROUP BY sl.line_number) s ON s.line_number = l.line_number
            WHERE l.order_id = target_order AND l.quantity - l.returned - COALESCE(s.shipped, 0) > 0
            ORDER BY l.line_number
        $body$
        """

    /// Ships units of a paid (or partly shipped) order: `line_numbers` with `quantities` (NULL:
    /// every unit left), as ShipmentRules.plan allows; the order becomes shipped when no unit is
    /// left. One audit row (AuditChange.shipment, `ship`). Returns the shipment's id.
    static let ship = """
        CREATE FUNCTION shopsh_ship(target_order BIGINT, carrier_name TEXT, code TEXT, line_numbers INTEGER[], quantities INTEGER[])
        RETURNS BIGINT
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            o orders;
            new_shipment BIGINT;
            next_status TEXT;
        BEGIN
            SELECT * INTO o FROM orders WHERE id = target_order FOR UPDATE;
            IF NOT FOUND THEN RAISE EXCEPTION 'no such order' USING ERRCODE = '\(PostgresRefusal.noSuchOrder.rawValue)'; END IF;
            IF o.status NOT IN ('paid', 'shipped') THEN
                RAISE EXCEPTION 'only a paid order ships' USING ERRCODE = '\(PostgresRefusal.notShippable.rawValue)';
            END IF;
            IF carrier_name IS NULL OR btrim(carrier_name) = '' OR length(carrier_name) > \(ShippingRules.maxCarrierLength)
               OR carrier_name ~ '[[:cntrl:]]' OR code IS NULL OR code !~ '^[A-Z0-9-]{4,\(ShippingRules.maxTrackingCodeLength)}$' THEN
                RAISE EXCEPTION 'a shipment needs a carrier and a tracking code of 4 to \(ShippingRules.maxTrackingCodeLength) letters, digits and dashes'
                    USING ERRCODE = '\(PostgresRefusal.badShipment.rawValue)';
            END IF;
            IF line_numbers IS NULL THEN
                SELECT array_agg(u.line_number ORDER BY u.line_number), array_agg(u.units ORDER BY u.line_number)
                INTO line_numbers, quantities FROM shopsh_units_left(target_order) u;
            ELSIF cardinality(line_numbers) = 0 OR cardinality(line_numbers) IS DISTINCT FROM cardinality(quantities)
                  OR (SELECT count(DISTINCT n) FROM unnest(line_numbers) n) <> cardinality(line_numbers)
                  OR EXISTS (SELECT 1 FROM unnest(line_numbers, quantities) r(n, q)
                             LEFT JOIN shopsh_units_left(target_order) u ON u.line_number = r.n
                             WHERE r.q IS NULL OR r.q < 1 OR u.units IS NULL OR r.q > u.units) THEN
                RAISE EXCEPTION 'a shipment takes units left to ship, each line once' USING ERRCODE = '\(PostgresRefusal.unitsNotLeft.rawValue)';
            END IF;
            IF line_numbers IS NULL THEN
                RAISE EXCEPTION 'the order has nothing left to ship' USING ERRCODE = '\(PostgresRefusal.unitsNotLeft.rawValue)';
            END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            INSERT INTO shipments (order_id, carrier, tracking_code) VALUES (target_order, carrier_name, code) RETURNING id INTO new_shipment;
            INSERT INTO shipment_lines (shipment_id, line_number, quantity)
            SELECT new_shipment, r.n, r.q FROM unnest(line_numbers, quantities) r(n, q);
            next_status := CASE WHEN EXISTS (SELECT 1 FROM shopsh_units_left(target_order)) THEN o.status ELSE 'shipped' END;
            IF next_status <> o.status THEN
                UPDATE orders SET status = next_status, updated_at = now() WHERE id = target_order;
            END IF;
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            VALUES (shopsh_audit_command(), 'order', target_order::text, 'ship', jsonb_build_object('status', o.status),
                    jsonb_build_object('status', next_status, 'shipment', new_shipment, 'carrier', carrier_name, 'tracking', code,
                                       'lines', (SELECT jsonb_agg('line ' || r.n || ' × ' || r.q ORDER BY r.n)
                                                 FROM unnest(line_numbers, quantities) r(n, q))));
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN new_shipment;
        END
        $body$
        """

    /// Marks shipment `target_shipment` of an order delivered, or (NULL) every one not delivered
    /// yet; the order becomes delivered when it shipped whole and every parcel arrived. One audit
    /// row per parcel (`deliver`). Returns how many it marked.
    static let deliver = """
        CREATE FUNCTION shopsh_deliver(target_order BIGINT, target_shipment BIGINT) RETURNS INTEGER
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, %I, pg_temp AS $body$
        DECLARE
            o orders;
            next_status TEXT;
            marked BIGINT[];
        BEGIN
            SELECT * INTO o FROM orders WHERE id = target_order FOR UPDATE;
            IF NOT FOUND THEN RAISE EXCEPTION 'no such order' USING ERRCODE = '\(PostgresRefusal.noSuchOrder.rawValue)'; END IF;
            INSERT INTO operation_in_progress (xact) VALUES (pg_current_xact_id());
            WITH delivered AS (
                UPDATE shipments s SET delivered_at = now()
                WHERE s.order_id = target_order AND s.delivered_at IS NULL AND (target_shipment IS NULL OR s.id = target_shipment)
                RETURNING s.id)
            SELECT array_agg(id ORDER BY id) INTO marked FROM delivered;
            IF marked IS NULL THEN
                RAISE EXCEPTION 'nothing shipped is left to deliver' USING ERRCODE = '\(PostgresRefusal.nothingToDeliver.rawValue)';
            END IF;
            next_status := CASE WHEN o.status = 'shipped'
                                     AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = target_order AND s.delivered_at IS NULL)
                                THEN 'delivered' ELSE o.status END;
            IF next_status <> o.status THEN
                UPDATE orders SET status = next_status, updated_at = now() WHERE id = target_order;
            END IF;
            INSERT INTO audit_log (command, entity, entity_id, action, before, after)
            SELECT shopsh_audit_command(), 'order', target_order::text, 'deliver', jsonb_build_object('status', o.status),
                   jsonb_build_object('status', next_status, 'shipment', s.id, 'carrier', s.carrier, 'tracking', s.tracking_code,
                                      'lines', (SELECT jsonb_agg('line ' || sl.line_number || ' × ' || sl.quantity ORDER BY sl.line_number)
                                                FROM shipment_lines sl WHERE sl.shipment_id = s.id))
            FROM shipments s WHERE s.id = ANY (marked) ORDER BY s.id;
            DELETE FROM operation_in_progress WHERE xact = pg_current_xact_id();
            RETURN cardinality(marked);
        END
        $body$
        """
}
