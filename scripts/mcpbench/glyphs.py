"""icon-mcp (PyPI, FastMCP 3 on the SDK 1.x, the Lucide set bundled): a design team's icon sets for a product's
screens, each screen's icons searched for by plain words and rendered as one consistent set in its house style.

Its results are text wrapped in structure, ``{"result": "<text>"}`` with an ``outputSchema`` of one string, the
same text in its block: a search's heading line (``Icons matching 'trash can' (4 of 2122 bundled):``) then a ``-
name  [tags: a, b, c]`` line per icon, best first; a set as indented JSON text of the style echoed (stroke width
as a float, colour, size in pixels, the library and its version), the icons each with the query asked, the name
it resolved to and its SVG markup in a string (an ``<svg>`` element whose width, height, stroke and stroke-width
attributes carry the style, then ``<path d="M15 21v-8a1 1 0 0 0-1-1h-4 ..."/>``, ``<circle cx="12" cy="12"
r="3"/>`` children on lines of their own), and the queries left unresolved. The fixture holds no file: a seeded
set of screens (a house style of stroke width 0.5 to 4, a hex colour, a CSS name or currentColor and a size of 12
to 128 pixels, and the icons each screen needs, as exact Lucide names or plain words that resolve) the workload
draws from; every query finds something and every style is one the server accepts.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false")
# exact names of the bundled set (a few of them Lucide's aliases: home, cog, bar-chart-3)
NAMES = ("house", "settings", "user", "users", "search", "bell", "mail", "calendar", "clock", "trash-2", "pencil",
         "plus", "minus", "x", "check", "chevron-down", "chevron-right", "arrow-left", "arrow-right", "download",
         "upload", "share-2", "heart", "star", "bookmark", "filter", "sliders-horizontal", "log-in", "log-out", "lock",
         "unlock", "eye", "eye-off", "shopping-cart", "credit-card", "wallet", "receipt", "truck", "package",
         "map-pin", "phone", "message-circle", "send", "paperclip", "image", "camera", "video", "mic", "file-text",
         "folder", "folder-open", "cloud", "wifi", "battery", "sun", "moon", "globe", "link", "external-link", "copy",
         "clipboard", "printer", "refresh-cw", "rotate-ccw", "info", "circle-alert", "triangle-alert", "circle-help",
         "circle-check", "tag", "tags", "bar-chart-3", "chart-line", "chart-pie", "layout-dashboard", "menu",
         "grid-3x3", "list", "home", "cog")  # fmt: skip
# plain words a designer types, each finding at least one icon
WORDS = ("trash can", "paper plane", "gear", "magnifying glass", "shopping bag", "credit card", "calendar",
         "notification", "envelope", "location pin", "upload cloud", "thumbs up", "dark mode", "warning", "question",
         "printer", "microphone", "camera", "bar chart", "pie chart", "user group", "log out", "refresh", "filter",
         "sort ascending", "arrow", "star rating", "bookmark", "attachment", "delivery truck", "wallet", "dashboard",
         "wifi signal", "battery", "weather", "heart")  # fmt: skip
SCREENS = ("login", "dashboard", "inbox", "checkout", "orders", "settings", "profile", "search results", "calendar",
           "file browser", "media library", "notifications", "billing", "onboarding", "help centre",
           "reports")  # fmt: skip
COLOURS = ("currentColor", "#2f6bff", "#0f172a", "#e11d48", "#16a34a", "#f59e0b", "#7c3aed", "#64748b", "black",
           "white", "teal", "crimson", "slategray", "#fff", "#00000080")  # fmt: skip


def _screen(rng: random.Random, name: str) -> dict[str, object]:
    icons = rng.sample(NAMES, rng.randrange(3, 10)) + rng.sample(WORDS, rng.randrange(0, 4))
    rng.shuffle(icons)
    style = {"stroke_width": rng.choice((0.5, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4)), "color": rng.choice(COLOURS),
             "size": rng.choice((12, 16, 20, 24, 28, 32, 48, 64, 96, 128))}  # fmt: skip
    return {"screen": name, "icons": icons, "style": style}


def glyphs_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    screens = [_screen(rng, f"{s} ({v})") for s in SCREENS for v in ("web", "mobile") if rng.random() < 0.8]
    return Fixture(["env", *QUIET, *binary], {"screens": screens})


def glyphs_call(rng: random.Random, fx: Fixture) -> Call:
    screen = rng.choice(fx.facts["screens"])
    if rng.random() < 0.35:  # looking for a glyph by what it shows
        query = rng.choice((*screen["icons"], *WORDS))
        return "search_icons", ({"query": query, "limit": rng.randrange(1, 31)} if rng.random() < 0.6
                                else {"query": query})  # fmt: skip
    icons = screen["icons"]
    k = rng.randrange(1, len(icons) + 1)
    start = rng.randrange(len(icons) - k + 1)
    args: dict[str, object] = {"icons": icons[start : start + k]}
    style = screen["style"]
    for key in ("stroke_width", "color", "size"):  # the house style, or the library's default for some
        if rng.random() < 0.75:
            args[key] = style[key]
    return "generate_icons", args
