"""dicom-hl7-mcp (PyPI, the SDK 1.x's low-level Server): a regional hospital's interface team debugging its HL7 v2
feed (admissions, transfers, discharges, updates, radiology and lab orders, results, scheduling, transcribed reports
and charges) and the DICOM tags of its imaging worklist, with the references the server ships.

Its results are one bare text block, no structured content: a parsed message as a report between rules of ``=`` and
``-`` (the message type, then per segment its name and description and per field ``PID-5: Patient Name`` with the
value, a table's meaning, components numbered ``.1``, ``.2``; a segment outside the dictionary named so); a
segment's explanation in Markdown with a fixed-width table of positions, optionality, data types and names, and
notes; an HL7 table's codes and meanings; a DICOM tag's number, keyword, name, VR with its meaning, VM, description
and notes, several matches listed one a line, a private tag's creator ranges; a tag's explanation in Markdown
(what it is, when it is used, common values, VR details, vendor quirks, related tags). The fixture holds no file:
a seeded census of thirty patients (names, MRNs, birth dates, addresses, visits, allergies, diagnoses, insurers)
and sixty messages made from it, that the workload sends, now and then resent with a new control id and time, cut
short as the engine's log shows it or split by line feeds; the segments, tables and tags it asks about are in the
server's dictionaries (a few keyword searches and private tags besides); the server's premium tools and PACS tools
(no licence, no PACS configured) are never called.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

SEGMENTS = (
    "MSH",
    "EVN",
    "PID",
    "PV1",
    "PV2",
    "NK1",
    "AL1",
    "DG1",
    "IN1",
    "GT1",
    "ORC",
    "OBR",
    "OBX",
    "TXA",
    "FT1",
)
TABLES = ("0001", "0002", "0003", "0004", "0007", "0038", "0052", "0062", "0063", "0074", "0076", "0078", "0085",
          "0103", "0104", "0119", "0123", "0125", "0155", "0190", "0203", "0271", "0396")  # fmt: skip
TAGS = (("0010,0010", "PatientName"), ("0010,0020", "PatientID"), ("0010,0030", "PatientBirthDate"),
        ("0010,0040", "PatientSex"), ("0010,1010", "PatientAge"), ("0010,1030", "PatientWeight"),
        ("0008,0020", "StudyDate"), ("0008,0030", "StudyTime"), ("0008,0050", "AccessionNumber"),
        ("0008,0060", "Modality"), ("0008,0070", "Manufacturer"), ("0008,0080", "InstitutionName"),
        ("0008,0090", "ReferringPhysicianName"), ("0008,1030", "StudyDescription"), ("0008,103E", "SeriesDescription"),
        ("0008,0016", "SOPClassUID"), ("0008,0018", "SOPInstanceUID"), ("0018,0015", "BodyPartExamined"),
        ("0018,0050", "SliceThickness"), ("0018,0060", "KVP"), ("0018,0087", "MagneticFieldStrength"),
        ("0018,1030", "ProtocolName"), ("0018,5100", "PatientPosition"), ("0018,9345", "CTDIvol"),
        ("0020,000D", "StudyInstanceUID"), ("0020,000E", "SeriesInstanceUID"), ("0020,0011", "SeriesNumber"),
        ("0020,0013", "InstanceNumber"), ("0020,0032", "ImagePositionPatient"), ("0028,0010", "Rows"),
        ("0028,0011", "Columns"), ("0028,0030", "PixelSpacing"), ("0028,1050", "WindowCenter"),
        ("0028,1051", "WindowWidth"), ("0028,1052", "RescaleIntercept"), ("0040,0002", "ScheduledProcedureStepStartDate"),
        ("0040,0100", "ScheduledProcedureStepSequence"), ("0040,1001", "RequestedProcedureID"),
        ("0002,0010", "TransferSyntaxUID"), ("7FE0,0010", "PixelData"))  # fmt: skip
SEARCHES = (
    "patient",
    "physician",
    "window",
    "study date",
    "slice",
    "series",
    "procedure",
    "pixel",
    "uid",
    "rescale",
)
PRIVATE = ("0019,100C", "0029,1010", "0043,1028", "2001,1003", "0009,1001")
WARDS = ("ICU", "MED", "SURG", "CARD", "ORTHO", "ER", "PEDS", "ONC")
EXAMS = (("71045", "XR CHEST 1 VIEW"), ("70450", "CT HEAD WO CONTRAST"), ("73721", "MR KNEE WO CONTRAST"),
         ("74177", "CT ABD PELV W CONTRAST"), ("76700", "US ABDOMEN COMPLETE"), ("77067", "MAMMO SCREENING BILAT"))  # fmt: skip
LABS = (("2345-7", "Glucose", "mg/dL", 70, 99), ("2160-0", "Creatinine", "mg/dL", 0.6, 1.3),
        ("718-7", "Hemoglobin", "g/dL", 12.0, 17.5), ("6690-2", "WBC", "10*3/uL", 4.5, 11.0),
        ("2951-2", "Sodium", "mmol/L", 135, 145), ("2823-3", "Potassium", "mmol/L", 3.5, 5.1))  # fmt: skip
ALLERGENS = (("PCN", "Penicillin", "Hives"), ("SULF", "Sulfa", "Rash"), ("LATEX", "Latex", "Itching"),
             ("PEAN", "Peanut", "Anaphylaxis"), ("IOD", "Iodinated contrast", "Nausea"))  # fmt: skip
DIAGNOSES = (("I21.4", "NSTEMI"), ("J18.9", "Pneumonia, unspecified"), ("S72.001A", "Fracture of femur neck"),
             ("E11.9", "Type 2 diabetes"), ("N17.9", "Acute kidney failure"), ("K35.80", "Acute appendicitis"))  # fmt: skip
INSURERS = (
    ("BCBS01", "Blue Cross"),
    ("AETNA7", "Aetna"),
    ("MCARE", "Medicare"),
    ("UHC22", "UnitedHealthcare"),
)
EVENTS = ("ADT^A01", "ADT^A01", "ADT^A02", "ADT^A03", "ADT^A04", "ADT^A08", "ORM^O01", "ORM^O01", "ORU^R01",
          "ORU^R01", "ORU^R01", "SIU^S12", "MDM^T02", "DFT^P03")  # fmt: skip
SYSTEMS = (("EPIC", "RMC"), ("CERNER", "RMC"), ("RIS", "RADIOLOGY"), ("LIS", "LAB"), ("PACS", "IMAGING"))


def _stamp(rng: random.Random, day: int) -> str:
    return f"202603{day:02d}{rng.randrange(24):02d}{rng.randrange(60):02d}{rng.randrange(60):02d}"


def _patient(rng: random.Random, k: int) -> dict:
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return {"mrn": f"{rng.randrange(10**6, 10**7)}", "name": f"{last.upper()}^{first.upper()}^{rng.choice('ABCDEJKLMR')}",
            "dob": f"{rng.randrange(1935, 2022)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}",
            "sex": rng.choice("FMFMU"), "account": f"A{k:03d}{rng.randrange(10**5):05d}",
            "address": f"{rng.randrange(1, 999)} {rng.choice(('Oak', 'Elm', 'Main', 'High', 'Mill'))} St^^Springfield^IL^627{rng.randrange(10, 99)}",
            "phone": f"(217)555-{rng.randrange(10**4):04d}", "ward": rng.choice(WARDS),
            "doctor": f"{rng.randrange(1000, 9999)}^{rng.choice(LAST).upper()}^{rng.choice(FIRST).upper()}",
            "allergy": rng.choice(ALLERGENS), "diagnosis": rng.choice(DIAGNOSES), "insurer": rng.choice(INSURERS)}  # fmt: skip


def _message(rng: random.Random, p: dict, kind: str, n: int) -> str:
    day = rng.randrange(1, 29)
    now = _stamp(rng, day)
    app, facility = rng.choice(SYSTEMS)
    msg_type, event = kind.split("^")
    msh = f"MSH|^~\\&|{app}|{facility}|HIS|RMC|{now}||{kind}^{msg_type}_{event}|MSG{n:05d}|P|2.5.1"
    pid = f"PID|1||{p['mrn']}^^^RMC^MR||{p['name']}||{p['dob']}|{p['sex']}|||{p['address']}||{p['phone']}|||||{p['account']}"
    room = f"{p['ward']}^{rng.randrange(100, 480)}^{rng.choice('ABCD')}"
    pv1 = f"PV1|1|{rng.choice('IOE')}|{room}|{rng.choice(('E', 'U', 'R', 'C'))}|||{p['doctor']}||||||||||||V{p['account'][1:]}"
    segs = [msh]
    if msg_type in ("ADT", "MDM", "DFT"):
        segs.append(f"EVN|{event}|{now}")
    segs += [pid, pv1]
    if msg_type == "ADT":
        code, allergen, reaction = p["allergy"]
        segs.append(
            f"NK1|1|{rng.choice(LAST).upper()}^{rng.choice(FIRST).upper()}|{rng.choice(('SPO', 'PAR', 'CHD', 'SIB'))}"
        )
        segs.append(f"AL1|1|DA|{code}^{allergen}|{rng.choice(('SV', 'MO', 'MI'))}|{reaction}")
        segs.append(
            f"DG1|1||{p['diagnosis'][0]}^{p['diagnosis'][1]}^I10||{now}|{rng.choice(('A', 'W', 'F'))}"
        )
        segs.append(f"IN1|1|PLAN{rng.randrange(100, 999)}|{p['insurer'][0]}|{p['insurer'][1]}")
        if event == "A01" and rng.random() < 0.5:
            segs.append(f"PV2|||{p['diagnosis'][0]}^{p['diagnosis'][1]}")
    if msg_type in ("ORM", "ORU"):
        placer, filler = f"PL{rng.randrange(10**6):06d}", f"FL{rng.randrange(10**6):06d}"
        exam = rng.choice(EXAMS) if msg_type == "ORM" or rng.random() < 0.3 else None
        segs.append(
            f"ORC|{'NW' if msg_type == 'ORM' else 'RE'}|{placer}|{filler}||{'SC' if msg_type == 'ORM' else 'CM'}"
        )
        if exam:
            segs.append(f"OBR|1|{placer}|{filler}|{exam[0]}^{exam[1]}^CPT|||{now}")
        else:
            segs.append(f"OBR|1|{placer}|{filler}|24323-8^Comprehensive metabolic panel^LN|||{now}")
        if msg_type == "ORU":
            labs = rng.sample(LABS, rng.randrange(2, 6)) if not exam else []
            for i, (loinc, name, unit, low, high) in enumerate(labs, start=1):
                value = round(rng.uniform(low * 0.7, high * 1.3), 1)
                flag = "L" if value < low else "H" if value > high else "N"
                segs.append(f"OBX|{i}|NM|{loinc}^{name}^LN||{value}|{unit}|{low}-{high}|{flag}|||F")
            if exam:
                segs.append(f"OBX|1|TX|{exam[0]}^{exam[1]}^CPT||No acute findings.||||||F")
    if msg_type == "SIU":
        segs.insert(1, f"SCH|{rng.randrange(10**5)}|||||{rng.choice(EXAMS)[1]}|||30|MIN")
    if msg_type == "MDM":
        segs.append(
            f"TXA|1|{rng.choice(('DS', 'HP', 'OP', 'RAD'))}|TX|{now}|||||||DOC{rng.randrange(10**5)}||||||AU"
        )
        segs.append("OBX|1|TX|REPORT^Report text||Patient seen and examined.||||||F")
    if msg_type == "DFT":
        exam = rng.choice(EXAMS)
        segs.append(f"FT1|1|||{now}||CG|{exam[0]}^{exam[1]}|||{rng.randrange(1, 3)}")
        segs.append(f"DG1|1||{p['diagnosis'][0]}^{p['diagnosis'][1]}^I10")
    return "\r".join(segs)


def interfaces_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    census = [_patient(rng, k) for k in range(30)]
    messages = [_message(rng, rng.choice(census), rng.choice(EVENTS), n) for n in range(1, 61)]
    env = ["DICOM_HL7_LOG_LEVEL=WARNING", f"DICOM_HL7_CACHE_DIR={work / 'cache'}"]
    return Fixture(["env", *env, *binary], {"messages": messages, "census": census})


def _tag(rng: random.Random, number: str, keyword: str) -> str:
    k = rng.randrange(5)
    if k == 0:
        return f"({number})"
    if k == 1:
        return number.replace(",", "")
    if k == 2:
        return keyword
    return number


def interfaces_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.45:
        message = rng.choice(fx.facts["messages"])
        if rng.random() < 0.15:  # the head of a message, as the engine's log shows it
            segs = message.split("\r")
            message = "\r".join(segs[: rng.randrange(2, len(segs))])
        if rng.random() < 0.35:  # a new control id and time, as the sender resends it
            head, rest = message.split("\r", 1)
            fields = head.split("|")
            fields[6] = f"202603{rng.randrange(1, 29):02d}{rng.randrange(24):02d}{rng.randrange(60):02d}00"
            fields[9] = f"MSG{rng.randrange(61, 99999):05d}"
            message = "|".join(fields) + "\r" + rest
        if rng.random() < 0.25:
            message = message.replace("\r", rng.choice(("\n", "\r\n")))
        return "parse_hl7_message", {"message": message}
    if r < 0.58:
        return "explain_hl7_segment", {"segment_name": rng.choice(SEGMENTS)}
    if r < 0.7:
        return "lookup_hl7_table", {"table_number": rng.choice(TABLES)}
    if r < 0.88:
        if rng.random() < 0.12:
            return "lookup_dicom_tag", {"tag": rng.choice(SEARCHES)}
        if rng.random() < 0.05:
            return "lookup_dicom_tag", {"tag": rng.choice(PRIVATE)}
        return "lookup_dicom_tag", {"tag": _tag(rng, *rng.choice(TAGS))}
    return "explain_dicom_tag", {"tag": _tag(rng, *rng.choice(TAGS))}
