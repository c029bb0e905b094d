/**
 * The one table of unit spellings: every label the corpus, a query or a model may write for a
 * unit, mapped to one canonical spelling and to the expression mathjs converts. Unit accuracy
 * compares canonical spellings (`°C` and `degC` are the same unit, `W/m/K` and `W/(m·K)` too);
 * the converter hands mathjs the entry's expression. Pure data and string rules: no mathjs here,
 * so the scorer and the checker can ask "the same unit?" without loading it.
 *
 * A spelling is looked up after `spellingKey` (NFKC — so `℃` is `°C`, `³` is `3`, `µ` is `μ` —
 * the minus sign as hyphen-minus, whitespace collapsed), then, failing that, after
 * `structuralKey` (multiplication dots and spaces as `*`, `µΩ√` spelled out, `m3` as `m^3`), so
 * `W · m⁻¹ · K⁻¹` finds `W/(m·K)` without being listed. A label the table does not hold is its
 * own unit: its canonical spelling is its structural key, which is also what mathjs is given.
 * Units are case-sensitive (`mS` is not `MS`, `mPa` is not `MPa`).
 */

export interface UnitEntry {
  /** The spelling docs/file-formats.md and reports use. */
  readonly canonical: string;
  /** What mathjs converts; null for a scale mathjs cannot convert (hardness), equal only to itself. */
  readonly mathjs: string | null;
  /** Other spellings of exactly this unit (plurals, words, ASCII forms, exponent notations). */
  readonly spellings: readonly string[];
}

const u = (canonical: string, mathjs: string | null, ...spellings: string[]): UnitEntry => ({
  canonical,
  mathjs,
  spellings,
});

