"""usda-mcp (PyPI, the SDK 2.x's MCPServer): a sports dietitian's clients, worked against the USDA-derived food
table the package ships: foods listed by category, tags and dietary exclusions, single foods looked up, portions
scaled into macros and calories in the units a client weighs or spoons them in, and meals of one protein, one carb
and one fat solved for a client's macro targets.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as
indented JSON: foods with a name, category, native unit (g, oz, cup, tbsp, "large", "scoop"), protein, carb and fat
per unit as floats, tag and exclusion lists and derived calories per unit; counts with the filters echoed; a
portion's amount in its native units with protein, carb and fat in grams to two places and calories to one; solved
meals with each item's portion and macros, totals, relative errors, an exact-match flag, a count of candidates
scanned and a sentence; the tag and exclusion vocabularies as sorted lists. The fixture holds no file: a seeded
caseload of clients (macro targets, foods they avoid, a diary of portions in units of each food's own family) that
the workload draws from; every food name is one the table holds and every unit converts to the food's own.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

# foods of the package's table by category, with the unit each is stored per
FOODS: dict[str, tuple[tuple[str, str], ...]] = {
    "proteins": (
        ("Chicken Breast (Cooked)", "g"),
        ("Chicken Thigh", "g"),
        ("Turkey Breast", "oz"),
        ("Deli Turkey", "g"),
        ("93/7 Ground Beef", "oz"),
        ("Flank Steak", "g"),
        ("Sirloin Steak", "g"),
        ("Pork Loin", "g"),
        ("Lamb Ground", "g"),
        ("Bison Ground", "g"),
        ("Salmon", "oz"),
        ("Cod", "oz"),
        ("Tilapia", "oz"),
        ("Tuna (Canned in Water)", "oz"),
        ("Halibut", "g"),
        ("Shrimp", "oz"),
        ("Scallops (Sea)", "g"),
        ("Whole Egg", "large"),
        ("Egg Whites", "ml"),
        ("Greek Yogurt (0% Fat)", "oz"),
        ("Cottage Cheese (1%)", "cup"),
        ("Whey Protein Isolate", "scoop"),
        ("Plant Protein Blend", "scoop"),
        ("Tofu (Firm)", "oz"),
        ("Tempeh", "oz"),
        ("Lentils (Dry)", "g"),
        ("Chickpeas (Garbanzo Beans)", "g"),
    ),
    "carbs": (
        ("White Rice (Cooked)", "oz"),
        ("Brown Rice (Cooked)", "oz"),
        ("White Pasta (Cooked)", "g"),
        ("Bagel (Plain)", "g"),
        ("Quinoa (Cooked)", "oz"),
        ("Old Fashioned Oats (Dry)", "cup"),
        ("Rice Noodles (Cooked)", "cup"),
        ("Sourdough Bread", "slice"),
        ("Ezekiel Bread", "slice"),
        ("Rice Cakes (Lightly Salted)", "cake"),
        ("Low Fat Granola (Dry)", "quarter_cup"),
        ("Sweet Potato (Cooked)", "oz"),
        ("White Potato (Cooked)", "oz"),
        ("Banana", "medium"),
        ("Apple", "medium"),
        ("Blueberries", "cup"),
        ("Mango", "cup"),
        ("Orange Juice", "oz"),
        ("Honey", "tbsp"),
        ("Black Beans (Canned)", "g"),
        ("Lowfat Milk (1%)", "g"),
        ("Oat Milk (Unsweetened)", "g"),
    ),
    "fats": (
        ("Extra Virgin Olive Oil", "tbsp"),
        ("Coconut Oil", "tbsp"),
        ("Butter", "tbsp"),
        ("Ghee", "tsp"),
        ("Avocado", "half"),
        ("Almonds", "oz"),
        ("Walnuts", "oz"),
        ("Cashews", "g"),
        ("Peanut Butter (Natural)", "tbsp"),
        ("Almond Butter", "tbsp"),
        ("Chia Seeds", "g"),
        ("Pumpkin Seeds (Pepitas)", "g"),
        ("Cheddar Cheese", "g"),
        ("Feta Cheese", "g"),
        ("Heavy Cream", "g"),
    ),
    "vegetables": (
        ("Broccoli", "oz"),
        ("Mixed Greens", "cup"),
        ("Spinach (Baby)", "g"),
        ("Kale", "g"),
        ("Asparagus", "oz"),
        ("Green Beans", "oz"),
        ("Carrots", "g"),
        ("Bell Peppers", "oz"),
        ("Zucchini (Summer Squash)", "g"),
        ("Cauliflower", "g"),
        ("Kimchi", "oz"),
        ("Hummus", "g"),
        ("Salsa", "g"),
        ("Balsamic Vinegar", "tbsp"),
    ),
}
# units of a family the server converts between; a countable unit converts to nothing but itself
MASS = ("g", "oz", "kg", "lb")
VOLUME = ("ml", "tsp", "tbsp", "fl_oz", "quarter_cup", "cup")
# the table's dietary and allergen labels (its foods' exclude_for) and some of its descriptive tags
EXCLUDE = (
    "vegan",
    "vegetarian",
    "gluten",
    "dairy",
    "lactose",
    "shellfish",
    "fish",
    "nuts",
    "tree_nuts",
    "peanuts",
    "soy",
    "eggs",
    "pork",
    "red_meat",
    "poultry",
    "legumes",
    "wheat",
    "sesame",
    "nightshade",
    "fodmap",
)
TAGS = ("lean", "whole_food", "high_protein", "low_fat", "low_carb", "fiber", "whole_grain", "fatty_fish",
        "seafood", "dairy", "fruit", "leafy_green", "nuts", "seeds", "fermented", "snack", "breakfast", "omega3",
        "complete_protein", "gluten_free", "cruciferous", "vegan_friendly")  # fmt: skip


def _portion(rng: random.Random, unit: str) -> tuple[float, str]:
    """An amount in a unit of the food's own family (a countable food in its own unit)."""
    family = MASS if unit in MASS else VOLUME if unit in VOLUME else (unit,)
    asked = unit if rng.random() < 0.5 else rng.choice(family)
    scale = {"g": 300, "oz": 10, "kg": 0.4, "lb": 0.8, "ml": 400, "tsp": 6, "tbsp": 4, "fl_oz": 12,
             "quarter_cup": 3, "cup": 2.5}.get(asked, 3)  # fmt: skip
    return round(rng.uniform(0.1, 1.0) * scale, 2 if scale < 10 else 1) or 1.0, asked


