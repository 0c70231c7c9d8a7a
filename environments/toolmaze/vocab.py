"""The ToolMaze vocabulary: domains, their subjects (Source capabilities), processor kinds and actions.

Pure data; the catalog builder turns it into tools. Names here end up in tool names, field names
and queries, so every subject noun and every field name is unique where it has to be.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subject:
    """A Source capability: look up one priced record by a key (e.g. a stock by ticker)."""

    cap: str  # capability name inside the domain, e.g. "stock_quote"
    noun: str  # unique noun for chain tool names, e.g. "stock"
    label: str  # sub-task phrase, e.g. "Get the stock quote"
    key: str  # canonical query key, e.g. "ticker"
    alias: str  # renamed parameter used by the second provider, e.g. "symbol"
    values: tuple[str, ...]  # entity values the world knows
    unit: str  # unit price field, e.g. "price_usd"


@dataclass(frozen=True)
class ProcessorKind:
    """A Processor capability: scale an amount by a factor chosen by a query selector."""

    cap: str
    label: str
    selector: str
    selector_alias: str
    values: tuple[str, ...]
    factor: str  # factor field, also the intermediate of the chain
    factor_range: tuple[float, float]
    result: str  # result field = input_amount * factor
    verb: str  # tool-name verb, e.g. "convert_currency"
    factor_verb: str  # e.g. "fx_rate" -> get_fx_rate / apply_fx_rate


@dataclass(frozen=True)
class Domain:
    name: str
    prefix: str
    providers: tuple[str, str, str]
    availability: tuple[str, ...]  # small categorical domain of Source results
    fee_labels: tuple[str, ...]
    subjects: tuple[Subject, ...]
    actions: tuple[tuple[str, str, str], ...]  # (tool name, label, contact key), one per processor kind


PROCESSORS: tuple[ProcessorKind, ...] = (
    ProcessorKind(
        "currency_conversion",
        "convert the total to the target currency",
        "currency",
        "target_currency",
        ("EUR", "GBP", "JPY", "CHF", "CAD"),
        "fx_rate",
        (0.55, 1.6),
        "amount_converted",
        "convert_currency",
        "fx_rate",
    ),
    ProcessorKind(
        "regional_tax",
        "apply the regional tax",
        "region",
        "tax_region",
        ("EU", "US", "UK", "APAC", "LATAM"),
        "tax_multiplier",
        (1.04, 1.27),
        "amount_with_tax",
        "apply_regional_tax",
        "tax_multiplier",
    ),
    ProcessorKind(
        "member_discount",
        "apply the membership discount",
        "tier",
        "membership_tier",
        ("basic", "silver", "gold", "platinum"),
        "discount_multiplier",
        (0.7, 0.98),
        "amount_after_discount",
        "apply_member_discount",
        "discount_multiplier",
    ),
)

CONTACT_KEYS = (
    "account_id",
    "traveler_email",
    "recipient_email",
    "employee_id",
    "customer_email",
    "site_id",
    "ledger_id",
)

DOMAINS: tuple[Domain, ...] = (
    Domain(
        "financial",
        "fin",
        ("yahoo", "finnhub", "alphavantage"),
        ("open", "closed", "pre_market"),
        ("commission", "exchange_fee", "clearing_fee"),
        (
            Subject(
                "stock_quote",
                "stock",
                "get the stock quote",
                "ticker",
                "symbol",
                ("AAPL", "MSFT", "NVDA", "AMZN", "TSLA", "GOOG"),
                "price_usd",
            ),
            Subject(
                "bond_quote",
                "bond",
                "get the bond quote",
                "isin",
                "bond_id",
                ("US912828ZT03", "DE0001102580", "GB00BL68HJ26", "FR0013508470", "JP1103551J93"),
                "clean_price_usd",
            ),
            Subject(
                "fund_nav",
                "fund",
                "get the fund net asset value",
                "fund_code",
                "fund_symbol",
                ("VTSAX", "FXAIX", "SWPPX", "VFIAX", "AGTHX"),
                "nav_usd",
            ),
            Subject(
                "crypto_quote",
                "coin",
                "get the crypto spot price",
                "coin",
                "asset",
                ("BTC", "ETH", "SOL", "ADA", "DOT", "XRP"),
                "spot_usd",
            ),
        ),
        (
            ("place_buy_order", "place the buy order", "account_id"),
            ("pay_capital_gains_tax", "pay the capital gains tax", "account_id"),
            ("transfer_funds", "transfer the funds", "account_id"),
        ),
    ),
    Domain(
        "travel",
        "trv",
        ("amadeus", "sabre", "skyscanner"),
        ("available", "limited", "waitlist"),
        ("booking_fee", "fuel_surcharge", "service_fee"),
        (
            Subject(
                "flight_fare",
                "flight",
                "get the flight fare",
                "flight_no",
                "flight_code",
                ("AA100", "BA117", "LH400", "AF006", "DL44", "UA901"),
                "fare_usd",
            ),
            Subject(
                "hotel_rate",
                "hotel",
                "get the hotel rate",
                "hotel_code",
                "property_id",
                ("HTL-PAR-12", "HTL-NYC-07", "HTL-TYO-33", "HTL-ROM-05", "HTL-BER-21"),
                "nightly_rate_usd",
            ),
            Subject(
                "car_rental_rate",
                "car",
                "get the car rental rate",
                "pickup_code",
                "rental_location",
                ("LAX", "SFO", "ORD", "MIA", "SEA", "BOS"),
                "daily_rate_usd",
            ),
            Subject(
                "rail_fare",
                "rail",
                "get the rail fare",
                "train_no",
                "service_id",
                ("ICE123", "TGV6201", "ES9014", "AVE3071", "RJ42"),
                "rail_fare_usd",
            ),
        ),
        (
            ("book_ticket", "book the ticket", "traveler_email"),
            ("reserve_room", "reserve the room", "traveler_email"),
            ("buy_travel_insurance", "buy the travel insurance", "traveler_email"),
        ),
    ),
    Domain(
        "office",
        "ofc",
        ("msgraph", "gworkspace", "zoho"),
        ("in_stock", "backorder", "reserved"),
        ("handling_fee", "delivery_fee", "setup_fee"),
        (
            Subject(
                "license_quote",
                "license",
                "get the software license quote",
                "product_sku",
                "sku",
                ("OFF-365-E3", "OFF-365-E5", "ADB-CC-TEAM", "SLK-PRO", "ZM-BIZ"),
                "seat_price_usd",
            ),
            Subject(
                "room_rate",
                "room",
                "get the meeting room rate",
                "room_id",
                "room_code",
                ("RM-A101", "RM-B204", "RM-C310", "RM-D015", "RM-E120"),
                "hourly_rate_usd",
            ),
            Subject(
                "courier_quote",
                "courier",
                "get the courier quote",
                "parcel_id",
                "tracking_ref",
                ("PCL-5521", "PCL-7730", "PCL-1184", "PCL-9043", "PCL-3358"),
                "parcel_rate_usd",
            ),
            Subject(
                "stationery_price",
                "stationery",
                "get the stationery price",
                "item_code",
                "catalog_no",
                ("ST-PEN-12", "ST-PAD-A4", "ST-TONER-K", "ST-BINDER", "ST-STAPLER"),
                "item_price_usd",
            ),
        ),
        (
            ("send_invoice_email", "send the invoice email", "recipient_email"),
            ("submit_expense_report", "submit the expense report", "employee_id"),
            ("create_purchase_order", "create the purchase order", "employee_id"),
        ),
    ),
    Domain(
        "shopping",
        "shp",
        ("amazon", "ebay", "walmart"),
        ("in_stock", "low_stock", "preorder"),
        ("shipping", "handling", "packaging"),
        (
            Subject(
                "product_price",
                "product",
                "get the product price",
                "product_id",
                "asin",
                ("B08N5WRWNW", "B07XJ8C8F5", "B09G9FPHY6", "B0BSHF7WHW", "B08L5TNJHG"),
                "unit_price_usd",
            ),
            Subject(
                "grocery_price",
                "grocery",
                "get the grocery price",
                "grocery_sku",
                "plu_code",
                ("GRC-4011", "GRC-4131", "GRC-3082", "GRC-4225", "GRC-4664"),
                "shelf_price_usd",
            ),
            Subject(
                "electronics_deal",
                "deal",
                "get the electronics deal",
                "model_no",
                "model_code",
                ("SM-S921B", "MQ8P3LL", "WH-1000XM5", "OLED55C3", "XPS9340"),
                "deal_price_usd",
            ),
            Subject(
                "gift_card_quote",
                "giftcard",
                "get the gift card quote",
                "card_brand",
                "brand",
                ("starbucks", "itunes", "steam", "target", "ikea"),
                "face_value_usd",
            ),
        ),
        (
            ("place_order", "place the order", "customer_email"),
            ("checkout_cart", "check out the cart", "customer_email"),
            ("redeem_store_credit", "redeem the store credit", "customer_email"),
        ),
    ),
    Domain(
        "iot",
        "iot",
        ("smartthings", "tuya", "homekit"),
        ("active", "standby", "maintenance"),
        ("installation", "calibration", "activation"),
        (
            Subject(
                "part_price",
                "part",
                "get the replacement part price",
                "part_no",
                "part_code",
                ("FLT-220", "VLV-038", "BRD-771", "SNS-104", "PMP-512"),
                "part_price_usd",
            ),
            Subject(
                "energy_tariff",
                "meter",
                "get the energy tariff",
                "meter_id",
                "meter_code",
                ("MTR-0091", "MTR-0458", "MTR-1207", "MTR-3310", "MTR-7782"),
                "kwh_price_usd",
            ),
            Subject(
                "sensor_plan",
                "sensor",
                "get the sensor subscription plan",
                "sensor_id",
                "device_id",
                ("SEN-T100", "SEN-H220", "SEN-M310", "SEN-C400", "SEN-W550"),
                "monthly_fee_usd",
            ),
            Subject(
                "thermostat_service",
                "thermostat",
                "get the thermostat service fee",
                "thermostat_id",
                "unit_id",
                ("TH-NEST-3", "TH-ECO-5", "TH-HON-9", "TH-TADO-2", "TH-MYSA-1"),
                "visit_fee_usd",
            ),
        ),
        (
            ("schedule_maintenance", "schedule the maintenance", "site_id"),
            ("set_energy_budget", "set the energy budget", "site_id"),
            ("order_replacement", "order the replacement", "site_id"),
        ),
    ),
    Domain(
        "general",
        "gen",
        ("rapidapi", "openapi", "publicdata"),
        ("available", "limited", "sold_out"),
        ("service_fee", "processing_fee", "admin_fee"),
        (
            Subject(
                "parking_rate",
                "parking",
                "get the parking rate",
                "zone_code",
                "lot_id",
                ("PZ-01", "PZ-14", "PZ-27", "PZ-33", "PZ-48"),
                "parking_rate_usd",
            ),
            Subject(
                "event_ticket",
                "event",
                "get the event ticket price",
                "event_id",
                "show_code",
                ("EV-7781", "EV-1029", "EV-5540", "EV-3306", "EV-9912"),
                "ticket_price_usd",
            ),
            Subject(
                "utility_bill",
                "utility",
                "get the utility bill rate",
                "account_no",
                "customer_no",
                ("UT-55012", "UT-66031", "UT-77120", "UT-88214", "UT-99307"),
                "unit_rate_usd",
            ),
            Subject(
                "translation_quote",
                "translation",
                "get the translation quote",
                "language_pair",
                "lang_pair",
                ("en_fr", "en_de", "en_ja", "es_en", "zh_en"),
                "word_rate_usd",
            ),
        ),
        (
            ("send_payment_reminder", "send the payment reminder", "recipient_email"),
            ("create_budget_entry", "create the budget entry", "ledger_id"),
            ("send_gift", "send the gift", "recipient_email"),
        ),
    ),
)

# Office and general actions are the usual cross-domain endings (as in ToolMaze's "quote -> FX -> email").
CROSS_DOMAIN_ACTION_DOMAINS = ("office", "general")
