// OrderHistory: a deterministic past for a seeded shop — twelve months of orders up to yesterday,
// with a weekly and seasonal rhythm (weekends and December busier, a Black Friday peak, slow
// growth), regular customers and best sellers, and statuses along the status machine by age.

/// Writes an order history through a ShopSeeder: the same seed and day always give the same orders.
public struct OrderHistory {
    /// Who may order: ids and usernames.
    public var customers: [(id: Int64, username: String)]
    /// What may be ordered, the most popular first (the first sell far more often than the last).
    public var productIDs: [Int64]
    /// About how many orders an average day has.
    public var ordersPerDay: Int
    /// How many calendar months of history: yesterday's and the ones before it.
    public var months = 12
    public var seed: UInt64

    public init(customers: [(id: Int64, username: String)], productIDs: [Int64], ordersPerDay: Int, seed: UInt64) {
        self.customers = customers
        self.productIDs = productIDs
        self.ordersPerDay = ordersPerDay
        self.seed = seed
    }

    /// Busier at the weekend (Monday first).
    static let weekdayPercent = [90, 85, 90, 95, 110, 135, 120]
    /// Quiet after the holidays and in summer, busy in November and December (January first).
    static let monthPercent = [80, 75, 85, 90, 95, 90, 85, 90, 95, 100, 130, 160]

    /// The first day of the history that ends the day before `today`: the first of its month
    /// `months - 1` months earlier.
    public func firstDay(before today: CalendarDay) -> CalendarDay {
        let yesterday = CalendarDay(dayNumber: today.dayNumber - 1) ?? today
        let monthIndex = yesterday.year * 12 + yesterday.month - 1 - max(months - 1, 0)
        return CalendarDay(year: monthIndex / 12, month: monthIndex % 12 + 1, day: 1) ?? yesterday
    }

    /// Writes the orders, with ids from `firstID`, placed from `firstDay(before: today)` to the
    /// day before `today`; returns how many. Nothing without customers or products.
    public func write(into seeder: any ShopSeeder, today: CalendarDay, firstID: Int64 = 1) throws -> Int {
        let days = firstDay(before: today).days(until: today)
        guard !customers.isEmpty, !productIDs.isEmpty, ordersPerDay > 0, days > 0 else { return 0 }
        var random = SplitMix64(seed: seed)
        // Refunds draw from a stream of their own, so that the orders stay what they were.
        var refunds = SplitMix64(seed: seed ^ 0x5EED_0F_4EF0_4D5)
        let customerOrder = Scramble(count: customers.count, random: &random)
        var orderID = firstID
        for age in stride(from: days, through: 1, by: -1) {
            guard let day = CalendarDay(dayNumber: today.dayNumber - age) else { continue }
            for _ in 0..<Self.orders(on: day, age: age, of: days, average: ordersPerDay, random: &random) {
                let customer = customers[customerOrder.index(Self.skewed(customers.count, random: &random))]
                var chosen: [Int64] = []
                for _ in 0..<Self.lineCount(random: &random) {
                    let product = productIDs[Self.skewed(productIDs.count, random: &random)]
                    if !chosen.contains(product) { chosen.append(product) }
                }
                let lines = chosen.map { (productID: $0, quantity: Self.quantity(random: &random)) }
                let status = Self.status(age: age, random: &random)
                try seeder.addOrder(SeedOrder(id: orderID, userID: customer.id, customer: customer.username,
                                              status: status, placedAt: Self.time(on: day, random: &random), lines: lines))
                if status == .delivered, age > 10 {
                    for refund in Self.refunds(of: orderID, lines: lines, placed: day, random: &refunds) {
                        try seeder.addRefund(refund)
                    }
                }
                orderID += 1
            }
        }
        return Int(orderID - firstID)
    }