def meals_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    clients = []
    for i in range(30):
        diary = []
        for _ in range(rng.randrange(4, 10)):
            name, unit = rng.choice(FOODS[rng.choice(list(FOODS))])
            amount, asked = _portion(rng, unit)
            diary.append({"name": name, "amount": amount, "unit": asked})
        clients.append({
            "name": f"{FIRST[i % len(FIRST)]} {LAST[(i * 7) % len(LAST)]}",
            "protein": rng.randrange(20, 65), "carb": rng.randrange(15, 95), "fat": rng.randrange(8, 36),
            "avoid": rng.sample(EXCLUDE, rng.choice((0, 0, 1, 1, 2))), "diary": diary,
        })  # fmt: skip
    return Fixture([*binary], {"clients": clients})


def meals_call(rng: random.Random, fx: Fixture) -> Call:
    c = rng.choice(fx.facts["clients"])
    r = rng.random()
    if r < 0.14:
        args: dict[str, object] = {}
        if rng.random() < 0.7:
            args["category"] = rng.choice(list(FOODS))
        if rng.random() < 0.4:
            args["tags"] = rng.sample(TAGS, rng.randrange(1, 3))
        if c["avoid"] and rng.random() < 0.6:
            args["exclude_tags"] = c["avoid"]
        return "list_foods", args
    if r < 0.32:
        name, _ = rng.choice(FOODS[rng.choice(list(FOODS))])
        return "get_food", {"name": name.lower() if rng.random() < 0.3 else name}
    if r < 0.7:
        entry = rng.choice(c["diary"])
        return "calculate_macros", {"name": entry["name"], "amount": entry["amount"], "unit": entry["unit"]}
    if r < 0.8:
        return "filter_by_diet", {"diet_type": c["avoid"][0] if c["avoid"] else rng.choice(EXCLUDE)}
    if r < 0.95:
        args = {"target_protein": c["protein"], "target_carb": c["carb"], "target_fat": c["fat"]}
        if rng.random() < 0.4:  # another meal of the day: the targets scaled
            k = rng.choice((0.5, 0.75, 1.25))
            args = {key: round(v * k) for key, v in args.items()}
        if c["avoid"]:
            args["exclude_tags"] = c["avoid"]
        if rng.random() < 0.3:
            args["include_vegetable"] = True
        if rng.random() < 0.3:
            args["max_results"] = rng.choice((1, 2, 4))
        if rng.random() < 0.2:
            args["tolerance"] = rng.choice((0.05, 0.1, 0.25))
        return "build_meal", args
    return "list_available_tags", {}