/** Every unit the bundled corpus, its queries and accepted units use, and their usual spellings. */
export const UNIT_TABLE: readonly UnitEntry[] = [
  // temperature (a difference converts without the offset: see `convert(…, {difference: true})`)
  u(
    "°C",
    "degC",
    "℃",
    "degC",
    "deg C",
    "degrees C",
    "degree C",
    "degrees Celsius",
    "degree Celsius",
    "Celsius",
  ),
  u("°F", "degF", "℉", "degF", "deg F", "degrees F", "degree F", "degrees Fahrenheit", "Fahrenheit"),
  u("K", "K", "kelvin", "kelvins", "Kelvin"),
  u("mK", "mK", "millikelvin"),
  // length
  u("µm", "um", "μm", "um", "micron", "microns", "micrometre", "micrometres", "micrometer", "micrometers"),
  u("mm", "mm", "millimetre", "millimetres", "millimeter", "millimeters"),
  u("nm", "nm", "nanometre", "nanometres", "nanometer", "nanometers"),
  u("pm", "pm", "picometre", "picometres", "picometer", "picometers"),
  u("Å", "angstrom", "Å", "angstrom", "angstroms", "Angstrom", "ångström"),
  // thermal conductivity and expansion
  u(
    "W/(m·K)",
    "W/(m*K)",
    "W/(m*K)",
    "W/m/K",
    "W m-1 K-1",
    "W m^-1 K^-1",
    "W/(m K)",
    "W/mK",
    "W/m·K",
    "W/m K",
  ),
  u("mW/(m·K)", "mW/(m*K)", "mW/(m*K)", "mW/m/K", "mW m-1 K-1", "mW/(m K)", "mW/mK", "mW/m·K"),
  // per degree Celsius is per kelvin in size; mathjs is given the kelvin form, which has no offset
  u("W/(m·°C)", "W/(m*K)", "W/(m*degC)", "W/(m*°C)", "W/m/°C", "W m-1 °C-1", "W/(m °C)", "W/m·°C"),
  u("ppm/K", "ppm/K", "ppm K-1", "ppm K^-1"),
  u("µm/(m·K)", "um/(m*K)", "um/(m*K)", "µm/(m*K)", "μm/(m·K)", "µm/m/K", "um/m/K", "µm m-1 K-1"),
  // `1/K` as such has a number inside, which mathjs refuses to convert to; `K^-1` it converts
  u("1/K", "K^-1", "K-1", "K^-1", "/K", "per K"),
  // density and concentration
  u("g/cm³", "g/cm^3", "g/cm3", "g cm-3", "g cm^-3", "g/cc"),
  u("kg/m³", "kg/m^3", "kg/m3", "kg m-3", "kg m^-3"),
  u("g/mL", "g/mL", "g/ml", "g mL-1", "g ml-1"),
  u("g/m³", "g/m^3", "g/m3", "g m-3"),
  u("mg/L", "mg/L", "mg/l", "mg L-1", "mg l-1"),
  // fracture toughness
  u(
    "MPa·m^0.5",
    "MPa*m^0.5",
    "MPa*m^0.5",
    "MPa√m",
    "MPa m^1/2",
    "MPa m^0.5",
    "MPa·m^1/2",
    "MPa·√m",
    "MPa √m",
    "MPa*sqrt(m)",
    "MPa sqrt(m)",
    "MPa·m½",
    "MPa m½",
    "MPa m^(1/2)",
  ),
  u(
    "ksi·in^0.5",
    "ksi*in^0.5",
    "ksi*in^0.5",
    "ksi√in",
    "ksi in^1/2",
    "ksi in^0.5",
    "ksi·√in",
    "ksi*sqrt(in)",
  ),
  // stress and pressure
  u("MPa", "MPa", "megapascal", "megapascals"),
  u("GPa", "GPa", "gigapascal", "gigapascals"),
  u("kPa", "kPa", "kilopascal", "kilopascals"),
  u("hPa", "hPa", "hectopascal", "hectopascals"),
  u("Pa", "Pa", "pascal", "pascals"),
  u("ksi", "ksi"),
  u("psi", "psi"),
  u("bar", "bar", "bars"),
  u("mbar", "mbar", "millibar", "millibars"),
  // ratios
  u("%", "percent", "percent", "per cent", "pct"),
  u("ppm", "ppm", "parts per million"),
  u("mV/V", "mV/V", "mV V-1"),
  // electrical
  u("MS/m", "MS/m", "MS m-1"),
  u("S/m", "S/m", "S m-1"),
  u("S/cm", "S/cm", "S cm-1"),
  u("mS/cm", "mS/cm", "mS cm-1"),
  u("µΩ·cm", "uohm*cm", "uohm*cm", "µohm*cm", "µohm·cm", "µΩ cm", "µohm cm", "uOhm*cm", "micro-ohm cm"),
  u("nΩ·m", "nohm*m", "nohm*m", "nohm·m", "nΩ m", "nohm m"),
  u("Ω·m", "ohm*m", "ohm*m", "ohm·m", "ohm m", "Ω m"),
  u("Ω·cm", "ohm*cm", "ohm*cm", "ohm·cm", "ohm cm", "Ω cm"),
  u("kV/mm", "kV/mm", "kV mm-1"),
  u("kV/mil", "kV/mil", "kV mil-1"),
  u("V/m", "V/m", "V m-1"),
  u("kV", "kV", "kilovolt", "kilovolts"),
  u("V", "V", "volt", "volts"),
  // energy
  u("J", "J", "joule", "joules"),
  u("kJ", "kJ", "kilojoule", "kilojoules"),
  u("eV", "eV", "electronvolt", "electronvolts"),
  u("meV", "meV", "millielectronvolt", "millielectronvolts"),
  u("kJ/mol", "kJ/mol", "kJ mol-1", "kJ mol^-1"),
  u("J/mol", "J/mol", "J mol-1", "J mol^-1"),
  // mass and force
  u("g", "g", "gram", "grams"),
  u("kg", "kg", "kilogram", "kilograms"),
  u("mg", "mg", "milligram", "milligrams"),
  u("lb", "lb", "lbs", "pound", "pounds"),
  u("N", "N", "newton", "newtons"),
  u("kN", "kN", "kilonewton", "kilonewtons"),
  // time
  u("s", "s", "sec", "secs", "second", "seconds"),
  u("ms", "ms", "millisecond", "milliseconds"),
  u("min", "min", "mins", "minute", "minutes"),
  u("h", "h", "hr", "hrs", "hour", "hours"),
  u("day", "day", "days", "d"),
  u("month", "month", "months"),
  u("year", "year", "years", "yr", "yrs"),
  // volume and flow
  u("mL", "mL", "ml", "millilitre", "millilitres", "milliliter", "milliliters"),
  u("L", "L", "l", "litre", "litres", "liter", "liters"),
  u("m³", "m^3", "m3", "cubic metre", "cubic metres", "cubic meter", "cubic meters"),
  u("L/min", "L/min", "l/min", "L min-1"),
  u("L/s", "L/s", "l/s", "L s-1"),
  u("m³/h", "m^3/h", "m3/h", "m3 h-1"),
  // viscosity
  u("mPa·s", "mPa*s", "mPa*s", "mPa s"),
  u("Pa·s", "Pa*s", "Pa*s", "Pa s"),
  // powder flow (Hall funnel): seconds per a 50 g charge, a test method's own unit
  u("s/50 g", null, "s/50g", "s per 50 g"),
  // data
  u("B", "B", "byte", "bytes"),
  u("kB", "kB", "kilobyte", "kilobytes"),
  u("MB", "MB", "megabyte", "megabytes"),
  u("GB", "GB", "gigabyte", "gigabytes"),
  u("KiB", "KiB", "kibibyte", "kibibytes"),
  u("MiB", "MiB", "mebibyte", "mebibytes"),
  // units the re-authored corpus (#27) adds: transport, concentration, stress, money, rates, records
  u("mm²/s", "mm^2/s", "mm2/s", "mm^2/s"),
  u("m²/s", "m^2/s", "m2/s", "m^2/s"),
  u("m²/g", "m^2/g", "m2/g", "m^2/g"),
  u("g/L", "g/L", "g/l", "g L-1"),
  u("mg/m³", "mg/m^3", "mg/m3", "mg/m^3", "mg m-3"),
  u("mJ/cm²", "mJ/cm^2", "mJ/cm2", "mJ/cm^2"),
  u("N/mm²", "N/mm^2", "N/mm2", "N/mm^2"),
  u("ft·lbf", "ft*lbf", "ft*lbf", "ft lbf", "ft-lbf", "ft·lb"),
  u("Ω", "ohm", "ohm", "ohms"),
  u("µS/cm", "uS/cm", "uS/cm", "μS/cm"),
  u("kg/mol", "kg/mol", "kg mol-1"),
  u("K/min", "K/min", "K min-1"),
  u("Hz", "Hz", "hertz"),
  u("kHz", "kHz", "kilohertz"),
  u("week", "week", "weeks", "wk", "wks"),
  u("mm/year", "mm/year", "mm/yr", "mm/a", "mm per year"),
  u("µm/year", "um/year", "um/year", "μm/year", "µm/yr", "um/yr"),
  // composition as a share of mass or of atoms: a percent of its own kind (wt% converts to ppm by mass)
  u("wt%", "percent", "wt.%", "wt %", "mass%", "mass %"),
  u("at%", null, "at.%", "at %"),
  // a melt flow rate and a rate-law exponent unit: a test method's own units, equal only to themselves
  u("cm³/10 min", null, "cm3/10min", "cm3/10 min", "cm³/10min"),
  u("min^-n", null),
  // money: USD is a unit mathjs knows (a base of its own); other currencies never convert without a rate
  u("USD", "USD", "US$", "usd"),
  u("EUR", null, "€", "eur"),
  u("JPY", null, "¥", "jpy"),
  u("KRW", null, "₩", "krw"),
  // hardness scales: no conversion between them (an empirical table, not a unit factor)
  u("HV", null),
  u("HRC", null),
  u("HB", null),
  u("HBW", null),
  // counts of items and containers (inventory records): "each" and "pieces" are one unit
  u("pcs", null, "pc", "piece", "pieces", "ea", "each"),
  u("jar", null, "jars"),
  u("roll", null, "rolls"),
];