    /// How many orders `day` has: the average times its weekday's and month's rhythm, growing
    /// from 85 % to 115 % over the history, ×2.5 on Black Friday, give or take 20 %.
    static func orders(on day: CalendarDay, age: Int, of days: Int, average: Int, random: inout SplitMix64) -> Int {
        let weekday = ((day.dayNumber + 3) % 7 + 7) % 7
        var percent = Int64(weekdayPercent[weekday]) * Int64(monthPercent[day.month - 1]) / 100
        percent = percent * Int64(115 - 30 * age / max(days, 1)) / 100
        if isBlackFriday(day) { percent = percent * 5 / 2 }
        percent = percent * Int64(80 + random.below(41)) / 100
        let hundredths = Int64(average) * percent
        return Int(hundredths / 100) + (Int64(random.below(100)) < hundredths % 100 ? 1 : 0)
    }

    /// The Friday after the fourth Thursday of November.
    static func isBlackFriday(_ day: CalendarDay) -> Bool {
        day.month == 11 && ((day.dayNumber + 3) % 7 + 7) % 7 == 4 && (23...29).contains(day.day)
    }

    /// 0..<count, the low end more often (regular customers, best sellers).
    static func skewed(_ count: Int, random: inout SplitMix64) -> Int {
        min(random.below(count), random.below(count), random.below(count))
    }

    /// 1 to 5 lines, mostly 1 or 2.
    static func lineCount(random: inout SplitMix64) -> Int {
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 5][random.below(20)]
    }

    /// 1 to 4 of a product, mostly 1.
    static func quantity(random: inout SplitMix64) -> Int {
        [1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4][random.below(11)]
    }

    /// Where an order of this age stands: today's are placed or paid, then shipped, then
    /// delivered after a week; about one in twenty-five was cancelled.
    static func status(age: Int, random: inout SplitMix64) -> OrderStatus {
        if random.below(25) == 0 { return .cancelled }
        switch age {
        case 1: return random.below(2) == 0 ? .placed : .paid
        case 2...3: return random.below(3) == 0 ? .paid : .shipped
        case 4...7: return random.below(3) == 0 ? .shipped : .delivered
        default: return .delivered
        }
    }

    /// What a delivered order gave back, a week or so after it was placed: one in forty returned
    /// a unit of its first line (half of them back into stock), one in a hundred got 5.00 for a
    /// late delivery, one in 250 was sent back whole (every unit, into stock: it is refunded).
    static func refunds(of order: Int64, lines: [(productID: Int64, quantity: Int)], placed day: CalendarDay,
                        random: inout SplitMix64) -> [SeedRefund] {
        let roll = random.below(1_000)
        let later = CalendarDay(dayNumber: day.dayNumber + 3 + random.below(5)) ?? day
        let at = "\(later)T\(["10", "11", "14", "16"][random.below(4)]):\(["05", "21", "37", "52"][random.below(4)]):00Z"
        switch roll {
        case 0..<25:
            let reasons = ["arrived broken", "wrong size", "not as described", "changed their mind"]
            return [SeedRefund(orderID: order, lineNumber: 1, quantity: 1, restock: random.below(2) == 0,
                               reason: reasons[random.below(reasons.count)], at: at)]
        case 25..<35:
            return [SeedRefund(orderID: order, lineNumber: nil, goodwill: 500, reason: "late delivery", at: at)]
        case 35..<39:
            return lines.indices.map { index in
                SeedRefund(orderID: order, lineNumber: index + 1, quantity: lines[index].quantity, restock: true,
                           reason: "refused at the door", at: at)
            }
        default:
            return []
        }
    }

    /// A time of day between 07:00 and 23:59, busier in the evening.
    static func time(on day: CalendarDay, random: inout SplitMix64) -> String {
        let hour = [7, 8, 9, 10, 11, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 20, 21, 21, 22, 23][random.below(21)]
        let second = hour * 3600 + random.below(3600)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day)T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// A fixed shuffle of 0..<count, without storing it: index × a stride coprime with count, plus an offset.
    struct Scramble {
        let count: Int
        let stride: Int
        let offset: Int

        init(count: Int, random: inout SplitMix64) {
            self.count = count
            let primes = [7_919, 104_729, 15_485_863, 32_452_843]
            stride = primes.first { count % $0 != 0 } ?? 1
            offset = random.below(max(count, 1))
        }

        func index(_ rank: Int) -> Int {
            Int((Int64(rank) * Int64(stride) + Int64(offset)) % Int64(count))
        }
    }
}
