// CurrencyTests: tests of the currency plugin (being written).
