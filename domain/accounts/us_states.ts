/**
 * US state, district, territory and military "state" codes as used by USPS, and the
 * normaliser that accepts a code or a full name in any letter case (`new york` → `NY`).
 */

/** USPS two-letter code → official name. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
  DC: "District of Columbia",
  AS: "American Samoa",
  GU: "Guam",
  MP: "Northern Mariana Islands",
  PR: "Puerto Rico",
  VI: "U.S. Virgin Islands",
  FM: "Federated States of Micronesia",
  MH: "Marshall Islands",
  PW: "Palau",
  AA: "Armed Forces Americas",
  AE: "Armed Forces Europe",
  AP: "Armed Forces Pacific",
};

/** Other spellings people type for the same places. */
const ALIASES: Readonly<Record<string, string>> = {
  "washington dc": "DC",
  "washington d c": "DC",
  "d c": "DC",
  "virgin islands": "VI",
  "us virgin islands": "VI",
  "united states virgin islands": "VI",
  "micronesia": "FM",
  "commonwealth of the northern mariana islands": "MP",
  "commonwealth of puerto rico": "PR",
};

function canonical(text: string): string {
  return text.toLowerCase().replace(/\./g, " ").replace(/[\s_-]+/g, " ").trim();
}

const BY_NAME: ReadonlyMap<string, string> = new Map([
  ...Object.entries(US_STATES).map(([code, name]) => [canonical(name), code] as const),
  ...Object.entries(ALIASES),
]);

/**
 * The USPS code for a code or a full name in any case, ignoring periods and extra spaces
 * (`ny`, `New York`, ` NEW  YORK `, `d.c.` → `NY`/`NY`/`NY`/`DC`); undefined when unknown.
 */
export function normalizeUsState(input: string): string | undefined {
  const text = canonical(input);
  const compact = text.replace(/ /g, "").toUpperCase();
  if (compact.length === 2 && US_STATES[compact]) return compact;
  return BY_NAME.get(text);
}

/** Whether an address' country means the United States (absent counts as the US). */
export function isUnitedStates(country: string | null | undefined): boolean {
  if (country === undefined || country === null || country.trim() === "") return true;
  return ["us", "usa", "u s", "u s a", "united states", "united states of america"]
    .includes(canonical(country));
}