/** NFKC, the minus sign (U+2212, which NFKC makes of `⁻`) as hyphen-minus, whitespace collapsed. */
export function spellingKey(label: string): string {
  return label
    .normalize("NFKC")
    .replace(/\u2212/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The spelling written out as a mathjs-style expression: `·` and spaces between factors as `*`,
 * `µ`/`μ` as `u`, `Ω` as `ohm`, `°C` as `degC`, `%` as `percent`, `√x` as `x^0.5`, exponents with
 * `^` (`m3` → `m^3`, `m^1/2` → `m^0.5`). Two labels with the same structural key are the same unit.
 */
export function structuralKey(label: string): string {
  const fraction = (_m: string, unit: string, a: string, b: string) => `${unit}^${Number(a) / Number(b)}`;
  return (
    spellingKey(label)
      .replace(/[\u00b7\u22c5\u2219\u2022\u00d7]/g, "*")
      .replace(/[\u00b5\u03bc]/g, "u")
      .replace(/[\u03a9\u2126]/g, "ohm")
      .replace(/°\s?C\b/g, "degC")
      .replace(/°\s?F\b/g, "degF")
      .replace(/[\u00c5\u212b]/g, "angstrom")
      .replace(/%/g, "percent")
      // √m and sqrt(m) multiply what stands before them: MPa√m is MPa*m^0.5
      .replace(
        /\s*(?:√\s?([A-Za-z]+)|sqrt\(([A-Za-z]+)\))/g,
        (_m, a?: string, b?: string) => `*${a ?? b}^0.5`,
      )
      // m^1/2, m^(1/2) and m½ (NFKC: m1⁄2) are m^0.5; then m3 and m-1 are m^3 and m^-1
      .replace(/([A-Za-z])\^?\(?(\d+)\s*[/\u2044]\s*(\d+)\)?/g, fraction)
      .replace(/([A-Za-z])(-?\d+(?:\.\d+)?)(?![\d.])/g, "$1^$2")
      // spaces between factors multiply; around an operator they are only spacing
      .replace(/\s*([*/])\s*/g, "$1")
      .replace(/ /g, "*")
      .replace(/\*{2,}/g, "*")
      .replace(/(^|\/)\*/g, "$1")
  );
}

export interface ResolvedUnit {
  readonly canonical: string;
  /** What mathjs is given; null when the unit converts to nothing but itself. */
  readonly mathjs: string | null;
  /** Whether the table holds the unit (else the label stands for itself). */
  readonly known: boolean;
}

let index: { bySpelling: Map<string, UnitEntry>; byStructure: Map<string, UnitEntry> } | undefined;

/** The table as two lookups; a spelling claimed by two entries is a bug in the table (a test checks). */
function lookups(): NonNullable<typeof index> {
  if (index) return index;
  const bySpelling = new Map<string, UnitEntry>();
  const byStructure = new Map<string, UnitEntry>();
  for (const entry of UNIT_TABLE)
    for (const spelling of [entry.canonical, ...entry.spellings]) {
      bySpelling.set(spellingKey(spelling), entry);
      byStructure.set(structuralKey(spelling), entry);
    }
  index = { bySpelling, byStructure };
  return index;
}

/** The table entry a label spells, if any. */
export function unitEntry(label: string): UnitEntry | undefined {
  const { bySpelling, byStructure } = lookups();
  return bySpelling.get(spellingKey(label)) ?? byStructure.get(structuralKey(label));
}

export function resolveUnit(label: string): ResolvedUnit {
  const entry = unitEntry(label);
  if (entry) return { canonical: entry.canonical, mathjs: entry.mathjs, known: true };
  const own = structuralKey(label);
  return { canonical: own, mathjs: own === "" ? null : own, known: false };
}

/** The canonical spelling of a unit label. */
export function canonicalUnit(label: string): string {
  return resolveUnit(label).canonical;
}

/** Whether two labels spell the same unit (not merely convertible ones: `MPa` is not `GPa`). */
export function sameUnit(a: string, b: string): boolean {
  return a === b || canonicalUnit(a) === canonicalUnit(b);
}
