enum Parsing {
    /// "burger=Burger:550;fries=Fries:250"
    static func menuItems(_ body: String) -> [MenuItem]? {
        var items: [MenuItem] = []
        for entry in body.split(separator: ";") {
            let parts = entry.split(whereSeparator: { $0 == "=" || $0 == ":" })
            guard parts.count == 3, let price = Int(parts[2]) else { return nil }
            items.append(MenuItem(id: String(parts[0]), name: String(parts[1]), priceCents: price))
        }
        return items
    }

    /// "burger=600;fries=250"
    static func prices(_ body: String) throws -> [String: Int] {
        var prices: [String: Int] = [:]
        for entry in body.split(separator: ";") {
            let pair = entry.split(separator: "=")
            guard pair.count == 2, let cents = Int(pair[1]) else { throw NetworkError.decoding("prices: \(entry)") }
            prices[String(pair[0])] = cents
        }
        return prices
    }

    /// "burger*2;fries*1"
    static func cart(_ body: String) -> Cart {
        return Cart(lines: body.split(separator: ";").compactMap { entry in
            let pair = entry.split(separator: "*")
            guard pair.count == 2, let quantity = Int(pair[1]) else { return nil }
            return CartLine(itemID: String(pair[0]), quantity: quantity)
        })
    }

    /// "percent=10"
    static func couponPercent(_ body: String) -> Int? {
        return body.hasPrefix("percent=") ? Int(body.dropFirst("percent=".count)) : nil
    }
}

public enum Pricing {
    public static let deliveryCents = 299

    public static func quote(cart: Cart, prices: [String: Int], discountPercent: Int, computedOn: String) -> Quote {
        let subtotal = cart.lines.reduce(0) { $0 + (prices[$1.itemID] ?? 0) * $1.quantity }
        let discount = subtotal * discountPercent / 100
        let delivery = subtotal >= 3000 ? 0 : deliveryCents
        return Quote(subtotalCents: subtotal, discountCents: discount, deliveryCents: delivery,
                     totalCents: subtotal - discount + delivery, computedOn: computedOn)
    }
}
